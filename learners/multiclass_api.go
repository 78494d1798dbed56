package learners

// Multiclass is classification into three or more classes. Labels are
// finite values (the command takes integers); Predict returns one of them,
// the class of largest probability.
const Multiclass Task = 2

// ClassModel is a classifier's model (Binary or Multiclass) as the command
// and package cv see it.
type ClassModel interface {
	Model
	// Classes returns the class labels in increasing order: two for a
	// binary model, K for a multiclass one. The caller must not modify it.
	Classes() []float64
	// Probabilities writes into dst, len(dst) == len(Classes()), the
	// probability of each class for the row x, in the order of Classes;
	// they sum to 1. Errors wrap ErrShape or ErrNotFinite; it allocates
	// nothing.
	Probabilities(dst, x []float64) error
}
