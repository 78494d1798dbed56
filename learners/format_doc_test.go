package learners_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/rks"

	_ "github.com/rfkit/rfkit/learners/fogd"
	_ "github.com/rfkit/rfkit/learners/gbrff"
	_ "github.com/rfkit/rfkit/learners/kernel"
	_ "github.com/rfkit/rfkit/learners/mfga"
	_ "github.com/rfkit/rfkit/learners/nogd"
	_ "github.com/rfkit/rfkit/learners/pbrff"
	_ "github.com/rfkit/rfkit/learners/prff"
	_ "github.com/rfkit/rfkit/learners/rfselect"
	_ "github.com/rfkit/rfkit/learners/rrf"
	_ "github.com/rfkit/rfkit/learners/srff"
)

// docExample returns the bytes of the example in docs/model-format.md (a
// hex dump after the example-bytes marker) and the document's text.
func docExample(t *testing.T) ([]byte, string) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "docs", "model-format.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	_, rest, ok := strings.Cut(doc, "<!-- example-bytes")
	if !ok {
		t.Fatal("docs/model-format.md has no example-bytes marker")
	}
	_, rest, _ = strings.Cut(rest, "```text\n")
	block, _, _ := strings.Cut(rest, "```")
	var data []byte
	for _, line := range strings.Split(strings.TrimSpace(block), "\n") {
		hexPart, _, _ := strings.Cut(line, "|")
		fields := strings.Fields(hexPart)
		if len(fields) < 2 {
			t.Fatalf("example line %q", line)
		}
		off, err := strconv.ParseUint(fields[0], 16, 32)
		if err != nil || int(off) != len(data) {
			t.Fatalf("example line %q: offset %v, want %x", line, err, len(data))
		}
		b, err := hex.DecodeString(strings.Join(fields[1:], ""))
		if err != nil {
			t.Fatalf("example line %q: %v", line, err)
		}
		data = append(data, b...)
	}
	return data, doc
}

// TestFormatDocExample: the document's example bytes are a valid model
// file with the header, arrays and checksum the text describes, and
// predict what the text says.
func TestFormatDocExample(t *testing.T) {
	data, doc := docExample(t)
	if len(data) != 309 || !strings.Contains(doc, "309 bytes") {
		t.Errorf("example: %d bytes, the text says 309", len(data))
	}
	h, err := learners.ReadHeader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if h.Method != "rks" || h.Version != 1 || h.Task != learners.Binary || h.Inputs != 1 || h.Format != 1 ||
		len(h.Labels) != 2 || h.Labels[0] != -1 || h.Labels[1] != 1 || h.Meta["bias"] != -0.5 {
		t.Errorf("header %+v", h)
	}
	f, err := modelfile.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range f.Arrays {
		names = append(names, a.Name)
	}
	if got := strings.Join(names, " "); got != "mean scale w b coef" {
		t.Errorf("arrays %s", got)
	}
	if mean, _ := f.Array("mean", 1); mean[0] != 2 {
		t.Errorf("mean %v", mean)
	}
	if scale, _ := f.Array("scale", 1); scale[0] != 4 {
		t.Errorf("scale %v", scale)
	}
	if !strings.Contains(doc, "`3a 80 c6 4e` (0x4ec6803a)") || !bytes.HasSuffix(data, []byte{0x3a, 0x80, 0xc6, 0x4e}) {
		t.Error("the checksum in the text is not the example's")
	}
	m, err := rks.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`Probability\(\[1\]\) = ([0-9.e-]+)`)
	sub := re.FindStringSubmatch(doc)
	if sub == nil {
		t.Fatal("the text states no Probability([1])")
	}
	want, _ := strconv.ParseFloat(strings.TrimSuffix(sub[1], "."), 64)
	if got := m.Probability([]float64{1}); got != want {
		t.Errorf("Probability([1]) = %v, the text says %v", got, want)
	}
	if got := m.Predict([]float64{1}); got != -1 || !strings.Contains(doc, "Predict([1]) = −1") {
		t.Errorf("Predict([1]) = %v", got)
	}
	// the example is what this build writes for that model
	again, err := m.MarshalBinary()
	if err != nil || !bytes.Equal(again, data) {
		t.Errorf("re-encoding the example gives other bytes (%v)", err)
	}
}

// TestReadHeaderGolden: every golden model file (of this release and the
// older versions kept beside them) passes ReadHeader, and the header
// agrees with the loaded model.
func TestReadHeaderGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("*", "testdata", "*.model"))
	if err != nil || len(files) < 20 {
		t.Fatalf("%d golden files (%v)", len(files), err)
	}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		h, err := learners.ReadHeader(bytes.NewReader(data))
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		m, err := learners.Load(data)
		if err != nil {
			t.Errorf("%s: Load: %v", path, err)
			continue
		}
		if h.Inputs != m.NumInputs() || h.Task != m.Task() {
			t.Errorf("%s: header %d inputs %v, model %d %v", path, h.Inputs, h.Task, m.NumInputs(), m.Task())
		}
	}
	t.Logf("%d golden files", len(files))
}

// TestReadHeaderHostile: truncations and lies are errors wrapping
// ErrCorrupt, and a header length above the limit is refused before it is
// read.
func TestReadHeaderHostile(t *testing.T) {
	data, _ := docExample(t)
	for n := 0; n < 14+0xb6; n++ {
		if _, err := learners.ReadHeader(bytes.NewReader(data[:n])); !errors.Is(err, learners.ErrCorrupt) {
			t.Fatalf("%d bytes: %v", n, err)
		}
	}
	big := append([]byte("RFKITMDL\x01\x00"), 0xff, 0xff, 0xff, 0x7f)
	r := &countReader{r: bytes.NewReader(append(big, make([]byte, 1<<21)...))}
	if _, err := learners.ReadHeader(r); !errors.Is(err, learners.ErrCorrupt) || r.n > 14 {
		t.Errorf("2 GiB header: %v after reading %d bytes", err, r.n)
	}
	bad := bytes.Clone(data)
	bad[8] = 2
	if _, err := learners.ReadHeader(bytes.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "format version 2") {
		t.Errorf("format 2: %v", err)
	}
}

type countReader struct {
	r *bytes.Reader
	n int
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

func FuzzReadHeader(f *testing.F) {
	data, _ := os.ReadFile(filepath.Join("rks", "testdata", "logistic.model"))
	f.Add(data)
	f.Add([]byte("RFKITMDL\x01\x00\x02\x00\x00\x00{}"))
	f.Fuzz(func(t *testing.T, b []byte) {
		h, err := learners.ReadHeader(bytes.NewReader(b))
		if err != nil {
			if !errors.Is(err, learners.ErrCorrupt) {
				t.Fatalf("error without ErrCorrupt: %v", err)
			}
			return
		}
		if h.Inputs <= 0 || h.Method == "" || h.Version < 1 {
			t.Fatalf("accepted header %+v", h)
		}
	})
}
