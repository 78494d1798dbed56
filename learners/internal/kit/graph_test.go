package kit

import (
	"errors"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/graph"
)

// plainBody scores 0 and has no Graph method.
type plainBody struct{}

func (*plainBody) Spec() Spec                       { return Spec{Name: "plain", Methods: []string{"plain"}, Version: 1} }
func (*plainBody) NewWork() any                     { return nil }
func (*plainBody) Score(z []float64, _ any) float64 { return 0 }
func (*plainBody) Encode(e *Encoder) error          { return e.Config(struct{}{}) }
func (*plainBody) Decode(d *Decoder) error          { return nil }

// graphBody describes one cosine feature.
type graphBody struct{ plainBody }

func (*graphBody) Graph() (*graph.Graph, error) {
	return &graph.Graph{Blocks: []graph.Block{{Act: graph.Cosines, D: 1, W: []float64{1}, Scale: 1, R: []float64{2}}}, Bias: []float64{0.5}}, nil
}

// calBody calibrates its probabilities but gives no link.
type calBody struct{ graphBody }

func (*calBody) Calibrated(s float64) (float64, bool) { return 0.5, true }

// failBody says why it cannot be exported.
type failBody struct{ plainBody }

func (*failBody) Graph() (*graph.Graph, error) { return nil, errors.New("no graph here") }

func build[T any, P interface {
	*T
	Body
}](c learners.Common) *Base[T, P] {
	b := new(Base[T, P])
	Build(b, c, P(new(T)))
	return b
}

func TestGraphModel(t *testing.T) {
	bin := func(l learners.Link) learners.Common {
		return learners.Common{Task: learners.Binary, Labels: learners.Labels{Neg: -1, Pos: 1}, Mean: []float64{0}, Scale: []float64{1}, Link: l}
	}
	for _, c := range []struct {
		name string
		m    any
		want string
	}{
		{"no Graph method", build[plainBody](bin(Logistic)), "a plain model cannot be exported: its scoring is not"},
		{"Graph error", build[failBody](bin(Logistic)), "a plain model cannot be exported: no graph here"},
		{"calibrated without a link", build[calBody](bin(Logistic)), "calibrates its probabilities but its Graph gives no link"},
		{"empty", new(Base[graphBody, *graphBody]), "empty model"},
		{"not a model", 3, "not a learner's model"},
	} {
		_, err := graph.Of(c.m)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	for _, c := range []struct {
		link learners.Link
		want graph.Link
	}{
		{Logistic, graph.Link{Kind: graph.Sigmoid, Temp: 1}},
		{HalfLogOdds, graph.Link{Kind: graph.Sigmoid, Temp: 2}},
		{Clamped, graph.Link{Kind: graph.Clamped}},
		{NoProbability, graph.Link{Kind: graph.Clamped}},
	} {
		g, err := graph.Of(build[graphBody](bin(c.link)))
		if err != nil {
			t.Fatal(err)
		}
		if g.Link != c.want || g.Task != graph.Binary || len(g.Classes) != 2 || g.Classes[1] != 1 || g.Method != "plain" {
			t.Errorf("link %v: %+v", c.link, g)
		}
	}
	g, err := graph.Of(build[graphBody](learners.Common{Task: learners.Regression, Mean: []float64{0}, Scale: []float64{1}}))
	if err != nil || g.Link.Kind != graph.None || g.Classes != nil {
		t.Errorf("regression: %+v, %v", g, err)
	}
}
