package fogd_test

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/datasets/synth"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/fogd"
	"github.com/rfkit/rfkit/learners/learnertest"
)

// reload is a restart: the model's bytes, loaded back.
func reload(t *testing.T, m *fogd.Model) *fogd.Model {
	t.Helper()
	m2, err := fogd.Load(must(m.MarshalBinary()))
	if err != nil {
		t.Fatal(err)
	}
	return m2
}

// shifted: rings with labels 3 and 7 and inputs moved off zero and
// stretched, so that the standardisation is not close to the identity.
func shifted(n, d int, seed uint64) ([]float64, []float64) {
	X, y := rings(n, d, seed)
	for i := range X {
		X[i] = float64(3*X[i]) + float64(i%d) + 10
	}
	for i, v := range y {
		y[i] = 5 + 2*v
	}
	return X, y
}

// TestResumeFitSplit: Fit in file order (Shuffle and Standardize
// Disabled, one epoch) on the first k rows, save, load, and Fit with Resume
// on the rest ends with the same model bytes as Fit on all the rows.
func TestResumeFitSplit(t *testing.T) {
	const n, d, k = 400, 3, 173
	X, y := shifted(n, d, 1)
	se1, err := synth.SE1(n, 3)
	if err != nil {
		t.Fatal(err)
	}
	reg := learners.Regression
	for _, c := range []struct {
		name string
		X, y []float64
		d    int
		cfg  fogd.Config
	}{
		{"hinge", X, y, d, fogd.Config{Features: 20, Eta: 0.5, Seed: 1}},
		{"squared", se1.X, se1.Y, se1.D, fogd.Config{Task: reg, Features: 24, Gamma: 0.05, Seed: 2}},
		{"eps", se1.X, se1.Y, se1.D, fogd.Config{Task: reg, Loss: fogd.EpsInsensitive, Features: 16, Seed: 3}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := c.cfg
			cfg.Shuffle, cfg.Standardize, cfg.Epochs = learners.Disabled, learners.Disabled, 1
			ctx := context.Background()
			whole, err := fogd.Fit(ctx, featmap.Dense(n, c.d, c.X), c.y, cfg)
			if err != nil {
				t.Fatal(err)
			}
			first, err := fogd.Fit(ctx, featmap.Dense(k, c.d, c.X[:k*c.d]), c.y[:k], cfg)
			if err != nil {
				t.Fatal(err)
			}
			old := reload(t, first)
			rc := old.Config()
			rc.Resume = old
			rest, err := fogd.Fit(ctx, featmap.Dense(n-k, c.d, c.X[k*c.d:]), c.y[k:], rc)
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
// that was never stopped (the averaged weights need the stored sum and
// step count), also with a standardisation from a prefix carried by the
// model.
func TestResumeOnline(t *testing.T) {
	const n, d, k = 500, 3, 211
	X, y := shifted(n, d, 3)
	for _, std := range []bool{false, true} {
		newLearner := func() *fogd.Learner {
			l, err := fogd.NewLearner(d, fogd.Config{Features: 20, Eta: 0.5, Labels: learners.Labels{Neg: 3, Pos: 7}, Seed: 6})
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
		feed := func(l *fogd.Learner, lo, hi int) {
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
		r, err := fogd.Resume(mid)
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
		snap := r.Snapshot()
		mean, _ := snap.Standardization()
		if std == slices.Equal(mean, make([]float64, d)) {
			t.Errorf("std %v: snapshot mean %v", std, mean)
		}
		if !std {
			continue
		}
		// With its standardisation, the Learner learns what a plain one
		// learns from the standardised rows, and its model takes raw rows:
		// the same scores bit for bit.
		mean, scale := r.Standardization()
		Z := make([]float64, n*d)
		for i, v := range X {
			Z[i] = (v - mean[i%d]) / scale[i%d]
		}
		plain, err := fogd.NewLearner(d, fogd.Config{Features: 20, Eta: 0.5, Labels: learners.Labels{Neg: 3, Pos: 7}, Seed: 6})
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			if _, err := plain.Update(Z[i*d:(i+1)*d], y[i]); err != nil {
				t.Fatal(err)
			}
		}
		s1, s2 := make([]float64, n), make([]float64, n)
		if err := snap.ScoreBatch(s1, featmap.Dense(n, d, X)); err != nil {
			t.Fatal(err)
		}
		if err := plain.Snapshot().ScoreBatch(s2, featmap.Dense(n, d, Z)); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(s1, s2) {
			t.Error("the standardising Learner's model scores raw rows unlike a plain Learner's model scores standardised rows")
		}
	}
}

// TestResumeKeepsStandardization: a resumed Fit applies the first run's
// statistics, not those of the new rows, and stores them again.
func TestResumeKeepsStandardization(t *testing.T) {
	const n, d = 300, 3
	X, y := shifted(n, d, 4)
	ctx := context.Background()
	first, err := fogd.Fit(ctx, featmap.Dense(n/2, d, X[:n/2*d]), y[:n/2], fogd.Config{Features: 10})
	if err != nil {
		t.Fatal(err)
	}
	c := first.Config()
	c.Resume, c.Standardize = first, learners.Disabled
	next, err := fogd.Fit(ctx, featmap.Dense(n/2, d, X[n/2*d:]), y[n/2:], c)
	if err != nil {
		t.Fatal(err)
	}
	m0, s0 := first.Standardization()
	m1, s1 := next.Standardization()
	if !slices.Equal(m0, m1) || !slices.Equal(s0, s1) {
		t.Errorf("resumed model standardisation %v / %v, want the first run's %v / %v", m1, s1, m0, s0)
	}
	if next.Labels() != first.Labels() {
		t.Errorf("labels %v, want %v", next.Labels(), first.Labels())
	}
}

// TestShuffleDefault: Enabled toggles are the defaults (today's
// permutation: the golden files hold it); Disabled ones change the model.
func TestShuffleDefault(t *testing.T) {
	const n, d = 200, 3
	X, y := shifted(n, d, 5)
	fit := func(c fogd.Config) []float64 {
		c.Features, c.Epochs, c.Seed = 12, 2, 9
		m, err := fogd.Fit(context.Background(), featmap.Dense(n, d, X), y, c)
		if err != nil {
			t.Fatal(err)
		}
		s := make([]float64, n)
		if err := m.ScoreBatch(s, featmap.Dense(n, d, X)); err != nil {
			t.Fatal(err)
		}
		return s
	}
	def := fit(fogd.Config{})
	if !slices.Equal(def, fit(fogd.Config{Shuffle: learners.Enabled, Standardize: learners.Enabled})) {
		t.Error("Shuffle/Standardize Enabled differ from the defaults")
	}
	if slices.Equal(def, fit(fogd.Config{Shuffle: learners.Disabled})) {
		t.Error("Shuffle Disabled gives the same model as shuffled rows")
	}
	if slices.Equal(def, fit(fogd.Config{Standardize: learners.Disabled})) {
		t.Error("Standardize Disabled gives the same model as standardised rows")
	}
}

// TestVersion1Files: the golden files of version 1 (averaged weights only)
// still load, re-save to their own bytes (the conformance suite checks
// that), and predict the same bits as the version 2 model of the same
// training; they cannot be resumed.
func TestVersion1Files(t *testing.T) {
	old, _ := filepath.Glob(filepath.Join("testdata", "v1-*.model"))
	if len(old) != 4 {
		t.Fatalf("%d version 1 golden files, want 4", len(old))
	}
	for _, f := range old {
		v1data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		v2data, err := os.ReadFile(filepath.Join("testdata", strings.TrimPrefix(filepath.Base(f), "v1-")))
		if err != nil {
			t.Fatal(err)
		}
		h1, err1 := modelfile.ReadHeader(v1data)
		h2, err2 := modelfile.ReadHeader(v2data)
		if err1 != nil || err2 != nil || h1.Version != 1 || h2.Version != 2 {
			t.Fatalf("%s: versions %v (%v), %v (%v)", f, h1, err1, h2, err2)
		}
		m1, err := fogd.Load(v1data)
		if err != nil {
			t.Fatal(err)
		}
		m2, err := fogd.Load(v2data)
		if err != nil {
			t.Fatal(err)
		}
		d := m1.NumInputs()
		const rows = 200
		X := make([]float64, rows*d)
		for i := range X {
			X[i] = math.Sin(float64(i)*0.37) * 3
		}
		s1, s2 := make([]float64, rows), make([]float64, rows)
		if err := m1.ScoreBatch(s1, featmap.Dense(rows, d, X)); err != nil {
			t.Fatal(err)
		}
		if err := m2.ScoreBatch(s2, featmap.Dense(rows, d, X)); err != nil {
			t.Fatal(err)
		}
		for i := range s1 {
			if math.Float64bits(s1[i]) != math.Float64bits(s2[i]) {
				t.Fatalf("%s: row %d: version 1 scores %v, version 2 %v", f, i, s1[i], s2[i])
			}
		}
		if _, err := fogd.Resume(m1); err == nil || !strings.Contains(err.Error(), "version 1") {
			t.Errorf("%s: Resume: %v, want a version 1 error", f, err)
		}
		if _, err := fogd.Resume(m2); err != nil {
			t.Errorf("%s: Resume of the version 2 model: %v", f, err)
		}
	}
}

func TestResumeErrors(t *testing.T) {
	const n, d = 120, 3
	X, y := shifted(n, d, 6)
	ctx := context.Background()
	m, err := fogd.Fit(ctx, featmap.Dense(n, d, X), y, fogd.Config{Features: 10})
	if err != nil {
		t.Fatal(err)
	}
	base := m.Config()
	base.Resume = m
	with := func(f func(*fogd.Config)) fogd.Config { c := base; f(&c); return c }
	X2, _ := shifted(n, 2, 6)
	v1, err := fogd.Load(must(os.ReadFile(filepath.Join("testdata", "v1-fit-hinge.model"))))
	if err != nil {
		t.Fatal(err)
	}
	learnertest.FitErrors(t, "fogd: ", fogd.Fit, []struct {
		name string
		X    featmap.Matrix
		y    []float64
		cfg  fogd.Config
		want string
	}{
		{"features", featmap.Dense(n, d, X), y, with(func(c *fogd.Config) { c.Features = 11 }), "Features = 11, the model has 10"},
		{"task", featmap.Dense(n, d, X), y, with(func(c *fogd.Config) { c.Task = learners.Regression; c.Loss = ""; c.Labels = learners.Labels{} }), "the model's task is binary"},
		{"gamma", featmap.Dense(n, d, X), y, with(func(c *fogd.Config) { c.Gamma = 7 }), "Gamma = 7"},
		{"labels", featmap.Dense(n, d, X), y, with(func(c *fogd.Config) { c.Labels = learners.Labels{Neg: 0, Pos: 1} }), "Labels = {0 1}"},
		{"columns", featmap.Dense(n, 2, X2), y, base, "2 columns, the model takes 3"},
		{"label", featmap.Dense(n, d, X), append(slices.Clone(y[:n-1]), 5), base, "label 5 is neither 3 nor 7"},
		{"empty model", featmap.Dense(n, d, X), y, with(func(c *fogd.Config) { c.Resume = new(fogd.Model) }), "empty model"},
		{"version 1", featmap.Dense(n, 2, X2), y, fogd.Config{Resume: v1, Labels: v1.Config().Labels}, "version 1 model holds only the averaged weights"},
	})
	if _, err := fogd.Resume(nil); err == nil {
		t.Error("Resume(nil) accepted")
	}
	l, err := fogd.Resume(m)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ mean, scale []float64 }{
		{[]float64{0, 0}, []float64{1, 1}},
		{[]float64{0, 0, 0}, []float64{1, 0, 1}},
		{[]float64{0, math.Inf(-1), 0}, []float64{1, 1, 1}},
		{[]float64{0, 0, 0}, nil},
	} {
		if err := l.SetStandardization(c.mean, c.scale); err == nil {
			t.Errorf("SetStandardization(%v, %v) accepted", c.mean, c.scale)
		}
	}
}

// TestLoadStateErrors: a version 2 file whose state disagrees with its
// averaged weights, or whose step count is not a count, is corrupt.
func TestLoadStateErrors(t *testing.T) {
	X, y := shifted(100, 3, 7)
	m, err := fogd.Fit(context.Background(), featmap.Dense(100, 3, X), y, fogd.Config{Features: 8})
	if err != nil {
		t.Fatal(err)
	}
	good := must(m.MarshalBinary())
	meta := func(v float64) []byte {
		return learnertest.Rewrite(t, good, func(f *modelfile.File) { f.Header.Meta["steps"] = v })
	}
	bump := func(name string) []byte {
		return learnertest.Rewrite(t, good, func(f *modelfile.File) {
			for i := range f.Arrays {
				if f.Arrays[i].Name == name {
					f.Arrays[i].Data[3] = math.Nextafter(f.Arrays[i].Data[3], 10)
				}
			}
		})
	}
	learnertest.LoadErrors(t, "fogd: ", fogd.Load, []struct {
		name string
		data []byte
		want string
	}{
		{"negative steps", meta(-1), "steps = -1"},
		{"fractional steps", meta(99.5), "steps = 99.5"},
		{"huge steps", meta(1e300), "steps = 1e+300"},
		{"fewer steps", meta(99), "but the stored state gives"},
		{"wsum", bump("wsum"), "w[3] = "},
		{"w", bump("w"), "w[3] = "},
		{"no wt", learnertest.Rewrite(t, good, func(f *modelfile.File) { f.Arrays[len(f.Arrays)-2].Name = "xx" }), `no array "wt"`},
	})
}

// TestResumedAllocs: a resumed, standardising Learner's Update and Predict
// allocate nothing.
func TestResumedAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	const n, d = 200, 3
	X, y := shifted(n, d, 8)
	m, err := fogd.Fit(context.Background(), featmap.Dense(n, d, X), y, fogd.Config{Features: 16})
	if err != nil {
		t.Fatal(err)
	}
	l, err := fogd.Resume(m)
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
