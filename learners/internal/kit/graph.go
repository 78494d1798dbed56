package kit

import (
	"github.com/rfkit/rfkit/learners"

	"fmt"
	"slices"

	"github.com/rfkit/rfkit/learners/internal/graph"
)

func init() {
	graph.SetSource(func(m any) (*graph.Model, error) {
		g, ok := m.(interface {
			graphModel() (*graph.Model, error)
		})
		if !ok {
			return nil, fmt.Errorf("learners: %T is not a learner's model", m)
		}
		return g.graphModel()
	})
}

// graphModel describes the model's scoring for an exporter (package
// graph): the body's blocks, read-out and link, with the standardisation,
// task and labels Base holds.
func (b *Base[T, P]) graphModel() (*graph.Model, error) {
	if b.body == nil {
		return nil, fmt.Errorf("%s: export: empty model (use Fit or Load)", P(new(T)).Spec().Name)
	}
	gr, ok := any(b.body).(graph.Grapher)
	if !ok {
		return nil, fmt.Errorf("%s: a %s model cannot be exported: its scoring is not a standardise → features → linear read-out graph", b.name, method(b.body))
	}
	g, err := gr.Graph()
	if err != nil {
		return nil, fmt.Errorf("%s: a %s model cannot be exported: %w", b.name, method(b.body), err)
	}
	m := &graph.Model{Method: method(b.body), Task: graph.Task(b.c.Task.String()), Names: slices.Clone(b.c.Names),
		Mean: b.c.Mean, Scale: b.c.Scale, Graph: *g}
	if len(b.classes) > 0 {
		m.Classes = b.classes
	}
	if len(m.Blocks) == 0 { // a constant model: one feature of weight 0
		m.Blocks = []graph.Block{{Act: graph.Cosines, D: 1, W: make([]float64, len(b.c.Mean)), Scale: 1, R: make([]float64, m.K())}}
	}
	if len(b.c.Calib) == 2 { // the held-out calibration (Common.Calib) replaces any link
		if b.multi != nil {
			m.Link = graph.Link{Kind: graph.Softmax, Temp: b.c.Calib[0]}
		} else {
			m.Link = graph.Link{Kind: graph.Sigmoid, Temp: b.c.Calib[0], Shift: b.c.Calib[1]}
		}
		return m, nil
	}
	if m.Link.Kind != graph.Default {
		return m, nil
	}
	switch {
	case b.c.Task == learners.Regression:
		m.Link = graph.Link{Kind: graph.None}
	case b.multi != nil:
		m.Link = graph.Link{Kind: graph.Softmax, Temp: 1}
	case b.cal != nil:
		return nil, fmt.Errorf("%s: a %s model calibrates its probabilities but its Graph gives no link", b.name, method(b.body))
	case b.c.Link == Logistic:
		m.Link = graph.Link{Kind: graph.Sigmoid, Temp: 1}
	case b.c.Link == HalfLogOdds:
		m.Link = graph.Link{Kind: graph.Sigmoid, Temp: 2}
	default: // Clamped, and NoProbability's (1 + s)/2 in Probabilities
		m.Link = graph.Link{Kind: graph.Clamped}
	}
	return m, nil
}
