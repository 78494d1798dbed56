package gbrff

import (
	"errors"
	"testing"

	"github.com/rfkit/rfkit/learners"
)

// TestSizeCountsClasses: a multiclass fit is sized at its labels' number
// of classes, not at the bound FitSize must assume without them (vehicle:
// 592 rows, 18 inputs, 4 classes, GBRFF1 at its defaults fits; sized at
// 592 classes it was refused as too large).
func TestSizeCountsClasses(t *testing.T) {
	cfg := Config{Task: learners.Multiclass, Variant: VariantGBRFF1}
	y := make([]float64, 592)
	for i := range y {
		y[i] = float64(i % 4)
	}
	if err := learners.CheckSizeLabels("gbrff", cfg, y, 18, 0); err != nil {
		t.Errorf("4 classes: %v", err)
	}
	if err := learners.CheckSize("gbrff", cfg, len(y), 18, 0); !errors.Is(err, learners.ErrTooLarge) {
		t.Errorf("without the labels (bounded by the rows): err = %v, want ErrTooLarge", err)
	}
}
