package graph

import (
	"strings"
	"testing"
)

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
	} {
		m := good()
		c.edit(m)
		if err := m.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}
