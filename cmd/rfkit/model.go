package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/cv"
)

// maxModelBytes bounds a model file the command reads. The largest models
// the methods' limits allow (65536 frequencies of a few thousand inputs)
// stay far below it; it only keeps a hostile stream from filling memory.
const maxModelBytes = 1 << 32

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
	data, err := readModelBytes(bufio.NewReader(f))
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

// readModelBytes reads one model file from r, walking the container's
// layout (see package modelfile): magic, format version, header, arrays,
// checksum. It reads only what the lengths declare, and the bytes come in
// as they arrive (a declared length is never allocated up front), so memory
// stays proportional to the input actually read.
func readModelBytes(r io.Reader) ([]byte, error) {
	var buf bytes.Buffer
	read := func(n uint64, what string) ([]byte, error) {
		if uint64(buf.Len())+n > maxModelBytes {
			return nil, fmt.Errorf("corrupt model file: %s declares %d bytes, more than the %d-byte limit of a model file", what, n, uint64(maxModelBytes))
		}
		start := buf.Len()
		got, err := io.CopyN(&buf, r, int64(n))
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil, fmt.Errorf("corrupt model file: truncated: %s needs %d bytes, %d left", what, n, got)
			}
			return nil, err
		}
		return buf.Bytes()[start:], nil
	}
	var magic [len(modelfile.Magic)]byte
	n, err := io.ReadFull(r, magic[:])
	switch {
	case n > 0 && string(magic[:n]) != modelfile.Magic[:n]:
		return nil, errors.New("not an rfkit model file (it does not start with " + modelfile.Magic + ")")
	case n == 0 && err == io.EOF:
		return nil, errors.New("not an rfkit model file (empty)")
	case err == io.ErrUnexpectedEOF:
		return nil, fmt.Errorf("corrupt model file: truncated: %d bytes, shorter than the magic", n)
	case err != nil:
		return nil, err
	}
	buf.Write(magic[:])
	le := binary.LittleEndian
	if _, err := read(2, "the format version"); err != nil {
		return nil, err
	}
	b, err := read(4, "the header length")
	if err != nil {
		return nil, err
	}
	hlen := le.Uint32(b)
	if hlen > modelfile.MaxHeader {
		return nil, fmt.Errorf("corrupt model file: header length %d exceeds the %d-byte limit", hlen, modelfile.MaxHeader)
	}
	if _, err := read(uint64(hlen), "the header"); err != nil {
		return nil, err
	}
	if b, err = read(4, "the array count"); err != nil {
		return nil, err
	}
	count := le.Uint32(b)
	for i := uint32(0); i < count; i++ {
		if b, err = read(2, "an array name length"); err != nil {
			return nil, err
		}
		nl := le.Uint16(b)
		if nl == 0 || nl > modelfile.MaxName {
			return nil, fmt.Errorf("corrupt model file: array %d: name length %d, want 1..%d", i, nl, modelfile.MaxName)
		}
		if _, err := read(uint64(nl), "an array name"); err != nil {
			return nil, err
		}
		if b, err = read(8, "an element count"); err != nil {
			return nil, err
		}
		elems := le.Uint64(b)
		if elems > maxModelBytes/8 {
			return nil, fmt.Errorf("corrupt model file: array %d declares %d elements, more than a model file can hold", i, elems)
		}
		if _, err := read(8*elems, "an array"); err != nil {
			return nil, err
		}
	}
	if _, err := read(4, "the checksum"); err != nil {
		return nil, err
	}
	var one [1]byte
	if k, _ := io.ReadFull(r, one[:]); k > 0 {
		return nil, errors.New("corrupt model file: trailing bytes after the checksum")
	}
	return buf.Bytes(), nil
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
