package main

import (
	"fmt"
	"image/color"
	"io"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/rfkit/rfkit/featmap"
)

// Colours of the decision-boundary plots: a light fill for the predicted
// class, a dark dot for a test point's true class; negative class blue,
// positive orange.
var (
	fillColors  = colors{{0xc6, 0xdb, 0xef, 0xff}, {0xfd, 0xd0, 0xa2, 0xff}}
	pointColors = colors{{0x21, 0x71, 0xb5, 0xff}, {0xd9, 0x48, 0x01, 0xff}}
)

// maxPlotPoints bounds the test points drawn per panel.
const maxPlotPoints = 600

// colors is a two-colour palette.Palette.
type colors []color.RGBA

func (c colors) Colors() []color.Color {
	out := make([]color.Color, len(c))
	for i, v := range c {
		out[i] = v
	}
	return out
}

// drawDemo draws one panel per result (a row per data set, a column per
// method): the model's predictions on a res×res grid and the test points.
func drawDemo(w io.Writer, results []demoResult, res int) error {
	if len(results) == 0 {
		return fmt.Errorf("demo: nothing to draw")
	}
	cols := 0
	for _, r := range results {
		if r.set == results[0].set {
			cols++
		}
	}
	rows := (len(results) + cols - 1) / cols
	plots := make([][]*plot.Plot, rows)
	for i := range plots {
		plots[i] = make([]*plot.Plot, cols)
	}
	for k, r := range results {
		p, err := boundaryPlot(r, res)
		if err != nil {
			return err
		}
		plots[k/cols][k%cols] = p
	}
	const tile = 4 * vg.Inch
	img := vgimg.NewWith(vgimg.UseWH(vg.Length(cols)*tile, vg.Length(rows)*tile), vgimg.UseDPI(96))
	dc := draw.New(img)
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadTop: vg.Points(4), PadBottom: vg.Points(4),
		PadLeft: vg.Points(4), PadRight: vg.Points(4), PadX: vg.Points(8), PadY: vg.Points(8)}
	canvases := plot.Align(plots, tiles, dc)
	for i := range plots {
		for j, p := range plots[i] {
			if p != nil {
				p.Draw(canvases[i][j])
			}
		}
	}
	_, err := vgimg.PngCanvas{Canvas: img}.WriteTo(w)
	return err
}

// boundaryPlot is one panel.
func boundaryPlot(r demoResult, res int) (*plot.Plot, error) {
	if r.test.D != 2 {
		return nil, fmt.Errorf("demo: cannot draw %d-dimensional data", r.test.D)
	}
	x0, x1, y0, y1 := bounds(r.train.X, r.test.X)
	g := &grid2D{res: res, x0: x0, y0: y0, dx: (x1 - x0) / float64(res-1), dy: (y1 - y0) / float64(res-1)}
	pts := make([]float64, 0, 2*res*res)
	for j := 0; j < res; j++ {
		for i := 0; i < res; i++ {
			pts = append(pts, g.X(i), g.Y(j))
		}
	}
	g.z = make([]float64, res*res)
	if err := r.model.PredictBatch(g.z, featmap.Dense(res*res, 2, pts)); err != nil {
		return nil, err
	}
	lo, hi := labelRange(r.train.Y)

	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s · %s · accuracy %.3f", r.set, r.method.name, r.accuracy)
	hm := plotter.NewHeatMap(g, fillColors)
	hm.Min, hm.Max, hm.Rasterized = lo, hi, true
	p.Add(hm)
	step := max(1, r.test.N/maxPlotPoints)
	for c, label := range []float64{lo, hi} {
		var xy plotter.XYs
		for i := 0; i < r.test.N; i += step {
			if r.test.Y[i] == label {
				row := r.test.Row(i)
				xy = append(xy, plotter.XY{X: row[0], Y: row[1]})
			}
		}
		if len(xy) == 0 {
			continue
		}
		s, err := plotter.NewScatter(xy)
		if err != nil {
			return nil, err
		}
		s.GlyphStyle.Color = pointColors[c]
		s.GlyphStyle.Radius = vg.Points(1.6)
		s.GlyphStyle.Shape = draw.CircleGlyph{}
		p.Add(s)
	}
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = x0, x1, y0, y1
	return p, nil
}

// grid2D is the res×res grid of predictions, a plotter.GridXYZ.
type grid2D struct {
	res            int
	x0, y0, dx, dy float64
	z              []float64 // row-major, y outer
}

func (g *grid2D) Dims() (c, r int)   { return g.res, g.res }
func (g *grid2D) Z(c, r int) float64 { return g.z[r*g.res+c] }
func (g *grid2D) X(c int) float64    { return g.x0 + float64(c)*g.dx }
func (g *grid2D) Y(r int) float64    { return g.y0 + float64(r)*g.dy }

// bounds is the bounding box of 2-D points with a 5% margin.
func bounds(sets ...[]float64) (x0, x1, y0, y1 float64) {
	x0, y0 = math.Inf(1), math.Inf(1)
	x1, y1 = math.Inf(-1), math.Inf(-1)
	for _, s := range sets {
		for i := 0; i+1 < len(s); i += 2 {
			x0, x1 = min(x0, s[i]), max(x1, s[i])
			y0, y1 = min(y0, s[i+1]), max(y1, s[i+1])
		}
	}
	mx, my := 0.05*(x1-x0)+1e-9, 0.05*(y1-y0)+1e-9
	return x0 - mx, x1 + mx, y0 - my, y1 + my
}

// labelRange returns the smaller and the larger of the two labels in y.
func labelRange(y []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range y {
		lo, hi = min(lo, v), max(hi, v)
	}
	return lo, hi
}
