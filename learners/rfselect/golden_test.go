package rfselect_test

import (
	"context"
	"testing"

	"github.com/rfkit/rfkit/datasets/synth"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/learnertest"
	"github.com/rfkit/rfkit/learners/rfselect"
)

// TestGolden: models trained on any machine and path serialise to the bytes
// in testdata (written on amd64; checked under qemu on arm64, with NEON and
// with -tags purego). Regenerate with go test -run Golden -update.
func TestGolden(t *testing.T) {
	moons := learnertest.Must(synth.Moons(300, 0.1, 5))
	se1 := learnertest.Must(synth.SE1(200, 3))
	for _, c := range []struct {
		name string
		set  *synth.Set
		cfg  rfselect.Config
	}{
		{"eerf-logistic", moons, rfselect.Config{Features: 20, Seed: 3}},
		{"lkrf-logistic", moons, rfselect.Config{Selection: rfselect.LKRFSelection, Features: 20, Seed: 3}},
		{"eerf-ridge", se1, rfselect.Config{Features: 20, Task: learners.Regression, Lambda: 1e-4, Seed: 4}},
	} {
		m, err := rfselect.Fit(context.Background(), featmap.Dense(c.set.N, c.set.D, c.set.X), c.set.Y, c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		got, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		learnertest.Golden(t, c.name, got)
	}
}
