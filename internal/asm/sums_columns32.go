package asm

// Float32 column-major variants of the two reductions that read a sample
// matrix (SincosDot, FreqStepSums). The paths whose bodies take one group
// of eight elements at a time (AVX2, NEON, the twin) read a column-major
// matrix fastest; once it leaves the caches they are bound by its bytes, and
// float32 storage halves them: at n = 10⁵, d = 20, 8 MB a sweep instead of
// 16. Every element is widened exactly to float64 before its FMA, so the
// results are the bits of the float64 functions over the widened values, on
// every path. AVX2 has bodies of its own (Columns32); elsewhere the
// functions widen 64 elements at a time on the Go side and run the float64
// body over them: correct, not fast, so callers choose float32 columns only
// where Columns32 reports true.

// Columns32 reports whether the selected path has float32 column-major
// bodies of SincosDot32 and FreqStepSums32 (AVX2).
func Columns32() bool { return hasColumns32() }

// SincosDot32 is SincosDot over a float32 column-major matrix (row k holds
// feature k of every element, row stride ld).
func SincosDot32(sin, cos []float64, mat []float32, ld int, vec []float64) {
	n, d := len(sin), len(vec)
	if len(cos) < n || !checkMat32(mat, d, n, ld) {
		sumsPanic("SincosDot32", len(sin), len(cos), len(mat), ld, len(vec))
	}
	var f sumsFrame
	f.a.out[0], f.a.out[1] = ptr(sin), ptr(cos)
	f.a.mat[0], f.a.vec[0] = ptr32(mat), ptr(vec)
	f.a.d, f.a.ld = d, ld
	sumsColumns32(kSincosDot, &f, n, mat)
}

// FreqStepSums32 is FreqStepSums over a float32 column-major matrix xt
// (row k holds feature k, row stride ld).
func FreqStepSums32(proj, yt []float64, xt []float32, ld int, omega []float64, b float64, acc *[8]float64, accX [][8]float64) {
	n, d := len(yt), len(omega)
	if len(proj) < n || len(accX) < d || !checkMat32(xt, d, n, ld) {
		sumsPanic("FreqStepSums32", len(proj), len(yt), len(xt), ld, len(omega), len(accX))
	}
	var f sumsFrame
	f.a.in[0], f.a.out[0] = ptr(yt), ptr(proj)
	f.a.mat[0], f.a.vec[0] = ptr32(xt), ptr(omega)
	f.a.d, f.a.ld, f.a.par[0] = d, ld, b
	f.a.acc = &acc[0]
	f.a.accm[0] = lanePtr(accX[:d])
	sumsColumns32(kFreqStep, &f, n, xt)
}

// checkMat32 is checkMat for a float32 matrix.
func checkMat32(mat []float32, d, n, ld int) bool {
	return ld >= n && (d == 0 || n == 0 || len(mat) >= (d-1)*ld+n)
}

// sumsColumns32 runs reduction k over elements [0, n) of frame f whose
// matrix 0 is the float32 matrix mat (f.a.mat[0] points at it, f.a.ld its
// row stride): the path's float32 body as far as it goes, and every other
// piece (a group failing a domain check, the tail, paths without such a
// body) widened exactly into a float64 block of up to 64 elements and
// swept by the float64 body. Pieces start at multiples of eight, so every
// lane receives the same elements in the same order: the bits of one
// float64 sweep over the widened matrix.
func sumsColumns32(k sumsKernel, f *sumsFrame, n int, mat []float32) {
	const piece = panelLen
	d, ld := f.a.d, f.a.ld
	var stack [piece * maxStackPanelRows]float64
	var wide []float64
	i := 0
	for i < n {
		f.a.i, f.a.n = i, n
		if j, ok := sumsColumns32Asm(k, f); ok {
			if i = j; i >= n {
				break
			}
		}
		e := min(i+piece, n)
		var g sumsFrame
		g.a = f.a
		for s := range g.a.in {
			g.a.in[s] = offset(f.a.in[s], i)
		}
		for s := range g.a.out {
			g.a.out[s] = offset(f.a.out[s], i)
		}
		if wide == nil {
			wide = stack[:]
			if d > maxStackPanelRows {
				wide = make([]float64, piece*d)
			}
		}
		for r := 0; r < d; r++ {
			for j, v := range mat[r*ld+i : r*ld+e] {
				wide[r*piece+j] = float64(v)
			}
		}
		g.a.mat[0], g.a.ld = ptr(wide), piece
		sumsRun(k, &g, e-i)
		i = e
	}
}
