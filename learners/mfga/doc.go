// Package mfga is Multi Feature Greedy Approximation (Shahrampour and
// Tarokh, "Learning bounds for greedy approximation with explicit feature
// maps from multiple kernels", NeurIPS 2018): a sparse linear model on a
// few features greedily chosen from a dictionary of explicit (Taylor)
// features of the Gaussian kernel plus the coordinates of the linear
// kernel.
//
// No public reference code exists. Every choice the paper leaves open is
// stated here.
//
// # Inputs
//
// Inputs are standardised to mean 0 and unit variance on the training set
// (prep.Standardize, as the paper does); the model stores the scaler.
// Regression targets are used as given: the squared-loss solution is
// linear in y, so the paper's rescaling of y to [−1, 1] only rescales λ.
//
// # Dictionary
//
// For the Gaussian kernel exp(−‖x−x'‖²/2σ²) the candidates are the
// Taylor features of total degree ≤ p,
//
//	φ_α(x) = e^{−‖x‖²/2σ²} · x^α / (σ^{|α|}·√(α!)),
//
// in graded order (α = 0; the d first-degree terms; for p = 2 the pairs
// k ≤ l), followed by the d linear features x_k: M₀ = 2d+1
// for p = 1 (the default for classification) and 2d+1+d(d+1)/2 for p = 2
// (the default for regression). The paper counts C(d,2) second-degree
// terms; the d squares x_k²/√2 (α! = 2) are kept here. The
// factor e^{−‖x‖²/2σ²} is computed with trig.Exp, so features, and hence
// models, are the same bits on every architecture. The uniform kernel
// weights of the paper (ν_p = 1) are used; a single σ.
//
// The dictionary is never materialised: only the active columns are
// stored (n × M), and the correlation of the gradient with all M₀
// candidates is accumulated row by row, O(n·M₀) time per greedy step.
//
// # Bandwidth σ
//
// σ = 0 selects the paper's rule of thumb, the mean over rows of the
// distance to the 50th nearest neighbour (k = min(50, n−1)), on the
// standardised inputs. For speed the mean is taken over a subsample of
// min(n, 256) query rows chosen by Config.Seed; each query's neighbours
// are searched among all n rows (itself excluded), so the 50th neighbour
// is the full data's, not a subsample's. If the rule gives 0 (more than
// 50 duplicates of every query row) σ = √(2d), the typical distance
// between two standardised rows.
//
// # Greedy loop
//
// Each candidate column ψ_j (its values on the n training rows) is
// centred and scaled to unit root mean square: z_j = (ψ_j − ψ̄_j)/s_j;
// columns with s_j = 0 are never selected. The model is
//
//	f(x) = c + Σ_{j∈A} w_j (φ_j(x) − ψ̄_j)/s_j
//
// with an unpenalised intercept c, so λ penalises every feature on the
// same scale. Starting from the intercept-only model (c = mean of y, or
// the log-odds of the positive class), each step computes the gradient g
// of the empirical risk with respect to the n predictions (the negative
// residual for the squared loss, −y_i σ(−y_i f_i) for the logistic loss)
// and adds the PerStep unselected candidates with the largest
// |⟨g, z_j⟩| (ties to the lower index; PerStep = 1 is OMP, more is
// generalised OMP, which the paper uses for speed), then refits on the
// active set A:
//
//   - squared loss: min (1/n)‖y − c − Zw‖² + λ‖w‖², solved exactly from
//     the Cholesky factor L of G = ZᵀZ/n + λI (Z the normalised active
//     columns), which grows by one row per added column (O(n·|A|) for the
//     new Gram row, O(|A|²) for the factor row and the solve);
//   - logistic loss: min (1/n)Σ log(1 + e^{−y_i f_i}) + (λ/2)‖w‖², by
//     L-BFGS (solvers.LBFGS) warm-started from the previous weights (the
//     new ones at 0) and preconditioned by the same factor: it runs on
//     v = Lᵀw, where the curvature of the loss is within a factor of
//     ZᵀZ/4n + λ I, so the iterations needed do not grow with the
//     collinearity of the Taylor and linear columns. Each iteration costs
//     O(n·|A|). The loss uses trig.Exp and xmath.Log.
//
// A candidate whose new Cholesky pivot falls below 1e-10·(1+λ) (it is
// numerically in the span of the active columns) is discarded and the
// next best one taken. The loop stops when M features are active, when
// no usable candidate is left, or when the step decreased the regularised
// risk by no more than Tol·max(|R|, 1e-12) (the risk stops improving);
// the features of that last step are kept, since the step did not hurt.
//
// # Output
//
// The fitted normalised weights are folded back into coefficients of the
// raw features: score(x) = bias + Σ coef_j φ_j((x − mean)/scale).
// Classification predicts the larger label when the score is ≥ 0.
// Rows of the correlation pass are split in fixed blocks of 512 rows whose
// partial sums are added in block order, so the result does not depend on
// GOMAXPROCS; every product that is summed is rounded on its own
// (float64(a*b)) so no architecture contracts it into an FMA.
//
// λ: the paper tunes it over {10⁻⁵, …, 10⁵} (on the test set); the
// default is 1e-4. On adult, λ chosen on a 20 % validation split is 1e-4
// at M = 100 (test error 15.10 %) and 1e-2 at M = 20 (15.40 %, against
// 15.64 % at 1e-4), all with OMP (PerStep = 1); with five features per
// step M = 100 gave 15.12 % (λ = 1e-4) and 15.00 % (λ = 1e-3). The default
// of ten greedy steps (PerStep = M/10) gives 15.14 % at λ = 1e-4 and
// 15.01 % at the validated 1e-2 for M = 100, in about 1/6 of OMP's CPU
// time, and 15.75 % for M = 20 (two per step; OMP 15.40 %). See
// bench/results/mfga-adult.md.
package mfga
