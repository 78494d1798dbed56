package learnertest

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/crc32"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners"
)

// featureNames: names set with WithFeatureNames round-trip through the
// model file for every task, leave the original model (and its bytes)
// alone, change no prediction, and are validated when set and on load.
func (s *suite) featureNames(t *testing.T) {
	for _, task := range s.c.tasks() {
		mm, X, _ := s.fit(t, task, 60, 7)
		plain, err := mm.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if n := mm.(featureNamer).FeatureNames(); n != nil {
			t.Fatalf("%v: a fitted model has names %q", task, n)
		}
		names := []string{"age", "größe", "y"}
		in := slices.Clone(names)
		named, err := learners.WithFeatureNames(mm, in)
		if err != nil {
			t.Fatal(err)
		}
		in[0] = "changed"                                  // the model keeps its own copy
		named.(featureNamer).FeatureNames()[1] = "changed" // and hands out copies
		if reflect.TypeOf(named) != reflect.TypeOf(mm) {
			t.Fatalf("WithFeatureNames returned %T for a %T", named, mm)
		}
		if got := named.(featureNamer).FeatureNames(); !slices.Equal(got, names) {
			t.Fatalf("%v: FeatureNames %q, want %q", task, got, names)
		}
		if again, err := mm.MarshalBinary(); err != nil || !bytes.Equal(again, plain) || mm.(featureNamer).FeatureNames() != nil {
			t.Fatalf("%v: WithFeatureNames changed the original model (%v)", task, err)
		}
		for i := 0; i < X.Rows; i++ {
			if x := X.Row(i); !same(named.Predict(x), mm.Predict(x)) || !same(asFile(t, named).Score(x), asFile(t, mm).Score(x)) {
				t.Fatalf("%v row %d: names changed the prediction", task, i)
			}
		}
		data, err := named.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if h, err := modelfile.ReadHeader(data); err != nil || !slices.Equal(h.Names, names) {
			t.Fatalf("%v: header names %q (%v)", task, h.Names, err)
		}
		loaded, err := s.meth.Load(data)
		if err != nil {
			t.Fatal(err)
		}
		if got := loaded.(featureNamer).FeatureNames(); !slices.Equal(got, names) {
			t.Errorf("%v: loaded names %q, want %q", task, got, names)
		}
		if again, err := loaded.MarshalBinary(); err != nil || !bytes.Equal(again, data) {
			t.Errorf("%v: a loaded named model re-marshals to other bytes (%v)", task, err)
		}
		// Removing the names gives the unnamed file back, byte for byte.
		if unnamed, err := learners.WithFeatureNames(loaded, nil); err != nil {
			t.Error(err)
		} else if b, err := unnamed.MarshalBinary(); err != nil || !bytes.Equal(b, plain) {
			t.Errorf("%v: names removed: bytes differ from the unnamed model's (%v)", task, err)
		}
		for _, bad := range []struct {
			names []string
			want  string
		}{
			{[]string{"a", "b"}, "2 feature names for 3 inputs"},
			{[]string{"a", "b", "a"}, `both "a"`},
			{[]string{"a", "", "c"}, "feature name 1 is empty"},
			{[]string{"a", strings.Repeat("n", 257), "c"}, "257 bytes long"},
			{[]string{"a", "b\xff", "c"}, "not valid UTF-8"},
		} {
			m, err := learners.WithFeatureNames(mm, bad.names)
			if err == nil || m != nil || !strings.Contains(err.Error(), bad.want) {
				t.Errorf("WithFeatureNames(%q): %v, %v; want %q", bad.names, m, err, bad.want)
			}
			if !utf8.ValidString(strings.Join(bad.names, "")) {
				continue // JSON decoding replaces invalid UTF-8: no file holds it
			}
			// The same names in a file are corruption.
			m, err = s.meth.Load(withHeaderField(t, data, "names", bad.names))
			if err == nil || m != nil || !errors.Is(err, learners.ErrCorrupt) || !strings.Contains(err.Error(), bad.want) {
				t.Errorf("Load with names %q: %v, %v; want ErrCorrupt and %q", bad.names, m, err, bad.want)
			}
		}
	}
}

// withHeaderField returns the model file data with one header field set
// to v, bypassing the checks of modelfile's encoder (as a hostile file
// would), with a valid checksum.
func withHeaderField(t *testing.T, data []byte, key string, v any) []byte {
	t.Helper()
	const pre = len(modelfile.Magic) + 2
	n := int(binary.LittleEndian.Uint32(data[pre:]))
	var h map[string]any
	if err := json.Unmarshal(data[pre+4:pre+4+n], &h); err != nil {
		t.Fatal(err)
	}
	h[key] = v
	raw, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	out := append([]byte(nil), data[:pre]...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(raw)))
	out = append(out, raw...)
	out = append(out, data[pre+4+n:len(data)-4]...)
	return binary.LittleEndian.AppendUint32(out, crc32.ChecksumIEEE(out))
}

// featureNamer is the FeatureNames every learner's model has (kit.Base).
type featureNamer interface{ FeatureNames() []string }
