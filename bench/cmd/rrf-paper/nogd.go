package main

import (
	"fmt"
	"math"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/nogd"
)

// onlineNOGD is NOGD run online (Lu et al. 2016, Algorithm 4): kernel
// online gradient descent on the first B rows (the budget phase; its
// support vectors are those rows), then the Nyström map of the B rows
// (featmap.NewNystromFromLandmarks, as nogd.Fit builds it, every
// numerically non-zero eigenvalue kept) and gradient descent on its
// features from w = 0. Hinge loss (binary) or squared loss (regression,
// residual clipped to ±nogd.MaxGrad as nogd.Fit does).
type onlineNOGD struct {
	d, B   int
	gamma  float64
	eta    float64
	task   learners.Task
	land   []float64 // the first B rows
	alpha  []float64 // kernel OGD coefficients of the budget phase
	nys    *featmap.Nystrom
	w      []float64
	z, wk  []float64
	st     learners.Stats
	failed error
}

func newNOGD(d, B int, gamma, eta float64, task learners.Task) *onlineNOGD {
	return &onlineNOGD{d: d, B: B, gamma: gamma, eta: eta, task: task}
}

func (l *onlineNOGD) stats() learners.Stats { return l.st }

func (l *onlineNOGD) update(x []float64, y float64) error {
	if l.failed != nil {
		return l.failed
	}
	var f float64
	if l.nys == nil {
		for j, a := range l.alpha {
			var s float64
			for c, v := range l.land[j*l.d : (j+1)*l.d] {
				u := v - x[c]
				s += u * u
			}
			f += a * math.Exp(-l.gamma*s)
		}
	} else {
		l.nys.TransformRowWork(l.z, x, l.wk)
		for k, v := range l.z {
			f += l.w[k] * v
		}
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		l.failed = fmt.Errorf("nogd: the score is not finite (step size too large)")
		return l.failed
	}
	var o learners.Outcome
	var g float64
	if l.task == learners.Regression {
		r := f - y
		o = learners.Outcome{Prediction: f, Loss: r * r / 2}
		g = max(-nogd.MaxGrad, min(nogd.MaxGrad, r))
	} else {
		o = learners.Outcome{Prediction: math.Copysign(1, f), Mistake: (f >= 0) != (y > 0)}
		if m := y * f; m < 1 {
			o.Loss, g = 1-m, -y
		}
	}
	if math.IsInf(o.Loss, 0) || math.IsInf(f-y, 0) {
		l.failed = fmt.Errorf("nogd: the loss overflows (step size too large)")
		return l.failed
	}
	l.st.N++ // as the online learners' Stats count an Update
	l.st.LossSum += o.Loss
	if o.Mistake {
		l.st.Mistakes++
	}
	if l.task == learners.Regression {
		r := o.Prediction - y
		l.st.SSE += float64(r * r)
	}
	if l.nys == nil {
		l.land = append(l.land, x...)
		l.alpha = append(l.alpha, -l.eta*g)
		if len(l.alpha) == l.B {
			nys, err := featmap.NewNystromFromLandmarks(l.land, l.d, l.B, l.gamma)
			if err != nil {
				l.failed = fmt.Errorf("nogd: %w", err)
				return l.failed
			}
			l.nys = nys
			l.w = make([]float64, nys.Outputs())
			l.z, l.wk = make([]float64, nys.Outputs()), make([]float64, nys.Outputs())
		}
		return nil
	}
	if g != 0 {
		a := l.eta * g
		for k, v := range l.z {
			l.w[k] -= a * v
		}
	}
	return nil
}
