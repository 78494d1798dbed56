package kernel_test

import (
	"math"
	"testing"

	"github.com/rfkit/rfkit/dataset/synth"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
	"github.com/rfkit/rfkit/learners/kernel"
)

// TestHingeKKT: the SMO solution satisfies the dual constraints
// (0 ≤ α_i ≤ C, Σ t_i α_i = 0) and, within the stopping tolerance, the
// optimality conditions of the SVM: t_i f(x_i) ≥ 1 off the support
// vectors, = 1 on the free ones, ≤ 1 at the bound C. Measured worst
// violation 5.6e-4 (tolerance 2e-3, twice libsvm's ε); both kinds of
// support vectors occur.
func TestHingeKKT(t *testing.T) {
	X, y := learnertest.Rings(200, 1, 0, 1, 9)
	for _, C := range []float64{0.5, 10} {
		m := learnertest.MustFit(t, kernel.Fit, X, y, kernel.Config{Loss: kernel.Hinge, C: C})
		f := learnertest.Parsed(t, m)
		// The model keeps the support vectors only: find each one's row
		// (the nearest standardised row) to rebuild α for every row.
		sv, _ := f.Array("alpha", -1)
		support, _ := f.Array("support", -1)
		mean, scale := m.Standardization()
		d := X.Cols
		alpha := make([]float64, X.Rows)
		for k, a := range sv {
			best, at := math.Inf(1), -1
			for i := range X.Rows {
				var q float64
				for j, v := range X.Row(i) {
					e := (v-mean[j])/scale[j] - support[k*d+j]
					q += e * e
				}
				if q < best {
					best, at = q, i
				}
			}
			if best > 1e-20 || alpha[at] != 0 {
				t.Fatalf("support vector %d matches no row (distance² %v to row %d)", k, best, at)
			}
			alpha[at] = a
		}
		var sum, worst float64
		var free, bound int
		for i, a := range alpha {
			ti := 2*y[i] - 1
			ai := ti * a // α_i
			sum += a
			if ai < 0 || ai > C {
				t.Fatalf("C %v: α_%d = %v outside [0, C]", C, i, ai)
			}
			margin := ti * m.Score(X.Row(i))
			var v float64
			switch {
			case ai == 0:
				v = 1 - margin
			case ai == C:
				v = margin - 1
				bound++
			default:
				v = math.Abs(margin - 1)
				free++
			}
			worst = max(worst, v)
		}
		if math.Abs(sum) > 1e-9*C*float64(len(alpha)) {
			t.Errorf("C %v: Σ t_i α_i = %v", C, sum)
		}
		if worst > 2e-3 {
			t.Errorf("C %v: worst KKT violation %v", C, worst)
		}
		if free == 0 || (C == 0.5 && bound == 0) || free+bound != len(sv) {
			t.Errorf("C %v: %d free and %d bounded support vectors: the check proves little", C, free, bound)
		}
		t.Logf("C %v: worst violation %.2g, %d free, %d at C", C, worst, free, bound)
	}
}

// TestHingeErrors: the settings the hinge loss refuses.
func TestHingeErrors(t *testing.T) {
	X, y := learnertest.Rings(20, 0, 0, 1, 1)
	learnertest.FitErrors(t, "kernel: ", kernel.Fit, []learnertest.FitCase[kernel.Config]{
		{Name: "negative C", X: X, Y: y, Cfg: kernel.Config{Loss: kernel.Hinge, C: -1}, Want: "kernel: C = -1"},
		{Name: "NaN C", X: X, Y: y, Cfg: kernel.Config{Loss: kernel.Hinge, C: math.NaN()}, Want: "kernel: C = NaN"},
		{Name: "Inf C", X: X, Y: y, Cfg: kernel.Config{Loss: kernel.Hinge, C: math.Inf(1)}, Want: "C = +Inf"},
		{Name: "C without hinge", X: X, Y: y, Cfg: kernel.Config{C: 2}, Want: "C = 2 applies to Loss = hinge only"},
		{Name: "hinge regression", X: X, Y: y, Cfg: kernel.Config{Loss: kernel.Hinge, Task: learners.Regression}, Want: "Loss = hinge needs the binary task"},
		{Name: "one-class subsample", X: X, Y: y, Cfg: kernel.Config{Loss: kernel.Hinge, Subsample: 1}, Want: "holds one class only"},
	})
}

// TestHingeGolden: the SVM model serialises to testdata/hinge.model on
// every path and architecture (-update rewrites it).
func TestHingeGolden(t *testing.T) {
	moons := learnertest.Must(synth.Moons(300, 0.1, 5))
	m := learnertest.MustFit(t, kernel.Fit, featmap.Dense(moons.N, moons.D, moons.X), moons.Y, kernel.Config{Subsample: 60, Loss: kernel.Hinge, C: 3, Seed: 6})
	got := learnertest.Bytes(t, m)
	learnertest.Golden(t, "hinge", got)
}

// TestHingeLoadErrors: a hinge model's number of support vectors must fit
// its arrays and its subsample.
func TestHingeLoadErrors(t *testing.T) {
	X, y := learnertest.Rings(30, 0, 0, 1, 3)
	good := learnertest.Bytes(t, learnertest.MustFit(t, kernel.Fit, X, y, kernel.Config{Subsample: 10, Loss: kernel.Hinge}))
	vectors := func(v float64) []byte {
		return learnertest.Rewrite(t, good, func(f *modelfile.File) { f.Header.Meta["vectors"] = v })
	}
	learnertest.LoadErrors(t, "kernel: ", kernel.Load, []learnertest.LoadCase{
		{Name: "no vectors", Data: learnertest.Rewrite(t, good, func(f *modelfile.File) { delete(f.Header.Meta, "vectors") }), Want: `no meta value "vectors"`},
		{Name: "zero vectors", Data: vectors(0), Want: "vectors = 0 support vectors"},
		{Name: "fractional vectors", Data: vectors(2.5), Want: "vectors = 2.5 support vectors"},
		{Name: "too many vectors", Data: vectors(11), Want: "want an integer in [1, 10]"},
		{Name: "hinge without C", Data: learnertest.Rewrite(t, good, func(f *modelfile.File) {
			f.Header.Config = []byte(`{"Subsample":10,"Gamma":1,"Lambda":1,"Loss":"hinge"}`)
		}), Want: "unresolved defaults"},
	})
}
