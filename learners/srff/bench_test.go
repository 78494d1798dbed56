package srff_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/rfkit/rfkit/learners/learnertest"
	"github.com/rfkit/rfkit/learners/srff"
)

// BenchmarkFit times one Fit at srff's defaults (the full λ search and the
// refit) on the SE sets of the paper: SE2 at n = 1000 (d = 100, D = 300)
// is the "SE2 at 1k" speed target, SE1 (d = 18) the cheap one. Sizes
// above 1000 run only with -bench naming them (they take minutes); -short
// runs SE1 at n = 200 only. GOMAXPROCS is set in each leaf (procs).
// Reported: the test RMSE on 2000 fresh rows and the alternations.
func BenchmarkFit(b *testing.B) {
	cases := []struct {
		set     string
		n, D    int
		procs   int
		inShort bool
	}{
		{"SE1", 200, 100, 1, true},
		{"SE1", 1000, 300, 1, false},
		{"SE2", 1000, 300, 1, false},
		{"SE2", 10000, 100, 1, false},
	}
	for _, c := range cases {
		name := fmt.Sprintf("set=%s/n=%d/D=%d/procs=%d", c.set, c.n, c.D, c.procs)
		b.Run(name, func(b *testing.B) {
			if testing.Short() && !c.inShort {
				b.Skip("slow; not under -short")
			}
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(c.procs))
			X, y := set(b, c.set, c.n, 1)
			Xt, yt := set(b, c.set, 2000, 2)
			var m *srff.Model
			for b.Loop() {
				m = fit(b, X, y, srff.Config{Features: c.D, Seed: 1})
			}
			e, _ := learnertest.RMSE(m, y, Xt, yt)
			b.ReportMetric(e, "test-rmse")
			b.ReportMetric(m.Config().Lambda, "lambda")
		})
	}
}
