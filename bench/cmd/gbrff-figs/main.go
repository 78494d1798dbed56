// Command gbrff-figs reproduces Figs. 1–5 of Gautheron et al.,
// "Landmark-based Ensemble Learning with Random Fourier Features and
// Gradient Boosting" (ECML PKDD 2020), one figure per -fig value, each
// writing <outdir>/gbrff-figN.md (the paper's statements beside our
// numbers, seeds, machine, wall time) and <outdir>/gbrff-figN.png.
//
//	go run ./bench/cmd/gbrff-figs -fig 1 -outdir bench/out            # quick (seconds to ~1 min each)
//	go run ./bench/cmd/gbrff-figs -fig all -full -outdir bench/results # the paper's sizes
//
// The figures (the paper gives them as plots only, no numbers; its text's
// statements are quoted in each report):
//
//	1  two moons, GBRFF1 with K = 1: decision boundary after 1, 10, 100 rounds
//	2  mean test accuracy over the 16 Table 2 sets against the number of
//	   landmarks 1…50 for GBRFF1, PBRFF and GBRFF2
//	3  GBRFF1 with K ∈ {1, 5, 10, 20} at a fixed total T·K of random features
//	4  fit + predict time against n = 150·1.5^k on make_classification-style
//	   data (bench/peers.Classification, d = 20), log–log; XGBoost's times are
//	   read from bench/peers/xgboost.py's output (-xgboost FILE) when given —
//	   the command itself never runs Python
//	5  GBRFF2 (T = 1000) test accuracy on the four 2-D toys against n
//
// GBRFF models are fitted once at the largest round count and read at every
// smaller one (staged.go): the frequencies of all rounds are drawn up front
// from one stream, so the first t rounds of a T-round fit are the t-round
// fit. GBRFF models are uncalibrated (calibration does not change Predict).
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/rfkit/rfkit/bench/internal/hostinfo"
	"github.com/rfkit/rfkit/bench/internal/resultfile"
	"github.com/rfkit/rfkit/internal/cputime"
)

// options are the parsed flags shared by every figure.
type options struct {
	full    bool
	seeds   int // 0: the figure's default
	data    string
	outdir  string
	xgboost string // fig 4: bench/peers/xgboost.py output
	xgbToys string // fig 5: xgboost_toys.py output
	sets    []string
	noPNG   bool
}

// report is what a figure hands back to be written.
type report struct {
	fig     int
	title   string
	command string
	body    strings.Builder
	png     func(path string) error // nil: no plot
}

func main() {
	var o options
	figs := flag.String("fig", "all", "figures to run: 1..5, comma-separated, or all")
	flag.BoolVar(&o.full, "full", false, "the paper's sizes (seeds, sets, n) instead of the quick default")
	flag.IntVar(&o.seeds, "seeds", 0, "seeds (splits) to average over; 0 = the figure's default (quick or -full)")
	flag.StringVar(&o.data, "data", "../shared/datasets", "directory of the Table 2 data sets (figs. 2, 3)")
	flag.StringVar(&o.outdir, "outdir", "bench/out", "write gbrff-figN.md and .png into this `DIR`")
	flag.StringVar(&o.xgboost, "xgboost", "", "fig. 4: the output of bench/peers/xgboost.py on the same rows, to put beside ours")
	flag.StringVar(&o.xgbToys, "xgboost-toys", "", "fig. 5: the output of bench/cmd/gbrff-figs/xgboost_toys.py, to put beside GBRFF2")
	writeToysDir := flag.String("write-toys", "", "write fig. 5's toy sets (quick, or with -full) as CSV into `DIR` for xgboost_toys.py and exit")
	sets := flag.String("sets", "", "figs. 2, 3: comma-separated data sets (default: all 16 of Table 2)")
	flag.BoolVar(&o.noPNG, "nopng", false, "skip the plots")
	listN := flag.Bool("fig4-sizes", false, "print fig. 4's sizes n (quick, or with -full) comma-separated and exit (for the XGBoost peer)")
	flag.Parse()
	if *writeToysDir != "" {
		if err := writeToys(o, *writeToysDir); err != nil {
			fmt.Fprintln(os.Stderr, "gbrff-figs:", err)
			os.Exit(1)
		}
		return
	}
	if *listN {
		k := fig4KQuick
		if o.full {
			k = fig4KFull
		}
		var ns []string
		for _, n := range fig4Sizes(k) {
			ns = append(ns, strconv.Itoa(n))
		}
		fmt.Println(strings.Join(ns, ","))
		return
	}
	if *sets != "" {
		o.sets = strings.Split(*sets, ",")
	}
	list, err := parseFigs(*figs)
	if err == nil {
		err = os.MkdirAll(o.outdir, 0o755)
	}
	for _, f := range list {
		if err != nil {
			break
		}
		err = runFig(f, o, os.Stderr)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gbrff-figs:", err)
		os.Exit(1)
	}
}

func parseFigs(s string) ([]int, error) {
	if s == "all" {
		return []int{1, 2, 3, 4, 5}, nil
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || k < 1 || k > 5 {
			return nil, fmt.Errorf("-fig %q: want 1..5 or all", s)
		}
		out = append(out, k)
	}
	return out, nil
}

var figures = map[int]func(o options, log io.Writer) (*report, error){
	1: fig1, 2: fig2, 3: fig3, 4: fig4, 5: fig5,
}

// runFig runs one figure and writes its markdown and plot.
func runFig(k int, o options, log io.Writer) error {
	start, cpu0 := time.Now(), cputime.Process()
	r, err := figures[k](o, log)
	if err != nil {
		return fmt.Errorf("fig. %d: %w", k, err)
	}
	base := filepath.Join(o.outdir, fmt.Sprintf("gbrff-fig%d", k))
	var b strings.Builder
	fmt.Fprintf(&b, "# GBRFF paper, Fig. %d: %s\n\n", k, r.title)
	fmt.Fprintf(&b, "Command: `%s`", r.command)
	if o.full {
		fmt.Fprintf(&b, ", the -full protocol (`make reproduce-gbrff-fig%d FULL=1`)", k)
	} else {
		fmt.Fprintf(&b, ", the quick default (`make reproduce-gbrff-fig%d`; `-full`, `FULL=1`, gives the paper's sizes)", k)
	}
	fmt.Fprintf(&b, ".\n\n")
	b.WriteString(r.body.String())
	if r.png != nil && !o.noPNG {
		if err := r.png(base + ".png"); err != nil {
			return fmt.Errorf("fig. %d plot: %w", k, err)
		}
		fmt.Fprintf(&b, "\nPlot: [gbrff-fig%d.png](gbrff-fig%d.png).\n", k, k)
	}
	wall, cpu := time.Since(start), cputime.Process()-cpu0
	fmt.Fprintf(&b, "\n%s Wall time %v, CPU %v.\n", machine(), wall.Round(10*time.Millisecond), cpu.Round(10*time.Millisecond))
	if err := resultfile.Write(base+".md", []byte(b.String())); err != nil {
		return err
	}
	fmt.Fprintf(log, "gbrff-figs: wrote %s.md (%v)\n", base, wall.Round(time.Millisecond))
	return nil
}

// machine describes where the numbers were measured.
func machine() string {
	model := hostinfo.CPUName()
	load := ""
	if l := hostinfo.LoadAverage(); l != "?" {
		load = ", load average " + l + " at the end"
	}
	return fmt.Sprintf("Machine: %s, %d CPUs, GOMAXPROCS %d, %s %s/%s, %s%s.", model, runtime.NumCPU(), runtime.GOMAXPROCS(0),
		runtime.Version(), runtime.GOOS, runtime.GOARCH, time.Now().UTC().Format("2006-01-02"), load)
}

// seedsOr is o.seeds, or quick / full when it is 0.
func (o options) seedsOr(quick, full int) int {
	switch {
	case o.seeds > 0:
		return o.seeds
	case o.full:
		return full
	}
	return quick
}

// cmdLine spells the command that reproduces a figure.
func (o options) cmdLine(fig int, extra ...string) string {
	s := fmt.Sprintf("go run ./bench/cmd/gbrff-figs -fig %d", fig)
	if o.full {
		s += " -full"
	}
	if o.seeds > 0 {
		s += fmt.Sprintf(" -seeds %d", o.seeds)
	}
	for _, e := range extra {
		if e != "" {
			s += " " + e
		}
	}
	return s
}
