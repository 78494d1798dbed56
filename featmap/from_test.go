package featmap_test

import (
	"errors"
	"testing"

	"github.com/rfkit/rfkit/featmap"
)

func TestFromRows(t *testing.T) {
	src := [][]float64{{1, 2, 3}, {4, 5, 6}}
	m, err := featmap.FromRows(src)
	if err != nil {
		t.Fatal(err)
	}
	if m.Rows != 2 || m.Cols != 3 || m.Stride != 3 || m.Row(1)[2] != 6 || m.Row(0)[1] != 2 {
		t.Fatalf("FromRows = %+v", m)
	}
	src[0][0] = 99 // a copy, not a view
	if m.Row(0)[0] != 1 {
		t.Error("FromRows shares the caller's rows")
	}
	if _, err := featmap.FromRows([][]float64{{1, 2}, {3}}); !errors.Is(err, featmap.ErrShape) {
		t.Errorf("ragged rows: err = %v, want ErrShape", err)
	}
	if m, err := featmap.FromRows(nil); err != nil || m.Rows != 0 || m.Cols != 0 {
		t.Errorf("no rows: %+v, %v", m, err)
	}
}

// dims is the part of gonum's mat.Matrix that FromMat reads.
type dims struct{ r, c int }

func (d dims) Dims() (int, int)    { return d.r, d.c }
func (d dims) At(i, j int) float64 { return float64(10*i + j) }

func TestFromMat(t *testing.T) {
	m, err := featmap.FromMat(dims{3, 2})
	if err != nil {
		t.Fatal(err)
	}
	if m.Rows != 3 || m.Cols != 2 || m.Row(2)[1] != 21 || m.Row(1)[0] != 10 {
		t.Fatalf("FromMat = %+v", m)
	}
	for _, d := range []dims{{-1, 2}, {2, -1}, {1 << 62, 8}} {
		if _, err := featmap.FromMat(d); !errors.Is(err, featmap.ErrShape) {
			t.Errorf("FromMat(%v): err = %v, want ErrShape", d, err)
		}
	}
}
