// Package summary holds the few statistics the bench commands print over
// seeds or splits, written once so that every table rounds them alike.
package summary

import "math"

// MeanSD returns the mean of v and its sample standard deviation (divisor
// len(v) − 1; 0 for fewer than two values), both summed in index order.
// v must not be empty.
func MeanSD(v []float64) (mean, sd float64) {
	mean, s := meanVar(v)
	return mean, math.Sqrt(s)
}

// MeanSE returns the mean of v and its standard error √(s²/len(v)), s² the
// sample variance (0 for fewer than two values).
func MeanSE(v []float64) (mean, se float64) {
	mean, s := meanVar(v)
	return mean, math.Sqrt(s / float64(len(v)))
}

// meanVar is the mean and the sample variance of v, in index order.
func meanVar(v []float64) (mean, s float64) {
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	for _, x := range v {
		s += (x - mean) * (x - mean)
	}
	if len(v) > 1 {
		s /= float64(len(v) - 1)
	}
	return mean, s
}
