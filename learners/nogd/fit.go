package nogd

import (
	"context"
	"fmt"

	"github.com/rfkit/rfkit/learners/internal/kit"
	"github.com/rfkit/rfkit/learners/internal/ogd"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
)

// Fit standardises X with its statistics (unless Standardize is Disabled)
// and runs Epochs passes of the NOGD rule over seeded permutations (in row
// order if Shuffle is Disabled); the landmarks are the first Budget rows
// of the first pass, and the model has the weights averaged over every
// step. Binary labels may be any two values (smaller → −1). With
// cfg.Resume, Fit continues from that model's state, labels and
// standardisation (see Config.Resume): with Shuffle, Standardize, Calibrate and Search Disabled and one epoch, Fit on the first rows then Fit with Resume on the
// rest gives the same model bytes as Fit on all the rows, and as a
// Learner fed the rows. The loss reported to Progress for each of the
// first B rows is that of score 0, as the Learner's Outcome (they are
// stepped on once the map exists).
//
// Errors: a cancelled ctx, an invalid cfg, bad data, a binary y without
// exactly two classes, Budget above the number of rows (without Resume), a
// Resume model that disagrees with cfg or X or holds no state (version 1),
// a label that is not the model's, a score that overflows, or a Progress
// error (wrapped). The result depends only on the data and cfg, not on
// GOMAXPROCS or the SIMD path. Cost: O(B³) for the map, then
// O(n·B·(d + B)) per epoch; memory O(B² + n·d).
//
// Default fit (kit.SearchFit): unless Search is Disabled it compares
// γ × {1, ¼, 4} and η × {1, ¼, 4}, each when 0 (up to 9 candidates; none
// with Resume) on a held-out half of the rows and fits the best on every
// row; a classifier's probabilities are calibrated on the same half unless
// Calibrate is Disabled. A classifier's candidates run twice the epochs on
// their half, so that they take as many steps as the fit on every row and
// their held-out scores have its scale (see heldOutEpochs). Cost: one fit
// on every row plus, per candidate, one on half the rows (regression:
// about 1 + candidates/2 fits) or twice the epochs on half the rows
// (binary: about 1 + candidates fits). The online Learner (one pass, row
// by row) searches and calibrates nothing.
func Fit(ctx context.Context, X featmap.Matrix, y []float64, cfg Config) (*Model, error) {
	sub := cfg
	sub.Progress = nil
	return kit.SearchFit(ctx, methodName, cfg.Task, X, y, nil, cfg, sub, candidates(cfg, X.Cols), kit.On(cfg.Calibrate, true) && cfg.Resume == nil, cfg.Seed,
		func(ctx context.Context, Xs featmap.Matrix, y, _ []float64, c Config) (*Model, error) {
			c.Epochs = heldOutEpochs(c, Xs.Rows, X.Rows)
			return fit(ctx, Xs, y, c)
		})
}

// heldOutEpochs is the number of epochs of a held-out fit of cfg on m of
// the n training rows: ogd.HeldOutEpochs for a binary fit (the calibrated
// one: on the panel's sonar, 145 training rows and 60 inputs, the log loss
// was 0.722, above the class prior's 0.691, when the held-out half ran one
// pass), cfg.Epochs with Resume and for regression (whose fits are
// compared by RMSE and not calibrated; the panel's regression sets chose
// the same candidates with matched steps).
func heldOutEpochs(cfg Config, m, n int) int {
	return ogd.HeldOutEpochs(cfg.Epochs, m, n, cfg.Resume == nil && cfg.Task == learners.Binary)
}

// fit is Fit without the calibration.
func fit(ctx context.Context, X featmap.Matrix, y []float64, cfg Config) (*Model, error) {
	rounds := kit.NewRounds(ctx, cfg.Progress, methodName, methodName, 0)
	if err := kit.CheckFit(ctx, methodName, cfg, X, y); err != nil {
		return nil, err
	}
	n, d := X.Rows, X.Cols
	var l *Learner
	var err error
	t := y
	if cfg.Resume != nil {
		if l, err = kit.ResumeFit(methodName, X, cfg, cfg.Resume, resumed); err != nil {
			return nil, err
		}
		if t, err = kit.Targets(methodName, y, l.target); err != nil {
			return nil, err
		}
	} else {
		c := cfg
		if c.Task == learners.Binary {
			if t, c.Labels, err = learners.BinaryLabels(y); err != nil {
				return nil, fmt.Errorf("nogd: %w", err)
			}
		}
		if c.Budget == 0 {
			c.Budget = min(defaultBudget, n)
		}
		if c.Budget > n {
			return nil, fmt.Errorf("nogd: Budget = %d landmarks, more than the %d training rows", c.Budget, n)
		}
		if l, err = NewLearner(d, c); err != nil {
			return nil, err
		}
	}
	xs, err := l.FitRows(X, cfg.Resume == nil && kit.On(cfg.Standardize, true))
	if err != nil {
		return nil, err
	}
	const stream = 0x6e6f6764 // "nogd"
	if err := l.FitSteps(rounds, l.cfg.Seed, stream, xs, t, l.cfg.Epochs, kit.On(l.cfg.Shuffle, true), l.learn); err != nil {
		return nil, err
	}
	return l.Snapshot(), nil
}

// candidates are the settings the default Fit compares on held-out rows
// (kit.SearchFit), none with Resume: γ times each of
// kit.GammaFactors when Gamma is 0, and η times 1, ¼ and 4 when Eta
// is 0 (the defaults first, left at 0 so that they resolve as before).
func candidates(cfg Config, d int) []kit.Setting[Config] {
	if !kit.On(cfg.Search, true) {
		return nil
	}
	if cfg.Resume != nil || d <= 0 {
		return nil
	}
	return kit.Grid(
		kit.GammaOptions(cfg.Gamma, d, func(c *Config, g float64) { c.Gamma = g }),
		kit.ScaleOptions(cfg.Eta, defaultEta, func(c *Config, e float64) { c.Eta = e }, 1, 0.25, 4))
}
