package pb

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"math"
	"testing"
)

// The examples of the Protocol Buffers encoding guide.
func TestEncodingGuide(t *testing.T) {
	for _, c := range []struct {
		name string
		m    func(*Message)
		want string
	}{
		{"varint 150", func(m *Message) { m.Uint(1, 150) }, "089601"},
		{"string", func(m *Message) { m.String(2, "testing") }, "120774657374696e67"},
		{"embedded", func(m *Message) {
			var sub Message
			sub.Uint(1, 150)
			m.Message(3, &sub)
		}, "1a03089601"},
		{"packed", func(m *Message) { m.PackedInts(4, []int64{3, 270, 86942}) }, "2206038e029ea705"},
		{"negative int64", func(m *Message) { m.Int(1, -2) }, "08feffffffffffffffff01"},
		{"field 20", func(m *Message) { m.Uint(20, 1) }, "a00101"},
		{"float", func(m *Message) { m.Float(2, 1) }, "150000803f"},
		{"double", func(m *Message) { m.Double(10, -2) }, "5100000000000000c0"},
	} {
		var m Message
		c.m(&m)
		if got := hex.EncodeToString(m.Bytes()); got != c.want {
			t.Errorf("%s: got %s, want %s", c.name, got, c.want)
		}
	}
}

// TestRoundTrip reads back a message of every kind with a minimal decoder.
func TestRoundTrip(t *testing.T) {
	var m, sub Message
	sub.String(1, "in")
	m.Uint(1, 1<<40)
	m.Message(2, &sub)
	m.Double(3, math.Pi)
	m.Float(4, 0.5)
	m.Raw(5, []byte{0, 1, 2})
	b := m.Bytes()
	type field struct {
		num, wire int
		val       []byte
	}
	var got []field
	for len(b) > 0 {
		tag, n := binary.Uvarint(b)
		b = b[n:]
		f := field{num: int(tag >> 3), wire: int(tag & 7)}
		switch f.wire {
		case wireVarint:
			_, n = binary.Uvarint(b)
		case wireFixed64:
			n = 8
		case wireFixed32:
			n = 4
		case wireBytes:
			l, k := binary.Uvarint(b)
			b, n = b[k:], int(l)
		}
		f.val, b = b[:n], b[n:]
		got = append(got, f)
	}
	if len(got) != 5 {
		t.Fatalf("%d fields, want 5", len(got))
	}
	if v, _ := binary.Uvarint(got[0].val); got[0].num != 1 || v != 1<<40 {
		t.Errorf("field 1: %v", got[0])
	}
	if !bytes.Equal(got[1].val, sub.Bytes()) || got[1].wire != wireBytes {
		t.Errorf("field 2: %v", got[1])
	}
	if v := math.Float64frombits(binary.LittleEndian.Uint64(got[2].val)); v != math.Pi {
		t.Errorf("field 3: %v", v)
	}
	if v := math.Float32frombits(binary.LittleEndian.Uint32(got[3].val)); v != 0.5 {
		t.Errorf("field 4: %v", v)
	}
	if !bytes.Equal(got[4].val, []byte{0, 1, 2}) {
		t.Errorf("field 5: %v", got[4])
	}
}
