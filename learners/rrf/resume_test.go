package rrf_test

import (
	"bytes"
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/rrf"
)

// inFileOrder learns a stream in its order, on raw inputs, in one pass.
var inFileOrder = rrf.Config{Shuffle: learners.Disabled, Standardize: learners.Disabled, Epochs: 1}

// reload is a restart: the model's bytes, loaded back.
func reload(t *testing.T, m *rrf.Model) *rrf.Model {
	t.Helper()
	data, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	m2, err := rrf.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	return m2
}

// shifted: rings with inputs moved off zero and stretched, so that the
// standardisation is not close to the identity.
func shifted(n, d int, seed uint64) ([]float64, []float64) {
	X, y := rings(n, d, seed)
	for i := range X {
		X[i] = float64(3*X[i]) + float64(i%d) + 10
	}
	return X, y
}

// TestResumeFitSplit: Fit in file order on the first k rows, save, load,
// and Fit with Resume on the rest ends with the same model bytes as Fit on
// all the rows: binary (online steps and mini-batches of 16, k a multiple
// of 16), multiclass and regression.
func TestResumeFitSplit(t *testing.T) {
	const n, d, k = 400, 4, 208
	X, y := shifted(n, d, 1)
	Xr, yr := sinus(n, 3, 2)
	three := make([]float64, n)
	for i := range three {
		three[i] = float64(i % 3 * 5)
	}
	reg := learners.Regression
	for _, c := range []struct {
		name string
		X, y []float64
		d    int
		cfg  rrf.Config
	}{
		{"binary", X, y, d, rrf.Config{Features: 24, Eta: 0.01, EtaGamma: 0.02, Seed: 1}},
		{"batch", X, y, d, rrf.Config{Features: 24, Loss: rrf.Logistic, BatchSize: 16, Eta: 0.05, Seed: 2}},
		{"multiclass", X, three, d, rrf.Config{Features: 16, Multiclass: true, Seed: 3}},
		{"regression", Xr, yr, 3, rrf.Config{Task: reg, Features: 20, Width: 0.5, Seed: 4}},
		{"fixed-widths", X, y, d, rrf.Config{Features: 12, FixedWidths: true, Seed: 5}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := c.cfg
			cfg.Shuffle, cfg.Standardize, cfg.Epochs = inFileOrder.Shuffle, inFileOrder.Standardize, 1
			ctx := context.Background()
			whole, err := rrf.Fit(ctx, featmap.Dense(n, c.d, c.X), c.y, cfg)
			if err != nil {
				t.Fatal(err)
			}
			first, err := rrf.Fit(ctx, featmap.Dense(k, c.d, c.X[:k*c.d]), c.y[:k], cfg)
			if err != nil {
				t.Fatal(err)
			}
			old := reload(t, first)
			rc := old.Config()
			rc.Resume = old
			rest, err := rrf.Fit(ctx, featmap.Dense(n-k, c.d, c.X[k*c.d:]), c.y[k:], rc)
			if err != nil {
				t.Fatal(err)
			}
			want, got, half := must(whole.MarshalBinary()), must(rest.MarshalBinary()), must(first.MarshalBinary())
			if !bytes.Equal(got, want) {
				t.Errorf("resumed model bytes differ from one uninterrupted pass (%d and %d bytes)", len(got), len(want))
			}
			if bytes.Equal(half, want) {
				t.Error("the model of the first part equals the whole: the test proves nothing")
			}
		})
	}
}

// TestResumeOnline: a Learner stopped after k Updates, its Snapshot saved
// and loaded, and Resume'd, ends with the same Snapshot bytes as a Learner
// that was never stopped, also with a standardisation from a prefix
// (carried by the model, so the resumed Learner needs no scaler).
func TestResumeOnline(t *testing.T) {
	const n, d, k = 500, 4, 217
	X, y := shifted(n, d, 3)
	for _, std := range []bool{false, true} {
		newLearner := func() *rrf.Learner {
			l, err := rrf.NewLearner(d, rrf.Config{Features: 20, Eta: 0.01, EtaGamma: 0.02, Seed: 6})
			if err != nil {
				t.Fatal(err)
			}
			if std {
				if err := l.StandardizeFrom(featmap.Dense(50, d, X[:50*d])); err != nil {
					t.Fatal(err)
				}
			}
			return l
		}
		feed := func(l *rrf.Learner, lo, hi int) {
			for i := lo; i < hi; i++ {
				if _, err := l.Update(X[i*d:(i+1)*d], y[i]); err != nil {
					t.Fatal(err)
				}
			}
		}
		a := newLearner()
		feed(a, 0, n)
		b := newLearner()
		feed(b, 0, k)
		mid := reload(t, b.Snapshot())
		r, err := rrf.Resume(mid)
		if err != nil {
			t.Fatal(err)
		}
		feed(r, k, n)
		want, got := must(a.Snapshot().MarshalBinary()), must(r.Snapshot().MarshalBinary())
		if !bytes.Equal(got, want) {
			t.Errorf("std %v: resumed Learner's snapshot differs from the uninterrupted one", std)
		}
		if bytes.Equal(must(mid.MarshalBinary()), want) {
			t.Errorf("std %v: the snapshot after %d rows equals the final one: the test proves nothing", std, k)
		}
		if r.Stats().N != n-k {
			t.Errorf("std %v: resumed Stats.N = %d, want %d", std, r.Stats().N, n-k)
		}
		// The model predicts raw rows as the Learner does.
		snap := r.Snapshot()
		mean, _ := snap.Standardization()
		if std == slices.Equal(mean, make([]float64, d)) {
			t.Errorf("std %v: snapshot mean %v", std, mean)
		}
		for i := 0; i < 50; i++ {
			x := X[i*d : (i+1)*d]
			if p, q := snap.Predict(x), r.Predict(x); p != q {
				t.Fatalf("std %v: row %d: model predicts %v, learner %v", std, i, p, q)
			}
		}
	}
}

// TestResumeKeepsStandardization: Fit with the default standardisation,
// then resumed (even with Standardize Disabled) applies the first run's
// statistics, not those of the new rows, and stores them again.
func TestResumeKeepsStandardization(t *testing.T) {
	const n, d = 300, 4
	X, y := shifted(n, d, 4)
	ctx := context.Background()
	first, err := rrf.Fit(ctx, featmap.Dense(n/2, d, X[:n/2*d]), y[:n/2], rrf.Config{Features: 10, Epochs: 1})
	if err != nil {
		t.Fatal(err)
	}
	c := first.Config()
	c.Resume, c.Standardize = first, learners.Disabled
	next, err := rrf.Fit(ctx, featmap.Dense(n/2, d, X[n/2*d:]), y[n/2:], c)
	if err != nil {
		t.Fatal(err)
	}
	m0, s0 := first.Standardization()
	m1, s1 := next.Standardization()
	if !slices.Equal(m0, m1) || !slices.Equal(s0, s1) {
		t.Errorf("resumed model standardisation %v / %v, want the first run's %v / %v", m1, s1, m0, s0)
	}
	if slices.Equal(first.LogWidths(), next.LogWidths()) {
		t.Error("resuming learned nothing")
	}
}

// TestShuffleDefault: Shuffle Enabled is the default (today's permutation:
// the golden files hold it), and Disabled changes the model.
func TestShuffleDefault(t *testing.T) {
	const n, d = 200, 4
	X, y := shifted(n, d, 5)
	fit := func(c rrf.Config) *rrf.Model {
		c.Features, c.Epochs, c.Seed = 12, 2, 9
		m, err := rrf.Fit(context.Background(), featmap.Dense(n, d, X), y, c)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	def, on, off := fit(rrf.Config{}), fit(rrf.Config{Shuffle: learners.Enabled, Standardize: learners.Enabled}), fit(rrf.Config{Shuffle: learners.Disabled})
	if !slices.Equal(def.LogWidths(), on.LogWidths()) {
		t.Error("Shuffle/Standardize Enabled differ from the defaults")
	}
	if slices.Equal(def.LogWidths(), off.LogWidths()) {
		t.Error("Shuffle Disabled learned the same widths as shuffled rows")
	}
	raw := fit(rrf.Config{Standardize: learners.Disabled})
	mean, scale := raw.Standardization()
	for j := range mean {
		if mean[j] != 0 || scale[j] != 1 {
			t.Fatalf("Standardize Disabled: mean %v, scale %v; want 0 and 1", mean, scale)
		}
	}
	// The toggles' text form, as the command line sets them.
	var c rrf.Config
	if err := learners.SetParam(&c, "shuffle", "false"); err != nil || c.Shuffle != learners.Disabled {
		t.Errorf("SetParam shuffle=false: %v, %v", c.Shuffle, err)
	}
	if err := learners.SetParam(&c, "standardize", "maybe"); err == nil {
		t.Error("standardize=maybe accepted")
	}
}

func TestResumeErrors(t *testing.T) {
	const n, d = 120, 4
	X, y := shifted(n, d, 6)
	ctx := context.Background()
	m, err := rrf.Fit(ctx, featmap.Dense(n, d, X), y, rrf.Config{Features: 10, Epochs: 1})
	if err != nil {
		t.Fatal(err)
	}
	base := m.Config()
	base.Resume = m
	with := func(f func(*rrf.Config)) rrf.Config { c := base; f(&c); return c }
	X3, _ := shifted(n, 3, 6)
	for _, c := range []struct {
		name string
		X    featmap.Matrix
		y    []float64
		cfg  rrf.Config
		want string
	}{
		{"features", featmap.Dense(n, d, X), y, with(func(c *rrf.Config) { c.Features = 11 }), "Features = 11, the model has 10"},
		{"task", featmap.Dense(n, d, X), y, with(func(c *rrf.Config) { c.Task = learners.Regression; c.Loss = ""; c.Classes = nil }), "the model's task is binary"},
		{"loss", featmap.Dense(n, d, X), y, with(func(c *rrf.Config) { c.Loss = rrf.Logistic }), "Loss = logistic"},
		{"classes", featmap.Dense(n, d, X), y, with(func(c *rrf.Config) { c.Classes = []float64{0, 1} }), "Classes = [0 1]"},
		{"width", featmap.Dense(n, d, X), y, with(func(c *rrf.Config) { c.Width = 7 }), "Width = 7"},
		{"columns", featmap.Dense(n, 3, X3), y, base, "3 columns, the model takes 4"},
		{"label", featmap.Dense(n, d, X), append(slices.Clone(y[:n-1]), 5), base, "label 5 is neither -1 nor 1"},
		{"empty model", featmap.Dense(n, d, X), y, with(func(c *rrf.Config) { c.Resume = new(rrf.Model) }), "empty model"},
	} {
		got, err := rrf.Fit(ctx, c.X, c.y, c.cfg)
		if err == nil || got != nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "rrf: ") {
			t.Errorf("%s: got %v, want an error with %q", c.name, err, c.want)
		}
	}
	if _, err := rrf.Resume(nil); err == nil {
		t.Error("Resume(nil) accepted")
	}
	if _, err := rrf.Resume(new(rrf.Model)); err == nil {
		t.Error("Resume of an empty model accepted")
	}
	l, err := rrf.Resume(m)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		mean, scale []float64
	}{
		{[]float64{0, 0, 0}, []float64{1, 1, 1}},
		{[]float64{0, 0, 0, 0}, []float64{1, 1, 0, 1}},
		{[]float64{0, math.NaN(), 0, 0}, []float64{1, 1, 1, 1}},
		{[]float64{0, 0, 0, 0}, []float64{1, 1, math.Inf(1), 1}},
		{[]float64{0, 0, 0, 0}, nil},
	} {
		if err := l.SetStandardization(c.mean, c.scale); err == nil {
			t.Errorf("SetStandardization(%v, %v) accepted", c.mean, c.scale)
		}
	}
	if err := l.StandardizeFrom(featmap.Dense(2, 3, make([]float64, 6))); err == nil {
		t.Error("StandardizeFrom with 3 columns accepted")
	}
	if err := l.SetStandardization(nil, nil); err != nil {
		t.Error(err)
	}
	if mean, _ := l.Standardization(); mean != nil {
		t.Errorf("after removing the standardisation: mean %v", mean)
	}
}

// TestResumedAllocs: a resumed, standardising Learner's Update and Predict
// allocate nothing.
func TestResumedAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	const n, d = 200, 4
	X, y := shifted(n, d, 8)
	m, err := rrf.Fit(context.Background(), featmap.Dense(n, d, X), y, rrf.Config{Features: 16, Epochs: 1})
	if err != nil {
		t.Fatal(err)
	}
	l, err := rrf.Resume(m)
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	if a := testing.AllocsPerRun(200, func() {
		if _, err := l.Update(X[(i%n)*d:(i%n+1)*d], y[i%n]); err != nil {
			panic(err)
		}
		l.Predict(X[:d])
		i++
	}); a != 0 {
		t.Errorf("Update and Predict allocate %v times", a)
	}
}
