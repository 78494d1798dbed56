// Package metrics scores predictions: accuracy, log loss, ROC AUC, the
// confusion matrix and macro-F1 for classification; RMSE, MAE and R² for
// regression. Every function takes optional sample weights w (nil means
// weight 1 for every row), so a weighted score equals the unweighted score of
// the data set with each row repeated w times.
//
// The package depends on nothing but the standard library; rfkit eval and
// package learners/cv use it. Bad input is an error naming the first
// offending row (index i, 0-based, written y[i], w[i], …): slices of
// different lengths, no rows, a NaN or infinite value, a negative weight, a
// total weight of zero, a label that is not one of the classes. The
// functions never return NaN for valid input; the few undefined cases are
// documented (R² of a constant target, AUC with a single class is an error).
//
// Sums run in row order and every product is rounded on its own
// (float64(a*b), so the compiler cannot fuse it into an FMA on arm64): the
// results are the same bits on every architecture.
package metrics

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
)

// ErrInput is wrapped by every error of the package: the inputs are not
// something a metric can be computed on.
var ErrInput = errors.New("metrics: bad input")

func errorf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInput}, args...)...)
}

// finite reports whether v is neither NaN nor ±Inf.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// CheckWeights checks sample weights for n rows: w is nil (every weight 1)
// or has n finite, non-negative values of positive sum. It returns the total
// weight (n for nil). The error names the first bad weight.
func CheckWeights(w []float64, n int) (float64, error) {
	if w == nil {
		return float64(n), nil
	}
	if len(w) != n {
		return 0, errorf("%d weights for %d rows", len(w), n)
	}
	var sum float64
	for i, v := range w {
		switch {
		case !finite(v):
			return 0, errorf("w[%d] is %v: weights must be finite", i, v)
		case v < 0:
			return 0, errorf("w[%d] is %v: weights must be ≥ 0", i, v)
		}
		sum += v
	}
	if !(sum > 0) {
		return 0, errorf("every weight is 0: nothing to score")
	}
	if !finite(sum) {
		return 0, errorf("the weights sum to %v", sum)
	}
	return sum, nil
}

// weight returns w[i], or 1 when w is nil.
func weight(w []float64, i int) float64 {
	if w == nil {
		return 1
	}
	return w[i]
}

// check validates the common arguments: y and p of equal, non-zero length,
// finite values, and the weights. It returns the total weight.
func check(y, p, w []float64, pname string) (float64, error) {
	if len(y) == 0 {
		return 0, errorf("no rows")
	}
	if len(p) != len(y) {
		return 0, errorf("%d labels but %d %s", len(y), len(p), pname)
	}
	for i := range y {
		if !finite(y[i]) {
			return 0, errorf("y[%d] is %v: labels must be finite", i, y[i])
		}
		if !finite(p[i]) {
			return 0, errorf("%s[%d] is %v: must be finite", pname, i, p[i])
		}
	}
	return CheckWeights(w, len(y))
}

// Accuracy is the (weighted) fraction of rows whose prediction pred[i]
// equals the label y[i].
func Accuracy(y, pred, w []float64) (float64, error) {
	total, err := check(y, pred, w, "predictions")
	if err != nil {
		return 0, err
	}
	var ok float64
	for i := range y {
		if pred[i] == y[i] {
			ok += weight(w, i)
		}
	}
	return ok / total, nil
}

// logLossEpsilon is the smallest probability LogLoss uses (its doc states
// it).
const logLossEpsilon = 1e-15

// LogLoss is the (weighted) mean negative log-likelihood of the labels,
// −Σ w_i ln p_i(y_i) / Σ w_i, the cross-entropy. classes are the class
// labels, distinct; prob holds len(y) rows of len(classes) probabilities,
// row-major, prob[i·K + k] the probability that row i has class classes[k].
// Each probability must be in [0, 1] and each row sum to 1 within 1e-6;
// each y[i] must be one of classes. For a binary model with probability p
// of the larger class, pass classes {neg, pos} and rows {1 − p, p}. A
// probability p of the true class counts as max(p, 1e−15), so a confident
// wrong prediction costs at most −ln(1e−15) ≈ 34.5 instead of +Inf
// (scikit-learn's former default).
func LogLoss(y, classes, prob, w []float64) (float64, error) {
	k := len(classes)
	if k < 2 {
		return 0, errorf("%d classes: log loss needs two or more", k)
	}
	if len(prob) != len(y)*k {
		return 0, errorf("%d probabilities for %d rows of %d classes", len(prob), len(y), k)
	}
	total, err := check(y, y, w, "labels")
	if err != nil {
		return 0, err
	}
	index, err := classIndex(classes)
	if err != nil {
		return 0, err
	}
	var sum float64
	for i, v := range y {
		c, ok := index[v]
		if !ok {
			return 0, errorf("y[%d] is %v, not one of the classes %v", i, v, classes)
		}
		row := prob[i*k : (i+1)*k]
		var s float64
		for j, p := range row {
			if !(p >= 0 && p <= 1) {
				return 0, errorf("probability of class %v for row %d is %v: want a value in [0, 1]", classes[j], i, p)
			}
			s += p
		}
		if math.Abs(s-1) > 1e-6 {
			return 0, errorf("the probabilities of row %d sum to %v, not 1", i, s)
		}
		sum += float64(weight(w, i) * -math.Log(max(row[c], logLossEpsilon)))
	}
	return sum / total, nil
}

// classIndex maps each class to its index; classes must be finite and
// distinct.
func classIndex(classes []float64) (map[float64]int, error) {
	index := make(map[float64]int, len(classes))
	for k, c := range classes {
		if !finite(c) {
			return nil, errorf("class %d is %v: classes must be finite", k, c)
		}
		if _, dup := index[c]; dup {
			return nil, errorf("class %v listed twice", c)
		}
		index[c] = k
	}
	return index, nil
}

// AUC is the (weighted) area under the ROC curve of the scores for the
// positive class pos: the probability that a random positive row (y[i] ==
// pos) scores higher than a random negative one (every other label), a tie
// counting one half (the Mann–Whitney statistic with mid-ranks, as
// scikit-learn's roc_auc_score). A row's weight counts in every pair it is
// part of. score may be any monotone score (a probability, a margin). It is
// an error if there are no positive or no negative rows of positive weight.
func AUC(y, score []float64, pos float64, w []float64) (float64, error) {
	if _, err := check(y, score, w, "scores"); err != nil {
		return 0, err
	}
	idx := make([]int, len(y))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return score[idx[a]] < score[idx[b]] })
	var area, negBelow, wPos, wNeg float64
	for a := 0; a < len(idx); {
		b := a
		var gp, gn float64 // weight of the positives and negatives tied at this score
		for ; b < len(idx) && score[idx[b]] == score[idx[a]]; b++ {
			if i := idx[b]; y[i] == pos {
				gp += weight(w, i)
			} else {
				gn += weight(w, i)
			}
		}
		area += float64(gp*negBelow) + float64(0.5*float64(gp*gn))
		negBelow += gn
		wPos += gp
		wNeg += gn
		a = b
	}
	if !(wPos > 0) || !(wNeg > 0) {
		return 0, errorf("AUC needs rows of both classes: weight %v of class %v and %v of the others", wPos, pos, wNeg)
	}
	return area / float64(wPos*wNeg), nil
}

// Confusion is a confusion matrix: Counts[i][j] is the (weighted) number of
// rows of true class Classes[i] predicted as Classes[j].
type Confusion struct {
	Classes []float64
	Counts  [][]float64
}

// NewConfusion counts the (weighted) pairs (y[i], pred[i]) over classes,
// which must be distinct and finite and include every label and
// prediction (the error names the first row that is not).
func NewConfusion(y, pred, classes, w []float64) (*Confusion, error) {
	if _, err := check(y, pred, w, "predictions"); err != nil {
		return nil, err
	}
	if len(classes) == 0 {
		return nil, errorf("no classes")
	}
	index, err := classIndex(classes)
	if err != nil {
		return nil, err
	}
	c := &Confusion{Classes: slices.Clone(classes), Counts: make([][]float64, len(classes))}
	for k := range c.Counts {
		c.Counts[k] = make([]float64, len(classes))
	}
	for i := range y {
		t, ok := index[y[i]]
		if !ok {
			return nil, errorf("y[%d] is %v, not one of the classes %v", i, y[i], classes)
		}
		p, ok := index[pred[i]]
		if !ok {
			return nil, errorf("pred[%d] is %v, not one of the classes %v", i, pred[i], classes)
		}
		c.Counts[t][p] += weight(w, i)
	}
	return c, nil
}

// F1 returns the F1 score of each class, 2·TP / (2·TP + FP + FN), and
// whether the class occurs at all (as a label or a prediction); a class
// that never occurs has F1 0 and present false.
func (c *Confusion) F1() (f1 []float64, present []bool) {
	k := len(c.Classes)
	f1, present = make([]float64, k), make([]bool, k)
	for j := range k {
		var fp, fn float64
		tp := c.Counts[j][j]
		for i := range k {
			if i != j {
				fp += c.Counts[i][j]
				fn += c.Counts[j][i]
			}
		}
		if d := float64(2*tp) + fp + fn; d > 0 {
			f1[j], present[j] = float64(2*tp)/d, true
		}
	}
	return f1, present
}

// MacroF1 is the unweighted mean of the per-class F1 scores over the
// classes that occur as a label or a prediction (scikit-learn's
// f1_score(average="macro") with its default labels); sample weights enter
// through the counts. It is 0 when no class occurs (an empty matrix).
func (c *Confusion) MacroF1() float64 {
	f1, present := c.F1()
	var sum float64
	n := 0
	for j, v := range f1 {
		if present[j] {
			sum += v
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// Accuracy is the (weighted) fraction of the matrix on its diagonal.
func (c *Confusion) Accuracy() float64 {
	var diag, total float64
	for i, row := range c.Counts {
		for j, v := range row {
			total += v
			if i == j {
				diag += v
			}
		}
	}
	if total == 0 {
		return 0
	}
	return diag / total
}

// MacroF1 is NewConfusion(y, pred, classes, w).MacroF1().
func MacroF1(y, pred, classes, w []float64) (float64, error) {
	c, err := NewConfusion(y, pred, classes, w)
	if err != nil {
		return 0, err
	}
	return c.MacroF1(), nil
}

// RMSE is the root of the (weighted) mean squared error √(Σ w_i (pred_i −
// y_i)² / Σ w_i).
func RMSE(y, pred, w []float64) (float64, error) {
	total, err := check(y, pred, w, "predictions")
	if err != nil {
		return 0, err
	}
	var se float64
	for i := range y {
		d := pred[i] - y[i]
		se += float64(weight(w, i) * float64(d*d))
	}
	return math.Sqrt(se / total), nil
}

// MAE is the (weighted) mean absolute error Σ w_i |pred_i − y_i| / Σ w_i.
func MAE(y, pred, w []float64) (float64, error) {
	total, err := check(y, pred, w, "predictions")
	if err != nil {
		return 0, err
	}
	var ae float64
	for i := range y {
		ae += float64(weight(w, i) * math.Abs(pred[i]-y[i]))
	}
	return ae / total, nil
}

// R2 is the (weighted) coefficient of determination 1 − Σ w_i (y_i −
// pred_i)² / Σ w_i (y_i − ȳ)², ȳ the weighted mean of y: 1 for perfect
// predictions, 0 for predicting ȳ, negative for worse. For a constant
// target (a zero denominator) it is 1 when every prediction is exact and 0
// otherwise, as scikit-learn's r2_score, never NaN or −Inf.
func R2(y, pred, w []float64) (float64, error) {
	total, err := check(y, pred, w, "predictions")
	if err != nil {
		return 0, err
	}
	var mean float64
	for i, v := range y {
		mean += float64(weight(w, i) * v)
	}
	mean /= total
	var res, tot float64
	for i, v := range y {
		d, e := v-pred[i], v-mean
		res += float64(weight(w, i) * float64(d*d))
		tot += float64(weight(w, i) * float64(e*e))
	}
	switch {
	case tot > 0:
		return 1 - res/tot, nil
	case res == 0:
		return 1, nil
	}
	return 0, nil
}
