package asm

import (
	"github.com/rfkit/rfkit/internal/scalar"
	"math"

	"github.com/rfkit/rfkit/internal/poly"
)

// The scalar twins of the reduction kernels: element i of frame f, with the
// operations of internal/gen/kernels/reduce.go in the same order. Element i
// feeds lane i mod 8 of every accumulator.

func boundedExpRef(x float64) float64 {
	if x > poly.ExpLossMax {
		x = poly.ExpLossMax
	}
	if x < -poly.ExpLossMax {
		x = -poly.ExpLossMax
	}
	return scalar.Exp(x)
}

// dotRef is init + Σ_k vec_m[k]·mat_m[k·ld + i], one FMA per term.
func (f *sumsView) dotRef(m, i, ld int, acc float64) float64 {
	mat, vec := f.mat[m], f.vec[m]
	for k, v := range vec {
		acc = math.FMA(v, mat[k*ld+i], acc)
	}
	return acc
}

func (f *sumsView) accDotRef(m, i, ld int, r float64) {
	mat, acc := f.mat[m], f.accm[m]
	for k := range acc {
		acc[k][i%8] = math.FMA(r, mat[k*ld+i], acc[k][i%8])
	}
}

// sumsAccs is the number of lane accumulators of each kernel.
var sumsAccs = [...]int{kWeights: 1, kPhase: 2, kSincosDot: 0, kDotStats: 1, kFreqStep: 1, kLandmark: 1, kCosSum: 1, kSincosStats: 1}

// sumsRef computes elements [i, n) of kernel k with the twin.
func sumsRef(k sumsKernel, fr *sumsFrame, i, n int) {
	if i >= n {
		return // nothing left: skip building the view (callers sweep short blocks)
	}
	v := fr.view(fr.a.n, sumsAccs[k])
	f := &v
	par, ld := fr.a.par, fr.a.ld
	for ; i < n; i++ {
		l := i % 8
		switch k {
		case kWeights:
			y, h := f.in[0][i], f.in[2][i]
			H := math.FMA(par[0], h, f.in[1][i])
			w := boundedExpRef(float64(-y * H))
			f.out[0][i] = float64(y * w)
			f.out[1][i] = H
			f.acc[0][l] += w
		case kPhase:
			c, s, yt := f.in[0][i], f.in[1][i], f.in[2][i]
			cb, sb := par[0], par[1]
			t := math.FMA(c, cb, float64(s*sb))
			e := boundedExpRef(float64(-yt * t))
			f.acc[0][l] += e
			dt := math.FMA(s, cb, -float64(c*sb))
			f.acc[1][l] += float64(float64(e*yt) * dt)
		case kSincosDot:
			f.out[0][i], f.out[1][i] = scalar.Sincos(f.dotRef(0, i, ld, 0))
		case kDotStats:
			h := f.dotRef(1, i, ld, f.dotRef(0, i, ld, 0))
			f.out[0][i] = h
			f.acc[0][l] += float64(f.in[0][i] * h)
		case kFreqStep:
			p := f.dotRef(0, i, ld, 0)
			f.out[0][i] = p
			s, c := scalar.Sincos(p - par[0])
			yt := f.in[0][i]
			e := boundedExpRef(float64(-yt * c))
			f.acc[0][l] += e
			f.accDotRef(0, i, ld, float64(float64(yt*s)*e))
		case kLandmark:
			m := f.dotRef(1, i, ld, f.dotRef(0, i, ld, 0))
			yt := f.in[0][i]
			e := boundedExpRef(float64(-yt * m))
			f.acc[0][l] += e
			r := float64(yt * e)
			f.accDotRef(0, i, ld, r)
			f.accDotRef(1, i, ld, r)
		case kCosSum:
			c := scalar.Cos(f.dotRef(0, i, ld, f.in[0][i]))
			f.acc[0][l] += float64(f.in[1][i] * c)
		case kSincosStats:
			s, c := scalar.Sincos(f.in[0][i])
			h := math.FMA(par[1], s, math.FMA(par[0], c, 0))
			f.out[0][i] = h
			f.acc[0][l] += float64(f.in[1][i] * h)
		}
	}
}

// SumLanes is the canonical combination of eight lane accumulators, the
// same fixed tree on every path.
func SumLanes(l *[8]float64) float64 {
	return ((l[0] + l[4]) + (l[2] + l[6])) + ((l[1] + l[5]) + (l[3] + l[7]))
}
