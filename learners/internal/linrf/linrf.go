// Package linrf is the linear random-feature body that rks, eerf/lkrf
// (package rfselect) and prff share: a linear model on random Fourier
// features, score(z) = coef·φ(z) + bias, on standardised inputs z.
package linrf

import (
	"errors"
	"fmt"
	"math"

	"github.com/rfkit/rfkit/learners/internal/kit"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/limit"
	"github.com/rfkit/rfkit/internal/solvers"
	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/par"
	"github.com/rfkit/rfkit/learners/internal/vec"
)

// Head is the fitted map and read-out. Its score goes through the fused
// epilogue featmap.RFF.CombineRow (the features are never stored), so every
// learner built on it predicts at the same speed and, its sums being in
// asm's canonical 8-lane order, to the same bits on every path.
//
// A multiclass head (Biases not nil) holds one read-out per class: Coef
// is K×D row-major and Biases the K intercepts; its class scores are
// coef_k·φ(z) + bias_k (Scores: the features once, then K dot products
// rounded term by term, the same bits everywhere), the multinomial
// logistic regression of FitReadout.
type Head struct {
	RFF  *featmap.RFF
	Coef []float64 // len RFF.Outputs() (K×D for a multiclass head)
	Bias float64
	// Biases are the K intercepts of a multiclass head, nil otherwise.
	Biases []float64
}

// NewWork: CombineRow needs no scratch; a multiclass head needs the D
// features of a row and, for Score, the K class scores.
func (h *Head) NewWork() any {
	if h.Biases == nil {
		return nil
	}
	return make([]float64, h.RFF.Outputs()+len(h.Biases))
}

// Score is coef·φ(z) + bias; for a multiclass head, the margin of the best
// class over the runner-up (what kit.Base's Score returns).
func (h *Head) Score(z []float64, w any) float64 {
	if h.Biases == nil {
		return h.RFF.CombineRow(z, h.Coef) + h.Bias
	}
	s := w.([]float64)[h.RFF.Outputs():]
	h.Scores(s, z, w)
	return vec.Margin(s)
}

// Scores writes the K class scores coef_k·φ(z) + bias_k of a multiclass
// head into dst (kit.MultiScorer).
func (h *Head) Scores(dst, z []float64, w any) {
	D := h.RFF.Outputs()
	f := w.([]float64)[:D]
	h.RFF.TransformRow(f, z)
	for k, b := range h.Biases {
		dst[k] = xmath.DotRound(h.Coef[k*D:(k+1)*D], f) + b
	}
}

// Version is the newest model file version of the learners on a Head
// (their Spec's Version).
//
// Version 1 arrays: "mean", "scale" (d each: the input standardisation),
// then the Head's (Encode): "w", "b", "coef"; meta "bias".
//
// Version 2 (multiclass models; binary and regression ones are still
// written as version 1, FileVersion): "coef" holds K×D weights,
// class-major, and the array "biases" the K intercepts instead of the meta
// "bias"; the header task is "multiclass" and its labels the K classes. A
// model fitted with Missing = impute has the header field "impute" (any
// version).
const Version = 2

// FileVersion is the model version the learners on this head write: 1
// for a binary or regression head (the bytes of the builds before
// multiclass), 2 for a multiclass one.
func (h *Head) FileVersion() int {
	if h.Biases != nil {
		return 2
	}
	return 1
}

// Encode adds the arrays "w" (d×D frequencies, row-major), "b" (D phases)
// and "coef" (D weights), and the meta value "bias"; for a multiclass head
// "coef" holds K×D weights (class-major) and the array "biases" the K
// intercepts instead of "bias". The frequencies are stored, never
// re-drawn from a seed. It never fails (the error is kit.Body's).
func (h *Head) Encode(e *kit.Encoder) error {
	w, b := h.RFF.Weights()
	e.Array("w", w)
	e.Array("b", b)
	e.Array("coef", h.Coef)
	if h.Biases != nil {
		e.Array("biases", h.Biases)
		return nil
	}
	e.Meta("bias", h.Bias)
	return nil
}

// DecodeFor is Decode for a model whose resolved config has task and
// loss: the task must be the header's, and the Decoder's Link becomes
// loss's (Link).
func (h *Head) DecodeFor(d *kit.Decoder, task learners.Task, loss Loss, D int) error {
	if task != d.Task {
		return fmt.Errorf("config task %v, header task %v", task, d.Task)
	}
	d.Link = Link(loss)
	return h.Decode(d, D)
}

// Decode reads what Encode wrote for a map of d.Inputs → D features (K×D
// weights and K intercepts when the model is multiclass, from version 2).
func (h *Head) Decode(d *kit.Decoder, D int) error {
	K := len(d.Classes)
	if D <= 0 || d.Inputs > math.MaxInt/D || K > math.MaxInt/D {
		return fmt.Errorf("%d inputs × %d features overflow", d.Inputs, D)
	}
	if K > 0 && d.Version < 2 {
		return fmt.Errorf("a multiclass model of version %d (multiclass models are version 2)", d.Version)
	}
	w, b := d.Array("w", d.Inputs*D), d.Array("b", D)
	var coef, biases []float64
	var bias float64
	if K > 0 {
		coef, biases = d.Array("coef", K*D), d.Array("biases", K)
	} else {
		coef, bias = d.Array("coef", D), d.Meta("bias")
	}
	if err := d.Err(); err != nil {
		return err
	}
	rff, err := featmap.NewRFFFromWeights(w, b, d.Inputs, D, false)
	if err != nil {
		return err
	}
	h.RFF, h.Coef, h.Bias, h.Biases = rff, coef, bias, biases
	return nil
}

// ridgeObjective is (1/n)‖t − Zw − c‖² + λ‖w‖², Z n×len(w) row-major.
func ridgeObjective(z, t, w []float64, c, lambda float64) float64 {
	D := len(w)
	var sse, ww float64
	for i, ti := range t {
		r := ti - xmath.Dot(w, z[i*D:(i+1)*D]) - c
		sse += float64(r * r)
	}
	for _, v := range w {
		ww += float64(v * v)
	}
	return sse/float64(len(t)) + float64(lambda*ww)
}

// Loss selects the linear read-out the linear learners fit (rks.Loss,
// rfselect.Loss and prff.Loss are this type).
type Loss string

// ParamHelp is the command-line help of a Config's Loss field
// (learners.Params).
func (Loss) ParamHelp() (doc, def string) {
	return "linear model: logistic (binary, multinomial for multiclass) or ridge (binary, regression)", "logistic (binary), ridge (regression)"
}

const (
	// Logistic is L2-regularised logistic regression,
	// (1/n) Σ log(1 + exp(−y_i(w·z_i + c))) + (λ/2)‖w‖² (Binary only).
	Logistic Loss = "logistic"
	// Ridge is ridge regression, (1/n) Σ (y_i − w·z_i − c)² + λ‖w‖², on the
	// targets (Regression) or on the ±1 labels (Binary).
	Ridge Loss = "ridge"
)

// CheckLoss is the Loss part of a Config's Validate: "" (the default),
// Ridge (binary or regression), or Logistic with a classification task
// (multinomial for Multiclass); its error is recorded in v.
func CheckLoss(v *kit.Check, loss Loss, task learners.Task) {
	switch loss {
	case "":
	case Ridge:
		v.If(task == learners.Multiclass, "Loss = ridge: the multiclass task fits multinomial logistic regression (Loss = logistic or \"\")")
	case Logistic:
		v.If(!(task == learners.Binary || task == learners.Multiclass), "Loss = logistic needs the binary task (or multiclass), not %v", task)
	default:
		v.Fail("unknown Loss %q, want %q or %q", loss, Logistic, Ridge)
	}
}

// DefaultLambda is the default L2 penalty λ of the linear read-out.
const DefaultLambda = 1e-3

// CheckConfig records in v the errors of the Config fields the linear
// random-feature learners (rks, rfselect, prff) share: the read-out's
// penalty lambda, the task (any of the three), the missing-value policy
// and the loss for the task. It returns v.Err().
func CheckConfig(v *kit.Check, lambda float64, loss Loss, task learners.Task, missing learners.Missing) error {
	return CheckConfigDefault(v, lambda, DefaultLambda, loss, task, missing)
}

// CheckConfigDefault is CheckConfig for a learner whose default λ is def
// instead of DefaultLambda (the error for a bad λ names it).
func CheckConfigDefault(v *kit.Check, lambda, def float64, loss Loss, task learners.Task, missing learners.Missing) error {
	v.Positive("Lambda", lambda, limit.Param, def)
	v.TaskIn(task, learners.Binary, learners.Multiclass, learners.Regression)
	v.Missing(missing)
	CheckLoss(v, loss, task)
	return v.Err()
}

// ResolveConfig fills in the defaults of the shared fields: λ and the
// loss of the task.
func ResolveConfig(lambda *float64, loss *Loss, task learners.Task) {
	kit.SetDefault(lambda, DefaultLambda)
	*loss = Resolve(*loss, task)
}

// Resolve returns loss with its default for task: Logistic for Binary and
// Multiclass, Ridge for Regression.
func Resolve(loss Loss, task learners.Task) Loss {
	return kit.ByTask(loss, task, Logistic, Ridge)
}

// Link is the Probability rule of the loss: the logistic function for
// Logistic, (1 + score)/2 clamped to [0, 1] for ridge on ±1 labels.
func Link(loss Loss) learners.Link {
	if loss == Logistic {
		return kit.Logistic
	}
	return kit.Clamped
}

// Map is a feature map of standardised rows: the Head's *featmap.RFF
// (drawn, selected or learned), or rks's *featmap.Nystrom.
type Map interface {
	Outputs() int
	Transform(dst, X featmap.Matrix) error
}

// Features returns the p.N×D features (row-major, D = m.Outputs()) of the
// prepared, standardised rows p through m, on up to threads goroutines
// (Transform); its error is prefixed with name.
func Features(name string, p *kit.Prepared, m Map, threads learners.Threads) ([]float64, error) {
	D := m.Outputs()
	z := make([]float64, p.N*D)
	if err := Transform(m, featmap.Dense(p.N, D, z), featmap.Dense(p.N, p.D, p.Z), threads); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return z, nil
}

// transformRows is the number of rows of one task of Transform: featmap
// keeps a Transform of at most this many rows on the calling goroutine
// (its own chunk), so the limit of Transform is not exceeded.
const transformRows = 256

// Transform is m.Transform(dst, X) on up to threads goroutines (0:
// GOMAXPROCS): fixed blocks of transformRows rows, each transformed on its
// own. Rows are independent, so the features are the same bits for any
// threads.
func Transform(m Map, dst, X featmap.Matrix, threads learners.Threads) error {
	if X.Check() != nil || dst.Check() != nil || dst.Rows != X.Rows || X.Rows <= transformRows || par.Workers(int(threads), 2) == 1 {
		return m.Transform(dst, X)
	}
	blocks := (X.Rows + transformRows - 1) / transformRows
	errs := make([]error, blocks)
	par.Each(int(threads), blocks, false, par.None, nil, func(b int, _ struct{}) {
		lo, hi := b*transformRows, min(X.Rows, (b+1)*transformRows)
		errs[b] = m.Transform(rowsOf(dst, lo, hi), rowsOf(X, lo, hi))
	})
	return errors.Join(errs...)
}

// rowsOf is the view of rows lo..hi−1 of X.
func rowsOf(X featmap.Matrix, lo, hi int) featmap.Matrix {
	return featmap.Matrix{Rows: hi - lo, Cols: X.Cols, Stride: X.Stride, Data: X.Data[lo*X.Stride:]}
}

// LogisticSolver fits a binary logistic read-out on the n×D features z
// with ±1 targets t, row weights w (nil: none) and penalty λ, as
// solvers.Logistic does; it returns the weights, the intercept and the
// objective.
type LogisticSolver func(z []float64, n, D int, t, w []float64, lambda float64) (coef []float64, bias, obj float64, err error)

// FitReadout fits the head's read-out on the p.N×D feature matrix z of
// the prepared rows p, with penalty λ and an unpenalised intercept
// (package solvers): multinomial logistic regression for a Multiclass
// task (p.Classes set; the head becomes multiclass), else logistic
// regression on the ±1 targets (logistic, when it is not nil, instead of
// solvers.Logistic) or ridge regression, as loss says. With sample
// weights (p.Weights) every loss is the weighted mean. It returns the
// training objective (NaN for weighted ridge); a solver's error is
// wrapped as "name: loss solver: …".
func (h *Head) FitReadout(name string, z []float64, p *kit.Prepared, loss Loss, lambda float64, logistic LogisticSolver) (obj float64, err error) {
	n, D, t, w := p.N, len(z)/p.N, p.Targets, p.Weights
	var info solvers.Result
	lo := solvers.LogisticOptions{Info: &info}
	obj = math.NaN()
	switch {
	case p.Classes != nil:
		h.Coef, h.Biases, err = solvers.Multinomial(z, n, D, t, len(p.Classes), lambda, solvers.MultinomialOptions{Weights: w, Info: &info})
		obj = info.F
	case loss == Logistic && logistic != nil:
		h.Coef, h.Bias, obj, err = logistic(z, n, D, t, w, lambda)
	case loss == Logistic && w == nil:
		h.Coef, h.Bias, err = solvers.Logistic(z, n, D, t, lambda, lo)
		obj = info.F
	case loss == Logistic:
		h.Coef, h.Bias, err = solvers.LogisticWeighted(z, n, D, t, w, lambda, lo)
		obj = info.F
	case w == nil:
		h.Coef, h.Bias, err = solvers.Ridge(z, n, D, t, lambda, solvers.RidgeOptions{})
		if err == nil {
			obj = ridgeObjective(z, t, h.Coef, h.Bias, lambda)
		}
	default:
		h.Coef, h.Bias, err = solvers.RidgeWeighted(z, n, D, t, w, lambda)
	}
	if err != nil {
		return 0, fmt.Errorf("%s: %s solver: %w", name, loss, err)
	}
	return obj, nil
}

// Subset returns the map made of the features idx of rff (in that order,
// repeats allowed), rescaled to √(2/len(idx)): eerf's and lkrf's
// selections, prff's prefixes.
func Subset(rff *featmap.RFF, idx []int) (*featmap.RFF, error) {
	w, b := rff.Weights()
	d, D, M := rff.Inputs(), rff.Outputs(), len(idx)
	ws, bs := make([]float64, d*M), make([]float64, M)
	for t, j := range idx {
		bs[t] = b[j]
		for k := range d {
			ws[k*M+t] = w[k*D+j]
		}
	}
	return featmap.NewRFFFromWeights(ws, bs, d, M, false)
}
