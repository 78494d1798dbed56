package dataset

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// newRand returns the package's deterministic generator for seed.
func newRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
}

// classes groups the indices of y by label value, classes in increasing
// label order (NaNs, which should not occur, last) and indices increasing
// within a class. -0 and +0 are the same class.
func classes(y []float64) [][]int {
	pos := make(map[uint64]int)
	var keys []float64
	var groups [][]int
	for i, v := range y {
		if v == 0 {
			v = 0 // fold -0 into +0
		}
		b := math.Float64bits(v)
		g, ok := pos[b]
		if !ok {
			g = len(groups)
			pos[b] = g
			groups = append(groups, nil)
			keys = append(keys, v)
		}
		groups[g] = append(groups[g], i)
	}
	order := make([]int, len(groups))
	for g := range order {
		order[g] = g
	}
	slices.SortStableFunc(order, func(a, b int) int {
		ka, kb := keys[a], keys[b]
		switch {
		case math.IsNaN(ka) && math.IsNaN(kb):
			return 0
		case math.IsNaN(ka):
			return 1
		case math.IsNaN(kb):
			return -1
		case ka < kb:
			return -1
		case ka > kb:
			return 1
		}
		return 0
	})
	out := make([][]int, len(groups))
	for k, g := range order {
		out[k] = groups[g]
	}
	return out
}

func checkFrac(name string, f float64) {
	if !(f >= 0 && f <= 1) {
		panic(fmt.Sprintf("dataset: %s: testFrac = %v, want 0 <= testFrac <= 1", name, f))
	}
}

// StratifiedSplit splits the indices 0..len(y)-1 into a training and a test
// set, keeping the class proportions of y in both: each class (distinct
// value of y) contributes round(testFrac × its size) members, chosen at
// random, to the test set — but at least one and at most all but one when
// the class has two or more members and 0 < testFrac < 1. Both index lists
// are sorted in increasing order. The split depends only on y, testFrac and
// seed (math/rand/v2 PCG). It panics unless 0 <= testFrac <= 1.
//
// It is meant for class labels; for regression targets, where almost every
// value is its own class, use [KFold] (plain seeded folds).
func StratifiedSplit(y []float64, testFrac float64, seed uint64) (train, test []int) {
	checkFrac("StratifiedSplit", testFrac)
	rng := newRand(seed)
	train = make([]int, 0, len(y))
	test = make([]int, 0, int(testFrac*float64(len(y)))+len(y)/2+1)
	for _, members := range classes(y) {
		c := len(members)
		nt := int(math.Round(testFrac * float64(c)))
		if c >= 2 && testFrac > 0 && testFrac < 1 {
			nt = min(max(nt, 1), c-1)
		}
		rng.Shuffle(c, func(a, b int) { members[a], members[b] = members[b], members[a] })
		test = append(test, members[:nt]...)
		train = append(train, members[nt:]...)
	}
	slices.Sort(train)
	slices.Sort(test)
	return train, test
}

// StratifiedKFold partitions the indices 0..len(y)-1 into k folds that keep
// the class proportions of y: the members of each class are shuffled and
// dealt round-robin to the folds, continuing where the previous class
// stopped so that fold sizes differ by at most one. Fold i is the test set
// of round i; its training set is the union of the others (see
// [TrainIndices]). Each fold is sorted in increasing order. The result
// depends only on y, k and seed.
//
// It is an error if k < 2, len(y) < k, or some class has fewer than k
// members (that class would be missing from a fold).
func StratifiedKFold(y []float64, k int, seed uint64) ([][]int, error) {
	if k < 2 {
		return nil, fmt.Errorf("dataset: StratifiedKFold: k = %d, need k >= 2", k)
	}
	if len(y) < k {
		return nil, fmt.Errorf("dataset: StratifiedKFold: %d samples cannot fill %d folds", len(y), k)
	}
	cls := classes(y)
	for _, members := range cls {
		if len(members) < k {
			return nil, fmt.Errorf("dataset: StratifiedKFold: class %v has %d members, fewer than k = %d", y[members[0]], len(members), k)
		}
	}
	rng := newRand(seed)
	folds := make([][]int, k)
	f := 0
	for _, members := range cls {
		rng.Shuffle(len(members), func(a, b int) { members[a], members[b] = members[b], members[a] })
		for _, i := range members {
			folds[f] = append(folds[f], i)
			f = (f + 1) % k
		}
	}
	for _, fold := range folds {
		slices.Sort(fold)
	}
	return folds, nil
}

// KFold partitions the indices 0..n-1 at random into k folds whose sizes
// differ by at most one, each sorted in increasing order; use it for
// regression targets. It is deterministic for seed. It is an error if
// k < 2 or n < k.
func KFold(n, k int, seed uint64) ([][]int, error) {
	if k < 2 {
		return nil, fmt.Errorf("dataset: KFold: k = %d, need k >= 2", k)
	}
	if n < k {
		return nil, fmt.Errorf("dataset: KFold: %d samples cannot fill %d folds", n, k)
	}
	perm := newRand(seed).Perm(n)
	folds := make([][]int, k)
	lo := 0
	for f := range folds {
		size := n / k
		if f < n%k {
			size++
		}
		folds[f] = perm[lo : lo+size : lo+size]
		slices.Sort(folds[f])
		lo += size
	}
	return folds, nil
}

// TrainIndices returns the training indices of cross-validation round i:
// the union of every fold except folds[i], sorted in increasing order.
func TrainIndices(folds [][]int, i int) []int {
	var n int
	for f, fold := range folds {
		if f != i {
			n += len(fold)
		}
	}
	out := make([]int, 0, n)
	for f, fold := range folds {
		if f != i {
			out = append(out, fold...)
		}
	}
	slices.Sort(out)
	return out
}
