package modelfile

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"math"
)

// MarshalBinary encodes f. It fails for an invalid header, a header above
// MaxHeader, an empty, overlong or repeated array name, or too many arrays.
// Values are written as they are: non-finite ones are the caller's choice
// (Parse rejects them unless told otherwise).
func (f *File) MarshalBinary() ([]byte, error) {
	hdr, size, err := f.prepare()
	if err != nil {
		return nil, err
	}
	b := bytes.NewBuffer(make([]byte, 0, size))
	if err := f.write(b, hdr); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// WriteTo writes the bytes of MarshalBinary to w without holding them in
// memory (a model of landmarks or candidates can be hundreds of MB). It
// fails as MarshalBinary does, before writing anything, or with w's error.
func (f *File) WriteTo(w io.Writer) (int64, error) {
	hdr, _, err := f.prepare()
	if err != nil {
		return 0, err
	}
	cw := &countWriter{w: bufio.NewWriterSize(w, 1<<16)}
	if err := f.write(cw, hdr); err != nil {
		return cw.n, err
	}
	return cw.n, cw.w.(*bufio.Writer).Flush()
}

// prepare checks f and returns its JSON header and the encoded size.
func (f *File) prepare() ([]byte, int, error) {
	if err := f.Header.Validate(); err != nil {
		return nil, 0, fmt.Errorf("modelfile: %w", err)
	}
	hdr, err := json.Marshal(&f.Header)
	if err != nil {
		return nil, 0, fmt.Errorf("modelfile: header: %w", err)
	}
	if len(hdr) > MaxHeader {
		return nil, 0, fmt.Errorf("modelfile: header is %d bytes, limit %d", len(hdr), MaxHeader)
	}
	if uint64(len(f.Arrays)) > math.MaxUint32 {
		return nil, 0, fmt.Errorf("modelfile: %d arrays, limit %d", len(f.Arrays), uint32(math.MaxUint32))
	}
	size := len(Magic) + 2 + 4 + len(hdr) + 4 + 4
	seen := make(map[string]bool, len(f.Arrays))
	for _, a := range f.Arrays {
		if len(a.Name) == 0 || len(a.Name) > MaxName {
			return nil, 0, fmt.Errorf("modelfile: array name %q: length must be 1..%d bytes", a.Name, MaxName)
		}
		if seen[a.Name] {
			return nil, 0, fmt.Errorf("modelfile: duplicate array name %q", a.Name)
		}
		seen[a.Name] = true
		size += 2 + len(a.Name) + 8 + 8*len(a.Data)
	}
	return hdr, size, nil
}

// write writes the file with header hdr to w, then its CRC-32 (IEEE) of
// everything before it, in chunks of at most 4 KB of values.
func (f *File) write(w io.Writer, hdr []byte) error {
	crc := crc32.NewIEEE()
	out := io.MultiWriter(w, crc)
	b := make([]byte, 0, 4096)
	flush := func() error {
		_, err := out.Write(b)
		b = b[:0]
		return err
	}
	b = append(b, Magic...)
	b = binary.LittleEndian.AppendUint16(b, FormatVersion)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(hdr)))
	if err := flush(); err != nil {
		return err
	}
	if _, err := out.Write(hdr); err != nil {
		return err
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(len(f.Arrays)))
	for _, a := range f.Arrays {
		b = binary.LittleEndian.AppendUint16(b, uint16(len(a.Name)))
		b = append(b, a.Name...)
		b = binary.LittleEndian.AppendUint64(b, uint64(len(a.Data)))
		for _, v := range a.Data {
			if len(b)+8 > cap(b) {
				if err := flush(); err != nil {
					return err
				}
			}
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
	}
	if err := flush(); err != nil {
		return err
	}
	_, err := w.Write(binary.LittleEndian.AppendUint32(nil, crc.Sum32()))
	return err
}

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
