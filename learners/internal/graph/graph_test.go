package graph

import (
	"math"
	"strings"
	"testing"
)

// enc is an encoding of E inputs of a 2-input model.
func enc(E int) *Encoding {
	e := &Encoding{}
	for q := range E {
		e.Src, e.Kind = append(e.Src, q%2), append(e.Kind, EncKind(q%3))
		e.Level, e.Mean, e.Scale = append(e.Level, 0.5), append(e.Mean, 0), append(e.Scale, 1)
	}
	return e
}

func TestCheck(t *testing.T) {
	good := func() *Model {
		return &Model{Task: Binary, Classes: []float64{-1, 1}, Mean: []float64{0, 0}, Scale: []float64{1, 1},
			Graph: Graph{Bias: []float64{0}, Blocks: []Block{
				{Act: Cosines, D: 1, W: []float64{1, 2}, B: []float64{0}, Scale: 1, R: []float64{1}},
				{Act: Monomials, D: 1, I: []int{0, 2}, C: []float64{1}, Gauss: []bool{true}, R: []float64{1}},
			}}}
	}
	if err := good().Check(); err != nil {
		t.Fatal(err)
	}
	encoded := good()
	encoded.Encoding = enc(2)
	if err := encoded.Check(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		edit func(*Model)
		want string
	}{
		{"no blocks", func(m *Model) { m.Blocks = nil }, "no feature blocks"},
		{"scales", func(m *Model) { m.Scale = m.Scale[:1] }, "2 means and 1 scales"},
		{"biases", func(m *Model) { m.Bias = nil }, "0 biases for 1 scores"},
		{"classes", func(m *Model) { m.Task, m.Bias = Multiclass, []float64{0, 0} }, "multiclass model with 2 classes"},
		{"weights", func(m *Model) { m.Blocks[0].W = m.Blocks[0].W[:1] }, "1 weights for 2 inputs"},
		{"phases", func(m *Model) { m.Blocks[0].B = []float64{0, 0} }, "2 phases for 1 features"},
		{"read-out", func(m *Model) { m.Blocks[0].R = nil }, "read-out of 0 values"},
		{"monomial index", func(m *Model) { m.Blocks[1].I[1] = 3 }, "monomial index outside 0..2"},
		{"monomial factors", func(m *Model) { m.Blocks[1].C = nil }, "0 factors"},
		{"projection", func(m *Model) { m.Blocks[0].Proj = []float64{1} }, "projection of 1 values"},
		{"activation", func(m *Model) { m.Blocks[0].Act = 9 }, "unknown activation 9"},
		{"encoded weights", func(m *Model) { m.Encoding = enc(3) }, "2 weights for 3 inputs"},
		{"encoded input", func(m *Model) { m.Encoding = enc(2); m.Encoding.Src[1] = 2 }, "encoded input 1 reads input 2 of 2"},
		{"encoded kind", func(m *Model) { m.Encoding = enc(2); m.Encoding.Kind[0] = 7 }, "unknown kind 7"},
		{"encoded lengths", func(m *Model) { m.Encoding = enc(2); m.Encoding.Scale = nil }, "0 scales"},
		{"empty encoding", func(m *Model) { m.Encoding = &Encoding{} }, "no inputs"},
	} {
		m := good()
		c.edit(m)
		if err := m.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// TestEncodingScores: the encoded inputs are the standardised copies,
// signed logs and one-hot columns of z, a value between levels 0 in
// every column.
func TestEncodingScores(t *testing.T) {
	m := &Model{Task: Regression, Mean: []float64{1, 0}, Scale: []float64{2, 1},
		Graph: Graph{Bias: []float64{0.5}, Encoding: &Encoding{
			Src:   []int{0, 1, 1, 1},
			Kind:  []EncKind{EncCopy, EncLog, EncLevel, EncLevel},
			Level: []float64{0, 0, -1, 2},
			Mean:  []float64{0, 1, 0, 0.5},
			Scale: []float64{1, 2, 1, 0.25},
		}, Blocks: []Block{{Act: Monomials, D: 4, I: []int{0, 1, 0, 2, 0, 3, 0, 4}, C: []float64{1, 1, 1, 1}, Gauss: make([]bool, 4), R: []float64{1, 10, 100, 1000}}}}}
	if err := m.Check(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ x, want float64 }{
		{-1, 0.5 + 2 + 10*(-math.Log(2)-1)/2 + 100*1 + 1000*(-2)},
		{2, 0.5 + 2 + 10*(math.Log(3)-1)/2 + 100*0 + 1000*2},
		{1.5, 0.5 + 2 + 10*(math.Log(2.5)-1)/2 + 100*0 + 1000*(-2)},
		{math.NaN(), 0.5 + 2 + 10*(0-1)/2 + 100*0 + 1000*(-2)},
	} {
		got := m.Scores([]float64{5, c.x})[0]
		if math.Abs(got-c.want) > 1e-12 {
			t.Errorf("x = %v: %v, want %v", c.x, got, c.want)
		}
	}
}
