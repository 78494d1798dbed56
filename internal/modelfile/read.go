package modelfile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// MaxFile bounds a model file ReadAll reads, in bytes. The largest models
// the learners' limits allow stay far below it; it only keeps a hostile
// stream from filling memory.
const MaxFile = 1 << 32

// readError is an error of ReadAll: its own message, wrapping ErrCorrupt.
type readError struct{ msg string }

func (e *readError) Error() string { return e.msg }
func (e *readError) Unwrap() error { return ErrCorrupt }

func readErrorf(format string, a ...any) error { return &readError{fmt.Sprintf(format, a...)} }

// ReadAll reads one model file from r, walking the container's layout
// (magic, format version, header, arrays, checksum): the magic before
// anything else, then every length the container declares before the
// bytes it covers, which come in as they arrive (a declared length is
// never allocated up front), so neither /dev/zero nor a lying header makes
// it read more than the container says it holds, and memory stays
// proportional to the input actually read, at most MaxFile bytes. It does
// not check the checksum or the contents (Parse does). Errors for a
// stream that is not a model file wrap ErrCorrupt; r's own are returned
// as they are.
func ReadAll(r io.Reader) ([]byte, error) {
	var buf bytes.Buffer
	read := func(n uint64, what string) ([]byte, error) {
		if uint64(buf.Len())+n > MaxFile {
			return nil, readErrorf("corrupt model file: %s declares %d bytes, more than the %d-byte limit of a model file", what, n, uint64(MaxFile))
		}
		start := buf.Len()
		got, err := io.CopyN(&buf, r, int64(n))
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil, readErrorf("corrupt model file: truncated: %s needs %d bytes, %d left", what, n, got)
			}
			return nil, err
		}
		return buf.Bytes()[start:], nil
	}
	var magic [len(Magic)]byte
	n, err := io.ReadFull(r, magic[:])
	switch {
	case n > 0 && string(magic[:n]) != Magic[:n]:
		return nil, readErrorf("not an rfkit model file (it does not start with %s)", Magic)
	case n == 0 && err == io.EOF:
		return nil, readErrorf("not an rfkit model file (empty)")
	case err == io.ErrUnexpectedEOF:
		return nil, readErrorf("corrupt model file: truncated: %d bytes, shorter than the magic", n)
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
	if hlen > MaxHeader {
		return nil, readErrorf("corrupt model file: header length %d exceeds the %d-byte limit", hlen, MaxHeader)
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
		if nl == 0 || nl > MaxName {
			return nil, readErrorf("corrupt model file: array %d: name length %d, want 1..%d", i, nl, MaxName)
		}
		if _, err := read(uint64(nl), "an array name"); err != nil {
			return nil, err
		}
		if b, err = read(8, "an element count"); err != nil {
			return nil, err
		}
		elems := le.Uint64(b)
		if elems > MaxFile/8 {
			return nil, readErrorf("corrupt model file: array %d declares %d elements, more than a model file can hold", i, elems)
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
		return nil, readErrorf("corrupt model file: trailing bytes after the checksum")
	}
	return buf.Bytes(), nil
}
