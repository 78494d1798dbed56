// Command subsample measures what the per-round subsample of a binary
// GBRFF2 fit (gbrff.Config.Subsample) costs in accuracy and saves in CPU:
// for each seed 1..-seeds and each of the two make_classification recipes
// of the peer benchmarks (peers.RecipeDefaults, peers.RecipeOther) it draws
// -n training rows and 10⁴ held-out rows (d = 20, the same seed for the
// data and the fit), fits gbrff.Config{Seed: seed, Subsample: m} for every
// m of -m (0: the default rule), and prints per m the mean held-out
// accuracy, log loss and fit CPU seconds, and the mean and standard error
// of the seed-paired differences from the first m:
//
//	GOMAXPROCS=1 go run ./bench/cmd/subsample -n 10000 -seeds 40 -m 2147483647,0
//
// It is a measuring aid for the default rule (gbrff.subsampleChunks).
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/rfkit/rfkit/bench/internal/summary"
	"github.com/rfkit/rfkit/bench/peers"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/cputime"
	"github.com/rfkit/rfkit/learners/gbrff"
)

func main() {
	n := flag.Int("n", 10000, "training rows")
	seeds := flag.Int("seeds", 11, "seeds (data and fit)")
	ms := flag.String("m", "2147483647,0", "subsample sizes m, comma-separated (2147483647: every row; 0: the default)")
	flag.Parse()
	var mv []int
	for _, s := range strings.Split(*ms, ",") {
		v, err := strconv.Atoi(s)
		if err != nil {
			fmt.Fprintln(os.Stderr, "subsample: -m:", err)
			os.Exit(2)
		}
		mv = append(mv, v)
	}
	const d, nte = 20, 10000
	for _, rc := range []struct {
		name string
		r    peers.Recipe
	}{{"defaults", peers.RecipeDefaults}, {"other", peers.RecipeOther}} {
		acc := make([][]float64, len(mv))
		ll := make([][]float64, len(mv))
		cpu := make([]float64, len(mv))
		for s := 1; s <= *seeds; s++ {
			X, y, err := peers.ClassificationWith(*n+nte, d, uint64(s), rc.r)
			if err != nil {
				fail(err)
			}
			M := featmap.Dense(*n, d, X[:*n*d])
			for k, m := range mv {
				c0 := cputime.Process()
				mod, err := gbrff.Fit(context.Background(), M, y[:*n], gbrff.Config{Seed: uint64(s), Subsample: m})
				if err != nil {
					fail(err)
				}
				cpu[k] += (cputime.Process() - c0).Seconds()
				var ok, l float64
				for i := 0; i < nte; i++ {
					x := X[(*n+i)*d : (*n+i+1)*d]
					p := mod.Probability(x)
					yi := y[*n+i]
					if (p >= 0.5) == (yi > 0) {
						ok++
					}
					if yi < 0 {
						p = 1 - p
					}
					l -= math.Log(math.Max(p, 1e-15))
				}
				acc[k] = append(acc[k], 100*ok/nte)
				ll[k] = append(ll[k], l/nte)
			}
		}
		for k, m := range mv {
			ma, _ := summary.MeanSE(acc[k])
			ml, _ := summary.MeanSE(ll[k])
			fmt.Printf("%s m=%d acc %.2f ll %.4f cpu/fit %.3f", rc.name, m, ma, ml, cpu[k]/float64(*seeds))
			if k > 0 {
				var da, dl []float64
				for i := range acc[k] {
					da = append(da, acc[k][i]-acc[0][i])
					dl = append(dl, ll[k][i]-ll[0][i])
				}
				mda, seda := summary.MeanSE(da)
				mdl, sedl := summary.MeanSE(dl)
				fmt.Printf("  paired dacc %+.2f ± %.2f  dll %+.4f ± %.4f", mda, seda, mdl, sedl)
			}
			fmt.Println()
		}
	}
}

// fail reports err and exits.
func fail(err error) {
	fmt.Fprintln(os.Stderr, "subsample:", err)
	os.Exit(1)
}
