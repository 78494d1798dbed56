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

// Recipe is a make_classification setting: Informative inputs whose
// class clusters sit at vertices of the hypercube [−ClassSep, ClassSep]^Informative,
// ClustersPerClass clusters per class, Redundant linear mixtures of the
// informative inputs, and a Flip share of labels replaced by a random label.
type Recipe struct {
	Informative, Redundant, ClustersPerClass int
	ClassSep, Flip                           float64
}

// The two recipes of the peer benchmarks: scikit-learn's defaults, and
// the harder setting of the panel's ω-search table (bench/peers/panel.py's
// "make_classification-other": more informative inputs, more clusters,
// closer classes, more label noise).
var (
	RecipeDefaults = Recipe{Informative: 2, Redundant: 2, ClustersPerClass: 2, ClassSep: 1, Flip: 0.01}
	RecipeOther    = Recipe{Informative: 10, Redundant: 0, ClustersPerClass: 3, ClassSep: 0.7, Flip: 0.05}
)

// Classification returns n rows of d inputs (row-major) and labels ±1 drawn
// like scikit-learn's make_classification with its defaults
// (n_informative = 2, n_redundant = 2, n_clusters_per_class = 2,
// class_sep = 1, flip_y = 0.01, hypercube = True, shuffle = True), from a
// PCG stream seeded by seed; d ≥ 4. It is ClassificationWith(RecipeDefaults).
func Classification(n, d int, seed uint64) (X, y []float64, err error) {
	return ClassificationWith(n, d, seed, RecipeDefaults)
}

// ClassificationWith returns n rows of d inputs and labels ±1 drawn by
// recipe r, from a PCG stream seeded by seed. The generator is rfkit's own
// (the same recipe, not the same random numbers as numpy):
//
//   - 2·ClustersPerClass clusters at distinct vertices ±ClassSep of the
//     informative cube, with equal shares of the rows (with 2 informative
//     inputs and 2 clusters per class every vertex is used: class −1 takes
//     (−1, −1) and (1, 1), class +1 the other diagonal; otherwise the
//     vertices are drawn);
//   - cluster k's informative inputs are N(0, I)·A_k + vertex, A_k uniform
//     on [−1, 1]^(inf×inf);
//   - the redundant inputs are the informative ones times a uniform
//     [−1, 1]^(inf×red) matrix; the other inputs are N(0, 1) noise;
//   - a share Flip of the labels is replaced by a random label;
//   - rows and then columns are shuffled.
//
// Cost: O(n·d·inf); the same (n, d, seed, r) gives the same bits
// everywhere, and a larger n does not change the first rows' distribution
// (but not their values).
func ClassificationWith(n, d int, seed uint64, rc Recipe) (X, y []float64, err error) {
	inf, red, clusters := rc.Informative, rc.Redundant, 2*rc.ClustersPerClass
	if inf < 1 || red < 0 || rc.ClustersPerClass < 1 || inf > 30 || clusters > 1<<inf ||
		!(rc.ClassSep > 0) || !(rc.Flip >= 0 && rc.Flip <= 1) {
		return nil, nil, fmt.Errorf("peers: recipe %+v is not a valid make_classification setting", rc)
	}
	if n < clusters || d < inf+red {
		return nil, nil, fmt.Errorf("peers: ClassificationWith(%d, %d): want n ≥ %d and d ≥ %d", n, d, clusters, inf+red)
	}
	r := rand.New(rand.NewPCG(seed, 0xc1a55))
	u := func() float64 { return 2*r.Float64() - 1 }
	A := make([][]float64, clusters) // A[k][m*inf+j]
	for k := range A {
		A[k] = make([]float64, inf*inf)
		for i := range A[k] {
			A[k][i] = u()
		}
	}
	B := make([]float64, inf*red) // B[m*red+j]
	for i := range B {
		B[i] = u()
	}
	vert := make([][]float64, clusters) // clusters k < ClustersPerClass → class −1
	if inf == 2 && clusters == 4 {
		vert = [][]float64{{-1, -1}, {1, 1}, {-1, 1}, {1, -1}}
	} else {
		seen := map[uint64]bool{}
		for k := range vert {
			var code uint64
			for {
				code = r.Uint64() & (1<<inf - 1)
				if !seen[code] {
					break
				}
			}
			seen[code] = true
			vert[k] = make([]float64, inf)
			for j := range vert[k] {
				vert[k][j] = float64(2*int(code>>j&1) - 1)
			}
		}
	}
	rows := make([]float64, n*d)
	lab := make([]float64, n)
	z := make([]float64, inf)
	for i := 0; i < n; i++ {
		k := i * clusters / n // equal shares, in order; rows are shuffled below
		row := rows[i*d : (i+1)*d]
		for m := range z {
			z[m] = r.NormFloat64()
		}
		for j := 0; j < inf; j++ {
			var s float64
			for m := 0; m < inf; m++ {
				s += float64(z[m] * A[k][m*inf+j]) // float64(·): no FMA fusion on arm64
			}
			row[j] = s + vert[k][j]*rc.ClassSep
		}
		for j := 0; j < red; j++ {
			var s float64
			for m := 0; m < inf; m++ {
				s += float64(row[m] * B[m*red+j])
			}
			row[inf+j] = s
		}
		for j := inf + red; j < d; j++ {
			row[j] = r.NormFloat64()
		}
		lab[i] = float64(2*(k/rc.ClustersPerClass) - 1)
		if r.Float64() < rc.Flip {
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
