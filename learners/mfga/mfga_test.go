package mfga_test

import (
	"crypto/sha256"
	"fmt"
	"math"
	"testing"

	"github.com/rfkit/rfkit/dataset/synth"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
	"github.com/rfkit/rfkit/learners/mfga"
)

func fit(t testing.TB, X featmap.Matrix, y []float64, cfg mfga.Config) *mfga.Model {
	return learnertest.MustFit(t, mfga.Fit, X, y, cfg)
}

// TestRings: two concentric rings (see data_test.go); a linear classifier
// is at chance (≤ 0.62, rks's measurement), the Gaussian factor
// e^{−‖x‖²/2σ²} of the degree-1 dictionary separates them. MFGA with the
// defaults measured 0.999 test accuracy; threshold 0.95.
func TestRings(t *testing.T) {
	X, y := rings(400, 0, 3, 7, 1)
	Xt, yt := rings(1000, 0, 3, 7, 2)
	m := fit(t, X, y, mfga.Config{})
	t.Logf("rings accuracy %.4f", learnertest.Accuracy(m, Xt, yt))
	if acc := learnertest.Accuracy(m, Xt, yt); acc < 0.95 {
		t.Errorf("test accuracy %.3f < 0.95", acc)
	}
	if got := m.Predict(Xt.Row(0)); got != 3 && got != 7 {
		t.Errorf("Predict returned %v, not an original label", got)
	}
	if p := m.Config().Degree; (p != 1 && p != 2) || !(m.Config().Sigma > 0) {
		t.Errorf("resolved config %+v", m.Config())
	}
}

// TestMoons: synth.Moons (noise 0.2). A linear model gets ≈ 0.86; MFGA
// (degree 2, 20 features, two per step) measured 0.966; threshold 0.92.
func TestMoons(t *testing.T) {
	tr := learnertest.Must(synth.Moons(500, 0.2, 1))
	te := learnertest.Must(synth.Moons(2000, 0.2, 2))
	m := fit(t, featmap.Dense(tr.N, tr.D, tr.X), tr.Y, mfga.Config{Degree: 2, Features: 20, PerStep: 2})
	acc := learnertest.Accuracy(m, featmap.Dense(te.N, te.D, te.X), te.Y)
	t.Logf("moons accuracy %.4f", acc)
	if acc < 0.92 {
		t.Errorf("moons test accuracy %.3f < 0.92", acc)
	}
}

// TestRegression: y = x₁x₂ + sin(x₃) + N(0, 0.1²), x ~ N(0, I₄), degree 2
// (the defaults). The mean predictor's RMSE is ≈ 1.22 and any linear
// model's is ≥ 1 (x₁x₂ has variance 1 and is uncorrelated with every
// linear function); MFGA measured 0.566 (x₁x₂ is only in the span up to
// the Gaussian factor e^{−‖x‖²/2σ²}). Thresholds: 0.7 and 0.6 of the
// mean predictor's.
func TestRegression(t *testing.T) {
	X, y := poly(400, 1)
	Xt, yt := poly(1000, 2)
	m := fit(t, X, y, mfga.Config{Task: learners.Regression})
	if m.Task() != learners.Regression || m.Config().Degree != 2 {
		t.Fatalf("resolved config %+v", m.Config())
	}
	rmse, rmse0 := learnertest.RMSE(m, y, Xt, yt)
	t.Logf("RMSE %.4f, mean predictor %.4f, %d features", rmse, rmse0, len(m.Selected()))
	if rmse > 0.7 || rmse > 0.6*rmse0 {
		t.Errorf("RMSE %.3f, mean predictor %.3f", rmse, rmse0)
	}
	if p := m.Probability(Xt.Row(0)); !math.IsNaN(p) {
		t.Errorf("Probability of a regression model = %v, want NaN", p)
	}
}

// The greedy risk never increases, the progress events report it, and
// more features fit the training data better.
func TestRiskDecreases(t *testing.T) {
	for _, task := range []learners.Task{learners.Binary, learners.Regression} {
		X, y := rings(300, 4, 0, 1, 3)
		if task == learners.Regression {
			X, y = poly(300, 3)
		}
		var events []learners.Event
		m := fit(t, X, y, mfga.Config{Task: task, Features: 12, PerStep: 1, Tol: -1, Progress: func(e learners.Event) error {
			events = append(events, e)
			return nil
		}})
		path := mfga.RiskPath(m)
		if len(path) != 13 || len(events) != 12 || len(m.Selected()) != 12 {
			t.Fatalf("%v: path %d, events %d, selected %d", task, len(path), len(events), len(m.Selected()))
		}
		for i := 1; i < len(path); i++ {
			if path[i] > path[i-1]*(1+1e-12) {
				t.Errorf("%v: risk rose at step %d: %v → %v", task, i, path[i-1], path[i])
			}
			if events[i-1].Loss != path[i] || events[i-1].Round != i || events[i-1].Rounds != 12 || events[i-1].Method != "mfga" {
				t.Errorf("%v: event %+v, path %v", task, events[i-1], path[i])
			}
		}
		if !(path[12] < 0.9*path[0]) {
			t.Errorf("%v: risk %v → %v: not learning", task, path[0], path[12])
		}
		seen := map[int]bool{}
		for _, j := range m.Selected() {
			if seen[j] {
				t.Errorf("%v: feature %d selected twice", task, j)
			}
			seen[j] = true
		}
	}
}

// Early stopping: with a large Tol the loop stops before M features.
func TestTolStops(t *testing.T) {
	X, y := sine(300, 4)
	m := fit(t, X, y, mfga.Config{Task: learners.Regression, Features: 40, Tol: 0.05})
	if k := len(m.Selected()); k == 0 || k >= 40 {
		t.Errorf("Tol 0.05 kept %d features", k)
	}
	// Asking for more features than the dictionary holds selects them all
	// (at most; collinear ones are dropped).
	m = fit(t, X, y, mfga.Config{Task: learners.Regression, Features: 1000, Tol: -1})
	if k := len(m.Selected()); k > 2*2+1+3 || k < 5 {
		t.Errorf("degree 2 on 2 inputs (M₀ = 8): %d features selected", k)
	}
}

// Score is the documented sum over the selected features, evaluated with
// the documented formula (TaylorRef, which uses math.Exp: equal up to
// rounding).
func TestScoreFormula(t *testing.T) {
	X, y := sine(200, 6)
	m := fit(t, X, y, mfga.Config{Task: learners.Regression, Features: 6})
	cfg := m.Config()
	// Recover the standardisation from the training data.
	var mean, sd [2]float64
	for i := 0; i < X.Rows; i++ {
		for k := 0; k < 2; k++ {
			mean[k] += X.Row(i)[k] / float64(X.Rows)
		}
	}
	for i := 0; i < X.Rows; i++ {
		for k := 0; k < 2; k++ {
			u := X.Row(i)[k] - mean[k]
			sd[k] += u * u / float64(X.Rows)
		}
	}
	coef, bias := m.Coef()
	for i := 0; i < 20; i++ {
		x := X.Row(i)
		xs := []float64{(x[0] - mean[0]) / math.Sqrt(sd[0]), (x[1] - mean[1]) / math.Sqrt(sd[1])}
		phi := mfga.TaylorRef(xs, cfg.Sigma, 2)
		want := bias
		for t, j := range m.Selected() {
			want += coef[t] * phi[j]
		}
		if got := m.Score(x); math.Abs(got-want) > 1e-9*(1+math.Abs(want)) {
			t.Fatalf("row %d: Score %v, formula %v", i, got, want)
		}
	}
}

// A dictionary over maxCandidates is refused (the other Config checks run
// in the conformance suite).
func TestHugeDictionary(t *testing.T) {
	learnertest.FitErrors(t, "mfga: ", mfga.Fit, []learnertest.FitCase[mfga.Config]{{Name: "huge dictionary", X: featmap.Dense(1, 5000, make([]float64, 5000)), Y: []float64{1}, Cfg: mfga.Config{Task: learners.Regression}, Want: "more than 4194304 degree-2 candidates"}})
}

// TestLoadErrors: the selection's own invariants (the generic file checks
// run in the conformance suite).
func TestLoadErrors(t *testing.T) {
	X, y := rings(30, 0, 0, 1, 3)
	good := learnertest.Bytes(t, fit(t, X, y, mfga.Config{Features: 3, Tol: -1}))

	cases := []learnertest.LoadCase{
		{Name: "too many selected", Data: learnertest.Rewrite(t, good, func(f *modelfile.File) { f.Header.Meta["selected"] = 11 }), Want: "selected = 11, want an integer in 0..3"},
		{Name: "fractional selected", Data: learnertest.Rewrite(t, good, func(f *modelfile.File) { f.Header.Meta["selected"] = 1.5 }), Want: "selected = 1.5"},
		{Name: "bad index", Data: learnertest.Rewrite(t, good, func(f *modelfile.File) { learnertest.SetArray(f, "index", []float64{0, 5, 1}) }), Want: "index[1] = 5, want an integer in 0..4"},
		{Name: "negative index", Data: learnertest.Rewrite(t, good, func(f *modelfile.File) { learnertest.SetArray(f, "index", []float64{0, -1, 1}) }), Want: "index[1] = -1"},
		{Name: "long risk", Data: learnertest.Rewrite(t, good, func(f *modelfile.File) { learnertest.SetArray(f, "risk", make([]float64, 5)) }), Want: "risk path has 5 values, want 1..4"},
	}
	learnertest.LoadErrors(t, "mfga: ", mfga.Load, cases)
}

// The model files are the same bytes on every architecture and path
// (amd64 with or without AVX, purego, arm64 under qemu): these digests
// were recorded on amd64.
func TestGoldenModelBytes(t *testing.T) {
	Xb, yb := rings(300, 2, 0, 1, 11)
	Xr, yr := poly(300, 12)
	for _, c := range []struct {
		name string
		cfg  mfga.Config
		want string
	}{
		// degree 1 set: the σ search alone, as when this digest was recorded
		{"binary", mfga.Config{Features: 7, PerStep: 2, Degree: 1}, "722e64388a13bf45d202bbbde495ce799bcdec7d455017093c9b576d71af90f7"},
		// the σ rule without the search: an explicit σ off the rule (e.g.
		// 3.680742993249263, which the search picks here) gives a model
		// 1 ULP apart on arm64, a known defect of the fit on this path
		{"regression", mfga.Config{Task: learners.Regression, Features: 9, PerStep: 1, Search: learners.Disabled}, "5df509e19d1351d5ad25ce03d957db63b0719736abe57495d36c15661caa6478"},
	} {
		X, y := Xb, yb
		if c.cfg.Task == learners.Regression {
			X, y = Xr, yr
		}
		b := learnertest.Bytes(t, fit(t, X, y, c.cfg))
		if got := fmt.Sprintf("%x", sha256.Sum256(b)); got != c.want {
			t.Errorf("%s: model digest %s, want %s", c.name, got, c.want)
		}
	}
}
