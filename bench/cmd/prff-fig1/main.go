// Command prff-fig1 reproduces Fig. 1 of the PRFF paper (Damodaran, Courty
// and Gosselin 2017): the Gram approximation error (1/N²)‖K − ZZᵀ‖²_F of
// PRFF, RFF and ORF on N samples of N(0, I_d), d = 10 and d = 100, against
// the number of features D = 25…1000, with the Nyström method beside them
// (the paper's footnote 6 leaves it out of the figure). The paper gives the
// figure only, no numbers; its text states PRFF below RFF and ORF at every
// D, and ORF worse than RFF at d = 10 when D > 10d. The command writes a
// markdown table per d, a check of the target (PRFF below RFF at
// every D ≤ 1000 at d = 10) and, with -png, one log–log PNG per d.
//
//	go run ./bench/cmd/prff-fig1 -out bench/results/prff-fig1.md -png bench/results/prff-fig1        # quick
//	go run ./bench/cmd/prff-fig1 -full -out bench/results/prff-fig1-full.md -png bench/results/prff-fig1-full
//
// Protocol, per d and seed: N points of synth.Gaussian(N, d, seed) (quick:
// N = 2000, D ≤ 200, one seed; -full: the paper's N = 10000 and D = 25, 50,
// 100, 200, 300, 400, 500, 750, 1000, seeds 1–3); γ from PRFF's bandwidth
// rule (5th percentile of pairwise distances on 500 points, γ = 1/(2σ²),
// the paper's rule); PRFF with its package defaults (α = 2σ²(10/d)², λ = 0,
// B = 128, 100 iterations; the paper's α = 50 is for its own scaling, see
// the prff package doc) learned once on the N points with max D features
// and cut to each D (prff.Map.Prefix, the map learned with D features);
// RFF and ORF from featmap.NewRFF and Nyström (uniform landmarks among the
// N points, as scikit-learn's Nystroem) from featmap.NewNystrom, all with
// Seed = seed, drawn afresh at each D. The error is the exact mean of
// (K_il − z_i·z_l)² over all pairs of E evaluation points (-evalrows;
// E = N when N ≤ 2000, else 2000 of the N points drawn uniformly: an
// unbiased estimate of the N² mean over off-diagonal pairs, which keeps the
// -full run at minutes instead of hours; -evalrows 0 takes all N). The
// sums run over i ≤ l, rows split across goroutines and reduced in a fixed
// order, so the output does not depend on GOMAXPROCS.
package main

import (
	"context"
	"flag"
	"fmt"
	"image/color"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/rfkit/rfkit/bench/internal/gramerr"
	"github.com/rfkit/rfkit/bench/internal/resultfile"
	"github.com/rfkit/rfkit/dataset/synth"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/prff"
)

// methods in table order.
var methods = []string{"PRFF", "RFF", "ORF", "Nyström"}

type options struct {
	n, evalRows int
	dims, feats []int
	seeds       int
	out, png    string
}

func main() {
	var o options
	var dims, feats string
	full := flag.Bool("full", false, "the paper's sizes: N = 10000, D = 25…1000, 3 seeds (overrides -n, -D, -seeds)")
	flag.IntVar(&o.n, "n", 2000, "points per d (N)")
	flag.IntVar(&o.evalRows, "evalrows", 2000, "points the error is averaged over (all their pairs); 0: all N")
	flag.StringVar(&dims, "d", "10,100", "input dimensions, comma-separated")
	flag.StringVar(&feats, "D", "25,50,100,200", "feature counts, comma-separated")
	flag.IntVar(&o.seeds, "seeds", 1, "seeds to average over (1..seeds)")
	flag.StringVar(&o.out, "out", "", "write the markdown to this file (default stdout)")
	flag.StringVar(&o.png, "png", "", "write the plots to PREFIX-d10.png, PREFIX-d100.png, … (none if empty)")
	flag.Parse()
	if *full {
		o.n, o.seeds, feats = 10000, 3, "25,50,100,200,300,400,500,750,1000"
	}
	var err error
	if o.dims, err = ints(dims); err == nil {
		if o.feats, err = ints(feats); err == nil {
			err = run(context.Background(), o, os.Stderr)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "prff-fig1:", err)
		os.Exit(1)
	}
}

// ints parses a comma-separated list of positive integers.
func ints(s string) ([]int, error) {
	var v []int
	for _, f := range strings.Split(s, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || k <= 0 {
			return nil, fmt.Errorf("bad list %q: want positive integers", s)
		}
		v = append(v, k)
	}
	return v, nil
}

// result is one d's mean error per method and D, and its timings.
type result struct {
	d                 int
	err               map[string][]float64
	elapsed, learning time.Duration
}

func run(ctx context.Context, o options, log io.Writer) error {
	if o.n < 2 || o.seeds < 1 || o.evalRows < 0 || len(o.dims) == 0 || len(o.feats) == 0 {
		return fmt.Errorf("need n ≥ 2, seeds ≥ 1, evalrows ≥ 0 and at least one d and D")
	}
	maxD := 0
	for _, D := range o.feats {
		maxD = max(maxD, D)
	}
	if maxD > o.n {
		return fmt.Errorf("%d Nyström landmarks (max D) exceed the N = %d points", maxD, o.n)
	}
	E := o.n
	if o.evalRows > 0 {
		E = min(o.n, o.evalRows)
	}
	start := time.Now()
	var results []result
	for _, d := range o.dims {
		r := result{d: d, err: map[string][]float64{}}
		for _, m := range methods {
			r.err[m] = make([]float64, len(o.feats))
		}
		t0 := time.Now()
		for seed := uint64(1); seed <= uint64(o.seeds); seed++ {
			s, err := synth.Gaussian(o.n, d, seed)
			if err != nil {
				return err
			}
			X := featmap.Dense(o.n, d, s.X)
			tl := time.Now()
			long, err := prff.Learn(ctx, X, prff.Config{Features: maxD, Seed: seed})
			if err != nil {
				return err
			}
			r.learning += time.Since(tl)
			gamma := long.Gamma()
			Xe := X
			if E < o.n {
				Xe = learners.Rows(X, rand.New(rand.NewPCG(seed, 0x66696731)).Perm(o.n)[:E]) // "fig1"
			}
			K := gramerr.KernelRows(Xe, gamma)
			for i, D := range o.feats {
				p, err := long.Prefix(D)
				if err != nil {
					return err
				}
				rf, err := featmap.NewRFF(featmap.RFFConfig{Inputs: d, Features: D, Gamma: gamma, Seed: seed})
				if err != nil {
					return err
				}
				of, err := featmap.NewRFF(featmap.RFFConfig{Inputs: d, Features: D, Gamma: gamma, Seed: seed, Orthogonal: true})
				if err != nil {
					return err
				}
				ny, err := featmap.NewNystrom(X, featmap.NystromConfig{Inputs: d, Landmarks: D, Gamma: gamma, Seed: seed})
				if err != nil {
					return err
				}
				for _, m := range methods {
					f := map[string]gramerr.Transformer{"PRFF": p.RFF(), "RFF": rf, "ORF": of, "Nyström": ny}[m]
					e, err := gramerr.Error(K, Xe, f)
					if err != nil {
						return err
					}
					r.err[m][i] += e / float64(o.seeds)
				}
			}
			fmt.Fprintf(log, "prff-fig1: d=%d seed %d done (%v)\n", d, seed, time.Since(t0).Round(time.Millisecond))
		}
		r.elapsed = time.Since(t0)
		results = append(results, r)
		if o.png != "" {
			if err := draw(fmt.Sprintf("%s-d%d.png", o.png, d), o, r); err != nil {
				return err
			}
		}
	}
	return resultfile.Output(o.out, func(w io.Writer) error { return write(w, o, E, results, time.Since(start)) })
}

// draw writes the log–log plot of r's errors against D.
func draw(path string, o options, r result) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("PRFF Fig. 1, d = %d (N = %d, %d seed(s))", r.d, o.n, o.seeds)
	p.X.Label.Text = "D (features)"
	p.Y.Label.Text = "(1/N²)‖K − ZZᵀ‖²_F"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	palette := []color.Color{
		color.RGBA{R: 214, G: 39, B: 40, A: 255}, color.RGBA{R: 31, G: 119, B: 180, A: 255},
		color.RGBA{R: 44, G: 160, B: 44, A: 255}, color.RGBA{R: 148, G: 103, B: 189, A: 255},
	}
	for k, m := range methods {
		xy := make(plotter.XYs, len(o.feats))
		for i, D := range o.feats {
			xy[i] = plotter.XY{X: float64(D), Y: r.err[m][i]}
		}
		l, s, err := plotter.NewLinePoints(xy)
		if err != nil {
			return fmt.Errorf("%s: %w", m, err)
		}
		l.Color, s.Color = palette[k], palette[k]
		p.Add(l, s)
		p.Legend.Add(m, l, s)
	}
	p.Legend.Top = true
	return resultfile.SavePlot(p, 6*vg.Inch, 4.5*vg.Inch, path)
}

func write(w io.Writer, o options, E int, results []result, total time.Duration) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# PRFF Fig. 1: Gram approximation error on N(0, I_d), with Nyström\n\n")
	fmt.Fprintf(&b, "(1/E²)Σ(K_il − z_i·z_l)² over all pairs of E = %d of the N = %d points (drawn uniformly when E < N; paper: N = 10000, all pairs); ", E, o.n)
	fmt.Fprintf(&b, "mean over seeds 1–%d; γ from PRFF's 5th-percentile rule; PRFF with its package defaults learned on the N points; RFF, ORF (featmap.NewRFF) and ", o.seeds)
	fmt.Fprintf(&b, "Nyström with D uniform landmarks among the N points (featmap.NewNystrom). Command: `go run ./bench/cmd/prff-fig1 %s`.\n\n", flagsLine(o))
	fmt.Fprintf(&b, "The paper has the figure only (no numbers). Its statements: (a) PRFF below RFF and ORF at every D; (b) at d = 10, ORF worse than RFF when D > 10d. ")
	fmt.Fprintf(&b, "Target: PRFF below RFF at every D ≤ 1000 at d = 10.\n\n")
	for _, r := range results {
		fmt.Fprintf(&b, "## d = %d\n\n| D | PRFF | RFF | ORF | Nyström | PRFF/RFF | best |\n|---:|---:|---:|---:|---:|---:|---|\n", r.d)
		var notRFF, notORF, nysWins, orfWorse []string
		for i, D := range o.feats {
			best := methods[0]
			for _, m := range methods {
				if r.err[m][i] < r.err[best][i] {
					best = m
				}
			}
			pe, re, oe, ne := r.err["PRFF"][i], r.err["RFF"][i], r.err["ORF"][i], r.err["Nyström"][i]
			fmt.Fprintf(&b, "| %d | %.3e | %.3e | %.3e | %.3e | %.3f | %s |\n", D, pe, re, oe, ne, pe/re, best)
			ds := strconv.Itoa(D)
			if !(pe < re) {
				notRFF = append(notRFF, ds)
			}
			if !(pe < oe) {
				notORF = append(notORF, ds)
			}
			if ne < pe {
				nysWins = append(nysWins, ds)
			}
			if D > 10*r.d && oe > re {
				orfWorse = append(orfWorse, ds)
			}
		}
		fmt.Fprintf(&b, "\nPRFF below RFF at every D: %s. PRFF below ORF at every D: %s. Nyström below PRFF at D = %s.",
			list(notRFF), list(notORF), orNone(nysWins))
		if r.d*10 < o.feats[len(o.feats)-1] {
			fmt.Fprintf(&b, " ORF worse than RFF at D > 10d: at D = %s.", orNone(orfWorse))
		}
		fmt.Fprintf(&b, " Wall time %v (%v of it learning PRFF).\n\n", r.elapsed.Round(time.Millisecond), r.learning.Round(time.Millisecond))
	}
	host, _ := os.Hostname()
	fmt.Fprintf(&b, "Machine: %s, %s/%s, GOMAXPROCS = %d, %d CPUs (shared with other jobs); total wall time %v.\n", host, runtime.GOOS, runtime.GOARCH, runtime.GOMAXPROCS(0), runtime.NumCPU(), total.Round(time.Millisecond))
	_, err := io.WriteString(w, b.String())
	return err
}

// list is "yes" for an empty list of failing D, else "no (not at D = …)".
func list(fails []string) string {
	if len(fails) == 0 {
		return "yes"
	}
	return "no (not at D = " + strings.Join(fails, ", ") + ")"
}

func orNone(v []string) string {
	if len(v) == 0 {
		return "none"
	}
	return strings.Join(v, ", ")
}

// flagsLine is the command line that reproduces the table.
func flagsLine(o options) string {
	return fmt.Sprintf("-n %d -evalrows %d -d %s -D %s -seeds %d", o.n, o.evalRows, join(o.dims), join(o.feats), o.seeds)
}

func join(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}
