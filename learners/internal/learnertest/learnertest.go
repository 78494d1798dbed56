// Package learnertest is the conformance suite every rfkit learner runs,
// written once, as gonum's lapack/testlapack is for its implementations: a
// learner's test file holds one line,
//
//	func TestConformance(t *testing.T) { learnertest.Run(t, learnertest.Case{Method: "rks"}) }
//
// (and two for its fuzz target), and gets every check below through the
// learners registry, so the suite needs nothing from the learner but its
// registration. Learner-specific behaviour (accuracy, the algorithm's own
// invariants, config ranges, golden model files) stays in the learner's
// own tests.
//
// The checks: bad training input of every kind the learners document
// (shape, non-finite values, labels, context, progress errors), progress
// events; predictions through every entry point agreeing to the bit
// (Predict, Score, Probability and their batch forms, strided views, the
// zero-row batch); shape errors wrapping learners.ErrShape and the panic
// on a wrong row length; the model round trip through MarshalBinary,
// Load, learners.Load, WriteTo/ReadFrom and re-marshalling, and every
// golden file in the learner's testdata loading and re-marshalling to its
// own bytes; corrupt files wrapping learners.ErrCorrupt; no allocation in
// Predict, Score, Probability and the batch forms, alone and under
// concurrent use; concurrent Predict equal to the batch (run it under
// -race); the same model bytes for GOMAXPROCS 1 and 4, for the thread
// limits Threads = 1, 2 and 0 (every batch learner) and the same
// predictions on every SIMD path the CPU has; and a fuzzed loader.
package learnertest

import (
	"bytes"
	"context"
	"encoding"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/asm"
	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners"
)

// Case describes one registered learner to the suite.
type Case struct {
	// Method is the registry name, e.g. "rks".
	Method string
	// Prefix starts every error the learner returns ("" → Method + ": ").
	Prefix string
	// Params are "key=value" settings (learners.SetParam) that make a fit
	// of a few hundred rows fast; the suite adds the task.
	Params []string
	// Tasks the learner supports (nil → Binary and Regression).
	Tasks []learners.Task
	// Unseeded: the model does not depend on the seed.
	Unseeded bool
	// Rounds, if not 0, is the number of progress events a Fit with
	// Params sends.
	Rounds int
	// Variants are further settings (e.g. {"loss=logistic"}) under which
	// the prediction and round-trip checks run again.
	Variants [][]string
	// VariantTasks, if not nil, are the tasks the Variants run under (a
	// variant that cannot do every task of Tasks, e.g. rks's Nyström maps
	// with their one read-out, which refuse Multiclass).
	VariantTasks []learners.Task
	// NumParams, if not 0, is the number of settable Config fields
	// (learners.Params), Progress never among them.
	NumParams int
	// BadParams maps settings ("key=value", several separated by spaces)
	// that Fit must refuse to a text its error contains, for the checks
	// beyond the generic ones of ParamErrors (limits, combinations).
	BadParams map[string]string
	// NoLoss lists the progress rounds that report no loss (NaN); every
	// other round's Loss must be finite and > 0.
	NoLoss []int
	// Golden maps the name of a golden file in testdata to the settings
	// of the Fit that writes it, on the moons of GoldenSets (on SE1 with
	// "task=regression", on Rings3(150, 7) with "task=multiclass"); the
	// suite refits each and compares the bytes (-update rewrites the
	// files).
	Golden map[string][]string
	// Accuracy, if set, is what the learner must learn with its default
	// Config.
	Accuracy *Learns
	// FreeArrays lists the model file arrays whose length the file does
	// not fix (mfga's risk history).
	FreeArrays []string
	// Negative lists the float parameters that accept −1 (mfga's Tol).
	Negative []string
	// Resolved maps settings (after Params, several separated by spaces;
	// "task=…" picks the task) to the Config fields, "Name=value" with
	// the JSON name and value ("Name=" for an omitted field), that the
	// model file of a fit on 100 rows with them holds: the defaults and
	// forms Fit resolves.
	Resolved map[string][]string
	// Weighted, if not nil, says the learner registers FitWeighted and
	// lists the settings (after Params, several in a string separated by
	// spaces; "task=…" picks the task, Binary if none) under which the shared weights check (Weights, tolerance
	// 1e-6) runs through the registry's Fit and FitWeighted; each also
	// fits 60 rows with fractional weights.
	Weighted [][]string
	// Online marks an online learner (fogd, nogd, rrf): one pass over the
	// rows in order, without the Threads field every batch learner has.
	Online bool
}

func (c Case) prefix() string {
	if c.Prefix != "" {
		return c.Prefix
	}
	return c.Method + ": "
}

func (c Case) tasks() []learners.Task {
	if c.Tasks != nil {
		return c.Tasks
	}
	return []learners.Task{learners.Binary, learners.Regression}
}

// Learns is a learner's accuracy check with its default Config and seed
// 3 (not the Case's Params, which make fits fast) and Params: test
// accuracy at least Rings on the rings (RingsAccuracy) with the defaults
// and under each setting of Each, and, if Sine > 0, RMSE at most Sine and
// half the mean predictor's on the sine (SineRMSE) with the defaults and
// under each setting of SineEach.
type Learns struct {
	Rings, Sine    float64
	Each, SineEach [][]string
	// Params are settings of every fit; Race are added under the race
	// detector, which slows learning ~10× (e.g. fewer iterations). The
	// check is skipped with -short.
	Params, Race []string
}

// Run runs the whole suite on c.
func Run(t *testing.T, c Case) {
	s := &suite{c: c, meth: Lookup(t, c.Method)}
	t.Run("FitErrors", s.fitErrors)
	t.Run("ParamErrors", s.paramErrors)
	t.Run("ProgressAndContext", s.progress)
	t.Run("Predict", s.predict)
	t.Run("RoundTrip", s.roundTrip)
	t.Run("Export", s.export)
	t.Run("FeatureNames", s.featureNames)
	t.Run("Golden", s.golden)
	t.Run("LoadErrors", s.loadErrors)
	t.Run("FileErrors", s.fileErrors)
	t.Run("Allocs", s.allocs)
	t.Run("Concurrent", s.concurrent)
	t.Run("Determinism", s.determinism)
	t.Run("Paths", s.paths)
	t.Run("Threads", s.threads)
	t.Run("Defaults", s.defaults)
	if c.Accuracy != nil {
		t.Run("Accuracy", s.accuracy)
	}
	if c.Weighted != nil {
		t.Run("Weighted", s.weighted)
	}
	if s.meth.FitWeighted != nil {
		t.Run("RelativeWeights", s.relativeWeights)
	}
	if c.Resolved != nil {
		t.Run("Resolved", s.resolved)
	}
}

type suite struct {
	c    Case
	meth learners.Method
}

// config returns a new Config with c.Params and the task set, and extra
// settings after them.
func (s *suite) config(t testing.TB, task learners.Task, extra ...string) any {
	t.Helper()
	cfg := s.meth.NewConfig()
	set := append(append([]string(nil), s.c.Params...), extra...)
	if task != learners.Binary {
		set = append([]string{"task=" + task.String()}, set...)
	}
	for _, kv := range set {
		k, v, _ := strings.Cut(kv, "=")
		if err := learners.SetParam(cfg, k, v); err != nil {
			t.Fatal(err)
		}
	}
	return cfg
}

// data returns n rows of the task's problem: two noisy concentric rings
// labelled 3 and 7 (binary) or y = sin(2x₁) + x₂²/2 + noise (regression).
// The values are the same bits on every architecture (no math.Cos, no
// fusable products).
func data(task learners.Task, n int, seed uint64) (featmap.Matrix, []float64) {
	r := rand.New(rand.NewPCG(seed, 1))
	X := make([]float64, 3*n)
	y := make([]float64, n)
	for i := range y {
		if task == learners.Regression {
			a, b := float64(4*r.Float64())-2, float64(4*r.Float64())-2
			X[3*i], X[3*i+1], X[3*i+2] = a, b, r.NormFloat64()
			y[i] = math.Sin(2*a) + float64(float64(0.5*b)*b) + float64(0.1*r.NormFloat64())
			continue
		}
		rad, lab := 1.0, 3.0
		switch {
		case task == learners.Multiclass: // three rings labelled 3, 5 and 7
			rad, lab = float64(1+i%3), float64(3+2*(i%3))
		case i%2 == 1:
			rad, lab = 2.0, 7.0
		}
		rad += float64(0.15 * r.NormFloat64())
		g1, g2 := r.NormFloat64(), r.NormFloat64()
		sc := rad / math.Sqrt(float64(g1*g1)+float64(g2*g2))
		X[3*i], X[3*i+1], X[3*i+2] = sc*g1, sc*g2, r.NormFloat64()
		y[i] = lab
	}
	return featmap.Dense(n, 3, X), y
}

// variants is the default settings followed by c.Variants.
func (s *suite) variants() [][]string { return append([][]string{nil}, s.c.Variants...) }

func (s *suite) fit(t testing.TB, task learners.Task, n int, seed uint64, extra ...string) (learners.Model, featmap.Matrix, []float64) {
	t.Helper()
	X, y := data(task, n, seed)
	m, err := s.meth.Fit(context.Background(), X, y, s.config(t, task, extra...), nil)
	if err != nil {
		t.Fatalf("%v: %v", task, err)
	}
	return m, X, y
}

// fitCase is bad training data and the text Fit's error must contain.
type fitCase struct {
	name string
	X    featmap.Matrix
	y    []float64
	want string
}

func (s *suite) fitErrors(t *testing.T) {
	for _, task := range s.c.tasks() {
		X, y := data(task, 40, 1)
		with := func(i int, v float64) featmap.Matrix {
			d := append([]float64(nil), X.Data...)
			d[i] = v
			return featmap.Dense(X.Rows, X.Cols, d)
		}
		yWith := func(i int, v float64) []float64 {
			c := append([]float64(nil), y...)
			c[i] = v
			return c
		}
		cases := []fitCase{
			{"NaN in X", with(7, math.NaN()), y, "X[2, 1] is NaN: inputs must be finite"},
			{"Inf in X", with(0, math.Inf(-1)), y, "X[0, 0] is -Inf"},
			{"Inf in y", X, yWith(4, math.Inf(1)), "y[4] is +Inf: targets must be finite"},
			{"NaN in y", X, yWith(2, math.NaN()), "y[2] is NaN"},
			{"ragged y", X, y[:39], "X has 40 rows but y has 39 values"},
			{"short data", featmap.Dense(40, 3, X.Data[:119]), y, "needs 120 elements, has 119"},
			{"bad stride", featmap.Matrix{Rows: 40, Cols: 3, Stride: 1, Data: X.Data}, y, "stride 1 is below its 3 columns"},
			{"huge stride", featmap.Matrix{Rows: 40, Cols: 3, Stride: math.MaxInt / 4, Data: X.Data}, y, "too large"},
			{"empty", featmap.Matrix{}, nil, "X is 0×0: empty data"},
			{"no columns", featmap.Dense(3, 0, nil), []float64{1, 2, 3}, "empty data"},
		}
		if task != learners.Regression {
			cases = append(cases, fitCase{"one class", X, make([]float64, 40), "only one class"})
		}
		switch task {
		case learners.Multiclass:
			two := make([]float64, 40)
			for i := range two {
				two[i] = float64(3 + 4*(i%2))
			}
			cases = append(cases, fitCase{"two classes", X, two, "two classes (3 and 7); the multiclass task needs three or more"})
		case learners.Binary:
			cases = append(cases, fitCase{"three classes", X, yWith(5, 5), "more than two classes (3, 7 and 5, first at y[5])"})
		}
		for _, c := range cases {
			m, err := s.meth.Fit(context.Background(), c.X, c.y, s.config(t, task), nil)
			if err == nil || m != nil {
				t.Errorf("%v %s: got %v, %v; want error %q", task, c.name, m, err, c.want)
			} else if !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), s.c.prefix()) {
				t.Errorf("%v %s: got %q, want %q", task, c.name, err, c.want)
			}
		}
	}
	X, y := data(s.c.tasks()[0], 40, 1)
	cfg := s.config(t, s.c.tasks()[0])
	if _, err := s.meth.Fit(context.Background(), X, y, reflect.ValueOf(cfg).Elem().Interface(), nil); err == nil {
		t.Error("Fit accepted a Config value instead of a pointer")
	}
	if _, err := s.meth.Fit(context.Background(), X, y, &struct{ Seed uint64 }{}, nil); err == nil {
		t.Error("Fit accepted a foreign config")
	}
	names := map[string]bool{}
	for _, p := range learners.Params(cfg) {
		names[p.Name] = true
	}
	if names["progress"] || (s.c.NumParams != 0 && len(names) != s.c.NumParams) {
		t.Errorf("params %v, want %d", names, s.c.NumParams)
	}
}

func (s *suite) progress(t *testing.T) {
	task := s.c.tasks()[0]
	X, y := data(task, 100, 2)
	var events []learners.Event
	m, err := s.meth.Fit(context.Background(), X, y, s.config(t, task), func(e learners.Event) error {
		events = append(events, e)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(events) == 0 || (s.c.Rounds != 0 && len(events) != s.c.Rounds) {
		t.Fatalf("%d progress events, want %d", len(events), s.c.Rounds)
	}
	for i, e := range events {
		if nan := slices.Contains(s.c.NoLoss, e.Round); nan != math.IsNaN(e.Loss) || !(nan || e.Loss > 0 && e.Loss < math.Inf(1)) {
			t.Errorf("event %d: loss %v (rounds without a loss: %v)", i, e.Loss, s.c.NoLoss)
		}
		if e.Round != i+1 || e.Rounds < e.Round || e.Method == "" || !strings.HasPrefix(e.Method, s.c.Method[:2]) ||
			(i > 0 && e.Elapsed < events[i-1].Elapsed) {
			t.Errorf("event %d: %+v", i, e)
		}
	}
	if last := events[len(events)-1]; last.Round != last.Rounds && m == nil {
		t.Errorf("last event %+v", last)
	}

	stop := errors.New("enough")
	if _, err := s.meth.Fit(context.Background(), X, y, s.config(t, task), func(learners.Event) error { return stop }); !errors.Is(err, stop) ||
		!strings.Contains(err.Error(), "after round 1 of") || !strings.HasPrefix(err.Error(), s.c.prefix()) {
		t.Errorf("stopping callback: %v", err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.meth.Fit(ctx, X, y, s.config(t, task), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	if _, err := s.meth.Fit(ctx, X, y, s.config(t, task), func(learners.Event) error { cancel(); return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("context cancelled mid-fit: %v", err)
	}
}

// batcher is the method set every model has through kit.Base.
type batcher interface {
	learners.Model
	learners.Prober
	Score(x []float64) float64
	Labels() learners.Labels
	ScoreBatch(dst []float64, X featmap.Matrix) error
	ProbabilityBatch(dst []float64, X featmap.Matrix) error
}

type fileModel interface {
	batcher
	encoding.BinaryUnmarshaler
	io.WriterTo
	io.ReaderFrom
}

func asFile(t testing.TB, m learners.Model) fileModel {
	t.Helper()
	fm, ok := m.(fileModel)
	if !ok {
		t.Fatalf("%T lacks the model method set (Score, ScoreBatch, Probability, ProbabilityBatch, UnmarshalBinary, WriteTo, ReadFrom)", m)
	}
	return fm
}

func (s *suite) predict(t *testing.T) { s.eachVariant(t, s.predict1) }

// eachVariant runs check for every task and variant.
func (s *suite) eachVariant(t *testing.T, check func(*testing.T, learners.Task, []string)) {
	for _, task := range s.c.tasks() {
		for i, v := range s.variants() {
			if i > 0 && s.c.VariantTasks != nil && !slices.Contains(s.c.VariantTasks, task) {
				continue
			}
			check(t, task, v)
		}
	}
}

func (s *suite) predict1(t *testing.T, task learners.Task, variant []string) {
	{
		mm, X, _ := s.fit(t, task, 100, 3, variant...)
		m := asFile(t, mm)
		if m.Task() != task || m.NumInputs() != 3 {
			t.Fatalf("Task %v, NumInputs %d", m.Task(), m.NumInputs())
		}
		// A strided view: every row padded with one junk column.
		d := X.Cols
		padded := make([]float64, X.Rows*(d+1))
		for i := 0; i < X.Rows; i++ {
			copy(padded[i*(d+1):], X.Row(i))
			padded[i*(d+1)+d] = math.NaN()
		}
		V := featmap.Matrix{Rows: X.Rows, Cols: d, Stride: d + 1, Data: padded}
		pred, score, prob := make([]float64, X.Rows), make([]float64, X.Rows), make([]float64, X.Rows)
		for _, err := range []error{m.PredictBatch(pred, V), m.ScoreBatch(score, V), m.ProbabilityBatch(prob, V)} {
			if err != nil {
				t.Fatal(err)
			}
		}
		for i := range pred {
			x := X.Row(i)
			if p, sc, pr := m.Predict(x), m.Score(x), m.Probability(x); !same(p, pred[i]) || !same(sc, score[i]) || !same(pr, prob[i]) {
				t.Fatalf("%v row %d: batch %v/%v/%v, single %v/%v/%v", task, i, pred[i], score[i], prob[i], p, sc, pr)
			}
			switch {
			case task == learners.Regression:
				if pred[i] != score[i] || !math.IsNaN(prob[i]) {
					t.Fatalf("regression row %d: Predict %v, Score %v, Probability %v (want Score, NaN)", i, pred[i], score[i], prob[i])
				}
			case task == learners.Multiclass:
				if !slices.Contains(mm.(learners.ClassModel).Classes(), pred[i]) || !math.IsNaN(prob[i]) {
					t.Fatalf("row %d: Predict returned %v, not one of the classes %v (Probability %v, want NaN)", i, pred[i], mm.(learners.ClassModel).Classes(), prob[i])
				}
			case pred[i] != m.Labels().Pos && pred[i] != m.Labels().Neg:
				t.Fatalf("row %d: Predict returned %v, not an original label", i, pred[i])
			case !math.IsNaN(prob[i]) && (!(prob[i] >= 0 && prob[i] <= 1) || (prob[i] > 0.5 && pred[i] != m.Labels().Pos) || (prob[i] < 0.5 && pred[i] != m.Labels().Neg)):
				t.Fatalf("row %d: Probability %v disagrees with Predict %v", i, prob[i], pred[i])
			}
		}
		if m.Labels() != (learners.Labels{}) && task == learners.Binary && m.Labels() != (learners.Labels{Neg: 3, Pos: 7}) {
			t.Errorf("Labels %v, want {3 7}", m.Labels())
		}
		if err := m.PredictBatch(nil, featmap.Dense(0, 3, nil)); err != nil {
			t.Errorf("no rows: %v", err)
		}
		for _, c := range []struct {
			dst  []float64
			X    featmap.Matrix
			want string
		}{
			{make([]float64, 100), featmap.Dense(100, 4, make([]float64, 400)), "X has 4 columns, the model takes 3 inputs"},
			{make([]float64, 99), X, "len(dst) = 99, X has 100 rows"},
			{make([]float64, 100), featmap.Dense(100, 3, X.Data[:200]), "needs 300 elements, has 200"},
			{make([]float64, 100), featmap.Matrix{Rows: 100, Cols: 3, Stride: 1, Data: X.Data}, "stride 1"},
			{make([]float64, 100), featmap.Matrix{Rows: 100, Cols: 3, Stride: math.MaxInt / 2, Data: X.Data}, "too large"},
			{nil, featmap.Matrix{}, "empty data"},
		} {
			for _, f := range []func([]float64, featmap.Matrix) error{m.PredictBatch, m.ScoreBatch, m.ProbabilityBatch} {
				if err := f(c.dst, c.X); err == nil || !errors.Is(err, learners.ErrShape) || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), s.c.prefix()) {
					t.Errorf("got %v, want ErrShape and %q", err, c.want)
				}
			}
		}
		func() {
			defer func() {
				want := s.c.prefix() + "Score/Predict: len(x) = 4, the model takes 3 inputs"
				if r := recover(); r == nil {
					t.Error("no panic")
				} else if s, _ := r.(string); s != want {
					t.Errorf("panic %q, want %q", r, want)
				}
			}()
			m.Predict([]float64{1, 2, 3, 4})
		}()
	}
}

func same(a, b float64) bool { return a == b || (math.IsNaN(a) && math.IsNaN(b)) }

func (s *suite) roundTrip(t *testing.T) { s.eachVariant(t, s.roundTrip1) }

func (s *suite) roundTrip1(t *testing.T, task learners.Task, variant []string) {
	{
		mm, X, _ := s.fit(t, task, 100, 5, variant...)
		m := asFile(t, mm)
		data, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		m2, err := s.meth.Load(data)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if n, err := m.WriteTo(&buf); err != nil || n != int64(len(data)) {
			t.Fatalf("WriteTo: %d, %v", n, err)
		}
		m3 := newModel(m)
		if n, err := m3.ReadFrom(&buf); err != nil || n != int64(len(data)) {
			t.Fatalf("ReadFrom: %d, %v", n, err)
		}
		m4, err := learners.Load(data) // dispatch by the header's method
		if err != nil {
			t.Fatal(err)
		}
		if reflect.TypeOf(m2) != reflect.TypeOf(m) || reflect.TypeOf(m4) != reflect.TypeOf(m) {
			t.Fatalf("loaded %T and %T, fitted %T", m2, m4, m)
		}
		for i := 0; i < X.Rows; i++ {
			x := X.Row(i)
			sc := m.Score(x)
			if s2, s3, s4 := asFile(t, m2).Score(x), m3.Score(x), asFile(t, m4).Score(x); !same(s2, sc) || !same(s3, sc) || !same(s4, sc) ||
				!same(m2.Predict(x), m.Predict(x)) || !same(asFile(t, m2).Probability(x), m.Probability(x)) {
				t.Fatalf("%v row %d: scores %v, %v, %v, %v", task, i, sc, s2, s3, s4)
			}
		}
		for _, mx := range []learners.Model{m2, m3, m4} {
			if again, err := mx.MarshalBinary(); err != nil || !bytes.Equal(again, data) {
				t.Errorf("%v: re-marshalled bytes differ (%v)", task, err)
			}
		}
		if m2.NumInputs() != X.Cols || m2.Task() != m.Task() || asFile(t, m2).Labels() != m.Labels() {
			t.Errorf("%v: loaded model differs", task)
		}
		if c1, c2 := reflect.ValueOf(m).MethodByName("Config"), reflect.ValueOf(m2).MethodByName("Config"); c1.IsValid() &&
			!reflect.DeepEqual(c1.Call(nil)[0].Interface(), c2.Call(nil)[0].Interface()) {
			t.Errorf("%v: config %+v / %+v", task, c1.Call(nil)[0], c2.Call(nil)[0])
		}
		if err := asFile(t, m2).UnmarshalBinary(data); err == nil {
			t.Error("UnmarshalBinary into a model in use succeeded")
		}
		if m2, err := s.meth.Load(data[:10]); err == nil || m2 != nil {
			t.Errorf("Load of a truncated file: %v, %v", m2, err)
		}
		if _, err := newModel(m).MarshalBinary(); err == nil || !strings.HasPrefix(err.Error(), s.c.prefix()) {
			t.Errorf("MarshalBinary of a zero Model: %v", err)
		}
	}
}

// newModel returns a new zero model of m's type.
func newModel(m learners.Model) fileModel {
	return reflect.New(reflect.TypeOf(m).Elem()).Interface().(fileModel)
}

// golden: every model file in the learner's testdata (written by earlier
// releases) loads and re-marshals to its own bytes, and predicts the same
// through every entry point.
func (s *suite) golden(t *testing.T) {
	moons, se1 := GoldenSets()
	for name, set := range s.c.Golden {
		cfg, task := s.meth.NewConfig(), learners.Binary
		X, y := featmap.Dense(moons.N, moons.D, moons.X), moons.Y
		for _, kv := range set {
			k, v, _ := strings.Cut(kv, "=")
			if err := learners.SetParam(cfg, k, v); err != nil {
				t.Fatal(err)
			}
			switch kv {
			case "task=regression":
				task, X, y = learners.Regression, featmap.Dense(se1.N, se1.D, se1.X), se1.Y
			case "task=multiclass":
				task = learners.Multiclass
				X, y = Rings3(150, 7)
			}
		}
		m, err := s.meth.Fit(context.Background(), X, y, cfg, nil)
		if err != nil {
			t.Fatalf("%s (%v): %v", name, task, err)
		}
		Golden(t, name, Bytes(t, m))
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "*.model"))
	for _, f := range files {
		want, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		h, err := modelfile.ReadHeader(want)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		m, err := learners.Load(want)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		got, err := m.MarshalBinary()
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s (%s): re-marshalled bytes differ (%v)", f, h.Method, err)
		}
		x := make([]float64, m.NumInputs())
		for k := range x {
			x[k] = float64(k%3) - 0.5
		}
		dst := make([]float64, 1)
		if err := m.PredictBatch(dst, featmap.Dense(1, len(x), x)); err != nil || !same(dst[0], m.Predict(x)) {
			t.Errorf("%s: PredictBatch %v (%v), Predict %v", f, dst[0], err, m.Predict(x))
		}
	}
}

func (s *suite) loadErrors(t *testing.T) {
	mm, _, _ := s.fit(t, s.c.tasks()[0], 60, 3)
	good, err := mm.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	flipped := append([]byte(nil), good...)
	// the last byte before the 4-byte checksum: a value of the last array,
	// wherever the layout puts the structure (a flip in a name length is
	// reported as a structural defect before the checksum is verified)
	flipped[len(flipped)-5] ^= 1
	rewrite := func(mod func(f *modelfile.File)) []byte { return Rewrite(t, good, mod) }
	h, _ := modelfile.ReadHeader(good)
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "truncated"},
		{"not a model", []byte("a,b,y\n1,2,3\n"), "not an rfkit model file"},
		{"truncated", good[:len(good)-9], "truncated"},
		{"flipped", flipped, "checksum mismatch"},
		{"other method", rewrite(func(f *modelfile.File) { f.Header.Method = "nosuch" }), `a "nosuch" model, not`},
		{"newer", rewrite(func(f *modelfile.File) { f.Header.Version = 99 }), "model version 99 is newer"},
		{"bad config", rewrite(func(f *modelfile.File) { f.Header.Config = []byte(`[1]`) }), "config"},
		{"zero scale", rewrite(func(f *modelfile.File) { f.Arrays[1].Data[0] = 0 }), "scale[0] = 0"},
		{"no mean", rewrite(func(f *modelfile.File) { f.Arrays[0].Name = "nomean" }), `no array "mean"`},
		{"more inputs", rewrite(func(f *modelfile.File) { f.Header.Inputs++ }), `array "mean" has 3 elements, want 4`},
		{"hostile inputs", rewrite(func(f *modelfile.File) { f.Header.Inputs = math.MaxInt / 4 }), `array "mean" has 3 elements`},
		{"no config", rewrite(func(f *modelfile.File) { f.Header.Config = nil }), "config"},
	}
	if h.Task == modelfile.TaskBinary {
		cases = append(cases, struct {
			name string
			data []byte
			want string
		}{"task", rewrite(func(f *modelfile.File) { f.Header.Task = modelfile.TaskRegression; f.Header.Labels = nil }), "task"})
	}
	for _, c := range cases {
		m, err := s.meth.Load(c.data)
		if err == nil || m != nil {
			t.Errorf("%s: got %v, %v; want error %q", c.name, m, err, c.want)
			continue
		}
		if !errors.Is(err, learners.ErrCorrupt) || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), s.c.prefix()) {
			t.Errorf("%s: got %q, want ErrCorrupt, prefix %q and %q", c.name, err, s.c.prefix(), c.want)
		}
	}
}

func (s *suite) allocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop items on purpose")
	}
	mm, X, _ := s.fit(t, s.c.tasks()[0], 100, 8)
	m := asFile(t, mm)
	x := X.Row(3)
	dst := make([]float64, X.Rows)
	sink := 0.0
	for name, f := range map[string]func(){
		"Predict":          func() { sink += m.Predict(x) },
		"Score":            func() { sink += m.Score(x) },
		"Probability":      func() { sink += m.Probability(x) },
		"PredictBatch":     func() { _ = m.PredictBatch(dst, X) },
		"ScoreBatch":       func() { _ = m.ScoreBatch(dst, X) },
		"ProbabilityBatch": func() { _ = m.ProbabilityBatch(dst, X) },
	} {
		if a := testing.AllocsPerRun(200, f); a != 0 {
			t.Errorf("%s: %v allocations per call", name, a)
		}
	}
	// Wide rows (d = 70, beyond any stack buffer a body might use).
	wide, wy := make([]float64, 40*70), make([]float64, 40)
	for i := range wide {
		wide[i] = math.Sin(float64(i) * 0.37)
	}
	for i := range wy {
		wy[i] = float64(2*(i%2) - 1)
		if s.c.tasks()[0] == learners.Regression {
			wy[i] = wide[i*70] + wide[i*70+1]
		}
	}
	mw, err := s.meth.Fit(context.Background(), featmap.Dense(40, 70, wide), wy, s.config(t, s.c.tasks()[0]), nil)
	if err != nil {
		t.Fatal(err)
	}
	mw.Predict(wide[:70])
	if a := testing.AllocsPerRun(100, func() { sink += mw.Predict(wide[70:140]) }); a != 0 {
		t.Errorf("Predict with d = 70: %v allocations per call", a)
	}

	// Concurrently: AllocsPerRun counts every goroutine's allocations.
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
					m.Predict(x)
					mw.Predict(wide[:70])
				}
			}
		}()
	}
	runs := 1000
	if testing.Short() && runtime.GOARCH != "amd64" {
		runs = 50 // emulated: the spinning goroutines slow everything down
	}
	a := testing.AllocsPerRun(runs, func() { sink += m.Predict(x) + mw.Predict(wide[:70]) })
	close(stop)
	wg.Wait()
	if a != 0 {
		t.Errorf("concurrent Predict: %v allocations per call", a)
	}
	_ = sink
}

func (s *suite) concurrent(t *testing.T) {
	tasks := s.c.tasks()
	mm, X, _ := s.fit(t, tasks[len(tasks)-1], 200, 9)
	m := asFile(t, mm)
	want := make([]float64, X.Rows)
	if err := m.PredictBatch(want, X); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dst := make([]float64, X.Rows)
			for rep := 0; rep < 3; rep++ {
				for i := range want {
					if v := m.Predict(X.Row(i)); !same(v, want[i]) {
						errs <- "Predict differs under concurrency"
						return
					}
				}
				if err := m.PredictBatch(dst, X); err != nil || !same(dst[7], want[7]) {
					errs <- "PredictBatch differs under concurrency"
					return
				}
				m.Score(X.Row(rep))
				m.Probability(X.Row(rep))
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}

// determinism: the same model bytes for GOMAXPROCS 1, 4, 1 (1000 rows:
// enough for the parallel kernels to split), and another seed gives
// another model.
func (s *suite) determinism(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 300
	}
	task := s.c.tasks()[0]
	var want []byte
	for _, procs := range []int{1, 4, 1} {
		old := runtime.GOMAXPROCS(procs)
		m, _, _ := s.fit(t, task, n, 4, "seed=42")
		runtime.GOMAXPROCS(old)
		b, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if want == nil {
			want = b
		} else if !bytes.Equal(b, want) {
			t.Fatalf("GOMAXPROCS=%d: model bytes differ", procs)
		}
	}
	if !s.c.Unseeded {
		m, _, _ := s.fit(t, task, n, 4, "seed=43")
		if b, _ := m.MarshalBinary(); bytes.Equal(b, want) {
			t.Error("a different seed gave the same model")
		}
	}
}

// paths: the fit and the predictions are the same bits on every SIMD path
// this CPU has (the golden files check other machines).
func (s *suite) paths(t *testing.T) {
	paths := asm.Paths()
	if len(paths) < 2 {
		t.Skipf("one path (%v)", paths)
	}
	task := s.c.tasks()[0]
	var want []byte
	var wantPred []float64
	for _, p := range paths {
		restore, err := asm.SetPath(p)
		if err != nil {
			t.Fatal(err)
		}
		m, X, _ := s.fit(t, task, 100, 6)
		b, err := m.MarshalBinary()
		pred := make([]float64, X.Rows)
		if err == nil {
			err = m.PredictBatch(pred, X)
		}
		restore()
		if err != nil {
			t.Fatal(err)
		}
		if want == nil {
			want, wantPred = b, pred
			continue
		}
		if !bytes.Equal(b, want) {
			t.Errorf("path %s: model bytes differ from %s", p, paths[0])
		}
		for i := range pred {
			if !same(pred[i], wantPred[i]) {
				t.Fatalf("path %s row %d: %v, %s gives %v", p, i, pred[i], paths[0], wantPred[i])
			}
		}
	}
}

// Fuzz fuzzes learners.Load, seeded with models of c (and, through the
// header's method, reaching every registered learner): it must never
// panic, every error must wrap learners.ErrCorrupt, and a model that loads
// must predict and round-trip.
func Fuzz(f *testing.F, c Case) {
	meth, err := learners.Lookup(c.Method)
	if err != nil {
		f.Fatal(err)
	}
	s := &suite{c: c, meth: meth}
	for _, task := range c.tasks() {
		m, _, _ := s.fit(f, task, 30, 4)
		good, err := m.MarshalBinary()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(good)
		for _, n := range []int{0, 8, 30, len(good) / 2, len(good) - 1} {
			f.Add(good[:n])
		}
		for _, i := range []int{10, 40, len(good) / 2, len(good) - 30} {
			b := append([]byte(nil), good...)
			b[i] ^= 0x10
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkLoad(t, data)
		if len(data) >= 4 { // fix the checksum to reach the contents
			body := data[:len(data)-4]
			checkLoad(t, binary.LittleEndian.AppendUint32(append([]byte(nil), body...), crc32.ChecksumIEEE(body)))
		}
	})
}

func checkLoad(t *testing.T, data []byte) {
	m, err := learners.Load(data)
	if err != nil {
		if m != nil || (!errors.Is(err, learners.ErrCorrupt) && !strings.Contains(err.Error(), "unknown method")) {
			t.Fatalf("%v with model %v", err, m)
		}
		return
	}
	x := make([]float64, m.NumInputs())
	m.Predict(x)
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := learners.Load(b); err != nil {
		t.Fatal(err)
	}
}

func (s *suite) accuracy(t *testing.T) {
	if testing.Short() {
		// -short is what the race and the qemu stages of make test run:
		// there a statistical threshold proves nothing about data races or
		// the architecture (Golden, Paths and Determinism check the bits),
		// and it is the slowest check of the suite. Without -short every
		// stage of make test on amd64 checks it.
		t.Skip("a statistical check; skipped with -short")
	}
	a := s.c.Accuracy
	fit := func(set ...string) func(featmap.Matrix, []float64) (learners.Model, error) {
		return func(X featmap.Matrix, y []float64) (learners.Model, error) {
			cfg := s.meth.NewConfig()
			all := append(append([]string{"seed=3"}, a.Params...), set...)
			if raceEnabled {
				all = append(all, a.Race...)
			}
			for _, kv := range all {
				k, v, _ := strings.Cut(kv, "=")
				if err := learners.SetParam(cfg, k, v); err != nil {
					t.Fatal(err)
				}
			}
			return s.meth.Fit(context.Background(), X, y, cfg, nil)
		}
	}
	for _, set := range append([][]string{nil}, a.Each...) {
		RingsAccuracy(t, a.Rings, fit(set...))
	}
	if a.Sine > 0 {
		for _, set := range append([][]string{nil}, a.SineEach...) {
			SineRMSE(t, a.Sine, fit(append([]string{"task=regression"}, set...)...))
		}
	}
}

// settings splits the settings of set at spaces and returns them with the
// task they name (Binary if none).
func settings(t testing.TB, set ...string) (learners.Task, []string) {
	t.Helper()
	set = strings.Fields(strings.Join(set, " "))
	task := learners.Binary
	for _, kv := range set {
		if v, ok := strings.CutPrefix(kv, "task="); ok {
			var err error
			if task, err = learners.ParseTask(v); err != nil {
				t.Fatal(err)
			}
		}
	}
	return task, set
}

// resolved checks Case.Resolved: the Config fields of the model file.
func (s *suite) resolved(t *testing.T) {
	for in, want := range s.c.Resolved {
		task, set := settings(t, in)
		m, _, _ := s.fit(t, task, 100, 1, set...)
		f := Parsed(t, m)
		var cfg map[string]any
		if err := json.Unmarshal(f.Header.Config, &cfg); err != nil {
			t.Fatal(err)
		}
		for _, kv := range want {
			k, v, _ := strings.Cut(kv, "=")
			got, ok := cfg[k]
			if !ok {
				got = ""
			}
			if fmt.Sprint(got) != v {
				t.Errorf("%s: %s resolved to %v, want %q (config %s)", in, k, got, v, f.Header.Config)
			}
		}
	}
}

// RaceEnabled reports whether the tests run under -race, where sync.Pool
// drops scratch on purpose, so an allocation count is not meaningful.
const RaceEnabled = raceEnabled
