// Package exampledata holds the few lines of data set-up and checking that
// the learners' package examples share, so that each Example shows only the
// learner's own calls. It is for examples and tests only: every function
// panics on an error, as an Example does.
package exampledata

import (
	"math"
	"math/rand/v2"

	"github.com/rfkit/rfkit/dataset/synth"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/metrics"
)

// Square returns n points drawn uniformly from the square [−half, half]²
// (generator PCG(1, 2), a then b for each row) as an n×2 matrix, labelled 1
// where inside(a, b) holds and 0 elsewhere.
func Square(n int, half float64, inside func(a, b float64) bool) (featmap.Matrix, []float64) {
	r := rand.New(rand.NewPCG(1, 2))
	X, y := make([]float64, 2*n), make([]float64, n)
	for i := range y {
		a, b := 2*half*r.Float64()-half, 2*half*r.Float64()-half
		X[2*i], X[2*i+1] = a, b
		if inside(a, b) {
			y[i] = 1
		}
	}
	return featmap.Dense(n, 2, X), y
}

// Matrix returns the inputs of a synthetic set as a dense matrix and its
// labels; it panics if the generator failed.
func Matrix(s *synth.Set, err error) (featmap.Matrix, []float64) {
	if err != nil {
		panic(err)
	}
	return featmap.Dense(s.N, s.D, s.X), s.Y
}

// Accuracy returns the accuracy of m's PredictBatch on a synthetic test set;
// it panics on an error.
func Accuracy(m interface {
	PredictBatch(dst []float64, X featmap.Matrix) error
}, test *synth.Set) float64 {
	pred := make([]float64, test.N)
	if err := m.PredictBatch(pred, featmap.Dense(test.N, test.D, test.X)); err != nil {
		panic(err)
	}
	acc, err := metrics.Accuracy(test.Y, pred, nil)
	if err != nil {
		panic(err)
	}
	return acc
}

// SameScoreAfterReload writes m with MarshalBinary, reads it back with load
// and reports whether the reloaded model gives x the same score, to the bit.
func SameScoreAfterReload[M interface {
	MarshalBinary() ([]byte, error)
	Score(x []float64) float64
}](m M, load func([]byte) (M, error), x []float64) bool {
	data, err := m.MarshalBinary()
	if err != nil {
		panic(err)
	}
	m2, err := load(data)
	if err != nil {
		panic(err)
	}
	return math.Float64bits(m2.Score(x)) == math.Float64bits(m.Score(x))
}
