package main

import (
	"fmt"
	"math"

	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/solvers"
	"github.com/rfkit/rfkit/learners"
)

// mapFunc builds the random-feature map of a baseline from the
// standardised training rows Xs and their ±1 labels t.
type mapFunc func(Xs featmap.Matrix, t []float64, M int, seed uint64) (*featmap.RFF, error)

// headFunc fits a baseline's logistic read-out on the n×D features z with
// ±1 targets t: solvers.LogisticHead (rks.Fit's) for RKS, solvers.Logistic
// with the default options (linrf's) for EERF and LKRF.
type headFunc func(z []float64, n, D int, t []float64, lambda float64) (coef []float64, bias float64, err error)

// rksHead is rks.Fit's logistic read-out.
func rksHead(z []float64, n, D int, t []float64, lambda float64) ([]float64, float64, error) {
	coef, bias, _, err := solvers.LogisticHead(z, n, D, t, nil, lambda)
	return coef, bias, err
}

// defaultHead is the read-out of rfselect.Fit (linrf.Head.FitReadout).
func defaultHead(z []float64, n, D int, t []float64, lambda float64) ([]float64, float64, error) {
	return solvers.Logistic(z, n, D, t, lambda, solvers.LogisticOptions{})
}

// path is the pipeline of learners/rks and learners/rfselect (standardise,
// build the map, logistic regression) split so that the map is built once
// and the logistic regression solved for every λ of a grid: the map of
// EERF and LKRF does not depend on λ, and building it is the expensive
// part. For every λ it computes the same bits as the learner's Fit and
// Predict (TestPathMatchesLearners checks it, and run checks it again at
// the chosen λ on the real data).
type path struct {
	n, D, d int
	z, t    []float64 // features of the fitting rows (n×D), their ±1 labels
	labels  learners.Labels
	rff     *featmap.RFF
	xe, ye  []float64 // standardised evaluation rows, their original labels
	head    headFunc
}

// newPath standardises X (fitting rows) as the learners do, builds the map
// with mf and computes the features of X and of the evaluation rows Xe.
func newPath(X featmap.Matrix, y []float64, Xe featmap.Matrix, ye []float64, mf mapFunc, head headFunc, M int, seed uint64) (*path, error) {
	t, labels, err := learners.BinaryLabels(y)
	if err != nil {
		return nil, err
	}
	scaler, xs := standardize(X)
	n, d := X.Rows, X.Cols
	Xs := featmap.Dense(n, d, xs)
	rff, err := mf(Xs, t, M, seed)
	if err != nil {
		return nil, err
	}
	D := rff.Outputs()
	p := &path{n: n, D: D, d: d, t: t, labels: labels, rff: rff, ye: ye, head: head}
	p.z = make([]float64, n*D)
	if err := rff.Transform(featmap.Dense(n, D, p.z), Xs); err != nil {
		return nil, err
	}
	xe := make([]float64, Xe.Rows*d)
	for i := 0; i < Xe.Rows; i++ {
		copy(xe[i*d:(i+1)*d], Xe.Row(i))
	}
	scaler.Transform(xe, xe)
	p.xe = xe
	return p, nil
}

// scores fits the logistic regression with λ (the learner's read-out, p.head)
// and returns the scores of the evaluation rows.
func (p *path) scores(lambda float64) ([]float64, error) {
	coef, bias, err := p.head(p.z, p.n, p.D, p.t, lambda)
	if err != nil {
		return nil, err
	}
	s := make([]float64, len(p.ye))
	for i := range s {
		// The learners' read-out: the fused epilogue, no feature vector.
		s[i] = p.rff.CombineRow(p.xe[i*p.d:(i+1)*p.d], coef) + bias
	}
	return s, nil
}

// errRate is the misclassification rate in % of the evaluation rows for λ.
func (p *path) errRate(lambda float64) (float64, error) {
	s, err := p.scores(lambda)
	if err != nil {
		return 0, err
	}
	bad := 0
	for i, v := range s {
		if !(v >= 0 && p.labels.Pos == p.ye[i] || v < 0 && p.labels.Neg == p.ye[i]) { // the decoded label (a NaN score none)
			bad++
		}
	}
	return 100 * float64(bad) / float64(len(s)), nil
}

// standardize is learners.Standardize (the learners' own statistics);
// the data were checked when read.
func standardize(X featmap.Matrix) (*dataset.Scaler, []float64) {
	mean, scale, xs, err := learners.Standardize(X)
	if err != nil {
		panic(err)
	}
	return &dataset.Scaler{Mean: mean, Scale: scale}, xs
}

// rows returns dense copies of the rows idx of X and of their labels.
func rows(X featmap.Matrix, y []float64, idx []int) (featmap.Matrix, []float64) {
	d := X.Cols
	out, yo := make([]float64, len(idx)*d), make([]float64, len(idx))
	for r, i := range idx {
		copy(out[r*d:(r+1)*d], X.Row(i))
		yo[r] = y[i]
	}
	return featmap.Dense(len(idx), d, out), yo
}

// centred returns t − mean(t).
func centred(t []float64) []float64 {
	var m float64
	for _, v := range t {
		m += v
	}
	m /= float64(len(t))
	c := make([]float64, len(t))
	for i, v := range t {
		c[i] = v - m
	}
	return c
}

// featureStats summarises the features φ_j(x) = cos(ω_j·x + b_j) of rff on
// the standardised rows Xs with ±1 labels t, averaged over the features:
// ‖ω_j‖, |mean φ_j|, the standard deviation of φ_j, |corr(y, φ_j)| and
// the EERF score |(1/n) Σ y_i φ_j(x_i)|. Rows are processed in blocks, so
// memory stays at 256 rows of features.
type featureStats struct {
	norm, absMean, sd, absCorr, score float64
}

func stats(rff *featmap.RFF, Xs featmap.Matrix, t []float64) (featureStats, error) {
	const block = 256
	n, D := Xs.Rows, rff.Outputs()
	s1, s2, sy := make([]float64, D), make([]float64, D), make([]float64, D)
	buf := make([]float64, block*D)
	for lo := 0; lo < n; lo += block {
		hi := min(n, lo+block)
		sub := featmap.Matrix{Rows: hi - lo, Cols: Xs.Cols, Stride: Xs.Stride, Data: Xs.Data[lo*Xs.Stride:]}
		Z := featmap.Dense(hi-lo, D, buf[:(hi-lo)*D])
		if err := rff.Transform(Z, sub); err != nil {
			return featureStats{}, err
		}
		for i := lo; i < hi; i++ {
			for j, z := range Z.Row(i - lo) {
				v := z / rff.Scale()
				s1[j] += v
				s2[j] += v * v
				sy[j] += t[i] * v
			}
		}
	}
	var ty, tt float64
	for _, v := range t {
		ty += v
		tt += v * v
	}
	fn := float64(n)
	ybar := ty / fn
	sdy := math.Sqrt(math.Max(0, tt/fn-ybar*ybar))
	w, _ := rff.Weights()
	d := rff.Inputs()
	var st featureStats
	for j := 0; j < D; j++ {
		mean := s1[j] / fn
		sd := math.Sqrt(math.Max(0, s2[j]/fn-mean*mean))
		cov := sy[j]/fn - ybar*mean
		var nn float64
		for k := 0; k < d; k++ {
			nn += w[k*D+j] * w[k*D+j]
		}
		st.norm += math.Sqrt(nn)
		st.absMean += math.Abs(mean)
		st.sd += sd
		if sd > 0 && sdy > 0 {
			st.absCorr += math.Abs(cov / (sd * sdy))
		}
		st.score += math.Abs(sy[j] / fn)
	}
	k := float64(D)
	st.norm /= k
	st.absMean /= k
	st.sd /= k
	st.absCorr /= k
	st.score /= k
	return st, nil
}

func (s featureStats) row(name string, M int) string {
	return fmt.Sprintf("| %s | %d | %.3f | %.3f | %.3f | %.4f | %.3f |\n", name, M, s.norm, s.absMean, s.sd, s.absCorr, s.score)
}
