package kernels

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rfkit/rfkit/internal/asm"
)

// eval runs program p on one lane, with the scalar meaning of every op. It
// reports false when the lane fails the domain check.
func eval(p *Program, in []float64, params []float64) (out []float64, ok bool) {
	v := make([]float64, len(p.Insts))
	bits := math.Float64bits
	from := math.Float64frombits
	out = make([]float64, p.Outputs)
	for i, x := range p.Insts {
		var a, b, c float64
		if x.A >= 0 {
			a = v[x.A]
		}
		if x.B >= 0 {
			b = v[x.B]
		}
		if x.C >= 0 {
			c = v[x.C]
		}
		switch x.Op {
		case OpLoad:
			v[i] = in[x.Imm]
		case OpConst:
			v[i] = x.F
		case OpParam:
			v[i] = params[x.Imm]
		case OpAdd:
			v[i] = a + b
		case OpSub:
			v[i] = a - b
		case OpMul:
			v[i] = float64(a * b)
		case OpFMA:
			v[i] = math.FMA(a, b, c)
		case OpFNMA:
			v[i] = math.FMA(-a, b, c)
		case OpFMS:
			v[i] = math.FMA(a, b, -c)
		case OpMin:
			v[i] = a
			if a > b {
				v[i] = b
			}
		case OpMax:
			v[i] = a
			if a < b {
				v[i] = b
			}
		case OpAbs:
			v[i] = math.Abs(a)
		case OpXor:
			v[i] = from(bits(a) ^ bits(b))
		case OpAnd:
			v[i] = from(bits(a) & bits(b))
		case OpShl:
			v[i] = from(bits(a) << x.Imm)
		case OpSelOdd:
			v[i] = c
			if bits(a)&1 != 0 {
				v[i] = b
			}
		case OpStore:
			out[x.Imm] = a
		case OpLdexp:
			v[i] = math.Ldexp(a, int(b)) // Go's Ldexp rounds once, like VSCALEFPD
		case OpBail:
			if !(math.Abs(a) <= b) {
				return nil, false
			}
		}
	}
	return out, true
}

// TestProgramsMatchTwins interprets every program lane by lane and compares
// it with the pure-Go twin (asm's generic path): the generated assembly and
// the twins are two renderings of one description, and this test keeps the
// description honest on any machine, without running assembly.
func TestProgramsMatchTwins(t *testing.T) {
	restore, err := asm.SetPath("generic")
	if err != nil {
		t.Fatal(err)
	}
	defer restore()
	r := rand.New(rand.NewPCG(1, 2))
	const b = 0.375
	for i := 0; i < 20000; i++ {
		var x float64
		switch i % 3 {
		case 0:
			x = (r.Float64()*2 - 1) * 1000
		case 1:
			x = math.Float64frombits(r.Uint64())
		default:
			x = (r.Float64()*2 - 1) * 800
		}
		in := []float64{x}
		want := make([]float64, 2)
		check := func(p *Program, params []float64, want ...float64) {
			got, ok := eval(p, in, params)
			if !ok {
				return // the twin's scalar fallback handles this lane
			}
			for k := range want {
				if math.Float64bits(got[k]) != math.Float64bits(want[k]) && !(math.IsNaN(got[k]) && math.IsNaN(want[k])) {
					t.Fatalf("%s(%v) output %d: program %v, twin %v", p.Name, x, k, got[k], want[k])
				}
			}
		}
		asm.Cos(want[:1], in)
		check(Cos(), nil, want[0])
		asm.Sin(want[:1], in)
		check(Sin(), nil, want[0])
		asm.Sincos(want[:1], want[1:], in)
		check(Sincos(), nil, want[0], want[1])
		asm.CosShift(want[:1], in, b)
		check(CosShift(), []float64{b}, want[0])
		asm.Exp(want[:1], in)
		check(Exp(), nil, want[0])
		check(Lower(Exp()), nil, want[0])
	}
}
