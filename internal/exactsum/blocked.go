package exactsum

// Blocked accumulates blocked sums on one machine: the caller adds a
// block's values into Part in float64, in row order, then calls EndBlock,
// which adds Part exactly into the totals and clears it. Sums then gives
// the same bits as a Vec that received every block's Part (in any order,
// on any worker), rounded by Float.
type Blocked struct {
	// Part holds the current block's float64 sums.
	Part []float64

	first  []float64 // the first block's sums, while there is one block
	vec    *Compact  // from the second block on
	blocks int
	// special is the float64 sum of the blocks' sums that are NaN or ±Inf
	// (nil until one is), which an exact sum cannot hold: Sums returns it
	// where it is not 0, as a float64 sum would be NaN or ±Inf there.
	special []float64
}

// NewBlocked returns n blocked sums, all 0.
func NewBlocked(n int) *Blocked { return &Blocked{Part: make([]float64, n)} }

// EndBlock adds Part to the totals and sets it to 0.
func (b *Blocked) EndBlock() {
	for i, x := range b.Part {
		if x-x != 0 { // NaN or ±Inf
			if b.special == nil {
				b.special = make([]float64, len(b.Part))
			}
			b.special[i] += x
			b.Part[i] = 0
		}
	}
	switch b.blocks {
	case 0: // one block needs no exact sum: its float64 sums are the result
		b.first = append(b.first[:0], b.Part...)
	case 1:
		b.vec = NewCompact(len(b.Part))
		b.vec.AddSlice(0, b.first)
		fallthrough
	default:
		b.vec.AddSlice(0, b.Part)
	}
	b.blocks++
	clear(b.Part)
}

// Sums writes the totals to dst (len(Part)), each the exact sum of the
// blocks' sums rounded once; 0 (not −0) for a zero sum, as Vec.Float; NaN
// or ±Inf where a block's sum was (as a float64 sum would be).
func (b *Blocked) Sums(dst []float64) {
	dst = dst[:len(b.Part)]
	switch b.blocks {
	case 0:
		clear(dst)
	case 1:
		for i, x := range b.first {
			dst[i] = x + 0 // −0 becomes 0, as in an exact sum
		}
	default:
		b.vec.Floats(dst)
	}
	for i, x := range b.special {
		if x != 0 {
			dst[i] = x
		}
	}
}
