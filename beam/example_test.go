package rfbeam_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
	rfbeam "github.com/rfkit/rfkit/beam"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/rks"
)

// Scoring a model file over a PCollection of rows on the default runner
// (Prism, in process): the predictions have the bits of Model.Predict, and
// the row of the wrong length goes to the dead-letter output.
func Example() {
	// A model trained on one machine (any learner's model file works).
	X := []float64{0, 0, 0, 1, 1, 0, 1, 1, 2, 2, 2, 3, 3, 2, 3, 3}
	y := []float64{-1, -1, -1, -1, 1, 1, 1, 1}
	m, err := rks.Fit(context.Background(), featmap.Dense(8, 2, X), y, rks.Config{Features: 20, Loss: rks.Ridge, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	model, _ := m.MarshalBinary()

	dir, _ := os.MkdirTemp("", "rfbeam-example")
	defer os.RemoveAll(dir)
	p, s := beam.NewPipelineWithRoot()
	rows := beam.CreateList(s, []rfbeam.Row{
		{Index: 0, X: []float64{0.5, 0.5}},
		{Index: 1, X: []float64{2.5, 2.5}},
		{Index: 2, X: []float64{1}},
	})
	preds, bad, err := rfbeam.Score(s, model, rfbeam.Predict, rows)
	if err != nil {
		log.Fatal(err)
	}
	out := filepath.Join(dir, "pred")
	if _, err := rfbeam.WritePredictions(s, out, 1, preds); err != nil {
		log.Fatal(err)
	}
	rfbeam.WriteBadRows(s, out, bad)
	if err := beamx.Run(context.Background(), p); err != nil {
		log.Fatal(err)
	}
	got, _ := os.ReadFile(out + "-00000-of-00001")
	dead, _ := os.ReadFile(out + "-bad")
	fmt.Print(string(got), string(dead))
	fmt.Println(m.Predict([]float64{0.5, 0.5}), m.Predict([]float64{2.5, 2.5}), m.Task() == learners.Binary)
	// Output:
	// 0,-1
	// 1,1
	// data row 3: 1 inputs, the model takes 2
	// -1 1 true
}
