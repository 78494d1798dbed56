// Command fitmem fits GBRFF2 at its defaults (one thread) on
// peers.Classification(n, d, seed) and prints the input matrix's size and
// the fit's CPU time, for a peak-memory measurement under /usr/bin/time -v:
//
//	go build -o /tmp/fitmem ./bench/cmd/fitmem && /usr/bin/time -v /tmp/fitmem -n 1000000
//
// The data generation makes copies of its own (about 340 MB at n = 10⁶,
// d = 20), so /usr/bin/time's maximum is not the fit's: on Linux the
// command resets the peak (/proc/self/clear_refs) after generating and
// prints the fit's own peak resident set size (VmHWM) and its ratio to
// the input matrix; -gen-only stops after the generation.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/rfkit/rfkit/bench/peers"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/cputime"
	"github.com/rfkit/rfkit/learners/gbrff"
)

func main() {
	n := flag.Int("n", 1_000_000, "rows")
	d := flag.Int("d", 20, "inputs")
	seed := flag.Uint64("seed", 7, "data seed")
	genOnly := flag.Bool("gen-only", false, "generate the data and stop")
	flag.Parse()
	X, y, err := peers.Classification(*n, *d, *seed)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fitmem:", err)
		os.Exit(1)
	}
	runtime.GC()
	debug.FreeOSMemory()
	in := float64(len(X)) * 8 / 1e6
	fmt.Printf("input: %d × %d float64 = %.0f MB; resident before the fit %s\n", *n, *d, in, vm("VmRSS"))
	if *genOnly {
		return
	}
	// reset the peak resident set size to the current one (Linux)
	reset := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
	var st gbrff.FitStats
	c0 := cputime.Process()
	m, err := gbrff.Fit(context.Background(), featmap.Dense(*n, *d, X), y, gbrff.Config{Threads: 1, Stats: &st})
	if err != nil {
		fmt.Fprintln(os.Stderr, "fitmem:", err)
		os.Exit(1)
	}
	_, calibrated := m.Calibration()
	fmt.Printf("fit: %.2f CPU s, %d rounds, input copies %d, calibrated %v\n", (cputime.Process() - c0).Seconds(), st.Rounds, st.InputCopies, calibrated)
	if reset {
		var kb float64
		fmt.Sscanf(vm("VmHWM"), "%f", &kb)
		fmt.Printf("peak resident during the fit: %.0f MB = %.2f × the input\n", kb/1e3, kb/1e3/in)
	}
	runtime.KeepAlive(X)
}

// vm returns the value of the field name of /proc/self/status (e.g.
// "340220 kB"), "n/a" where there is none.
func vm(name string) string {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "n/a"
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, name+":"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "n/a"
}
