package nogd

import (
	"testing"

	"github.com/rfkit/rfkit/internal/limit"
	"github.com/rfkit/rfkit/learners"
)

// TestHeldOutEpochs: a binary fit on a held-out half takes the steps of
// the fit on every row; the fit on every row, a resumed fit and a
// regression keep their epochs.
func TestHeldOutEpochs(t *testing.T) {
	resume := new(Model)
	cases := []struct {
		name string
		cfg  Config
		m, n int
		want int
	}{
		{"half, default epochs", Config{}, 73, 145, 2},
		{"half, 3 epochs", Config{Epochs: 3}, 72, 145, 6},
		{"every row", Config{}, 145, 145, 0},
		{"every row, 3 epochs", Config{Epochs: 3}, 145, 145, 3},
		{"regression", Config{Task: learners.Regression}, 73, 145, 0},
		{"resume", Config{Resume: resume}, 73, 145, 0},
		{"capped", Config{Epochs: limit.Count}, 50, 100, limit.Count},
	}
	for _, c := range cases {
		if got := heldOutEpochs(c.cfg, c.m, c.n); got != c.want {
			t.Errorf("%s: %d epochs, want %d", c.name, got, c.want)
		}
	}
}
