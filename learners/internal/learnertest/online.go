package learnertest

import (
	"bytes"
	"context"
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
)

// Learner is the method set of an online learner (rrf, fogd) whose
// Snapshots are models of type M.
type Learner[M any] interface {
	Update(x []float64, y float64) (learners.Outcome, error)
	Predict(x []float64) float64
	Stats() learners.Stats
	Snapshot() M
	SetStandardization(mean, scale []float64) error
	StandardizeFrom(X featmap.Matrix) error
	Standardization() (mean, scale []float64)
}

// OnlineModel is the method set RunOnline needs of an online learner's
// model with Config type C.
type OnlineModel[C any] interface {
	learners.Model
	Config() C
	Labels() learners.Labels
	Standardization() (mean, scale []float64)
	ScoreBatch(dst []float64, X featmap.Matrix) error
}

// Online describes an online learner to RunOnline: its registry Case (the
// Params make a fit fast) and its typed entry points.
type Online[C any, M OnlineModel[C], L Learner[M]] struct {
	Case
	Fit        func(context.Context, featmap.Matrix, []float64, C) (M, error)
	NewLearner func(d int, cfg C) (L, error)
	Resume     func(M) (L, error)
	Load       func([]byte) (M, error)
	// Splits are further settings (e.g. {"task=regression"}) under which
	// Fit on a prefix then Fit with Resume on the rest must equal one Fit.
	Splits [][]string
	// Averaged: a Snapshot predicts with averaged weights, not with the
	// Learner's current ones (fogd), so the two predict differently.
	Averaged bool
	// Split is the prefix length of those fits (a multiple of any batch
	// size in Splits).
	Split int
	// Features is the name of the Config parameter of the feature count,
	// when it is not "features" (nogd's "budget").
	Features string
}

// features is the parameter name of the feature count.
func (o Online[C, M, L]) features() string {
	if o.Features != "" {
		return o.Features
	}
	return "features"
}

// RunOnline runs the checks every online learner shares, beyond Run's:
// resuming (from Fit and from a Learner's Snapshot, through the model
// bytes) continues exactly, the standardisation travels with the model,
// the Shuffle and Standardize toggles, the errors of Resume and of the
// standardisation setters, and a resumed Learner allocating nothing.
func RunOnline[C any, M OnlineModel[C], L Learner[M]](t *testing.T, o Online[C, M, L]) {
	t.Run("ResumeFitSplit", o.fitSplit)
	t.Run("ResumeOnline", o.resumeOnline)
	t.Run("ResumeKeepsStandardization", o.keepsStandardization)
	t.Run("Toggles", o.toggles)
	t.Run("ResumeErrors", o.resumeErrors)
	t.Run("ResumedAllocs", o.resumedAllocs)
}

// Shifted is the suite's data of the task with the inputs moved off zero
// and stretched, so that a standardisation is far from the identity, and
// binary labels ±1.
func Shifted(task learners.Task, n int, seed uint64) (featmap.Matrix, []float64) {
	X, y := data(task, n, seed)
	for i := range X.Data {
		X.Data[i] = float64(3*X.Data[i]) + float64(i%X.Cols) + 10
	}
	if task == learners.Binary {
		for i, v := range y {
			y[i] = (v - 5) / 2
		}
	}
	return X, y
}

// config is the Config with the Case's Params, the task and extra
// settings.
func (o Online[C, M, L]) config(t testing.TB, task learners.Task, extra ...string) C {
	t.Helper()
	s := &suite{c: o.Case}
	m, err := learners.Lookup(o.Method)
	if err != nil {
		t.Fatal(err)
	}
	s.meth = m
	return *s.config(t, task, extra...).(*C)
}

// withResume returns cfg with its Resume field set to m.
func withResume[C, M any](cfg C, m M) C {
	reflect.ValueOf(&cfg).Elem().FieldByName("Resume").Set(reflect.ValueOf(m))
	return cfg
}

func (o Online[C, M, L]) fit(t testing.TB, X featmap.Matrix, y []float64, cfg C) M {
	t.Helper()
	return MustFit(t, o.Fit, X, y, cfg)
}

func (o Online[C, M, L]) reload(t testing.TB, m M) M {
	t.Helper()
	m2, err := o.Load(Bytes(t, m))
	if err != nil {
		t.Fatal(err)
	}
	return m2
}

// MustFit is fit with a background context, failing t on an error.
func MustFit[C, M any](t testing.TB, fit func(context.Context, featmap.Matrix, []float64, C) (M, error), X featmap.Matrix, y []float64, cfg C) M {
	t.Helper()
	m, err := fit(context.Background(), X, y, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Reload is m written by MarshalBinary and read back by load, failing t
// on an error.
func Reload[M any](t testing.TB, m interface{ MarshalBinary() ([]byte, error) }, load func([]byte) (M, error)) M {
	t.Helper()
	back, err := load(Bytes(t, m))
	if err != nil {
		t.Fatal(err)
	}
	return back
}

// SameModel reports whether a and b write the same model file bytes,
// failing t if either cannot be written.
func SameModel(t testing.TB, a, b interface{ MarshalBinary() ([]byte, error) }) bool {
	t.Helper()
	return bytes.Equal(Bytes(t, a), Bytes(t, b))
}

// Lookup is learners.Lookup, failing t on an error.
func Lookup(t testing.TB, name string) learners.Method {
	t.Helper()
	m, err := learners.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Bytes is m.MarshalBinary, failing t on an error.
func Bytes(t testing.TB, m interface{ MarshalBinary() ([]byte, error) }) []byte {
	t.Helper()
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// rows is the rows lo..hi of X.
func rows(X featmap.Matrix, lo, hi int) featmap.Matrix {
	return featmap.Dense(hi-lo, X.Cols, X.Data[lo*X.Cols:hi*X.Cols])
}

// fitSplit: Fit in file order (Shuffle and Standardize Disabled, one
// epoch) on the first rows, save, load, and Fit with Resume on the rest
// ends with the same model bytes as Fit on all the rows.
func (o Online[C, M, L]) fitSplit(t *testing.T) {
	const n = 400
	for _, split := range append([][]string{nil}, o.Splits...) {
		task := learners.Binary
		if slices.Contains(split, "task=regression") {
			task = learners.Regression
		}
		X, y := Shifted(task, n, 1)
		cfg := o.config(t, learners.Binary, append(slices.Clone(split), "shuffle=false", "standardize=false", "epochs=1", "calibrate=false", "search=false")...)
		whole, first := o.fit(t, X, y, cfg), o.fit(t, rows(X, 0, o.Split), y[:o.Split], cfg)
		old := o.reload(t, first)
		rest := o.fit(t, rows(X, o.Split, n), y[o.Split:], withResume(old.Config(), old))
		want := Bytes(t, whole)
		if !bytes.Equal(Bytes(t, rest), want) {
			t.Errorf("%v: resumed model bytes differ from one uninterrupted pass", split)
		}
		if bytes.Equal(Bytes(t, first), want) {
			t.Errorf("%v: the model of the first part equals the whole: the test proves nothing", split)
		}
	}
}

// resumeOnline: a Learner stopped after k Updates, its Snapshot saved and
// loaded, and Resume'd, ends with the same Snapshot bytes as a Learner
// that was never stopped, also with a standardisation from a prefix
// carried by the model; the Snapshot predicts as the Learner (unless
// Averaged); the standardising Learner learns what a plain one
// learns from the standardised rows, and its model takes raw rows.
func (o Online[C, M, L]) resumeOnline(t *testing.T) {
	const n, k = 500, 211
	X, y := Shifted(learners.Binary, n, 3)
	d := X.Cols
	cfg := o.config(t, learners.Binary)
	newLearner := func(std bool) L {
		l, err := o.NewLearner(d, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if std {
			if err := l.StandardizeFrom(rows(X, 0, 50)); err != nil {
				t.Fatal(err)
			}
		}
		return l
	}
	feed := func(l L, X featmap.Matrix, lo, hi int) {
		for i := lo; i < hi; i++ {
			if _, err := l.Update(X.Row(i), y[i]); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, std := range []bool{false, true} {
		a, b := newLearner(std), newLearner(std)
		feed(a, X, 0, n)
		feed(b, X, 0, k)
		mid := o.reload(t, b.Snapshot())
		r, err := o.Resume(mid)
		if err != nil {
			t.Fatal(err)
		}
		feed(r, X, k, n)
		want := Bytes(t, a.Snapshot())
		if !bytes.Equal(Bytes(t, r.Snapshot()), want) {
			t.Errorf("std %v: resumed Learner's snapshot differs from the uninterrupted one", std)
		}
		if bytes.Equal(Bytes(t, mid), want) {
			t.Errorf("std %v: the snapshot after %d rows equals the final one: the test proves nothing", std, k)
		}
		if r.Stats().N != n-k {
			t.Errorf("std %v: resumed Stats.N = %d, want %d", std, r.Stats().N, n-k)
		}
		snap := r.Snapshot()
		mean, scale := snap.Standardization()
		if std == slices.Equal(mean, make([]float64, d)) {
			t.Errorf("std %v: snapshot mean %v", std, mean)
		}
		for i := range 50 * bool2int(!o.Averaged) {
			if p, q := snap.Predict(X.Row(i)), r.Predict(X.Row(i)); p != q {
				t.Fatalf("std %v: row %d: model predicts %v, learner %v", std, i, p, q)
			}
		}
		// A missing value (NaN) is imputed as the model imputes it: 0 after
		// the standardisation, i.e. the input's mean, on the Learner as on
		// its model (when the model predicts as the Learner does).
		for i := range 50 {
			x, imputed := slices.Clone(X.Row(i)), slices.Clone(X.Row(i))
			x[i%d], imputed[i%d] = math.NaN(), mean[i%d]
			q, want := r.Predict(x), r.Predict(imputed)
			if q != want || q != q {
				t.Fatalf("std %v: row %d with input %d missing: learner predicts %v, %v with the input's mean", std, i, i%d, q, want)
			}
			if p := snap.Predict(x); !o.Averaged && p != q {
				t.Fatalf("std %v: row %d with input %d missing: model predicts %v, learner %v", std, i, i%d, p, q)
			}
		}
		if !std {
			continue
		}
		Z := featmap.Dense(n, d, make([]float64, n*d))
		for i, v := range X.Data {
			Z.Data[i] = (v - mean[i%d]) / scale[i%d]
		}
		plain := newLearner(false)
		feed(plain, Z, 0, n)
		s1, s2 := make([]float64, n), make([]float64, n)
		if err := a.Snapshot().ScoreBatch(s1, X); err != nil {
			t.Fatal(err)
		}
		if err := plain.Snapshot().ScoreBatch(s2, Z); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(s1, s2) {
			t.Error("the standardising Learner's model scores raw rows unlike a plain Learner's model scores standardised rows")
		}
	}
}

// keepsStandardization: a Fit resumed with Standardize Disabled applies
// the first run's statistics, not those of the new rows, stores them and
// the labels again, and learns.
func (o Online[C, M, L]) keepsStandardization(t *testing.T) {
	const n = 300
	X, y := Shifted(learners.Binary, n, 4)
	first := o.fit(t, rows(X, 0, n/2), y[:n/2], o.config(t, learners.Binary, "epochs=1"))
	c := o.config(t, learners.Binary, "standardize=false")
	next := o.fit(t, rows(X, n/2, n), y[n/2:], withResume(c, first))
	m0, s0 := first.Standardization()
	m1, s1 := next.Standardization()
	if !slices.Equal(m0, m1) || !slices.Equal(s0, s1) {
		t.Errorf("resumed model standardisation %v / %v, want the first run's %v / %v", m1, s1, m0, s0)
	}
	if next.Labels() != first.Labels() {
		t.Errorf("labels %v, want %v", next.Labels(), first.Labels())
	}
	if bytes.Equal(Bytes(t, first), Bytes(t, next)) {
		t.Error("resuming learned nothing")
	}
}

// toggles: Enabled Shuffle and Standardize are the defaults (the golden
// files hold today's permutation); Disabled ones change the model, and
// without the standardisation the model stores mean 0 and scale 1. The
// toggles' text forms are those of the command line.
func (o Online[C, M, L]) toggles(t *testing.T) {
	const n = 200
	X, y := Shifted(learners.Binary, n, 5)
	scores := func(set ...string) ([]float64, M) {
		m := o.fit(t, X, y, o.config(t, learners.Binary, append(set, "epochs=2")...))
		s := make([]float64, n)
		if err := m.ScoreBatch(s, X); err != nil {
			t.Fatal(err)
		}
		return s, m
	}
	def, _ := scores()
	if on, _ := scores("shuffle=true", "standardize=true"); !slices.Equal(def, on) {
		t.Error("Shuffle/Standardize Enabled differ from the defaults")
	}
	if off, _ := scores("shuffle=false"); slices.Equal(def, off) {
		t.Error("Shuffle Disabled gives the same model as shuffled rows")
	}
	raw, m := scores("standardize=false")
	if slices.Equal(def, raw) {
		t.Error("Standardize Disabled gives the same model as standardised rows")
	}
	mean, scale := m.Standardization()
	for j := range mean {
		if mean[j] != 0 || scale[j] != 1 {
			t.Fatalf("Standardize Disabled: mean %v, scale %v; want 0 and 1", mean, scale)
		}
	}
	if err := learners.SetParam(new(C), "standardize", "maybe"); err == nil {
		t.Error("standardize=maybe accepted")
	}
}

// resumeErrors: Fit with a Resume model refuses other columns, a label
// the model does not know, more features and an empty model; Resume
// refuses nil and an empty model; the standardisation setters refuse
// wrong lengths and non-finite or non-positive values, and nil removes
// the standardisation.
func (o Online[C, M, L]) resumeErrors(t *testing.T) {
	const n = 120
	X, y := Shifted(learners.Binary, n, 6)
	d := X.Cols
	m := o.fit(t, X, y, o.config(t, learners.Binary, o.features()+"=10"))
	base := withResume(m.Config(), m)
	X2, _ := Shifted(learners.Binary, n, 7)
	X2 = featmap.Dense(n, d-1, X2.Data[:n*(d-1)])
	empty := reflect.New(reflect.TypeFor[M]().Elem()).Interface().(M)
	more := base
	if err := learners.SetParam(&more, o.features(), "11"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		X    featmap.Matrix
		y    []float64
		cfg  C
		want string
	}{
		{"columns", X2, y, base, "2 columns, the model takes 3"},
		{"label", X, append(slices.Clone(y[:n-1]), 5), base, "label 5 is neither -1 nor 1"},
		{"features", X, y, more, strings.ToUpper(o.features()[:1]) + o.features()[1:] + " = 11, the model has 10"},
		{"empty model", X, y, withResume(base, empty), "empty model"},
	} {
		got, err := o.Fit(context.Background(), c.X, c.y, c.cfg)
		if err == nil || !reflect.ValueOf(got).IsNil() || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), o.prefix()) {
			t.Errorf("%s: got %v, want an error with %q", c.name, err, c.want)
		}
	}
	var none M
	if _, err := o.Resume(none); err == nil {
		t.Error("Resume(nil) accepted")
	}
	if _, err := o.Resume(empty); err == nil {
		t.Error("Resume of an empty model accepted")
	}
	l, err := o.Resume(m)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ mean, scale []float64 }{
		{[]float64{0, 0}, []float64{1, 1}},
		{[]float64{0, 0, 0}, []float64{1, 0, 1}},
		{[]float64{0, math.NaN(), 0}, []float64{1, 1, 1}},
		{[]float64{0, math.Inf(-1), 0}, []float64{1, 1, 1}},
		{[]float64{0, 0, 0}, []float64{1, math.Inf(1), 1}},
		{[]float64{0, 0, 0}, nil},
	} {
		if err := l.SetStandardization(c.mean, c.scale); err == nil {
			t.Errorf("SetStandardization(%v, %v) accepted", c.mean, c.scale)
		}
	}
	if err := l.StandardizeFrom(featmap.Dense(2, 2, make([]float64, 4))); err == nil {
		t.Error("StandardizeFrom with 2 columns accepted")
	}
	if err := l.SetStandardization(nil, nil); err != nil {
		t.Error(err)
	}
	if mean, _ := l.Standardization(); mean != nil {
		t.Errorf("after removing the standardisation: mean %v", mean)
	}
}

// resumedAllocs: a resumed, standardising Learner's Update and Predict
// allocate nothing.
func (o Online[C, M, L]) resumedAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	const n = 200
	X, y := Shifted(learners.Binary, n, 8)
	l, err := o.Resume(o.fit(t, X, y, o.config(t, learners.Binary, "epochs=1")))
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	if a := testing.AllocsPerRun(200, func() {
		if _, err := l.Update(X.Row(i%n), y[i%n]); err != nil {
			panic(err)
		}
		l.Predict(X.Row(0))
		i++
	}); a != 0 {
		t.Errorf("Update and Predict allocate %v times", a)
	}
}

func bool2int(b bool) int {
	if b {
		return 1
	}
	return 0
}

// RoundTrip checks that m survives its bytes: loaded by load and by
// learners.Load, it predicts and scores every row of X (d columns) with
// the same bits, Predict equals PredictBatch, re-encoding gives the same
// bytes, and every truncation tried fails with ErrCorrupt.
func RoundTrip[M interface {
	learners.Model
	Score(x []float64) float64
}](t testing.TB, m M, load func([]byte) (M, error), X []float64, d int) {
	t.Helper()
	data := Bytes(t, m)
	m2, err := load(data)
	if err != nil {
		t.Fatal(err)
	}
	g, err := learners.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	n := len(X) / d
	batch := make([]float64, n)
	if err := m2.PredictBatch(batch, featmap.Dense(n, d, X)); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		x := X[i*d : (i+1)*d]
		a, b, c := m.Predict(x), m2.Predict(x), g.Predict(x)
		if math.Float64bits(a) != math.Float64bits(b) || math.Float64bits(a) != math.Float64bits(batch[i]) || a != c {
			t.Fatalf("row %d: Predict %v, loaded %v, batch %v, registry %v", i, a, b, batch[i], c)
		}
		if math.Float64bits(m.Score(x)) != math.Float64bits(m2.Score(x)) {
			t.Fatalf("row %d: Score differs after round trip", i)
		}
	}
	if !bytes.Equal(Bytes(t, m2), data) {
		t.Error("re-encoding changed the bytes")
	}
	for _, cut := range []int{0, len(data) / 2, len(data) - 1} {
		if _, err := load(data[:cut]); !errors.Is(err, learners.ErrCorrupt) {
			t.Errorf("truncated at %d: %v", cut, err)
		}
	}
}

// LateMistakes feeds the rows of X (d columns) with targets y to l in
// order and returns the mistake rate of its predictions before the step on
// the second half of them (after it has learnt from the first).
func LateMistakes(t testing.TB, l interface {
	Update(x []float64, y float64) (learners.Outcome, error)
}, X, y []float64, d int) float64 {
	t.Helper()
	n, late := len(y), 0
	for i := range n {
		o, err := l.Update(X[i*d:(i+1)*d], y[i])
		if err != nil {
			t.Fatal(err)
		}
		if i >= n/2 && o.Mistake {
			late++
		}
	}
	return float64(late) / float64(n-n/2)
}

// Average checks what the Average of every online learner shares: the
// average of shard alone has shard's bytes, and no models, a nil model or
// a model unlike shard (other: other random features or standardisation)
// are errors.
func Average[M interface{ MarshalBinary() ([]byte, error) }](t *testing.T, average func(...M) (M, error), shard, other M) {
	t.Helper()
	one, err := average(shard)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(Bytes(t, one), Bytes(t, shard)) {
		t.Fatal("the average of one model is not that model")
	}
	var none M
	if _, err := average(); err == nil {
		t.Error("no models: no error")
	}
	if _, err := average(shard, none); err == nil {
		t.Error("nil model: no error")
	}
	if _, err := average(shard, other); err == nil {
		t.Error("a model of other features or standardisation: no error")
	}
}

// Shards returns, for each size n in sizes, the Snapshot of a Learner
// resumed from base that took n Updates, the i-th on row(s, i) with label
// ±1 alternating: the shards an Average test combines.
func Shards[M any, L Learner[M]](t *testing.T, resume func(M) (L, error), base M, sizes []int, row func(s, i int) []float64) []M {
	t.Helper()
	var shards []M
	for s, n := range sizes {
		l, err := resume(base)
		if err != nil {
			t.Fatal(err)
		}
		for i := range n {
			if _, err := l.Update(row(s, i), float64(i%2*2-1)); err != nil {
				t.Fatal(err)
			}
		}
		shards = append(shards, l.Snapshot())
	}
	return shards
}
