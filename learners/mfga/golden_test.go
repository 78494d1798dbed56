package mfga_test

import (
	"crypto/sha256"
	"fmt"
	"testing"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/mfga"
)

// The model files are the same bytes on every architecture and path
// (amd64 with or without AVX, purego, arm64 under qemu): these digests
// were recorded on amd64.
func TestGoldenModelBytes(t *testing.T) {
	Xb, yb := rings(300, 2, 0, 1, 11)
	Xr, yr := poly(300, 12)
	for _, c := range []struct {
		name string
		cfg  mfga.Config
		want string
	}{
		{"binary", mfga.Config{Features: 7, PerStep: 2}, "e319899a4c6a9c2e15dcaa74fff4a73c4a5439a58f817f91ea2954f0b110ff54"},
		{"regression", mfga.Config{Task: learners.Regression, Features: 9, PerStep: 1}, "a2aa40491b0adb195dbe48a0f75460e309e9c08ed5edcc833ae94717b571e25b"},
	} {
		X, y := Xb, yb
		if c.cfg.Task == learners.Regression {
			X, y = Xr, yr
		}
		b, err := fit(t, X, y, c.cfg).MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprintf("%x", sha256.Sum256(b)); got != c.want {
			t.Errorf("%s: model digest %s, want %s", c.name, got, c.want)
		}
	}
}
