package main

import (
	"fmt"
	"image/color"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/rfkit/rfkit/bench/internal/resultfile"
)

// drawGammas writes one PNG per (set, n) of res to PREFIX-<set>-<n>.png:
// the learned γ of every input, the mean over the replications with the
// smallest and largest as whiskers, relevant inputs in red — the SRFF
// paper's Fig. 1 (SE1 at 1k and 50k) for any set and size.
func drawGammas(prefix string, res []result) ([]string, error) {
	var paths []string
	for i := 0; i < len(res); {
		j := i
		for j < len(res) && res[j].set == res[i].set && res[j].n == res[i].n {
			j++
		}
		path := fmt.Sprintf("%s-%s-%d.png", prefix, res[i].set, res[i].n)
		if err := drawGamma(path, res[i:j]); err != nil {
			return paths, fmt.Errorf("%s: %w", path, err)
		}
		paths = append(paths, path)
		i = j
	}
	return paths, nil
}

// drawGamma draws the γ of the replications g, all of one set and size.
func drawGamma(path string, g []result) error {
	d := len(g[0].gamma)
	if d == 0 {
		return fmt.Errorf("no γ recorded")
	}
	mean := make([]float64, d)
	lo, hi := slices.Clone(g[0].gamma), slices.Clone(g[0].gamma)
	for _, r := range g {
		if len(r.gamma) != d {
			return fmt.Errorf("replication %d has %d inputs, want %d", r.seed, len(r.gamma), d)
		}
		for v, x := range r.gamma {
			mean[v] += x / float64(len(g))
			lo[v], hi[v] = min(lo[v], x), max(hi[v], x)
		}
	}
	relevant := make([]bool, d)
	for _, v := range g[0].relevant {
		relevant[v-1] = true
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("SRFF learned γ, %s, n = %d (%d replication(s))", g[0].set, g[0].n, len(g))
	p.X.Label.Text = "input (1-based; red: relevant)"
	p.Y.Label.Text = "γ (mean, whiskers min–max)"
	width := vg.Points(float64(max(2, 360/d)))
	for _, rel := range []bool{true, false} {
		vals := make(plotter.Values, d)
		for v := range d {
			if relevant[v] == rel {
				vals[v] = mean[v]
			}
		}
		bars, err := plotter.NewBarChart(vals, width)
		if err != nil {
			return err
		}
		bars.Offset = 0
		bars.LineStyle.Width = 0
		bars.Color = map[bool]color.Color{true: color.RGBA{R: 214, G: 39, B: 40, A: 255}, false: color.RGBA{R: 120, G: 120, B: 120, A: 255}}[rel]
		p.Add(bars)
		if rel {
			p.Legend.Add("relevant", bars)
		} else {
			p.Legend.Add("irrelevant", bars)
		}
	}
	if len(g) > 1 {
		pts := make(plotter.XYs, d)
		errs := make(plotter.YErrors, d)
		for v := range d {
			pts[v] = plotter.XY{X: float64(v), Y: mean[v]}
			errs[v].Low, errs[v].High = mean[v]-lo[v], hi[v]-mean[v]
		}
		whiskers, err := plotter.NewYErrorBars(struct {
			plotter.XYs
			plotter.YErrors
		}{pts, errs})
		if err != nil {
			return err
		}
		p.Add(whiskers)
	}
	labels := make([]plot.Tick, 0, d)
	step := max(1, d/20)
	for v := 0; v < d; v += step {
		labels = append(labels, plot.Tick{Value: float64(v), Label: fmt.Sprint(v + 1)})
	}
	p.X.Tick.Marker = plot.ConstantTicks(labels)
	p.Legend.Top = true
	return resultfile.SavePlot(p, 7*vg.Inch, 4*vg.Inch, path)
}
