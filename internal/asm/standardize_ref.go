package asm

// standardizeRef is the pure-Go twin of Standardize: the contract's loop.
func standardizeRef(z, x, mean, scale []float64) {
	z, mean, scale = z[:len(x)], mean[:len(x)], scale[:len(x)]
	for i, v := range x {
		r := (v - mean[i]) / scale[i]
		if v != v {
			r = 0
		}
		z[i] = r
	}
}
