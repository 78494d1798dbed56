package solvers

// logisticMemory is the L-BFGS memory of the logistic head (the
// default is 10). Every evaluation is a pass over the n×D features, while
// a stored pair costs 4·(D+1) flops per iteration, so a longer memory is
// almost free and saves passes: on rks's BenchmarkFit problem (D = 100) the
// solve took 26 evaluations at n = 1e4 and 49 at 1e5 with memory 10,
// 22 and 33 with memory 40, with the same held-out error (0.2619, 0.2525);
// a full memory (101) gave the same counts as 40.
const logisticMemory = 40

// warmStride and warmRows: from warmStride·warmRows rows on, the logistic
// head starts from the solution on every warmStride-th row (to gradient
// 1e-5), which costs a tenth of a full evaluation per evaluation. On
// rks's BenchmarkFit problem at n = 1e5 the full solve then takes 18
// evaluations instead of 33 (the subsample's 14 cost 1.4 more), with the
// same held-out error (0.2525); at n = 1e4 the subsample is too small to
// pay (19 + 19 instead of 22), hence the threshold. The full solve still
// runs to the solver's gradient tolerance, so the start only changes the
// path, not where it stops. (Counts of plain L-BFGS; with the sampled
// Hessian see PreconditionStride.)
const (
	warmStride = 10
	warmRows   = 5000
)

// hessianRowsPerDim and hessianCost set the preconditioner of the logistic
// head (LogisticOptions.Precondition, see PreconditionStride).
const (
	hessianRowsPerDim = 5
	hessianCost       = 8
)

// PreconditionStride returns the Precondition of the logistic head on n
// rows of D features: L-BFGS starts from the Hessian at the start point on
// every k-th row, k = max(warmStride, ⌈(D+1)/hessianCost⌉), so that its m =
// ⌈n/k⌉ rows cost m·(D+1)²/2 ≤ (hessianCost/2)·n·(D+1) multiply-adds, two
// evaluations of the objective (2·n·(D+1) each); and only when m ≥
// hessianRowsPerDim·(D+1) rows make a useful estimate, else 0 (plain
// L-BFGS: at D = 100 below n ≈ 6600, at D = 1000 below n ≈ 6.3·10⁵).
// On rks's BenchmarkFit problem (D = 100, k = 13) the full solve then takes
// 12 evaluations instead of 22 at n = 1e4, and 6 instead of 18 at 1e5
// after the warm start (itself 7 instead of 14), with the same objective
// to 12 digits and the same held-out error.
func PreconditionStride(n, D int) int {
	dim := D + 1
	k := max(warmStride, (dim+hessianCost-1)/hessianCost)
	if m := (n + k - 1) / k; m < hessianRowsPerDim*dim {
		return 0
	}
	return k
}

// LogisticHead is the binary logistic read-out of rks.Fit on the n×D features
// z (row-major) with ±1 targets t, optional row weights w (nil: none) and
// L2 penalty λ: L-BFGS with memory 40 (logisticMemory), preconditioned by
// a sampled Hessian (PreconditionStride; weighted rows as the objective
// weighs them) and, unweighted, from warmStride·warmRows rows on started
// from the solution on every warmStride-th row. It returns the weights, the intercept and the
// objective. Code that fits the same head outside Fit (a λ path over fixed
// features, as bench/cmd/mfga-adult) calls it to get Fit's bits.
func LogisticHead(z []float64, n, D int, t, w []float64, lambda float64) (coef []float64, bias, obj float64, err error) {
	var info Result
	opt := LogisticOptions{Info: &info, Memory: logisticMemory, Precondition: PreconditionStride(n, D)}
	if w == nil {
		if n >= warmStride*warmRows {
			if opt.Init, err = warmStart(z, n, D, t, lambda); err != nil {
				return nil, 0, 0, err
			}
		}
		coef, bias, err = Logistic(z, n, D, t, lambda, opt)
	} else {
		coef, bias, err = LogisticWeighted(z, n, D, t, w, lambda, opt)
	}
	return coef, bias, info.F, err
}

// warmStart returns the logistic solution (weights, then bias) on the rows
// 0, warmStride, 2·warmStride, … of the n×D features z, preconditioned as
// the full solve.
func warmStart(z []float64, n, D int, t []float64, lambda float64) ([]float64, error) {
	m := (n + warmStride - 1) / warmStride
	zs, ts := make([]float64, 0, m*D), make([]float64, 0, m)
	for i := 0; i < n; i += warmStride {
		zs = append(zs, z[i*D:(i+1)*D]...)
		ts = append(ts, t[i])
	}
	w, b, err := Logistic(zs, m, D, ts, lambda, LogisticOptions{Memory: logisticMemory, GradTol: 1e-5, Precondition: PreconditionStride(m, D)})
	if err != nil {
		return nil, err
	}
	return append(w, b), nil
}
