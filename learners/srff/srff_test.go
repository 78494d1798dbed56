package srff_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/rfkit/rfkit/dataset/synth"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
	"github.com/rfkit/rfkit/learners/rks"
	"github.com/rfkit/rfkit/learners/srff"
)

func set(t testing.TB, name string, n int, seed uint64) (featmap.Matrix, []float64) {
	t.Helper()
	s := learnertest.Must(synth.ByName(name, n, seed))
	return featmap.Dense(s.N, s.D, s.X), s.Y
}

func fit(t testing.TB, X featmap.Matrix, y []float64, cfg srff.Config) *srff.Model {
	return learnertest.MustFit(t, srff.Fit, X, y, cfg)
}

// fitSE fits the set name (SE1 or SE2) on 1000 rows at λ = 1e-3 and
// returns the model, those rows and nt test rows; it skips under -short.
func fitSE(t *testing.T, name string, nt int) (m *srff.Model, X featmap.Matrix, y []float64, Xt featmap.Matrix, yt []float64) {
	if testing.Short() {
		t.Skip("slow")
	}
	X, y = set(t, name, 1000, 1)
	Xt, yt = set(t, name, nt, 2)
	return fit(t, X, y, srff.Config{Lambda: 1e-3}), X, y, Xt, yt
}

// TestSE2 fits SE2 (d = 100, five relevant inputs) on 1000 rows at a fixed
// λ = 1e-3: SRFF must find the five relevant inputs, reach the paper's
// RMSE within 10 % (1.603, its mean over 30 resamples, so ≤ 1.763), and
// beat the mean predictor and plain RFF ridge (which stay at the mean, as
// in the paper) clearly. Measured on these 10000 test rows: SRFF 1.693
// with the accelerated alternation (1.677 with the plain one, 1.680 with
// the old caps of 20 alternations of 10 FISTA steps), mean and RFF 2.24.
// (TestSE1 at the same λ: 0.2807 accelerated, 0.2857 plain.) (On 3000 test rows SRFF measured 1.707: SE2's heavy lower tail
// makes the RMSE of a fixed model move by a few hundredths between test
// samples.)
func TestSE2(t *testing.T) {
	m, X, y, Xt, yt := fitSE(t, "SE2", 10000)
	got, base := learnertest.RMSE(m, y, Xt, yt)
	sigma := float64(X.Cols) / m.Config().Simplex
	best := math.Inf(1)
	for _, lambda := range []float64{1e-1, 1e-2, 1e-3, 1e-4} {
		r, err := rks.Fit(context.Background(), X, y, rks.Config{Features: 300, Gamma: 1 / (2 * sigma * sigma), Lambda: lambda, Loss: rks.Ridge, Task: learners.Regression})
		if err != nil {
			t.Fatal(err)
		}
		e, _ := learnertest.RMSE(r, y, Xt, yt)
		best = math.Min(best, e) // the best λ on the test set: generous to RFF
	}
	t.Logf("SE2 n=1000: SRFF %.4f, mean %.4f, RFF %.4f, ranked %v", got, base, best, m.Ranked()[:8])
	if got > 1.1*1.603 {
		t.Errorf("SRFF RMSE %.4f above 1.1 × the paper's 1.603", got)
	}
	if got > 0.9*base || got > 0.9*best {
		t.Errorf("SRFF RMSE %.4f not clearly below the mean predictor %.4f and RFF %.4f", got, base, best)
	}
	top := slices.Clone(m.Ranked()[:5])
	slices.Sort(top)
	if relevant := []int{0, 1, 2, 3, 4}; !slices.Equal(top, relevant) { // SE2's x₁…x₅
		t.Errorf("top-ranked inputs %v, want %v", top, relevant)
	}
	imp := m.Importance()
	var sum float64
	for _, g := range imp {
		sum += g
	}
	if math.Abs(sum-m.Config().Simplex) > 1e-9*sum {
		t.Errorf("Σγ = %v, want the simplex size %v", sum, m.Config().Simplex)
	}
}

// TestSE1 fits SE1 on 1000 rows at λ = 1e-3: the paper's SRFF gains only
// 5 % over the mean at n = 1000 (0.272 vs 0.287); here SRFF must reach the
// paper's RMSE within 10 % and rank inputs 7, 8, 9 (1-based) in its top
// five, as the paper reports at 1k.
func TestSE1(t *testing.T) {
	m, _, y, Xt, yt := fitSE(t, "SE1", 5000)
	got, base := learnertest.RMSE(m, y, Xt, yt)
	t.Logf("SE1 n=1000: SRFF %.4f (λ = %g), mean %.4f, ranked %v", got, m.Config().Lambda, base, m.Ranked()[:6])
	if got > 1.1*0.272 || got >= base {
		t.Errorf("SRFF RMSE %.4f above 1.1 × the paper's 0.272 or not below the mean predictor %.4f", got, base)
	}
	top := m.Ranked()[:5]
	for _, k := range []int{6, 7, 8} {
		if !slices.Contains(top, k) {
			t.Errorf("input %d (0-based) not in the top five %v", k, top)
		}
	}
}

// TestSearch checks the bookkeeping of the λ search: one point per grid
// value, largest first, and a final λ that is the best grid value rescaled
// to the n rows of the refit.
func TestSearch(t *testing.T) {
	X, y := small(t)
	c := smallCfg
	c.Lambdas = 4
	m := fit(t, X, y, c)
	pts := m.Search()
	if len(pts) != 4 || pts[0].Lambda != srff.DefaultLambdaMax || pts[3].Lambda != srff.DefaultLambdaMin {
		t.Fatalf("search %+v, want 4 points from %g down to %g", pts, srff.DefaultLambdaMax, srff.DefaultLambdaMin)
	}
	best := pts[0]
	for i, p := range pts {
		if i > 0 && !(p.Lambda < pts[i-1].Lambda) {
			t.Errorf("grid not decreasing: %+v", pts)
		}
		if !(p.RMSE > 0) {
			t.Errorf("validation RMSE %v at λ = %g", p.RMSE, p.Lambda)
		}
		if p.RMSE < best.RMSE {
			best = p
		}
	}
	ntr := X.Rows - int(float64(X.Rows)*srff.DefaultValidation+0.5)
	if want := best.Lambda * float64(ntr) / float64(X.Rows); math.Abs(m.Config().Lambda-want) > 1e-15*want {
		t.Errorf("final λ %g, want the best grid value %g × %d/%d = %g", m.Config().Lambda, best.Lambda, ntr, X.Rows, want)
	}
	b := learnertest.Bytes(t, m)
	if l, err := srff.Load(b); err != nil || l.Search() != nil {
		t.Errorf("a loaded model has search %v (%v), want nil", l.Search(), err)
	}
	c.Lambda = 1e-3
	if fit(t, X, y, c).Search() != nil {
		t.Error("a fit at a given λ has a search")
	}
}

func small(t testing.TB) (featmap.Matrix, []float64) { return set(t, "SE1", 60, 5) }

var smallCfg = srff.Config{Features: 20, Lambdas: 2, MaxIterations: 3, GammaIterations: 3, Seed: 4}

// TestRoundTrip: what the suite cannot see, the learned scales, survive a
// model file.
func TestRoundTrip(t *testing.T) {
	X, y := small(t)
	m := fit(t, X, y, smallCfg)
	m2, err := srff.Load(learnertest.Bytes(t, m))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.Importance(), m2.Importance()) || !slices.Equal(m.Ranked(), m2.Ranked()) || m.Config().Lambda != m2.Config().Lambda || m.Config().Simplex != m2.Config().Simplex {
		t.Error("the loaded model differs")
	}
}

// Fit needs minRows rows (the other Config checks run in the
// conformance suite).
func TestTooFewRows(t *testing.T) {
	X, y := small(t)
	learnertest.FitErrors(t, "srff: ", srff.Fit, []learnertest.FitCase[srff.Config]{{Name: "too few rows", X: featmap.Dense(5, 18, X.Data[:90]), Y: y[:5], Cfg: srff.Config{}, Want: "5 rows, want at least 10"}})
}

func TestProgressAndContext(t *testing.T) {
	X, y := small(t)
	var events []learners.Event
	c := smallCfg
	c.Search = learners.Disabled
	c.Progress = func(e learners.Event) error { events = append(events, e); return nil }
	fit(t, X, y, c)
	if len(events) != 3 || events[2].Round != 3 || events[2].Rounds != 3 || events[0].Method != "srff" {
		t.Errorf("events %+v, want 3 rounds", events)
	}
	stop := errors.New("stop")
	c.Progress = func(learners.Event) error { return stop }
	if _, err := srff.Fit(context.Background(), X, y, c); !errors.Is(err, stop) {
		t.Errorf("got %v, want the Progress error", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := srff.Fit(ctx, X, y, smallCfg); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
}

func TestLoadErrors(t *testing.T) {
	X, y := small(t)
	good := learnertest.Bytes(t, fit(t, X, y, smallCfg))
	neg := make([]float64, 18)
	neg[3] = -1
	cases := []learnertest.LoadCase{
		{Name: "unresolved", Data: learnertest.Rewrite(t, good, func(f *modelfile.File) { f.Header.Config = []byte(`{"Features":20}`) }), Want: "unresolved defaults"},
		{Name: "short eps", Data: learnertest.Rewrite(t, good, func(f *modelfile.File) { learnertest.SetArray(f, "eps", make([]float64, 7)) }), Want: `array "eps" has 7 elements`},
		{Name: "negative gamma", Data: learnertest.Rewrite(t, good, func(f *modelfile.File) { learnertest.SetArray(f, "gamma", neg) }), Want: "gamma[3] = -1"},
		{Name: "no intercept", Data: learnertest.Rewrite(t, good, func(f *modelfile.File) { delete(f.Header.Meta, "intercept") }), Want: `no meta value "intercept"`},
	}
	learnertest.LoadErrors(t, "srff: ", srff.Load, cases)
}

// TestSimplexSearch: with Simplex and Lambda at their defaults the fit
// compares SimplexFactors·d/σ on the validation rows and keeps the size
// of the smallest validation RMSE; Search disabled, or a Simplex given,
// fits s = d/σ alone.
func TestSimplexSearch(t *testing.T) {
	X, y := small(t)
	m := fit(t, X, y, smallCfg)
	pts := m.SimplexSearch()
	if len(pts) != len(srff.SimplexFactors) {
		t.Fatalf("simplex search %+v, want %d sizes", pts, len(srff.SimplexFactors))
	}
	best := 0
	for k, p := range pts {
		if p.Factor != srff.SimplexFactors[k] || math.Abs(p.Simplex-p.Factor*pts[0].Simplex) > 1e-12*pts[0].Simplex || !(p.RMSE > 0) {
			t.Fatalf("point %d: %+v", k, p)
		}
		if p.RMSE < pts[best].RMSE {
			best = k
		}
	}
	if m.Config().Simplex != pts[best].Simplex {
		t.Errorf("chosen simplex %v, want %v, the smallest validation RMSE of %+v", m.Config().Simplex, pts[best].Simplex, pts)
	}
	c := smallCfg
	c.Search = learners.Disabled
	plain := fit(t, X, y, c)
	if plain.SimplexSearch() != nil || plain.Config().Simplex != pts[0].Simplex {
		t.Errorf("without the search: simplex %v, search %+v; want %v and none", plain.Config().Simplex, plain.SimplexSearch(), pts[0].Simplex)
	}
}
