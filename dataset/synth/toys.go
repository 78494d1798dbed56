package synth

import "math"

// The noise standard deviations [ByName] uses for the 2-D toys.
const (
	moonsNoise        = 0.1 // arcs of radius 1
	spiralsNoise      = 0.1 // arms 1 apart
	circlesNoise      = 0.1 // rings 1 apart
	checkerboardNoise = 0.0 // as the GBRFF authors' "board" set
)

// toyRelevant is the Relevant list of the 2-D toys: both inputs matter.
func toyRelevant() []int { return []int{0, 1} }

// Moons returns the two interleaving half circles of scikit-learn's
// make_moons: label -1 on the upper arc (cos t, sin t) and label +1 on
// the lower arc (1 - cos t, 1/2 - sin t), t ~ U[0, π), plus independent
// N(0, noise²) noise on each coordinate. Labels are balanced (counts
// differ by at most one) and in random order. Unlike scikit-learn, t is
// drawn at random instead of on an even grid, so the rows are i.i.d.
// given their labels.
func Moons(n int, noise float64, seed uint64) (*Set, error) {
	if err := checkArgs("moons", n, noise); err != nil {
		return nil, err
	}
	r, g := newRand(seed, tagMoons), newNormals(seed, tagMoons)
	s := newSet("moons", taskBinary, n, 2, toyRelevant())
	fillBalanced(r, s.Y)
	t := make([]float64, n)
	for i := range t {
		t[i] = float64(math.Pi * r.Float64())
	}
	sin, cos := sincosAll(t)
	for i, y := range s.Y {
		x0, x1 := cos[i], sin[i]
		if y > 0 {
			x0, x1 = 1-cos[i], 0.5-sin[i]
		}
		s.X[2*i] = x0 + float64(noise*g.Next())
		s.X[2*i+1] = x1 + float64(noise*g.Next())
	}
	return s, nil
}

// Spiral geometry: angles θ ~ U[spiralStart, spiralStart+3π) (1.5 turns)
// on the Archimedean spiral of radius θ/π.
const spiralStart = math.Pi / 2

// Spirals returns two interleaved Archimedean spirals of 1.5 turns each.
// A +1 point is (θ/π)(cos θ, sin θ) with θ ~ U[π/2, 7π/2), so its radius
// runs from 0.5 to 3.5; a -1 point is the same construction rotated by π
// (the negated point). Along any ray from the origin the two classes
// alternate at radial spacing 1. Independent N(0, noise²) noise is added
// to each coordinate. Labels are balanced (counts differ by at most one)
// and in random order. θ is uniform, so the inner turns are denser in arc
// length than the outer ones.
func Spirals(n int, noise float64, seed uint64) (*Set, error) {
	if err := checkArgs("spirals", n, noise); err != nil {
		return nil, err
	}
	r, g := newRand(seed, tagSpirals), newNormals(seed, tagSpirals)
	s := newSet("spirals", taskBinary, n, 2, toyRelevant())
	fillBalanced(r, s.Y)
	theta := make([]float64, n)
	for i := range theta {
		theta[i] = spiralStart + float64(3*math.Pi*r.Float64())
	}
	sin, cos := sincosAll(theta)
	for i, y := range s.Y {
		rad := y * theta[i] / math.Pi
		s.X[2*i] = float64(rad*cos[i]) + float64(noise*g.Next())
		s.X[2*i+1] = float64(rad*sin[i]) + float64(noise*g.Next())
	}
	return s, nil
}

// Circles returns four concentric rings centred at the origin with radii
// 1, 2, 3, 4 and labels +1, -1, +1, -1 (odd radius → +1). Sample i is put
// on a ring so that ring k holds n/4 samples plus one of the n%4 leftovers
// for the innermost n%4 rings (so the labels are balanced within one),
// rings in random order; its angle is U[0, 2π) and independent N(0,
// noise²) noise is added to each coordinate. Equal counts per ring mean
// the outer rings are sparser per unit length.
func Circles(n int, noise float64, seed uint64) (*Set, error) {
	if err := checkArgs("circles", n, noise); err != nil {
		return nil, err
	}
	r, g := newRand(seed, tagCircles), newNormals(seed, tagCircles)
	s := newSet("circles", taskBinary, n, 2, toyRelevant())
	ring := make([]int, n)
	for i := range ring {
		ring[i] = i % 4
	}
	r.Shuffle(n, func(i, j int) { ring[i], ring[j] = ring[j], ring[i] })
	phi := make([]float64, n)
	for i := range phi {
		phi[i] = 2 * math.Pi * r.Float64()
	}
	sin, cos := sincosAll(phi)
	for i, k := range ring {
		rad := float64(k + 1)
		s.Y[i] = 1
		if k%2 == 1 {
			s.Y[i] = -1
		}
		s.X[2*i] = float64(rad*cos[i]) + float64(noise*g.Next())
		s.X[2*i+1] = float64(rad*sin[i]) + float64(noise*g.Next())
	}
	return s, nil
}

// checkerboardCells is the number of cells per side of [Checkerboard].
const checkerboardCells = 4

// Checkerboard returns a 4×4 checkerboard on [0, 4)²: points uniform on
// the square, label -1 when floor(x₀)+floor(x₁) is even and +1 when it is
// odd (the convention of the GBRFF authors' "board" set). Independent
// N(0, noise²) noise is then added to each coordinate; the label stays
// that of the noise-free point, so noise > 0 blurs the cell borders. The
// labels are balanced only in expectation (binomial counts).
func Checkerboard(n int, noise float64, seed uint64) (*Set, error) {
	if err := checkArgs("checkerboard", n, noise); err != nil {
		return nil, err
	}
	r, g := newRand(seed, tagCheckerboard), newNormals(seed, tagCheckerboard)
	s := newSet("checkerboard", taskBinary, n, 2, toyRelevant())
	for i := range s.Y {
		x0 := float64(checkerboardCells * r.Float64())
		x1 := float64(checkerboardCells * r.Float64())
		s.Y[i] = -1
		if (int(x0)+int(x1))%2 == 1 {
			s.Y[i] = 1
		}
		s.X[2*i] = x0 + float64(noise*g.Next())
		s.X[2*i+1] = x1 + float64(noise*g.Next())
	}
	return s, nil
}

// checkArgs validates the arguments shared by the 2-D toys.
func checkArgs(name string, n int, noise float64) error {
	if err := checkSize(name, n, 2); err != nil {
		return err
	}
	return checkNoise(name, noise)
}
