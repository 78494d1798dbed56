package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The dot family (asm/dot.go): DotF32/DotF64, AxpyF32/AxpyF64 and
// PrefetchF32, the kernels of the dual coordinate-descent SVM
// (solvers/svm_cd.go), one row of float32 or float64 against a float64 w.
//
// The dot products follow one summation order on every path (dotLanes = 16
// lanes): element i feeds lane i mod 16 by one FMA, each lane receives its
// elements in order starting from +0, and the lanes are combined by
// halving (lane j += lane j+8, then j+4, j+2, j+1). AVX-512 holds the lanes
// in two ZMM, AVX2 in four YMM; the last partial group is loaded under a
// mask (zero lanes add fma(0, 0, s) = s: a lane is never −0), so the tail
// needs no scalar code and no second order.

// dotLanes is the number of partial sums; it must equal asm.dotLanes.
const dotLanes = 16

func generateDot() {
	dotMaskTables()
	for _, isa := range []isa{avx2, avx512} {
		for _, f32 := range []bool{true, false} {
			generateDotKernel(isa, f32)
			generateAxpyKernel(isa, f32)
		}
	}
	generatePrefetch()
}

var (
	dotMask32 Mem // 16 int32 −1 then 16 zeros: mask of r lanes at 4·(16−r)
	dotMaskK  Mem // uint16 (1<<r) − 1 at 2·r, r ≤ 16
)

func dotMaskTables() {
	dotMask32 = GLOBL("dotMask32", RODATA|NOPTR)
	for i := 0; i < 32; i++ {
		v := uint32(0)
		if i < 16 {
			v = 0xffffffff
		}
		DATA(4*i, U32(v))
	}
	dotMaskK = GLOBL("dotMaskK", RODATA|NOPTR)
	for r := 0; r <= 16; r++ {
		DATA(2*r, U16(uint16(1<<r-1)))
	}
}

func elem(f32 bool) (string, int) {
	if f32 {
		return "float32", 4
	}
	return "float64", 8
}

func suffix(f32 bool) string {
	if f32 {
		return "F32"
	}
	return "F64"
}

// generateDotKernel emits dot<F32|F64><ISA>(w []float64, x []T) float64 over
// len(x) elements (the caller checks len(w) == len(x)).
func generateDotKernel(isa isa, f32 bool) {
	typ, esz := elem(f32)
	name := "dot" + suffix(f32) + isa.name
	TEXT(name, NOSPLIT, fmt.Sprintf("func(w []float64, x []%s) float64", typ))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s is the %s body of Dot%s: %d lanes in %d vectors, the tail under a mask; it mirrors the pure-Go twin.", name, isa.name, suffix(f32), dotLanes, dotLanes/isa.width))
	wp := Load(Param("w").Base(), GP64())
	xp := Load(Param("x").Base(), GP64())
	n := Load(Param("x").Len(), GP64())
	nv := dotLanes / isa.width
	vec := func() reg.VecVirtual {
		if isa.zmm {
			return ZMM()
		}
		return YMM()
	}
	acc := make([]reg.VecVirtual, nv)
	for v := range acc {
		acc[v] = vec()
		VXORPD(acc[v], acc[v], acc[v])
	}
	i, last := GP64(), GP64()
	XORQ(i, i)
	MOVQ(n, last)
	SUBQ(Imm(dotLanes), last)
	loop, tail, combine := name+"_loop", name+"_tail", name+"_combine"
	xm := func(v int) Mem { return Mem{Base: xp, Index: i, Scale: uint8(esz), Disp: esz * v * isa.width} }
	wm := func(v int) Mem { return Mem{Base: wp, Index: i, Scale: 8, Disp: 8 * v * isa.width} }
	Label(loop)
	CMPQ(i, last)
	JG(LabelRef(tail))
	for v := range acc {
		t := vec()
		if f32 {
			VCVTPS2PD(xm(v), t) // exact widening
		} else {
			VMOVUPD(xm(v), t)
		}
		VFMADD231PD(wm(v), t, acc[v]) // acc = x·w + acc, one rounding
	}
	ADDQ(Imm(dotLanes), i)
	JMP(LabelRef(loop))

	Label(tail)
	r := GP64()
	MOVQ(n, r)
	SUBQ(i, r)
	JZ(LabelRef(combine))
	if isa.zmm {
		// Lanes 0…7 of the group under k0, 8…15 under k1.
		k := []reg.Register{K(), K()}
		tbl := GP64()
		LEAQ(dotMaskK, tbl)
		KMOVW(Mem{Base: tbl, Index: r, Scale: 2}, k[0])
		KSHIFTRW(Imm(8), k[0], k[1])
		for v := range acc {
			t, u := vec(), vec()
			if f32 {
				VCVTPS2PD_Z(xm(v), k[v], t)
			} else {
				VMOVUPD_Z(xm(v), k[v], t)
			}
			VMOVUPD_Z(wm(v), k[v], u)
			VFMADD231PD(u, t, acc[v])
		}
	} else {
		// Piece v (lanes 4v…4v+3) under the int32 mask at dotMask32 + 4·(16 − r) + 16·v.
		mb := GP64()
		LEAQ(dotMask32, mb)
		off := GP64()
		MOVQ(U32(dotLanes), off)
		SUBQ(r, off)
		LEAQ(Mem{Base: mb, Index: off, Scale: 4}, mb)
		for v := range acc {
			m32, m64, t, u := XMM(), YMM(), YMM(), YMM()
			VMOVDQU(Mem{Base: mb, Disp: 16 * v}, m32)
			VPMOVSXDQ(m32, m64)
			if f32 {
				tx := XMM()
				VMASKMOVPS(xm(v), m32, tx)
				VCVTPS2PD(tx, t)
			} else {
				VMASKMOVPD(xm(v), m64, t)
			}
			VMASKMOVPD(wm(v), m64, u)
			VFMADD231PD(u, t, acc[v])
		}
	}

	Label(combine)
	// Halving: lane j += lane j + 8, then + 4, + 2, + 1.
	for len(acc) > 1 {
		h := len(acc) / 2
		for v := 0; v < h; v++ {
			VADDPD(acc[v+h], acc[v], acc[v])
		}
		acc = acc[:h]
	}
	a := acc[0]
	var y reg.VecVirtual
	if isa.zmm {
		y = YMM()
		VEXTRACTF64X4(Imm(1), a, y)
		VADDPD(y, a.AsY(), y)
	} else {
		y = a
	}
	x := XMM()
	VEXTRACTF128(Imm(1), y, x)
	VADDPD(x, y.AsX(), x)
	s := XMM()
	VPERMILPD(Imm(1), x, s)
	VADDSD(s, x, x)
	ret, err := ReturnIndex(0).Resolve()
	if err != nil {
		panic(err)
	}
	VMOVSD(x, ret.Addr) // not Store's legacy-SSE MOVSD: the upper halves are dirty here
	VZEROUPPER()
	RET()
}

// generateAxpyKernel emits axpy<F32|F64><ISA>(a float64, x []T, y []float64):
// y[i] = fma(a, x[i], y[i]) for i < len(x) (the caller checks lengths).
func generateAxpyKernel(isa isa, f32 bool) {
	typ, esz := elem(f32)
	name := "axpy" + suffix(f32) + isa.name
	TEXT(name, NOSPLIT, fmt.Sprintf("func(a float64, x []%s, y []float64)", typ))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s is the %s body of Axpy%s: y[i] = fma(a, x[i], y[i]), %d lanes per vector; it mirrors the pure-Go twin.", name, isa.name, suffix(f32), isa.width))
	vec := func() reg.VecVirtual {
		if isa.zmm {
			return ZMM()
		}
		return YMM()
	}
	xp := Load(Param("x").Base(), GP64())
	n := Load(Param("x").Len(), GP64())
	yp := Load(Param("y").Base(), GP64())
	arg, err := Param("a").Resolve()
	if err != nil {
		panic(err)
	}
	av := vec()
	VBROADCASTSD(arg.Addr, av)
	i, last := GP64(), GP64()
	XORQ(i, i)
	const unroll = 2
	step := unroll * isa.width
	xm := func(v int) Mem { return Mem{Base: xp, Index: i, Scale: uint8(esz), Disp: esz * v * isa.width} }
	ym := func(v int) Mem { return Mem{Base: yp, Index: i, Scale: 8, Disp: 8 * v * isa.width} }
	load := func(v int, t reg.VecVirtual) {
		if f32 {
			VCVTPS2PD(xm(v), t)
		} else {
			VMOVUPD(xm(v), t)
		}
	}
	many, one, scalar, done := name+"_many", name+"_one", name+"_scalar", name+"_done"
	MOVQ(n, last)
	SUBQ(Imm(uint64(step)), last)
	Label(many)
	CMPQ(i, last)
	JG(LabelRef(one))
	for v := 0; v < unroll; v++ {
		t := vec()
		load(v, t)
		VFMADD213PD(ym(v), av, t) // t = a·x + y
		VMOVUPD(t, ym(v))
	}
	ADDQ(Imm(uint64(step)), i)
	JMP(LabelRef(many))
	Label(one)
	MOVQ(n, last)
	SUBQ(Imm(uint64(isa.width)), last)
	CMPQ(i, last)
	JG(LabelRef(scalar))
	t := vec()
	load(0, t)
	VFMADD213PD(ym(0), av, t)
	VMOVUPD(t, ym(0))
	ADDQ(Imm(uint64(isa.width)), i)
	JMP(LabelRef(one))
	Label(scalar)
	CMPQ(i, n)
	JGE(LabelRef(done))
	xs := XMM()
	if f32 {
		VXORPD(xs, xs, xs) // no dependence on an old value of xs
		VCVTSS2SD(xm(0), xs, xs)
	} else {
		VMOVSD(xm(0), xs)
	}
	VFMADD213SD(ym(0), av.AsX(), xs) // xs = a·x + y
	VMOVSD(xs, ym(0))
	INCQ(i)
	JMP(LabelRef(scalar))
	Label(done)
	VZEROUPPER()
	RET()
}

// generatePrefetch emits prefetchF32(x []float32): PREFETCHT0 of every
// cache line x touches. No SIMD state: it serves every amd64 path.
func generatePrefetch() {
	TEXT("prefetchF32", NOSPLIT, "func(x []float32)")
	Pragma("noescape")
	Doc("prefetchF32 asks for every 64-byte cache line of x in L1 (PREFETCHT0); it never faults and changes no result.")
	p := Load(Param("x").Base(), GP64())
	n := Load(Param("x").Len(), GP64())
	end := GP64()
	TESTQ(n, n)
	JZ(LabelRef("prefetchF32_done"))
	LEAQ(Mem{Base: p, Index: n, Scale: 4, Disp: -1}, end)
	ANDQ(I32(-64), p)
	Label("prefetchF32_loop")
	PREFETCHT0(Mem{Base: p})
	ADDQ(Imm(64), p)
	CMPQ(p, end)
	JLE(LabelRef("prefetchF32_loop"))
	Label("prefetchF32_done")
	RET()
}
