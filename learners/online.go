package learners

import (
	"math"
)

// Outcome is what one Update of an online learner (rrf, fogd) saw before
// its step.
type Outcome struct {
	// Prediction is the label (classification) or value (regression)
	// predicted for x before the step.
	Prediction float64
	// Mistake reports a wrong class (always false for regression).
	Mistake bool
	// Loss is the loss of that prediction.
	Loss float64
}

// Stats are an online learner's statistics: the predictions made before
// the step on each sample.
type Stats struct {
	N        int     // samples seen
	Mistakes int     // wrong classes (classification)
	SSE      float64 // Σ (prediction − y)² (regression)
	LossSum  float64 // Σ loss
}

// MistakeRate is Mistakes/N (NaN before the first sample).
func (s Stats) MistakeRate() float64 { return float64(s.Mistakes) / float64(s.N) }

// RMSE is √(SSE/N) (NaN before the first sample).
func (s Stats) RMSE() float64 { return math.Sqrt(s.SSE / float64(s.N)) }

// MeanLoss is LossSum/N.
func (s Stats) MeanLoss() float64 { return s.LossSum / float64(s.N) }
