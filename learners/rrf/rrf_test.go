package rrf_test

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
	"github.com/rfkit/rfkit/learners/rrf"
)

// rings is the suite's disc data set.
var rings = learnertest.Disc

func sinus(n, d int, seed uint64) ([]float64, []float64) {
	r := rand.New(rand.NewPCG(seed, 10))
	X, y := make([]float64, n*d), make([]float64, n)
	for i := range y {
		for j := 0; j < d; j++ {
			X[i*d+j] = r.NormFloat64()
		}
		y[i] = math.Sin(2*X[i*d]) + 0.5*X[i*d+1] + 0.05*r.NormFloat64()
	}
	return X, y
}

func TestOnlineBinary(t *testing.T) {
	const n, d = 6000, 4
	X, y := rings(n, d, 1)
	for _, loss := range []rrf.Loss{rrf.Hinge, rrf.Logistic} {
		l, err := rrf.NewLearner(d, rrf.Config{Loss: loss, Eta: 0.002, EtaGamma: 0.01, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		rate := learnertest.LateMistakes(t, l, X, y, d)
		st := l.Stats()
		t.Logf("%s: online mistake rate %.4f, second half %.4f, widths %.3f", loss, st.MistakeRate(), rate, l.Snapshot().Importance())
		if st.N != n || rate > 0.12 {
			t.Errorf("%s: second-half mistake rate %.4f, want ≤ 0.12 (majority rate ≈ 0.45)", loss, rate)
		}
		imp := l.Snapshot().Importance()
		if !(imp[0] > imp[2] && imp[1] > imp[3]) {
			t.Errorf("%s: widths %v: the two relevant inputs should be the widest", loss, imp)
		}
	}
}

func TestOnlineRegression(t *testing.T) {
	const n, d = 6000, 3
	X, y := sinus(n, d, 2)
	for _, loss := range []rrf.Loss{rrf.L1, rrf.L2, rrf.EpsInsensitive} {
		l, err := rrf.NewLearner(d, rrf.Config{Task: learners.Regression, Loss: loss, Eta: 0.003, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		var sse float64
		for i := 0; i < n; i++ {
			o, err := l.Update(X[i*d:(i+1)*d], y[i])
			if err != nil {
				t.Fatal(err)
			}
			if i >= n/2 {
				sse += (o.Prediction - y[i]) * (o.Prediction - y[i])
			}
		}
		rmse := math.Sqrt(sse / (n / 2))
		t.Logf("%s: online RMSE %.4f, second half %.4f", loss, l.Stats().RMSE(), rmse)
		limit := 0.3 // sd(y) ≈ 0.85
		if loss != rrf.L2 {
			limit = 0.45 // bounded gradients: slower
		}
		if rmse > limit {
			t.Errorf("%s: second-half RMSE %.4f, want ≤ %v", loss, rmse, limit)
		}
	}
}

func TestMulticlass(t *testing.T) {
	const n, d = 6000, 2
	r := rand.New(rand.NewPCG(5, 5))
	X, y := make([]float64, n*d), make([]float64, n)
	labels := []float64{7, -3, 20} // arbitrary values
	for i := range y {
		a := 2 * math.Pi * r.Float64()
		X[i*d], X[i*d+1] = math.Cos(a)+0.2*r.NormFloat64(), math.Sin(a)+0.2*r.NormFloat64()
		y[i] = labels[int(3*a/(2*math.Pi))%3]
	}
	for _, loss := range []rrf.Loss{rrf.Hinge, rrf.Logistic} {
		l, err := rrf.NewLearner(d, rrf.Config{Classes: labels, Loss: loss, Eta: 0.002, Seed: 2})
		if err != nil {
			t.Fatal(err)
		}
		rate := learnertest.LateMistakes(t, l, X, y, d)
		t.Logf("%s: multiclass second-half mistake rate %.4f", loss, rate)
		if rate > 0.12 {
			t.Errorf("%s: multiclass mistake rate %.4f, want ≤ 0.12", loss, rate)
		}
		if _, err := l.Update(X[:d], 1); err == nil || !strings.Contains(err.Error(), "not one of the 3 classes") {
			t.Errorf("unknown label: %v", err)
		}
		m := l.Snapshot()
		if len(m.Classes()) != 3 || m.Task() != learners.Binary {
			t.Errorf("classes %v task %v", m.Classes(), m.Task())
		}
		learnertest.RoundTrip(t, m, rrf.Load, X[:200*d], d)
	}
	// Fit infers the classes with Multiclass.
	m, err := rrf.Fit(context.Background(), featmap.Dense(n, d, X), y, rrf.Config{Multiclass: true, Eta: 0.002, Epochs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if e := errRate(t, m, X, y, d); e > 0.1 {
		t.Errorf("multiclass Fit: training error %.4f", e)
	}
	if _, err := rrf.Fit(context.Background(), featmap.Dense(n, d, X), y, rrf.Config{}); err == nil || !strings.Contains(err.Error(), "more than two classes") {
		t.Errorf("three classes without Multiclass: %v", err)
	}
}

func errRate(t *testing.T, m *rrf.Model, X, y []float64, d int) float64 {
	t.Helper()
	n := len(y)
	pred := make([]float64, n)
	if err := m.PredictBatch(pred, featmap.Dense(n, d, X)); err != nil {
		t.Fatal(err)
	}
	e := 0
	for i := range y {
		if pred[i] != y[i] {
			e++
		}
	}
	return float64(e) / float64(n)
}

func TestFit(t *testing.T) {
	const n, d = 3000, 4
	X, y := rings(n, d, 3)
	for i := range y { // labels 0/1
		y[i] = (y[i] + 1) / 2
	}
	Xt, yt := rings(2000, d, 4)
	for i := range yt {
		yt[i] = (yt[i] + 1) / 2
	}
	for _, bs := range []int{1, 16} {
		eta, epochs := 0.002, 5
		if bs > 1 {
			eta, epochs = 0.03, 20
		}
		var events int
		m, err := rrf.Fit(context.Background(), featmap.Dense(n, d, X), y, rrf.Config{Eta: eta, Epochs: epochs, BatchSize: bs, Seed: 1,
			Progress: func(e learners.Event) error { events++; return nil }})
		if err != nil {
			t.Fatal(err)
		}
		e := errRate(t, m, Xt, yt, d)
		t.Logf("batch %d: test error %.4f", bs, e)
		if e > 0.1 || events != epochs {
			t.Errorf("batch %d: test error %.4f (want ≤ 0.1), %d events", bs, e, events)
		}
		if m.Labels() != (learners.Labels{Neg: 0, Pos: 1}) {
			t.Errorf("labels %v", m.Labels())
		}
		learnertest.RoundTrip(t, m, rrf.Load, Xt, d)
	}
	// Regression.
	Xr, yr := sinus(n, 3, 5)
	m, err := rrf.Fit(context.Background(), featmap.Dense(n, 3, Xr), yr, rrf.Config{Task: learners.Regression, Eta: 0.001, Epochs: 10})
	if err != nil {
		t.Fatal(err)
	}
	Xrt, yrt := sinus(1000, 3, 6)
	var sse float64
	for i, v := range yrt {
		r := m.Predict(Xrt[i*3:(i+1)*3]) - v
		sse += r * r
	}
	rmse := math.Sqrt(sse / 1000)
	t.Logf("regression test RMSE %.4f", rmse)
	if rmse > 0.2 {
		t.Errorf("regression test RMSE %.4f, want ≤ 0.2", rmse)
	}
	learnertest.RoundTrip(t, m, rrf.Load, Xrt, 3)
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// TestSnapshotIdentity: the learner, its snapshot and Fit with BatchSize 1
// on pre-standardised data agree bit for bit; snapshots do not move.
func TestSnapshotIdentity(t *testing.T) {
	const n, d = 500, 3
	X, y := rings(n, d, 7)
	l, _ := rrf.NewLearner(d, rrf.Config{Seed: 4, Eta: 0.001})
	var snap *rrf.Model
	var before []float64
	for i := 0; i < n; i++ {
		x := X[i*d : (i+1)*d]
		p := l.Predict(x)
		o, err := l.Update(x, y[i])
		if err != nil {
			t.Fatal(err)
		}
		if p != o.Prediction {
			t.Fatalf("row %d: Predict %v, Update predicted %v", i, p, o.Prediction)
		}
		if i == n/2 {
			snap = l.Snapshot()
			before = snap.Importance()
			for j := 0; j < 20; j++ {
				if a, b := l.Predict(X[j*d:(j+1)*d]), snap.Predict(X[j*d:(j+1)*d]); a != b {
					t.Fatalf("snapshot and learner disagree on row %d: %v vs %v", j, b, a)
				}
			}
		}
	}
	if after := snap.Importance(); after[0] != before[0] {
		t.Error("snapshot changed after further updates")
	}
	if a, b := snap.Score(X[:d]), l.Snapshot().Score(X[:d]); a == b {
		t.Error("learner did not move after the snapshot")
	}
}

// TestHostile: large learning rates, width 3, huge and adversarial inputs
// and targets never give NaN parameters.
func TestHostile(t *testing.T) {
	const d = 5
	r := rand.New(rand.NewPCG(11, 11))
	for _, cfg := range []rrf.Config{
		{Width: 3, EtaGamma: 0.01, Eta: 0.5},
		{Width: 3, EtaGamma: 10, Eta: 0.9, Loss: rrf.Logistic},
		{Task: learners.Regression, Width: 3, EtaGamma: 10, Eta: 0.9},
		{Task: learners.Regression, Loss: rrf.L1, EtaGamma: 100, Eta: 0.9},
	} {
		l, err := rrf.NewLearner(d, cfg)
		if err != nil {
			t.Fatal(err)
		}
		x := make([]float64, d)
		steps := 20000
		if testing.Short() {
			steps = 3000
		}
		for i := 0; i < steps; i++ {
			scale := math.Pow(10, float64(r.IntN(40)-10))
			for j := range x {
				x[j] = scale * r.NormFloat64()
			}
			if i%97 == 0 {
				x[0] = 1e300
			}
			y := float64(2*r.IntN(2) - 1)
			if cfg.Task == learners.Regression {
				y = math.Pow(10, float64(r.IntN(600)-300)) * r.NormFloat64()
			}
			if _, err := l.Update(x, y); err != nil && !strings.Contains(err.Error(), "not finite") {
				t.Fatal(err)
			}
		}
		m := l.Snapshot()
		for j, v := range rrf.LogWidths(m) {
			if !(math.Abs(v) <= rrf.MaxLogWidth) {
				t.Fatalf("%+v: γ̃[%d] = %v", cfg, j, v)
			}
		}
		data := must(m.MarshalBinary()) // Load rejects non-finite weights
		if _, err := rrf.Load(data); err != nil {
			t.Fatalf("%+v: %v", cfg, err)
		}
		if p := m.Predict(make([]float64, d)); math.IsNaN(p) {
			t.Fatalf("%+v: NaN prediction", cfg)
		}
		t.Logf("%+v: %d samples, stats %+v, widths %.3g", cfg, l.Stats().N, l.Stats(), m.Importance())
	}
}

func TestErrors(t *testing.T) {
	bad := []struct {
		cfg  rrf.Config
		want string
	}{
		{rrf.Config{Features: -1}, "Features"},
		{rrf.Config{Lambda: math.NaN()}, "Lambda"},
		{rrf.Config{Eta: -1}, "Eta"},
		{rrf.Config{EtaGamma: math.Inf(1)}, "EtaGamma"},
		{rrf.Config{Width: -2}, "Width"},
		{rrf.Config{Eta: 10, Lambda: 0.5}, "Eta·Lambda"},
		{rrf.Config{Loss: "l2"}, "regression loss"},
		{rrf.Config{Task: learners.Regression, Loss: rrf.Hinge}, "classification loss"},
		{rrf.Config{Loss: "zz"}, "unknown Loss"},
		{rrf.Config{Classes: []float64{1}}, "Classes"},
		{rrf.Config{Classes: []float64{1, 2, 1}}, "twice"},
		{rrf.Config{Classes: []float64{1, math.NaN()}}, "not finite"},
		{rrf.Config{Task: learners.Regression, Classes: []float64{1, 2}}, "Classes set"},
		{rrf.Config{Epochs: -1}, "Epochs"},
		{rrf.Config{BatchSize: -1}, "BatchSize"},
		{rrf.Config{Task: 7}, "Task"},
	}
	for _, c := range bad {
		if _, err := rrf.NewLearner(2, c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c.cfg, err, c.want)
		}
	}
	if _, err := rrf.NewLearner(0, rrf.Config{}); err == nil {
		t.Error("0 inputs accepted")
	}
	l, _ := rrf.NewLearner(2, rrf.Config{})
	for _, c := range []struct {
		x    []float64
		y    float64
		want string
	}{
		{[]float64{1}, 1, "len(x) = 1"},
		{[]float64{1, math.NaN()}, 1, "x[1] is NaN"},
		{[]float64{1, math.Inf(-1)}, 1, "x[1] is -Inf"},
		{[]float64{1, 2}, math.NaN(), "y is NaN"},
		{[]float64{1, 2}, 0, "neither -1 nor 1"},
	} {
		if _, err := l.Update(c.x, c.y); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Update(%v, %v): %v, want %q", c.x, c.y, err, c.want)
		}
	}
	if l.Stats().N != 0 {
		t.Error("failed updates were counted")
	}
	ctx := context.Background()
	X := featmap.Dense(3, 1, []float64{1, 2, 3})
	for _, c := range []struct {
		X    featmap.Matrix
		y    []float64
		cfg  rrf.Config
		want string
	}{
		{X, []float64{1, 2}, rrf.Config{}, "y has 2"},
		{featmap.Dense(3, 1, []float64{1, math.NaN(), 3}), []float64{0, 1, 0}, rrf.Config{}, "X[1, 0] is NaN"},
		{X, []float64{1, 1, 1}, rrf.Config{}, "only one class"},
		{X, []float64{1, 1, 1}, rrf.Config{Multiclass: true}, "only one class"},
		{X, []float64{1, 2, 5}, rrf.Config{Classes: []float64{1, 2}}, "y[2]: label 5"},
		{X, []float64{1, 2, 5}, rrf.Config{Eta: -1}, "Eta"},
		{featmap.Matrix{}, nil, rrf.Config{}, "empty"},
	} {
		if _, err := rrf.Fit(ctx, c.X, c.y, c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Fit(%+v): %v, want %q", c.cfg, err, c.want)
		}
	}
}

func TestAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	const d, D = 20, 100
	X, y := rings(1000, d, 8)
	for _, cfg := range []rrf.Config{{Features: D}, {Features: D, Loss: rrf.Logistic}, {Features: D, Classes: []float64{0, 1, 2}},
		{Features: D, Task: learners.Regression}} {
		l, _ := rrf.NewLearner(d, cfg)
		i := 0
		a := testing.AllocsPerRun(500, func() {
			yi := y[i%1000]
			if len(cfg.Classes) == 3 {
				yi = float64(i % 3)
			}
			if _, err := l.Update(X[(i%1000)*d:(i%1000+1)*d], yi); err != nil {
				panic(err)
			}
			i++
		})
		if a != 0 {
			t.Errorf("%+v: Update allocates %v times", cfg, a)
		}
		m := l.Snapshot()
		dst := make([]float64, 1000)
		m.Predict(X[:d])
		if a := testing.AllocsPerRun(100, func() { m.Predict(X[:d]); m.Score(X[:d]); m.Probability(X[:d]) }); a != 0 {
			t.Errorf("Predict allocates %v times", a)
		}
		if a := testing.AllocsPerRun(10, func() { _ = m.PredictBatch(dst, featmap.Dense(1000, d, X)) }); a != 0 {
			t.Errorf("PredictBatch allocates %v times", a)
		}
	}
}

// BenchmarkUpdate times Learner.Update at d = 20, D = 100 (the issue's
// size) for every loss, with fixed widths, and for three classes.
func BenchmarkUpdate(b *testing.B) {
	const d, D = 20, 100
	X, y := rings(1024, d, 8)
	_, yr := sinus(1024, d, 8)
	yc := make([]float64, len(y))
	for i := range yc {
		yc[i] = float64(i % 3)
	}
	reg := learners.Regression
	for _, c := range []struct {
		name string
		cfg  rrf.Config
		y    []float64
	}{
		{"hinge", rrf.Config{Features: D}, y},
		{"logistic", rrf.Config{Features: D, Loss: rrf.Logistic}, y},
		{"l1", rrf.Config{Features: D, Task: reg, Loss: rrf.L1}, yr},
		{"l2", rrf.Config{Features: D, Task: reg}, yr},
		{"eps", rrf.Config{Features: D, Task: reg, Loss: rrf.EpsInsensitive}, yr},
		{"fixedwidths", rrf.Config{Features: D, FixedWidths: true}, y},
		{"multiclass3", rrf.Config{Features: D, Classes: []float64{0, 1, 2}}, yc},
	} {
		b.Run(c.name, func(b *testing.B) {
			l, err := rrf.NewLearner(d, c.cfg)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				j := i & 1023
				if _, err := l.Update(X[j*d:(j+1)*d], c.y[j]); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkPredict times Model.Predict and Learner.Predict at d = 20,
// D = 100.
func BenchmarkPredict(b *testing.B) {
	const d, D = 20, 100
	X, _ := rings(1024, d, 8)
	l, _ := rrf.NewLearner(d, rrf.Config{Features: D})
	learnertest.BenchPredict(b, X, d, map[string]func([]float64) float64{"model": l.Snapshot().Predict, "learner": l.Predict})
}

// The resume checks every online learner shares run in the conformance
// suite (learnertest.RunOnline); these are rrf's own.

// TestResumeMulticlass: Fit in file order on the first rows of three
// classes, save, load, and Fit with Resume on the rest gives the bytes of
// one Fit on all the rows.
func TestResumeMulticlass(t *testing.T) {
	const n, k = 400, 208
	X, _ := learnertest.Shifted(learners.Binary, n, 1)
	three := make([]float64, n)
	for i := range three {
		three[i] = float64(i % 3 * 5)
	}
	cfg := rrf.Config{Features: 16, Multiclass: true, Seed: 3, Shuffle: learners.Disabled, Standardize: learners.Disabled, Calibrate: learners.Disabled, Search: learners.Disabled, Epochs: 1}
	ctx := context.Background()
	whole := learnertest.MustFit(t, rrf.Fit, X, three, cfg)
	first := learnertest.MustFit(t, rrf.Fit, featmap.Dense(k, X.Cols, X.Data[:k*X.Cols]), three[:k], cfg)
	old, err := rrf.Load(learnertest.Bytes(t, first))
	if err != nil {
		t.Fatal(err)
	}
	rc := old.Config()
	rc.Resume = old
	rest, err := rrf.Fit(ctx, featmap.Dense(n-k, X.Cols, X.Data[k*X.Cols:]), three[k:], rc)
	if err != nil {
		t.Fatal(err)
	}
	if want := learnertest.Bytes(t, whole); !bytes.Equal(learnertest.Bytes(t, rest), want) || bytes.Equal(learnertest.Bytes(t, first), want) {
		t.Error("resumed multiclass model bytes differ from one uninterrupted pass (or the first part equals it)")
	}
}

// TestResumeErrors: a Resume model refuses a Config that changes its task,
// loss, classes or width.
func TestResumeErrors(t *testing.T) {
	const n = 120
	X, y := learnertest.Shifted(learners.Binary, n, 6)
	m := learnertest.MustFit(t, rrf.Fit, X, y, rrf.Config{Features: 10, Epochs: 1})
	base := m.Config()
	base.Resume = m
	with := func(f func(*rrf.Config)) rrf.Config { c := base; f(&c); return c }
	for _, c := range []struct {
		name string
		cfg  rrf.Config
		want string
	}{
		{"task", with(func(c *rrf.Config) { c.Task = learners.Regression; c.Loss = ""; c.Classes = nil }), "the model's task is binary"},
		{"loss", with(func(c *rrf.Config) { c.Loss = rrf.Logistic }), "Loss = logistic"},
		{"classes", with(func(c *rrf.Config) { c.Classes = []float64{0, 1} }), "Classes = [0 1]"},
		{"width", with(func(c *rrf.Config) { c.Width = 7 }), "Width = 7"},
	} {
		got, err := rrf.Fit(context.Background(), X, slices.Clone(y), c.cfg)
		if err == nil || got != nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "rrf: ") {
			t.Errorf("%s: got %v, want an error with %q", c.name, err, c.want)
		}
	}
}

// TestDefaultsScaleWithInputs: Fit with the zero Config learns a smooth
// boundary in d = 20 inputs. Measured test error 0.085; with the earlier
// default width 1 (kernel exp(−‖x−x'‖²/2), nearly diagonal at d = 20) it
// was 0.499, chance.
func TestDefaultsScaleWithInputs(t *testing.T) {
	learnertest.SmoothError(t, 0.15, func(X featmap.Matrix, y []float64) (*rrf.Model, error) {
		return rrf.Fit(context.Background(), X, y, rrf.Config{})
	})
}
