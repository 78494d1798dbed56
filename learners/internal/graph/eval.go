package graph

import "math"

// Scores returns the K scores of the row x evaluated in float64 (math.Cos
// and math.Exp): the reference an exporter's graph is compared with, and
// what the conformance suite compares with every model's Predict.
func (m *Model) Scores(x []float64) []float64 {
	d, K := len(m.Mean), m.K()
	z := make([]float64, d)
	for k, v := range x {
		if v == v {
			z[k] = (v - m.Mean[k]) / m.Scale[k]
		}
	}
	if e := m.Encoding; e != nil {
		z, d = e.apply(z), e.Inputs()
	}
	s := append([]float64(nil), m.Bias...)
	for _, b := range m.Blocks {
		f := make([]float64, b.D)
		switch b.Act {
		case Cosines:
			for j := range f {
				t := 0.0
				if b.B != nil {
					t = b.B[j]
				}
				for k := range d {
					t += z[k] * b.W[k*b.D+j]
				}
				f[j] = b.Scale * math.Cos(t)
			}
		case Gaussian:
			kv := make([]float64, b.D)
			for j := range kv {
				var q float64
				for k := range d {
					q += (z[k] - b.W[j*d+k]) * (z[k] - b.W[j*d+k])
				}
				kv[j] = math.Exp(-b.Gamma * q)
			}
			f = kv
			if b.Proj != nil {
				f = make([]float64, b.D)
				for i := range f {
					for j := range kv {
						f[i] += b.Proj[i*b.D+j] * kv[j]
					}
				}
			}
		case Monomials:
			var q float64
			for _, v := range z {
				q += v * v
			}
			g := math.Exp(-b.Gamma * q)
			u := append([]float64{1}, z...)
			for j := range f {
				f[j] = b.C[j] * u[b.I[2*j]] * u[b.I[2*j+1]]
				if b.Gauss[j] {
					f[j] *= g
				}
			}
		}
		for j, v := range f {
			for k := range K {
				s[k] += v * b.R[j*K+k]
			}
		}
	}
	return s
}

// apply returns the standardised encoded inputs of z.
func (e *Encoding) apply(z []float64) []float64 {
	out := make([]float64, e.Inputs())
	for q, j := range e.Src {
		v := z[j]
		switch e.Kind[q] {
		case EncLog:
			v = math.Copysign(math.Log1p(math.Abs(v)), v)
		case EncLevel:
			if v == e.Level[q] {
				v = 1
			} else {
				v = 0
			}
		}
		out[q] = (v - e.Mean[q]) / e.Scale[q]
	}
	return out
}

// Label is the label of the scores s: the larger class when s[0] ≥ 0
// (binary), the class of the largest score, the first on a tie
// (multiclass), the value (regression).
func (m *Model) Label(s []float64) float64 {
	switch m.Task {
	case Binary:
		if s[0] >= 0 {
			return m.Classes[1]
		}
		return m.Classes[0]
	case Multiclass:
		best := 0
		for k, v := range s {
			if v > s[best] {
				best = k
			}
		}
		return m.Classes[best]
	}
	return s[0]
}

// Probabilities are the class probabilities of the scores s under the
// model's Link, in the order of Classes (nil for regression).
func (m *Model) Probabilities(s []float64) []float64 {
	temp := m.Link.Temp
	if temp == 0 {
		temp = 1
	}
	switch m.Link.Kind {
	case Sigmoid:
		p := 1 / (1 + math.Exp(-(temp*s[0] + m.Link.Shift)))
		return []float64{1 - p, p}
	case Clamped:
		p := math.Max(0, math.Min(1, (1+s[0])/2))
		return []float64{1 - p, p}
	case Softmax:
		p, top, sum := make([]float64, len(s)), math.Inf(-1), 0.0
		for _, v := range s {
			top = math.Max(top, temp*v)
		}
		for k, v := range s {
			p[k] = math.Exp(temp*v - top)
			sum += p[k]
		}
		for k := range p {
			p[k] /= sum
		}
		return p
	}
	return nil
}
