//go:build (amd64 || arm64) && gc && !purego && !noasm

package asm

import "github.com/rfkit/rfkit/internal/cpu"

// The driver below wraps the assembly bodies. A trig body processes whole
// vectors from the start of its input and stops before the first vector that
// holds a lane outside its fast domain (|x| > TrigFastMax, NaN, ±Inf),
// returning how many elements it did; the driver computes that one vector
// with the scalar twin and resumes. The last partial vector goes through a
// padded stack buffer, so nothing is read or written past the slices. All
// calls are direct (no func values), which keeps the buffer on the stack.

const maxWidth = 8

func cos(dst, x []float64)                 { trigDrive(opCos, dst, nil, x, 0) }
func sin(dst, x []float64)                 { trigDrive(opSin, dst, nil, x, 0) }
func sincos(s, c, x []float64)             { trigDrive(opSincos, s, c, x, 0) }
func cosShift(dst, x []float64, b float64) { trigDrive(opCosShift, dst, nil, x, b) }

func trigDrive(op trigOp, d1, d2, x []float64, b float64) {
	if path == cpu.Generic {
		trigGeneric(op, d1, d2, x, b)
		return
	}
	w := simdWidth()
	for {
		n := trigAsm(op, d1, d2, x, b)
		d1, d2, x = d1[n:], tail(d2, n), x[n:]
		if len(x) < w {
			break
		}
		trigGeneric(op, d1[:w], head(d2, w), x[:w], b)
		d1, d2, x = d1[w:], tail(d2, w), x[w:]
	}
	if len(x) == 0 {
		return
	}
	// Padding lanes hold b, so cos(x − b) pads with cos(0): inside the domain.
	b1 := [maxWidth]float64{b, b, b, b, b, b, b, b}
	var b2 [maxWidth]float64
	copy(b1[:], x)
	var o2 []float64
	if d2 != nil {
		o2 = b2[:w]
	}
	if trigAsm(op, b1[:w], o2, b1[:w], b) == 0 {
		trigGeneric(op, d1, d2, x, b)
		return
	}
	copy(d1, b1[:len(x)])
	copy(d2, b2[:len(x)])
}

func head(s []float64, n int) []float64 {
	if s == nil {
		return nil
	}
	return s[:n]
}

func tail(s []float64, n int) []float64 {
	if s == nil {
		return nil
	}
	return s[n:]
}

func exp(dst, x []float64) {
	if path == cpu.Generic {
		expGeneric(dst, x)
		return
	}
	n := expAsm(dst, x) // no lane is outside the domain: it does every whole vector
	dst, x = dst[n:], x[n:]
	if len(x) > 0 {
		var buf [maxWidth]float64
		copy(buf[:], x)
		expAsm(buf[:simdWidth()], buf[:simdWidth()])
		copy(dst, buf[:len(x)])
	}
}

// cosAffine runs the assembly over whole vectors of columns; a vector with a
// lane outside the cos domain, and the last partial vector, go to the twin.
func cosAffine(dst, x, w, b []float64, ldw int, scale float64) {
	if path == cpu.Generic {
		cosAffineGeneric(dst, x, w, b, ldw, scale, 0, len(b))
		return
	}
	wd := simdWidth()
	j := 0
	for {
		n := cosAffineAsm(dst[j:], x, tail(w, j), b[j:], ldw, scale)
		j += n
		if len(b)-j < wd {
			break
		}
		cosAffineGeneric(dst, x, w, b, ldw, scale, j, j+wd)
		j += wd
	}
	cosAffineGeneric(dst, x, w, b, ldw, scale, j, len(b))
}

// sumsRun runs reduction k over elements [0, n) of frame f: the assembly over
// whole groups of eight; a group that fails a domain check, and the last
// partial group, go to the twin, which feeds the same lanes.
func sumsRun(k sumsKernel, f *sumsFrame, n int) {
	f.a.n = n
	if path == cpu.Generic {
		sumsRef(k, f, 0, n)
		return
	}
	i := 0
	for {
		f.a.i = i
		i = sumsAsm(k, f)
		if n-i < 8 {
			break
		}
		sumsRef(k, f, i, i+8)
		i += 8
	}
	sumsRef(k, f, i, n)
}
