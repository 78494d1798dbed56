package rfselect_test

import (
	"context"
	"errors"
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
	_ "github.com/rfkit/rfkit/learners/rfselect"
)

// rings is the suite's data set, the same bits everywhere.
var rings = learnertest.Rings

// conformance is this learner's line in the shared suite.
var conformance = learnertest.Case{Method: "eerf", Tasks: learnertest.AllTasks, Prefix: "rfselect: ", Params: []string{"features=20"}, Rounds: 3, NumParams: 13, NoLoss: []int{1, 2},
	Accuracy: &learnertest.Learns{Rings: 0.90, Sine: 0.3, Each: [][]string{{"loss=ridge"}}},
	Resolved: map[string][]string{"task=regression": {"Loss=ridge"}},
	BadParams: learnertest.With(learnertest.Linear, map[string]string{
		"features=10 candidates=5": "Candidates = 5 is below Features = 10",
		"features=0 candidates=50": "Candidates = 50 is below Features = 100",
	}),
	Golden: map[string][]string{
		"eerf-logistic": {"features=20", "seed=3"},
		"eerf-ridge":    {"features=20", "task=regression", "lambda=1e-4", "seed=4"},
	}}
var lkrf = learnertest.Case{Method: "lkrf", Tasks: learnertest.AllTasks, Prefix: "rfselect: ", Params: []string{"features=20"}, Rounds: 3, NumParams: 13, NoLoss: []int{1, 2},
	Golden: map[string][]string{"lkrf-logistic": {"features=20", "seed=3"}, "multiclass": {"task=multiclass", "features=20", "seed=3"}}}

func TestConformance(t *testing.T) { learnertest.Run(t, conformance); learnertest.Run(t, lkrf) }

func FuzzLoad(f *testing.F) { learnertest.Fuzz(f, conformance) }

// TestCrossLoadCorrupt: an lkrf file given to eerf's loader (and the
// reverse) is refused with an error wrapping learners.ErrCorrupt, as every
// load error.
func TestCrossLoadCorrupt(t *testing.T) {
	X, y := crossData()
	for _, pair := range [][2]string{{"eerf", "lkrf"}, {"lkrf", "eerf"}} {
		from, _ := learners.Lookup(pair[0])
		to, _ := learners.Lookup(pair[1])
		cfg := from.NewConfig()
		if err := learners.SetParam(cfg, "features", "4"); err != nil {
			t.Fatal(err)
		}
		m, err := from.Fit(context.Background(), X, y, cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		data, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := to.Load(data); !errors.Is(err, learners.ErrCorrupt) {
			t.Errorf("%s file to the %s loader: %v, want ErrCorrupt", pair[0], pair[1], err)
		}
	}
}

// crossData is a small two-class set.
func crossData() (featmap.Matrix, []float64) {
	const n, d = 60, 2
	x, y := make([]float64, n*d), make([]float64, n)
	for i := range n {
		x[i*d], x[i*d+1] = float64(i%7), float64(i%5)
		y[i] = float64(2*(i%2) - 1)
	}
	return featmap.Dense(n, d, x), y
}
