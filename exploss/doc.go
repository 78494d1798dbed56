// Package exploss holds the fused exponential-loss sweeps that rfkit's
// boosting learners (GBRFF1, GBRFF2) spend their time in: the weight update
// with the statistics of the closed-form step α, the phase search
// f(b) = Σ exp(−ỹ(c·cos b + s·sin b)) with f'(b), the frequency step's loss
// and gradient, and the GBRFF1 landmark objective with its gradient. Each is
// one pass over the data through an assembly kernel of package asm (AVX-512,
// AVX2, NEON, or the pure-Go twin).
//
// Determinism. Every sum is split into chunks of ChunkLen samples; within a
// chunk, sample i feeds lane i mod 8 of eight accumulators, combined by a
// fixed tree (asm.SumLanes); the chunks' results are added in index order.
// Chunks run on up to GOMAXPROCS goroutines, so results are bit-identical for
// any GOMAXPROCS and on every SIMD path. A sweep over at most one chunk runs
// on the calling goroutine.
//
// Layout. The sweeps over X read it column-major (Data: row k holds input k of
// every sample), so that eight consecutive samples are one vector load.
//
// Safeguard. Every exponent is clamped to [−700, 700] before exp, so each
// term stays finite however large the boosting weights grow (documented in
// methods.md §1); NaN inputs are rejected where data enters (NewData,
// NewPhase, NewLandmark) and otherwise give NaN results.
//
// Values of the types here (Phase, FreqStep, Landmark) own scratch space and
// are not safe for concurrent use; create one per goroutine.
package exploss
