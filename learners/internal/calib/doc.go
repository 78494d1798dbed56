// Package calib fits the probability calibrations the learners share: a
// temperature p = σ(a·s), Platt scaling p = σ(a·s + b) on binary scores,
// and a softmax temperature p = softmax(a·s) on multiclass scores, each by
// weighted log loss on (score, label[, weight]) rows.
//
// Every fit is the same damped Newton method (newton.go): from a start,
// a Newton step on the convex loss, halved until the loss strictly
// decreases by at least a small fraction of the predicted decrease
// (Armijo), stopped when the predicted decrease (half the Newton
// decrement) or the achieved one falls below RelTol of the loss — a rule
// relative to the loss, so rounding in a sum over many rows cannot keep it
// going — and in any case after MaxEvals evaluations of the loss. One
// evaluation is one pass over the rows computing the loss, its gradient
// and its Hessian together; Result.Evals counts them, so a caller can
// report the work.
//
// The scores are divided by a power of two (exact) that brings the
// largest |score| into [½, 1) before the fit and the slope scaled back
// after it: a fit does not depend on the scores' scale, and huge finite
// scores neither overflow nor stall it. Every exponential and logarithm is
// internal/xmath's and every product is rounded on its own, so a fit gives
// the same bits on every architecture.
//
// Bad input is an error, never a NaN: rows of different lengths, a score,
// weight or start that is not finite, a negative weight, weights that sum
// to zero, a binary label other than ±1, a class out of range.
package calib
