package rfbeam

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/rfkit/rfkit/dataset/synth"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/gbrff"
	"github.com/rfkit/rfkit/learners/rks"
)

func TestMain(m *testing.M) { ptest.Main(m) }

// trainedModel fits a small GBRFF2 model on the checkerboard toy.
func trainedModel(t testing.TB) (learners.Model, []byte) {
	t.Helper()
	set, err := synth.Checkerboard(500, 0.1, 1)
	if err != nil {
		t.Fatal(err)
	}
	m, err := gbrff.Fit(context.Background(), featmap.Dense(set.N, set.D, set.X), set.Y, gbrff.Config{T: 30, Gamma: 4, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	data, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return m, data
}

// writeCSV writes rows [from, to) of X (d columns) with a label column of
// zeros and returns the path.
func writeCSV(t testing.TB, dir, name string, X []float64, d, from, to int, extra map[int]string) string {
	t.Helper()
	var b strings.Builder
	for j := range d {
		fmt.Fprintf(&b, "x%d,", j)
	}
	b.WriteString("y\n")
	for i := from; i < to; i++ {
		if s, ok := extra[i]; ok {
			b.WriteString(s + "\n")
			continue
		}
		for j := range d {
			b.WriteString(strconv.FormatFloat(X[i*d+j], 'g', -1, 64) + ",")
		}
		b.WriteString("0\n")
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// readPredictions reads the files PREFIX-* into row → value (the source
// file given by the shard's prefix is not in the line: one input file).
func readPredictions(t testing.TB, pattern string) map[int64]float64 {
	t.Helper()
	files, _ := filepath.Glob(pattern)
	out := map[int64]float64{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Fields(string(data)) {
			row, val, ok := strings.Cut(line, ",")
			if !ok {
				t.Fatalf("%s: line %q", f, line)
			}
			i, err1 := strconv.ParseInt(row, 10, 64)
			v, err2 := strconv.ParseFloat(val, 64)
			if err1 != nil || err2 != nil {
				t.Fatalf("%s: line %q", f, line)
			}
			if _, dup := out[i]; dup {
				t.Fatalf("row %d written twice", i)
			}
			out[i] = v
		}
	}
	return out
}

// TestScoreTextBits: 10⁵ rows in 4 CSV files, read, reshuffled, scored and
// written in 4 shards on Prism, have the bits of Model.Predict on one
// machine; the bad lines land in the dead-letter file with their reason.
func TestScoreTextBits(t *testing.T) {
	n, files := 100000, 4
	if testing.Short() {
		n = 8000
	}
	model, data := trainedModel(t)
	set, err := synth.Checkerboard(n, 0.3, 7)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	per := n / files
	bad := map[int]string{5: "0.1,abc,0", 17: "1,2", per + 3: ",0.5,0", 2*per + 1: "1e999,0,0"}
	var inputs []string
	for k := range files {
		// One file per shard; each file numbers its rows from 0, so the
		// test keeps them apart by writing one prefix per file.
		inputs = append(inputs, writeCSV(t, dir, fmt.Sprintf("in-%d.csv", k), set.X, set.D, k*per, (k+1)*per, bad))
	}
	p, s := beam.NewPipelineWithRoot()
	for k, in := range inputs {
		rows, badRows, err := ReadRows(s, TextOptions{Inputs: model.NumInputs()}, in)
		if err != nil {
			t.Fatal(err)
		}
		preds, scoreBad, err := Score(s, data, Predict, beam.Reshuffle(s, rows))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := WritePredictions(s, filepath.Join(dir, fmt.Sprintf("out%d", k)), 4, preds); err != nil {
			t.Fatal(err)
		}
		WriteBadRows(s, filepath.Join(dir, fmt.Sprintf("out%d", k)), beam.Flatten(s, badRows, scoreBad))
	}
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
	for k := range files {
		got := readPredictions(t, filepath.Join(dir, fmt.Sprintf("out%d-0000?-of-00004", k)))
		nbad := 0
		for i := k * per; i < (k+1)*per; i++ {
			v, ok := got[int64(i-k*per)]
			if _, isBad := bad[i]; isBad {
				nbad++
				if ok {
					t.Errorf("bad row %d has a prediction %v", i, v)
				}
				continue
			}
			want := model.Predict(set.Row(i))
			if !ok || math.Float64bits(v) != math.Float64bits(want) {
				t.Fatalf("file %d row %d: got %v (present %v), Predict gives %v", k, i-k*per, v, ok, want)
			}
		}
		if len(got) != per-nbad {
			t.Fatalf("file %d: %d predictions, want %d", k, len(got), per-nbad)
		}
	}
	dead, err := os.ReadFile(filepath.Join(dir, "out0-bad"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(dead)), "\n")
	sort.Strings(lines)
	want := []string{
		filepath.Join(dir, "in-0.csv") + `: data row 18: line has 2 fields, header has 3`,
		filepath.Join(dir, "in-0.csv") + `: data row 6: column "x1": "abc" is not a number`,
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("dead letters of file 0:\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	for k, wantReason := range map[int]string{1: `data row 4: column "x0": empty value`, 2: `data row 2: column "x0": "1e999" is out of range`} {
		dead, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("out%d-bad", k)))
		if err != nil || !strings.Contains(string(dead), wantReason) {
			t.Errorf("dead letters of file %d: %q (%v), want %q", k, dead, err, wantReason)
		}
	}
}

// TestScoreRowsOutputs: a PCollection of rows scored for each output
// (predict, score, probability) has the bits of the model's own methods,
// and rows it cannot score go to the dead-letter output with the reason.
func TestScoreRowsOutputs(t *testing.T) {
	set, err := synth.Checkerboard(300, 0.1, 2)
	if err != nil {
		t.Fatal(err)
	}
	m, err := rks.Fit(context.Background(), featmap.Dense(set.N, set.D, set.X), set.Y, rks.Config{Features: 50, Gamma: 2, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := m.MarshalBinary()
	var rows []Row
	for i := range set.N {
		rows = append(rows, Row{Index: int64(i), X: set.Row(i)})
	}
	rows = append(rows,
		Row{Index: 1000, X: []float64{1}},
		Row{Index: 1001, X: []float64{math.NaN(), 0}},
		Row{Index: 1002, X: []float64{0, math.Inf(-1)}},
		Row{Index: 1003, X: []float64{1e308, -1e308}})
	dir := t.TempDir()
	p, s := beam.NewPipelineWithRoot()
	in := beam.CreateList(s, rows)
	for _, out := range []Output{Predict, RawScore, Probability} {
		preds, bad, err := Score(s, data, out, in)
		if err != nil {
			t.Fatal(err)
		}
		WritePredictions(s, filepath.Join(dir, string(out)), 3, preds)
		WriteBadRows(s, filepath.Join(dir, string(out)), bad)
	}
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
	for _, out := range []Output{Predict, RawScore, Probability} {
		got := readPredictions(t, filepath.Join(dir, string(out)+"-0000?-of-00003"))
		wantN := set.N
		if out == Probability {
			// A probability may be NaN or saturate: row 1003's overflowing
			// score is no error there, as in ProbabilityBatch.
			wantN++
			if w := m.Probability(rows[set.N+3].X); !sameBits(got[1003], w) {
				t.Errorf("probability of row 1003: %v, want %v", got[1003], w)
			}
		}
		if len(got) != wantN {
			t.Fatalf("%s: %d predictions, want %d", out, len(got), wantN)
		}
		for i := range set.N {
			want := map[Output]func([]float64) float64{Predict: m.Predict, RawScore: m.Score, Probability: m.Probability}[out](set.Row(i))
			if math.Float64bits(got[int64(i)]) != math.Float64bits(want) {
				t.Fatalf("%s row %d: %v, want %v", out, i, got[int64(i)], want)
			}
		}
		dead, err := os.ReadFile(filepath.Join(dir, string(out)+"-bad"))
		if err != nil {
			t.Fatal(err)
		}
		want := "data row 1001: 1 inputs, the model takes 2\ndata row 1002: input 0 is NaN\ndata row 1003: input 1 is -Inf\n"
		if !strings.HasPrefix(string(dead), want) {
			t.Errorf("%s dead letters:\n%s\nwant prefix\n%s", out, dead, want)
		}
	}
}

func TestScoreErrors(t *testing.T) {
	_, data := trainedModel(t)
	_, s := beam.NewPipelineWithRoot()
	rows := beam.CreateList(s, []Row{{X: []float64{0, 0}}})
	if _, _, err := Score(s, []byte("not a model"), Predict, rows); err == nil || !strings.Contains(err.Error(), "rfbeam: learners:") {
		t.Errorf("bad model file: %v", err)
	}
	if _, _, err := Score(s, data, "median", rows); err == nil || !strings.Contains(err.Error(), `unknown output "median"`) {
		t.Errorf("bad output: %v", err)
	}
	if _, _, err := ReadRows(s, TextOptions{}, "x.csv"); err == nil || !strings.Contains(err.Error(), "needs Inputs") {
		t.Errorf("ReadRows without Inputs: %v", err)
	}
	if _, _, err := ReadRows(s, TextOptions{Inputs: 2, Format: "tsv"}, "x.csv"); err == nil || !strings.Contains(err.Error(), `unknown format "tsv"`) {
		t.Errorf("ReadRows tsv: %v", err)
	}
	if _, err := WritePredictions(s, "out", 0, rows); err == nil {
		t.Errorf("0 shards: no error")
	}
}

// sameBits: the same float64, NaN matching NaN (a text file keeps no NaN
// payload).
func sameBits(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b))
}
