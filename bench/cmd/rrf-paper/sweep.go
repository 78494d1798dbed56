package main

import (
	"fmt"
	"image/color"
	"io"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/rfkit/rfkit/bench/internal/resultfile"
	"github.com/rfkit/rfkit/bench/internal/summary"
	"github.com/rfkit/rfkit/learners"
)

// sweepDs are the D of the paper's Fig. 2.
var sweepDs = []int{10, 20, 50, 100, 150, 200, 400}

// sweep is Figs. 1–2: RRF-Hinge and FOGD against D on one binary set, with
// the hyper-parameters each chose at D = 100 on the prefix.
func sweep(w io.Writer, o options) error {
	s, err := load(o, o.sweepSet, learners.Binary)
	if err != nil {
		return err
	}
	ms := []method{{"RRF-Hinge", "rrf", "hinge", 100}, {"FOGD", "fogd", "hinge", 100}}
	pm := max(1, int(o.prefix*float64(s.n)))
	fmt.Fprintf(w, "## Figs. 1–2: mistake rate and time against D — %s (n = %d, d = %d)\n\n", s.name, s.n, s.d)
	fmt.Fprintf(w, "The paper sweeps D on cod-rna (not here): RRF's error falls with D and its time grows; RRF at D = 20 beats FOGD at D = 1600 (Fig. 1). Hyper-parameters: each method's choice at D = 100 on the prefix, kept for every D.\n\n")
	fmt.Fprintf(w, "| D | RRF-Hinge %% | FOGD %% | RRF s/pass | FOGD s/pass |\n|---|---|---|---|---|\n")
	type pt struct{ err, secs plotter.XYs }
	res := make([]pt, len(ms))
	hs := make([]hyper, len(ms))
	for k, m := range ms {
		if hs[k], err = tune(m, s, s.stream(1, pm), pm, o.full); err != nil {
			return err
		}
	}
	for _, D := range sweepDs {
		var cells [2][2]float64
		for k, m := range ms {
			m.D = D
			var errs []float64
			var secs float64
			for sd := 1; sd <= o.seeds; sd++ {
				v, t, err := pass(m, s, s.stream(uint64(sd), pm), s.n, hs[k], uint64(sd))
				if err != nil {
					return err
				}
				errs = append(errs, v)
				secs += t / float64(o.seeds)
			}
			mean, _ := summary.MeanSD(errs)
			cells[k] = [2]float64{mean, secs}
			res[k].err = append(res[k].err, plotter.XY{X: float64(D), Y: mean})
			res[k].secs = append(res[k].secs, plotter.XY{X: float64(D), Y: secs})
		}
		fmt.Fprintf(w, "| %d | %.2f | %.2f | %.3f | %.3f |\n", D, cells[0][0], cells[1][0], cells[0][1], cells[1][1])
	}
	fmt.Fprintf(w, "\nChosen at D = 100: RRF %v; FOGD %v.\n\n", hs[0], hs[1])
	if o.png == "" {
		return nil
	}
	for _, fig := range []struct {
		file, ylabel string
		pick         func(pt) plotter.XYs
	}{{"rrf-fig2-mistakes.png", "online mistake rate (%)", func(p pt) plotter.XYs { return p.err }},
		{"rrf-fig2-time.png", "seconds per pass", func(p pt) plotter.XYs { return p.secs }}} {
		p := plot.New()
		p.Title.Text = fmt.Sprintf("%s: RRF-Hinge and FOGD against D (%d seeds)", s.name, o.seeds)
		p.X.Label.Text, p.Y.Label.Text = "D", fig.ylabel
		p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, plot.LogTicks{}
		for k, m := range ms {
			l, sc, err := plotter.NewLinePoints(fig.pick(res[k]))
			if err != nil {
				return err
			}
			c := []color.Color{color.RGBA{R: 200, A: 255}, color.RGBA{B: 200, A: 255}}[k]
			l.Color, sc.Color = c, c
			p.Add(l, sc)
			p.Legend.Add(m.name, l, sc)
		}
		p.Legend.Top = true
		path := filepath.Join(o.png, fig.file)
		if err := resultfile.SavePlot(p, 5*vg.Inch, 3.5*vg.Inch, path); err != nil {
			return err
		}
		fmt.Fprintf(w, "Plot: `%s`\n\n", fig.file)
	}
	return nil
}
