package featmap

import (
	"fmt"

	"github.com/rfkit/rfkit/internal/asm"
)

// Combine writes, for every row x of X, the linear read-out of its features
// without storing them: dst[i] = Σ_j coef[j]·z_j(x), with z the map's
// Outputs() features (so len(coef) == Outputs()). It is the batch prediction
// of a linear model on random Fourier features, through the fused epilogue
// asm.CosSum (the dot products stay in registers and each cos is weighted and
// summed at once). Sums over j use asm's canonical 8-lane order, so results
// are the same bits on every path and for any GOMAXPROCS.
func (m *RFF) Combine(dst []float64, X Matrix, coef []float64) error {
	if X.Check() != nil || X.Cols != m.d || len(dst) != X.Rows || len(coef) != m.Outputs() {
		return fmt.Errorf("%w: Combine of a %d×%d matrix into %d outputs with %d coefficients (map %d→%d)",
			ErrShape, X.Rows, X.Cols, len(dst), len(coef), m.d, m.Outputs())
	}
	if !parallel(X.Rows, m.d*m.Outputs()+m.Outputs()*30) {
		m.combineRows(dst, X, coef, 0, X.Rows)
		return nil
	}
	forRows(X.Rows, func(lo, hi int) { m.combineRows(dst, X, coef, lo, hi) })
	return nil
}

// CombineRow is Combine for one row, with no checks beyond slicing.
func (m *RFF) CombineRow(x, coef []float64) float64 {
	s := asm.CosSum(x, m.w, m.D, m.b, coef[:m.D])
	if m.pair {
		s += asm.CosSum(x, m.w, m.D, m.bSin, coef[m.D:2*m.D])
	}
	return m.scale * s
}

func (m *RFF) combineRows(dst []float64, X Matrix, coef []float64, lo, hi int) {
	for i := lo; i < hi; i++ {
		dst[i] = m.CombineRow(X.Row(i), coef)
	}
}
