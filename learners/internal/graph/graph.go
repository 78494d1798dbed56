// Package graph describes a fitted model's scoring as a small dataflow
// graph that an exporter (package learners/onnx) writes in another format:
//
//	z      = (x − mean)/scale, a NaN input replaced by 0
//	z      = the encoded inputs of z, when the model has an Encoding:
//	         (e(z) − Encoding.Mean)/Encoding.Scale, e one-hot columns,
//	         signed logs or copies of inputs of z
//	φ_b    = the features of block b: Scale·cos(z·W + B) (Cosines),
//	         exp(−γ‖z − l_i‖²) over landmarks l_i (Gaussian), or products
//	         of at most two inputs, some times exp(−γ‖z‖²) (Monomials)
//	scores = Σ_b φ_b·R_b + Bias          (K columns; K = 1 unless multiclass)
//	output = the label (sign rule or argmax), the probabilities (the Link) or
//	         the value (regression)
//
// A learner's body describes its part, the blocks, the read-out and
// optionally its own Link, with a Graph method (Grapher); package learners
// adds the standardisation, the task and the labels it holds for every
// model (Model), and Of returns that whole description for a model.
package graph

import (
	"errors"
	"fmt"
	"slices"
)

// Act is what a Block computes from the affine map of z.
type Act int

const (
	// Cosines: Scale·cos(z·W + B), W d×D row-major (W[k·D + j] is input
	// k's weight in feature j), B the D phases (nil: all 0).
	Cosines Act = iota
	// Gaussian: the D kernel values k_j = exp(−Gamma·‖z − l_j‖²) of the
	// landmarks l_j, W D×d row-major (landmark j is W[j·d : (j+1)·d]),
	// then, when Proj (D×D row-major) is set, the features Proj·k (the
	// Nyström map); B and Scale unused.
	Gaussian
	// Monomials: feature j is C[j]·u_{I[2j]}·u_{I[2j+1]}, times the
	// Gaussian factor exp(−Gamma·‖z‖²) when Gauss[j], where u = [1, z]
	// (u_0 = 1, u_{k+1} = z_k): the Taylor features of the Gaussian
	// kernel of degree ≤ 2 and the linear features (mfga); W, B, Scale and
	// Proj unused.
	Monomials
)

// EncKind is how an encoded input is made from an input of z.
type EncKind int

const (
	// EncCopy: the input itself.
	EncCopy EncKind = iota
	// EncLog: the signed log sign(v)·ln(1 + |v|) of the input v.
	EncLog
	// EncLevel: 1 when the input equals Level exactly, else 0 (an input
	// that is none of the levels gives 0 in every one of its columns).
	EncLevel
)

// Encoding maps the standardised row z (d inputs) to the E encoded inputs
// the blocks read: encoded input q is made from z[Src[q]] by Kind[q], then
// standardised, (v − Mean[q])/Scale[q]. Every slice has length E.
type Encoding struct {
	Src         []int
	Kind        []EncKind
	Level       []float64 // EncLevel: the level, a standardised value
	Mean, Scale []float64
}

// Inputs is the number E of encoded inputs.
func (e *Encoding) Inputs() int { return len(e.Src) }

// check reports an encoding that does not fit d inputs.
func (e *Encoding) check(d int) error {
	E := len(e.Src)
	switch {
	case E == 0:
		return errors.New("graph: an encoding of no inputs")
	case len(e.Kind) != E || len(e.Level) != E || len(e.Mean) != E || len(e.Scale) != E:
		return fmt.Errorf("graph: an encoding of %d inputs with %d kinds, %d levels, %d means, %d scales", E, len(e.Kind), len(e.Level), len(e.Mean), len(e.Scale))
	}
	for q := range E {
		switch {
		case e.Src[q] < 0 || e.Src[q] >= d:
			return fmt.Errorf("graph: encoded input %d reads input %d of %d", q, e.Src[q], d)
		case e.Kind[q] < EncCopy || e.Kind[q] > EncLevel:
			return fmt.Errorf("graph: encoded input %d: unknown kind %d", q, e.Kind[q])
		}
	}
	return nil
}

// Block is one group of D features of the standardised row z (the encoded
// one when the model has an Encoding).
type Block struct {
	Act   Act
	D     int       // features
	W     []float64 // see Act
	B     []float64 // Cosines: phases, len D or nil
	Scale float64   // Cosines: the factor on every feature
	Gamma float64   // Gaussian: the bandwidth
	Proj  []float64 // Gaussian: the projection, D×D, or nil
	I     []int     // Monomials: two indices into u per feature
	C     []float64 // Monomials: the constant factor of each feature
	Gauss []bool    // Monomials: whether a feature has the Gaussian factor
	// R is the read-out, D×K row-major: R[j·K + k] is feature j's
	// weight in score k.
	R []float64
}

// LinkKind names how the scores become probabilities.
type LinkKind int

const (
	// Default: the model's own rule, which package learners fills in:
	// the binary Link of the model (Logistic, HalfLogOdds, Clamped; a
	// model without one gets the clamped (1 + s)/2 Probabilities gives),
	// the softmax for a multiclass model, none for regression.
	Default LinkKind = iota
	// Sigmoid: p = 1/(1 + e^{−(Temp·s + Shift)}) for the positive class
	// (Platt scaling; a temperature alone when Shift is 0).
	Sigmoid
	// Clamped: p = (1 + s)/2 clamped to [0, 1] for the positive class.
	Clamped
	// Softmax: p_k = softmax(Temp·s)_k over the K scores.
	Softmax
	// None: no probabilities (regression).
	None
)

// Link turns the scores into probabilities.
type Link struct {
	Kind LinkKind
	// Temp multiplies the scores first (Sigmoid, Softmax); 0 means 1.
	Temp float64
	// Shift is added after Temp (Sigmoid).
	Shift float64
}

// Graph is a body's part of the description.
type Graph struct {
	// Encoding, when not nil, maps z to the encoded inputs the blocks
	// read (their W has Encoding.Inputs() rows, not d).
	Encoding *Encoding
	Blocks   []Block
	Bias     []float64 // K
	// Link is the body's own link (Default: the model's, see LinkKind),
	// e.g. a calibration temperature.
	Link Link
}

// Grapher is implemented by the body of a model that can be exported:
// Graph describes its scores as a function of the standardised row, or
// says why it cannot (an error naming the reason).
type Grapher interface {
	Graph() (*Graph, error)
}

// Task names the model's task as the model file spells it.
type Task string

// The tasks.
const (
	Binary     Task = "binary"
	Multiclass Task = "multiclass"
	Regression Task = "regression"
)

// Model is the whole description of a model's scoring.
type Model struct {
	Method      string // the learner, e.g. "rks"
	Task        Task
	Classes     []float64 // binary [neg, pos]; multiclass the K labels; nil for regression
	Names       []string  // feature names, or nil
	Mean, Scale []float64 // standardisation
	Graph
}

// K is the number of scores: the classes of a multiclass model, else 1.
func (m *Model) K() int {
	if m.Task == Multiclass {
		return len(m.Classes)
	}
	return 1
}

// Check reports a description whose shapes do not agree, so that an
// exporter never writes a graph a runtime would reject.
func (m *Model) Check() error {
	d, K := len(m.Mean), m.K()
	switch {
	case d == 0 || len(m.Scale) != d:
		return fmt.Errorf("graph: %d means and %d scales", d, len(m.Scale))
	case len(m.Blocks) == 0:
		return errors.New("graph: no feature blocks")
	case len(m.Bias) != K:
		return fmt.Errorf("graph: %d biases for %d scores", len(m.Bias), K)
	case m.Task == Binary && len(m.Classes) != 2, m.Task == Multiclass && len(m.Classes) < 3:
		return fmt.Errorf("graph: a %s model with %d classes", m.Task, len(m.Classes))
	}
	if m.Encoding != nil {
		if err := m.Encoding.check(d); err != nil {
			return err
		}
		d = m.Encoding.Inputs()
	}
	for i, b := range m.Blocks {
		switch {
		case b.D <= 0:
			return fmt.Errorf("graph: block %d has %d features", i, b.D)
		case b.Act != Monomials && len(b.W) != d*b.D:
			return fmt.Errorf("graph: block %d: %d weights for %d inputs × %d features", i, len(b.W), d, b.D)
		case b.Act == Monomials && (len(b.I) != 2*b.D || len(b.C) != b.D || len(b.Gauss) != b.D):
			return fmt.Errorf("graph: block %d: %d indices, %d factors, %d flags for %d monomials", i, len(b.I), len(b.C), len(b.Gauss), b.D)
		case b.Act == Monomials && slices.ContainsFunc(b.I, func(k int) bool { return k < 0 || k > d }):
			return fmt.Errorf("graph: block %d: a monomial index outside 0..%d", i, d)
		case b.Proj != nil && (b.Act != Gaussian || len(b.Proj) != b.D*b.D):
			return fmt.Errorf("graph: block %d: a projection of %d values for %d features", i, len(b.Proj), b.D)
		case b.Act == Cosines && b.B != nil && len(b.B) != b.D:
			return fmt.Errorf("graph: block %d: %d phases for %d features", i, len(b.B), b.D)
		case len(b.R) != b.D*K:
			return fmt.Errorf("graph: block %d: read-out of %d values for %d features × %d scores", i, len(b.R), b.D, K)
		case b.Act != Cosines && b.Act != Gaussian && b.Act != Monomials:
			return fmt.Errorf("graph: block %d: unknown activation %d", i, b.Act)
		}
	}
	return nil
}

// source is set by package learners: it describes a learner's model.
var source func(m any) (*Model, error)

// SetSource installs the function Of calls; package learners does it.
func SetSource(f func(m any) (*Model, error)) { source = f }

// Of returns the description of the model m (a learner's model), or an
// error saying why it has none.
func Of(m any) (*Model, error) {
	if source == nil {
		return nil, errors.New("graph: package learners is not linked in")
	}
	g, err := source(m)
	if err != nil {
		return nil, err
	}
	if err := g.Check(); err != nil {
		return nil, err
	}
	return g, nil
}
