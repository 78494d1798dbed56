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
// Chunks run on a pool of long-lived worker goroutines (no goroutine is
// started per sweep) which claim whole chunks, the caller from the front and
// the workers from the back (so on two cores each keeps its part of the
// vectors in its own cache); each chunk writes only its own slot, so
// results are bit-identical for any GOMAXPROCS, any thread limit and on
// every SIMD path. A sweep over at most one chunk runs on the calling
// goroutine. A worker that has finished a sweep polls for the next one for
// 300 µs before it parks, so an optimiser's back-to-back evaluations and
// the sweeps of a boosting round do not each pay for waking it.
//
// Threads. A sweep uses up to GOMAXPROCS goroutines, the caller included;
// Data.SetThreads lowers that for every sweep over the Data (Sincos,
// FreqStep, Landmark, Data.Weights, Data.WeightedCorrelation) and
// Phase.SetThreads for a phase search, so a background fit can leave cores
// to the rest of a service. The package functions Weights and
// WeightedCorrelation use GOMAXPROCS.
//
// Precision. Data is a training copy rounded to float32: the sweeps widen
// every value exactly to float64 and do all their arithmetic in float64, on
// every path, so they see x to 2⁻²⁴ relative error (as XGBoost, which
// trains on float32 features); on AVX-512 a Data too large for the caches
// stores them as float32 panels, so the sweeps read half the bytes from
// memory (smaller ones keep float64 panels of the same values: same bits).
//
// Layout. On AVX-512, Data stores X in panels of BlockLen = 64 samples × d,
// each column-major on its own (row k holds input k of the panel's
// samples): eight consecutive samples are one vector load, and the blocked
// AVX-512 sweeps read X as one forward stream through contiguous panels
// instead of d column streams n values apart, one asm ...Panels call per
// chunk, prefetching each next panel while it computes. The other paths
// take one group of eight samples at a time, which would read a panel
// across its rows, so there Data is column-major over all n samples
// (asm.PanelLen decides, when the Data is made). The layout never changes a
// bit of the results.
//
// Phase searches. Phase.EvalMany evaluates several candidate phases in one
// pass: each chunk is swept for every candidate while it is in cache.
//
// Safeguard. Every exponent is clamped to [−700, 700] before exp, so each
// term stays finite however large the boosting weights grow (GBRFF's
// weights w_i = exp(−y_i H(x_i)) are not normalised, so on separable data
// they would otherwise leave the float64 range); NaN inputs are rejected
// where data enters (NewData, NewPhase, NewLandmark) and otherwise give NaN
// results.
//
// Values of the types here (Phase, FreqStep, Landmark) own scratch space and
// are not safe for concurrent use; create one per goroutine.
package exploss
