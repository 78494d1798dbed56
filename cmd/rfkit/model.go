package main

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/cv"
)

// loadedModel is a model file read by loadModel.
type loadedModel struct {
	learners.Model
	file *modelfile.File // the parsed container (header and arrays)
	size int             // bytes
}

// classes returns the class labels of a classifier: the model's own
// (cv.ClassesOf), else the "classes" array of a multiclass model file, else
// the header's two labels; nil for regression.
func (m *loadedModel) classes() []float64 {
	if m.Task() == learners.Regression {
		return nil
	}
	if c := cv.ClassesOf(m.Model); c != nil {
		return c
	}
	if c, err := m.file.Array("classes", -1); err == nil && len(c) > 0 {
		return c
	}
	return m.file.Header.Labels
}

// loadModel reads a model file written by any linked-in learner. The file
// is read as a stream (so a pipe works) and checked on the way: the magic
// before anything else, then every length the container declares before
// the bytes it covers are read, so neither /dev/zero nor a lying header
// makes the command read more than the container says it holds. The
// checksum is verified before the learner named in the header decodes it.
func loadModel(path string) (*loadedModel, error) {
	if path == "" {
		return nil, usagef("-model is required")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := learners.ReadModel(bufio.NewReader(f))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	mf, err := modelfile.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %s", path, loadError(err))
	}
	if _, err := learners.Lookup(mf.Header.Method); err != nil {
		return nil, fmt.Errorf("%s: a %q model, and this build has no such method (methods: %s)", path, mf.Header.Method, strings.Join(methodNames(), ", "))
	}
	m, err := learners.Load(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %s", path, loadError(err))
	}
	return &loadedModel{Model: m, file: mf, size: len(data)}, nil
}

// goValue matches a Go struct or map printed with %v ("{T:0 Gamma:1 …}" or
// "map[…]"), which says nothing to a user.
var goValue = regexp.MustCompile(`\s*(\{[^{}]*\}|map\[[^\[\]]*\])`)

// loadError is the text of a model load error for the user: one
// "corrupt model file:" prefix (the learners and the container each add
// theirs), no package names, no Go values.
func loadError(err error) string {
	s := err.Error()
	for _, p := range []string{"learners: ", "modelfile: "} {
		s = strings.ReplaceAll(s, p, "")
	}
	const corrupt = "corrupt model file: "
	if strings.Contains(s, corrupt) {
		s = corrupt + strings.ReplaceAll(s, corrupt, "")
	}
	return goValue.ReplaceAllString(s, "")
}
