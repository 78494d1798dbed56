package modelfile

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"math"
)

// MarshalBinary encodes f. It fails for an invalid header, a header above
// MaxHeader, an empty, overlong or repeated array name, or too many arrays.
// Values are written as they are: non-finite ones are the caller's choice
// (Parse rejects them unless told otherwise).
func (f *File) MarshalBinary() ([]byte, error) {
	if err := f.Header.Validate(); err != nil {
		return nil, fmt.Errorf("modelfile: %w", err)
	}
	hdr, err := json.Marshal(&f.Header)
	if err != nil {
		return nil, fmt.Errorf("modelfile: header: %w", err)
	}
	if len(hdr) > MaxHeader {
		return nil, fmt.Errorf("modelfile: header is %d bytes, limit %d", len(hdr), MaxHeader)
	}
	if uint64(len(f.Arrays)) > math.MaxUint32 {
		return nil, fmt.Errorf("modelfile: %d arrays, limit %d", len(f.Arrays), uint32(math.MaxUint32))
	}
	size := len(Magic) + 2 + 4 + len(hdr) + 4 + 4
	seen := make(map[string]bool, len(f.Arrays))
	for _, a := range f.Arrays {
		if len(a.Name) == 0 || len(a.Name) > MaxName {
			return nil, fmt.Errorf("modelfile: array name %q: length must be 1..%d bytes", a.Name, MaxName)
		}
		if seen[a.Name] {
			return nil, fmt.Errorf("modelfile: duplicate array name %q", a.Name)
		}
		seen[a.Name] = true
		size += 2 + len(a.Name) + 8 + 8*len(a.Data)
	}

	b := make([]byte, 0, size)
	b = append(b, Magic...)
	b = binary.LittleEndian.AppendUint16(b, FormatVersion)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(hdr)))
	b = append(b, hdr...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(f.Arrays)))
	for _, a := range f.Arrays {
		b = binary.LittleEndian.AppendUint16(b, uint16(len(a.Name)))
		b = append(b, a.Name...)
		b = binary.LittleEndian.AppendUint64(b, uint64(len(a.Data)))
		for _, v := range a.Data {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
	}
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b)), nil
}
