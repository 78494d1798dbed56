// Package limit holds the bounds the learners enforce on their numeric
// Config fields, on a fit's size and on a model's feature names. They are
// facts of the module's own checks; a user meets them in the errors that
// name them.
package limit

import (
	"context"
	"fmt"

	"github.com/rfkit/rfkit/internal/modelfile"
)

// Bounds of the numeric Config fields that have no tighter bound of their
// own. They are far beyond any useful setting and keep every later step
// finite: γ·x² or η·z or λ·w cannot overflow where the arithmetic that
// follows would turn it into ±Inf or NaN and fail with an error about the
// data instead of the parameter.
const (
	// Param bounds a positive real hyperparameter (a bandwidth γ, a
	// regularisation λ, a step η, a tolerance, a cost C).
	Param = 1e6
	// Count bounds a count (epochs, iterations, rounds, patience, a
	// batch size, the shuffles of a permutation importance).
	Count = 1_000_000
	// Threads bounds a goroutine limit.
	Threads = 1 << 12
)

// NamesBytes bounds the JSON encoding of a model's feature names, so that
// they always fit the model file's header.
const NamesBytes = modelfile.MaxHeader / 2

// DefaultMaxSize is the size bound of a Fit when its context sets none
// (learners.WithMaxSize), in float64 values, and the default of rfkit's
// -max-size.
const DefaultMaxSize = 1 << 25

// DefaultRepeats is the number of shuffles per input of a permutation
// importance whose Repeats is 0, and the default of rfkit importance's
// -repeats.
const DefaultRepeats = 5

type maxSizeKey struct{}

// WithMaxSize returns a copy of ctx whose size bound is n (n ≤ 0:
// DefaultMaxSize).
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

// Elements bounds the size of a feature map's weight matrix, Inputs ×
// Features (2²⁸ values, 2 GiB): larger maps are refused by featmap.NewRFF
// and NewRFFFromWeights with an error instead of exhausting memory.
const Elements = 1 << 28

// Landmarks bounds featmap.NystromConfig.Landmarks: the eigendecomposition
// costs about 4.3·m³ multiply–adds (measured 0.10 s at m = 200, 1.2 s at
// m = 500 and 9.8 s at m = 1000 on one busy core), and m·m must stay
// within Elements.
const Landmarks = 1 << 13

// CheckElements reports inputs × features out of 1..Elements (each factor
// positive and the product without overflow).
func CheckElements(inputs, features int) error {
	switch {
	case inputs <= 0 || features <= 0:
		return fmt.Errorf("featmap: %d inputs × %d features: both must be positive", inputs, features)
	case features > Elements/inputs:
		return fmt.Errorf("featmap: %d inputs × %d features is more than %d weights", inputs, features, Elements)
	}
	return nil
}
