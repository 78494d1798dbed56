package rfbeam

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/stats"
	"github.com/rfkit/rfkit/dataset/synth"
)

// BenchmarkScore: rows per second of Score on Prism (in process, all of
// GOMAXPROCS) next to a plain loop of Model.Predict on one goroutine, on
// the same rows and GBRFF2 model. Beam's figure includes the pipeline's
// start (about 0.1 s) and the encoding of every row and prediction.
func BenchmarkScore(b *testing.B) {
	model, data := trainedModel(b)
	n := 100000
	if testing.Short() {
		n = 1000
	}
	set, err := synth.Checkerboard(n, 0.3, 7)
	if err != nil {
		b.Fatal(err)
	}
	rows := make([]Row, n)
	for i := range rows {
		rows[i] = Row{Index: int64(i), X: set.Row(i)}
	}
	b.Run(fmt.Sprintf("runner=prism/procs=%d/n=%d", runtime.GOMAXPROCS(0), n), func(b *testing.B) {
		for b.Loop() {
			p, s := beam.NewPipelineWithRoot()
			preds, _, err := Score(s, data, Predict, beam.Reshuffle(s, beam.CreateList(s, rows)))
			if err != nil {
				b.Fatal(err)
			}
			stats.CountElms(s, preds)
			if err := ptest.Run(p); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	})
	b.Run(fmt.Sprintf("runner=loop/procs=1/n=%d", n), func(b *testing.B) {
		sink := 0.0
		for b.Loop() {
			for i := range n {
				sink += model.Predict(set.Row(i))
			}
		}
		b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		_ = sink
	})
}
