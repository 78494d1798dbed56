package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"

	"github.com/rfkit/rfkit/bench/peers"
	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/cputime"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/gbrff"
)

// workRows and workInputs are the shape of the synthetic sources of the
// ω-search table (the size the booster's speed is quoted at).
const (
	workRows   = 100_000
	workInputs = 20
)

// workSource is a data set the ω-search table measures GBRFF2 on besides
// the panel's own sets: the peers generator (bench/peers.Classification)
// at a seed, or a scikit-learn make_classification recipe that
// bench/peers/panel.py --recipes wrote as CSV.
type workSource struct {
	Name string
	Seed uint64 // peers.Classification's seed; 0 for a CSV
	File string // the CSV under OUT/recipes
}

var workSources = []workSource{
	{Name: "peers.Classification(1e5, 20, 1)", Seed: 1},
	{Name: "peers.Classification(1e5, 20, 7)", Seed: 7},
	{Name: "make_classification(1e5, 20), defaults", File: "make_classification-defaults.csv"},
	{Name: "make_classification(1e5, 20), 10 informative, 3 clusters, class_sep 0.7", File: "make_classification-other.csv"},
}

// fitWork fits GBRFF2 at its defaults on every work source (all its rows;
// one thread) and writes its FitStats per round into OUT/work.jsonl. A
// recipe whose CSV is missing is reported and skipped.
func fitWork(ctx context.Context, o *options, stderr io.Writer) error {
	st, err := openStore(filepath.Join(o.out, "work.jsonl"), o.fresh)
	if err != nil {
		return err
	}
	old := runtime.GOMAXPROCS(o.procs)
	defer runtime.GOMAXPROCS(old)
	m, err := learners.Lookup("gbrff2")
	if err != nil {
		return err
	}
	for _, src := range workSources {
		key := fmt.Sprintf("gbrff2|%s|0", src.Name)
		if _, ok := st.recs[key]; ok {
			continue
		}
		var X featmap.Matrix
		var y []float64
		if src.File == "" {
			x, yy, err := peers.Classification(workRows, workInputs, src.Seed)
			if err != nil {
				return err
			}
			X, y = featmap.Dense(workRows, workInputs, x), yy
		} else {
			path := filepath.Join(o.out, "recipes", src.File)
			ds, err := dataset.LoadCSV(path, dataset.CSVOptions{})
			if os.IsNotExist(err) {
				fmt.Fprintf(stderr, "panel: -work: %s is missing (bench/peers/panel.py --recipes writes it); %s skipped\n", path, src.Name)
				continue
			} else if err != nil {
				return err
			}
			X, y = ds.Matrix(), ds.Y
		}
		cfg := &gbrff.Config{Stats: new(gbrff.FitStats)}
		runtime.GC()
		cpu0 := cputime.Process()
		if _, err := m.Fit(ctx, X, y, cfg, nil); err != nil {
			return fmt.Errorf("-work: %s: %w", src.Name, err)
		}
		s := cfg.Stats
		r := &record{Learner: "gbrff2", Source: "rfkit", Set: src.Name, Task: learners.Binary.String(), NTrain: X.Rows,
			FitCPU: (cputime.Process() - cpu0).Seconds(), Procs: o.procs, Rev: o.rev,
			Stats: map[string]float64{"rounds": float64(s.Rounds), "freq_evals": float64(s.FreqEvals),
				"lbfgs_iters": float64(s.LBFGSIters), "passes": float64(s.Passes), "sub_rows": float64(s.SubRows)}}
		if err := st.add(r); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "panel: -work: %s: %.1f frequency evaluations, %.2f L-BFGS iterations per round (%.1f CPU-s)\n",
			src.Name, ratio(float64(s.FreqEvals), float64(s.Rounds)), ratio(float64(s.LBFGSIters), float64(s.Rounds)), r.FitCPU)
	}
	return nil
}

// workRow is one line of the ω-search table.
type workRow struct {
	source            string
	rows, fits        int
	searched          int // rows each round searches b and ω on (gbrff.FitStats.SubRows, else rows)
	rounds, fe, lbfgs float64
	cpu               float64 // fit CPU seconds, summed over the fits
}

// workTable gathers the ω-search table: the work sources' records, then
// the panel's binary sets' gbrff2 records.
func workTable(work map[string]*record, p *panel) []workRow {
	var out []workRow
	for _, src := range workSources {
		r := work[fmt.Sprintf("gbrff2|%s|0", src.Name)]
		if r == nil || r.Stats == nil || r.Stats["rounds"] == 0 {
			continue
		}
		out = append(out, workRow{source: r.Set, rows: r.NTrain, searched: searched(r), fits: 1, rounds: r.Stats["rounds"], fe: r.Stats["freq_evals"],
			lbfgs: r.Stats["lbfgs_iters"], cpu: r.FitCPU})
	}
	for _, s := range p.sets {
		c := p.cells[[2]string{"gbrff2", s.Name}]
		if c == nil || len(c.ok) == 0 || c.ok[0].Stats == nil {
			continue
		}
		w := workRow{source: s.Name + " (" + s.Task.String() + ", training parts)", rows: c.ok[0].NTrain, searched: searched(c.ok[0]), fits: len(c.ok)}
		for _, r := range c.ok {
			w.rounds += r.Stats["rounds"]
			w.fe += r.Stats["freq_evals"]
			w.lbfgs += r.Stats["lbfgs_iters"]
			w.cpu += r.FitCPU
		}
		if w.rounds > 0 {
			out = append(out, w)
		}
	}
	return out
}

// searched is the rows each round of r's fit searched b and ω on: its
// subsample's, or every training row (records from before the subsample
// rule have no sub_rows).
func searched(r *record) int {
	if m := int(r.Stats["sub_rows"]); m > 0 {
		return m
	}
	return r.NTrain
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return math.NaN()
	}
	return a / b
}
