package synth

import (
	"errors"
	"math"
	"slices"
	"testing"
)

func TestShapesAndMetadata(t *testing.T) {
	for _, g := range allGenerators() {
		for _, n := range []int{1, 2, 3, 57} {
			s := mustGen(t, g.gen, n, 1)
			if s.N != n || s.D != g.d || len(s.X) != n*g.d {
				t.Errorf("%s n=%d: N=%d D=%d len(X)=%d, want %d, %d, %d", g.name, n, s.N, s.D, len(s.X), n, g.d, n*g.d)
			}
			if s.Task != g.task || s.Name != g.name {
				t.Errorf("%s: Task %q Name %q, want %q %q", g.name, s.Task, s.Name, g.task, g.name)
			}
			if g.task == taskUnsupervised {
				if s.Y != nil || s.Relevant != nil {
					t.Errorf("%s: Y or Relevant not nil", g.name)
				}
			} else if len(s.Y) != n || len(s.Relevant) == 0 {
				t.Errorf("%s: len(Y)=%d, len(Relevant)=%d", g.name, len(s.Y), len(s.Relevant))
			}
			for _, j := range s.Relevant {
				if j < 0 || j >= s.D {
					t.Errorf("%s: relevant index %d outside [0, %d)", g.name, j, s.D)
				}
			}
			if err := s.Dataset().Validate(); err != nil {
				t.Errorf("%s: Dataset().Validate: %v", g.name, err)
			}
			if row := s.Row(n - 1); len(row) != g.d || cap(row) != g.d || &row[0] != &s.X[(n-1)*g.d] {
				t.Errorf("%s: Row(n-1) is not the last row", g.name)
			}
		}
	}
}

func TestDeterministicAndSeedsDiffer(t *testing.T) {
	for _, g := range allGenerators() {
		a, b := mustGen(t, g.gen, 100, 42), mustGen(t, g.gen, 100, 42)
		if !sameBits(a.X, b.X) || !sameBits(a.Y, b.Y) {
			t.Errorf("%s: two calls with seed 42 differ", g.name)
		}
		c := mustGen(t, g.gen, 100, 43)
		if slices.Equal(a.X, c.X) {
			t.Errorf("%s: seeds 42 and 43 give the same X", g.name)
		}
		if g.task == taskRegression && slices.Equal(a.Y, c.Y) {
			t.Errorf("%s: seeds 42 and 43 give the same Y", g.name)
		}
	}
}

func TestFinite(t *testing.T) {
	for _, g := range allGenerators() {
		s := mustGen(t, g.gen, 2000, 7)
		for k, v := range append(slices.Clone(s.X), s.Y...) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("%s: value %d is %v", g.name, k, v)
			}
		}
	}
}

func TestLabelsAndBalance(t *testing.T) {
	for _, g := range allGenerators() {
		if g.task != taskBinary {
			continue
		}
		for _, n := range []int{1, 2, 5, 999, 10000} {
			s := mustGen(t, g.gen, n, uint64(n))
			pos := 0
			for i, y := range s.Y {
				if y != 1 && y != -1 {
					t.Fatalf("%s: Y[%d] = %v, want ±1", g.name, i, y)
				}
				if y == 1 {
					pos++
				}
			}
			diff := 2*pos - n
			tol := 1 // exactly balanced generators
			if g.name == "checkerboard" {
				tol = 4 * int(math.Sqrt(float64(n))+1) // 4 binomial sds
			}
			if diff < -tol || diff > tol {
				t.Errorf("%s n=%d: %d positives, imbalance %d > %d", g.name, n, pos, diff, tol)
			}
		}
	}
}

// TestNoiseSharesCleanPoints checks that noise only adds a N(0, noise²)
// perturbation to the same clean points and labels.
func TestNoiseSharesCleanPoints(t *testing.T) {
	toys := map[string]func(int, float64, uint64) (*Set, error){
		"moons": Moons, "spirals": Spirals, "circles": Circles, "checkerboard": Checkerboard,
	}
	const n, noise = 20000, 0.3
	for name, f := range toys {
		clean, err := f(n, 0, 5)
		if err != nil {
			t.Fatal(err)
		}
		noisy, err := f(n, noise, 5)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(clean.Y, noisy.Y) {
			t.Errorf("%s: labels change with the noise level", name)
		}
		delta := make([]float64, len(clean.X))
		for k := range delta {
			delta[k] = noisy.X[k] - clean.X[k]
		}
		mean, sd := meanSD(delta)
		if math.Abs(mean) > 0.01 || math.Abs(sd-noise) > 0.01 {
			t.Errorf("%s: perturbation mean %.4f sd %.4f, want 0 and %v", name, mean, sd, noise)
		}
	}
}

func TestPrefix(t *testing.T) {
	for _, g := range allGenerators() {
		if g.task == taskBinary {
			continue // the toys shuffle their labels, so no prefix property
		}
		small, large := mustGen(t, g.gen, 10, 3), mustGen(t, g.gen, 25, 3)
		if !sameBits(small.X, large.X[:len(small.X)]) || !sameBits(small.Y, large.Y[:len(small.Y)]) {
			t.Errorf("%s: n=10 is not a prefix of n=25", g.name)
		}
	}
}

func TestBadArguments(t *testing.T) {
	toys := []func(int, float64, uint64) (*Set, error){Moons, Spirals, Circles, Checkerboard}
	for _, f := range toys {
		for _, c := range []struct {
			n     int
			noise float64
		}{{0, 0.1}, {-3, 0.1}, {10, -0.1}, {10, math.NaN()}, {10, math.Inf(1)}, {10, math.Inf(-1)}, {maxValues, 0}, {math.MaxInt, 0}} {
			if s, err := f(c.n, c.noise, 1); err == nil || s != nil || !errors.Is(err, errInvalidArgument) {
				t.Errorf("n=%d noise=%v: got (%v, %v), want an errInvalidArgument error", c.n, c.noise, s, err)
			}
		}
	}
	for _, f := range []func(int, uint64) (*Set, error){se1, se2, se3Gen, se3Text} {
		for _, n := range []int{0, -1, math.MaxInt, maxValues} {
			if s, err := f(n, 1); err == nil || s != nil || !errors.Is(err, errInvalidArgument) {
				t.Errorf("n=%d: got (%v, %v), want an errInvalidArgument error", n, s, err)
			}
		}
	}
	for _, c := range [][2]int{{0, 3}, {3, 0}, {-1, 3}, {3, -1}, {math.MaxInt, 2}, {2, math.MaxInt}} {
		if s, err := Gaussian(c[0], c[1], 1); err == nil || s != nil || !errors.Is(err, errInvalidArgument) {
			t.Errorf("Gaussian(%d, %d): got (%v, %v), want an errInvalidArgument error", c[0], c[1], s, err)
		}
	}
}
