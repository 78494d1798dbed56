package pbrff

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/rfkit/rfkit/asm"
	"github.com/rfkit/rfkit/datasets/synth"
)

var update = flag.Bool("update", false, "rewrite the golden model files in testdata")

// TestGolden: models trained on any machine and path serialise to the bytes
// in testdata (written on amd64; make test checks them with every amd64
// path, with -tags purego, and under qemu on arm64 with NEON and purego).
// Regenerate with go test -run Golden -update.
func TestGolden(t *testing.T) {
	tr := must(synth.Checkerboard(300, 0.05, 5))
	for _, loss := range []Loss{Hinge, SquaredHinge, Logistic} {
		got := marshal(t, fit(t, tr, Config{Landmarks: 20, K: 5, Gamma: 3, C: 10, Loss: loss, Seed: 3}))
		file := filepath.Join("testdata", string(loss)+".model")
		if *update {
			if err := os.MkdirAll("testdata", 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: model bytes differ from %s (path %s, %s)", loss, file, asm.Selected(), runtime.GOARCH)
		}
	}
}
