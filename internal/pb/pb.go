// Package pb writes Protocol Buffers messages in the binary wire format:
// the few field kinds the ONNX exporter needs (varints, length-delimited
// bytes, strings and messages, fixed 32- and 64-bit values, packed varints),
// so that the library writes ONNX files without a protobuf dependency.
//
// Fields are written in the order they are added, with the tag of the
// field number and the wire type; a reader accepts any order. Nothing is
// checked beyond what the wire format needs: the caller picks the field
// numbers and types of its schema.
package pb

import (
	"encoding/binary"
	"math"
)

// Wire types.
const (
	wireVarint  = 0
	wireFixed64 = 1
	wireBytes   = 2
	wireFixed32 = 5
)

// Message is a message being written; the zero value is empty.
type Message struct{ b []byte }

// Bytes returns the encoded message.
func (m *Message) Bytes() []byte { return m.b }

func (m *Message) tag(field, wire int) {
	m.b = binary.AppendUvarint(m.b, uint64(field)<<3|uint64(wire))
}

// Uint adds a varint field (uint64, or int64/int32/enum of a value ≥ 0).
func (m *Message) Uint(field int, v uint64) {
	m.tag(field, wireVarint)
	m.b = binary.AppendUvarint(m.b, v)
}

// Int adds an int64 (or int32, or enum) field: a negative value takes ten
// bytes, its two's complement, as the wire format wants.
func (m *Message) Int(field int, v int64) { m.Uint(field, uint64(v)) }

// Raw adds a length-delimited field of the given bytes (bytes, or a
// packed repeated field already encoded).
func (m *Message) Raw(field int, v []byte) {
	m.tag(field, wireBytes)
	m.b = binary.AppendUvarint(m.b, uint64(len(v)))
	m.b = append(m.b, v...)
}

// String adds a string field.
func (m *Message) String(field int, s string) {
	m.tag(field, wireBytes)
	m.b = binary.AppendUvarint(m.b, uint64(len(s)))
	m.b = append(m.b, s...)
}

// Message adds an embedded message field.
func (m *Message) Message(field int, sub *Message) { m.Raw(field, sub.b) }

// Float adds a float (fixed 32-bit) field.
func (m *Message) Float(field int, v float32) {
	m.tag(field, wireFixed32)
	m.b = binary.LittleEndian.AppendUint32(m.b, math.Float32bits(v))
}

// Double adds a double (fixed 64-bit) field.
func (m *Message) Double(field int, v float64) {
	m.tag(field, wireFixed64)
	m.b = binary.LittleEndian.AppendUint64(m.b, math.Float64bits(v))
}

// PackedInts adds a packed repeated int64 field.
func (m *Message) PackedInts(field int, v []int64) {
	var p []byte
	for _, x := range v {
		p = binary.AppendUvarint(p, uint64(x))
	}
	m.Raw(field, p)
}
