package modelfile

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/crc32"
	"math"
	"reflect"
	"strings"
	"testing"
)

func sample() *File {
	f := &File{Header: Header{
		Method:  "rks",
		Version: 1,
		Config:  json.RawMessage(`{"Features":3}`),
		Task:    TaskBinary,
		Labels:  []float64{0, 1},
		Inputs:  2,
		Meta:    map[string]float64{"bias": -0.5},
	}}
	f.Add("w", []float64{1, -2, 3.5, 0, 1e-300, math.Copysign(0, -1)})
	f.Add("b", []float64{0.25, 6, math.Pi})
	f.Add("empty", nil)
	return f
}

func mustMarshal(t testing.TB, f *File) []byte {
	t.Helper()
	b, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// reseal recomputes the checksum after a deliberate edit of body (the file
// without its checksum).
func reseal(body []byte) []byte {
	return binary.LittleEndian.AppendUint32(append([]byte(nil), body...), crc32.ChecksumIEEE(body))
}

func TestRoundTrip(t *testing.T) {
	want := sample()
	b := mustMarshal(t, want)
	got, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	want.Arrays[2].Data = []float64{} // nil is read back as empty
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", got, want)
	}
	if !math.Signbit(got.Arrays[0].Data[5]) {
		t.Error("-0 lost its sign")
	}
	if b2 := mustMarshal(t, got); !bytes.Equal(b, b2) {
		t.Error("re-encoding changed the bytes")
	}
	if v, err := got.Array("b", 3); err != nil || v[2] != math.Pi {
		t.Errorf("Array(b) = %v, %v", v, err)
	}
	if v, err := got.Meta("bias"); err != nil || v != -0.5 {
		t.Errorf("Meta(bias) = %v, %v", v, err)
	}
	h, err := ReadHeader(b)
	if err != nil || h.Method != "rks" || h.Inputs != 2 {
		t.Errorf("ReadHeader = %+v, %v", h, err)
	}
}

func TestLayout(t *testing.T) {
	f := &File{Header: Header{Method: "m", Version: 1, Task: TaskRegression, Inputs: 1}}
	f.Add("a", []float64{1})
	b := mustMarshal(t, f)
	hdr := `{"method":"m","version":1,"task":"regression","inputs":1}`
	var want []byte
	want = append(want, "RFKITMDL"...)
	want = append(want, 1, 0)
	want = binary.LittleEndian.AppendUint32(want, uint32(len(hdr)))
	want = append(want, hdr...)
	want = append(want, 1, 0, 0, 0)
	want = append(want, 1, 0, 'a')
	want = append(want, 1, 0, 0, 0, 0, 0, 0, 0)
	want = append(want, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f) // 1.0
	want = reseal(want)
	if !bytes.Equal(b, want) {
		t.Fatalf("layout:\n got %x\nwant %x", b, want)
	}
}

func TestAccessorErrors(t *testing.T) {
	f := sample()
	for _, c := range []struct {
		err  error
		want string
	}{
		{second(f.Array("nope", -1)), `no array "nope"`},
		{second(f.Array("b", 4)), `array "b" has 3 elements, want 4`},
		{second(f.Meta("nope")), `no meta value "nope"`},
	} {
		if !errors.Is(c.err, ErrCorrupt) || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("got %v, want ErrCorrupt and %q", c.err, c.want)
		}
	}
}

func second[T any](_ T, err error) error { return err }

func TestParseErrors(t *testing.T) {
	good := mustMarshal(t, sample())
	body := good[:len(good)-4]
	hdrLen := int(binary.LittleEndian.Uint32(good[10:]))
	arrays := 14 + hdrLen // offset of the array count

	edit := func(off int, b ...byte) []byte {
		c := append([]byte(nil), body...)
		copy(c[off:], b)
		return reseal(c)
	}
	withHeader := func(h string) []byte {
		var c []byte
		c = append(c, good[:10]...)
		c = binary.LittleEndian.AppendUint32(c, uint32(len(h)))
		c = append(c, h...)
		c = append(c, body[arrays:]...)
		return reseal(c)
	}
	nanFile := sample()
	nanFile.Arrays[1].Data[1] = math.NaN()
	dup := sample()
	dup.Arrays[1].Name = "w"
	dupBytes := func() []byte { // MarshalBinary refuses duplicates: patch "b" to "w"
		b := mustMarshal(t, sample())
		i := bytes.Index(b[arrays:], []byte{1, 0, 'b'})
		b[arrays+i+2] = 'w'
		return reseal(b[:len(b)-4])
	}()

	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "truncated"},
		{"short magic", []byte("RFKIT"), "truncated"},
		{"bad magic", append([]byte("NOTMODEL"), good[8:]...), "bad magic"},
		{"version", edit(8, 2, 0), "unsupported format version 2"},
		{"truncated version", good[:9], "truncated: format version"},
		{"truncated header", good[:20], "truncated: header needs"},
		{"huge header", edit(10, 0xff, 0xff, 0xff, 0x7f), "exceeds the 1048576-byte limit"},
		{"truncated arrays", good[:len(good)-30], "truncated"},
		{"no checksum", body, "truncated: checksum"},
		{"many arrays", edit(arrays, 0xff, 0xff, 0xff, 0xff), "4294967295 arrays declared"},
		{"zero name", edit(arrays+4, 0, 0), "name length 0"},
		{"long name", edit(arrays+4, 0x01, 0x10), "name length 4097"},
		{"huge count", edit(arrays+7, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x1f), "declares 2305843009213693951 elements"},
		{"trailing", append(append([]byte(nil), good...), 0), "trailing bytes"},
		{"checksum", func() []byte { c := append([]byte(nil), good...); c[len(c)-20] ^= 1; return c }(), "checksum mismatch"},
		{"bad json", withHeader(`{"method":`), "header JSON"},
		{"json trailing", withHeader(`{"method":"m","version":1,"task":"regression","inputs":1} {}`), "header JSON"},
		{"no method", withHeader(`{"version":1,"task":"regression","inputs":1}`), "no method"},
		{"bad version", withHeader(`{"method":"m","version":0,"task":"regression","inputs":1}`), "model version 0"},
		{"no inputs", withHeader(`{"method":"m","version":1,"task":"regression"}`), "0 inputs"},
		{"bad task", withHeader(`{"method":"m","version":1,"task":"ordinal","inputs":1}`), `task "ordinal"`},
		{"one label", withHeader(`{"method":"m","version":1,"task":"binary","labels":[1],"inputs":1}`), "binary labels"},
		{"unsorted labels", withHeader(`{"method":"m","version":1,"task":"binary","labels":[1,0],"inputs":1}`), "binary labels"},
		{"regression labels", withHeader(`{"method":"m","version":1,"task":"regression","labels":[0,1],"inputs":1}`), "regression model with labels"},
		{"multiclass two labels", withHeader(`{"method":"m","version":1,"task":"multiclass","labels":[0,1],"inputs":1}`), "multiclass model with 2 labels, want 3..4096"},
		{"multiclass unsorted", withHeader(`{"method":"m","version":1,"task":"multiclass","labels":[0,2,1],"inputs":1}`), "label 2 is 1"},
		{"multiclass repeated", withHeader(`{"method":"m","version":1,"task":"multiclass","labels":[0,1,1],"inputs":1}`), "finite and increasing"},
		{"duplicate", dupBytes, `duplicate array name "w"`},
		{"nan", mustMarshal(t, nanFile), `array "b": element 1 is NaN`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := Parse(c.data)
			if err == nil {
				t.Fatalf("no error, got %+v", f)
			}
			if f != nil {
				t.Error("non-nil File with an error")
			}
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %q, want ErrCorrupt and %q", err, c.want)
			}
		})
	}

	if _, err := (Options{AllowNonFinite: true}).Parse(mustMarshal(t, nanFile)); err != nil {
		t.Errorf("AllowNonFinite: %v", err)
	}
}

func TestMarshalErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		mod  func(f *File)
		want string
	}{
		{"header", func(f *File) { f.Header.Inputs = 0 }, "0 inputs"},
		{"empty name", func(f *File) { f.Arrays[0].Name = "" }, "length must be 1..256"},
		{"long name", func(f *File) { f.Arrays[0].Name = strings.Repeat("x", 257) }, "length must be 1..256"},
		{"duplicate", func(f *File) { f.Arrays[1].Name = "w" }, `duplicate array name "w"`},
		{"bad config", func(f *File) { f.Header.Config = json.RawMessage("{") }, "header"},
		{"huge header", func(f *File) { f.Header.Config = json.RawMessage(`"` + strings.Repeat("x", MaxHeader) + `"`) }, "limit"},
	} {
		f := sample()
		c.mod(f)
		if _, err := f.MarshalBinary(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	good := mustMarshal(f, sample())
	f.Add(good)
	for _, n := range []int{0, 7, 8, 12, 20, len(good) / 2, len(good) - 5, len(good) - 1} {
		f.Add(good[:n])
	}
	for _, i := range []int{9, 12, len(good) / 2, len(good) - 40, len(good) - 1} {
		c := append([]byte(nil), good...)
		c[i] ^= 0x40
		f.Add(c)
		f.Add(reseal(c[:len(c)-4])) // a flip the checksum does not catch
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkParse(t, data)
		if len(data) >= 4 { // get past the checksum to the contents
			checkParse(t, reseal(data[:len(data)-4]))
		}
	})
}

func checkParse(t *testing.T, data []byte) {
	file, err := Parse(data)
	if err != nil {
		if file != nil || !errors.Is(err, ErrCorrupt) {
			t.Fatalf("error %v with file %v", err, file)
		}
		return
	}
	// Whatever parses re-encodes to the same bytes (JSON aside, which
	// may be spelled differently), and re-parses to the same File.
	b, err := file.MarshalBinary()
	if err != nil {
		t.Fatalf("re-marshal: %v", err)
	}
	again, err := Parse(b)
	if err != nil || !reflect.DeepEqual(again.Arrays, file.Arrays) {
		t.Fatalf("re-parse: %v", err)
	}
	total := 0
	for _, a := range file.Arrays {
		total += 8 * len(a.Data)
	}
	if total > len(data) {
		t.Fatalf("%d bytes of values from %d bytes of input", total, len(data))
	}
}

// Feature names: omitted from the header when empty (the bytes of files
// without names do not change), round-trip when present, and are checked
// on both sides.
func TestNames(t *testing.T) {
	plain := mustMarshal(t, sample())
	if bytes.Contains(plain, []byte(`"names"`)) {
		t.Errorf("a file without names has a names field")
	}
	f := sample()
	f.Header.Names = []string{"a", "b"}
	data := mustMarshal(t, f)
	g, err := Parse(data)
	if err != nil || !reflect.DeepEqual(g.Header.Names, f.Header.Names) {
		t.Fatalf("names %q, %v", g.Header.Names, err)
	}
	for _, c := range []struct {
		names []string
		want  string
	}{
		{[]string{"a"}, "1 feature names for 2 inputs"},
		{[]string{"a", "a"}, `feature names 0 and 1 are both "a"`},
		{[]string{"", "b"}, "feature name 0 is empty"},
		{[]string{"a", strings.Repeat("b", MaxFeatureName+1)}, "257 bytes long"},
		{[]string{"a", "\xff"}, "not valid UTF-8"},
	} {
		f.Header.Names = c.names
		if _, err := f.MarshalBinary(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("MarshalBinary with names %q: %v, want %q", c.names, err, c.want)
		}
		if c.names[len(c.names)-1] == "\xff" {
			continue // JSON decoding replaces invalid UTF-8: no file holds it
		}
		// The same names in a file: the header is written by hand.
		hdr, _ := json.Marshal(&f.Header)
		b := []byte(Magic)
		b = binary.LittleEndian.AppendUint16(b, FormatVersion)
		b = binary.LittleEndian.AppendUint32(b, uint32(len(hdr)))
		b = append(b, hdr...)
		b = binary.LittleEndian.AppendUint32(b, 0)
		b = binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
		if _, err := Parse(b); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse with names %q: %v, want ErrCorrupt and %q", c.names, err, c.want)
		}
	}
}

// TestWriteToMatchesMarshal: WriteTo streams the bytes of MarshalBinary
// (arrays longer than its 4 KB chunk included) and fails as it does.
func TestWriteToMatchesMarshal(t *testing.T) {
	f := &File{Header: Header{Method: "m", Version: 1, Task: "regression", Inputs: 2}}
	f.Add("short", []float64{1, 2})
	long := make([]float64, 3000)
	for i := range long {
		long[i] = float64(i) / 7
	}
	f.Add("long", long)
	want := mustMarshal(t, f)
	var b bytes.Buffer
	n, err := f.WriteTo(&b)
	if err != nil || n != int64(len(want)) || !bytes.Equal(b.Bytes(), want) {
		t.Fatalf("WriteTo: %d bytes, err %v; equal to MarshalBinary's %d: %v", n, err, len(want), bytes.Equal(b.Bytes(), want))
	}
	if _, err := Parse(b.Bytes()); err != nil {
		t.Fatal(err)
	}
	f.Add("short", nil)
	b.Reset()
	if _, err := f.WriteTo(&b); err == nil || b.Len() != 0 {
		t.Errorf("a duplicate array: err %v, %d bytes written", err, b.Len())
	}
}
