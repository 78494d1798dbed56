package main

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/rfkit/rfkit/bench/internal/resultfile"
)

// bins is the number of equal-width probability bins of the diagram.
const bins = 10

// curve accumulates one run's reliability diagram: per bin of the
// predicted probability p of the larger class, Σp, the count and how many
// rows were of that class.
type curve struct {
	name          string
	sumP          [bins]float64
	count, events [bins]int
}

// add records one test row: p its predicted probability of the larger
// class, k = 1 if it is of that class.
func (c *curve) add(p float64, k int) {
	b := min(int(p*bins), bins-1)
	c.sumP[b] += p
	c.count[b]++
	c.events[b] += k
}

// points are (mean predicted probability, observed frequency) of the
// non-empty bins.
func (c *curve) points() plotter.XYs {
	var xy plotter.XYs
	for b := range bins {
		if c.count[b] > 0 {
			n := float64(c.count[b])
			xy = append(xy, plotter.XY{X: c.sumP[b] / n, Y: float64(c.events[b]) / n})
		}
	}
	return xy
}

// drawReliability writes the reliability diagram of the curves, with the
// diagonal of perfect calibration, to the PNG file path.
func drawReliability(path string, curves []curve) error {
	p := plot.New()
	p.Title.Text = "Reliability (test rows of heart, australian, pima pooled)"
	p.X.Label.Text = "mean predicted probability"
	p.Y.Label.Text = "observed frequency"
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1, 0, 1
	diag, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}})
	if err != nil {
		return err
	}
	diag.Color = color.Gray{Y: 160}
	diag.Dashes = []vg.Length{vg.Points(4), vg.Points(4)}
	p.Add(diag)
	palette := []color.Color{
		color.RGBA{R: 31, G: 119, B: 180, A: 255}, color.RGBA{R: 214, G: 39, B: 40, A: 255},
		color.RGBA{R: 44, G: 160, B: 44, A: 255}, color.RGBA{R: 148, G: 103, B: 189, A: 255},
		color.RGBA{R: 255, G: 127, B: 14, A: 255}, color.RGBA{R: 140, G: 86, B: 75, A: 255},
	}
	for i, c := range curves {
		l, s, err := plotter.NewLinePoints(c.points())
		if err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		col := palette[i%len(palette)]
		l.Color, s.Color = col, col
		p.Add(l, s)
		p.Legend.Add(c.name, l, s)
	}
	p.Legend.Top, p.Legend.Left = true, true
	return resultfile.SavePlot(p, 5*vg.Inch, 5*vg.Inch, path)
}
