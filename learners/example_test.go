package learners_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/rks"
)

// Errors a caller can act on are sentinels: errors.Is tells a corrupt or
// foreign model file (learners.ErrCorrupt) and a batch of the wrong shape
// (learners.ErrShape) from every other failure, whichever learner wrote
// the model.
func Example_errors() {
	if _, err := learners.Load([]byte("id,label\n1,0\n")); errors.Is(err, learners.ErrCorrupt) {
		fmt.Println("not a model file:", err)
	}

	X := featmap.Dense(4, 2, []float64{0, 0, 1, 1, 0, 1, 1, 0})
	m, err := rks.Fit(context.Background(), X, []float64{0, 0, 1, 1}, rks.Config{Features: 8})
	if err != nil {
		panic(err)
	}
	data, _ := m.MarshalBinary()
	if _, err := rks.Load(data[:len(data)-1]); errors.Is(err, learners.ErrCorrupt) {
		fmt.Println("truncated file: corrupt")
	}
	dst := make([]float64, 4)
	wide := featmap.Dense(4, 3, make([]float64, 12))
	if err := m.PredictBatch(dst, wide); errors.Is(err, learners.ErrShape) {
		fmt.Println("wrong shape:", err)
	}
	// Output:
	// not a model file: learners: modelfile: corrupt model file: not an rfkit model file (bad magic)
	// truncated file: corrupt
	// wrong shape: rks: PredictBatch: X has 3 columns, the model takes 2 inputs
}

// A model can carry the names of its inputs: WithFeatureNames returns a
// named copy (models are immutable), the names travel in the model file,
// and whoever loads it can check a data set's columns before predicting.
func ExampleWithFeatureNames() {
	X := featmap.Dense(4, 2, []float64{0, 0, 1, 1, 0, 1, 1, 0})
	m, err := rks.Fit(context.Background(), X, []float64{0, 0, 1, 1}, rks.Config{Features: 8})
	if err != nil {
		panic(err)
	}
	named, err := learners.WithFeatureNames(m, []string{"age", "income"})
	if err != nil {
		panic(err)
	}
	data, _ := named.MarshalBinary()
	loaded, err := rks.Load(data)
	if err != nil {
		panic(err)
	}
	fmt.Println(loaded.FeatureNames(), m.FeatureNames() == nil)
	_, err = learners.WithFeatureNames(m, []string{"age", "age"})
	fmt.Println(err)
	// Output:
	// [age income] true
	// learners: WithFeatureNames: feature names 0 and 1 are both "age"
}
