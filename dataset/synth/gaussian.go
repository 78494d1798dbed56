package synth

// Gaussian returns n points of the PRFF Gram-approximation experiment:
// rows drawn i.i.d. from the d-dimensional standard normal N(0, I_d)
// (the paper uses d = 10 and d = 100, N = 10000). The set has no targets:
// Y is nil and Task is "unsupervised". Values are drawn row by row, so
// Gaussian(m, d, seed) is a prefix of Gaussian(n, d, seed) for m < n.
func Gaussian(n, d int, seed uint64) (*Set, error) {
	if err := checkSize("gaussian", n, d); err != nil {
		return nil, err
	}
	s := newSet("gaussian", taskUnsupervised, n, d, nil)
	newNormals(seed, tagGaussian).Fill(s.X)
	return s, nil
}
