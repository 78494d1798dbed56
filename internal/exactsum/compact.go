package exactsum

// window is the number of 32-bit bins a Compact sum keeps inline: 256 bits,
// from 64 bits below its first term's lowest bin to 96 above.
const window = 8

// Compact is a vector of exact sums that needs window+1 words per sum
// instead of Vec's 67: each sum keeps the bins of a 256-bit window placed
// around its first term, and moves to the whole float64 range (67 bins, on
// the side) only when a term falls outside. The sums are exactly those of
// a Vec (the same values, so the same Float), and cost about as much to
// add. Blocked sums of one quantity have terms of similar magnitude, so
// they rarely leave their window.
type Compact struct {
	bins []int64 // len Len()·window
	base []int16 // the bin of bins[i·window]; −1 while sum i has no term
	full map[int]*[bins]int64
	adds int
}

// NewCompact returns n sums, all 0.
func NewCompact(n int) *Compact {
	c := &Compact{bins: make([]int64, n*window), base: make([]int16, n)}
	for i := range c.base {
		c.base[i] = -1
	}
	return c
}

// Len is the number of sums.
func (c *Compact) Len() int { return len(c.base) }

// Add adds x (finite) to sum i. Callers call Step after adding at most one
// value to every sum.
func (c *Compact) Add(i int, x float64) {
	if f := c.full[i]; f != nil {
		addBins(f[:], 0, x)
		return
	}
	m, p, _ := split(x)
	if m == 0 {
		return
	}
	k := p >> 5
	if c.base[i] < 0 {
		c.base[i] = int16(min(max(k-2, 0), bins-window))
	}
	w := c.bins[i*window : (i+1)*window]
	k0 := int(c.base[i])
	if k >= k0 && k+3 <= k0+window {
		addBins(w, k0, x)
		return
	}
	// Outside the window: move the sum to the whole range.
	f := new([bins]int64)
	copy(f[k0:], w)
	clear(w)
	if c.full == nil {
		c.full = make(map[int]*[bins]int64)
	}
	c.full[i] = f
	addBins(f[:], 0, x)
}

// AddSlice adds xs[i] to sum off+i for every i, and counts one Step.
func (c *Compact) AddSlice(off int, xs []float64) {
	for i, x := range xs {
		c.Add(off+i, x)
	}
	c.Step()
}

// Step counts one addition to every sum, propagating the carries when due.
func (c *Compact) Step() {
	if c.adds++; c.adds < limit {
		return
	}
	for i := range c.base {
		carry(c.bins[i*window : (i+1)*window])
	}
	for _, f := range c.full {
		carry(f[:])
	}
	c.adds = 0
}

// Float returns sum i correctly rounded to float64, as Vec.Float.
func (c *Compact) Float(i int) float64 {
	var b [bins]int64
	if f := c.full[i]; f != nil {
		b = *f
	} else if k0 := int(c.base[i]); k0 >= 0 {
		copy(b[k0:], c.bins[i*window:(i+1)*window])
	}
	return round(&b)
}

// Floats writes every sum, rounded, to dst (len Len()).
func (c *Compact) Floats(dst []float64) {
	for i := range dst[:c.Len()] {
		dst[i] = c.Float(i)
	}
}
