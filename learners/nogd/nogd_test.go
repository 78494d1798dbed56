package nogd_test

import (
	"math"
	"testing"

	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
	"github.com/rfkit/rfkit/learners/nogd"
)

// TestLandmarksAreFirstRows: with Shuffle off the landmarks are the first
// Budget standardised rows, and the default Budget shrinks to n on small
// data while an explicit one above n is an error.
func TestLandmarksAreFirstRows(t *testing.T) {
	X, y := learnertest.Rings(30, 0, 0, 1, 5)
	m := learnertest.MustFit(t, nogd.Fit, X, y, nogd.Config{Shuffle: learners.Disabled})
	if m.Config().Budget != 30 {
		t.Errorf("default budget on 30 rows resolved to %d", m.Config().Budget)
	}
	m = learnertest.MustFit(t, nogd.Fit, X, y, nogd.Config{Budget: 4, Shuffle: learners.Disabled})
	f := learnertest.Parsed(t, m)
	mean, _ := f.Array("mean", -1)
	scale, _ := f.Array("scale", -1)
	land, _ := f.Array("landmarks", -1)
	d := X.Cols
	for i := 0; i < 4; i++ {
		for k := 0; k < d; k++ {
			if want := (X.Row(i)[k] - mean[k]) / scale[k]; math.Abs(land[i*d+k]-want) > 1e-12 {
				t.Fatalf("landmark %d input %d = %v, want row %d's %v", i, k, land[i*d+k], i, want)
			}
		}
	}
}

// TestLoadErrors: a NaN landmark (the missing, short and invalid parts of
// a model file are the FileErrors checks of the conformance suite).
func TestLoadErrors(t *testing.T) {
	X, y := learnertest.Rings(30, 0, 0, 1, 3)
	good := learnertest.Bytes(t, learnertest.MustFit(t, nogd.Fit, X, y, nogd.Config{Budget: 10}))
	learnertest.LoadErrors(t, "nogd: ", nogd.Load, []learnertest.LoadCase{
		{Name: "NaN landmark", Data: learnertest.Rewrite(t, good, func(f *modelfile.File) {
			v := make([]float64, 20)
			v[3] = math.NaN()
			learnertest.SetArray(f, "landmarks", v)
		}), Want: `"landmarks": element 3 is NaN`},
	})
}
