package learners

// Bounds of the numeric Config fields that have no tighter bound of their
// own. They are far beyond any useful setting and keep every later step
// finite: γ·x² or η·z or λ·w cannot overflow where the arithmetic that
// follows would turn it into ±Inf or NaN and fail with an error about the
// data instead of the parameter.
const (
	// MaxParam bounds a positive real hyperparameter (a bandwidth γ, a
	// regularisation λ, a step η, a tolerance, a cost C).
	MaxParam = 1e6
	// MaxCount bounds a count (epochs, iterations, rounds, patience, a
	// batch size).
	MaxCount = 1_000_000
	// MaxThreads bounds a goroutine limit.
	MaxThreads = 1 << 12
)
