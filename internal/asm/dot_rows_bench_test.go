package asm

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/rfkit/rfkit/internal/cputime"
)

// BenchmarkDotRows is the roofline of a coordinate-descent pass: DotF32 on
// every row of an n×100 float32 matrix (pbrff's φ at n = 10⁵ is 40 MB),
// rows in order (seq), in a random permutation (rand), the same with
// PrefetchF32 four rows ahead (rand-pf4), and with the dependent AxpyF32
// of a visit as well (rand-pf4-axpy: the next dot waits on the update, as
// in the solver). It reports wall and CPU ns per row (cpu-ns/row: steadier
// on a shared machine).
func BenchmarkDotRows(b *testing.B) {
	const d = 100
	for _, n := range []int{1000, 100000} {
		r := rand.New(rand.NewPCG(1, 2))
		x := make([]float32, n*d)
		for i := range x {
			x[i] = float32(r.NormFloat64())
		}
		w := make([]float64, d)
		perm := r.Perm(n)
		for _, mode := range []string{"seq", "rand", "rand-pf4", "rand-pf4-axpy"} {
			b.Run(fmt.Sprintf("n=%d/mode=%s", n, mode), func(b *testing.B) {
				s, rows := 0.0, 0
				cpu0 := cputime.Process()
				for b.Loop() {
					for k := range n {
						i := k
						if mode != "seq" {
							i = perm[k]
							if mode != "rand" && k+4 < n {
								j := perm[k+4]
								PrefetchF32(x[j*d : (j+1)*d])
							}
						}
						g := DotF32(w, x[i*d:(i+1)*d])
						s += g
						if mode == "rand-pf4-axpy" {
							AxpyF32(1e-9*(g-s), x[i*d:(i+1)*d], w)
						}
					}
					rows += n
				}
				cpu := cputime.Process() - cpu0
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(rows), "ns/row")
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(rows), "cpu-ns/row")
				_ = s
			})
		}
	}
}
