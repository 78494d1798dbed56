package learners

import (
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
)
