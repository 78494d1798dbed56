package mfga

// ones is n unit row weights (the unweighted fit).
func ones(n int) []float64 {
	c := make([]float64, n)
	for i := range c {
		c[i] = 1
	}
	return c
}
