package summary

import (
	"math"
	"testing"
)

func TestMeanSDSE(t *testing.T) {
	// 2, 4, 4, 4, 5, 5, 7, 9: mean 5, squared deviations sum to 32.
	v := []float64{2, 4, 4, 4, 5, 5, 7, 9}
	m, sd := MeanSD(v)
	if m != 5 || math.Abs(sd-math.Sqrt(32.0/7)) > 1e-15 {
		t.Errorf("MeanSD = %v, %v; want 5, √(32/7)", m, sd)
	}
	m, se := MeanSE(v)
	if m != 5 || math.Abs(se-math.Sqrt(32.0/7/8)) > 1e-15 {
		t.Errorf("MeanSE = %v, %v; want 5, √(32/56)", m, se)
	}
	if m, sd := MeanSD([]float64{3}); m != 3 || sd != 0 {
		t.Errorf("one value: %v, %v; want 3, 0", m, sd)
	}
}
