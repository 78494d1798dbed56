package main

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/rfkit/rfkit/bench/internal/resultfile"
)

// colours colour the series of a plot in order.
var colours = []color.Color{
	color.RGBA{R: 31, G: 119, B: 180, A: 255}, color.RGBA{R: 214, G: 39, B: 40, A: 255},
	color.RGBA{R: 44, G: 160, B: 44, A: 255}, color.RGBA{R: 148, G: 103, B: 189, A: 255},
	color.RGBA{R: 255, G: 127, B: 14, A: 255}, color.RGBA{R: 140, G: 86, B: 75, A: 255},
}

// series is one curve of a line plot.
type series struct {
	name   string
	x, y   []float64
	dashed bool
	colour int // 1 + index into colours; 0: the series' position
}

// panel describes one line plot.
type panel struct {
	title, xlabel, ylabel string
	logX, logY            bool
	curves                []series
}

// build makes the plot of p.
func (p panel) build() (*plot.Plot, error) {
	pl := plot.New()
	pl.Title.Text = p.title
	pl.X.Label.Text, pl.Y.Label.Text = p.xlabel, p.ylabel
	if p.logX {
		pl.X.Scale, pl.X.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
	}
	if p.logY {
		pl.Y.Scale, pl.Y.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
	}
	for i, s := range p.curves {
		var xy plotter.XYs
		for k := range s.x {
			if k < len(s.y) && s.y[k] == s.y[k] && (!p.logY || s.y[k] > 0) {
				xy = append(xy, plotter.XY{X: s.x[k], Y: s.y[k]})
			}
		}
		if len(xy) == 0 {
			continue
		}
		l, pts, err := plotter.NewLinePoints(xy)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.name, err)
		}
		col := colours[i%len(colours)]
		if s.colour > 0 {
			col = colours[(s.colour-1)%len(colours)]
		}
		l.Color, pts.Color = col, col
		pts.Radius = vg.Points(2)
		if s.dashed {
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		}
		pl.Add(l, pts)
		pl.Legend.Add(s.name, l, pts)
	}
	pl.Legend.Top, pl.Legend.Left = false, false
	pl.Add(plotter.NewGrid())
	return pl, nil
}

// savePanels draws the panels on a rows×cols grid into a PNG file.
func savePanels(path string, rows, cols int, panels []panel, w, h vg.Length) error {
	plots := make([][]*plot.Plot, rows)
	for r := range plots {
		plots[r] = make([]*plot.Plot, cols)
		for c := range plots[r] {
			if i := r*cols + c; i < len(panels) {
				p, err := panels[i].build()
				if err != nil {
					return err
				}
				plots[r][c] = p
			}
		}
	}
	return saveGrid(path, plots, w, h)
}

// saveGrid draws a grid of plots (nil cells left empty) into a PNG file.
func saveGrid(path string, plots [][]*plot.Plot, w, h vg.Length) error {
	img := vgimg.New(w, h)
	dc := draw.New(img)
	tiles := draw.Tiles{Rows: len(plots), Cols: len(plots[0]), PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 4,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	canvases := plot.Align(plots, tiles, dc)
	for r := range plots {
		for c, p := range plots[r] {
			if p != nil {
				p.Draw(canvases[r][c])
			}
		}
	}
	return resultfile.WriteTo(path, vgimg.PngCanvas{Canvas: img})
}
