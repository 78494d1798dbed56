package gbrff

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners/internal/calib"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
)

// TestCalibrationRecipeWork: each recipe does the work it documents, and
// FitStats counts it: the default's 2 fold models of a quarter of the
// rounds below calibrationLinkRows rows, CalibrationCV's 5 of 4/5, the early-stopping rows
// with Validation (no fold model), the link (no work) from
// calibrationLinkRows rows, and every temperature fit within
// calib.MaxEvals loss evaluations.
func TestCalibrationRecipeWork(t *testing.T) {
	small := noisyLinear(300, 4)
	Xs := featmap.Dense(small.N, small.D, small.X)
	big := noisyLinear(calibrationLinkRows, 5)
	Xb := featmap.Dense(big.N, big.D, big.X)
	cases := []struct {
		name           string
		X              featmap.Matrix
		y              []float64
		cfg            Config
		fits, scored   int
		calibrated     bool
		roundsPerFoldT int
	}{
		{"default, 300 rows", Xs, small.Y, Config{T: 20}, 2, 300, true, 5},
		{"auto, 300 rows", Xs, small.Y, Config{T: 20, Calibration: CalibrationAuto}, 2, 300, true, 5},
		{"cv, 300 rows", Xs, small.Y, Config{T: 20, Calibration: CalibrationCV}, 5, 300, true, 16},
		{"validation", Xs, small.Y, Config{T: 20, Validation: 0.2}, 0, 60, true, 0},
		{"default, 10⁴ rows", Xb, big.Y, Config{T: 2}, 0, 0, false, 0},
		{"none", Xs, small.Y, Config{T: 20, Calibration: CalibrationNone}, 0, 0, false, 0},
	}
	for _, c := range cases {
		var st FitStats
		c.cfg.Stats = &st
		m, err := Fit(context.Background(), c.X, c.y, c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		_, ok := m.Calibration()
		if ok != c.calibrated || st.CalibFits != c.fits || st.CalibScored != c.scored ||
			st.CalibRounds != c.fits*c.roundsPerFoldT || (c.fits > 0) != (st.CalibPasses > 0) {
			t.Errorf("%s: calibrated %v, stats %+v; want calibrated %v, %d fold fits of %d rounds, %d rows scored",
				c.name, ok, st, c.calibrated, c.fits, c.roundsPerFoldT, c.scored)
		}
		if c.calibrated != (st.CalibEvals >= 1) || st.CalibEvals > calib.MaxEvals {
			t.Errorf("%s: %d loss evaluations, want 1 to %d when calibrated, else 0", c.name, st.CalibEvals, calib.MaxEvals)
		}
		if st.Rounds != m.Rounds() && c.cfg.Validation == 0 {
			t.Errorf("%s: Rounds = %d counts the fold models' rounds, want the model's %d", c.name, st.Rounds, m.Rounds())
		}
	}
}

// TestCalibrationEvalsOnData: on the out-of-fold scores of real sets
// (skipped without ../shared/datasets) the temperature fit takes at most
// calib.MaxEvals loss evaluations; the previous loop, which stopped only
// at |g| < 1e-10 on a sum over the rows, ran 1,700 to 2,700 there.
func TestCalibrationEvalsOnData(t *testing.T) {
	for i, name := range []string{"heart", "wdbc", "pima", "australian"} {
		path := filepath.Join(learnertest.DatasetPath(), name, name+".csv")
		if _, err := os.Stat(path); err != nil {
			t.Skipf("%s: %v", name, err)
		}
		ds, err := dataset.LoadCSV(path, dataset.CSVOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for j, recipe := range []string{CalibrationAuto, CalibrationCV} {
			if testing.Short() && (i > 1 || i+j != 1) {
				// -short (the race and qemu stages): each recipe on one
				// set, CalibrationCV (five fold models) on heart, the
				// smallest, and the default on wdbc: 2 of the 8 fits.
				continue
			}
			var st FitStats
			if _, err := Fit(context.Background(), ds.Matrix(), ds.Y, Config{Calibration: recipe, Stats: &st}); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s %s: %d loss evaluations", name, recipe, st.CalibEvals)
			if st.CalibEvals < 1 || st.CalibEvals > calib.MaxEvals {
				t.Errorf("%s %s: %d loss evaluations, want 1 to %d", name, recipe, st.CalibEvals, calib.MaxEvals)
			}
		}
	}
}
