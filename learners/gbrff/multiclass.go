package gbrff

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rfkit/rfkit/asm"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/vec"
)

// fitMulticlass is Fit for Task = Multiclass (GBRFF2 only), with optional
// row weights: K coupled score functions H_k with the softmax (multinomial
// log) loss, one cosine per class per round (Friedman's multiclass
// gradient boosting, with GBRFF2's weak learner):
//
//   - H⁰_k = ln π_k, the log of the (weighted) class frequency.
//   - Each round computes p_ik = softmax_k(H_i) once, then for every class
//     k fits one cosine to the pseudo-residuals r_ik = 1[y_i = k] − p_ik
//     exactly as a regression round does (best of Candidates frequencies,
//     phase, frequency step on the scaled residuals), and takes the Newton
//     step α_k = ((K − 1)/K)·Σ c·r·h / Σ c·p(1 − p)·h², shrunk by
//     LearningRate.
//
// Why this and not SAMME's multiclass exponential loss: the softmax loss
// gives the class probabilities directly (Probabilities is the softmax of
// the scores, as for every other multiclass learner here), every class
// gets its own cosine (SAMME's single weak learner per round must separate
// all classes at once, which one cosine cannot do for K ≥ 3), and the
// rounds reuse the regression steps unchanged, bits and all.
func fitMulticlass(ctx context.Context, X featmap.Matrix, y, w []float64, cfg Config) (*Model, error) {
	p, err := learners.PrepareWeighted(ctx, "gbrff", cfg, learners.Multiclass, X, y, w)
	if err != nil {
		return nil, err
	}
	switch {
	case cfg.Variant == VariantGBRFF1:
		return nil, errors.New("gbrff: Task = multiclass is implemented for gbrff2 only")
	case cfg.Validation > 0:
		return nil, errors.New("gbrff: Validation (early stopping) is not implemented for Task = multiclass yet")
	}
	progress, threads := cfg.Progress, cfg.Threads
	c := cfg.resolved(X.Cols)
	K, n := len(p.Classes), p.N
	fs := make([]*regFitter, K)
	prior := make([]float64, K)
	var total float64
	for i, v := range p.Targets {
		wi := 1.0
		if p.Weights != nil {
			wi = p.Weights[i]
		}
		prior[int(v)] += wi
		total += wi
	}
	P := make([]float64, n*K) // p_ik
	for k := range fs {
		ck := c
		ck.Seed = c.Seed + uint64(k)*0x9e3779b97f4a7c15 // each class its own frequencies
		if fs[k], err = newRegFitter(ck, p); err != nil {
			return nil, fmt.Errorf("gbrff: %w", err)
		}
		f := fs[k]
		f.h0 = xmath.Log(prior[k] / total)
		for i := range f.H {
			f.H[i] = f.h0
		}
		f.x.SetThreads(threads)
		f.ph.SetThreads(threads)
		kk := k
		f.newton = func() float64 {
			var num, den float64
			for i, h := range f.h {
				ch := float64(f.weight(i) * h)
				pk := P[i*K+kk]
				num += float64(ch * f.r[i])
				den += float64(float64(ch*h) * float64(pk*(1-pk)))
			}
			if !(den > 0) {
				return 0
			}
			return float64(float64(K-1)/float64(K)) * (num / den)
		}
	}
	s := make([]float64, K)
	start := time.Now()
	rounds := 0
	for t := 0; t < c.T; t++ {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("gbrff: round %d of %d: %w", t+1, c.T, err)
		}
		var loss float64
		for i := 0; i < n; i++ {
			for k, f := range fs {
				s[k] = f.H[i]
			}
			vec.Softmax(P[i*K:(i+1)*K], s)
			yi := int(p.Targets[i])
			l := -xmath.Log(P[i*K+yi])
			if p.Weights != nil {
				l = float64(p.Weights[i] * l)
			}
			loss += l
		}
		moved := false
		for k, f := range fs {
			for i := range f.r {
				t := 0.0
				if int(p.Targets[i]) == k {
					t = 1
				}
				f.r[i] = t - P[i*K+k]
			}
			if !f.setTargets() {
				f.addTerm(make([]float64, f.d), 0, 0) // nothing left to fit for this class
				continue
			}
			moved = true
			if err := f.regRound2(t); err != nil {
				return nil, fmt.Errorf("gbrff: round %d, class %d: %w", t+1, k, err)
			}
		}
		rounds = t + 1
		if err := progress.Report(learners.Event{Method: c.Variant, Round: t + 1, Rounds: c.T, Loss: loss / fs[0].sumWt, Elapsed: time.Since(start)}); err != nil {
			return nil, fmt.Errorf("gbrff: %w", err)
		}
		if !moved {
			break
		}
	}
	// the model: class k's terms at [k·J, (k+1)·J), J = rounds
	d, J := p.D, rounds
	m := &body{cfg: c, rounds: rounds, h0s: make([]float64, K),
		w: make([]float64, d*K*J), b: make([]float64, K*J), a: make([]float64, K*J)}
	for k, f := range fs {
		m.h0s[k] = f.h0
		for j := 0; j < J; j++ {
			col := k*J + j
			for q := 0; q < d; q++ {
				m.w[q*K*J+col] = f.w[j][q]
			}
			m.b[col], m.a[col] = f.b[j][0], f.a[j][0]
		}
	}
	m.setScoringMulti()
	out := new(Model)
	learners.Build(&out.Base, p.Common(learners.Multiclass, learners.NoProbability), m)
	return out, nil
}

// setScoringMulti builds the padded per-class copies Scores reads.
func (m *body) setScoringMulti() {
	K := len(m.h0s)
	J, d := m.rounds, 0
	if K*J > 0 {
		d = len(m.w) / (K * J)
	}
	Jp := scoredTerms(J)
	m.mw, m.mb, m.ma = make([][]float64, K), make([][]float64, K), make([][]float64, K)
	for k := 0; k < K; k++ {
		m.mw[k], m.mb[k], m.ma[k] = make([]float64, d*Jp), make([]float64, Jp), make([]float64, Jp)
		for q := 0; q < d; q++ {
			copy(m.mw[k][q*Jp:q*Jp+J], m.w[q*K*J+k*J:q*K*J+(k+1)*J])
		}
		copy(m.mb[k], m.b[k*J:(k+1)*J])
		copy(m.ma[k], m.a[k*J:(k+1)*J])
	}
}

// Scores implements learners.MultiScorer for a multiclass model: the K
// class scores H⁰_k + Σ_j a_kj·cos(w_kj·z + b_kj).
func (m *body) Scores(dst, z []float64, _ any) {
	for k := range dst {
		dst[k] = m.h0s[k] + asm.CosSum(z, m.mw[k], len(m.mb[k]), m.mb[k], m.ma[k])
	}
}
