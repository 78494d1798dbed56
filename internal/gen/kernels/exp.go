package kernels

import (
	"fmt"

	"github.com/rfkit/rfkit/internal/poly"
)

// Exp is dst[i] = exp(x[i]); it mirrors asm/exp_ref.go.
func Exp() *Program {
	b := NewBuilder("exp", 1, 1, 0)
	x := b.Load(0)
	x = b.Min(x, b.Const("expMax", poly.ExpMaxArg))
	x = b.Max(x, b.Const("expMin", poly.ExpMinArg))
	b.Store(0, expCore(b, x))
	return b.Finish()
}

// expCore is exp(x) for x already clamped to [ExpMinArg, ExpMaxArg] (NaN
// passes through).
func expCore(b *Builder, x V) V {
	shift := b.Const("shift", poly.RoundShift)
	kf := b.FMA(x, b.Const("invLn2", poly.InvLn2), shift)
	k := b.Sub(kf, shift)
	hi := b.FNMA(k, b.Const("ln2hi", poly.Ln2Hi), x)
	r := b.FNMA(k, b.Const("ln2lo", poly.Ln2Lo), hi)
	dr := b.FNMA(k, b.Const("ln2lo", poly.Ln2Lo), b.Sub(hi, r))
	c := poly.ExpCoeffs
	p := b.FMA(b.Const(expName(11), c[11]), r, b.Const(expName(10), c[10]))
	for i := 9; i >= 0; i-- {
		p = b.FMA(p, r, b.Const(expName(i), c[i]))
	}
	one := b.Const("one", 1)
	t := b.FMA(b.Mul(r, r), p, dr)
	s := b.Add(one, r)
	es := b.Add(b.Sub(one, s), r)
	e := b.Add(s, b.Add(t, es))
	return b.Ldexp(e, k)
}

func expName(i int) string { return "expC" + string(rune('0'+i/10)) + string(rune('0'+i%10)) }

// Family returns the programs of one generated file (asm/<family>_<arch>.s),
// in the order the file lists them.
func Family(name string) ([]*Program, error) {
	switch name {
	case "trig":
		return []*Program{Cos(), Sin(), Sincos(), CosShift()}, nil
	case "featmap":
		return []*Program{CosAffine()}, nil
	case "exp":
		return []*Program{Exp()}, nil
	case "sums":
		return []*Program{Weights(), Phase(), SincosDot(), DotStats(), FreqStep(), Landmark(), CosSum(), SincosStats()}, nil
	}
	return nil, fmt.Errorf("unknown kernel family %q (want trig, exp, featmap or sums)", name)
}
