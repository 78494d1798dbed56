// Package modelfile is the versioned binary container every rfkit learner
// stores its models in.
//
// Layout (all integers and floats little-endian):
//
//	magic          8 bytes  "RFKITMDL"
//	format         uint16   FormatVersion (1)
//	header length  uint32   at most MaxHeader
//	header         JSON     Header
//	array count    uint32
//	per array:     uint16 name length (1..MaxName), name bytes,
//	               uint64 element count, count float64 values
//	checksum       uint32   CRC-32 (IEEE) of every preceding byte
//
// The header names the learner ("method"), the learner's own model version,
// its configuration as JSON, the task, the two original class labels of a
// binary model, the input dimension, optionally the feature names (one per
// input; the field is omitted when there are none, so files without names
// have the bytes they had before names existed) and a free map of small
// scalars. The
// arrays hold everything else (sampled frequencies, weights, scaler
// statistics) in the order the learner added them.
//
// Parse treats its input as hostile: it never panics, checks every length
// against the bytes that remain before allocating, so memory stays
// proportional to len(data), and reports each defect with an error wrapping
// ErrCorrupt.
package modelfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/rfkit/rfkit/internal/xmath"
)

const (
	// Magic opens every model file.
	Magic = "RFKITMDL"
	// FormatVersion is the container version written and accepted.
	FormatVersion = 1
	// MaxHeader bounds the JSON header, in bytes.
	MaxHeader = 1 << 20
	// MaxName bounds an array name, in bytes.
	MaxName = 256
	// MaxFeatureName bounds a feature name, in bytes.
	MaxFeatureName = 256
)

// Tasks as spelled in Header.Task.
const (
	TaskBinary     = "binary"
	TaskRegression = "regression"
	TaskMulticlass = "multiclass"
)

// CalibratedVersion is added to a model file's version when the file
// holds a probability calibration (the array "calibration"): a file of
// version CalibratedVersion + v is a version-v model of its learner plus
// the calibration. Builds older than the calibration refuse such a file
// (its version is newer than they read) instead of silently giving the
// uncalibrated probabilities; files without a calibration keep their
// version and bytes.
const CalibratedVersion = 100

// MaxClasses bounds the class labels of a multiclass model.
const MaxClasses = 1 << 12

// ErrCorrupt is wrapped by every error Parse and ReadHeader return for
// malformed input.
var ErrCorrupt = errors.New("modelfile: corrupt model file")

// Header is the JSON header of a model file.
type Header struct {
	// Method is the registered learner name, e.g. "rks".
	Method string `json:"method"`
	// Version is the learner's model version (≥ 1), so a learner can read
	// the files of its older releases.
	Version int `json:"version"`
	// Config is the learner's Config marshalled as JSON.
	Config json.RawMessage `json:"config,omitempty"`
	// Task is TaskBinary, TaskRegression or TaskMulticlass.
	Task string `json:"task"`
	// Labels holds the original class labels [neg, pos], neg < pos, of a
	// binary model, the K ≥ 3 labels in increasing order of a multiclass
	// one, and is empty for regression.
	Labels []float64 `json:"labels,omitempty"`
	// Inputs is the input dimension d (> 0).
	Inputs int `json:"inputs"`
	// Meta holds small named scalars, e.g. an intercept. JSON cannot
	// represent NaN or ±Inf, so they are always finite.
	Meta map[string]float64 `json:"meta,omitempty"`
	// Impute is set when the model replaces a missing (NaN) input by its
	// training mean (the learners' Missing = impute). Omitted when false,
	// so other files keep their bytes; a build that predates it ignores
	// it, and its checked predictions then report a NaN input as an error.
	Impute bool `json:"impute,omitempty"`
	// Names holds the feature names, one per input, when the training data
	// had them (a CSV header). Omitted when empty, so files without names
	// keep the bytes of the builds before names existed, and those builds
	// (which ignore unknown header fields) still read files with names.
	Names []string `json:"names,omitempty"`
}

// Validate reports a header that no learner could have written.
func (h *Header) Validate() error {
	switch {
	case h.Method == "":
		return errors.New("header has no method")
	case h.Version < 1:
		return fmt.Errorf("header: model version %d, want ≥ 1", h.Version)
	case h.Inputs <= 0:
		return fmt.Errorf("header: %d inputs, want > 0", h.Inputs)
	}
	switch h.Task {
	case TaskBinary:
		if len(h.Labels) != 2 || !xmath.Finite(h.Labels[0]) || !xmath.Finite(h.Labels[1]) || !(h.Labels[0] < h.Labels[1]) {
			return fmt.Errorf("header: binary labels %v, want two finite values [neg, pos] with neg < pos", h.Labels)
		}
	case TaskRegression:
		if len(h.Labels) != 0 {
			return fmt.Errorf("header: regression model with labels %v", h.Labels)
		}
	case TaskMulticlass:
		if len(h.Labels) < 3 || len(h.Labels) > MaxClasses {
			return fmt.Errorf("header: multiclass model with %d labels, want 3..%d", len(h.Labels), MaxClasses)
		}
		for k, v := range h.Labels {
			if !xmath.Finite(v) || (k > 0 && !(h.Labels[k-1] < v)) {
				return fmt.Errorf("header: multiclass labels must be finite and increasing (label %d is %v)", k, v)
			}
		}
	default:
		return fmt.Errorf("header: task %q, want %q, %q or %q", h.Task, TaskBinary, TaskMulticlass, TaskRegression)
	}
	if err := ValidateNames(h.Names, h.Inputs); err != nil {
		return fmt.Errorf("header: %w", err)
	}
	return nil
}

// ValidateNames checks feature names for a model of the given number of
// inputs: none at all, or exactly one per input, each a non-empty valid
// UTF-8 string of at most MaxFeatureName bytes, no two alike. (Invalid
// UTF-8 is refused because JSON would silently replace it, and the names
// read back would then differ from the ones written.)
func ValidateNames(names []string, inputs int) error {
	if len(names) == 0 {
		return nil
	}
	if len(names) != inputs {
		return fmt.Errorf("%d feature names for %d inputs", len(names), inputs)
	}
	seen := make(map[string]int, len(names))
	for k, s := range names {
		switch {
		case s == "":
			return fmt.Errorf("feature name %d is empty", k)
		case len(s) > MaxFeatureName:
			return fmt.Errorf("feature name %d is %d bytes long, limit %d", k, len(s), MaxFeatureName)
		case !utf8.ValidString(s):
			return fmt.Errorf("feature name %d is not valid UTF-8", k)
		}
		if j, dup := seen[s]; dup {
			return fmt.Errorf("feature names %d and %d are both %q", j, k, s)
		}
		seen[s] = k
	}
	return nil
}

// Array is one named vector of a model file.
type Array struct {
	Name string
	Data []float64
}

// File is a parsed or to-be-written model file.
type File struct {
	Header Header
	Arrays []Array // in file order; names are unique
}

// Add appends an array (the slice is not copied).
func (f *File) Add(name string, data []float64) {
	f.Arrays = append(f.Arrays, Array{Name: name, Data: data})
}

// Array returns the array called name, checking that it has wantLen
// elements (any length if wantLen < 0). The errors wrap ErrCorrupt.
func (f *File) Array(name string, wantLen int) ([]float64, error) {
	for _, a := range f.Arrays {
		if a.Name != name {
			continue
		}
		if wantLen >= 0 && len(a.Data) != wantLen {
			return nil, fmt.Errorf("%w: array %q has %d elements, want %d", ErrCorrupt, name, len(a.Data), wantLen)
		}
		return a.Data, nil
	}
	return nil, fmt.Errorf("%w: no array %q", ErrCorrupt, name)
}

// Meta returns the header scalar called name. The error wraps ErrCorrupt.
func (f *File) Meta(name string) (float64, error) {
	v, ok := f.Header.Meta[name]
	if !ok {
		return 0, fmt.Errorf("%w: no meta value %q", ErrCorrupt, name)
	}
	return v, nil
}
