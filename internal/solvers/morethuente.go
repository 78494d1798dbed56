// This file is adapted from gonum's optimize.MoreThuente
// (gonum.org/v1/gonum v0.17.0, optimize/morethuente.go), which carries this
// notice:
//
// Copyright ©2015 The Gonum Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.
//
// Gonum's LICENSE (BSD-3-Clause):
//
// Copyright ©2013 The Gonum Authors. All rights reserved.
//
// Redistribution and use in source and binary forms, with or without
// modification, are permitted provided that the following conditions are met:
//   - Redistributions of source code must retain the above copyright
//     notice, this list of conditions and the following disclaimer.
//   - Redistributions in binary form must reproduce the above copyright
//     notice, this list of conditions and the following disclaimer in the
//     documentation and/or other materials provided with the distribution.
//   - Neither the name of the Gonum project nor the names of its authors and
//     contributors may be used to endorse or promote products derived from this
//     software without specific prior written permission.
//
// THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS" AND
// ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE IMPLIED
// WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE ARE
// DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT HOLDER OR CONTRIBUTORS BE LIABLE
// FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL
// DAMAGES (INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR
// SERVICES; LOSS OF USE, DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER
// CAUSED AND ON ANY THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY,
// OR TORT (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE
// OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.
//
// Changes from gonum: the type is unexported and driven by LBFGS only, so
// the Linesearcher interface, the Operation values and the parameter
// defaulting and panics are gone (LBFGS passes valid constants, a negative
// slope and a positive step); Iterate reports an mtStatus instead of an
// (Operation, error) pair. The arithmetic is gonum's, operation for
// operation, except that every product that feeds an addition or a
// subtraction is rounded on its own (float64(a*b), also where the product is
// first assigned to a variable: the compiler fuses across statements, and it
// turns x/2 into x*0.5). The Go compiler fuses a*b+c into one FMA on arm64
// (and ppc64, s390x, riscv64) but not on amd64,
// so gonum's code, compiled as is, chooses different steps on different
// architectures; the explicit conversions forbid the fusion (Go spec,
// "Floating-point operators"), so this copy gives the same bits everywhere,
// and on amd64 the same bits as gonum.

package solvers

import "math"

// mtStatus is the outcome of one moreThuente.iterate.
type mtStatus int

const (
	// mtEvaluate: evaluate the function at the returned step next.
	mtEvaluate mtStatus = iota
	// mtConverged: the current step satisfies the strong Wolfe conditions.
	mtConverged
	// mtFailure: no further progress is possible (gonum's
	// ErrLinesearcherFailure); the returned step is the best one found.
	mtFailure
	// mtBound: the step is at the maximum and the function still decreases
	// sufficiently (gonum's ErrLinesearcherBound).
	mtBound
)

const (
	mtMinGrowthFactor float64 = 1.1
	mtMaxGrowthFactor float64 = 4
)

// moreThuente is the line search of Moré and Thuente (the MINPACK-2 dcsrch
// algorithm): it finds steps that satisfy both the sufficient decrease and
// the curvature conditions (the strong Wolfe conditions).
//
// References:
//   - More, J.J. and D.J. Thuente: Line Search Algorithms with Guaranteed Sufficient
//     Decrease. ACM Transactions on Mathematical Software 20(3) (1994), 286-307
type moreThuente struct {
	// decreaseFactor is the constant factor in the sufficient decrease
	// (Armijo) condition, in [0, 1).
	decreaseFactor float64
	// curvatureFactor is the constant factor in the Wolfe conditions, in
	// (0, 1).
	curvatureFactor float64
	// stepTolerance is the minimum relative width of the interval (> 0).
	stepTolerance float64
	// minimumStep and maximumStep bound the steps, 0 ≤ min < max.
	minimumStep, maximumStep float64

	bracketed bool    // Indicates if a minimum has been bracketed.
	fInit     float64 // Function value at step = 0.
	gInit     float64 // Derivative value at step = 0.

	// When stage is 1, the algorithm updates the interval given by x and y
	// so that it contains a minimizer of the modified function
	//  psi(step) = f(step) - f(0) - DecreaseFactor * step * f'(0).
	// When stage is 2, the interval is updated so that it contains a minimizer
	// of f.
	stage int

	step         float64    // Current step.
	lower, upper float64    // Lower and upper bounds on the next step.
	x            float64    // Endpoint of the interval with a lower function value.
	fx, gx       float64    // Data at x.
	y            float64    // The other endpoint.
	fy, gy       float64    // Data at y.
	width        [2]float64 // Width of the interval at two previous iterations.
}

// init starts a search from f = f(0) and g = f′(0) < 0 with the first trial
// step > 0 (clamped to [minimumStep, maximumStep]); the caller evaluates at
// mt.step next.
func (mt *moreThuente) init(f, g, step float64) {
	// Based on the original Fortran code that is available, for example, from
	//  http://ftp.mcs.anl.gov/pub/MINPACK-2/csrch/
	// as part of
	//  MINPACK-2 Project. November 1993.
	//  Argonne National Laboratory and University of Minnesota.
	//  Brett M. Averick, Richard G. Carter, and Jorge J. Moré.
	if step < mt.minimumStep {
		step = mt.minimumStep
	}
	if step > mt.maximumStep {
		step = mt.maximumStep
	}

	mt.bracketed = false
	mt.stage = 1
	mt.fInit = f
	mt.gInit = g

	mt.x, mt.fx, mt.gx = 0, f, g
	mt.y, mt.fy, mt.gy = 0, f, g

	mt.lower = 0
	mt.upper = step + float64(mtMaxGrowthFactor*step)

	mt.width[0] = mt.maximumStep - mt.minimumStep
	mt.width[1] = 2 * mt.width[0]

	mt.step = step
}

// iterate takes the value f and the directional derivative g at mt.step and
// returns what to do next and the step it concerns.
func (mt *moreThuente) iterate(f, g float64) (mtStatus, float64) {
	gTest := float64(mt.decreaseFactor * mt.gInit)
	fTest := mt.fInit + float64(mt.step*gTest)

	if mt.bracketed {
		if mt.step <= mt.lower || mt.step >= mt.upper || mt.upper-mt.lower <= mt.stepTolerance*mt.upper {
			// step contains the best step found (see below).
			return mtFailure, mt.step
		}
	}
	if mt.step == mt.maximumStep && f <= fTest && g <= gTest {
		return mtBound, mt.step
	}
	if mt.step == mt.minimumStep && (f > fTest || g >= gTest) {
		return mtFailure, mt.step
	}

	// Test for convergence.
	if f <= fTest && math.Abs(g) <= mt.curvatureFactor*(-mt.gInit) {
		mt.stage = 0
		return mtConverged, mt.step
	}

	if mt.stage == 1 && f <= fTest && g >= 0 {
		mt.stage = 2
	}

	if mt.stage == 1 && f <= mt.fx && f > fTest {
		// Lower function value but the decrease is not sufficient .

		// Compute values and derivatives of the modified function at step, x, y.
		fm := f - float64(mt.step*gTest)
		fxm := mt.fx - float64(mt.x*gTest)
		fym := mt.fy - float64(mt.y*gTest)
		gm := g - gTest
		gxm := mt.gx - gTest
		gym := mt.gy - gTest
		// Update x, y and step.
		mt.nextStep(fxm, gxm, fym, gym, fm, gm)
		// Recover values and derivates of the non-modified function at x and y.
		mt.fx = fxm + float64(mt.x*gTest)
		mt.fy = fym + float64(mt.y*gTest)
		mt.gx = gxm + gTest
		mt.gy = gym + gTest
	} else {
		// Update x, y and step.
		mt.nextStep(mt.fx, mt.gx, mt.fy, mt.gy, f, g)
	}

	if mt.bracketed {
		// Monitor the length of the bracketing interval. If the interval has
		// not been reduced sufficiently after two steps, use bisection to
		// force its length to zero.
		width := mt.y - mt.x
		if math.Abs(width) >= 2.0/3*mt.width[1] {
			mt.step = mt.x + float64(0.5*width)
		}
		mt.width[0], mt.width[1] = math.Abs(width), mt.width[0]
	}

	if mt.bracketed {
		mt.lower = math.Min(mt.x, mt.y)
		mt.upper = math.Max(mt.x, mt.y)
	} else {
		mt.lower = mt.step + float64(mtMinGrowthFactor*(mt.step-mt.x))
		mt.upper = mt.step + float64(mtMaxGrowthFactor*(mt.step-mt.x))
	}

	// Force the step to be in [MinimumStep, MaximumStep].
	mt.step = math.Max(mt.minimumStep, math.Min(mt.step, mt.maximumStep))

	if mt.bracketed {
		if mt.step <= mt.lower || mt.step >= mt.upper || mt.upper-mt.lower <= mt.stepTolerance*mt.upper {
			// If further progress is not possible, set step to the best step
			// obtained during the search.
			mt.step = mt.x
		}
	}

	return mtEvaluate, mt.step
}

// mtGamma is s·√((θ/s)² − (a/s)(b/s)), with the radicand clamped at 0 when
// clamp is set: the γ of the cubic interpolation, with products rounded on
// their own.
func mtGamma(s, theta, a, b float64, clamp bool) float64 {
	rad := float64((theta/s)*(theta/s)) - float64((a/s)*(b/s))
	if clamp {
		rad = math.Max(0, rad)
	}
	return s * math.Sqrt(rad)
}

// mtTheta is 3(fa − fb)/(sa − sb) + ga + gb, the θ of the cubic
// interpolation (gonum's left-to-right order of the additions).
func mtTheta(fa, fb, sa, sb, ga, gb float64) float64 {
	return 3*(fa-fb)/(sa-sb) + ga + gb
}

// nextStep computes the next safeguarded step and updates the interval that
// contains a step that satisfies the sufficient decrease and curvature
// conditions.
func (mt *moreThuente) nextStep(fx, gx, fy, gy, f, g float64) {
	x := mt.x
	y := mt.y
	step := mt.step

	gNeg := g < 0
	if gx < 0 {
		gNeg = !gNeg
	}

	var next float64
	var bracketed bool
	switch {
	case f > fx:
		// A higher function value. The minimum is bracketed between x and step.
		// We want the next step to be closer to x because the function value
		// there is lower.

		theta := mtTheta(fx, f, step, x, gx, g)
		s := math.Max(math.Abs(gx), math.Abs(g))
		s = math.Max(s, math.Abs(theta))
		gamma := mtGamma(s, theta, gx, g, false)
		if step < x {
			gamma *= -1
		}
		p := gamma - gx + theta
		q := gamma - gx + gamma + g
		r := p / q
		stpc := x + float64(r*(step-x))
		stpq := x + float64(gx/((fx-f)/(step-x)+gx)/2*(step-x))

		if math.Abs(stpc-x) < math.Abs(stpq-x) {
			// The cubic step is closer to x than the quadratic step.
			// Take the cubic step.
			next = stpc
		} else {
			// If f is much larger than fx, then the quadratic step may be too
			// close to x. Therefore heuristically take the average of the
			// cubic and quadratic steps.
			next = stpc + float64((stpq-stpc)/2)
		}
		bracketed = true

	case gNeg:
		// A lower function value and derivatives of opposite sign. The minimum
		// is bracketed between x and step. If we choose a step that is far
		// from step, the next iteration will also likely fall in this case.

		theta := mtTheta(fx, f, step, x, gx, g)
		s := math.Max(math.Abs(gx), math.Abs(g))
		s = math.Max(s, math.Abs(theta))
		gamma := mtGamma(s, theta, gx, g, false)
		if step > x {
			gamma *= -1
		}
		p := gamma - g + theta
		q := gamma - g + gamma + gx
		r := p / q
		stpc := step + float64(r*(x-step))
		stpq := step + float64(g/(g-gx)*(x-step))

		if math.Abs(stpc-step) > math.Abs(stpq-step) {
			// The cubic step is farther from x than the quadratic step.
			// Take the cubic step.
			next = stpc
		} else {
			// Take the quadratic step.
			next = stpq
		}
		bracketed = true

	case math.Abs(g) < math.Abs(gx):
		// A lower function value, derivatives of the same sign, and the
		// magnitude of the derivative decreases. Extrapolate function values
		// at x and step so that the next step lies between step and y.

		theta := mtTheta(fx, f, step, x, gx, g)
		s := math.Max(math.Abs(gx), math.Abs(g))
		s = math.Max(s, math.Abs(theta))
		gamma := mtGamma(s, theta, gx, g, true)
		if step > x {
			gamma *= -1
		}
		p := gamma - g + theta
		q := gamma + gx - g + gamma
		r := p / q
		var stpc float64
		switch {
		case r < 0 && gamma != 0:
			stpc = step + float64(r*(x-step))
		case step > x:
			stpc = mt.upper
		default:
			stpc = mt.lower
		}
		stpq := step + float64(g/(g-gx)*(x-step))

		if mt.bracketed {
			// We are extrapolating so be cautious and take the step that
			// is closer to step.
			if math.Abs(stpc-step) < math.Abs(stpq-step) {
				next = stpc
			} else {
				next = stpq
			}
			// Modify next if it is close to or beyond y.
			if step > x {
				next = math.Min(step+float64(2.0/3*(y-step)), next)
			} else {
				next = math.Max(step+float64(2.0/3*(y-step)), next)
			}
		} else {
			// Minimum has not been bracketed so take the larger step...
			if math.Abs(stpc-step) > math.Abs(stpq-step) {
				next = stpc
			} else {
				next = stpq
			}
			// ...but within reason.
			next = math.Max(mt.lower, math.Min(next, mt.upper))
		}

	default:
		// A lower function value, derivatives of the same sign, and the
		// magnitude of the derivative does not decrease. The function seems to
		// decrease rapidly in the direction of the step.

		switch {
		case mt.bracketed:
			theta := mtTheta(f, fy, y, step, gy, g)
			s := math.Max(math.Abs(gy), math.Abs(g))
			s = math.Max(s, math.Abs(theta))
			gamma := mtGamma(s, theta, gy, g, false)
			if step > y {
				gamma *= -1
			}
			p := gamma - g + theta
			q := gamma - g + gamma + gy
			r := p / q
			next = step + float64(r*(y-step))
		case step > x:
			next = mt.upper
		default:
			next = mt.lower
		}
	}

	if f > fx {
		// x is still the best step.
		mt.y = step
		mt.fy = f
		mt.gy = g
	} else {
		// step is the new best step.
		if gNeg {
			mt.y = x
			mt.fy = fx
			mt.gy = gx
		}
		mt.x = step
		mt.fx = f
		mt.gx = g
	}
	mt.bracketed = bracketed
	mt.step = next
}
