package learners

import (
	"errors"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/modelfile"
)

// The sentinel errors every learner wraps, so callers can test them with
// errors.Is whichever learner they use.
var (
	// ErrCorrupt is wrapped by every error Load, UnmarshalBinary and
	// ReadFrom return for malformed, truncated or hostile model files. It
	// is the same value as the container's own sentinel, so errors from
	// the parser and from a learner's parameter checks both match it.
	ErrCorrupt = modelfile.ErrCorrupt
	// ErrShape is wrapped by every error PredictBatch, ScoreBatch and
	// ProbabilityBatch return for a matrix or destination of the wrong
	// shape (the same value as featmap.ErrShape).
	ErrShape = featmap.ErrShape
	// ErrNotFinite is wrapped by the errors of PredictChecked and of the
	// batch methods for a row that has a NaN or ±Inf input, or whose
	// prediction or score is not finite (a row of finite but extreme
	// values such as 1e308 overflows the features). The message names
	// the row; Predict and Score return NaN for such a row instead.
	ErrNotFinite = errors.New("not finite")
)
