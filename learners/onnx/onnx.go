// Package onnx exports rfkit models as ONNX graphs, for runtimes outside
// Go (onnxruntime in Python, C++, JavaScript, ...).
//
// Export writes a model of every learner, for the binary, multiclass and
// regression tasks: the random-Fourier-feature ones (rks with the rff, orf
// and laplacian maps, eerf, lkrf, prff, gbrff2 and gbrff1, whose landmarks
// are stored as their cosines, pbrff, srff, fogd, rrf: blocks of cosines of
// an affine map of the standardised row), the Gaussian-kernel ones (rks
// with a Nyström map, nogd, the exact-kernel baseline kernel: kernel values
// on landmarks or support rows) and mfga (monomials of at most two inputs
// times the Gaussian factor), each read out linearly and linked as the
// model's Probabilities links it (gbrff's calibration temperature
// included). A gbrff model of either variant whose inputs are encoded
// (gbrff.Config.Inputs "auto", the default of a binary fit) has the
// encoding in its graph between the standardisation and the cosines:
// one-hot columns, signed logs and kept inputs, then their own
// standardisation.
//
// The graph follows skl2onnx's conventions: one input "X", a float64
// tensor [N, d] with the columns in the model's input order (the feature
// names, when the model has them, are in the input's doc string and the
// metadata "feature_names"); a classifier has the outputs "label" (float64
// [N], the original class labels) and "probabilities" (float64 [N, K],
// in the order of the classes, the same as Probabilities); a regression
// model has "variable" (float64 [N, 1]).
//
// Arithmetic: everything is float64 except the cosines. onnxruntime's CPU
// Cos has no float64 kernel, so each angle is reduced to [−π, π] in
// float64 (θ − 2π·round(θ/2π)), cast to float32 for Cos and the result
// cast back: a cosine is within about 2·10⁻⁷ of rfkit's, and the scores
// within that times the read-out's absolute weights. The squared
// distances of the Gaussian kernels are ‖z‖² + ‖l‖² − 2·z·l (a matrix
// product, so a batch of N rows needs N×D values, not N×D×d), within a few
// units of 10⁻¹⁵ of rfkit's direct sums on the data sets of the runtime
// check. A one-hot column is an Equal of the float64 standardised input
// with the level, so it is 1 on exactly the rows where rfkit's is; the
// signed log is sign(v)·ln(1 + |v|) in float64 (ONNX has no log1p: for a
// small |v| the sum 1 + |v| rounds, an absolute error below 2⁻⁵³). A NaN
// input is a missing value replaced by the training mean, as Predict does.
package onnx

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/rfkit/rfkit/internal/pb"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/graph"
)

// The graph's input and output names (the package doc), as
// scikit-learn's converters name them.
const (
	inputName         = "X"
	labelName         = "label"
	probabilitiesName = "probabilities"
	variableName      = "variable"
)

// Export returns the ONNX model (a serialised ModelProto) of m. A model
// whose learner has no graph form (none in this module), or an empty
// model, is an error naming why.
func Export(m learners.Model) ([]byte, error) {
	if m == nil {
		return nil, errors.New("onnx: Export: nil model")
	}
	g, err := graph.Of(m)
	if err != nil {
		return nil, fmt.Errorf("onnx: %w", err)
	}
	b := &builder{}
	if err := b.model(g); err != nil {
		return nil, fmt.Errorf("onnx: %w", err)
	}
	return b.encode(g), nil
}

// builder collects the nodes, constants and outputs of one graph.
type builder struct {
	nodes   []node
	inits   []tensor
	outputs []valueInfo
	n       int // for fresh names
}

func (b *builder) fresh(prefix string) string {
	b.n++
	return fmt.Sprintf("%s_%d", prefix, b.n)
}

// op adds a node and returns its (first) output.
func (b *builder) op(op string, in ...string) string {
	out := b.fresh(strings.ToLower(op))
	b.nodes = append(b.nodes, node{op: op, in: in, out: []string{out}})
	return out
}

func (b *builder) opAttr(op string, int1 map[string]int64, ints map[string][]int64, in ...string) string {
	out := b.op(op, in...)
	b.nodes[len(b.nodes)-1].int1, b.nodes[len(b.nodes)-1].ints = int1, ints
	return out
}

// named renames the output of the last node.
func (b *builder) named(name string) {
	b.nodes[len(b.nodes)-1].out[0] = name
}

func (b *builder) constant(prefix string, dims []int64, v []float64) string {
	name := b.fresh(prefix)
	b.inits = append(b.inits, tensor{name: name, dims: dims, f64: v})
	return name
}

func (b *builder) scalar(prefix string, v float64) string {
	return b.constant(prefix, nil, []float64{v})
}

func (b *builder) ints(prefix string, v ...int64) string {
	name := b.fresh(prefix)
	b.inits = append(b.inits, tensor{name: name, dims: []int64{int64(len(v))}, i64: v})
	return name
}

func (b *builder) bools(prefix string, v []bool) string {
	name := b.fresh(prefix)
	b.inits = append(b.inits, tensor{name: name, dims: []int64{int64(len(v))}, bools: v})
	return name
}

func (b *builder) model(g *graph.Model) error {
	d, K := int64(len(g.Mean)), int64(g.K())
	// z = (x − mean)/scale, NaN → 0
	z0 := b.op("Div", b.op("Sub", inputName, b.constant("mean", []int64{d}, g.Mean)), b.constant("scale", []int64{d}, g.Scale))
	z := b.op("Where", b.op("IsNaN", inputName), b.scalar("zero", 0), z0)
	if e := g.Encoding; e != nil {
		z, d = b.encoding(z, e), int64(e.Inputs())
	}
	parts := make([]string, 0, len(g.Blocks)+1)
	for i, blk := range g.Blocks {
		f, err := b.features(z, d, &blk)
		if err != nil {
			return fmt.Errorf("block %d: %w", i, err)
		}
		parts = append(parts, b.op("MatMul", f, b.constant("readout", []int64{int64(blk.D), K}, blk.R)))
	}
	parts = append(parts, b.constant("bias", []int64{K}, g.Bias))
	s := b.op("Sum", parts...)
	return b.outputsFor(g, s)
}

// encoding adds the [N, E] standardised encoded inputs of z: the input
// columns Src gathered, each made by its kind, then standardised. A level
// is an Equal of float64s, so a one-hot column is 1 exactly where rfkit's
// is (z has rfkit's bits: a subtraction and a division, each rounded
// once); a value that is none of the levels is 0 in all of them, as in
// rfkit. The signed log is sign(v)·ln(1 + |v|) (ONNX has no log1p): for a
// small |v| the sum 1 + |v| rounds, an absolute error below 2⁻⁵³, which
// is far below the float32 cosines' error.
func (b *builder) encoding(z string, e *graph.Encoding) string {
	E := int64(e.Inputs())
	src := make([]int64, E)
	isLog, isLevel := make([]bool, E), make([]bool, E)
	var logs, levels bool
	for q, j := range e.Src {
		src[q] = int64(j)
		isLog[q], isLevel[q] = e.Kind[q] == graph.EncLog, e.Kind[q] == graph.EncLevel
		logs, levels = logs || isLog[q], levels || isLevel[q]
	}
	v := b.opAttr("Gather", map[string]int64{"axis": 1}, nil, z, b.ints("src", src...)) // [N, E]
	zg := v
	if logs {
		l := b.op("Mul", b.op("Sign", zg), b.op("Log", b.op("Add", b.op("Abs", zg), b.scalar("one", 1))))
		v = b.op("Where", b.bools("islog", isLog), l, v)
	}
	if levels {
		eq := b.op("Equal", zg, b.constant("level", []int64{E}, e.Level))
		v = b.op("Where", b.bools("islevel", isLevel), b.opAttr("Cast", map[string]int64{"to": typeDouble}, nil, eq), v)
	}
	return b.op("Div", b.op("Sub", v, b.constant("encmean", []int64{E}, e.Mean)), b.constant("encscale", []int64{E}, e.Scale))
}

// features adds the [N, D] features of a block of the standardised z.
func (b *builder) features(z string, d int64, blk *graph.Block) (string, error) {
	D := int64(blk.D)
	switch blk.Act {
	case graph.Cosines:
		t := b.op("MatMul", z, b.constant("w", []int64{d, D}, blk.W))
		if blk.B != nil {
			t = b.op("Add", t, b.constant("phase", []int64{D}, blk.B))
		}
		c := b.cos(t)
		if blk.Scale != 1 {
			c = b.op("Mul", c, b.scalar("fscale", blk.Scale))
		}
		return c, nil
	case graph.Gaussian:
		// ‖z − l‖² = ‖z‖² + ‖l‖² − 2·z·l: memory N×D, not N×D×d
		lt, ll := make([]float64, blk.D*int(d)), make([]float64, blk.D)
		for j := range blk.D {
			for k := range int(d) {
				v := blk.W[j*int(d)+k]
				lt[k*blk.D+j] = v
				ll[j] += v * v
			}
		}
		zz := b.opAttr("ReduceSumSquare", map[string]int64{"keepdims": 1}, map[string][]int64{"axes": {1}}, z) // [N, 1]
		cross := b.op("MatMul", z, b.constant("landmarks", []int64{d, D}, lt))                                 // [N, D]
		sq := b.op("Sub", b.op("Add", zz, b.constant("norms", []int64{D}, ll)), b.op("Mul", cross, b.scalar("two", 2)))
		k := b.op("Exp", b.op("Mul", sq, b.scalar("neggamma", -blk.Gamma)))
		if blk.Proj != nil { // features Proj·k: k·Projᵀ
			pt := make([]float64, len(blk.Proj))
			for i := range blk.D {
				for j := range blk.D {
					pt[j*blk.D+i] = blk.Proj[i*blk.D+j]
				}
			}
			k = b.op("MatMul", k, b.constant("proj", []int64{D, D}, pt))
		}
		return k, nil
	case graph.Monomials:
		return b.monomials(z, blk), nil
	}
	return "", fmt.Errorf("unknown activation %d", blk.Act)
}

// monomials adds the features C_j·u_a·u_b (u = [1, z]), times the
// Gaussian factor exp(−Gamma·‖z‖²) where Gauss_j.
func (b *builder) monomials(z string, blk *graph.Block) string {
	D := int64(blk.D)
	ones := b.op("Add", b.op("Mul", b.opAttr("ReduceSumSquare", map[string]int64{"keepdims": 1}, map[string][]int64{"axes": {1}}, z), b.scalar("zero", 0)), b.scalar("one", 1))
	u := b.opAttr("Concat", map[string]int64{"axis": 1}, nil, ones, z) // [N, 1 + d]
	first, second := make([]int64, blk.D), make([]int64, blk.D)
	mask, unmask := make([]float64, blk.D), make([]float64, blk.D)
	for j := range blk.D {
		first[j], second[j] = int64(blk.I[2*j]), int64(blk.I[2*j+1])
		if blk.Gauss[j] {
			mask[j] = 1
		} else {
			unmask[j] = 1
		}
	}
	p := b.op("Mul", b.opAttr("Gather", map[string]int64{"axis": 1}, nil, u, b.ints("first", first...)),
		b.opAttr("Gather", map[string]int64{"axis": 1}, nil, u, b.ints("second", second...)))
	p = b.op("Mul", p, b.constant("factor", []int64{D}, blk.C))
	sq := b.opAttr("ReduceSumSquare", map[string]int64{"keepdims": 1}, map[string][]int64{"axes": {1}}, z)
	g := b.op("Exp", b.op("Mul", sq, b.scalar("neggamma", -blk.Gamma))) // [N, 1]
	// the factor: g where Gauss, else 1 (g·1 + 0 and g·0 + 1, exactly)
	f := b.op("Add", b.op("Mul", g, b.constant("mask", []int64{D}, mask)), b.constant("unmask", []int64{D}, unmask))
	return b.op("Mul", p, f)
}

// cos adds cos(t) computed in float32 on the angle reduced to [−π, π] in
// float64 (onnxruntime's Cos has no float64 kernel).
func (b *builder) cos(t string) string {
	q := b.op("Round", b.op("Mul", t, b.scalar("inv2pi", 1/(2*math.Pi))))
	r := b.op("Sub", t, b.op("Mul", q, b.scalar("twopi", 2*math.Pi)))
	c := b.opAttr("Cast", map[string]int64{"to": typeFloat}, nil, r)
	c = b.op("Cos", c)
	return b.opAttr("Cast", map[string]int64{"to": typeDouble}, nil, c)
}

func (b *builder) outputsFor(g *graph.Model, s string) error {
	if g.Task == graph.Regression {
		b.op("Identity", s)
		b.named(variableName)
		b.outputs = append(b.outputs, valueInfo{name: variableName, elem: typeDouble, dims: []int64{-1, 1}})
		return nil
	}
	temp := func(s string) string {
		if g.Link.Temp == 0 || g.Link.Temp == 1 {
			return s
		}
		return b.op("Mul", s, b.scalar("temp", g.Link.Temp))
	}
	if g.Task == graph.Multiclass {
		idx := b.opAttr("ArgMax", map[string]int64{"axis": 1, "keepdims": 0}, nil, s)
		b.op("Gather", b.constant("classes", []int64{int64(len(g.Classes))}, g.Classes), idx)
		b.named(labelName)
		if g.Link.Kind != graph.Softmax {
			return fmt.Errorf("a multiclass model with link %d", g.Link.Kind)
		}
		b.opAttr("Softmax", map[string]int64{"axis": 1}, nil, temp(s))
		b.named(probabilitiesName)
	} else {
		flat := b.op("Reshape", s, b.ints("flat", -1))
		ge := b.op("GreaterOrEqual", flat, b.scalar("zero", 0))
		b.op("Where", ge, b.scalar("pos", g.Classes[1]), b.scalar("neg", g.Classes[0]))
		b.named(labelName)
		var p string
		switch g.Link.Kind {
		case graph.Sigmoid:
			a := temp(s)
			if g.Link.Shift != 0 {
				a = b.op("Add", a, b.scalar("shift", g.Link.Shift))
			}
			p = b.op("Sigmoid", a)
		case graph.Clamped:
			p = b.op("Clip", b.op("Mul", b.op("Add", s, b.scalar("one", 1)), b.scalar("half", 0.5)), b.scalar("lo", 0), b.scalar("hi", 1))
		default:
			return fmt.Errorf("a binary model with link %d", g.Link.Kind)
		}
		q := b.op("Sub", b.scalar("one", 1), p)
		b.opAttr("Concat", map[string]int64{"axis": 1}, nil, q, p)
		b.named(probabilitiesName)
	}
	b.outputs = append(b.outputs,
		valueInfo{name: labelName, elem: typeDouble, dims: []int64{-1}},
		valueInfo{name: probabilitiesName, elem: typeDouble, dims: []int64{-1, int64(len(g.Classes))}})
	return nil
}

func (b *builder) encode(g *graph.Model) []byte {
	var gr pb.Message
	for i := range b.nodes {
		gr.Message(graphNode, b.nodes[i].encode(fmt.Sprintf("n%d", i)))
	}
	gr.String(graphName, "rfkit_"+g.Method)
	for i := range b.inits {
		gr.Message(graphInitializer, b.inits[i].encode())
	}
	gr.String(graphDocString, fmt.Sprintf("rfkit %s model (%s, %d inputs)", g.Method, g.Task, len(g.Mean)))
	doc := fmt.Sprintf("%d float64 columns", len(g.Mean))
	if len(g.Names) > 0 {
		doc = "columns: " + strings.Join(g.Names, ", ")
	}
	in := valueInfo{name: inputName, elem: typeDouble, dims: []int64{-1, int64(len(g.Mean))}, doc: doc}
	gr.Message(graphInput, in.encode())
	for i := range b.outputs {
		gr.Message(graphOutput, b.outputs[i].encode())
	}

	var m, opset pb.Message
	m.Int(modelIRVersion, irVersion)
	m.String(modelProducerName, "rfkit")
	m.String(modelProducerVer, "1")
	m.String(modelDocString, "exported by rfkit (learners/onnx)")
	m.Message(modelGraph, &gr)
	opset.String(opsetDomain, "")
	opset.Int(opsetVersion, opsetWritten)
	m.Message(modelOpsetImport, &opset)
	meta := [][2]string{{"rfkit_method", g.Method}, {"rfkit_task", string(g.Task)}}
	if len(g.Names) > 0 {
		names, _ := json.Marshal(g.Names)
		meta = append(meta, [2]string{"feature_names", string(names)})
	}
	for _, kv := range meta {
		var e pb.Message
		e.String(entryKey, kv[0])
		e.String(entryValue, kv[1])
		m.Message(modelMetadataProps, &e)
	}
	return m.Bytes()
}

func sortedKeys[V any](m map[string]V) []string {
	k := make([]string, 0, len(m))
	for s := range m {
		k = append(k, s)
	}
	slices.Sort(k)
	return k
}
