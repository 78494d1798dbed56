// Package solvers holds the small numerical solvers that rfkit's learners call
// in their inner loops: a step-wise, allocation-free L-BFGS minimiser, a global
// 1-D minimiser for 2π-periodic functions, ridge regression by Cholesky,
// L2-regularised logistic regression, linear SVMs by dual coordinate descent,
// and FISTA on the scaled simplex with its Euclidean projection.
//
// Design notes:
//
//   - Matrices are dense, row-major n×d float64 slices (len(X) == n*d).
//   - Nothing here touches process-global state: gonum is used for the
//     Cholesky factorisation and for the Moré–Thuente line search, but
//     blas64.Use is never called.
//   - L-BFGS drives gonum's optimize.MoreThuente step by step (Init/Iterate);
//     that type keeps its state in a few float64 fields and does not allocate,
//     so a reused LBFGS value performs zero allocations per Minimize call.
//   - Bad inputs (wrong lengths, NaN/Inf, negative regularisation, empty
//     problems) give descriptive errors; nothing panics on user input.
//   - Solver values (LBFGS, RidgeSolver) are not safe for concurrent use;
//     create one per goroutine.
package solvers
