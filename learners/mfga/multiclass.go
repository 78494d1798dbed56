package mfga

import (
	"fmt"
	"math"
	"slices"

	"github.com/rfkit/rfkit/learners/internal/kit"

	"github.com/rfkit/rfkit/internal/solvers"
	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/trig"
)

// The multiclass task (Task = learners.Multiclass) runs the same greedy
// loop on one shared dictionary with the multinomial logistic loss: the
// gradient of the risk is the n×K matrix G_ik = p_ik − 1[y_i = k], a
// candidate's score is the root of the sum over the classes of its
// squared correlations with the columns of G (each centred, divided by the
// column's spread, as in the binary score), and every step refits
// multinomial logistic regression (solvers.Multinomial, warm-started from
// the previous weights) on the normalised active columns. The model keeps
// K rows of coefficients of the raw features and K biases.

// multi is the multiclass part of the greedy state.
type multi struct {
	g    *greedy
	K    int
	x    []float64 // K×k weights then K biases, normalised columns
	grad []float64 // n×K gradient of the risk w.r.t. the scores
}

// newMulti starts from the class log-frequencies (the intercept-only
// minimiser).
func newMulti(g *greedy, K int) *multi {
	m := &multi{g: g, K: K, x: make([]float64, K), grad: make([]float64, g.n*K)}
	count := make([]float64, K)
	for i, v := range g.t {
		count[int(v)] += g.c[i]
	}
	for k, c := range count {
		m.x[k] = xmath.Log(c / float64(g.n))
	}
	g.risk = m.evaluate()
	g.path = []float64{g.risk}
	return m
}

// evaluate computes the gradient and the regularised risk of m.x.
func (m *multi) evaluate() float64 {
	g, K := m.g, m.K
	k := len(g.active)
	W, b := m.x[:K*k], m.x[K*k:]
	s := make([]float64, K)
	var loss float64
	for i := 0; i < g.n; i++ {
		zi := g.z[i*g.M : i*g.M+k]
		mx := math.Inf(-1)
		for c := range s {
			s[c] = b[c] + xmath.DotRound(W[c*k:(c+1)*k], zi)
			mx = math.Max(mx, s[c])
		}
		for c := range s {
			s[c] -= mx
		}
		y := int(g.t[i])
		sy := s[y]
		trig.Exp(s, s)
		var sum float64
		for _, v := range s {
			sum += v
		}
		ci := g.c[i]
		loss += float64(ci * (xmath.Log(sum) - sy))
		gi := m.grad[i*K : (i+1)*K]
		for c, v := range s {
			gi[c] = v / sum
		}
		gi[y]--
		for c := range gi {
			gi[c] = float64(ci * gi[c])
		}
	}
	return loss/float64(g.n) + float64(0.5*g.cfg.Lambda*xmath.DotRound(W, W))
}

// step adds up to want features by their class-summed scores and refits;
// it returns how many it added.
func (m *multi) step(want int) (int, error) {
	g, K := m.g, m.K
	gsum := make([]float64, K)
	for i := 0; i < g.n; i++ {
		for c, v := range m.grad[i*K : (i+1)*K] {
			gsum[c] += v
		}
	}
	corr := make([]float64, K*g.m0)
	psi := make([]float64, g.m0)
	for i := 0; i < g.n; i++ {
		dictRow(psi, g.xs[i*g.d:(i+1)*g.d], g.e[i], g.inv, g.cfg.Degree)
		for c, gi := range m.grad[i*K : (i+1)*K] {
			acc := corr[c*g.m0 : (c+1)*g.m0]
			for j, v := range psi {
				acc[j] += float64(gi * v)
			}
		}
	}
	score := make([]float64, g.m0)
	order := make([]int, 0, g.m0)
	for j := range score {
		if g.excluded[j] {
			continue
		}
		var ss float64
		for c := 0; c < K; c++ {
			v := (corr[c*g.m0+j] - float64(g.mu[j]*gsum[c])) / g.s[j]
			ss += float64(v * v)
		}
		score[j] = ss
		order = append(order, j)
	}
	return g.addBest(order, score, want, func(old, _ int) error { return m.refit(old) })
}

// refit fits the multinomial model on the active columns, warm-started
// from the weights of the old active columns (0 for the new ones).
func (m *multi) refit(old int) error {
	g, K := m.g, m.K
	k := len(g.active)
	Z := make([]float64, g.n*k)
	for i := 0; i < g.n; i++ {
		copy(Z[i*k:(i+1)*k], g.z[i*g.M:i*g.M+k])
	}
	init := make([]float64, K*k+K)
	for c := 0; c < K; c++ {
		copy(init[c*k:c*k+old], m.x[c*old:(c+1)*old])
	}
	copy(init[K*k:], m.x[K*old:])
	W, b, err := solvers.Multinomial(Z, g.n, k, g.t, K, g.cfg.Lambda, solvers.MultinomialOptions{
		MaxIterations: lbfgsMaxIter, GradTol: lbfgsGradTol, Init: init, Weights: g.c})
	if err != nil {
		return fmt.Errorf("multinomial refit on %d features: %w", k, err)
	}
	m.x = append(W, b...)
	g.risk = m.evaluate()
	return nil
}

// buildMulti fills the body of a multiclass model: coefficients of the
// raw features, K×k, and the K biases.
func (b *body) buildMulti(m *multi) {
	g, K := m.g, m.K
	k := len(g.active)
	b.index = append([]int(nil), g.active...)
	b.coefs = make([]float64, K*k)
	b.biases = slices.Clone(m.x[K*k:])
	for c := 0; c < K; c++ {
		for t, j := range g.active {
			v := m.x[c*k+t] / g.s[j]
			b.coefs[c*k+t] = v
			b.biases[c] -= float64(v * g.mu[j])
		}
	}
	b.path = g.path
	b.decodeFeatures()
}

// Scores writes the K class scores of the standardised row z
// (kit.MultiScorer); w holds the exponential and the feature values.
func (b *body) Scores(dst, z []float64, w any) {
	e := w.([]float64)
	inv := 1 / b.cfg.Sigma
	e[0] = expArg(z, inv)
	trig.Exp(e[:1], e[:1])
	f := e[1 : 1+len(b.feats)]
	for t, ft := range b.feats {
		f[t] = ft.value(z, e[0], inv)
	}
	k := len(f)
	for c := range dst {
		dst[c] = b.biases[c] + xmath.DotRound(b.coefs[c*k:(c+1)*k], f)
	}
}

// FileVersion: 1 for binary and regression models, 2 for multiclass.
func (b *body) FileVersion() int {
	if b.biases != nil {
		return 2
	}
	return 1
}

// compile-time check
var _ kit.MultiScorer = (*body)(nil)
