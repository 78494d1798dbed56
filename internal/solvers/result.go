package solvers

import "fmt"

// Status tells why an iterative solver stopped.
type Status int

const (
	// StatusNone is the zero value; no solver returns it.
	StatusNone Status = iota
	// StatusGradConverged: the gradient norm fell below the gradient tolerance.
	StatusGradConverged
	// StatusFuncConverged: the relative decrease of the objective fell below
	// its tolerance.
	StatusFuncConverged
	// StatusMaxIterations: the iteration limit was reached.
	StatusMaxIterations
	// StatusLineSearchFailure: the line search could not make progress; the
	// best point found is returned.
	StatusLineSearchFailure
)

// Converged reports whether s is one of the convergence statuses.
func (s Status) Converged() bool {
	return s == StatusGradConverged || s == StatusFuncConverged
}

// String returns a short human-readable name of the status.
func (s Status) String() string {
	switch s {
	case StatusNone:
		return "none"
	case StatusGradConverged:
		return "gradient converged"
	case StatusFuncConverged:
		return "function converged"
	case StatusMaxIterations:
		return "max iterations"
	case StatusLineSearchFailure:
		return "line search failure"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// Result is what the iterative minimisers return.
type Result struct {
	// X is the best point found. For LBFGS it aliases an internal buffer that
	// the next Minimize call overwrites: copy it if it must be kept.
	X []float64
	// F is the objective value at X.
	F float64
	// GradNorm is the infinity norm of the gradient at X.
	GradNorm float64
	// Iterations counts accepted iterations.
	Iterations int
	// Evaluations counts calls to the objective function.
	Evaluations int
	// Status tells why the solver stopped.
	Status Status
}
