package synth

import (
	"math"
	"slices"
	"testing"
)

// TestSETargets checks se1 and se2 against the paper's formulas: the
// residual y − f(x) must be the stated N(0, 0.1²) noise.
func TestSETargets(t *testing.T) {
	for _, c := range []struct {
		name string
		gen  func(int, uint64) (*Set, error)
		f    func(x []float64) float64
		sd   float64
	}{
		{"se1", se1, func(x []float64) float64 {
			a := x[0] + x[2]
			return math.Sin(a*a) * math.Sin(x[6]*x[7]*x[8])
		}, se1Noise},
		{"se2", se2, func(x []float64) float64 {
			s := x[0] + x[1] + x[2] + x[3] + x[4]
			return math.Log(s * s)
		}, se2Noise},
	} {
		s := mustGen(t, c.gen, 20000, 23)
		res := make([]float64, s.N)
		for i := range res {
			res[i] = s.Y[i] - c.f(s.Row(i))
		}
		mean, sd := meanSD(res)
		if math.Abs(mean) > 0.005 || math.Abs(sd-c.sd) > 0.05*c.sd {
			t.Errorf("%s: residual mean %.4f sd %.4f, want 0 and %v", c.name, mean, sd, c.sd)
		}
	}
}

// TestSE3Structure checks se3Gen's latent copies and that its target is a
// function of the copies of z₁ and z₃ (se3Text: z₁ and z₂) only.
func TestSE3Structure(t *testing.T) {
	se3, se3t := mustGen(t, se3Gen, 4000, 29), mustGen(t, se3Text, 4000, 29)
	if !sameBits(se3.X, se3t.X) {
		t.Fatal("se3Gen and se3Text differ in X for the same seed")
	}
	// Copies of one latent differ by N(0, 2·0.1²); of two latents by N(0, 2.02).
	within, across := make([]float64, se3.N), make([]float64, se3.N)
	for i := range se3.N {
		x := se3.Row(i)
		within[i], across[i] = x[997]-x[995], x[5]-x[4]
	}
	if _, sd := meanSD(within); math.Abs(sd-math.Sqrt(0.02)) > 0.01 {
		t.Errorf("copies of one latent: difference sd %.4f, want %.4f", sd, math.Sqrt(0.02))
	}
	if _, sd := meanSD(across); math.Abs(sd-math.Sqrt(2.02)) > 0.1 {
		t.Errorf("copies of different latents: difference sd %.4f, want %.4f", sd, math.Sqrt(2.02))
	}
	// Estimate a latent by the mean of its 5 copies and evaluate the formula.
	latent := func(x []float64, k int) float64 {
		var s float64
		for _, v := range x[se3Copies*k : se3Copies*(k+1)] {
			s += v
		}
		return s / se3Copies
	}
	residualSD := func(s *Set, k1, k2 int) float64 {
		res := make([]float64, s.N)
		for i := range res {
			a, b := latent(s.Row(i), k1), latent(s.Row(i), k2)
			q := a*a + b*b
			res[i] = s.Y[i] - 10*q*math.Exp(-2*q)
		}
		_, sd := meanSD(res)
		return sd
	}
	for _, c := range []struct {
		s        *Set
		right    int // 0-based index of the second latent
		wrong    int
		relevant []int
	}{{se3, 2, 1, relevantSE3()}, {se3t, 1, 2, relevantSE3Text()}} {
		if sd := residualSD(c.s, 0, c.right); sd > 0.15 {
			t.Errorf("%s: residual sd with latents 0, %d is %.3f, want < 0.15", c.s.Name, c.right, sd)
		}
		if sd := residualSD(c.s, 0, c.wrong); sd < 0.5 {
			t.Errorf("%s: residual sd with latents 0, %d is %.3f, want > 0.5", c.s.Name, c.wrong, sd)
		}
		want := []int{0, 1, 2, 3, 4}
		for j := se3Copies * c.right; j < se3Copies*(c.right+1); j++ {
			want = append(want, j)
		}
		if !slices.Equal(c.s.Relevant, want) {
			t.Errorf("%s: Relevant %v, want %v", c.s.Name, c.s.Relevant, want)
		}
	}
}

// TestSEMeanPredictorRMSE compares the target spread with the paper's
// mean-predictor RMSE (Tables 2–6), which is the standard deviation of y.
func TestSEMeanPredictorRMSE(t *testing.T) {
	for _, c := range []struct {
		gen   func(int, uint64) (*Set, error)
		n     int
		paper float64
	}{{se1, 20000, 0.287}, {se2, 20000, 2.216}, {se3Gen, 5000, 0.676}} {
		s := mustGen(t, c.gen, c.n, 31)
		if _, sd := meanSD(s.Y); math.Abs(sd-c.paper) > 0.04*c.paper {
			t.Errorf("%s: sd(y) = %.3f, paper's mean-predictor RMSE %.3f", s.Name, sd, c.paper)
		}
	}
}

func TestRelevantAreCopies(t *testing.T) {
	for _, f := range []func() []int{relevantSE1, relevantSE2, relevantSE3, relevantSE3Text} {
		a := f()
		a[0] = -99
		if f()[0] == -99 {
			t.Error("a Relevant* function returns shared storage")
		}
	}
	if got := relevantSE1(); !slices.Equal(got, []int{0, 2, 6, 7, 8}) {
		t.Errorf("relevantSE1() = %v", got)
	}
}
