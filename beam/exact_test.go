package rfbeam

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestExactSum: the sums equal math/big's exact sum correctly rounded,
// whatever the order and grouping of the terms, across the whole float64
// range (subnormals, huge values, cancellation).
func TestExactSum(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		n := 1 + r.IntN(300)
		xs := make([]float64, n)
		for i := range xs {
			switch r.IntN(5) {
			case 0:
				xs[i] = math.Ldexp(r.NormFloat64(), r.IntN(2000)-1000)
			case 1:
				xs[i] = math.SmallestNonzeroFloat64 * float64(r.IntN(1000)-500)
			case 2:
				xs[i] = math.MaxFloat64 / float64(2+r.IntN(n)) * float64(1-2*r.IntN(2))
			default:
				xs[i] = r.NormFloat64()
			}
		}
		if trial%3 == 0 { // exact cancellation down to a tiny remainder
			xs = append(xs, 0)
			copy(xs[n/2+1:], xs[:n/2])
			for i := n/2 + 1; i < len(xs)-1; i++ {
				xs[i] = -xs[i]
			}
			xs[len(xs)-1] = 5e-324
		}
		var want big.Float
		want.SetPrec(4000)
		for _, x := range xs {
			var b big.Float
			b.SetPrec(4000).SetFloat64(x)
			want.Add(&want, &b)
		}
		w, _ := want.Float64()

		one := newExactVec(1)
		for _, x := range xs {
			one.add(0, x)
			one.step()
		}
		// the same terms shuffled into three shards, merged in another order
		perm := r.Perm(len(xs))
		shards := []*exactVec{newExactVec(1), newExactVec(1), newExactVec(1)}
		for k, i := range perm {
			shards[k%3].add(0, xs[i])
			shards[k%3].step()
		}
		enc := shards[1].marshal()
		dec, rest, err := unmarshalExact(enc)
		if err != nil || len(rest) != 0 {
			t.Fatal(err, len(rest))
		}
		shards[2].merge(shards[0])
		shards[2].merge(dec)
		for _, got := range []float64{one.float(0), shards[2].float(0)} {
			if math.Float64bits(got) != math.Float64bits(w) {
				t.Fatalf("trial %d: sum %v, exact %v", trial, got, w)
			}
		}
	}
}

func TestExactCorrupt(t *testing.T) {
	for _, data := range [][]byte{nil, {5}, {byte(exactBins), 1}} {
		if _, _, err := unmarshalExact(data); err == nil {
			t.Errorf("%v: no error", data)
		}
	}
	if err := newExactVec(1).merge(newExactVec(2)); err == nil {
		t.Error("merge of different lengths: no error")
	}
}
