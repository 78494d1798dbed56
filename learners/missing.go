package learners

import "fmt"

// Missing is a learner's policy for missing inputs, spelled NaN: the
// Config field Missing of the learners that take it, read by Prepare and
// stored in the model (Common.Impute).
//
//   - MissingError (the zero value): training on a NaN input is an error;
//     a fitted model's checked paths (PredictChecked, the batch forms,
//     Probabilities) return a *RowError wrapping ErrNotFinite for a NaN
//     input, and the unchecked ones (Predict, Score, Probability) use the
//     training mean for it, so Predict never returns a NaN label.
//   - MissingImpute: a NaN input is a missing value on every path. Fit
//     computes each input's mean and scale over the values present and
//     replaces a missing value by the mean, 0 after the standardisation;
//     the model does the same at predict time and its checked paths accept
//     NaN (±Inf remains an error). A column with no value at all is an
//     error.
type Missing int

const (
	// MissingError refuses NaN inputs (the default).
	MissingError Missing = iota
	// MissingImpute replaces a NaN input by the training mean.
	MissingImpute
)

// String returns "error" or "impute".
func (m Missing) String() string {
	switch m {
	case MissingError:
		return "error"
	case MissingImpute:
		return "impute"
	}
	return fmt.Sprintf("Missing(%d)", int(m))
}

// MarshalText implements encoding.TextMarshaler.
func (m Missing) MarshalText() ([]byte, error) {
	if m != MissingError && m != MissingImpute {
		return nil, fmt.Errorf("invalid missing-value policy %d", int(m))
	}
	return []byte(m.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler: "error" or "impute".
func (m *Missing) UnmarshalText(b []byte) error {
	switch string(b) {
	case "error":
		*m = MissingError
	case "impute":
		*m = MissingImpute
	default:
		return fmt.Errorf("unknown missing-value policy %q (want %q or %q)", b, "error", "impute")
	}
	return nil
}
