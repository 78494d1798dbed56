package bench

import (
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"gonum.org/v1/gonum/mat"
)

// TestFromMatGonum: a gonum *mat.Dense (and a transposed view of one) goes
// into featmap.FromMat as it is. It lives in the bench module, which already
// requires gonum, so that the library's go.mod does not.
func TestFromMatGonum(t *testing.T) {
	a := mat.NewDense(2, 3, []float64{1, 2, 3, 4, 5, 6})
	m, err := featmap.FromMat(a)
	if err != nil {
		t.Fatal(err)
	}
	if m.Rows != 2 || m.Cols != 3 || m.Row(1)[0] != 4 {
		t.Fatalf("FromMat(mat.Dense) = %+v", m)
	}
	mt, err := featmap.FromMat(a.T())
	if err != nil {
		t.Fatal(err)
	}
	if mt.Rows != 3 || mt.Cols != 2 || mt.Row(2)[1] != 6 {
		t.Fatalf("FromMat(a.T()) = %+v", mt)
	}
}
