// Command srff-se reproduces the synthetic experiments of the SRFF paper
// (Gregorová et al. 2018, Tables 3 and 5): the test RMSE of learners/srff on
// SE1 and SE2 (D = 300) next to the paper's, the mean predictor and plain
// random Fourier features + ridge, and the inputs ranked first by the
// learned γ next to the truly relevant ones.
//
//	go run ./bench/cmd/srff-se -out bench/out/srff-se.md    # all four rows
//	go run ./bench/cmd/srff-se -n 1000 -sets SE2
//	go run ./bench/cmd/srff-se -n 10000 -sets SE2 -cpuprofile bench/out/se2.prof
//
// Protocol: the training set has n rows; SRFF runs at its defaults (20 % of
// the rows held out to choose λ over up to 26 log-spaced values in
// [1e-6, 1e-1], walked from the largest and stopped after 3 in a row more
// than 5 % above the best validation RMSE, each fitted to convergence from
// the even γ, then a refit on all n rows — see the package documentation). The RFF baseline holds out 20 % too and
// searches the same grid, then refits on all n. The test set is a fresh
// sample of -test rows drawn with another seed. The mean predictor is the
// training mean. The RFF baseline is learners/rks (ridge, with intercept)
// with the paper's kernel width: frequencies N(0, I/σ²), σ the same median
// 20-nearest-neighbour distance SRFF uses (rks Gamma = 1/(2σ²)). Targets:
// SRFF's RMSE at most 10 % above the paper's, and on SE2 the five relevant
// inputs ranked first. The log (stderr) shows each fit of the search and
// the validation RMSE of every λ.
//
// The paper's numbers are means over 30 resamples with a standard deviation
// of about 0.01 (SE1) and 0.1 (SE2); one run here is one resample, and on
// SE2, whose target log((Σx)²) has a heavy lower tail, the test RMSE of a
// fixed model moves by several hundredths between test samples.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rfkit/rfkit/dataset/synth"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/rks"
	"github.com/rfkit/rfkit/learners/srff"
)

// paper holds the SRFF paper's test RMSE of SRFF and of the mean predictor
// (Tables 3 and 5; SE2 at 10k: 1.272).
var paper = map[string]map[int][2]float64{
	"SE1": {1000: {0.272, 0.287}, 5000: {0.263, 0.284}, 10000: {0.261, 0.285}, 50000: {0.255, 0.283}},
	"SE2": {1000: {1.603, 2.216}, 5000: {1.278, 2.211}, 10000: {1.272, 2.224}, 50000: {1.273, 2.224}},
}

// options are the command's settings.
type options struct {
	sets     []string
	sizes    []int
	test     int
	features int
	lambdas  int
	maxIter  int // srff MaxIterations (0: its default)
	seed     uint64
}

// result is one row of the table.
type result struct {
	set                      string
	n                        int
	srff, mean, rff          float64
	paperSRFF, paperMean     float64
	top, relevant            []int // 1-based
	allFound, rmseOK, hasRef bool
	lambda, simplex          float64
	elapsed                  time.Duration
}

func main() {
	var (
		sets  = flag.String("sets", "SE1,SE2", "comma-separated data sets (SE1, SE2)")
		sizes = flag.String("n", "1000,10000", "comma-separated training sizes")
		test  = flag.Int("test", 10000, "test rows (a fresh sample)")
		feat  = flag.Int("features", 300, "random features D")
		lams  = flag.Int("lambdas", 0, "size of the λ grid (0: srff's default)")
		iters = flag.Int("iterations", 0, "maximum alternations per fit (0: srff's default)")
		seed  = flag.Uint64("seed", 1, "seed of the data and the features")
		out   = flag.String("out", "", "also write the markdown table to this file")
		prof  = flag.String("cpuprofile", "", "write a CPU profile of the whole run to this file")
	)
	flag.Parse()
	if *prof != "" {
		f, err := os.Create(*prof)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "srff-se:", err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	o := options{sets: strings.Split(*sets, ","), test: *test, features: *feat, lambdas: *lams, maxIter: *iters, seed: *seed}
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			fmt.Fprintf(os.Stderr, "srff-se: bad -n %q: %v\n", s, err)
			os.Exit(2)
		}
		o.sizes = append(o.sizes, n)
	}
	res, err := run(context.Background(), o, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "srff-se:", err)
		pprof.StopCPUProfile()
		os.Exit(1)
	}
	table := markdown(o, res)
	fmt.Print(table)
	if *out != "" {
		if err := os.WriteFile(*out, []byte(table), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "srff-se:", err)
			pprof.StopCPUProfile()
			os.Exit(1)
		}
	}
}

// generate draws a data set by name.
func generate(name string, n int, seed uint64) (*synth.Set, []int, error) {
	switch strings.ToUpper(strings.TrimSpace(name)) {
	case "SE1":
		s, err := synth.SE1(n, seed)
		return s, synth.RelevantSE1(), err
	case "SE2":
		s, err := synth.SE2(n, seed)
		return s, synth.RelevantSE2(), err
	case "SE3":
		s, err := synth.SE3(n, seed)
		return s, synth.RelevantSE3(), err
	}
	return nil, nil, fmt.Errorf("unknown data set %q (want SE1, SE2 or SE3)", name)
}

// run fits and evaluates every (set, n), logging progress to log.
func run(ctx context.Context, o options, log io.Writer) ([]result, error) {
	var out []result
	for _, name := range o.sets {
		name = strings.ToUpper(strings.TrimSpace(name))
		for _, n := range o.sizes {
			start := time.Now()
			tr, relevant, err := generate(name, n, o.seed)
			if err != nil {
				return nil, err
			}
			te, _, err := generate(name, o.test, o.seed+1_000_003)
			if err != nil {
				return nil, err
			}
			X := featmap.Dense(tr.N, tr.D, tr.X)
			Xt := featmap.Dense(te.N, te.D, te.X)
			cfg := srff.Config{Features: o.features, Lambdas: o.lambdas, MaxIterations: o.maxIter, Seed: o.seed, Task: learners.Regression,
				Progress: func(e learners.Event) error {
					fmt.Fprintf(log, "%s n=%d: fit %d/%d J=%.5g %s\n", name, n, e.Round, e.Rounds, e.Loss, e.Elapsed.Round(time.Millisecond))
					return nil
				}}
			m, err := srff.Fit(ctx, X, tr.Y, cfg)
			if err != nil {
				return nil, fmt.Errorf("%s n=%d: %w", name, n, err)
			}
			for _, p := range m.Search() {
				fmt.Fprintf(log, "%s n=%d: λ %.3g validation RMSE %.4f\n", name, n, p.Lambda, p.RMSE)
			}
			r := result{set: name, n: n, lambda: m.Config().Lambda, simplex: m.Config().Simplex}
			r.srff = rmse(m, Xt, te.Y)
			var ybar float64
			for _, v := range tr.Y {
				ybar += v
			}
			ybar /= float64(len(tr.Y))
			var s float64
			for _, v := range te.Y {
				s += (v - ybar) * (v - ybar)
			}
			r.mean = math.Sqrt(s / float64(len(te.Y)))
			sigma := float64(tr.D) / m.Config().Simplex
			rf, err := rffBaseline(ctx, X, tr.Y, sigma, m.Config(), o.seed)
			if err != nil {
				return nil, fmt.Errorf("%s n=%d: RFF baseline: %w", name, n, err)
			}
			r.rff = rmse(rf, Xt, te.Y)
			k := len(relevant)
			rank := m.Ranked()
			for _, v := range rank[:k] {
				r.top = append(r.top, v+1)
			}
			for _, v := range relevant {
				r.relevant = append(r.relevant, v+1)
			}
			slices.Sort(r.top)
			r.allFound = slices.Equal(r.top, r.relevant)
			if p, ok := paper[name][n]; ok {
				r.hasRef, r.paperSRFF, r.paperMean = true, p[0], p[1]
				r.rmseOK = r.srff <= 1.1*p[0]
			}
			r.elapsed = time.Since(start)
			fmt.Fprintf(log, "%s n=%d: SRFF %.4f, mean %.4f, RFF %.4f, top %v (%s)\n", name, n, r.srff, r.mean, r.rff, r.top, r.elapsed.Round(time.Second))
			out = append(out, r)
		}
	}
	return out, nil
}

// rffBaseline is plain RFF + ridge (rks) with frequencies N(0, I/σ²) and λ
// chosen on the same kind of split and grid as SRFF, refitted on all rows.
func rffBaseline(ctx context.Context, X featmap.Matrix, y []float64, sigma float64, c srff.Config, seed uint64) (*rks.Model, error) {
	n := X.Rows
	perm := rand.New(rand.NewPCG(seed, 0x726666)).Perm(n)
	nv := max(1, int(float64(n)*c.Validation+0.5))
	val, tr := perm[:nv], perm[nv:]
	sub := func(idx []int) (featmap.Matrix, []float64) {
		x := make([]float64, 0, len(idx)*X.Cols)
		yy := make([]float64, len(idx))
		for j, i := range idx {
			x = append(x, X.Row(i)...)
			yy[j] = y[i]
		}
		return featmap.Dense(len(idx), X.Cols, x), yy
	}
	Xtr, ytr := sub(tr)
	Xv, yv := sub(val)
	base := rks.Config{Features: c.Features, Gamma: 1 / (2 * sigma * sigma), Loss: rks.Ridge, Task: learners.Regression, Seed: seed}
	best, bestErr := 0.0, math.Inf(1)
	for i := 0; i < c.Lambdas; i++ {
		t := float64(i) / float64(max(1, c.Lambdas-1))
		lambda := c.LambdaMax * math.Pow(c.LambdaMin/c.LambdaMax, t)
		cc := base
		cc.Lambda = lambda
		m, err := rks.Fit(ctx, Xtr, ytr, cc)
		if err != nil {
			return nil, err
		}
		if e := rmse(m, Xv, yv); e < bestErr {
			best, bestErr = lambda, e
		}
	}
	base.Lambda = best
	return rks.Fit(ctx, X, y, base)
}

// rmse is the root mean squared error of m on (X, y).
func rmse(m learners.Model, X featmap.Matrix, y []float64) float64 {
	p := make([]float64, X.Rows)
	if err := m.PredictBatch(p, X); err != nil {
		return math.NaN()
	}
	var s float64
	for i, v := range y {
		s += (v - p[i]) * (v - p[i])
	}
	return math.Sqrt(s / float64(len(y)))
}

// markdown renders the results and the verdict on the targets.
func markdown(o options, res []result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# SRFF on SE1/SE2 (D = %d, test %d fresh rows, seed %d)\n\n", o.features, o.test, o.seed)
	b.WriteString("| set | n | SRFF RMSE | paper SRFF | within 10 % | mean | paper mean | RFF + ridge | top-ranked γ (1-based) | relevant | all found | λ | s = d/σ | time |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	allOK := true
	for _, r := range res {
		ps, pm, ok := "–", "–", "–"
		if r.hasRef {
			ps, pm, ok = fmt.Sprintf("%.3f", r.paperSRFF), fmt.Sprintf("%.3f", r.paperMean), yesNo(r.rmseOK)
			allOK = allOK && r.rmseOK
		}
		found := yesNo(r.allFound)
		if r.set == "SE2" {
			allOK = allOK && r.allFound
		} else {
			found += " (not a target)"
		}
		fmt.Fprintf(&b, "| %s | %d | %.3f | %s | %s | %.3f | %s | %.3f | %v | %v | %s | %.3g | %.3g | %s |\n",
			r.set, r.n, r.srff, ps, ok, r.mean, pm, r.rff, ints(r.top), ints(r.relevant), found, r.lambda, r.simplex, r.elapsed.Round(time.Second))
	}
	fmt.Fprintf(&b, "\nTargets (SRFF RMSE ≤ 1.1 × paper; SE2: the five relevant inputs ranked first): %s\n", map[bool]string{true: "all hold", false: "NOT all hold"}[allOK])
	return b.String()
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func ints(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return "{" + strings.Join(s, ",") + "}"
}
