// Package synth generates the synthetic data sets used by rfkit's learner
// tests and paper-reproduction benchmarks.
//
// Every generator takes a sample count n and a seed and returns a [Set]:
// inputs X (dense, row-major, n×d), targets Y, the task, its name and the
// 0-based inputs the target depends on. Bad arguments (n <= 0, d <= 0,
// negative or non-finite noise, n·d above 2³⁰) give an error
// wrapping a sentinel ("invalid argument"); generators never panic on their
// arguments. [ByName] selects a generator by name for the command line.
//
// # Randomness and reproducibility
//
// Each call draws from its own math/rand/v2 PCG sources (the global source
// is never used): uniforms and shuffles from rand.NewPCG(seed,
// 0x9e3779b97f4a7c15^tag) and normals from rand.NewPCG(seed,
// 0x9e3779b97f4a7c15^tag<<32), with a fixed tag per generator, so equal
// seeds give unrelated data across generators. ByName("se3") and ("se3text")
// share a tag on purpose: the same seed gives them the same inputs.
//
// The output is bit-identical on every architecture and build (tested on
// amd64 with AVX-512, AVX2 and purego, on 386, and on arm64 under qemu;
// 386 is slow, since trig's pure-Go code emulates FMA there), so data
// can feed rfkit's cross-architecture golden tests. That rules out
// rand.NormFloat64 and math.Sin, Exp, Log, whose bits differ between amd64
// and arm64 (assembly, and FMA fusion by the compiler); instead normals come
// from the Box–Muller transform on 53-bit uniforms (internal/xrand), cos,
// sin and exp from package trig (≤ 1 ULP, identical everywhere), ln from a
// small series evaluated in a fixed order (xmath.LogAtanh), and every
// product that feeds an addition is rounded explicitly so no compiler can
// fuse it. The stream of draws is
// part of each generator's contract: changing it is a breaking change
// (golden hashes in the tests catch it).
//
// In the 2-D toys, noise is added to the points after they are placed, and
// it is always drawn (also for noise = 0), so for a fixed seed the clean
// points and the labels are the same at every noise level.
//
// # Boosting toys (GBRFF paper, §4.6 and Fig. 1)
//
// Two inputs, labels exactly -1/+1, noise a standard deviation added
// independently to each coordinate. The [ByName] defaults are 0.1
// for moons, spirals and circles and 0 for checkerboard.
//
//   - [Moons]: scikit-learn's make_moons geometry, upper arc (cos t, sin t)
//     labelled -1 (scikit-learn's class 0), lower arc
//     (1 − cos t, ½ − sin t) labelled +1, t ~ U[0, π) (random, not
//     scikit-learn's even grid).
//   - [Spirals]: two Archimedean spirals r = θ/π, θ ∈ [π/2, 7π/2) (1.5
//     turns, radius 0.5 to 3.5), the −1 spiral being the +1 spiral rotated
//     by π. The GBRFF authors' "swiss" set is a different construction
//     (two spirals r = t and r = 0.9t side by side); rfkit uses the
//     classic interleaved pair, whose classes alternate along every ray.
//   - [Circles]: four concentric rings of radii 1, 2, 3, 4 labelled +1,
//     −1, +1, −1, equal counts per ring, angles uniform. This follows the
//     paper's text ("increasing radius"); the authors' script never
//     updates its radius multiplier, so all four of its rings have
//     radius 1.
//   - [Checkerboard]: uniform points on [0, 4)², 4×4 unit cells, label −1
//     when floor(x₀)+floor(x₁) is even and +1 when odd, as in the
//     authors' "board" set. With noise > 0 the label stays that of the
//     clean point.
//
// Moons, Spirals and Circles are balanced exactly (counts differ by at
// most one) with labels in random order; Checkerboard is balanced in
// expectation.
//
// # SRFF regression sets (Gregorová et al., Table 1)
//
// Standard normal inputs; N(0, s) in the paper is read as standard
// deviation s (only that reproduces its mean-predictor RMSEs 0.287, 2.216
// and 0.676, which are the standard deviations of y generated here). The
// paper's subscripts are 1-based; [Set].Relevant is 0-based. [ByName]
// draws them by the names below.
//
//   - "se1": d = 18, y = sin((x₁+x₃)²)·sin(x₇x₈x₉) + N(0, 0.1²);
//     Relevant = {0, 2, 6, 7, 8}.
//   - "se2": d = 100, y = log((x₁+…+x₅)²) + N(0, 0.1²) with the natural
//     log. Table 1 prints the sum up to x₁₅; the text and results say 5
//     relevant inputs, so 5 it is. Relevant = {0, …, 4}.
//   - "se3": d = 1000 from 200 latents z₁…z₂₀₀ ~ N(0, 1), each copied into
//     5 inputs x = z + N(0, 0.1²): 0-based inputs 0–4 copy z₁, 5–9 copy
//     z₂, and so on;
//     y = 10(z₁²+z₃²)·exp(−2(z₁²+z₃²)) + N(0, 0.01²) computed from the
//     latents. The formula (z₁, z₃) is followed, Relevant = {0–4,
//     10–14}; the text's variant with z₁, z₂ is "se3text" (same X for the
//     same seed, Relevant = {0–9}).
//
// The paper generates training, validation and test sets of the stated
// sizes independently; draw them with different seeds (or split one
// larger set). These sets and [Gaussian] are generated row by row, so a
// smaller n with the same seed gives a prefix of a larger one.
//
// # PRFF Gram-approximation data
//
// [Gaussian] draws n rows from N(0, I_d) without targets (the PRFF paper
// uses N = 10000, d = 10 and 100).
package synth
