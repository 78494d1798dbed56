package metrics_test

import (
	"fmt"

	"github.com/rfkit/rfkit/metrics"
)

// A binary classifier's scores: the AUC counts a tie between a positive and
// a negative row as one half.
func ExampleAUC() {
	y := []float64{0, 1, 0, 1}
	score := []float64{0.5, 0.5, 0.2, 0.9}
	auc, err := metrics.AUC(y, score, 1, nil)
	fmt.Println(auc, err)
	// Output: 0.875 <nil>
}

// The confusion matrix of three classes and its macro-F1, the mean of the
// classes' F1 scores.
func ExampleNewConfusion() {
	y := []float64{1, 1, 2, 2, 3, 3}
	pred := []float64{1, 2, 2, 2, 3, 1}
	c, err := metrics.NewConfusion(y, pred, []float64{1, 2, 3}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.Counts)
	fmt.Printf("accuracy %.4f, macro-F1 %.4f\n", c.Accuracy(), c.MacroF1())
	// Output:
	// [[1 1 0] [0 2 0] [1 0 1]]
	// accuracy 0.6667, macro-F1 0.6556
}

// Sample weights: a row of weight 2 counts as two rows.
func ExampleLogLoss() {
	y := []float64{1, 2, 3}
	classes := []float64{1, 2, 3}
	prob := []float64{
		0.7, 0.2, 0.1, // row 0
		0.1, 0.8, 0.1, // row 1
		0.3, 0.3, 0.4, // row 2
	}
	ll, _ := metrics.LogLoss(y, classes, prob, nil)
	wll, _ := metrics.LogLoss(y, classes, prob, []float64{2, 1, 1})
	fmt.Printf("%.4f %.4f\n", ll, wll)
	// Output: 0.4987 0.4632
}

// The regression metrics of scikit-learn's r2_score example.
func ExampleR2() {
	y := []float64{3, -0.5, 2, 7}
	pred := []float64{2.5, 0, 2, 8}
	r2, _ := metrics.R2(y, pred, nil)
	rmse, _ := metrics.RMSE(y, pred, nil)
	mae, _ := metrics.MAE(y, pred, nil)
	fmt.Printf("R² %.4f, RMSE %.4f, MAE %.4f\n", r2, rmse, mae)
	// Output: R² 0.9486, RMSE 0.6124, MAE 0.5000
}

// Bad input is an error naming the row, never a NaN.
func ExampleCheckWeights() {
	_, err := metrics.CheckWeights([]float64{1, -2, 1}, 3)
	fmt.Println(err)
	// Output: metrics: bad input: w[1] is -2: weights must be ≥ 0
}
