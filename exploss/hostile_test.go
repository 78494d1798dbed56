package exploss

import (
	"errors"
	"math"
	"testing"
)

// Hostile sizes give ErrShape, never a panic or an allocation that ends the
// process (adversarial review, C1).
func TestHostileSizes(t *testing.T) {
	X := make([]float64, 16)
	for _, s := range [][3]int{{1 << 62, 4, 4}, {4, 4, math.MaxInt / 2}, {math.MaxInt, 1, 1}, {4, 4, 3}} {
		if _, err := NewData(X, s[0], s[1], s[2]); !errors.Is(err, ErrShape) {
			t.Errorf("NewData(n %d, d %d, stride %d): %v, want ErrShape", s[0], s[1], s[2], err)
		}
	}
	x, err := NewData(X, 4, 4, 4)
	if err != nil {
		t.Fatal(err)
	}
	y := make([]float64, 4)
	for _, K := range []int{1 << 40, math.MaxInt, 0, -1} {
		if _, err := NewLandmark(x, make([]float64, 4), K, y); !errors.Is(err, ErrShape) {
			t.Errorf("NewLandmark(K %d): %v, want ErrShape", K, err)
		}
	}
	if _, err := NewLandmark(nil, nil, 1, y); !errors.Is(err, ErrShape) {
		t.Errorf("NewLandmark(nil): %v, want ErrShape", err)
	}
	if _, err := NewLandmark(x, make([]float64, 8), 2, y); err != nil {
		t.Errorf("NewLandmark(K 2): %v", err)
	}
}
