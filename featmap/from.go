package featmap

import (
	"fmt"
	"math"
)

// FromRows copies rows into a new len(rows)×len(rows[0]) matrix. Every row
// must have the same length; a ragged input gives an error wrapping
// ErrShape. No rows gives the empty 0×0 matrix.
func FromRows(rows [][]float64) (Matrix, error) {
	if len(rows) == 0 {
		return Dense(0, 0, nil), nil
	}
	cols := len(rows[0])
	if cols > 0 && len(rows) > math.MaxInt/cols {
		return Matrix{}, fmt.Errorf("%w: FromRows: %d rows of %d columns is too large", ErrShape, len(rows), cols)
	}
	data := make([]float64, len(rows)*cols)
	for i, r := range rows {
		if len(r) != cols {
			return Matrix{}, fmt.Errorf("%w: FromRows: row %d has %d columns, row 0 has %d", ErrShape, i, len(r), cols)
		}
		copy(data[i*cols:], r)
	}
	return Dense(len(rows), cols, data), nil
}

// FromMat copies any matrix with Dims and At, such as gonum's *mat.Dense,
// into a new row-major Matrix. The small interface keeps gonum out of this
// module's requirements: a gonum matrix satisfies it as it is. Negative or
// too large dimensions give an error wrapping ErrShape.
func FromMat(a interface {
	Dims() (r, c int)
	At(i, j int) float64
}) (Matrix, error) {
	rows, cols := a.Dims()
	if rows < 0 || cols < 0 || (cols > 0 && rows > math.MaxInt/cols) {
		return Matrix{}, fmt.Errorf("%w: FromMat: dimensions %d×%d", ErrShape, rows, cols)
	}
	data := make([]float64, rows*cols)
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			data[i*cols+j] = a.At(i, j)
		}
	}
	return Dense(rows, cols, data), nil
}
