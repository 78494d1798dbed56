// Package asm holds rfkit's kernels: generated assembly for AVX-512,
// AVX2+FMA and NEON, the always-built pure-Go twin of each, and the run-time
// dispatch between them. Packages trig, featmap and exploss are the
// friendlier public faces.
//
// # Contracts (each kernel is the Go loop it implements)
//
//	Cos:      for i := range x { dst[i] = cos(x[i]) }
//	Sin:      for i := range x { dst[i] = sin(x[i]) }
//	Sincos:   for i := range x { sin[i], cos[i] = sin(x[i]), cos(x[i]) }
//	CosShift: for i := range x { dst[i] = cos(x[i] - b) }   // x[i]-b rounded first
//	Exp:      for i := range x { dst[i] = exp(x[i]) }
//	CosAffine: for j := range b {                            // one feature-map row
//		acc := b[j]
//		for k := range x { acc = math.FMA(x[k], w[k*ldw+j], acc) }
//		dst[j] = scale * cos(acc)
//	}
//	CosAffineRows: CosAffine on n rows (strides ldx, ldd), register-blocked:
//		one load of W feeds the FMAs of up to 8 rows; same bits per element
//	DotF32, DotF64: w·x in sixteen FMA lanes (lane i mod 16), then a fixed
//		tree; error ≤ γ(⌈len/16⌉+4)·Σ|w_i·x_i| (dot.go)
//	AxpyF32, AxpyF64: for i := range x { y[i] = math.FMA(a, x[i], y[i]) }
//	PrefetchF32: a hint that x will be read soon; no effect on any result
//	Standardize: for i := range x { z[i] = (x[i] - mean[i]) / scale[i]; if x[i] != x[i] { z[i] = 0 } }
//
// The reduction kernels (sums.go: Weights, PhaseSums, SincosDot, DotStats,
// FreqStepSums, LandmarkSums, CosSum, SincosStats) are the fused sweeps of the boosting
// learners and the feature-map epilogue; their contracts are written as Go
// loops on each function. They share one summation order: element i feeds
// lane i mod 8 of every accumulator, each lane receives its elements in
// order, and SumLanes combines the eight lanes by a fixed tree — so every
// path (whatever its vector width: 8, 4 or 2 lanes) gives the same bits. The
// assembly reads its arguments from a frame (sums_frame.go) and works on
// groups of eight elements; the driver hands the twin any group that fails a
// domain check and the last partial group. The order fixes only which
// element meets which accumulator lane when, not how the loop is built: the
// AVX-512 bodies of the dot kernels (FreqStepSums, SincosDot, LandmarkSums,
// DotStats, CosSum) run eight groups per iteration, the dot products as
// eight independent FMA chains and each row accumulator of FreqStepSums and
// LandmarkSums updated by eight FMAs (groups in element order) per load and
// store, and they give the bits of the one-group bodies; CosSum runs the 2…7
// whole groups left after its last block of eight as one such body too (a
// prediction's few dozen terms would otherwise wait on one group's chain
// after another). Callers may split a
// sweep at any multiple of 8 elements and call again with the same
// accumulators (exploss does, per chunk of its data) without changing a bit.
// FreqStepSumsPanels and SincosDotPanels take the matrix in panels of 64
// elements (exploss.Data's layout on AVX-512); on AVX-512 one call sweeps
// every panel and prefetches each next panel while it computes, and their
// bits are those of FreqStepSums and SincosDot over the same values.
// FreqStepSumsPanels32 and SincosDotPanels32 take float32 panels and widen
// every element exactly (VCVTPS2PD on AVX-512) before using it: the bits of
// the float64 variants over the widened values, with half the bytes read.
// FreqStepSums32 and SincosDot32 do the same for a float32 column-major
// matrix (exploss.Data's layout of a large X on AVX2): AVX2 has bodies of
// its own (Columns32), the other paths widen on the Go side.
// The FreqStep sweeps also store each element's projection ω·x, the very
// bits SincosDot computes: Sincos of it is SincosDot at that ω, without
// another read of the matrix, and SincosStats of it is Sincos followed by
// DotStats (a GBRFF2 term's cosine and its correlation) in one pass.
//
// Accuracy: max error ≤ 1 ULP against the exact value, for every finite
// input, tested against a math/big reference (internal/refmath). Measured:
// cos/sin 0.73 ULP (0.70 on hard cases next to multiples of π/2), exp 0.64
// ULP for normal results and 0.74 for subnormal ones.
//
// Special values: cos, sin (NaN, ±Inf) = NaN; sin(±0) = ±0; exp(+Inf) = +Inf,
// exp(−Inf) = 0, exp(NaN) = NaN; exp overflows to +Inf exactly when the
// result does (x > 709.782712893384 — Go's math.Exp on amd64 already
// overflows at 709.436), and returns correctly rounded subnormals down to
// 5e-324 at −745.1332191019411.
//
// Bit identity: every path returns the same bits as the pure-Go twin
// (trig_ref.go, exp_ref.go), on every architecture; NaN results are NaN with
// an unspecified payload. The twins spell out every fused multiply-add with
// math.FMA and every other product as float64(a*b), so no compiler may fuse
// differently, and the assembly is generated from one description of the
// operations (internal/gen/kernels), mirrored line for line by the twins.
//
// # How the kernels work
//
// cos, sin: k = round(x·2/π) by the 1.5·2^52 shift trick (one FMA and one
// subtraction; the low bits of the shifted value are k mod 4). The reduced
// argument r = x − k·π/2 is formed as a double-double rh + rl from a
// three-part split of π/2 (A + B + C, 159 bits): x − k·A with one FMA is
// exact for |x| < 2^52, k·B is split exactly with an FMA, the subtraction is
// made exact with TwoSum and k·C joins the low part. This is good to about
// 2^-130 absolute, far below the 2^-61 relative worst case of |r| near
// multiples of π/2, for |x| ≤ 2^30 (poly.TrigFastMax; the issue asked for at
// least 2^20). Then fdlibm's degree-13 sine and degree-14 cosine kernels on
// [−π/4, π/4] with the rl correction, both evaluated for every lane (a
// vector cannot branch per lane; sincos uses both outputs anyway); the
// quadrant selects one with a blend and flips the sign bit with a XOR.
// A vector with any lane outside |x| ≤ 2^30 (or NaN/Inf) is handed back to Go
// and computed by the scalar twin, which reduces large arguments with a
// Payne–Hanek step (reduce_ref.go: 1280 bits of 2/π, 192-bit fixed-point
// fraction, error ≤ 2^-100 relative). Cost per vector: about 60 vector
// operations for cos (13 for the reduction, 11 sine kernel, 14 cosine kernel,
// 6 for the quadrant, 3 for the domain check, the rest constant broadcasts,
// loads and stores).
//
// exp: k = round(x/ln 2), r = x − k·ln2 with a 32-significant-bit ln2Hi
// (exact) and an FMA for ln2Lo; the rounding error dr of r is recovered with
// one more FMA. exp(r) = 1 + r + r²·P(r) with the Taylor polynomial P of
// degree 11 (remainder < 2^-57), summed as s + (r²P + dr + es) where
// s + es = 1 + r exactly (Fast2Sum), so only the last addition rounds at full
// weight. 2^k is applied as two exact-exponent multiplications 2^k1·2^k2
// (k1 = round(k/2)), so results that overflow, underflow or become subnormal
// are rounded once and correctly. Arguments are clamped to [−746, 710] first,
// which cannot change a result. About 40 vector operations per vector.
//
// The amd64 bodies interleave 2–4 independent vectors per loop iteration
// (the dependency chain of one vector is ~25 FMA latencies long), fold
// constants into the arithmetic as memory or embedded-broadcast operands, and
// end with VZEROUPPER, since Go compiles scalar float code to SSE and dirty
// upper halves slow it 10–15×. For the same reason no legacy-SSE instruction
// may appear inside a loop: a MOVSD that loaded CosShift's b each iteration
// cost 2.5× before it was replaced by a VBROADCASTSD from the argument slot.
// The NEON bodies interleave two vectors, keep the most used constants in
// registers (16 for trig, 20 for exp) and are generated by a small typed
// emitter (internal/gen/neon), because Go's arm64 assembler has no FADD,
// FMUL, FRINTN…: those are WORDs whose encodings are round-tripped through
// golang.org/x/arch/arm64/arm64asm in its tests.
//
// # Speed and its limit
//
// Measured on the CI machine kind (one core; go test -bench; see the closing
// note of the kernel issue for the run), at n = 4096 the AVX-512 path is about
// 15× math.Cos and 10× math.Exp, AVX2 about 9× and 5×, and the generic twin about
// math's speed (it does the same work in scalar code with explicit FMAs). The
// issue's targets (18× math.Cos, ≤ 0.6 ns/element at 4.05 GHz) were not
// reached: the cos body issues ≈ 49 vector ALU operations per 8 lanes (13 for
// the double-double reduction, 24 for the two fdlibm kernels, 6 for the
// quadrant, 3 for the domain check, the rest data movement), i.e. ≥ 3 cycles
// per element on two 512-bit ports before any front-end limit. Both kernels
// are needed per lane for a ≤ 1 ULP result on [−π/4, π/4]; the cheaper
// single-polynomial form on [−π/2, π/2] (glibc libmvec, SLEEF u35) is 3–4 ULP.
// Large inputs (4M elements) are memory-bound: ≈ 2 ns/element.
//
// # Reductions and who uses them
//
// Cos, Sin, Sincos, CosShift and Exp are elementwise: there is no summation
// order to fix. CosAffine and CosAffineRows sum over the inputs k in order,
// one FMA each. The reductions of sums.go keep the lane order described
// under Contracts on every path. Most of them serve one learner or one
// group of learners, and are documented as such on each function:
//
//	Weights, PhaseSums, FreqStepSums, LandmarkSums  exploss (GBRFF1/GBRFF2's exp-loss sweeps)
//	SincosDot                                       exploss, fogd and rrf (the [cos, sin] features of a row)
//	DotStats                                        exploss, rrf and srff (gradient and Gram sweeps)
//	CosSum                                          featmap's Σ a_j·cos epilogue (the linear learners), gbrff, pbrff, srff
//
// They are exported because the learners live in other packages, not as a
// general-purpose API: their argument conventions follow those callers.
//
// # Dispatch
//
// The best path is chosen at start-up (golang.org/x/sys/cpu; AVX-512 only when
// the OS saves ZMM state), minus what RFKIT_DISABLE=avx512,avx2,neon turns
// off. -tags purego (or noasm) removes all assembly. SetPath is the test and
// benchmark hook: it switches every kernel to one path so that a test can
// compare paths in one process (the conformance suite's Paths check, the
// kernels' bit-identity tests) or a benchmark can time each; production code
// never calls it. Tests honour RFKIT_TEST_REQUIRE.
package asm
