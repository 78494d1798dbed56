package prff

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestGradient checks eval's exact gradient (w and b) against central
// finite differences of its loss, for the first feature and for a later one
// (frozen features in the residual), with and without the penalty, with
// and without row weights.
func TestGradient(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n, d := 40, 5
	xs := normalSlice(r, n*d)
	rows := make([]int, 30)
	for i := range rows {
		rows[i] = i + 5
	}
	var freqs [][]float64
	var phases []float64
	for j := 0; j < 4; j++ {
		f := make([]float64, d)
		for k := range f {
			f[k] = 0.6 * r.NormFloat64()
		}
		freqs = append(freqs, f)
		phases = append(phases, 2*math.Pi*r.Float64())
	}
	wt := make([]float64, n)
	for i := range wt {
		wt[i] = 0.1 + 3*r.Float64()
	}
	for _, c := range []struct {
		J      int
		lambda float64
		wt     []float64
	}{{0, 0, nil}, {0, 0.05, nil}, {4, 0, nil}, {4, 0.05, nil}, {0, 0, wt}, {4, 0.05, wt}} {
		J, lambda := c.J, c.lambda
		{
			var p problem
			p.setup(xs, c.wt, d, rows, freqs[:J], phases[:J], Config{Gamma: 0.2, FreqLambda: lambda})
			w := make([]float64, d)
			for k := range w {
				w[k] = 0.6 * r.NormFloat64()
			}
			b := 2 * math.Pi * r.Float64()
			g := make([]float64, d)
			_, gb := p.eval(w, b, g)
			const h = 1e-6
			fd := func(dw []float64, db float64) float64 {
				wp, wm := slices.Clone(w), slices.Clone(w)
				for k := range wp {
					wp[k] += h * dw[k]
					wm[k] -= h * dw[k]
				}
				lp, _ := p.eval(wp, b+h*db, nil)
				lm, _ := p.eval(wm, b-h*db, nil)
				return (lp - lm) / (2 * h)
			}
			for k := 0; k <= d; k++ {
				dw, db, got := make([]float64, d), 0.0, gb
				if k < d {
					dw[k], got = 1, g[k]
				} else {
					db = 1
				}
				want := fd(dw, db)
				if math.Abs(got-want) > 1e-6*math.Max(1e-3, math.Abs(want)) {
					t.Errorf("J=%d λ=%g weighted=%v coordinate %d: gradient %.10g, finite difference %.10g", J, lambda, c.wt != nil, k, got, want)
				}
			}
		}
	}
}

// TestLossMatchesDefinition recomputes the Gram loss from its definition,
// without and with row weights (the pair (i, l) weighs w_i·w_l, the mean
// over Σ_il w_i·w_l).
func TestLossMatchesDefinition(t *testing.T) {
	for _, weighted := range []bool{false, true} {
		lossMatchesDefinition(t, weighted)
	}
}

func lossMatchesDefinition(t *testing.T, weighted bool) {
	r := rand.New(rand.NewPCG(3, 4))
	n, d := 12, 3
	xs := normalSlice(r, n*d)
	rows := []int{0, 2, 3, 5, 7, 8, 11}
	freqs := [][]float64{{0.3, -0.2, 0.5}, {-0.4, 0.1, 0.2}}
	phases := []float64{1, 4}
	gamma, lambda := 0.3, 0.01
	var wt []float64
	wof := func(int) float64 { return 1 }
	if weighted {
		wt = make([]float64, n)
		for i := range wt {
			wt[i] = float64(1+i%3) / 2
		}
		wof = func(i int) float64 { return wt[i] }
	}
	var p problem
	p.setup(xs, wt, d, rows, freqs, phases, Config{Gamma: gamma, FreqLambda: lambda})
	w, b := []float64{0.2, 0.7, -0.1}, 2.5
	got, _ := p.eval(w, b, nil)
	all := append(slices.Clone(freqs), w)
	ph := append(slices.Clone(phases), b)
	M := float64(len(all))
	var want, wsum float64
	for _, i := range rows {
		wsum += wof(i)
		for _, l := range rows {
			xi, xl := xs[i*d:(i+1)*d], xs[l*d:(l+1)*d]
			var dist float64
			for k := range xi {
				dist += (xi[k] - xl[k]) * (xi[k] - xl[k])
			}
			approx := 0.0
			for j, f := range all {
				var ti, tl float64
				for k := range f {
					ti += f[k] * xi[k]
					tl += f[k] * xl[k]
				}
				approx += 2 / M * math.Cos(ti+ph[j]) * math.Cos(tl+ph[j])
			}
			e := math.Exp(-gamma*dist) - approx
			want += wof(i) * wof(l) * e * e
		}
	}
	want = want/(wsum*wsum) + lambda*(w[0]*w[0]+w[1]*w[1]+w[2]*w[2])
	if math.Abs(got-want) > 1e-12 {
		t.Errorf("weighted=%v: loss %.15g, definition %.15g", weighted, got, want)
	}
}

// TestBandwidth: the 5th percentile with numpy's linear interpolation.
func TestBandwidth(t *testing.T) {
	// 21 points on a line at 0, 1, ..., 20: 210 distances; 5th percentile
	// at position 0.05·209 = 10.45 of the sorted distances, which are
	// twenty 1s, then nineteen 2s: both entries 10 and 11 are 1.
	xs := make([]float64, 21)
	idx := make([]int, 21)
	for i := range xs {
		xs[i], idx[i] = float64(i), i
	}
	if s, err := bandwidth(xs, nil, 1, idx); err != nil || s != 1 {
		t.Errorf("σ = %v, %v; want 1", s, err)
	}
	// 3 points at 0, 1, 3: distances 1, 2, 3; position 0.1 → 1.1.
	if s, err := bandwidth([]float64{0, 1, 3}, nil, 1, []int{0, 1, 2}); err != nil || math.Abs(s-1.1) > 1e-15 {
		t.Errorf("σ = %v, %v; want 1.1", s, err)
	}
	if _, err := bandwidth([]float64{2, 2, 2}, nil, 1, []int{0, 1, 2}); err == nil {
		t.Error("σ = 0 accepted")
	}
}

// TestNormals: the Box–Muller stream has mean 0 and variance 1.
func TestNormals(t *testing.T) {
	g := newNormals(rand.New(rand.NewPCG(5, 6)))
	const n = 200000
	var s, s2 float64
	for i := 0; i < n; i++ {
		v := g.next()
		s += v
		s2 += v * v
	}
	if mean, v := s/n, s2/n-(s/n)*(s/n); math.Abs(mean) > 0.01 || math.Abs(v-1) > 0.02 {
		t.Errorf("mean %v, variance %v", mean, v)
	}
}

// TestDescentMonotone: the kept loss never exceeds the initial one and the
// descent improves a random start.
func TestDescentMonotone(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	n, d := 64, 4
	xs := normalSlice(r, n*d)
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	for _, phase := range []bool{false, true} {
		c := Config{Gamma: 0.1, Alpha: 1e3, FreqLambda: 1e-3, MaxIter: 200, Tol: 1e-5, LearnPhase: phase}
		var p problem
		p.setup(xs, nil, d, rows, nil, nil, c)
		w := []float64{0.5, -0.3, 0.2, 0.1}
		l0, _ := p.eval(w, 1, nil)
		w2, b2, l := p.descend(slices.Clone(w), 1, c)
		if check, _ := p.eval(w2, b2, nil); check != l || !(l < l0) {
			t.Errorf("LearnPhase=%v: loss %v → %v (recomputed %v)", phase, l0, l, check)
		}
		if !phase && b2 != 1 {
			t.Errorf("phase moved to %v without LearnPhase", b2)
		}
	}
}

// TestWeightedBandwidth: unit weights give the unweighted rule's σ, integer
// weights that of the rows repeated, and weights that leave no pair at a
// positive distance are errors.
func TestWeightedBandwidth(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	n, d := 30, 2
	xs := normalSlice(r, n*d)
	idx := make([]int, n)
	ones, wt := make([]float64, n), make([]float64, n)
	var rep []float64
	for i := range idx {
		idx[i], ones[i], wt[i] = i, 1, float64(1+i%3)
		for k := 0; k < int(wt[i]); k++ {
			rep = append(rep, xs[i*d:(i+1)*d]...)
		}
	}
	s0, err0 := bandwidth(xs, nil, d, idx)
	s1, err1 := bandwidth(xs, ones, d, idx)
	if err0 != nil || err1 != nil || math.Abs(s0-s1) > 1e-15*s0 {
		t.Errorf("unit weights: σ %v (%v), unweighted %v (%v)", s1, err1, s0, err0)
	}
	ridx := make([]int, len(rep)/d)
	for i := range ridx {
		ridx[i] = i
	}
	sw, errw := bandwidth(xs, wt, d, idx)
	sr, errr := bandwidth(rep, nil, d, ridx)
	if errw != nil || errr != nil || math.Abs(sw-sr) > 1e-15*sr || sw == s0 {
		t.Errorf("weights 1..3: σ %v (%v), repeated rows %v (%v), unweighted %v", sw, errw, sr, errr, s0)
	}
	if _, err := bandwidth(xs, []float64{40}, d, []int{0}); err == nil {
		t.Error("one row of weight 40: no error")
	}
	if _, err := bandwidth(xs, []float64{0.5}, d, []int{0}); err == nil {
		t.Error("one row of weight 0.5: no error")
	}
}

// normalSlice returns n standard normal draws of r (rand.NormFloat64).
func normalSlice(r *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = r.NormFloat64()
	}
	return v
}
