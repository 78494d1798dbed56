package learners

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/rfkit/rfkit/internal/limit"
	"github.com/rfkit/rfkit/internal/modelfile"
)

// ErrTooLarge is wrapped by the error of a Fit (and of CheckSize) whose
// Config states (its FitSize) that it would allocate more than the size bound:
// the fit is refused before anything of that size is allocated.
var ErrTooLarge = errors.New("fit too large")

// Size is what one Fit allocates at its peak, in float64 values (8 bytes
// each; an int or a bool array counts as one value per element, an upper
// bound).
type Size struct {
	// Fixed does not grow with the training rows: the model's parameters
	// and the scratch the Config sizes (frequencies of features × inputs,
	// landmarks × frequencies × inputs, a subsample's kernel matrix, a
	// dictionary of candidate features).
	Fixed float64
	// PerRow is added for each training row: the standardised copy of
	// the inputs, the feature matrix, per-row scores.
	PerRow float64
}

// total is the size of a fit on n rows, in float64 values.
func (s Size) total(n int) float64 { return s.Fixed + float64(n)*s.PerRow }

// sizer is implemented by every learner's Config: FitSize is the Size of
// a Fit with this Config (its defaults resolved as Fit resolves them) on
// n rows of d inputs whose labels take k distinct values (the classes of
// a classifier). It is the one statement of what the
// learner allocates, checked before the allocation by every Fit (through
// the prologue, CheckFit or PrepareWeighted) and by rfkit's -max-size.
type sizer interface {
	FitSize(n, d, k int) Size
}

// countClasses is the k of FitSize: the number of distinct values of y,
// at most modelfile.MaxClasses + 1 (a count above it is an error of the
// fit itself).
func countClasses(y []float64) int {
	seen := make(map[float64]struct{}, 16)
	for _, v := range y {
		seen[v] = struct{}{}
		if len(seen) > modelfile.MaxClasses {
			break
		}
	}
	return len(seen)
}

// WithMaxSize returns a copy of ctx under which a Fit refuses (ErrTooLarge)
// a Config whose Size.Fixed exceeds n float64 values; n ≤ 0 means the
// default bound. A Fit under a context without it uses the default bound
// of 2²⁵ float64 values (256 MiB) for the part of a fit that does not grow
// with the training rows (Size.Fixed), which is also the default of
// rfkit's -max-size.
func WithMaxSize(ctx context.Context, n int64) context.Context {
	return limit.WithMaxSize(ctx, n)
}

// maxTotal bounds the Size on all rows: a fit whose arrays could not be addressed
// (more than MaxInt bytes) is refused whatever the bound.
const maxTotal = float64(math.MaxInt / 8)

// CheckSize returns an error wrapping ErrTooLarge, prefixed with pkg, when
// the Config cfg (its FitSize method, also through a pointer; other values pass) states
// for the labels y (n = len(y) rows, k = the number of distinct labels) of d inputs a
// Size whose Fixed part exceeds limit float64 values (limit ≤ 0:
// the default bound of WithMaxSize) or whose total on the rows cannot be addressed.
func CheckSize(pkg string, cfg any, y []float64, d int, limit int64) error {
	s, ok := cfg.(sizer)
	if !ok {
		return nil
	}
	return checkSize(pkg, s.FitSize(len(y), d, countClasses(y)), len(y), d, limit)
}

// checkSize is CheckSize of the Size s.
func checkSize(pkg string, s Size, n, d int, bound int64) error {
	if bound <= 0 {
		bound = limit.DefaultMaxSize
	}
	switch {
	case !(s.Fixed <= float64(bound)):
		return fmt.Errorf("%s: %w: on %d inputs it would allocate about %.4g float64 values (%s) beside those of the rows, above the bound of %d",
			pkg, ErrTooLarge, d, s.Fixed, bytesPhrase(s.Fixed), bound)
	case !(s.total(n) <= maxTotal):
		return fmt.Errorf("%s: %w: %d rows of %d inputs need about %.4g float64 values (%s), more than can be addressed",
			pkg, ErrTooLarge, n, d, s.total(n), bytesPhrase(s.total(n)))
	}
	return nil
}

// bytesPhrase writes v float64 values in bytes, e.g. "1.2 GB".
func bytesPhrase(v float64) string {
	b := 8 * v
	switch {
	case b >= 1e9:
		return fmt.Sprintf("%.3g GB", b/1e9)
	case b >= 1e6:
		return fmt.Sprintf("%.3g MB", b/1e6)
	}
	return fmt.Sprintf("%.3g kB", b/1e3)
}
