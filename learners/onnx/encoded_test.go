package onnx_test

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rfkit/rfkit/learners/internal/kit"

	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/gbrff"
	"github.com/rfkit/rfkit/learners/internal/graph"
	"github.com/rfkit/rfkit/learners/onnx"
)

// encBody is a test learner whose scores read encoded inputs, as an
// encoded gbrff2 model's do, for every task (gbrff encodes the inputs of
// binary fits only): s_k = bias_k + Σ_j R[j·K + k]·cos(e·W_j + B_j), e the
// standardised encoded inputs of z. Its Score and Scores compute the
// encoding here, independently of package graph's evaluation.
type encBody struct {
	K    int // scores: the classes of a multiclass model, else 1
	D    int // cosines
	enc  graph.Encoding
	W    []float64 // E×D row-major
	B    []float64 // D
	R    []float64 // D×K row-major
	bias []float64 // K
}

type encWork struct{ e, s []float64 }

func (*encBody) Spec() kit.Spec {
	return kit.Spec{Name: "encoded", Methods: []string{"encoded"}, Version: 1}
}

func (b *encBody) NewWork() any {
	return &encWork{e: make([]float64, b.enc.Inputs()), s: make([]float64, b.K)}
}

// encode writes the standardised encoded inputs of z into e.
func (b *encBody) encode(e, z []float64) {
	for q, j := range b.enc.Src {
		v := z[j]
		switch b.enc.Kind[q] {
		case graph.EncLog:
			v = math.Copysign(math.Log1p(math.Abs(v)), v)
		case graph.EncLevel:
			if v == b.enc.Level[q] {
				v = 1
			} else {
				v = 0
			}
		}
		e[q] = (v - b.enc.Mean[q]) / b.enc.Scale[q]
	}
}

func (b *encBody) Scores(dst, z []float64, w any) {
	e := w.(*encWork).e
	b.encode(e, z)
	copy(dst, b.bias)
	for j := range b.D {
		t := b.B[j]
		for q, v := range e {
			t += v * b.W[q*b.D+j]
		}
		c := math.Cos(t)
		for k := range b.K {
			dst[k] += c * b.R[j*b.K+k]
		}
	}
}

func (b *encBody) Score(z []float64, w any) float64 {
	s := w.(*encWork).s
	b.Scores(s, z, w)
	return s[0]
}

func (*encBody) Encode(e *kit.Encoder) error { return e.Config(struct{}{}) }
func (*encBody) Decode(*kit.Decoder) error   { return nil }

func (b *encBody) Graph() (*graph.Graph, error) {
	enc := b.enc
	return &graph.Graph{Encoding: &enc, Blocks: []graph.Block{{Act: graph.Cosines, D: b.D, W: b.W, B: b.B, Scale: 1, R: b.R}},
		Bias: b.bias}, nil
}

// standardisation is the mean and standard deviation of each column of
// ds (at least 1e-9).
func standardisation(ds *dataset.Dataset) (mean, scale []float64) {
	mean, scale = make([]float64, ds.D), make([]float64, ds.D)
	for k := range ds.D {
		var s, q float64
		for i := range ds.N {
			s += ds.Row(i)[k]
		}
		mean[k] = s / float64(ds.N)
		for i := range ds.N {
			q += (ds.Row(i)[k] - mean[k]) * (ds.Row(i)[k] - mean[k])
		}
		scale[k] = math.Max(math.Sqrt(q/float64(ds.N)), 1e-9)
	}
	return mean, scale
}

// encodedModel builds the test learner for task on the training rows of
// ds: an input whose values are integers of 3 to 5 levels is one-hot
// encoded (gbrff's rule); every other input gives three encoded inputs,
// itself, its signed log and a one-hot column of the value of the first
// row (so that every data set has every kind, and rows that hit a level).
func encodedModel(ds *dataset.Dataset, task learners.Task) learners.Model {
	mean, scale := standardisation(ds)
	z := make([][]float64, ds.N)
	for i := range z {
		z[i] = make([]float64, ds.D)
		for k, v := range ds.Row(i) {
			z[i][k] = (v - mean[k]) / scale[k]
		}
	}
	var enc graph.Encoding
	add := func(j int, kind graph.EncKind, level float64) {
		enc.Src, enc.Kind, enc.Level = append(enc.Src, j), append(enc.Kind, kind), append(enc.Level, level)
	}
	for j := range ds.D {
		var raw []float64
		integer := true
		for i := range ds.N {
			v := ds.Row(i)[j]
			integer = integer && v == math.Trunc(v)
			if len(raw) <= 5 && !slices.Contains(raw, v) {
				raw = append(raw, v)
			}
		}
		if integer && len(raw) >= 3 && len(raw) <= 5 {
			slices.Sort(raw)
			for _, v := range raw {
				add(j, graph.EncLevel, (v-mean[j])/scale[j])
			}
			continue
		}
		add(j, graph.EncCopy, 0)
		add(j, graph.EncLog, 0)
		add(j, graph.EncLevel, z[0][j])
	}
	E := len(enc.Src)
	b := &encBody{K: 1, D: 24, enc: enc}
	b.enc.Mean, b.enc.Scale = make([]float64, E), make([]float64, E)
	raw := &encBody{enc: enc} // the encoding before its standardisation
	raw.enc.Mean, raw.enc.Scale = make([]float64, E), make([]float64, E)
	for q := range E {
		raw.enc.Scale[q] = 1
	}
	vals := make([][]float64, ds.N)
	for i := range vals {
		vals[i] = make([]float64, E)
		raw.encode(vals[i], z[i])
	}
	for q := range E {
		var s, ss float64
		for i := range vals {
			s += vals[i][q]
		}
		b.enc.Mean[q] = s / float64(ds.N)
		for i := range vals {
			ss += (vals[i][q] - b.enc.Mean[q]) * (vals[i][q] - b.enc.Mean[q])
		}
		b.enc.Scale[q] = math.Sqrt(ss / float64(ds.N))
		if !(b.enc.Scale[q] > 1e-9) {
			b.enc.Scale[q] = 1
		}
	}
	c := learners.Common{Task: task, Mean: mean, Scale: scale, Impute: true}
	if task != learners.Regression {
		classes := slices.Compact(slices.Sorted(slices.Values(ds.Y)))
		if task == learners.Multiclass {
			c.Classes, b.K = classes, len(classes)
		}
		c.Labels, c.Link = learners.Labels{Neg: classes[0], Pos: classes[len(classes)-1]}, kit.Logistic
	}
	rng := rand.New(rand.NewPCG(7, uint64(E)))
	b.W, b.B, b.R, b.bias = make([]float64, E*b.D), make([]float64, b.D), make([]float64, b.D*b.K), make([]float64, b.K)
	for i := range b.W {
		b.W[i] = rng.NormFloat64() / math.Sqrt(float64(E))
	}
	for j := range b.B {
		b.B[j] = 2 * math.Pi * rng.Float64()
	}
	for i := range b.R {
		b.R[i] = rng.NormFloat64() / math.Sqrt(float64(b.D))
	}
	for k := range b.bias {
		b.bias[k] = 0.1 * rng.NormFloat64()
	}
	if task == learners.Regression {
		// values away from 0, as a fitted model's mean target: the runtime
		// check's tolerance is relative, and a value near 0 would be a
		// cancellation of cosines that are float32 in the graph
		b.bias[0] = 3
	}
	m := new(kit.Base[encBody, *encBody])
	kit.Build(m, c, b)
	return m
}

// codedRows is n rows of a binary problem on which gbrff2's default fit
// encodes every kind of input: input 0 is an integer code 1…4 with a
// non-monotone effect, input 1 heavy-tailed (log-normal, σ = 2), input 2
// Gaussian noise.
func codedRows(n int, seed uint64) *dataset.Dataset {
	tab := []float64{1, -1.2, 0.8, -0.6}
	rng := rand.New(rand.NewPCG(seed, 3))
	X, y := make([]float64, 3*n), make([]float64, n)
	for i := range n {
		a, g := rng.IntN(4), 2*rng.NormFloat64()
		X[3*i], X[3*i+1], X[3*i+2] = float64(a+1), math.Exp(g), rng.NormFloat64()
		y[i] = 1
		if tab[a]+0.5*g+0.3*X[3*i+2] < 0 {
			y[i] = -1
		}
	}
	return &dataset.Dataset{N: n, D: 3, X: X, Y: y}
}

// withOddRows appends to the rows of ds copies of its first rows with a
// value between two levels, a NaN and a value beyond every training
// value in each input in turn: the rows the encoding treats specially.
func withOddRows(ds *dataset.Dataset) featmap.Matrix {
	X := slices.Clone(ds.X)
	for k := range ds.D {
		for _, v := range []float64{1.5, math.NaN(), 1e6, -1e6, 0} {
			row := slices.Clone(ds.Row(k % ds.N))
			row[k] = v
			X = append(X, row...)
		}
	}
	return featmap.Dense(len(X)/ds.D, ds.D, X)
}

// graphTol bounds the difference of the graph's float64 evaluation
// (math.Cos, another summation order) from the model's scores, as in the
// conformance suite's export check.
const graphTol = 1e-9

// checkGraph compares the float64 evaluation of m's graph with m's
// Predict and Probabilities on the rows of X.
func checkGraph(t *testing.T, name string, m learners.Model, X featmap.Matrix) {
	t.Helper()
	g, err := graph.Of(m)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if g.Encoding == nil {
		t.Fatalf("%s: the graph has no encoding", name)
	}
	kinds := map[graph.EncKind]bool{}
	for _, k := range g.Encoding.Kind {
		kinds[k] = true
	}
	if len(kinds) != 3 {
		t.Fatalf("%s: encoded kinds %v, want all three", name, kinds)
	}
	cm, _ := m.(learners.ClassModel)
	imputes := m.(interface{ Imputes() bool }).Imputes()
	for i := range X.Rows {
		x := X.Row(i)
		s := g.Scores(x)
		want, got := m.Predict(x), g.Label(s)
		if g.Task == graph.Regression {
			if !(math.Abs(got-want) <= graphTol*math.Max(1, math.Abs(want))) {
				t.Fatalf("%s: row %d %v: graph %v, Predict %v", name, i, x, got, want)
			}
			continue
		}
		if got != want {
			t.Fatalf("%s: row %d %v: graph label %v, Predict %v (scores %v)", name, i, x, got, want, s)
		}
		if slices.ContainsFunc(x, math.IsNaN) && !imputes {
			continue // Probabilities takes NaN only from a model that imputes
		}
		p := make([]float64, len(cm.Classes()))
		if err := cm.Probabilities(p, x); err != nil {
			t.Fatalf("%s: row %d: %v", name, i, err)
		}
		for k, q := range g.Probabilities(s) {
			if !(math.Abs(q-p[k]) <= graphTol) {
				t.Fatalf("%s: row %d %v: graph probability %d %v, Probabilities %v", name, i, x, k, q, p[k])
			}
		}
	}
	data, err := onnx.Export(m)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for _, op := range []string{"Gather", "Equal", "Sign", "Log", "Where"} {
		if !bytes.Contains(data, []byte(op)) {
			t.Errorf("%s: no %s node in the file", name, op)
		}
	}
}

// TestEncodedGraph: a default gbrff2 fit whose inputs are encoded (one-hot,
// signed log and kept inputs), uncalibrated and calibrated, and the test
// learner's encoded models of every task are exported, and their graphs
// give Predict's labels, values and probabilities, also on rows with a
// value between two levels, a NaN or a value far outside the training
// range.
func TestEncodedGraph(t *testing.T) {
	ds := codedRows(300, 1)
	X := withOddRows(ds)
	for _, cal := range []string{gbrff.CalibrationNone, gbrff.CalibrationAuto} {
		m, err := gbrff.Fit(context.Background(), featmap.Dense(ds.N, ds.D, ds.X), ds.Y, gbrff.Config{T: 30, Seed: 1, Calibration: cal})
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := m.Calibration(); ok != (cal == gbrff.CalibrationAuto) {
			t.Fatalf("calibration %q: calibrated %v", cal, ok)
		}
		checkGraph(t, "gbrff2 calibration "+cal, m, X)
	}
	multi := codedRows(300, 2)
	for i, v := range multi.Y { // three classes: the sign and a third one
		if multi.X[3*i+2] > 0.8 {
			multi.Y[i] = 2
		} else {
			multi.Y[i] = v
		}
	}
	reg := codedRows(300, 3)
	for i := range reg.Y {
		reg.Y[i] = math.Log(reg.X[3*i+1]) + reg.X[3*i]
	}
	for _, c := range []struct {
		task learners.Task
		ds   *dataset.Dataset
	}{{learners.Binary, ds}, {learners.Multiclass, multi}, {learners.Regression, reg}} {
		checkGraph(t, "test learner "+c.task.String(), encodedModel(c.ds, c.task), withOddRows(c.ds))
	}
}
