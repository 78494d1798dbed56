package prff_test

import "math"

func expNeg(v float64) float64 { return math.Exp(-v) }
