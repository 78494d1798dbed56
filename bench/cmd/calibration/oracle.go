package main

import (
	"math"
)

// scorer is a model with a real-valued score whose sign is Predict's
// (kit.Base.Score).
type scorer interface {
	Score(x []float64) float64
}

// oracleLogLoss is the smallest mean log loss of p = σ(a·s + b) over a and
// b on the scores s with classes k (0 or 1): Platt scaling fitted on the
// very rows it is scored on. It is not a calibration (it looks at the test
// labels) but a lower bound of what any sigmoid calibration of these
// scores, temperature or Platt, can reach on them: the ranking and spread
// of the scores limit it, not the calibration. Newton's method with
// backtracking, from a = 2, b = 0 (GBRFF's link), ridge 1e-9 on the
// Hessian for separable rows.
func oracleLogLoss(s []float64, k []int) float64 {
	loss := func(a, b float64) float64 {
		var l float64
		for i := range s {
			f := a*s[i] + b
			if k[i] == 0 {
				f = -f
			}
			l += math.Log1p(math.Exp(-math.Abs(f))) + math.Max(-f, 0)
		}
		return l / float64(len(s))
	}
	a, b := 2.0, 0.0
	cur := loss(a, b)
	for it := 0; it < 200; it++ {
		var ga, gb, haa, hab, hbb float64
		for i := range s {
			p := 1 / (1 + math.Exp(-(a*s[i] + b)))
			r, w := p-float64(k[i]), p*(1-p)
			ga, gb = ga+s[i]*r, gb+r
			haa, hab, hbb = haa+s[i]*s[i]*w, hab+s[i]*w, hbb+w
		}
		n := float64(len(s))
		ga, gb, haa, hab, hbb = ga/n, gb/n, haa/n+1e-9, hab/n, hbb/n+1e-9
		det := haa*hbb - hab*hab
		da, db := -(hbb*ga-hab*gb)/det, -(haa*gb-hab*ga)/det
		moved := false
		for step := 1.0; step > 1e-12; step /= 2 {
			na, nb := a+step*da, b+step*db
			if l := loss(na, nb); l <= cur+1e-4*step*(ga*da+gb*db) {
				a, b, cur, moved = na, nb, l, true
				break
			}
		}
		if !moved || math.Abs(ga)+math.Abs(gb) < 1e-12 {
			break
		}
	}
	return cur
}
