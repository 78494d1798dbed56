package bench

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/rfkit/rfkit/internal/cputime"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/asm"
	"github.com/rfkit/rfkit/internal/exploss"
)

// Inputs follow the issue: X ~ N(0,1), W ~ N(0, 1/d), b ~ U[0, 2π).
func gaussian(r *rand.Rand, n int, sd float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = r.NormFloat64() * sd
	}
	return v
}

func report(b *testing.B, flops float64) {
	ms := float64(b.Elapsed().Nanoseconds()) / float64(b.N) / 1e6
	b.ReportMetric(ms, "ms/op")
	b.ReportMetric(flops/(ms*1e6), "GFLOP/s")
}

// onePath runs f with the kernels switched to path.
func onePath(b *testing.B, path string, f func(b *testing.B)) {
	restore, err := asm.SetPath(path)
	if err != nil {
		b.Fatal(err)
	}
	defer restore()
	f(b)
}

// BenchmarkFeatureMap: Z = √(2/D)·cos(XW + b) through RFF.Transform, every
// SIMD path at GOMAXPROCS 1 (the one-core figures) and 2, next to
// gonum dgemm + math.Cos. GOMAXPROCS is set inside each leaf (procs): go
// test resets it to the -cpu value for every leaf sub-benchmark, so setting
// it in the parent measured the default count. GFLOP/s counts the 2·n·d·D
// flops of the product; floor-ms is that product at 108 GFLOP/s plus n·D
// cosines at 0.645 ns, the one-core floor of the issue. cpu-ms/op is the
// process's CPU time per op (all threads): on a shared machine it leaves out
// the time spent waiting for a core, which wall-clock ms/op includes.
func BenchmarkFeatureMap(b *testing.B) {
	for _, s := range [][3]int{{10000, 10, 1000}, {10000, 100, 1000}, {50000, 18, 300}} {
		n, d, D := s[0], s[1], s[2]
		r := rand.New(rand.NewPCG(1, 2))
		X := featmap.Dense(n, d, gaussian(r, n*d, 1))
		w := gaussian(r, d*D, 1/math.Sqrt(float64(d)))
		bb := make([]float64, D)
		for j := range bb {
			bb[j] = r.Float64() * 2 * math.Pi
		}
		m, err := featmap.NewRFFFromWeights(w, bb, d, D, false)
		if err != nil {
			b.Fatal(err)
		}
		Z := featmap.Dense(n, D, make([]float64, n*D))
		flops := 2 * float64(n*d*D)
		floor := flops/108e9*1e3 + float64(n*D)*0.645e-6
		name := fmt.Sprintf("n=%d/d=%d/D=%d", n, d, D)
		for _, p := range asm.Paths() {
			procs(b, name+"/path="+p, func(b *testing.B) {
				onePath(b, p, func(b *testing.B) {
					if err := m.Transform(Z, X); err != nil { // warm-up: page faults, packing W
						b.Fatal(err)
					}
					c0 := cputime.Process().Seconds()
					for b.Loop() {
						if err := m.Transform(Z, X); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric((cputime.Process().Seconds()-c0)/float64(b.N)*1e3, "cpu-ms/op")
					report(b, flops)
					b.ReportMetric(floor, "floor-ms")
				})
			})
		}
		b.Run(name+"/path=gonum+math/procs=1", func(b *testing.B) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
			scale := math.Sqrt(2 / float64(D))
			c0 := cputime.Process().Seconds()
			for b.Loop() {
				blas64.Gemm(blas.NoTrans, blas.NoTrans, 1,
					blas64.General{Rows: n, Cols: d, Stride: d, Data: X.Data},
					blas64.General{Rows: d, Cols: D, Stride: D, Data: w}, 0,
					blas64.General{Rows: n, Cols: D, Stride: D, Data: Z.Data})
				for i := 0; i < n; i++ {
					row := Z.Data[i*D : (i+1)*D]
					for j, v := range row {
						row[j] = scale * math.Cos(v+bb[j])
					}
				}
			}
			b.ReportMetric((cputime.Process().Seconds()-c0)/float64(b.N)*1e3, "cpu-ms/op")
			report(b, flops)
			b.ReportMetric(floor, "floor-ms")
		})
	}
}

// gbrff2Problem is the GBRFF2 shape: n = 100000, d = 20.
type gbrff2Problem struct {
	x            *exploss.Data
	X            []float64 // row-major, for the plain-Go loops
	yt, c, s, om []float64
}

func newGBRFF2Problem(b *testing.B) *gbrff2Problem {
	const n, d = 100000, 20
	r := rand.New(rand.NewPCG(3, 4))
	p := &gbrff2Problem{X: gaussian(r, n*d, 1), yt: gaussian(r, n, 1), om: gaussian(r, d, 1/math.Sqrt(d)),
		c: make([]float64, n), s: make([]float64, n)}
	var err error
	if p.x, err = exploss.NewData(p.X, n, d, d); err != nil {
		b.Fatal(err)
	}
	if err := p.x.Sincos(p.s, p.c, p.om); err != nil {
		b.Fatal(err)
	}
	return p
}

// procs runs f at GOMAXPROCS 1 (the one-core figures) and 2 (the
// issue's two-core figures), set inside the leaf.
func procs(b *testing.B, name string, f func(b *testing.B)) {
	for _, p := range []int{1, 2} {
		b.Run(fmt.Sprintf("%s/procs=%d", name, p), func(b *testing.B) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(p))
			f(b)
		})
	}
}

// BenchmarkPhaseSearch: one evaluation of f(b), f'(b) from precomputed c, s
// (n = 100000). Besides wall time it reports CPU time per evaluation
// (sweepReport), the figure that survives a loaded machine at procs=1.
func BenchmarkPhaseSearch(b *testing.B) {
	p := newGBRFF2Problem(b)
	ph, err := exploss.NewPhase(p.c, p.s, p.yt)
	if err != nil {
		b.Fatal(err)
	}
	n := len(p.yt)
	for _, path := range asm.Paths() {
		procs(b, fmt.Sprintf("n=%d/path=%s", n, path), func(b *testing.B) {
			onePath(b, path, func(b *testing.B) {
				bb := 0.1
				cpu, fastest := cputime.Process(), newFastest()
				for b.Loop() {
					ph.Eval(bb)
					bb += 1e-3
					fastest.lap()
				}
				sweepReport(b, 8*float64(n), n, cpu)
				fastest.report(b)
			})
		})
	}
	b.Run(fmt.Sprintf("n=%d/path=plainGo", n), func(b *testing.B) {
		bb := 0.1
		cpu := cputime.Process()
		for b.Loop() {
			cb, sb := math.Cos(bb), math.Sin(bb)
			var f, df float64
			for i, c := range p.c {
				e := math.Exp(-p.yt[i] * (c*cb + p.s[i]*sb))
				f += e
				df -= e * p.yt[i] * (p.s[i]*cb - c*sb)
			}
			_, _ = f, df
			bb += 1e-3
		}
		sweepReport(b, 8*float64(n), n, cpu)
	})
}

// BenchmarkFrequencyStep: loss and gradient of the GBRFF2 ω objective in one
// sweep (n = 100000, d = 20); GFLOP/s counts the 4·n·d flops of the two
// products; cpu-ms/op is CPU time per evaluation (sweepReport).
func BenchmarkFrequencyStep(b *testing.B) {
	p := newGBRFF2Problem(b)
	d := len(p.om)
	n := len(p.yt)
	grad := make([]float64, d)
	flops := 4 * float64(n*d)
	for _, path := range asm.Paths() {
		procs(b, fmt.Sprintf("n=%d/d=%d/path=%s", n, d, path), func(b *testing.B) {
			onePath(b, path, func(b *testing.B) {
				// The data are laid out for the path in use when they are
				// made (panels on AVX-512, columns elsewhere), as in a fit:
				// made once under another path they would measure a layout
				// this path never reads in practice.
				x, err := exploss.NewData(p.X, n, d, d)
				if err != nil {
					b.Fatal(err)
				}
				fs, err := exploss.NewFreqStep(x, p.yt)
				if err != nil {
					b.Fatal(err)
				}
				cpu, fastest := cputime.Process(), newFastest()
				for b.Loop() {
					if _, err := fs.Eval(p.om, 0.7, 0.01, grad); err != nil {
						b.Fatal(err)
					}
					fastest.lap()
				}
				sweepReport(b, flops, n, cpu)
				fastest.report(b)
			})
		})
	}
	b.Run(fmt.Sprintf("n=%d/d=%d/path=plainGo", n, d), func(b *testing.B) {
		cpu := cputime.Process()
		for b.Loop() {
			clear(grad)
			var loss float64
			for i := 0; i < n; i++ {
				x := p.X[i*d : (i+1)*d]
				var pi float64
				for k, w := range p.om {
					pi += w * x[k]
				}
				sn, cs := math.Sincos(pi - 0.7)
				e := math.Exp(-p.yt[i] * cs)
				loss += e
				r := p.yt[i] * sn * e
				for k := range grad {
					grad[k] += r * x[k]
				}
			}
			for k, w := range p.om {
				grad[k] = grad[k]/float64(n) + 0.02*w
			}
		}
		sweepReport(b, flops, n, cpu)
	})
}
