package kernel

import (
	"fmt"
	"math"

	"github.com/rfkit/rfkit/learners/internal/kit"
)

// Hinge is the kernel support vector machine (Binary only): libsvm's C-SVC
// on the subsample, see fitHinge.
const Hinge Loss = "hinge"

// defaultC is the box constraint C of a zero Config.C (libsvm's default).
const defaultC = 1.0

// The SMO solver's constants, libsvm's: the stopping tolerance on the
// maximal violating pair, the floor of a non-positive curvature, and the
// iteration limit max(svmMinIter, 100·m).
const (
	svmEps     = 1e-3
	svmTau     = 1e-12
	svmMinIter = 10_000_000
)

// fitHinge is round 1 and 2 of the hinge loss: the soft-margin SVM
//
//	min_{f, c} ½‖f‖²_H + C Σ_i max(0, 1 − t_i (f(x_i) + c))
//
// over the m subsample rows (t_i = ±1), solved in its dual
//
//	min_α ½ αᵀQα − Σ α_i,  Q_ij = t_i t_j k(x_i, x_j),  0 ≤ α_i ≤ C,  Σ t_i α_i = 0
//
// by sequential minimal optimisation as libsvm does it (Fan, Chen and Lin
// 2005): the full kernel matrix in memory, the working pair chosen by the
// maximal violation and second-order gain (ties to the last index, a fixed
// deterministic order), no shrinking, stopping when the maximal violation
// m(α) − M(α) is below 1e-3 (libsvm's -e) or after max(10⁷, 100·m) pairs,
// and the intercept c = −ρ from the free vectors (libsvm's calculate_rho).
// The model keeps the support vectors only (α_i ≠ 0; the file's meta
// "vectors" is their number), with alpha t_i·α_i, and its bias c.
// b holds the subsample; t its ±1 labels.
func fitHinge(r *kit.Rounds, p *kit.Prepared, b *body, t []float64) (*Model, error) {
	ctx := r.Context()
	m, d, C := len(t), p.D, b.cfg.C
	var pos int
	for _, v := range t {
		pos += int(v+1) / 2
	}
	if pos == 0 || pos == m {
		return nil, fmt.Errorf("kernel: Loss = hinge: the subsample of %d rows holds one class only (raise Subsample or change Seed)", m)
	}
	// Round 1: the kernel matrix, the lower triangle by kernelRow (the
	// bits Score computes) mirrored.
	k := make([]float64, m*m)
	for i := 0; i < m; i++ {
		if err := ctxEvery(ctx, i); err != nil {
			return nil, err
		}
		b.kernelRow(k[i*m:i*m+i+1], b.support[i*d:(i+1)*d])
		for j := 0; j < i; j++ {
			k[j*m+i] = k[i*m+j]
		}
	}
	if err := r.End(1, math.NaN()); err != nil {
		return nil, err
	}

	// Round 2: SMO. g is the gradient Qα − 1.
	alpha, g := make([]float64, m), make([]float64, m)
	for i := range g {
		g[i] = -1
	}
	up := func(i int) bool { return alpha[i] >= C }
	low := func(i int) bool { return alpha[i] <= 0 }
	maxIter := max(svmMinIter, 100*m)
	for iter := 0; iter < maxIter; iter++ {
		if iter&4095 == 4095 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("kernel: %w", err)
			}
		}
		// i: the maximal violator of the first kind.
		gmax, i := math.Inf(-1), -1
		for s := 0; s < m; s++ {
			if t[s] > 0 {
				if !up(s) && -g[s] >= gmax {
					gmax, i = -g[s], s
				}
			} else if !low(s) && g[s] >= gmax {
				gmax, i = g[s], s
			}
		}
		// j: the largest second-order decrease with i.
		gmax2, j, best := math.Inf(-1), -1, math.Inf(1)
		for s := 0; s < m; s++ {
			var diff, quad float64
			if t[s] > 0 {
				if low(s) {
					continue
				}
				gmax2 = max(gmax2, g[s])
				diff = gmax + g[s]
				if i >= 0 {
					quad = k[i*m+i] + k[s*m+s] - float64(2*float64(t[i]*t[s])*k[i*m+s])
				}
			} else {
				if up(s) {
					continue
				}
				gmax2 = max(gmax2, -g[s])
				diff = gmax - g[s]
				if i >= 0 {
					quad = k[i*m+i] + k[s*m+s] + float64(2*float64(t[i]*t[s])*k[i*m+s])
				}
			}
			if diff > 0 {
				if quad <= 0 {
					quad = svmTau
				}
				if obj := -float64(diff*diff) / quad; obj <= best {
					best, j = obj, s
				}
			}
		}
		if gmax+gmax2 < svmEps || j < 0 || i < 0 {
			break
		}
		oi, oj := alpha[i], alpha[j]
		kij := k[i*m+j]
		if t[i] != t[j] {
			quad := k[i*m+i] + k[j*m+j] + float64(2*kij)
			if quad <= 0 {
				quad = svmTau
			}
			delta := (-g[i] - g[j]) / quad
			diff := alpha[i] - alpha[j]
			alpha[i] += delta
			alpha[j] += delta
			if diff > 0 {
				if alpha[j] < 0 {
					alpha[j], alpha[i] = 0, diff
				}
			} else if alpha[i] < 0 {
				alpha[i], alpha[j] = 0, -diff
			}
			if diff > 0 {
				if alpha[i] > C {
					alpha[i], alpha[j] = C, C-diff
				}
			} else if alpha[j] > C {
				alpha[j], alpha[i] = C, C+diff
			}
		} else {
			quad := k[i*m+i] + k[j*m+j] - float64(2*kij)
			if quad <= 0 {
				quad = svmTau
			}
			delta := (g[i] - g[j]) / quad
			sum := alpha[i] + alpha[j]
			alpha[i] -= delta
			alpha[j] += delta
			if sum > C {
				if alpha[i] > C {
					alpha[i], alpha[j] = C, sum-C
				}
			} else if alpha[j] < 0 {
				alpha[j], alpha[i] = 0, sum
			}
			if sum > C {
				if alpha[j] > C {
					alpha[j], alpha[i] = C, sum-C
				}
			} else if alpha[i] < 0 {
				alpha[i], alpha[j] = 0, sum
			}
		}
		// g_s += Q_si Δα_i + Q_sj Δα_j, Q_si = t_s t_i k_si.
		di, dj := float64(t[i]*(alpha[i]-oi)), float64(t[j]*(alpha[j]-oj))
		ki, kj := k[i*m:(i+1)*m], k[j*m:(j+1)*m]
		for s := range g {
			g[s] += float64(t[s] * (float64(ki[s]*di) + float64(kj[s]*dj)))
		}
	}

	// ρ: the mean of t_s g_s over the free vectors, else the middle of
	// the feasible interval.
	ub, lb, sum, free := math.Inf(1), math.Inf(-1), 0.0, 0
	for s := range g {
		yg := float64(t[s] * g[s])
		switch {
		case up(s) && t[s] < 0, low(s) && t[s] > 0:
			ub = min(ub, yg)
		case up(s), low(s):
			lb = max(lb, yg)
		default:
			free++
			sum += yg
		}
	}
	rho := (ub + lb) / 2
	if free > 0 {
		rho = sum / float64(free)
	}
	// The primal objective divided by C·m: (1/m) Σ hinge + ‖f‖²/(2Cm),
	// with (Qα)_s = g_s + 1 and t_s·f(x_s) = (Qα)_s − t_s·ρ.
	var ww, hinge float64
	for s, a := range alpha {
		q := g[s] + 1
		ww += float64(a * q)
		hinge += max(0, 1-(q-float64(t[s]*rho)))
		b.alpha[s] = float64(t[s] * a)
	}
	b.bias = -rho
	// Keep the support vectors only (α_s ≠ 0, in subsample order): the
	// other terms of the score are exact zeros.
	sv := 0
	for s, a := range b.alpha {
		if a != 0 {
			copy(b.support[sv*d:(sv+1)*d], b.support[s*d:(s+1)*d])
			b.alpha[sv] = a
			sv++
		}
	}
	b.support, b.alpha = b.support[:sv*d:sv*d], b.alpha[:sv:sv]
	loss := hinge/float64(m) + ww/float64(2*C*float64(m))
	if !(loss >= 0 && loss < math.Inf(1)) || !(rho > math.Inf(-1) && rho < math.Inf(1)) {
		return nil, fmt.Errorf("kernel: the SVM solver diverged (objective %v, ρ = %v)", loss, rho)
	}
	if err := r.End(2, loss); err != nil {
		return nil, err
	}
	return kit.New[Model](p.Common(b.cfg.Task, kit.Clamped), b), nil
}

// svmVectors reads the number of support vectors of a hinge model: an
// integer in [1, subsample].
func svmVectors(d *kit.Decoder, subsample int) (int, error) {
	v := d.Meta("vectors")
	if err := d.Err(); err != nil {
		return 0, err
	}
	if !(v >= 1 && v <= float64(subsample)) || v != math.Trunc(v) {
		return 0, fmt.Errorf("vectors = %v support vectors, want an integer in [1, %d]", v, subsample)
	}
	return int(v), nil
}
