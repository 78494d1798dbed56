package kernels

import "math"

func float64frombits(b uint64) float64 { return math.Float64frombits(b) }
