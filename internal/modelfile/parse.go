package modelfile

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"math"

	"github.com/rfkit/rfkit/internal/xmath"
)

// Options configures parsing. The zero value is the strict default used by
// Parse.
type Options struct {
	// AllowNonFinite accepts NaN and ±Inf in the arrays.
	AllowNonFinite bool
}

// Parse decodes a model file with the default Options: every array value
// must be finite.
func Parse(data []byte) (*File, error) { return Options{}.Parse(data) }

// Parse decodes a model file. Every error wraps ErrCorrupt and says what is
// wrong: bad magic, unknown format version, truncation, an oversized header
// or name, trailing bytes, a checksum mismatch, an invalid header, a
// duplicate array name or a non-finite value. Memory use is proportional to
// len(data).
func (o Options) Parse(data []byte) (*File, error) {
	r := reader{data: data}
	hdr, err := r.prologue()
	if err != nil {
		return nil, err
	}
	// Walk the arrays without decoding them, so that structural defects are
	// reported as such and the checksum is verified before the contents are
	// interpreted.
	count, err := r.u32("array count")
	if err != nil {
		return nil, err
	}
	const minArray = 2 + 1 + 8 // name length, a one-byte name, element count
	if uint64(count) > uint64(r.left())/minArray {
		return nil, r.errorf("truncated: %d arrays declared, only %d bytes left", count, r.left())
	}
	type rawArray struct {
		name string
		vals []byte
	}
	raw := make([]rawArray, 0, count)
	for i := uint32(0); i < count; i++ {
		n, err := r.u16("array name length")
		if err != nil {
			return nil, err
		}
		if n == 0 || n > MaxName {
			return nil, r.errorf("array %d: name length %d, want 1..%d", i, n, MaxName)
		}
		name, err := r.bytes(int(n), "array name")
		if err != nil {
			return nil, err
		}
		elems, err := r.u64("element count")
		if err != nil {
			return nil, err
		}
		if elems > uint64(r.left())/8 {
			return nil, r.errorf("truncated: array %q declares %d elements, only %d bytes left", name, elems, r.left())
		}
		vals, _ := r.bytes(int(elems)*8, "array values")
		raw = append(raw, rawArray{string(name), vals})
	}
	body := r.off
	if _, err := r.u32("checksum"); err != nil {
		return nil, err
	}
	if r.left() > 0 {
		return nil, r.errorf("%d trailing bytes after the checksum", r.left())
	}
	if got, want := crc32.ChecksumIEEE(data[:body]), binary.LittleEndian.Uint32(data[body:]); got != want {
		return nil, fmt.Errorf("%w: checksum mismatch (stored %08x, computed %08x)", ErrCorrupt, want, got)
	}

	f := &File{Arrays: make([]Array, 0, len(raw))}
	if err := decodeHeader(hdr, &f.Header); err != nil {
		return nil, err
	}
	seen := make(map[string]bool, len(raw))
	for _, a := range raw {
		if seen[a.name] {
			return nil, fmt.Errorf("%w: duplicate array name %q", ErrCorrupt, a.name)
		}
		seen[a.name] = true
		v := make([]float64, len(a.vals)/8)
		for i := range v {
			v[i] = math.Float64frombits(binary.LittleEndian.Uint64(a.vals[8*i:]))
			if !o.AllowNonFinite && !xmath.Finite(v[i]) {
				return nil, fmt.Errorf("%w: array %q: element %d is %v", ErrCorrupt, a.name, i, v[i])
			}
		}
		f.Arrays = append(f.Arrays, Array{Name: a.name, Data: v})
	}
	return f, nil
}

// ReadHeader decodes only the header of a model file, without reading the
// arrays or verifying the checksum: enough to find out which learner wrote
// it. Errors wrap ErrCorrupt.
func ReadHeader(data []byte) (Header, error) {
	r := reader{data: data}
	raw, err := r.prologue()
	if err != nil {
		return Header{}, err
	}
	var h Header
	err = decodeHeader(raw, &h)
	return h, err
}

func decodeHeader(raw []byte, h *Header) error {
	if err := json.Unmarshal(raw, h); err != nil {
		return fmt.Errorf("%w: header JSON: %v", ErrCorrupt, err)
	}
	if err := h.Validate(); err != nil {
		return fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	return nil
}

// reader consumes data front to back; every read is checked against the
// bytes that remain.
type reader struct {
	data []byte
	off  int
}

func (r *reader) left() int { return len(r.data) - r.off }

func (r *reader) errorf(format string, args ...any) error {
	return fmt.Errorf("%w: at byte %d: %s", ErrCorrupt, r.off, fmt.Sprintf(format, args...))
}

func (r *reader) bytes(n int, what string) ([]byte, error) {
	if n < 0 || n > r.left() {
		return nil, r.errorf("truncated: %s needs %d bytes, %d left", what, n, r.left())
	}
	b := r.data[r.off : r.off+n]
	r.off += n
	return b, nil
}

func (r *reader) u16(what string) (uint16, error) {
	b, err := r.bytes(2, what)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint16(b), nil
}

func (r *reader) u32(what string) (uint32, error) {
	b, err := r.bytes(4, what)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(b), nil
}

func (r *reader) u64(what string) (uint64, error) {
	b, err := r.bytes(8, what)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(b), nil
}

// prologue reads the magic, the format version and the raw header.
func (r *reader) prologue() ([]byte, error) {
	if len(r.data) < len(Magic) && string(r.data) == Magic[:len(r.data)] {
		return nil, fmt.Errorf("%w: truncated: %d bytes, shorter than the magic", ErrCorrupt, len(r.data))
	}
	if len(r.data) < len(Magic) || string(r.data[:len(Magic)]) != Magic {
		return nil, fmt.Errorf("%w: not an rfkit model file (bad magic)", ErrCorrupt)
	}
	r.off = len(Magic)
	v, err := r.u16("format version")
	if err != nil {
		return nil, err
	}
	if v != FormatVersion {
		return nil, fmt.Errorf("%w: unsupported format version %d (this build reads %d)", ErrCorrupt, v, FormatVersion)
	}
	n, err := r.u32("header length")
	if err != nil {
		return nil, err
	}
	if n > MaxHeader {
		return nil, r.errorf("header length %d exceeds the %d-byte limit", n, MaxHeader)
	}
	return r.bytes(int(n), "header")
}
