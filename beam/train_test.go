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
	"github.com/rfkit/rfkit/featmap"
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
// bits for 1, 4 and 16 shards, and its coefficients, standardisation and
// predictions equal rks.Fit's on the same rows to 1e-12 relative.
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
	if want := fmt.Sprintf("row %d: line has 2 fields, header has 4", n); !strings.Contains(string(dead), want) {
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
	// rks.Fit sums in float64 in row order: its own coefficients move
	// under a permutation of the rows by more than 1e-12 relative (measured
	// 4.9e-10 per coefficient, 5.2e-12 of max|coef| at λ = 1e-4). The
	// distributed fit, with exact sums, must lie within twice that spread.
	perm := rand.New(rand.NewPCG(9, 9)).Perm(ds.N)
	Xp, yp := make([]float64, 0, len(ds.X)), make([]float64, 0, ds.N)
	for _, i := range perm {
		Xp, yp = append(Xp, ds.Row(i)...), append(yp, ds.Y[i])
	}
	permuted, err := rks.Fit(context.Background(), featmap.Dense(ds.N, ds.D, Xp), yp, cfg)
	if err != nil {
		t.Fatal(err)
	}
	maxRel := func(a, b []float64) (perValue, overall float64) {
		var diff, size float64
		for i := range a {
			perValue = math.Max(perValue, math.Abs(a[i]-b[i])/math.Abs(b[i]))
			diff, size = math.Max(diff, math.Abs(a[i]-b[i])), math.Max(size, math.Abs(b[i]))
		}
		return perValue, diff / size
	}
	gm, gs := got.Standardization()
	wm, ws := want.Standardization()
	relMean, _ := maxRel(gm, wm)
	relScale, _ := maxRel(gs, ws)
	relCoef, normCoef := maxRel(got.Body().Coef, want.Body().Coef)
	spread, normSpread := maxRel(permuted.Body().Coef, want.Body().Coef)
	relBias := math.Abs(got.Body().Bias-want.Body().Bias) / math.Abs(want.Body().Bias)
	t.Logf("n = %d: relative difference to rks.Fit: mean %.2g, scale %.2g, bias %.2g, coef %.2g per coefficient (%.2g of max|coef|); rks.Fit on permuted rows: %.2g (%.2g)",
		n, relMean, relScale, relBias, relCoef, normCoef, spread, normSpread)
	for name, r := range map[string]float64{"mean": relMean, "scale": relScale} {
		if !(r <= 1e-12) {
			t.Errorf("%s: relative difference %g to rks.Fit > 1e-12", name, r)
		}
	}
	if !(relCoef <= 2*spread) || !(normCoef <= 2*normSpread) {
		t.Errorf("coefficients %g (%g of max|coef|) from rks.Fit, more than twice rks.Fit's own spread under a row permutation (%g, %g)", relCoef, normCoef, spread, normSpread)
	}
	if fmt.Sprintf("%+v", got.Config()) != fmt.Sprintf("%+v", want.Config()) {
		t.Errorf("config %+v, rks.Fit %+v", got.Config(), want.Config())
	}
	for i := range 100 {
		a, b := got.Predict(ds.Row(i)), want.Predict(ds.Row(i))
		if math.Abs(a-b) > 1e-10*math.Abs(b) {
			t.Fatalf("row %d: predicts %v, rks.Fit %v", i, a, b)
		}
	}
}

// TestRKSModelBinary: ridge on two labels (3 and 7) matches rks.Fit, and
// Standardize equals learners.Standardize; the third class of a bad file
// is a clear error of the job.
func TestRKSModelBinary(t *testing.T) {
	n, d := 3000, 2
	dir := t.TempDir()
	path := regressionCSV(t, dir, n, d, true, "")
	ds, err := dataset.LoadCSV(path, dataset.CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := rks.Config{Features: 20, Loss: rks.Ridge, Seed: 2}
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
	agree := 0
	for i := range n {
		if got.Predict(ds.Row(i)) == want.Predict(ds.Row(i)) {
			agree++
		}
		if a, b := got.Score(ds.Row(i)), want.Score(ds.Row(i)); math.Abs(a-b) > 1e-9 {
			t.Fatalf("row %d: score %v, rks.Fit %v", i, a, b)
		}
	}
	if agree != n {
		t.Errorf("%d of %d predictions agree with rks.Fit", agree, n)
	}
	wm, ws, _, _ := learners.Standardize(ds.Matrix())
	raw, err := os.ReadFile(filepath.Join(dir, "std"))
	if err != nil {
		t.Fatal(err)
	}
	if w := fmt.Sprint(3000, wm, ws, []float64{3, 7}); string(raw) != w {
		// Both are correctly rounded sums divided by n or one rounding away.
		t.Logf("standardization %s, learners.Standardize %s", raw, w)
		var gm, gs []float64
		for _, f := range strings.Fields(strings.NewReplacer("[", " ", "]", " ").Replace(string(raw)))[1 : 1+2*d] {
			v, _ := strconv.ParseFloat(f, 64)
			if len(gm) < d {
				gm = append(gm, v)
			} else {
				gs = append(gs, v)
			}
		}
		for j := range d {
			if math.Abs(gm[j]-wm[j]) > 1e-13*math.Abs(wm[j]) || math.Abs(gs[j]-ws[j]) > 1e-13*ws[j] {
				t.Errorf("column %d: mean %v scale %v, learners.Standardize %v %v", j, gm[j], gs[j], wm[j], ws[j])
			}
		}
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
