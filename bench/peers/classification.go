// Package peers holds the data and the scripts that time rfkit against
// other libraries on the same rows: Classification writes a
// scikit-learn make_classification-style problem, cmd/peer-data saves it as
// CSV, and xgboost.py (run by `make bench-peers`) times XGBoost's hist
// booster on those files next to rfkit's BenchmarkFit from the same run.
// rfkit itself never depends on Python; this is a measuring tool only.
package peers

import (
	"fmt"
	"math/rand/v2"
)

// Classification returns n rows of d inputs (row-major) and labels ±1 drawn
// like scikit-learn's make_classification with its defaults
// (n_informative = 2, n_redundant = 2, n_clusters_per_class = 2,
// class_sep = 1, flip_y = 0.01, hypercube = True, shuffle = True), from a
// PCG stream seeded by seed; d ≥ 4. The generator is rfkit's own (the same
// recipe, not the same random numbers as numpy):
//
//   - 4 clusters at the vertices (±1, ±1) of the informative square, two per
//     class, with equal shares of the rows;
//   - cluster k's informative inputs are N(0, I₂)·A_k + vertex, A_k uniform
//     on [−1, 1]²ˣ²;
//   - two redundant inputs, the informative ones times a uniform [−1, 1]²ˣ²
//     matrix; the other d − 4 inputs are N(0, 1) noise;
//   - 1 % of the labels are replaced by a random label;
//   - rows and then columns are shuffled.
//
// Cost: O(n·d); the same (n, d, seed) gives the same bits everywhere, and a
// larger n does not change the first rows' distribution (but not their values).
func Classification(n, d int, seed uint64) (X, y []float64, err error) {
	const inf, red, clusters = 2, 2, 4
	if n < clusters || d < inf+red {
		return nil, nil, fmt.Errorf("peers: Classification(%d, %d): want n ≥ 4 and d ≥ 4", n, d)
	}
	r := rand.New(rand.NewPCG(seed, 0xc1a55))
	u := func() float64 { return 2*r.Float64() - 1 }
	vert := [clusters][inf]float64{{-1, -1}, {1, 1}, {-1, 1}, {1, -1}} // clusters 0, 1 → class 0; 2, 3 → class 1
	var A [clusters][inf][inf]float64
	for k := range A {
		for i := range A[k] {
			for j := range A[k][i] {
				A[k][i][j] = u()
			}
		}
	}
	var B [inf][red]float64
	for i := range B {
		for j := range B[i] {
			B[i][j] = u()
		}
	}
	rows := make([]float64, n*d)
	lab := make([]float64, n)
	for i := 0; i < n; i++ {
		k := i * clusters / n // equal shares, in order; rows are shuffled below
		row := rows[i*d : (i+1)*d]
		z := [inf]float64{r.NormFloat64(), r.NormFloat64()}
		for j := 0; j < inf; j++ {
			var s float64
			for m := 0; m < inf; m++ {
				s += float64(z[m] * A[k][m][j]) // float64(·): no FMA fusion on arm64
			}
			row[j] = s + vert[k][j]
		}
		for j := 0; j < red; j++ {
			var s float64
			for m := 0; m < inf; m++ {
				s += float64(row[m] * B[m][j])
			}
			row[inf+j] = s
		}
		for j := inf + red; j < d; j++ {
			row[j] = r.NormFloat64()
		}
		lab[i] = float64(2*(k/2) - 1)
		if r.Float64() < 0.01 {
			lab[i] = float64(2*r.IntN(2) - 1)
		}
	}
	perm := r.Perm(n)
	cols := r.Perm(d)
	X = make([]float64, n*d)
	y = make([]float64, n)
	for i, p := range perm {
		for j, c := range cols {
			X[i*d+j] = rows[p*d+c]
		}
		y[i] = lab[p]
	}
	return X, y, nil
}

// The problem of BenchmarkFit/method=gbrff2 and of the peer scripts:
// Classification(n, BenchD, BenchSeed).
const (
	BenchD    = 20
	BenchSeed = 1
)
