// Package prff is Pseudo-Random Fourier Features (Damodaran, Courty and
// Gosselin 2017): random Fourier features of the Gaussian kernel whose
// frequencies are learned, one at a time, so that the feature map's Gram
// matrix approximates the exact kernel's. Learn returns the learned map (a
// featmap transform); Fit standardises the inputs, learns the map and fits
// ridge regression (regression) or L2-regularised logistic regression
// (binary) on its features, like package rks.
//
// # The map
//
//	z(x) = √(2/D)·cos(Wᵀx + b),   k(x, x') = exp(−γ‖x−x'‖²) ≈ z(x)·z(x')
//
// Feature M (1-based) starts from an RFF draw, w_M ~ N(0, 2γ·I) = N(0, σ⁻²·I)
// (the spec's variance σ⁻², not the paper's σ⁻¹) and b_M ~ U[0, 2π), and is
// then moved by gradient descent on
//
//	L(w_M) = (1/m²) Σ_{i,l∈S} (k(x_i,x_l) − (2/M) Σ_{j≤M} c_j(x_i) c_j(x_l))² + λ‖w_M‖²
//
// with c_j(x) = cos(w_j·x + b_j), S the M-th mini-batch (m rows) and the
// earlier features frozen. The normalisation is 2/M throughout (the paper's
// eq. (4) mixes 2/(M−1), 2 and 2/M). The gradient is exact (the reference
// code drops terms): with r_il the residual in brackets, u_i = Σ_l r_il c_M(x_l)
// and s_i = sin(w_M·x_i + b_M), r being symmetric,
//
//	∂L/∂w_M = (8/(M m²)) Σ_i s_i u_i x_i + 2λ w_M,   ∂L/∂b_M = (8/(M m²)) Σ_i s_i u_i.
//
// Choices, each where the paper or the reference leaves room:
//
//   - Mini-batches: the rows are shuffled once (seeded); feature M uses
//     batch (M−1) mod ⌈n/B⌉ of B = 128 consecutive shuffled rows (the last
//     batch may be smaller; with more features than batches the batches
//     are reused in the same order). Fewer than B rows: every feature sees
//     all of them.
//   - Only w_M is learned by default, b_M stays at its random draw, as in
//     the paper (its footnote 3: learning b did not help). LearnPhase also
//     descends on b_M with the exact gradient above (b is not penalised).
//   - Optimiser: gradient descent with step η_t = s·α/(1 + αλt), t the
//     iteration. A step that increases the loss is not taken: s is halved
//     and the step retried (backtracking); after a step accepted at the
//     first try s doubles again, up to 1. Accepted steps never increase the
//     loss, so the last iterate is the best one kept. A feature stops when
//     the accepted (or the smallest tried) step moves w_M by ‖Δw‖ ≤ Tol =
//     1e-5, or after MaxIter iterations.
//   - MaxIter = 100, the paper's setting, not the 1000 of the spec: the
//     cap is what keeps a feature from over-fitting its 128-row batch. On
//     N = 2000 rows of N(0, I₁₀₀), D = 200, the Gram error relative to RFF
//     is 0.60 with 100 iterations and 0.95 with 1000 (1.96 at D = 50). At
//     d = 10 1000 iterations fit slightly better (0.24 against 0.40 of RFF
//     at D = 200), so 100 is the value that is safe at both.
//   - FreqLambda = 0, the paper's setting for its Gram figure, not the
//     reference script's 1e-3. The data term's gradient carries the factor
//     2/M while the penalty's does not, so a fixed λ that is negligible for
//     the first features dominates later ones and pulls their frequencies
//     towards 0; the low-frequency features bias K̃ upwards and the Gram
//     error grows with D. On N = 2000 rows of N(0, I₁₀) with 100
//     iterations the error relative to RFF at D = 25/50/100/200 is
//     0.56/0.37/0.98/4.0 with λ = 1e-3, 1.2/2.5/10/41 with λ = 1e-2 and
//     0.62/0.31/0.39/0.40 with λ = 1e-5 (the same as λ = 1e-9). A positive
//     FreqLambda is still accepted (for downstream tasks the paper tunes
//     it; keep it small against 2/D).
//   - α: the reference's α (0.1 in its main script, 50 for its Gram figure)
//     does not transfer across d: the loss's curvature in w grows with the
//     spread of the data (‖x‖² ~ d) and the data scale. The default is
//     α = 2·σ²·(10/d)², σ² = 1/(2γ): ≈ 15 at d = 10 and ≈ 3 at d = 100
//     on standard normal data (the reference's α = 50 diverges at
//     d = 100), and invariant to rescaling the inputs. With backtracking
//     the result is not sensitive to α: on N = 1000 standard normal rows
//     with D = 50, α from 0.1 to 100 gave Gram errors 0.0084–0.0110 at
//     d = 10 (RFF 0.0146, default 0.0093) and 0.0069–0.0075 at d = 100
//     (RFF 0.0109, default 0.0069).
//   - Bandwidth rule (Gamma = 0): σ = the 5th percentile (linear
//     interpolation, as numpy.percentile) of the pairwise Euclidean
//     distances of the first min(n, 500) shuffled rows, γ = 1/(2σ²). It
//     fails if that percentile is 0 (over 5 % of pairs coincide).
//   - Arithmetic: sums run in a fixed order, every product that feeds a sum
//     is rounded on its own (float64(a*b), no FMA contraction), cos, sin and
//     exp come from package trig and the normal draws are Box–Muller on
//     xmath.Log and trig.Sincos, so a learned map, hence a model file, is
//     the same bits on every architecture and for any GOMAXPROCS (learning
//     is sequential).
//   - Greedy prefix: feature M depends only on features 1..M−1, so the map
//     learned with D features is the first D features of one learned with
//     more (same data and seed); Map.Prefix returns it.
//
// Fit: inputs are standardised (prep.Standardize) and the map is learned on
// the standardised rows; then, exactly as rks, ridge (squared loss, the
// default for Regression) or logistic regression (the default for Binary)
// with an unpenalised intercept is fitted on z. Predictions use the fused
// epilogue featmap.RFF.CombineRow (no feature vector is stored) and
// allocate nothing.
//
// Sample weights (FitWeighted, and `rfkit train|cv -weight COL`): a row of
// weight 0 is dropped; the others weigh in the standardisation (weighted
// mean and variance), the bandwidth rule (the pair of rows a, c weighs
// w_a·w_c, a row adds max(0, w_a(w_a−1)/2) pairs at distance 0), the Gram
// loss of each feature, Σ_il w_i·w_l·r_il² / (Σ_i w_i)² over its
// mini-batch, and the linear model's weighted loss. Weight 2 is the row
// twice when one mini-batch holds every row (Batch ≥ n); with smaller
// batches the shuffle splits the two data sets differently.
//
// Cost: per feature and iteration O(m·d + m²) for the loss and gradient, plus
// O(m²·(M + d)) once per feature for the residual of the frozen features;
// memory O(m² + n·d).
package prff
