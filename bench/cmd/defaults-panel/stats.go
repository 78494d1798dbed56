package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/rfkit/rfkit/bench/peers"
	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners/gbrff"
)

// searchStats prints the ω search's work per round (frequency-step
// evaluations and accepted L-BFGS iterations, gbrff.FitStats) of an
// uncalibrated fit with cfg on each source: "peers:N:D:SEED"
// (peers.Classification) or a CSV file (label last, column y).
func searchStats(sources []string, cfg gbrff.Config, label string) {
	cfg.Calibration = gbrff.CalibrationNone
	for _, src := range sources {
		X, y, err := loadSource(src)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		var st gbrff.FitStats
		c := cfg
		c.Stats = &st
		if _, err := gbrff.Fit(context.Background(), X, y, c); err != nil {
			fmt.Fprintln(os.Stderr, src, err)
			os.Exit(1)
		}
		r := float64(st.Rounds)
		fmt.Printf("%-8s %-40s n=%-7d d=%-3d rounds=%-4d freq evals/round %5.2f  L-BFGS iters/round %5.2f\n",
			label, src, X.Rows, X.Cols, st.Rounds, float64(st.FreqEvals)/r, float64(st.LBFGSIters)/r)
	}
}

func loadSource(src string) (featmap.Matrix, []float64, error) {
	if rest, ok := strings.CutPrefix(src, "peers:"); ok {
		p := strings.Split(rest, ":")
		if len(p) != 3 {
			return featmap.Matrix{}, nil, fmt.Errorf("source %q: want peers:N:D:SEED", src)
		}
		n, _ := strconv.Atoi(p[0])
		d, _ := strconv.Atoi(p[1])
		seed, _ := strconv.ParseUint(p[2], 10, 64)
		X, y, err := peers.Classification(n, d, seed)
		return featmap.Dense(n, d, X), y, err
	}
	ds, err := dataset.LoadCSV(src, dataset.CSVOptions{})
	if err != nil {
		return featmap.Matrix{}, nil, err
	}
	return ds.Matrix(), ds.Y, nil
}
