package learners

import (
	"fmt"
	"strings"
)

// FitStats is what a Fit learned about its own fit beside the model: the
// held-out check of the split of SearchFit (the calibration's and the
// search's). It is not stored in the model file. Every learner's model
// returns it from its FitStats method (zero for a loaded model).
type FitStats struct {
	// HeldOutRows is the number of held-out training rows the check was
	// made on (0: no check was made, the other fields are 0).
	HeldOutRows int
	// Metric is "accuracy" (classification, higher is better) or "RMSE"
	// (regression, lower is better).
	Metric string
	// HeldOut is the Metric, on the held-out rows, of the chosen
	// configuration fitted on the other training rows.
	HeldOut float64
	// Baseline is the Metric on the same rows of the trivial predictor:
	// always the majority class of the other rows (the class prior), or
	// their mean target.
	Baseline float64
	// BelowBaseline is set when HeldOut is worse than Baseline: at this
	// data size and configuration the learner is worse than the trivial
	// predictor, and its configuration should be changed.
	BelowBaseline bool
	// Candidates is the number of configurations the fit compared on the
	// held-out rows (1: none was searched).
	Candidates int
}

// String is the check as the command's summary line prints it.
func (s FitStats) String() string {
	if s.HeldOutRows == 0 {
		return ""
	}
	what, base := "accuracy", "class prior"
	if s.Metric == "RMSE" {
		what, base = "RMSE", "mean predictor"
	}
	v := fmt.Sprintf("held-out %s %.4g (%s %.4g, %d rows", what, s.HeldOut, base, s.Baseline, s.HeldOutRows)
	if s.Candidates > 1 {
		v += fmt.Sprintf(", best of %d settings", s.Candidates)
	}
	v += ")"
	if s.BelowBaseline {
		v += "; WORSE THAN THE " + strings.ToUpper(base) + ": change the configuration"
	}
	return v
}
