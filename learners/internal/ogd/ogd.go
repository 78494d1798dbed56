// Package ogd holds what the online gradient descent learners fogd and
// nogd share (Lu, Hoi, Wang, Zhao and Liu, "Large scale online kernel
// learning", JMLR 2016): the loss type, its validation and default, the
// checks and defaults of the Config fields they share, the loss and step
// of one online update, and the averaged weights of a model file.
package ogd

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/rfkit/rfkit/internal/limit"
	"github.com/rfkit/rfkit/learners/internal/kit"

	"github.com/rfkit/rfkit/learners"
)

// The defaults fogd and nogd share.
const (
	DefaultEta    = 0.2
	DefaultEpochs = 1
)

// CheckConfig records in v the errors of the Config fields fogd and nogd
// share: the kernel width gamma, the step eta, the epochs, the loss for
// the task and the two toggles.
func CheckConfig(v *kit.Check, gamma, eta float64, epochs int, loss Loss, task learners.Task, shuffle, standardize learners.Toggle) {
	v.Positive("Gamma", gamma, limit.Param, "1/d")
	v.Positive("Eta", eta, limit.Param, DefaultEta)
	v.Count("Epochs", epochs, limit.Count, DefaultEpochs)
	v.Toggles("Shuffle, Standardize", shuffle, standardize)
	CheckLoss(v, loss, task)
}

// ResolveConfig fills in the defaults of the shared fields for rows of d
// inputs: γ = 1/d, η, the epochs, the loss of the task and, for a binary
// task, the labels −1 and +1.
func ResolveConfig(d int, gamma, eta *float64, epochs *int, loss *Loss, labels *learners.Labels, task learners.Task) {
	kit.SetDefault(gamma, 1/float64(d))
	kit.SetDefault(eta, DefaultEta)
	kit.SetDefault(epochs, DefaultEpochs)
	*loss = Resolve(*loss, task)
	if task == learners.Binary {
		kit.SetDefault(labels, learners.Labels{Neg: -1, Pos: 1})
	}
}

// Spec is the kit.Spec of a body read from a file of the given
// version (0 for a new model: latest), so that old files re-save to their
// own bytes.
func Spec(name string, version, latest int) kit.Spec {
	if version == 0 {
		version = latest
	}
	return kit.Spec{Name: name, Methods: []string{name}, Version: version}
}

// MaxSteps bounds a stored step count: integers are exact in a float64
// up to 2⁵³.
const MaxSteps = 1 << 53

// Averaged returns the weights a model predicts with: Σ_t w_t / T (wsum
// over steps), or the current weights wt before the first step.
func Averaged(wt, wsum []float64, steps int) []float64 {
	w := slices.Clone(wt)
	if steps > 0 {
		for k, v := range wsum {
			w[k] = v / float64(steps)
		}
	}
	return w
}

// CheckState checks the learner state of a model file: the step count
// (an integer in [0, min(2⁵³, MaxInt)]) and the averaged weights w (the
// array called name), which must be what Averaged computes from the
// current weights wt and their sum wsum, or the model would predict with
// other weights than a resumed learner averages. It returns the count.
func CheckState(name string, w, wt, wsum []float64, steps float64) (int, error) {
	if !(steps >= 0 && steps <= MaxSteps && steps <= math.MaxInt) || steps != math.Trunc(steps) {
		return 0, fmt.Errorf("steps = %v, want an integer in [0, min(2^53, MaxInt)]", steps)
	}
	for k, want := range Averaged(wt, wsum, int(steps)) {
		if w[k] != want {
			return 0, fmt.Errorf("%s[%d] = %v, but the stored state gives %v", name, k, w[k], want)
		}
	}
	return int(steps), nil
}

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
func CheckLoss(v *kit.Check, loss Loss, task learners.Task) {
	switch loss {
	case "":
	case Hinge:
		v.If(!(task == learners.Binary || task == learners.Multiclass), "Loss = hinge needs the binary task (or multiclass), not %v", task)
	case Squared, EpsInsensitive:
		v.If(task != learners.Regression, "Loss = %s needs the regression task, not %v", loss, task)
	default:
		v.Fail("unknown Loss %q, want hinge, squared or eps", loss)
	}
}

// Resolve returns loss with its default for task: Hinge for
// classification, Squared for Regression.
func Resolve(loss Loss, task learners.Task) Loss {
	return kit.ByTask(loss, task, Hinge, Squared)
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

// CheckResumable is the error of resuming a model without a learner state
// (hasState false: file version 1, which holds only the averaged
// weights), nil for one with a state.
func CheckResumable(name string, hasState bool, version int) error {
	if hasState {
		return nil
	}
	return fmt.Errorf("%s: Resume: a version %d model holds only the averaged weights, not the learner's state (current weights, sum, step count); retrain it with this build", name, version)
}

// WriteState adds a learner's state to a model file (version 2 on): the
// arrays "wt" (the current weights) and "wsum" (their running sum) and
// the header scalar "steps".
func WriteState(e *kit.Encoder, wt, wsum []float64, steps int) {
	e.Array("wt", wt)
	e.Array("wsum", wsum)
	e.Meta("steps", float64(steps))
}

// ReadState reads what WriteState wrote, n weights each, from a file of
// version 2 or later (nothing from an older one), and checks it against
// the averaged weights w, the array called name (CheckState). w must have
// been read without error.
func ReadState(d *kit.Decoder, name string, w []float64, n int) (wt, wsum []float64, steps int, err error) {
	if d.Version < 2 {
		return nil, nil, 0, nil
	}
	wt, wsum, s := d.Array("wt", n), d.Array("wsum", n), d.Meta("steps")
	if err := d.Err(); err != nil {
		return nil, nil, 0, err
	}
	steps, err = CheckState(name, w, wt, wsum, s)
	return wt, wsum, steps, err
}

// HeldOutEpochs is the number of epochs of a fit on m of the n training
// rows (m < n: a held-out fit of kit.SearchFit) whose scores a probability
// calibration is fitted on (calibrated), chosen so that it takes as many
// steps as the fit on every row: epochs (0 → DefaultEpochs) times n/m,
// rounded (twice them on a held-out half), at most limit.Count.
// An unregularised online learner's scores grow with its step count (each
// step that misses the margin adds η·z to the weights, and nothing shrinks
// them), so a fit of one pass over half the rows scores about half as far
// from 0 as the fit on every row, and a calibration slope fitted on its
// held-out scores makes the final model's probabilities over-confident
// wherever the margin is not reached in one pass. For m ≥ n, when no
// calibration is fitted, or when epochs is out of range (negative or above
// limit.Count, which the fit's Validate then refuses, naming it), it
// is epochs.
func HeldOutEpochs(epochs, m, n int, calibrated bool) int {
	if m >= n || m <= 0 || !calibrated || epochs < 0 || epochs > limit.Count {
		return epochs
	}
	e := cmp.Or(epochs, DefaultEpochs)
	return min(int(math.Round(float64(e)*float64(n)/float64(m))), limit.Count)
}
