// Package solvers holds the small numerical solvers that rfkit's learners call
// in their inner loops: a step-wise, allocation-free L-BFGS minimiser, a global
// 1-D minimiser for 2π-periodic functions, ridge regression by Cholesky,
// L2-regularised logistic regression, linear SVMs by dual coordinate descent,
// and the Euclidean projection onto the scaled simplex.
//
// Design notes:
//
//   - Matrices are dense, row-major n×d float64 slices (len(X) == n*d).
//   - Results are bit-identical on every architecture (amd64 with any SIMD
//     path or -tags purego, arm64), given objectives that are: sums run in
//     a fixed order, every product that feeds an addition is rounded on its
//     own (float64(a*b)) because the Go compiler fuses a*b+c into an FMA on
//     arm64 but not on amd64 (also across statements, so a product assigned
//     to a variable is converted too), exponentials come from package internal/asm (trig's kernels)
//     and logarithms from internal/xmath. That is why nothing here calls
//     gonum (whose blas kernels are assembly on amd64 and fused Go on arm64)
//     or math.Exp/Log/Log1p: the Cholesky factorisation of Ridge is local
//     (cholesky.go), and the Moré–Thuente line search is a guarded copy of
//     gonum's optimize.MoreThuente (morethuente.go, BSD-3, notice kept).
//     Check with GOARCH=arm64 go build -gcflags=-S ./solvers: the output
//     must hold no FMADDD, FMSUBD, FNMADDD or FNMSUBD.
//   - Nothing here touches process-global state.
//   - L-BFGS drives its Moré–Thuente search step by step (init/iterate); the
//     search keeps its state in a few float64 fields and does not allocate,
//     so a reused LBFGS value performs zero allocations per Minimize call.
//   - Bad inputs (wrong lengths, NaN/Inf, negative regularisation, empty
//     problems) give descriptive errors; nothing panics on user input.
//   - Solver values (LBFGS, RidgeSolver) are not safe for concurrent use;
//     create one per goroutine.
package solvers
