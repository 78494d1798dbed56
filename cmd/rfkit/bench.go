package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rfkit/rfkit/internal/asm"
)

// benchKernel is one kernel with its Go math loop for comparison.
type benchKernel struct {
	name  string
	scale float64 // inputs are uniform in [-scale, scale]
	run   func(d1, d2, x []float64)
	math  func(d1, d2, x []float64)
}

var benchKernels = []benchKernel{
	{"cos", 1000, func(d1, _, x []float64) { asm.Cos(d1, x) }, func(d1, _, x []float64) {
		for i, v := range x {
			d1[i] = math.Cos(v)
		}
	}},
	{"sin", 1000, func(d1, _, x []float64) { asm.Sin(d1, x) }, func(d1, _, x []float64) {
		for i, v := range x {
			d1[i] = math.Sin(v)
		}
	}},
	{"sincos", 1000, func(d1, d2, x []float64) { asm.Sincos(d1, d2, x) }, func(d1, d2, x []float64) {
		for i, v := range x {
			d1[i], d2[i] = math.Sincos(v)
		}
	}},
	{"exp", 50, func(d1, _, x []float64) { asm.Exp(d1, x) }, func(d1, _, x []float64) {
		for i, v := range x {
			d1[i] = math.Exp(v)
		}
	}},
}

// benchMu serialises bench runs: they switch the process-wide kernel path
// and testing's benchmark time.
var benchMu sync.Mutex

// runBench times every kernel on every SIMD path next to Go's math package.
func runBench(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("bench", "rfkit bench [-n 4096] [-benchtime 200ms] [-count 1]",
		"Runs the kernel micro-benchmarks in this process (testing.Benchmark): cos,\n"+
			"sin, sincos and exp over slices of n elements, on every implementation this\n"+
			"machine can run (asm.Paths: the SIMD paths and the pure-Go generic twin)\n"+
			"and as a loop over Go's math package, and prints ns/element and the speed-up\n"+
			"over math. For benchstat-grade numbers use make bench-asm.")
	n := fs.intRange("n", 4096, 1, 1<<24, "`elements` per call")
	benchtime := fs.durationRange("benchtime", 200*time.Millisecond, time.Millisecond, time.Hour, "`time` per benchmark")
	count := fs.intRange("count", 1, 1, 1000, "run each benchmark `N` times and report the fastest (steadier on a busy machine)")
	if err := fs.parse(args, e.stdout); err != nil {
		return err
	}
	benchMu.Lock()
	defer benchMu.Unlock()
	restore, err := setBenchTime(*benchtime)
	if err != nil {
		return err
	}
	defer restore()

	fmt.Fprintf(e.stdout, "rfkit bench: %d elements per call, %s/%s, selected path %s (available: %s)\n\n",
		*n, runtime.GOOS, runtime.GOARCH, asm.Selected(), strings.Join(asm.Paths(), " "))
	t := newTable(e.stdout, "kernel:6", "path:7", "ns/element:10", "speed-up vs math")
	d1, d2 := make([]float64, *n), make([]float64, *n)
	for _, k := range benchKernels {
		x := benchInput(*n, k.scale)
		base := nsPerElement(func() { k.math(d1, d2, x) }, *n, *count)
		for _, p := range asm.Paths() {
			if err := ctx.Err(); err != nil {
				return err
			}
			undo, err := asm.SetPath(p)
			if err != nil {
				return err
			}
			ns := nsPerElement(func() { k.run(d1, d2, x) }, *n, *count)
			undo()
			t.row(k.name, p, fmt.Sprintf("%.3f", ns), fmt.Sprintf("%.1f×", base/ns))
		}
		t.row(k.name, "math", fmt.Sprintf("%.3f", base), "1.0×")
	}
	return nil
}

// nsPerElement benchmarks f, which processes n elements per call, count
// times and returns the fastest time per element.
func nsPerElement(f func(), n, count int) float64 {
	best := math.Inf(1)
	for range count {
		r := testing.Benchmark(func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				f()
			}
		})
		if r.N > 0 {
			best = min(best, float64(r.T.Nanoseconds())/float64(r.N)/float64(n))
		}
	}
	if math.IsInf(best, 1) {
		return math.NaN()
	}
	return best
}

func benchInput(n int, scale float64) []float64 {
	r := rand.New(rand.NewPCG(1, uint64(n)))
	x := make([]float64, n)
	for i := range x {
		x[i] = (r.Float64()*2 - 1) * scale
	}
	return x
}

// setBenchTime sets the time testing.Benchmark spends per benchmark, which
// only the test.benchtime flag controls, and returns a function restoring
// it. testing.Init registers that flag (once; in a test binary it already
// has).
func setBenchTime(d time.Duration) (restore func(), err error) {
	testing.Init()
	f := flag.CommandLine.Lookup("test.benchtime")
	if f == nil {
		return nil, fmt.Errorf("bench: testing has no test.benchtime flag")
	}
	old := f.Value.String()
	if err := f.Value.Set(d.String()); err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	return func() { f.Value.Set(old) }, nil
}
