package srff

import (
	"fmt"
	"math"
	"slices"
)

// accelerated runs the alternation of one fit at λ from γ0 as FISTA
// (Beck and Teboulle 2009) on the reduced objective
//
//	F(γ) = min_a J(a, γ) = J(a*(γ), γ)
//
// over the simplex of size s, and returns a*(γ) and γ, the last accepted
// iterate, with the exact value F(γ). It is the path of GammaIterations = 1
// (one γ-step per a-step).
//
// The plain alternation (a-step at γ_k, then one projected-gradient step
// from γ_k on J(a*(γ_k), ·)) is projected gradient descent on F: by the
// envelope theorem ∇F(γ) = ∂J/∂γ at a*(γ), and J(a*(γ_k), ·) ≥ F is the
// majorant the backtracking tests. It converges linearly, slowly on the
// small λ of a path (hundreds of alternations). Here the a-step is taken at
// the extrapolated point y_k = x_k + ((t_{k−1} − 1)/t_k)(x_k − x_{k−1}) of
// the accepted iterates x, the projected-gradient step (proxStep, L
// carried from one step to the next and starting at half of it) goes from
// y_k with a*(y_k), and z = P(y_k − ∇F(y_k)/L) becomes x_{k+1} if
// J(a*(y_k), z), an upper bound of F(z), is not above the bound of x_k
// (monotone FISTA). The momentum restarts (t = 1, y = x: O'Donoghue and
// Candès 2015) when the step was not accepted or when it turned against
// the momentum, (y_k − z)ᵀ(z − x_k) > 0; then y_{k+1} = z, whose features
// the trial left in ev, and the a-step there costs no affine pass. On the
// SE sets it needs a fraction of the alternations of the plain scheme
// (SE3 at n = 1000, λ = 2·10⁻³: 167 instead of 699).
//
// Cost per step. The affine passes (phases θ = b + x·(γ⊙ε),
// n·da·D multiply-adds, da the inputs with γ_k ≠ 0) and the gradient's
// product (n·d·D) are the whole cost where d is large: on SE3 (d = 1000)
// the simplex keeps 550–980 inputs, so a step costs about ten times one of
// SE2 (d = 100, 50–70 inputs) per row. The features at y cost no
// affine pass: θ is linear in γ, so the phases at y are
// θ(y) = θ(x) + β(θ(x) − θ(x_{k−1})) from those of x and x_{k−1}, kept
// from their trials (savePhases, featuresFrom), up to rounding, at n·D
// operations; where y = x after a rejected trial, the kept θ(x) gives x's
// features with the bits of a fresh pass. (Halving L only after a step
// whose first trial passed saved a further rejected trial in every other
// step, but on SE3 at n = 5000 it led the small λ to worse local optima:
// J = 0.047 instead of 0.012 at λ = 2.5·10⁻⁴, and a test RMSE of 0.201
// instead of 0.179; not kept.)
//
// Stopping: the rule of the authors' code on the upper bounds f_k of the
// accepted iterates (non-increasing; the exact F where y = x): when the
// last four decreases sum to less than Tol·|f|, or after MaxIterations
// steps. Where the last y is not the returned x, one more a-step at x
// gives the returned a.
func (p *path) accelerated(ev *evaluator, lambda float64, gamma0 []float64) (a, gamma []float64, loss float64, err error) {
	c := p.cfg
	d, s := len(gamma0), c.Simplex
	buf := make([]float64, 6*d)
	x, xPrev, y, z, v, gy := buf[:d], buf[d:2*d], buf[2*d:3*d], buf[3*d:4*d], buf[4*d:5*d], buf[5*d:]
	copy(x, gamma0)
	copy(y, x)
	a = make([]float64, c.Features) // a*(y)
	fy, err := ev.aStep(a, y, lambda)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("srff: ridge at λ = %g: %w", lambda, err)
	}
	// The phases of x and of the x before it, from which those of the
	// extrapolated y follow (featuresFrom).
	thX, thP := make([]float64, len(ev.th)), make([]float64, len(ev.th))
	ev.savePhases(thX)
	fx := fy
	objs := []float64{fx}
	var L float64
	t := 1.0
	for it := 0; ; it++ {
		if k := len(objs); it >= c.MaxIterations || (k >= 5 && objs[k-5]-objs[k-1] < c.Tol*math.Abs(objs[k-1])) {
			break
		}
		if err := p.ctx.Err(); err != nil {
			return nil, nil, 0, fmt.Errorf("srff: %w", err)
		}
		ev.setA(a)
		var aa float64
		for _, v := range a {
			aa += float64(v * v)
		}
		pen := float64(lambda*aa) / 2
		// The γ-step objective at y is J(a*(y), y) − pen; its features and
		// residuals are those of the a-step.
		dy := ev.value(y, gy)
		if !isFinite(dy) || !allFinite(gy) {
			break
		}
		if L == 0 {
			L = startLipschitz(gy, s, d)
		} else {
			L /= 2
		}
		fz, ok := proxStep(ev, z, v, y, gy, dy, s, &L)
		if !ok {
			break
		}
		fz += pen // J(a*(y), z) ≥ F(z)
		copy(xPrev, x)
		restart := true
		if fz <= fx {
			copy(x, z)
			fx = fz
			thX, thP = thP, thX
			ev.savePhases(thX) // the trial's features are z's
			var turn float64
			for k := range z {
				turn += float64((y[k] - z[k]) * (z[k] - xPrev[k]))
			}
			restart = turn > 0
		}
		if restart {
			t = 1
			copy(y, x)
			if !ev.haveFeatures(y) { // a rejected trial's features are in ev
				ev.featuresFrom(y, thX, nil, 0)
			}
		} else {
			tNext := 0.5 * (1 + math.Sqrt(1+float64(4*t*t)))
			b := (t - 1) / tNext
			for k := range y {
				y[k] = x[k] + float64(b*(x[k]-xPrev[k]))
			}
			ev.featuresFrom(y, thX, thP, b)
			t = tNext
		}
		fy, err = ev.aStep(a, y, lambda)
		if err != nil {
			return nil, nil, 0, fmt.Errorf("srff: ridge at λ = %g: %w", lambda, err)
		}
		if slices.Equal(x, y) {
			fx = fy
		}
		objs = append(objs, fx)
	}
	loss = fy
	if !slices.Equal(x, y) {
		ev.featuresFrom(x, thX, nil, 0)
		if loss, err = ev.aStep(a, x, lambda); err != nil {
			return nil, nil, 0, fmt.Errorf("srff: ridge at λ = %g: %w", lambda, err)
		}
	}
	return a, slices.Clone(x), loss, nil
}
