package synth

import (
	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/trig"
)

// Dimensions and noise levels of the SRFF sets (Gregorová et al., Table 1).
// Every noise level is a standard deviation.
const (
	se1Dim   = 18   // inputs of se1
	se1Noise = 0.1  // target noise of se1
	se2Dim   = 100  // inputs of se2
	se2Noise = 0.1  // target noise of se2
	se3Dim   = 1000 // inputs of se3Gen and se3Text
	se3Noise = 0.01 // target noise of se3Gen and se3Text

	// se3Latents is the number of standard normal latents z of se3Gen; input
	// j is a noisy copy of latent j/se3Copies.
	se3Latents = 200
	// se3Copies is the number of inputs copied from each latent.
	se3Copies = 5
	// se3InputNoise is the noise added to each copy of a latent.
	se3InputNoise = 0.1
)

// relevantSE1 returns the 0-based inputs se1's target depends on, x₁, x₃,
// x₇, x₈, x₉ in the paper's 1-based notation. The slice is a fresh copy.
func relevantSE1() []int { return []int{0, 2, 6, 7, 8} }

// relevantSE2 returns the 0-based inputs se2's target depends on: the
// five summed inputs x₁…x₅. The slice is a fresh copy.
func relevantSE2() []int { return []int{0, 1, 2, 3, 4} }

// relevantSE3 returns the 0-based inputs se3Gen's target depends on: the
// five copies of z₁ (inputs 0–4) and of z₃ (inputs 10–14). The slice is a
// fresh copy.
func relevantSE3() []int { return []int{0, 1, 2, 3, 4, 10, 11, 12, 13, 14} }

// relevantSE3Text returns the 0-based inputs se3Text's target depends on:
// the five copies of z₁ and of z₂ (inputs 0–9). The slice is a fresh copy.
func relevantSE3Text() []int { return []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9} }

// se1 returns SRFF's first synthetic regression set: d = 18 standard
// normal inputs and y = sin((x₁+x₃)²)·sin(x₇x₈x₉) + ε, ε ~ N(0, 0.1²)
// (1-based indices; 0-based relevantSE1). Rows are generated one at a
// time (18 inputs, then ε), so se1(m, seed) is a prefix of se1(n, seed)
// for m < n.
func se1(n int, seed uint64) (*Set, error) {
	if err := checkSize("se1", n, se1Dim); err != nil {
		return nil, err
	}
	g := newNormals(seed, tagSE1)
	s := newSet("se1", taskRegression, n, se1Dim, relevantSE1())
	arg := make([]float64, 2*n)
	for i := range s.Y {
		x := s.X[i*se1Dim : (i+1)*se1Dim]
		g.Fill(x)
		s.Y[i] = g.Next() // ε, scaled below
		a := x[0] + x[2]
		arg[2*i], arg[2*i+1] = a*a, x[6]*x[7]*x[8]
	}
	trig.Sin(arg, arg)
	for i, e := range s.Y {
		s.Y[i] = float64(arg[2*i]*arg[2*i+1]) + float64(se1Noise*e)
	}
	return s, nil
}

// se2 returns SRFF's second synthetic regression set: d = 100 standard
// normal inputs and y = log((x₁+…+x₅)²) + ε, ε ~ N(0, 0.1²) (natural
// log; 0-based relevantSE2]). The paper's Table 1 prints the sum up to
// x₁₅, but its text and results have 5 relevant inputs (and an
// independent re-implementation matched the paper's SRFF RMSEs only with
// 5), so the sum has 5 terms. A row whose squared sum is 0 (probability
// below 1e-150) would have an infinite target; its inputs are redrawn. Rows are generated one at a time, so se2(m, seed) is a prefix
// of se2(n, seed) for m < n.
func se2(n int, seed uint64) (*Set, error) {
	if err := checkSize("se2", n, se2Dim); err != nil {
		return nil, err
	}
	g := newNormals(seed, tagSE2)
	s := newSet("se2", taskRegression, n, se2Dim, relevantSE2())
	for i := range s.Y {
		x := s.X[i*se2Dim : (i+1)*se2Dim]
		var sq float64
		for sq == 0 {
			g.Fill(x)
			sum := x[0] + x[1] + x[2] + x[3] + x[4]
			sq = sum * sum
		}
		s.Y[i] = xmath.LogAtanh(sq) + float64(se2Noise*g.Next())
	}
	return s, nil
}

// se3Gen returns SRFF's third synthetic regression set: 200 latent
// z ~ N(0, 1), each copied into 5 inputs x = z + N(0, 0.1²) (0-based
// input j copies z_{⌊j/5⌋+1}, so d = 1000), and
// y = 10(z₁²+z₃²)·exp(−2(z₁²+z₃²)) + ε, ε ~ N(0, 0.01²). The target uses
// the latents themselves, not their noisy copies. This follows the
// paper's Table 1 formula (z₁ and z₃, 0-based inputs 0–4 and 10–14, see
// relevantSE3]); its text says z₁ and z₂, which [ByName]("se3text")
// provides. Per row the draws are the 200 latents, then the 1000 input
// noises, then ε, so se3Gen and "se3text" with the same seed have identical
// X, and se3Gen(m, seed) is a prefix of se3Gen(n, seed) for m < n.
func se3Gen(n int, seed uint64) (*Set, error) {
	return se3("se3", n, seed, 2, relevantSE3())
}

// se3Text is se3Gen with the target built from z₁ and z₂ (0-based inputs
// 0–9, see relevantSE3Text), as the paper's text describes it. For the
// same seed its X equals se3Gen's.
func se3Text(n int, seed uint64) (*Set, error) {
	return se3("se3text", n, seed, 1, relevantSE3Text())
}

// se3 generates se3Gen with the second relevant latent at 0-based index k2.
func se3(name string, n int, seed uint64, k2 int, relevant []int) (*Set, error) {
	if err := checkSize(name, n, se3Dim); err != nil {
		return nil, err
	}
	g := newNormals(seed, tagSE3)
	s := newSet(name, taskRegression, n, se3Dim, relevant)
	z := make([]float64, se3Latents)
	q, eps := make([]float64, n), make([]float64, n)
	for i := range s.Y {
		g.Fill(z)
		x := s.X[i*se3Dim : (i+1)*se3Dim]
		for j := range x {
			x[j] = z[j/se3Copies] + float64(se3InputNoise*g.Next())
		}
		eps[i] = g.Next()
		q[i] = float64(z[0]*z[0]) + float64(z[k2]*z[k2])
		s.Y[i] = -2 * q[i]
	}
	trig.Exp(s.Y, s.Y)
	for i, e := range s.Y {
		s.Y[i] = float64(10*q[i]*e) + float64(se3Noise*eps[i])
	}
	return s, nil
}
