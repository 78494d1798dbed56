package synth

import (
	"math"
	"testing"
)

// generator is one entry of the table every generic test runs over.
type generator struct {
	name string
	d    int
	task string
	gen  func(n int, seed uint64) (*Set, error)
}

// allGenerators lists every generator with fixed extra arguments.
func allGenerators() []generator {
	toy := func(f func(int, float64, uint64) (*Set, error)) func(int, uint64) (*Set, error) {
		return func(n int, seed uint64) (*Set, error) { return f(n, 0.1, seed) }
	}
	return []generator{
		{"moons", 2, taskBinary, toy(Moons)},
		{"spirals", 2, taskBinary, toy(Spirals)},
		{"circles", 2, taskBinary, toy(Circles)},
		{"checkerboard", 2, taskBinary, toy(Checkerboard)},
		{"se1", se1Dim, taskRegression, se1},
		{"se2", se2Dim, taskRegression, se2},
		{"se3", se3Dim, taskRegression, se3Gen},
		{"se3text", se3Dim, taskRegression, se3Text},
		{"gaussian", 7, taskUnsupervised, func(n int, seed uint64) (*Set, error) { return Gaussian(n, 7, seed) }},
	}
}

// mustGen calls gen and fails the test on error.
func mustGen(t *testing.T, gen func(int, uint64) (*Set, error), n int, seed uint64) *Set {
	t.Helper()
	s, err := gen(n, seed)
	if err != nil {
		t.Fatalf("generator(%d, %d): %v", n, seed, err)
	}
	return s
}

// meanSD returns the mean and (population) standard deviation of v.
func meanSD(v []float64) (mean, sd float64) {
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	for _, x := range v {
		sd += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(sd / float64(len(v)))
}

// sameBits reports whether a and b are equal bit for bit.
func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}
