package gbrff

import (
	"fmt"

	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/exploss"
	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/learners/internal/prep"
)

// validation tracks the exponential loss of the held-out rows for early
// stopping, updated with each round's terms.
type validation struct {
	x           *exploss.Data
	y, yt, H, h []float64
	C, S        []float64
	sumW        float64
}

func newValidation(X featmap.Matrix, signs []float64, rows []int, scaler *dataset.Scaler, h0 float64) (*validation, error) {
	Xv := prep.Rows(X, rows)
	n, d := len(rows), X.Cols
	z := make([]float64, n*d)
	for i := 0; i < n; i++ {
		copy(z[i*d:(i+1)*d], Xv.Data[i*Xv.Stride:i*Xv.Stride+d])
	}
	scaler.Transform(z, z)
	x, err := exploss.NewData(z, n, d, d)
	if err != nil {
		return nil, fmt.Errorf("gbrff: validation rows: %w", err)
	}
	v := &validation{x: x, y: make([]float64, n), yt: make([]float64, n), H: make([]float64, n), h: make([]float64, n)}
	for i, r := range rows {
		v.y[i] = signs[r]
		v.H[i] = h0
	}
	if v.sumW, err = exploss.Weights(v.yt, v.H, v.y, v.h, 0); err != nil {
		return nil, err
	}
	return v, nil
}

func (v *validation) loss() float64 { return v.sumW / float64(len(v.y)) }

// observe adds alpha·Σ_j q_j cos(w_j·z + b_j) to the validation scores.
func (f *fitter) observe(ws [][]float64, bs, qs []float64, alpha float64) error {
	v := f.val
	if v == nil {
		return nil
	}
	n, K := len(v.y), len(ws)
	if len(v.C) != K*n {
		v.C, v.S = make([]float64, K*n), make([]float64, K*n)
	}
	u, w := make([]float64, K), make([]float64, K)
	for k := range ws {
		if err := v.x.Sincos(v.S[k*n:(k+1)*n], v.C[k*n:(k+1)*n], ws[k]); err != nil {
			return err
		}
		// cos(p + b) = cos p·cos b − sin p·sin b
		s, c := xmath.Sincos(bs[k])
		u[k], w[k] = float64(qs[k]*c), -float64(qs[k]*s)
	}
	if _, err := exploss.WeightedCorrelation(v.h, v.yt, v.C, v.S, u, w); err != nil {
		return err
	}
	var err error
	if v.sumW, err = exploss.Weights(v.yt, v.H, v.y, v.h, alpha); err != nil {
		return err
	}
	f.valLoss = v.loss()
	return nil
}
