package fogd_test

import (
	"context"
	"testing"

	"github.com/rfkit/rfkit/datasets/synth"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/fogd"
	"github.com/rfkit/rfkit/learners/learnertest"
)

// TestGolden: models learned on any machine and path serialise to the bytes
// in testdata (written on amd64; checked with every amd64 path, with -tags
// purego, and under qemu on arm64 with NEON and purego). The data come from
// package synth, bit-identical everywhere, and so is every step: the
// frequencies (internal/xrand), the features (asm.SincosDot), Fit's
// standardisation (prep) and the scalar sums, written with explicit FMAs and
// products rounded on their own. Regenerate with
// go test -run Golden ./learners/fogd -update. The v1-*.model files are the
// same cases written by version 1 of the format (before the Learner's state
// was stored); they are kept, not regenerated: TestVersion1Files and the
// conformance suite check that they load, re-save and predict the same.
func TestGolden(t *testing.T) {
	moons, err := synth.Moons(300, 0.1, 5)
	if err != nil {
		t.Fatal(err)
	}
	se1, err := synth.SE1(200, 3)
	if err != nil {
		t.Fatal(err)
	}
	online := func(set *synth.Set, cfg fogd.Config) *fogd.Model {
		l, err := fogd.NewLearner(set.D, cfg)
		if err != nil {
			t.Fatal(err)
		}
		for pass := 0; pass < 2; pass++ {
			for i := 0; i < set.N; i++ {
				if _, err := l.Update(set.Row(i), set.Y[i]); err != nil {
					t.Fatal(err)
				}
			}
		}
		return l.Snapshot()
	}
	fit := func(set *synth.Set, cfg fogd.Config) *fogd.Model {
		m, err := fogd.Fit(context.Background(), featmap.Dense(set.N, set.D, set.X), set.Y, cfg)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	reg := learners.Regression
	for _, c := range []struct {
		name  string
		model func() *fogd.Model
	}{
		{"online-hinge", func() *fogd.Model { return online(moons, fogd.Config{Features: 20, Eta: 0.5, Gamma: 2, Seed: 3}) }},
		{"online-squared", func() *fogd.Model { return online(se1, fogd.Config{Task: reg, Features: 24, Gamma: 0.05, Seed: 4}) }},
		{"fit-hinge", func() *fogd.Model { return fit(moons, fogd.Config{Features: 20, Eta: 0.5, Epochs: 2, Seed: 5}) }},
		{"fit-eps", func() *fogd.Model {
			return fit(se1, fogd.Config{Task: reg, Loss: fogd.EpsInsensitive, Features: 24, Gamma: 0.05, Epochs: 2, Seed: 6})
		}},
		{"fit-resumed-file-order", func() *fogd.Model {
			// A stream learned in file order over a restart.
			c := fogd.Config{Features: 20, Eta: 0.5, Seed: 7, Shuffle: learners.Disabled, Standardize: learners.Disabled}
			k := 170
			first := fit(&synth.Set{N: k, D: moons.D, X: moons.X[:k*moons.D], Y: moons.Y[:k]}, c)
			old, err := fogd.Load(must(first.MarshalBinary()))
			if err != nil {
				t.Fatal(err)
			}
			c = old.Config()
			c.Resume = old
			return fit(&synth.Set{N: moons.N - k, D: moons.D, X: moons.X[k*moons.D:], Y: moons.Y[k:]}, c)
		}},
	} {
		got, err := c.model().MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		learnertest.Golden(t, c.name, got)

	}
}
