package rfbeam

import (
	"context"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/dataset/synth"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/cv"
	_ "github.com/rfkit/rfkit/learners/pbrff" // a classification-only method
)

type writeCVFn struct{ Dir string }

func (f *writeCVFn) ProcessElement(ctx context.Context, r CVResult) error {
	var b []byte
	for _, v := range r.Scores {
		b = append(b, []byte(strings.TrimSpace(formatBits(v))+"\n")...)
	}
	if err := writeBytes(ctx, filepath.Join(f.Dir, "scores"), b); err != nil {
		return err
	}
	return writeBytes(ctx, filepath.Join(f.Dir, "table"), []byte(r.Table))
}

func formatBits(v float64) string {
	return FormatPrediction(Prediction{Index: int64(math.Float64bits(v)), Value: v})
}

func init() { register.DoFn2x1[context.Context, CVResult, error](&writeCVFn{}) }

// TestCrossValidate: the grid × folds fanned out on Prism give
// cv.GridSearch's scores bit for bit, the table rfkit cv prints on the
// same file, and the refit of the best setting is the one-machine fit.
func TestCrossValidate(t *testing.T) {
	set, err := synth.Checkerboard(400, 0.1, 3)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := writeCSV(t, dir, "cb.csv", set.X, set.D, 0, set.N, nil)
	// writeCSV writes a zero label; put the real ones back.
	raw, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	for i := range set.N {
		lines[i+1] = strings.TrimSuffix(lines[i+1], ",0") + "," + formatFloat(set.Y[i])
	}
	os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644)

	opt := CVOptions{Method: "rks", Params: []string{"features=60"}, Grid: map[string][]string{"gamma": {"1", "4"}, "lambda": {"1e-3", "1e-2"}},
		Folds: 3, Seed: 5, SetSeed: true, Data: path}
	p, s := beam.NewPipelineWithRoot()
	res, model, err := CrossValidate(s, opt)
	if err != nil {
		t.Fatal(err)
	}
	beam.ParDo0(s, &writeCVFn{Dir: dir}, res)
	WriteModel(s, filepath.Join(dir, "best"), model)
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}

	// One machine: cv.GridSearch on the same rows, folds and settings.
	ds, m, variants, want := gridSearchRKS(t, path, learners.Binary, opt.Grid, 5, "60")
	var wantScores strings.Builder
	for _, row := range want.Scores {
		for _, v := range row {
			wantScores.WriteString(formatBits(v) + "\n")
		}
	}
	got, _ := os.ReadFile(filepath.Join(dir, "scores"))
	if string(got) != wantScores.String() {
		t.Fatalf("scores (bits,value):\n%s\ncv.GridSearch:\n%s", got, wantScores.String())
	}
	table, _ := os.ReadFile(filepath.Join(dir, "table"))
	t.Logf("table:\n%s", table)
	refit, err := m.Fit(context.Background(), ds.Matrix(), ds.Y, variants[want.Best].Config, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantModel, _ := refit.MarshalBinary()
	if gotModel, err := os.ReadFile(filepath.Join(dir, "best")); err != nil || string(gotModel) != string(wantModel) {
		t.Errorf("the refitted best model differs from the one-machine fit (%v)", err)
	}

	if testing.Short() {
		return
	}
	// The rfkit command's own table on the same file (cmd/rfkit is a nested
	// module with a replace to the repository root, so it runs from its own
	// directory with or without the workspace).
	cmd := exec.Command("go", "run", ".", "cv", "-method", "rks", "-param", "features=60", "-grid", "gamma=1,4", "-grid", "lambda=1e-3,1e-2",
		"-folds", "3", "-seed", "5", "-quiet", "-data", path)
	cmd.Dir = filepath.Join("..", "cmd", "rfkit")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("rfkit cv: %v", err)
	}
	if string(out) != string(table) {
		t.Errorf("table:\n%s\nrfkit cv prints:\n%s", table, out)
	}
}

func formatFloat(v float64) string {
	return strings.TrimPrefix(FormatPrediction(Prediction{Value: v}), "0,")
}

// TestCrossValidateMulticlass: Task "multiclass" draws stratified folds,
// scores accuracy and gives cv.GridSearch's multiclass scores bit for bit
// (it used to take the regression path: random folds and −RMSE).
func TestCrossValidateMulticlass(t *testing.T) {
	set, err := synth.Checkerboard(300, 0.1, 4)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("x0,x1,y\n")
	y := make([]float64, set.N)
	for i := range set.N {
		y[i] = float64(i % 3) // three classes, shifted apart along x0
		x0 := y[i] + 0.3*set.X[i*set.D]
		b.WriteString(formatFloat(x0) + "," + formatFloat(set.X[i*set.D+1]) + "," + formatFloat(y[i]) + "\n")
	}
	path := filepath.Join(dir, "three.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	opt := CVOptions{Method: "rks", Params: []string{"features=40"}, Grid: map[string][]string{"gamma": {"1", "4"}},
		Folds: 3, Seed: 2, SetSeed: true, Task: "multiclass", Data: path}
	p, s := beam.NewPipelineWithRoot()
	res, _, err := CrossValidate(s, opt)
	if err != nil {
		t.Fatal(err)
	}
	beam.ParDo0(s, &writeCVFn{Dir: dir}, res)
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
	_, _, _, want := gridSearchRKS(t, path, learners.Multiclass, opt.Grid, 2, "40")
	var wantScores strings.Builder
	for _, row := range want.Scores {
		for _, v := range row {
			if !(v > 0.5 && v <= 1) {
				t.Errorf("multiclass fold accuracy %v: want in (0.5, 1]", v)
			}
			wantScores.WriteString(formatBits(v) + "\n")
		}
	}
	got, _ := os.ReadFile(filepath.Join(dir, "scores"))
	if string(got) != wantScores.String() {
		t.Fatalf("scores (bits,value):\n%s\ncv.GridSearch:\n%s", got, wantScores.String())
	}
	table, _ := os.ReadFile(filepath.Join(dir, "table"))
	if !strings.Contains(string(table), "multiclass, 3-fold stratified cross-validation, accuracy") {
		t.Errorf("table:\n%s", table)
	}
}

// gridSearchRKS is the one-machine reference of a CrossValidate run of rks
// on the CSV at path: cv.GridSearch with 3 folds and the same task, seed,
// features and grid. It returns the data, the method, the grid's variants
// and the search's result.
func gridSearchRKS(t *testing.T, path string, task learners.Task, grid map[string][]string, seed int, features string) (*dataset.Dataset, learners.Method, []cv.Variant, cv.Result) {
	t.Helper()
	ds, err := dataset.LoadCSV(path, dataset.CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := learners.Lookup("rks")
	base := m.NewConfig()
	for _, kv := range [][2]string{{"task", task.String()}, {"seed", strconv.Itoa(seed)}, {"features", features}} {
		if err := learners.SetParam(base, kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	variants, _ := cv.Expand(base, grid)
	want, err := cv.GridSearch(context.Background(), ds.Matrix(), ds.Y, task, cv.Candidates(m, variants), 3, uint64(seed))
	if err != nil {
		t.Fatal(err)
	}
	return ds, m, variants, want
}

func TestCrossValidateErrors(t *testing.T) {
	_, s := beam.NewPipelineWithRoot()
	dir := t.TempDir()
	path := filepath.Join(dir, "d.csv")
	os.WriteFile(path, []byte("a,y\n1,0\n2,1\n3,0\n4,1\n"), 0o644)
	for _, tc := range []struct {
		opt  CVOptions
		want string
	}{
		{CVOptions{Method: "nope", Data: path, Grid: map[string][]string{"a": {"1"}}}, `unknown method "nope"`},
		{CVOptions{Method: "rks", Data: path}, "empty grid"},
		{CVOptions{Method: "rks", Data: path, Folds: 1, Grid: map[string][]string{"gamma": {"1"}}}, "1 folds"},
		{CVOptions{Method: "rks", Data: path, Grid: map[string][]string{"gamma": {"1"}}}, "5 folds for 4 rows"},
		{CVOptions{Method: "rks", Data: path, Folds: 2, Grid: map[string][]string{"gamma": {"-1"}}}, "grid setting gamma=-1"},
		{CVOptions{Method: "rks", Data: path, Folds: 2, Grid: map[string][]string{"colour": {"1"}}}, "colour"},
		{CVOptions{Method: "rks", Data: filepath.Join(dir, "missing.csv"), Grid: map[string][]string{"gamma": {"1"}}}, "missing.csv"},
		{CVOptions{Method: "pbrff", Data: path, Task: "regression", Folds: 2, Grid: map[string][]string{"k": {"1"}}}, "pbrff: Task = regression, want binary, multiclass"},
		{CVOptions{Method: "rks", Data: path, Task: "multi", Folds: 2, Grid: map[string][]string{"gamma": {"1"}}}, "want auto, binary, multiclass or regression"},
	} {
		if _, _, err := CrossValidate(s, tc.opt); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err = %v, want %q", tc.opt, err, tc.want)
		}
	}
}
