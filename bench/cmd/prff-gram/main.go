// Command prff-gram is the PRFF evidence: the Gram approximation
// error (1/N²)‖K − ZZᵀ‖²_F of PRFF (learners/prff) against plain random
// Fourier features (RFF) and orthogonal random features (ORF,
// featmap.RFFConfig.Orthogonal) at D ∈ {25, 50, 100, 200}, on the paper's
// synthetic set (synth.Gaussian: N(0, I_d), d = 10 and 100), averaged over
// a few seeds. It writes a markdown table and a line stating whether PRFF is
// below RFF at every D.
//
//	go run ./bench/cmd/prff-gram -out bench/out/prff-gram.md
//	go run ./bench/cmd/prff-gram -n 10000 -seeds 1 -out bench/out/prff-gram-10k.md
//
// -maxiter, -lambda and -alpha override PRFF's MaxIter, FreqLambda and
// Alpha (the ablations quoted in the prff package doc).
//
// Protocol, per d and seed: N points of synth.Gaussian(N, d, seed); γ from
// PRFF's bandwidth rule (5th percentile of pairwise distances on 500
// points, γ = 1/(2σ²)); the three maps at that γ; PRFF with its defaults
// and Seed = seed (learned once with max(D) features: the D-feature map is
// its prefix, see prff.Map.Prefix), RFF and ORF sampled with Seed = seed
// for each D. The error is the exact mean over all N² pairs (the Gram
// matrix is not subsampled; the sum runs over i ≤ l by symmetry, rows split
// across goroutines with a fixed reduction order, so the output does not
// depend on GOMAXPROCS). PRFF learns on the same N points it is evaluated
// on, as in the paper.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/rfkit/rfkit/bench/internal/gramerr"
	"github.com/rfkit/rfkit/bench/internal/resultfile"
	"github.com/rfkit/rfkit/dataset/synth"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners/prff"
)

// options are the command's settings.
type options struct {
	n     int
	dims  []int
	feats []int
	seeds int
	out   string
	cfg   prff.Config // map settings other than Features and Seed
}

func main() {
	var o options
	var dims, feats string
	flag.IntVar(&o.n, "n", 2000, "points per data set (N)")
	flag.StringVar(&dims, "d", "10,100", "input dimensions, comma-separated")
	flag.StringVar(&feats, "D", "25,50,100,200", "feature counts, comma-separated")
	flag.IntVar(&o.seeds, "seeds", 3, "seeds to average over (1..seeds)")
	flag.StringVar(&o.out, "out", "", "write the markdown table to this file (default stdout)")
	flag.IntVar(&o.cfg.MaxIter, "maxiter", 0, "PRFF MaxIter (0: default)")
	flag.Float64Var(&o.cfg.FreqLambda, "lambda", 0, "PRFF FreqLambda (default 0)")
	flag.Float64Var(&o.cfg.Alpha, "alpha", 0, "PRFF Alpha (0: default)")
	flag.Parse()
	var err error
	if o.dims, err = ints(dims); err == nil {
		o.feats, err = ints(feats)
	}
	if err == nil {
		err = run(context.Background(), o, os.Stderr)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "prff-gram:", err)
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

// result is the mean Gram error of each method at each D for one d.
type result struct {
	d                 int
	prff, rff, orf    []float64 // per feature count
	elapsed, learning time.Duration
}

// run computes every row and writes the table to o.out (stdout if empty);
// log receives progress lines.
func run(ctx context.Context, o options, log io.Writer) error {
	if o.n < 2 || o.seeds < 1 || len(o.dims) == 0 || len(o.feats) == 0 {
		return fmt.Errorf("need n ≥ 2, seeds ≥ 1 and at least one d and D")
	}
	maxD := 0
	for _, D := range o.feats {
		maxD = max(maxD, D)
	}
	var results []result
	for _, d := range o.dims {
		r := result{d: d, prff: make([]float64, len(o.feats)), rff: make([]float64, len(o.feats)), orf: make([]float64, len(o.feats))}
		start := time.Now()
		for seed := uint64(1); seed <= uint64(o.seeds); seed++ {
			s, err := synth.Gaussian(o.n, d, seed)
			if err != nil {
				return err
			}
			X := featmap.Dense(o.n, d, s.X)
			t0 := time.Now()
			cfg := o.cfg
			cfg.Features, cfg.Seed = maxD, seed
			long, err := prff.Learn(ctx, X, cfg)
			if err != nil {
				return err
			}
			r.learning += time.Since(t0)
			gamma := long.Gamma()
			K := gramerr.KernelRows(X, gamma)
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
				for _, m := range []struct {
					f   *featmap.RFF
					sum *float64
				}{{p.RFF(), &r.prff[i]}, {rf, &r.rff[i]}, {of, &r.orf[i]}} {
					e, err := gramerr.Error(K, X, m.f)
					if err != nil {
						return err
					}
					*m.sum += e / float64(o.seeds)
				}
			}
			fmt.Fprintf(log, "prff-gram: d=%d seed %d done (%v)\n", d, seed, time.Since(start).Round(time.Millisecond))
		}
		r.elapsed = time.Since(start)
		results = append(results, r)
	}
	return resultfile.Output(o.out, func(w io.Writer) error { return write(w, o, results) })
}

// write prints the markdown table and the verdict.
func write(w io.Writer, o options, results []result) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# PRFF Gram approximation error\n\n")
	fmt.Fprintf(&b, "(1/N²)‖K − ZZᵀ‖²_F on synth.Gaussian (N(0, I_d)), N = %d, mean over seeds 1–%d, all N² pairs;\n", o.n, o.seeds)
	fmt.Fprintf(&b, "γ from the 5th-percentile bandwidth rule; PRFF with its defaults (learners/prff)")
	if c := o.cfg; c.MaxIter != 0 || c.FreqLambda != 0 || c.Alpha != 0 {
		fmt.Fprintf(&b, " except MaxIter = %d, FreqLambda = %g, Alpha = %g (0: default)", c.MaxIter, c.FreqLambda, c.Alpha)
	}
	fmt.Fprintf(&b, "; RFF and ORF from featmap.NewRFF.\n\n")
	fmt.Fprintf(&b, "| d | D | PRFF | RFF | ORF | PRFF/RFF | PRFF/ORF |\n|---:|---:|---:|---:|---:|---:|---:|\n")
	allBelow := true
	var notes []string
	for _, r := range results {
		for i, D := range o.feats {
			fmt.Fprintf(&b, "| %d | %d | %.3e | %.3e | %.3e | %.3f | %.3f |\n", r.d, D, r.prff[i], r.rff[i], r.orf[i], r.prff[i]/r.rff[i], r.prff[i]/r.orf[i])
			if !(r.prff[i] < r.rff[i]) {
				allBelow = false
				notes = append(notes, fmt.Sprintf("d=%d D=%d", r.d, D))
			}
		}
	}
	fmt.Fprintln(&b)
	if allBelow {
		fmt.Fprintf(&b, "PRFF is below RFF at every D and d: yes.\n")
	} else {
		fmt.Fprintf(&b, "PRFF is below RFF at every D and d: no (not at %s).\n", strings.Join(notes, ", "))
	}
	fmt.Fprintln(&b)
	for _, r := range results {
		fmt.Fprintf(&b, "d = %d: %v in total, %v of it learning PRFF (%d seeds, max D = %d, GOMAXPROCS = %d).\n",
			r.d, r.elapsed.Round(time.Millisecond), r.learning.Round(time.Millisecond), o.seeds, slicesMax(o.feats), runtime.GOMAXPROCS(0))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func slicesMax(v []int) int {
	m := 0
	for _, x := range v {
		m = max(m, x)
	}
	return m
}
