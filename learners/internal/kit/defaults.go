package kit

import "github.com/rfkit/rfkit/learners"

// SetDefault sets *field to def when it holds its zero value: the zero value
// of a Config field selects its documented default, so a learner's
// resolve method is one call per field.
func SetDefault[T comparable](field *T, def T) {
	var zero T
	if *field == zero {
		*field = def
	}
}

// ByTask returns v, or, when v is the zero value (the documented default),
// classify for a classification task (Binary, Multiclass) and regress for
// Regression: the default of a Config field, such as a loss, that depends
// on the task.
func ByTask[T comparable](v T, task learners.Task, classify, regress T) T {
	var zero T
	switch {
	case v != zero:
		return v
	case task == learners.Regression:
		return regress
	}
	return classify
}
