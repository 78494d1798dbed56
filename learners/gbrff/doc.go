// Package gbrff implements gradient boosting with random Fourier features
// (Gautheron et al., ECML 2020): GBRFF2, whose weak learner is one cosine
// h(x) = cos(ω·x − b) with b and ω optimised per round, and GBRFF1, whose
// weak learner is a kernel landmark h(x) = Σ_k q_k cos(ω_k·(p − x)) with K
// random frequencies per round. Both minimise the exponential loss of binary
// classification, with the closed-form step α of AdaBoost.
//
// The details follow the paper and its reference code
// (LeoGautheron/ECML2020-GradientBoostingRandomFourierFeatures), with its
// fixes:
//
//   - H⁰ = ½ ln((1+ȳ)/(1−ȳ)); each round w_i = exp(−y_i H(x_i)), ỹ_i = y_i w_i,
//     not normalised; every exponent is clamped to [−700, 700].
//   - All frequencies are drawn up front from N(0, 2γI) (the spectral law of
//     exp(−γ‖x−x'‖²)), from a PCG stream seeded by Seed (γ's default
//     is Config's).
//   - GBRFF2: b is the global minimum on the circle of
//     f(b) = Σ exp(−ỹ cos(ω⁰·x − b)) (one Sincos pass, then an 8-point grid
//     and one cubic Hermite step in its two best brackets, the lowest value
//     evaluated winning — not the reference's bounded Brent, which can
//     stop in a local minimum); then ω by L-BFGS from
//     ω⁰ (at most 10 iterations, memory 10, stopping early when an
//     iteration gains less than 1% of the mean boosting weight Σw/n) on
//     L(ω) = (1/n)Σ exp(−ỹ cos(ω·x − b)) + λ‖ω‖²;
//     h is recomputed at the returned ω (the reference reuses the last
//     line-search evaluation).
//   - GBRFF1: the landmark p by L-BFGS from 0 (10 iterations) on
//     (1/n)Σ_i exp(−ỹ_i (1/K)Σ_k cos(ω_k·(p − x_i))) with the correct gradient,
//     through the phase-shift trick; q = softmax(−β√n ℓ) by log-sum-exp.
//   - α = ½ ln((Σw + Σwyh)/(Σw − Σwyh)), both sums clipped below at 1e-10·Σw,
//     so |α| ≤ ½ ln(2·10¹⁰) ≈ 11.9; then multiplied by LearningRate.
//   - Features are standardised inside Fit (the scaler is fitted on the
//     training part and stored in the model).
//
// Beyond the paper: LearningRate (shrinkage), ReoptimizePhase (search b
// again after ω), and early stopping on a stratified validation fraction
// (the model keeps the rounds up to the best validation exp-loss). A
// binary fit with Gamma unset, of either variant (the default path,
// binaryDefaults), runs 300 rounds, encodes
// its inputs (encode.go: one-hot small integer inputs, a signed log of
// heavy-tailed ones, chosen on the training rows and stored in the model)
// and spreads the rounds' kernel widths (Config.GammaMin, roundWidth); an
// explicit γ gives the paper's method on the raw standardised inputs.
//
// Tasks beyond the paper:
//
//   - Regression (Config.Task = learners.Regression; regression.go):
//     gradient boosting of the same weak learners on the squared loss or
//     the Huber loss (Config.Loss), H⁰ the mean, the phase and frequency
//     steps run on the scaled pseudo-residuals, α in closed form (squared)
//     or by a line search (Huber). The default fit (Config: T unset) also
//     encodes its inputs, shrinks the steps and early-stops on held-out
//     rows, which keeps it from doing worse than the mean on data it
//     cannot fit. Version-2 files (version 5 when the inputs are encoded).
//   - Calibrated probabilities (Config.Calibration, on by default for
//     binary models; calibrate.go): Probability is 1/(1 + e^{−a·H}) with a
//     temperature a fitted on scores the model has not seen (the early-
//     stopping rows' or out-of-fold scores; fold models run the final
//     model's rounds scaled by their share of the rows, so their scores
//     have its scale), instead of the exponential loss's 1/(1 + e^{−2H}),
//     which is far too sure after many rounds on few rows (heart: test
//     log loss 1.285 uncalibrated, 0.441 calibrated); from 10⁴ training
//     rows the default keeps the link, which is calibrated there. No
//     intercept: Probability ≥ ½ exactly when Predict is the larger label.
//     Predict and Score do not change. Version-3 files.
//   - Sample weights (FitWeighted; weights.go): they start the exp-loss
//     weights (binary) or weight the loss (regression, multiclass).
//   - Multiclass (Task = learners.Multiclass, both variants; multiclass.go):
//     K coupled score functions with the softmax loss, one weak learner
//     per class per round (a cosine for GBRFF2, a landmark of K cosines
//     for GBRFF1) fitted to 1[y = k] − p_k by the variant's regression
//     steps, Newton steps α_k; Probabilities is the softmax of the K
//     scores. Version-4 files.
//
// Cost. A GBRFF2 round makes about 11.4 passes over the n training rows,
// 6.5 of them over the n×d inputs (measured at n = 10⁵, T = 100 by
// Config.Stats and BenchmarkFit in bench/): the sincos of X·ω⁰ (one sweep
// over X for the next 8 rounds, exploss.Data.SincosMany, within 32 MiB of
// sines and cosines), about 11 phase evaluations in 3 passes (which read
// cos, sin and ỹ only), about 6.4 frequency-step evaluations, the sincos of
// X·ω for h with the correlation of h (one pass over the projections the
// frequency step stored) and the weight update. Fit
// makes two copies of the training inputs (the standardised rows and
// exploss's layout of them).
//
// The sweeps run on the fused kernels of package exploss: results are the
// same bits for any GOMAXPROCS and on every SIMD path, and every scalar that
// reaches the model goes through functions with the same bits on every
// architecture (xmath.Log, the asm kernels), so a model serialises to the
// same bytes on amd64 and arm64.
package gbrff
