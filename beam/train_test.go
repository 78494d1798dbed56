package rfbeam

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/rks"
)

// regressionCSV writes n rows of d inputs (offset columns, so the
// standardisation matters) and a nonlinear target, and returns the path.
func regressionCSV(t testing.TB, dir string, n, d int, binary bool, extra string) string {
	t.Helper()
	r := rand.New(rand.NewPCG(uint64(n), uint64(d)))
	var b strings.Builder
	for j := range d {
		fmt.Fprintf(&b, "x%d,", j)
	}
	b.WriteString("y\n")
	x := make([]float64, d)
	for range n {
		for j := range x {
			x[j] = 1000*float64(j) + float64(j+1)*r.NormFloat64()
			b.WriteString(strconv.FormatFloat(x[j], 'g', -1, 64) + ",")
		}
		y := math.Sin(x[0]) + 0.01*(x[1]-1000)*(x[1]-1000) + 0.1*r.NormFloat64()
		if binary {
			y = 3
			if math.Sin(2*x[0])*x[1] > 1000 {
				y = 7
			}
		}
		b.WriteString(strconv.FormatFloat(y, 'g', -1, 64) + "\n")
	}
	b.WriteString(extra)
	path := filepath.Join(dir, "train.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestRKSModelShards: the distributed ridge RKS on 10⁵ rows has the same
// bits for 1, 4 and 16 shards, and its model file is rks.Fit's on the same
// rows, byte for byte.
func TestRKSModelShards(t *testing.T) {
	n, d := 100000, 3
	if testing.Short() {
		n = 5000
	}
	dir := t.TempDir()
	path := regressionCSV(t, dir, n, d, false, "1,2\n")
	cfg := rks.Config{Features: 48, Gamma: 0.5, Lambda: 1e-4, Task: learners.Regression, Seed: 11}
	p, s := beam.NewPipelineWithRoot()
	ex, bad, err := ReadExamples(s, TextOptions{}, path)
	if err != nil {
		t.Fatal(err)
	}
	WriteBadRows(s, filepath.Join(dir, "read"), bad)
	shards := []int{1, 4, 16}
	for _, k := range shards {
		model, bad, err := RKSModel(s, cfg, TrainOptions{Inputs: d, Shards: k}, ex)
		if err != nil {
			t.Fatal(err)
		}
		WriteModel(s, filepath.Join(dir, fmt.Sprintf("model-%d", k)), model)
		WriteBadRows(s, filepath.Join(dir, fmt.Sprintf("train-%d", k)), bad)
	}
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
	dead, _ := os.ReadFile(filepath.Join(dir, "read-bad"))
	if want := fmt.Sprintf("data row %d: line has 2 fields, header has 4", n+1); !strings.Contains(string(dead), want) {
		t.Errorf("dead letters %q, want %q", dead, want)
	}
	var files [][]byte
	for _, k := range shards {
		data, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("model-%d", k)))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, data)
	}
	for i := range files {
		if string(files[i]) != string(files[0]) {
			t.Fatalf("the model of %d shards differs from that of 1 shard", shards[i])
		}
	}
	got, err := rks.Load(files[0])
	if err != nil {
		t.Fatal(err)
	}
	ds, err := dataset.LoadCSV(path+".clean", dataset.CSVOptions{})
	if err == nil || ds != nil {
		t.Fatal("unexpected file")
	}
	clean := filepath.Join(dir, "clean.csv")
	raw, _ := os.ReadFile(path)
	os.WriteFile(clean, []byte(strings.TrimSuffix(string(raw), "1,2\n")), 0o644)
	ds, err = dataset.LoadCSV(clean, dataset.CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := rks.Fit(context.Background(), ds.Matrix(), ds.Y, cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Both sum rows in float64 within blocks of 1024 and exactly across
	// blocks, so the files are the same, byte for byte.
	wantFile, err := want.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if string(files[0]) != string(wantFile) {
		gm, gs := got.Standardization()
		wm, ws := want.Standardization()
		t.Errorf("the model differs from rks.Fit's: mean %v / %v, scale %v / %v, bias %v / %v",
			gm, wm, gs, ws, got.Body().Bias, want.Body().Bias)
	}
	for i := range 100 {
		a, b := got.Predict(ds.Row(i)), want.Predict(ds.Row(i))
		if math.Float64bits(a) != math.Float64bits(b) {
			t.Fatalf("row %d: predicts %v, rks.Fit %v", i, a, b)
		}
	}
}

// TestRKSModelBinary: ridge on two labels (3 and 7) gives rks.Fit's model
// file, and Standardize learners.Standardize's bits (3000 rows: three
// blocks, the last one short).
func TestRKSModelBinary(t *testing.T) {
	n, d := 3000, 2
	dir := t.TempDir()
	path := regressionCSV(t, dir, n, d, true, "")
	ds, err := dataset.LoadCSV(path, dataset.CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// the distributed fit is the plain fit: no held-out search or calibration
	cfg := rks.Config{Features: 20, Loss: rks.Ridge, Seed: 2, Search: learners.Disabled, Calibrate: learners.Disabled}
	p, s := beam.NewPipelineWithRoot()
	ex, _, err := ReadExamples(s, TextOptions{Inputs: d}, path)
	if err != nil {
		t.Fatal(err)
	}
	model, _, err := RKSModel(s, cfg, TrainOptions{Inputs: d, Shards: 3}, ex)
	if err != nil {
		t.Fatal(err)
	}
	WriteModel(s, filepath.Join(dir, "model"), model)
	std, _, err := Standardize(s, TrainOptions{Inputs: d, Shards: 5}, ex)
	if err != nil {
		t.Fatal(err)
	}
	beam.ParDo0(s, &writeStdFn{Path: filepath.Join(dir, "std")}, std)
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "model"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := rks.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	want, err := rks.Fit(context.Background(), ds.Matrix(), ds.Y, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got.Labels() != want.Labels() || got.Labels() != (learners.Labels{Neg: 3, Pos: 7}) {
		t.Fatalf("labels %v, rks.Fit %v", got.Labels(), want.Labels())
	}
	wantFile, err := want.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != string(wantFile) {
		t.Error("the model file differs from rks.Fit's")
	}
	wm, ws, _, _ := learners.Standardize(ds.Matrix())
	raw, err := os.ReadFile(filepath.Join(dir, "std"))
	if err != nil {
		t.Fatal(err)
	}
	if w := fmt.Sprint(n, wm, ws, []float64{3, 7}); string(raw) != w {
		t.Errorf("standardization %s, learners.Standardize %s", raw, w)
	}
}

type writeStdFn struct{ Path string }

func (f *writeStdFn) ProcessElement(ctx context.Context, s Standardization) error {
	return writeBytes(ctx, f.Path, []byte(fmt.Sprint(s.N, s.Mean, s.Scale, s.Labels)))
}

func init() { register.DoFn2x1[context.Context, Standardization, error](&writeStdFn{}) }

func TestRKSModelErrors(t *testing.T) {
	_, s := beam.NewPipelineWithRoot()
	ex := beam.CreateList(s, []Example{{X: []float64{1}, Y: 1}})
	for _, tc := range []struct {
		cfg  rks.Config
		opt  TrainOptions
		want string
	}{
		{rks.Config{}, TrainOptions{Inputs: 1}, "ridge loss only"},
		{rks.Config{Loss: rks.Logistic}, TrainOptions{Inputs: 1}, "ridge loss only"},
		{rks.Config{Loss: rks.Ridge}, TrainOptions{}, "Inputs = 0"},
		{rks.Config{Loss: rks.Ridge}, TrainOptions{Inputs: 1, Shards: -2}, "Shards = -2"},
		{rks.Config{Loss: rks.Ridge, Features: 4096}, TrainOptions{Inputs: 1}, "at most 2048"},
		{rks.Config{Loss: rks.Ridge, Gamma: -1}, TrainOptions{Inputs: 1}, "Gamma"},
	} {
		if _, _, err := RKSModel(s, tc.cfg, tc.opt, ex); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v %+v: err = %v, want %q", tc.cfg, tc.opt, err, tc.want)
		}
	}
	// A job on three classes, and one with a NaN row among good ones.
	for _, tc := range []struct {
		rows []Example
		want string
	}{
		{[]Example{{Index: 0, X: []float64{1}, Y: 1}, {Index: 1, X: []float64{2}, Y: 2}, {Index: 2, X: []float64{3}, Y: 3}}, "more than two values"},
		{[]Example{{Index: 0, X: []float64{1}, Y: 1}, {Index: 1, X: []float64{2}, Y: 1}}, "one value (1)"},
	} {
		p, s := beam.NewPipelineWithRoot()
		model, _, err := RKSModel(s, rks.Config{Loss: rks.Ridge, Features: 4}, TrainOptions{Inputs: 1, Shards: 2}, beam.CreateList(s, tc.rows))
		if err != nil {
			t.Fatal(err)
		}
		WriteModel(s, filepath.Join(t.TempDir(), "m"), model)
		if err := ptest.Run(p); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("job error %v, want %q", err, tc.want)
		}
	}
}
