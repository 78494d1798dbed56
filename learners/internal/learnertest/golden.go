package learnertest

import (
	"context"
	"testing"

	"github.com/rfkit/rfkit/dataset/synth"
	"github.com/rfkit/rfkit/featmap"
)

// GoldenSets are the data of the learners' golden model files: 300 moons
// (noise 0.1, seed 5) and 200 rows of SE1 (seed 3), the same bits on
// every architecture.
func GoldenSets() (moons, se1 *synth.Set) {
	return Must(synth.Moons(300, 0.1, 5)), Must(synth.ByName("se1", 200, 3))
}

// GoldenFit is one golden model: testdata/Name.model holds the bytes of a
// Fit on Set with Config.
type GoldenFit[C any] struct {
	Name   string
	Set    *synth.Set
	Config C
}

// GoldenFits fits every case and compares the model bytes with its golden
// file (Golden; -update rewrites them).
func GoldenFits[C any, M interface{ MarshalBinary() ([]byte, error) }](t *testing.T, fit func(context.Context, featmap.Matrix, []float64, C) (M, error), cases []GoldenFit[C]) {
	t.Helper()
	for _, c := range cases {
		Golden(t, c.Name, Bytes(t, MustFit(t, fit, featmap.Dense(c.Set.N, c.Set.D, c.Set.X), c.Set.Y, c.Config)))
	}
}

// Stream feeds passes over the rows of set, with targets y, to a new
// Learner for cfg and returns its Snapshot.
func Stream[C, M any, L Learner[M]](t testing.TB, newLearner func(int, C) (L, error), set *synth.Set, y []float64, cfg C, passes int) M {
	t.Helper()
	l, err := newLearner(set.D, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for range passes {
		for i := range set.N {
			if _, err := l.Update(set.Row(i), y[i]); err != nil {
				t.Fatal(err)
			}
		}
	}
	return l.Snapshot()
}

// ResumedFit is a stream learned in file order over a restart: Fit with
// cfg on the first k rows of set, the model saved and loaded, then Fit
// with Resume on the rest.
func ResumedFit[C any, M OnlineModel[C]](t testing.TB, fit func(context.Context, featmap.Matrix, []float64, C) (M, error), load func([]byte) (M, error), set *synth.Set, k int, cfg C) M {
	t.Helper()
	first := MustFit(t, fit, featmap.Dense(k, set.D, set.X[:k*set.D]), set.Y[:k], cfg)
	old, err := load(Bytes(t, first))
	if err != nil {
		t.Fatal(err)
	}
	return MustFit(t, fit, featmap.Dense(set.N-k, set.D, set.X[k*set.D:]), set.Y[k:], withResume(old.Config(), old))
}

// GoldenModels compares the bytes of every named model with its golden
// file (Golden). The contract a learner's TestGolden states by calling it:
// models learned on any machine and path serialise to the bytes in
// testdata (written on amd64; checked with every amd64 path, with -tags
// purego, and under qemu on arm64 with NEON and purego), because the data
// come from package synth, bit-identical everywhere, and so is every step
// of the learner (its test lists them). Regenerate with
// go test -run Golden ./learners/NAME -update.
func GoldenModels[M interface{ MarshalBinary() ([]byte, error) }](t *testing.T, models []Named[M]) {
	t.Helper()
	for _, m := range models {
		Golden(t, m.Name, Bytes(t, m.Model))
	}
}

// Named is a model with the name of its golden file.
type Named[M any] struct {
	Name  string
	Model M
}
