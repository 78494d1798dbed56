package learnertest

import (
	"bytes"
	"maps"
	"runtime"
	"slices"
	"testing"

	"github.com/rfkit/rfkit/internal/asm"
)

// SameEverywhere checks that model() gives the same bytes on every SIMD
// path the CPU has and with GOMAXPROCS 1, 2 and 7 as on the default path,
// and returns those bytes.
func SameEverywhere(t *testing.T, name string, model func() []byte) []byte {
	t.Helper()
	want := model()
	for _, path := range asm.Paths() {
		restore, err := asm.SetPath(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []int{1, 2, 7} {
			old := runtime.GOMAXPROCS(p)
			got := model()
			runtime.GOMAXPROCS(old)
			if !bytes.Equal(got, want) {
				t.Errorf("%s: path %s, GOMAXPROCS %d: model bytes differ", name, path, p)
			}
		}
		restore()
	}
	return want
}

// BenchPredict times each named predict function on the rows of X (d
// columns, at least 1024 rows), as sub-benchmarks.
func BenchPredict(b *testing.B, X []float64, d int, predict map[string]func([]float64) float64) {
	for _, name := range slices.Sorted(maps.Keys(predict)) {
		f := predict[name]
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				j := i & 1023
				f(X[j*d : (j+1)*d])
				i++
			}
		})
	}
}
