package synth

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/rfkit/rfkit/dataset"
)

// The values of [Set].Task.
const (
	taskBinary       = "binary"
	taskRegression   = "regression"
	taskUnsupervised = "unsupervised"
)

// maxValues bounds N*D for every generator, so that a mistyped size gives
// an error instead of an out-of-memory crash (2^30 values are 8 GiB).
const maxValues = 1 << 30

// errInvalidArgument is wrapped by every error a generator returns for a
// bad argument (n <= 0, negative or non-finite noise, d <= 0, too large).
var errInvalidArgument = errors.New("invalid argument")

// errUnknownName is wrapped by the error [ByName] returns for a name it
// does not know.
var errUnknownName = errors.New("unknown data set")

// Set is one generated data set.
//
// X holds N samples of D inputs row-major: sample i is X[i*D : (i+1)*D].
// Task is "binary" (Y holds labels exactly -1 and +1), "regression" (Y
// holds real-valued targets) or "unsupervised" (Y is nil). Relevant lists
// the 0-based input indices the target depends on (nil when there is no
// target); Name is the [ByName] name of the generator.
type Set struct {
	X        []float64
	Y        []float64
	N, D     int
	Task     string
	Name     string
	Relevant []int
}

// Row returns the inputs of sample i as a subslice of X (not a copy; its
// capacity is capped at D). It panics if i is out of range.
func (s *Set) Row(i int) []float64 {
	if i < 0 || i >= s.N {
		panic(fmt.Sprintf("synth: Row(%d) out of range [0, %d)", i, s.N))
	}
	return s.X[i*s.D : (i+1)*s.D : (i+1)*s.D]
}

// Dataset returns the set as a [dataset.Dataset] sharing X and Y (no
// copy), with LabelName "y" when there are targets.
func (s *Set) Dataset() *dataset.Dataset {
	ds := &dataset.Dataset{X: s.X, N: s.N, D: s.D, Y: s.Y}
	if s.Y != nil {
		ds.LabelName = "y"
	}
	return ds
}

// newSet allocates a set of n rows of d inputs.
func newSet(name, task string, n, d int, relevant []int) *Set {
	s := &Set{X: make([]float64, n*d), N: n, D: d, Task: task, Name: name, Relevant: relevant}
	if task != taskUnsupervised {
		s.Y = make([]float64, n)
	}
	return s
}

// checkSize validates the sample count n and input dimension d.
func checkSize(name string, n, d int) error {
	if n <= 0 {
		return fmt.Errorf("synth: %s: n = %d, must be > 0: %w", name, n, errInvalidArgument)
	}
	if d <= 0 {
		return fmt.Errorf("synth: %s: d = %d, must be > 0: %w", name, d, errInvalidArgument)
	}
	if n > maxValues/d {
		return fmt.Errorf("synth: %s: n*d = %d*%d exceeds %d values: %w", name, n, d, maxValues, errInvalidArgument)
	}
	return nil
}

// checkNoise validates a noise standard deviation.
func checkNoise(name string, noise float64) error {
	if !(noise >= 0) || math.IsInf(noise, 1) {
		return fmt.Errorf("synth: %s: noise = %v, must be finite and >= 0: %w", name, noise, errInvalidArgument)
	}
	return nil
}

// pcgStream is the fixed PCG stream constant; each generator XORs in its
// own tag so that equal seeds give unrelated streams across generators.
const pcgStream = 0x9e3779b97f4a7c15

// Stream tags, one per generator. Changing one changes that generator's
// output for every seed.
const (
	tagMoons uint64 = iota + 1
	tagSpirals
	tagCircles
	tagCheckerboard
	tagSE1
	tagSE2
	tagSE3
	tagGaussian
)

// newRand returns the generator's private PCG source for seed.
func newRand(seed, tag uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, pcgStream^tag))
}

// fillBalanced sets ceil(len(y)/2) entries of y to +1 and the others to
// -1, in a uniformly random order drawn from r.
func fillBalanced(r *rand.Rand, y []float64) {
	for i := range y {
		y[i] = -1
		if i < (len(y)+1)/2 {
			y[i] = 1
		}
	}
	r.Shuffle(len(y), func(i, j int) { y[i], y[j] = y[j], y[i] })
}
