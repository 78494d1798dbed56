package learners

import (
	"context"
	"errors"
	"fmt"
	"math"
)

// ErrTooLarge is wrapped by the error of a Fit (and of CheckSize) whose
// Config states (Sizer) that it would allocate more than the size bound:
// the fit is refused before anything of that size is allocated.
var ErrTooLarge = errors.New("fit too large")

// DefaultMaxSize is the size bound of a Fit when its context sets none
// (WithMaxSize): 2²⁵ float64 values (256 MiB) for the part of a fit that
// does not grow with the training rows (Size.Fixed). It is also the
// default of rfkit's -max-size.
const DefaultMaxSize = 1 << 25

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

// Total is the size of a fit on n rows, in float64 values.
func (s Size) Total(n int) float64 { return s.Fixed + float64(n)*s.PerRow }

// Sizer is implemented by every learner's Config: FitSize is the Size of
// a Fit with this Config (its defaults resolved as Fit resolves them) on
// n rows of d inputs whose labels take k distinct values (the classes of
// a classifier; CountClasses). It is the one statement of what the
// learner allocates, checked before the allocation by every Fit (through
// the prologue, CheckFit or PrepareWeighted) and by rfkit's -max-size.
type Sizer interface {
	FitSize(n, d, k int) Size
}

// CountClasses is the k of FitSize: the number of distinct values of y,
// at most MaxClasses + 1 (a count above MaxClasses is an error of the
// fit itself).
func CountClasses(y []float64) int {
	seen := make(map[float64]struct{}, 16)
	for _, v := range y {
		seen[v] = struct{}{}
		if len(seen) > MaxClasses {
			break
		}
	}
	return len(seen)
}

type maxSizeKey struct{}

// WithMaxSize returns a copy of ctx under which a Fit refuses (ErrTooLarge)
// a Config whose Size.Fixed exceeds n float64 values; n ≤ 0 means
// DefaultMaxSize. A Fit under a context without it uses DefaultMaxSize.
func WithMaxSize(ctx context.Context, n int64) context.Context {
	return context.WithValue(ctx, maxSizeKey{}, n)
}

// MaxSize returns the size bound of ctx (WithMaxSize), DefaultMaxSize when
// it sets none.
func MaxSize(ctx context.Context) int64 {
	if n, ok := ctx.Value(maxSizeKey{}).(int64); ok && n > 0 {
		return n
	}
	return DefaultMaxSize
}

// maxTotal bounds Size.Total: a fit whose arrays could not be addressed
// (more than MaxInt bytes) is refused whatever the bound.
const maxTotal = float64(math.MaxInt / 8)

// CheckSize returns an error wrapping ErrTooLarge, prefixed with pkg, when
// the Config cfg (a Sizer, or a pointer to one; other values pass) states
// for the labels y (n = len(y) rows, k = CountClasses(y)) of d inputs a
// Size whose Fixed part exceeds limit float64 values (limit ≤ 0:
// DefaultMaxSize) or whose Total cannot be addressed.
func CheckSize(pkg string, cfg any, y []float64, d int, limit int64) error {
	s, ok := cfg.(Sizer)
	if !ok {
		return nil
	}
	return checkSize(pkg, s.FitSize(len(y), d, CountClasses(y)), len(y), d, limit)
}

// checkSize is CheckSize of the Size s.
func checkSize(pkg string, s Size, n, d int, limit int64) error {
	if limit <= 0 {
		limit = DefaultMaxSize
	}
	switch {
	case !(s.Fixed <= float64(limit)):
		return fmt.Errorf("%s: %w: on %d inputs it would allocate about %.4g float64 values (%s) beside those of the rows, above the bound of %d",
			pkg, ErrTooLarge, d, s.Fixed, bytesPhrase(s.Fixed), limit)
	case !(s.Total(n) <= maxTotal):
		return fmt.Errorf("%s: %w: %d rows of %d inputs need about %.4g float64 values (%s), more than can be addressed",
			pkg, ErrTooLarge, n, d, s.Total(n), bytesPhrase(s.Total(n)))
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
