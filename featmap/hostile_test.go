package featmap

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/internal/limit"
)

// Hostile shapes and sizes give errors, never a panic or an allocation
// that ends the process (adversarial review, C1 and H4).
func TestHostileShapesAndSizes(t *testing.T) {
	data := make([]float64, 52)
	for _, X := range []Matrix{
		{Rows: 4, Cols: 13, Stride: math.MaxInt / 2, Data: data},
		{Rows: 4, Cols: 13, Stride: 13, Data: data[:20]},
		{Rows: 4, Cols: 13, Stride: 2, Data: data},
		{Rows: -1, Cols: 13, Stride: 13, Data: data},
	} {
		if err := X.Check(); !errors.Is(err, ErrShape) {
			t.Errorf("Check: %v, want ErrShape", err)
		} else if n := strings.Count(err.Error(), "featmap:"); n != 1 {
			t.Errorf("Check: %q: the prefix %d times, want once", err, n)
		}
	}
	m, err := NewRFF(RFFConfig{Inputs: 13, Features: 4, Gamma: 1})
	if err != nil {
		t.Fatal(err)
	}
	huge := Matrix{Rows: 4, Cols: 13, Stride: math.MaxInt / 2, Data: data}
	if err := m.Combine(make([]float64, 4), huge, make([]float64, m.Outputs())); !errors.Is(err, ErrShape) {
		t.Errorf("Combine: %v, want ErrShape", err)
	}
	if err := m.Transform(Dense(4, m.Outputs(), make([]float64, 4*m.Outputs())), huge); err == nil {
		t.Error("Transform of a huge stride: no error")
	}
	for _, c := range []RFFConfig{
		{Inputs: 2, Features: 1 << 40, Gamma: 1},
		{Inputs: 1 << 40, Features: 1 << 40, Gamma: 1},
		{Inputs: math.MaxInt, Features: 2, Gamma: 1},
		{Inputs: 1 << 20, Features: 1, Gamma: 1, Orthogonal: true},
	} {
		if _, err := NewRFF(c); err == nil {
			t.Errorf("NewRFF(%+v): no error", c)
		}
	}
	for _, s := range [][2]int{{2, 1 << 40}, {1 << 32, 1 << 32}, {math.MaxInt, math.MaxInt}} {
		if _, err := NewRFFFromWeights(nil, nil, s[0], s[1], true); err == nil {
			t.Errorf("NewRFFFromWeights(%d, %d): no error", s[0], s[1])
		}
	}
	if err := limit.CheckElements(1<<14, 1<<14); err != nil {
		t.Errorf("CheckSize at the bound: %v", err)
	}
	if err := limit.CheckElements(1<<14, 1<<14+1); err == nil {
		t.Error("CheckSize above the bound: no error")
	}
}
