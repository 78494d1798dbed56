package rfselect

import (
	"github.com/rfkit/rfkit/learners/internal/kit"
)

// selectionTargets returns the targets the candidates are scored against
// and their number of columns: the ±1 labels or the regression targets
// centred to mean 0 (one column, the bits Fit always used), or for a
// multiclass task the K indicators 1[y_i = k] − p_k, n×K row-major (p_k
// the share of class k). With sample weights the centring is weighted and
// row i is scaled by n·w_i/Σw, so that the energy (1/n) Σ_i y_i φ(x_i) is
// the weighted mean, as if each row appeared w_i times.
func selectionTargets(p *kit.Prepared) ([]float64, int) {
	n, t, w := p.N, p.Targets, p.Weights
	wt := func(i int) float64 {
		if w == nil {
			return 1
		}
		return w[i]
	}
	var wsum float64
	for i := range t {
		wsum += wt(i)
	}
	K := 1
	if p.Classes != nil {
		K = len(p.Classes)
	}
	if K == 1 {
		var mean float64
		if w == nil {
			for _, v := range t {
				mean += v
			}
			mean /= float64(n)
		} else {
			for i, v := range t {
				mean += float64(w[i] * v)
			}
			mean /= wsum
		}
		st := make([]float64, n)
		for i, v := range t {
			st[i] = v - mean
			if w != nil {
				st[i] = float64(float64(st[i]*w[i]) * (float64(n) / wsum))
			}
		}
		return st, 1
	}
	share := make([]float64, K)
	for i, v := range t {
		share[int(v)] += wt(i)
	}
	for k := range share {
		share[k] /= wsum
	}
	st := make([]float64, n*K)
	for i, v := range t {
		row := st[i*K : (i+1)*K]
		for k := range row {
			row[k] = -share[k]
		}
		row[int(v)]++
		if w != nil {
			f := float64(w[i] * (float64(n) / wsum))
			for k := range row {
				row[k] = float64(row[k] * f)
			}
		}
	}
	return st, K
}
