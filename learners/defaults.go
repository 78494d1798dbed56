package learners

// SetDefault sets *field to def when it holds its zero value: the zero value
// of a Config field selects its documented default, so a learner's
// resolve method is one call per field.
func SetDefault[T comparable](field *T, def T) {
	var zero T
	if *field == zero {
		*field = def
	}
}
