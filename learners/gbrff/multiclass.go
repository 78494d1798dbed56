package gbrff

import (
	"context"
	"fmt"
	"time"

	"github.com/rfkit/rfkit/learners/internal/kit"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/asm"
	"github.com/rfkit/rfkit/internal/exploss"
	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/vec"
)

// fitMulticlass is Fit for Task = Multiclass, both variants, with optional
// row weights: K coupled score functions H_k with the softmax (multinomial
// log) loss, one weak learner per class per round (Friedman's multiclass
// gradient boosting, with the variant's weak learner: one cosine for
// GBRFF2, one landmark Σ_j q_j cos(ω_j·(p − x)) of Config.K cosines for
// GBRFF1):
//
//   - H⁰_k = ln π_k, the log of the (weighted) class frequency.
//   - Each round computes p_ik = softmax_k(H_i) once, then for every class
//     k fits one weak learner h to the pseudo-residuals
//     r_ik = 1[y_i = k] − p_ik exactly as a regression round of the variant
//     does (GBRFF2: best of Candidates frequencies, phase, frequency step;
//     GBRFF1: the landmark p by L-BFGS and its weights q; both on the
//     scaled residuals), and takes the Newton step
//     α_k = ((K − 1)/K)·Σ c·r·h / Σ c·p(1 − p)·h², shrunk by LearningRate.
//
// Why this and not SAMME's multiclass exponential loss: the softmax loss
// gives the class probabilities directly (Probabilities is the softmax of
// the scores, as for every other multiclass learner here), every class
// gets its own weak learner (SAMME's single weak learner per round must
// separate all classes at once, which one cosine or one landmark cannot do
// for K ≥ 3), and the rounds reuse the regression steps unchanged, bits
// and all: the two variants differ only in the round they call
// (regRound2 or regRound1) and in the terms a round adds (1 or Config.K
// per class).
func fitMulticlass(ctx context.Context, X featmap.Matrix, y, w []float64, cfg Config) (*Model, error) {
	p, err := prepareNoValidation(ctx, cfg, learners.Multiclass, X, y, w, "for Task = multiclass")
	if err != nil {
		return nil, err
	}
	progress, threads := cfg.Progress, int(cfg.Threads)
	c := cfg.resolved(X.Cols)
	K, n, per := len(p.Classes), p.N, c.termsPerRound()
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
		// one layout of the inputs for every class (the sweeps only read it)
		var x *exploss.Data
		if k > 0 {
			x = fs[0].x
		}
		if fs[k], err = newRegFitter(ck, p, x); err != nil {
			return nil, fmt.Errorf("gbrff: %w", err)
		}
		f := fs[k]
		f.start.share = K // the K class fitters split the memory of their start blocks
		f.h0 = xmath.Log(prior[k] / total)
		for i := range f.H {
			f.H[i] = f.h0
		}
		f.setThreads(threads)
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
	var lm *exploss.Landmark
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
				for j := 0; j < per; j++ {
					f.addTerm(make([]float64, f.d), 0, 0) // nothing left to fit for this class
				}
				continue
			}
			moved = true
			if c.Variant == VariantGBRFF1 {
				// one landmark sweep for every class: fitLandmark resets
				// it on this class's frequencies and targets
				f.lm = lm
				err = f.regRound1(t)
				lm = f.lm
			} else {
				err = f.regRound2(t)
			}
			if err != nil {
				return nil, fmt.Errorf("gbrff: round %d, class %d: %w", t+1, k, err)
			}
		}
		rounds = t + 1
		if err := kit.Report(progress, learners.Event{Method: c.Variant, Round: t + 1, Rounds: c.T, Loss: loss / fs[0].sumWt, Elapsed: time.Since(start)}); err != nil {
			return nil, fmt.Errorf("gbrff: %w", err)
		}
		if !moved {
			break
		}
	}
	// the model: class k's terms at [k·J, (k+1)·J), J = rounds·per
	d, J := p.D, rounds*per
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
	return kit.New[Model](p.Common(learners.Multiclass, kit.NoProbability), m), nil
}

// termsPerRound is the number of cosines a round adds to one score
// function: 1 for GBRFF2, K for GBRFF1 (c resolved).
func (c Config) termsPerRound() int {
	if c.Variant == VariantGBRFF1 {
		return c.K
	}
	return 1
}

// lossStep is the α of a regression round before shrinkage: the loss's
// (alpha), or the multiclass Newton step when newton is set.
func (f *regFitter) lossStep() float64 {
	if f.newton != nil {
		return f.newton()
	}
	return f.alpha()
}

// setScoringMulti builds the padded per-class copies Scores reads.
func (m *body) setScoringMulti() {
	K := len(m.h0s)
	J, d := len(m.b)/K, 0 // J = rounds·(terms per round)
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

// Scores implements kit.MultiScorer for a multiclass model: the K
// class scores H⁰_k + Σ_j a_kj·cos(w_kj·z + b_kj).
func (m *body) Scores(dst, z []float64, _ any) {
	for k := range dst {
		dst[k] = m.h0s[k] + asm.CosSum(z, m.mw[k], len(m.mb[k]), m.mb[k], m.ma[k])
	}
}
