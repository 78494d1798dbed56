// Command peer-data writes the make_classification-style problems of
// BenchmarkFit/method=gbrff2 (bench/peers.ClassificationWith, d = 20, seed
// 1, both recipes) as CSV files, so that a peer library
// (bench/peers/xgboost.py) trains on exactly the rows rfkit's benchmark
// trains on.
//
//	go run ./bench/cmd/peer-data -out bench/out/peers -n 1000,10000,100000
//
// Each file is <out>/classification-n<N>-d<D>.csv (peers.RecipeDefaults) or
// <out>/classification-other-n<N>-d<D>.csv (peers.RecipeOther): a header x0,…,x<D−1>,y,
// then one row per sample, the inputs in shortest round-trip form and the
// label ±1 last.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rfkit/rfkit/bench/internal/resultfile"
	"github.com/rfkit/rfkit/bench/peers"
)

func main() {
	out := flag.String("out", "bench/out/peers", "output `DIR`")
	ns := flag.String("n", "1000,10000,100000", "comma-separated row counts")
	d := flag.Int("d", peers.BenchD, "inputs per row")
	seed := flag.Uint64("seed", peers.BenchSeed, "generator seed")
	flag.Parse()
	if err := run(*out, *ns, *d, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "peer-data:", err)
		os.Exit(1)
	}
}

func run(out, ns string, d int, seed uint64) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for _, s := range strings.Split(ns, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			return fmt.Errorf("-n: %q is not a row count", s)
		}
		for _, g := range []struct {
			prefix string
			recipe peers.Recipe
		}{{"classification", peers.RecipeDefaults}, {"classification-other", peers.RecipeOther}} {
			X, y, err := peers.ClassificationWith(n, d, seed, g.recipe)
			if err != nil {
				return err
			}
			path := filepath.Join(out, fmt.Sprintf("%s-n%d-d%d.csv", g.prefix, n, d))
			if err := write(path, X, y, d); err != nil {
				return err
			}
			fmt.Println(path)
		}
	}
	return nil
}

func write(path string, X, y []float64, d int) error {
	return resultfile.Output(path, func(out io.Writer) error { return writeCSV(out, X, y, d) })
}

// writeCSV writes the header x0,…,y and one row per sample.
func writeCSV(out io.Writer, X, y []float64, d int) error {
	w := bufio.NewWriter(out)
	for j := 0; j < d; j++ {
		fmt.Fprintf(w, "x%d,", j)
	}
	fmt.Fprintln(w, "y")
	buf := make([]byte, 0, 32)
	for i := range y {
		for j := 0; j < d; j++ {
			w.Write(strconv.AppendFloat(buf[:0], X[i*d+j], 'g', -1, 64))
			w.WriteByte(',')
		}
		w.Write(strconv.AppendFloat(buf[:0], y[i], 'g', -1, 64))
		w.WriteByte('\n')
	}
	return w.Flush()
}
