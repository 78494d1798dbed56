// Package linrf is the linear random-feature body that rks, eerf/lkrf
// (package rfselect) and prff share: a linear model on random Fourier
// features, score(z) = coef·φ(z) + bias, on standardised inputs z.
package linrf

import (
	"fmt"
	"math"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/solvers"
)

// Head is the fitted map and read-out. Its score goes through the fused
// epilogue featmap.RFF.CombineRow (the features are never stored), so every
// learner built on it predicts at the same speed and, its sums being in
// asm's canonical 8-lane order, to the same bits on every path.
type Head struct {
	RFF  *featmap.RFF
	Coef []float64 // len RFF.Outputs()
	Bias float64
}

// NewWork: CombineRow needs no scratch.
func (*Head) NewWork() any { return nil }

// Score is coef·φ(z) + bias.
func (h *Head) Score(z []float64, _ any) float64 { return h.RFF.CombineRow(z, h.Coef) + h.Bias }

// Encode adds the arrays "w" (d×D frequencies, row-major), "b" (D phases)
// and "coef" (D weights), and the meta value "bias". The frequencies are
// stored, never re-drawn from a seed.
func (h *Head) Encode(e *learners.Encoder) {
	w, b := h.RFF.Weights()
	e.Array("w", w)
	e.Array("b", b)
	e.Array("coef", h.Coef)
	e.Meta("bias", h.Bias)
}

// Decode reads what Encode wrote for a map of d.Inputs → D features.
func (h *Head) Decode(d *learners.Decoder, D int) error {
	if D <= 0 || d.Inputs > math.MaxInt/D {
		return fmt.Errorf("%d inputs × %d features overflow", d.Inputs, D)
	}
	w, b, coef, bias := d.Array("w", d.Inputs*D), d.Array("b", D), d.Array("coef", D), d.Meta("bias")
	if err := d.Err(); err != nil {
		return err
	}
	rff, err := featmap.NewRFFFromWeights(w, b, d.Inputs, D, false)
	if err != nil {
		return err
	}
	h.RFF, h.Coef, h.Bias = rff, coef, bias
	return nil
}

// Solve fits the read-out on the n×D feature matrix z (row-major) and the
// targets t: L2-regularised logistic regression on ±1 labels when logistic
// is set, else ridge regression, both with an unpenalised intercept
// (package solvers). It returns the weights, the intercept and the
// training objective for the progress report.
func Solve(z []float64, n, D int, t []float64, logistic bool, lambda float64) (coef []float64, bias, loss float64, err error) {
	if logistic {
		var info solvers.Result
		coef, bias, err = solvers.Logistic(z, n, D, t, lambda, solvers.LogisticOptions{Info: &info})
		return coef, bias, info.F, err
	}
	coef, bias, err = solvers.Ridge(z, n, D, t, lambda, solvers.RidgeOptions{})
	if err != nil {
		return nil, 0, 0, err
	}
	return coef, bias, ridgeObjective(z, t, coef, bias, lambda), nil
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

const (
	// Logistic is L2-regularised logistic regression,
	// (1/n) Σ log(1 + exp(−y_i(w·z_i + c))) + (λ/2)‖w‖² (Binary only).
	Logistic Loss = "logistic"
	// Ridge is ridge regression, (1/n) Σ (y_i − w·z_i − c)² + λ‖w‖², on the
	// targets (Regression) or on the ±1 labels (Binary).
	Ridge Loss = "ridge"
)

// CheckLoss is the Loss part of a Config's Validate: "" (the default),
// Ridge, or Logistic with the binary task. pkg prefixes the error.
func CheckLoss(pkg string, loss Loss, task learners.Task) error {
	switch loss {
	case "", Ridge:
	case Logistic:
		if task != learners.Binary {
			return fmt.Errorf("%s: Loss = logistic needs the binary task, not %v", pkg, task)
		}
	default:
		return fmt.Errorf("%s: unknown Loss %q, want %q or %q", pkg, loss, Logistic, Ridge)
	}
	return nil
}

// Resolve returns loss with its default for task: Logistic for Binary,
// Ridge for Regression.
func Resolve(loss Loss, task learners.Task) Loss {
	switch {
	case loss != "":
		return loss
	case task == learners.Regression:
		return Ridge
	}
	return Logistic
}

// Link is the Probability rule of the loss: the logistic function for
// Logistic, (1 + score)/2 clamped to [0, 1] for ridge on ±1 labels.
func Link(loss Loss) learners.Link {
	if loss == Logistic {
		return learners.Logistic
	}
	return learners.Clamped
}
