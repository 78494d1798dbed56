package learnertest

import (
	"math"
	"testing"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/graph"
)

// Tolerances of the export check: the graph is evaluated in float64 with
// math.Cos and math.Exp and in another summation order than the learner.
const (
	exportTol = 1e-9
)

// export: every variant's model of every task has a graph description
// (package learners/internal/graph, what learners/onnx writes) whose
// float64 evaluation gives Predict's labels (but at ties) and values and
// Probabilities' probabilities on the training rows.
func (s *suite) export(t *testing.T) { s.eachVariant(t, s.export1) }

func (s *suite) export1(t *testing.T, task learners.Task, variant []string) {
	m, X, _ := s.fit(t, task, 100, 3, variant...)
	g, err := graph.Of(m)
	if err != nil {
		t.Fatalf("%v %v: %v", task, variant, err)
	}
	scorer, _ := m.(interface{ Score([]float64) float64 })
	cm, _ := m.(learners.ClassModel)
	for i := range X.Rows {
		x := X.Row(i)
		sc := g.Scores(x)
		want, got := m.Predict(x), g.Label(sc)
		switch {
		case task == learners.Regression:
			if !(math.Abs(got-want) <= exportTol*math.Max(1, math.Abs(want))) {
				t.Fatalf("%v %v row %d: graph value %v, Predict %v", task, variant, i, got, want)
			}
			continue
		case got != want && !(math.Abs(scorer.Score(x)) <= exportTol):
			t.Fatalf("%v %v row %d: graph label %v, Predict %v (margin %v)", task, variant, i, got, want, scorer.Score(x))
		}
		p := make([]float64, len(cm.Classes()))
		if err := cm.Probabilities(p, x); err != nil {
			t.Fatal(err)
		}
		for k, q := range g.Probabilities(sc) {
			if !(math.Abs(q-p[k]) <= exportTol) {
				t.Fatalf("%v %v row %d: graph probability %d %v, Probabilities %v", task, variant, i, k, q, p[k])
			}
		}
	}
}
