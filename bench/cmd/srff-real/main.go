// Command srff-real reproduces Table 8 of the SRFF paper (Gregorová et
// al. 2018): the test RMSE of the mean predictor, linear ridge, random
// Fourier features + ridge and SRFF on the LIACC sets Computer Activity
// (RCP, ../shared/datasets/cpu_act), F16 elevators (REL) and F16 ailerons
// (RAI), with the paper's train/validation/test sizes (6k/1k/1k,
// 6k/1k/1k, 11k/1k/1k) under -full.
//
//	go run ./bench/cmd/srff-real -data ../shared/datasets                  # quick: 400/100/1000 rows, D = 100, 1 split
//	go run ./bench/cmd/srff-real -data ../shared/datasets -full -reps 3 -out bench/results/srff-real.md
//
// Protocol (one replication): the rows are permuted by the seed; the first
// 1000 are the test set, the next 1000 the validation set, the next ntrain
// the training set. Every method chooses its λ on the validation set and
// is then refitted on training + validation rows:
//
//   - Mean: the mean of the training + validation targets.
//   - Ridge: linear ridge (solvers.Ridge, intercept unpenalised) on inputs
//     standardised on the training part, λ from a log grid 1e-8…1e2.
//   - RFF: learners/rks (ridge) with D features of the Gaussian kernel at
//     the paper's width: frequencies N(0, I/σ²), σ the median
//     20-nearest-neighbour distance SRFF computes for its simplex
//     (s = d/σ); λ over SRFF's grid (26 values, 1e-1…1e-6).
//   - SRFF: learners/srff at its defaults with D features, given the
//     training + validation rows and Validation = nval/(ntrain + nval), so
//     its own held-out part has the paper's validation size; it searches
//     λ on that part and refits on all of them (see the package
//     documentation). The simplex size s (the paper's third
//     hyper-parameter) is chosen on the same held-out rows among
//     the factors 1, 0.5 and 0.25 of the default d/σ, by SRFF's
//     own default fit (-search=false: s = d/σ): on cpu_act the
//     default s = d/σ ≈ 13 gives a kernel far too narrow (test RMSE 12.4
//     on 1000 training rows, 2.7 at s = 3).
//
// Units: the paper's Mean column is 18.5 on RCP, the spread of cpu_act's
// raw target (% CPU user time), and about 1 on REL and RAI, whose raw
// targets are of order 1e-2 and 1e-3: those two are reported in units of
// the target's standard deviation (y standardised on the training +
// validation rows), RCP in raw units, so all four columns compare with
// the paper's.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/rfkit/rfkit/bench/internal/hostinfo"
	"github.com/rfkit/rfkit/bench/internal/resultfile"
	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/solvers"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/rks"
	"github.com/rfkit/rfkit/learners/srff"
)

// set is one experiment of Table 8 with the paper's numbers (means over
// 30 splits: Mean, Ridge, RFF, SRFF, and SRFF's standard deviation).
type set struct {
	code, dir  string
	train      int  // the paper's training size
	standardY  bool // report in units of the target's standard deviation
	paper      [4]float64
	paperSRFSD float64
}

var sets = []set{
	{"RCP", "cpu_act", 6000, false, [4]float64{18.518, 9.686, 8.194, 2.516}, 0.184},
	{"REL", "elevators", 6000, true, [4]float64{1.044, 0.514, 0.446, 0.314}, 0.032},
	{"RAI", "ailerons", 11000, true, [4]float64{1.013, 0.430, 0.498, 0.407}, 0.022},
}

// options are the command's settings.
type options struct {
	data             string
	train, val, test int // 0 train: the paper's
	features, reps   int
	seed             uint64
	codes            []string
	full             bool
	search           bool // SRFF's default simplex-size search
}

// row is one replication of one set.
type row struct {
	mean, ridge, rff, srff float64
	top                    []int // 1-based, by decreasing γ
	gamma                  []float64
	lambda, factor         float64 // SRFF's λ and simplex factor
	elapsed                time.Duration
}

func main() {
	var o options
	flag.StringVar(&o.data, "data", "../shared/datasets", "directory of the data sets (../shared/datasets)")
	flag.BoolVar(&o.full, "full", false, "the paper's sizes (6k/1k/1k, 6k/1k/1k, 11k/1k/1k) and D = 300; default: 400/100/1000 rows and D = 100")
	flag.IntVar(&o.train, "train", 0, "training rows (0: 400, or the paper's under -full)")
	flag.IntVar(&o.val, "val", 0, "validation rows (0: 100, or 1000 under -full)")
	flag.IntVar(&o.test, "test", 1000, "test rows")
	flag.IntVar(&o.features, "features", 0, "random features D (0: 100, or 300 under -full)")
	flag.IntVar(&o.reps, "reps", 1, "replications (random splits)")
	flag.Uint64Var(&o.seed, "seed", 1, "seed of the first split (replication r uses seed + r)")
	codes := flag.String("sets", "RCP,REL,RAI", "comma-separated experiment codes")
	flag.BoolVar(&o.search, "search", true, "SRFF's default search of the simplex size among (1, 0.5, 0.25)·d/σ on the validation rows (false: s = d/σ)")
	out := flag.String("out", "", "also write the markdown table to this file")
	flag.Parse()
	o.codes = strings.Split(*codes, ",")
	if o.val == 0 {
		o.val = map[bool]int{false: 100, true: 1000}[o.full]
	}
	if o.features == 0 {
		o.features = map[bool]int{false: 100, true: 300}[o.full]
	}
	start := time.Now()
	var b strings.Builder
	if err := run(context.Background(), o, &b, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "srff-real:", err)
		os.Exit(1)
	}
	fmt.Fprintf(&b, "\nWall time %s; %s, %d CPUs (GOMAXPROCS %d), %s/%s.\n", time.Since(start).Round(time.Second), hostinfo.CPUName(), runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH)
	fmt.Print(b.String())
	if *out != "" {
		if err := resultfile.Write(*out, []byte(b.String())); err != nil {
			fmt.Fprintln(os.Stderr, "srff-real:", err)
			os.Exit(1)
		}
	}
}

func run(ctx context.Context, o options, md, log io.Writer) error {
	fmt.Fprintf(md, "# SRFF Table 8 (RCP, REL, RAI): test RMSE, mean over %d split(s), seeds %d…%d, D = %d\n\n", o.reps, o.seed, o.seed+uint64(o.reps)-1, o.features)
	fmt.Fprintln(md, "| set | train/val/test | Mean (paper) | Ridge (paper) | RFF (paper) | SRFF ± sd (paper ± sd) | SRFF within 10 % | SRFF < RFF | top inputs by γ (1-based: γ), first split | s/(d/σ) chosen, first split | time |")
	fmt.Fprintln(md, "|---|---|---|---|---|---|---|---|---|---|---|")
	allOK := true
	for _, code := range o.codes {
		i := slices.IndexFunc(sets, func(s set) bool { return strings.EqualFold(s.code, strings.TrimSpace(code)) })
		if i < 0 {
			return fmt.Errorf("unknown set %q (want RCP, REL or RAI)", code)
		}
		s := sets[i]
		ds, err := dataset.LoadCSV(filepath.Join(o.data, s.dir, s.dir+".csv"), dataset.CSVOptions{})
		if err != nil {
			return err
		}
		ntr := o.train
		if ntr == 0 {
			ntr = map[bool]int{false: 400, true: s.train}[o.full]
		}
		if ntr+o.val+o.test > ds.N {
			return fmt.Errorf("%s: %d + %d + %d rows wanted, the file has %d", s.code, ntr, o.val, o.test, ds.N)
		}
		var rows []row
		t0 := time.Now()
		for r := 0; r < o.reps; r++ {
			res, err := replicate(ctx, s, ds, ntr, o, o.seed+uint64(r), log)
			if err != nil {
				return fmt.Errorf("%s seed %d: %w", s.code, o.seed+uint64(r), err)
			}
			rows = append(rows, res)
		}
		avg := func(f func(row) float64) (m, sd float64) {
			for _, x := range rows {
				m += f(x)
			}
			m /= float64(len(rows))
			for _, x := range rows {
				sd += (f(x) - m) * (f(x) - m)
			}
			if len(rows) > 1 {
				sd = math.Sqrt(sd / float64(len(rows)-1))
			}
			return m, sd
		}
		mm, _ := avg(func(x row) float64 { return x.mean })
		mr, _ := avg(func(x row) float64 { return x.ridge })
		mf, _ := avg(func(x row) float64 { return x.rff })
		ms, sds := avg(func(x row) float64 { return x.srff })
		within := ms <= 1.1*s.paper[3]
		below := true
		for _, x := range rows {
			below = below && x.srff < x.rff
		}
		allOK = allOK && within && below
		var top []string
		for k, v := range rows[0].top {
			top = append(top, fmt.Sprintf("%d: %.3g", v, rows[0].gamma[k]))
		}
		fmt.Fprintf(md, "| %s (%s) | %d/%d/%d | %.3f (%.3f) | %.3f (%.3f) | %.3f (%.3f) | %.3f ± %.3f (%.3f ± %.3f) | %s | %s | %s | %g | %s |\n",
			s.code, s.dir, ntr, o.val, o.test, mm, s.paper[0], mr, s.paper[1], mf, s.paper[2], ms, sds, s.paper[3], s.paperSRFSD,
			yesNo(within), yesNo(below), strings.Join(top, ", "), rows[0].factor, time.Since(t0).Round(time.Second))
	}
	fmt.Fprintf(md, "\nTargets (SRFF ≤ 1.1 × the paper's RMSE and below RFF on every split): %s\n", map[bool]string{true: "all hold", false: "NOT all hold"}[allOK])
	if !o.full {
		fmt.Fprintln(md, "\nQuick run (not the paper's sizes): the targets are for -full.")
	}
	return nil
}

// replicate runs one split of one set.
func replicate(ctx context.Context, s set, ds *dataset.Dataset, ntr int, o options, seed uint64, log io.Writer) (row, error) {
	start := time.Now()
	d := ds.D
	perm := rand.New(rand.NewPCG(seed, 0x5461626c6538)).Perm(ds.N) // "Table8"
	test, val, tr := perm[:o.test], perm[o.test:o.test+o.val], perm[o.test+o.val:o.test+o.val+ntr]
	trval := append(slices.Clone(tr), val...)
	// Target units: standardised on train + validation for REL and RAI.
	ym, ys := 0.0, 1.0
	if s.standardY {
		ym, ys = meanSD(pick(ds.Y, trval))
	}
	scaled := func(idx []int) (featmap.Matrix, []float64) {
		X := learners.Rows(ds.Matrix(), idx)
		y := pick(ds.Y, idx)
		for i := range y {
			y[i] = (y[i] - ym) / ys
		}
		return X, y
	}
	Xtr, ytr := scaled(tr)
	Xv, yv := scaled(val)
	Xtv, ytv := scaled(trval)
	Xte, yte := scaled(test)
	var res row

	// Mean.
	m, _ := meanSD(ytv)
	var ss float64
	for _, v := range yte {
		ss += (v - m) * (v - m)
	}
	res.mean = math.Sqrt(ss / float64(len(yte)))

	// Linear ridge on inputs standardised on the training part.
	mu, sc, _, err := learners.Standardize(Xtr)
	if err != nil {
		return res, err
	}
	std := func(X featmap.Matrix) []float64 {
		out := make([]float64, X.Rows*d)
		for i := 0; i < X.Rows; i++ {
			for k, v := range X.Row(i) {
				out[i*d+k] = (v - mu[k]) / sc[k]
			}
		}
		return out
	}
	ztr, zv, ztv, zte := std(Xtr), std(Xv), std(Xtv), std(Xte)
	linRMSE := func(w []float64, b float64, z []float64, y []float64) float64 {
		var s float64
		for i, v := range y {
			p := b
			for k := 0; k < d; k++ {
				p += w[k] * z[i*d+k]
			}
			s += (v - p) * (v - p)
		}
		return math.Sqrt(s / float64(len(y)))
	}
	bestL, bestE := 0.0, math.Inf(1)
	for e := -8.0; e <= 2; e += 0.5 {
		l := math.Pow(10, e)
		w, b, err := solvers.Ridge(ztr, len(ytr), d, ytr, l, solvers.RidgeOptions{})
		if err != nil {
			continue
		}
		if v := linRMSE(w, b, zv, yv); v < bestE {
			bestL, bestE = l, v
		}
	}
	if bestL == 0 {
		return res, fmt.Errorf("linear ridge: no λ of the grid solved")
	}
	w, b, err := solvers.Ridge(ztv, len(ytv), d, ytv, bestL, solvers.RidgeOptions{})
	if err != nil {
		return res, fmt.Errorf("linear ridge: %w", err)
	}
	res.ridge = linRMSE(w, b, zte, yte)

	// SRFF on train + validation, its held-out part the validation size.
	cfg := srff.Config{Features: o.features, Validation: float64(o.val) / float64(ntr+o.val), Seed: seed,
		Progress: func(e learners.Event) error {
			fmt.Fprintf(log, "%s seed %d: SRFF fit %d/%d J=%.5g %s\n", s.code, seed, e.Round, e.Rounds, e.Loss, e.Elapsed.Round(time.Millisecond))
			return nil
		}}
	// The simplex size s is the paper's third hyper-parameter (Algorithm
	// 1's input): SRFF's default fit chooses it among
	// (1, 0.5, 0.25)·d/σ, each fitted with its own λ search on the same
	// held-out rows (the split depends only on the seed), the smallest
	// validation RMSE winning.
	if !o.search {
		cfg.Search = learners.Disabled
	}
	sm, err := srff.Fit(ctx, Xtv, ytv, cfg)
	if err != nil {
		return res, fmt.Errorf("SRFF: %w", err)
	}
	s0 := sm.Config().Simplex
	res.factor = 1
	for _, p := range sm.SimplexSearch() {
		fmt.Fprintf(log, "%s seed %d: SRFF s = %.3g: validation RMSE %.4f\n", s.code, seed, p.Simplex, p.RMSE)
		if p.Factor == 1 {
			s0 = p.Simplex
		}
		if p.Simplex == sm.Config().Simplex {
			res.factor = p.Factor
		}
	}
	res.srff = rmse(sm, Xte, yte)
	res.lambda = sm.Config().Lambda
	imp := sm.Importance()
	for _, k := range sm.Ranked()[:min(8, d)] {
		res.top = append(res.top, k+1)
		res.gamma = append(res.gamma, imp[k])
	}

	// RFF + ridge at SRFF's width, λ on the validation set, refit.
	sigma := float64(d) / s0
	base := rks.Config{Features: o.features, Gamma: 1 / (2 * sigma * sigma), Loss: rks.Ridge, Task: learners.Regression, Seed: seed}
	c := sm.Config()
	bestL, bestE = 0, math.Inf(1)
	for i := 0; i < c.Lambdas; i++ {
		t := float64(i) / float64(max(1, c.Lambdas-1))
		cc := base
		cc.Lambda = c.LambdaMax * math.Pow(c.LambdaMin/c.LambdaMax, t)
		rm, err := rks.Fit(ctx, Xtr, ytr, cc)
		if err != nil {
			continue
		}
		if e := rmse(rm, Xv, yv); e < bestE {
			bestL, bestE = cc.Lambda, e
		}
	}
	if bestL == 0 {
		return res, fmt.Errorf("RFF: no λ of the grid solved")
	}
	base.Lambda = bestL
	rm, err := rks.Fit(ctx, Xtv, ytv, base)
	if err != nil {
		return res, fmt.Errorf("RFF: %w", err)
	}
	res.rff = rmse(rm, Xte, yte)
	res.elapsed = time.Since(start)
	fmt.Fprintf(log, "%s seed %d: mean %.4f ridge %.4f RFF %.4f SRFF %.4f (λ %.3g, σ %.3g), top %v (%s)\n",
		s.code, seed, res.mean, res.ridge, res.rff, res.srff, res.lambda, sigma, res.top, res.elapsed.Round(time.Second))
	return res, nil
}

func meanSD(y []float64) (m, sd float64) {
	for _, v := range y {
		m += v
	}
	m /= float64(len(y))
	for _, v := range y {
		sd += (v - m) * (v - m)
	}
	sd = math.Sqrt(sd / float64(len(y)))
	if !(sd > 0) {
		sd = 1
	}
	return m, sd
}

func pick(y []float64, idx []int) []float64 {
	out := make([]float64, len(idx))
	for j, i := range idx {
		out[j] = y[i]
	}
	return out
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

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
