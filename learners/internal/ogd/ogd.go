// Package ogd holds what the online gradient descent learners fogd and
// nogd share (Lu, Hoi, Wang, Zhao and Liu, "Large scale online kernel
// learning", JMLR 2016): the loss type, its validation and default, and
// the loss and step of one online update.
package ogd

import (
	"math"

	"github.com/rfkit/rfkit/learners"
)

// Loss selects the update rule.
type Loss string

// The losses: Hinge for classification, Squared and EpsInsensitive for
// regression.
const (
	Hinge          Loss = "hinge"
	Squared        Loss = "squared"
	EpsInsensitive Loss = "eps"
)

const (
	// Epsilon is the half-width of the ε-insensitive loss.
	Epsilon = 0.1
	// MaxGrad bounds the squared-loss residual used in a step.
	MaxGrad = 1e6
)

// CheckLoss records in v an unknown loss or one that does not fit task:
// Hinge needs a classification task, Squared and EpsInsensitive
// regression; "" (the default) fits every task.
func CheckLoss(v *learners.Check, loss Loss, task learners.Task) {
	switch loss {
	case "":
	case Hinge:
		v.If(!task.Classifies(), "Loss = hinge needs the binary task (or multiclass), not %v", task)
	case Squared, EpsInsensitive:
		v.If(task != learners.Regression, "Loss = %s needs the regression task, not %v", loss, task)
	default:
		v.Fail("unknown Loss %q, want hinge, squared or eps", loss)
	}
}

// Resolve returns loss with its default for task: Hinge for
// classification, Squared for Regression.
func Resolve(loss Loss, task learners.Task) Loss {
	return learners.ByTask(loss, task, Hinge, Squared)
}

// Grad returns the loss of score f on target t and g with the step
// w ← w − η·g·z: hinge (t = ±1), squared (the residual clipped to
// ±MaxGrad in g) or ε-insensitive.
func Grad(loss Loss, f, t float64) (l, g float64) {
	switch loss {
	case Hinge:
		if m := float64(t * f); m < 1 {
			return 1 - m, -t
		}
		return 0, 0
	case EpsInsensitive:
		r := f - t
		if math.Abs(r) > Epsilon {
			return math.Abs(r) - Epsilon, math.Copysign(1, r)
		}
		return 0, 0
	}
	r := f - t
	return float64(r*r) / 2, max(-MaxGrad, min(MaxGrad, r))
}
