package learners

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/rfkit/rfkit/internal/modelfile"
)

// Header is the header of a model file (docs/model-format.md): what a
// program needs to know about a model without loading it.
type Header struct {
	// Format is the container version (1).
	Format int
	// Method is the learner that wrote the file, e.g. "rks".
	Method string
	// Version is the learner's model version (≥ 1).
	Version int
	// Task is the model's task.
	Task Task
	// Labels are the classes of a classifier in increasing order (the two
	// [neg, pos] of a binary model), nil for regression.
	Labels []float64
	// Inputs is the number of inputs d.
	Inputs int
	// Names are the feature names, one per input, or nil.
	Names []string
	// Impute is set when a NaN input is a missing value the model imputes.
	Impute bool
	// Config is the learner's configuration as the file stores it (JSON).
	Config json.RawMessage
	// Meta are the learner's named scalars.
	Meta map[string]float64
}

// ReadHeader reads the header of a model file from r, without the arrays
// and without verifying the checksum (Load does both): the magic, the
// container version and the JSON header, checked as Load checks them. It
// treats r as hostile: it reads at most 14 bytes plus the header length,
// which must be at most 1 MiB, and never more than the file declares.
// Errors wrap ErrCorrupt for a malformed file (and io errors as they come).
func ReadHeader(r io.Reader) (Header, error) {
	var pro [len(modelfile.Magic) + 2 + 4]byte
	n, err := io.ReadFull(r, pro[:])
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return Header{}, fmt.Errorf("learners: ReadHeader: %w", err)
	}
	data := pro[:n]
	if n == len(pro) {
		size := binary.LittleEndian.Uint32(pro[len(modelfile.Magic)+2:])
		if string(pro[:len(modelfile.Magic)]) == modelfile.Magic && size <= modelfile.MaxHeader {
			var b bytes.Buffer
			b.Write(pro[:])
			_, err := io.CopyN(&b, r, int64(size))
			if err != nil && !errors.Is(err, io.EOF) {
				return Header{}, fmt.Errorf("learners: ReadHeader: %w", err)
			}
			data = b.Bytes()
		}
	}
	h, err := modelfile.ReadHeader(data)
	if err != nil {
		return Header{}, fmt.Errorf("learners: ReadHeader: %w", err)
	}
	task, err := ParseTask(h.Task)
	if err != nil { // Validate checked it
		return Header{}, fmt.Errorf("learners: ReadHeader: %w: %v", ErrCorrupt, err)
	}
	return Header{Format: modelfile.FormatVersion, Method: h.Method, Version: h.Version, Task: task,
		Labels: h.Labels, Inputs: h.Inputs, Names: h.Names, Impute: h.Impute, Config: h.Config, Meta: h.Meta}, nil
}
