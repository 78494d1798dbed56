package gbrff

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/dataset/synth"
	"github.com/rfkit/rfkit/internal/modelfile"
)

// TestLoadTermCountOverflow checks that a file whose T·K rounds would wrap a
// 32-bit int (386, wasm) is refused by the count check, before any array is
// sized from it: T and K are each within Validate's limits, their product
// is not.
func TestLoadTermCountOverflow(t *testing.T) {
	m := fit(t, must(synth.Moons(60, 0.1, 1)), Config{Variant: VariantGBRFF1, T: 2, K: 2, Seed: 1})
	raw, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	f, err := modelfile.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]any
	if err := json.Unmarshal(f.Header.Config, &cfg); err != nil {
		t.Fatal(err)
	}
	cfg["T"], cfg["K"] = 1_000_000, 100_000
	if f.Header.Config, err = json.Marshal(cfg); err != nil {
		t.Fatal(err)
	}
	f.Header.Meta["rounds"] = 1_000_000
	hostile, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	_, err = Load(hostile)
	if err == nil || !strings.Contains(err.Error(), "overflow") {
		t.Fatalf("Load of T·K = 10¹¹ terms: err = %v, want the overflow error", err)
	}
}
