package main

import (
	"math"
	"sort"

	"github.com/rfkit/rfkit/dataset"
)

// expPrep is the alternative encodings compared while choosing the
// default one (-prep, with -inputs raw): fitted on the training part only
// and applied to both parts. kind: onehot (integer inputs of 3 to maxCard
// values), quantile (a 64-knot rank transform of the other inputs),
// onehotq (both), slog (sign·log1p of the raw value of inputs beyond 5
// standard deviations), zlog (the same of the standardised value: what
// the library does), all (onehot and slog), keep (one-hot beside the raw
// code), mono (one-hot unless the positive rate is monotone in the code).
func expPrep(kind string, maxCard int, train, test *dataset.Dataset) (*dataset.Dataset, *dataset.Dataset) {
	d := train.D
	type col struct {
		cats   []float64
		q      []float64
		slog   bool
		keep   bool
		zm, zs float64
	}
	cols := make([]col, d)
	outD := 0
	for j := 0; j < d; j++ {
		vals := make([]float64, train.N)
		integer := true
		for i := range vals {
			vals[i] = train.X[i*d+j]
			if vals[i] != math.Trunc(vals[i]) {
				integer = false
			}
		}
		sort.Float64s(vals)
		var u []float64
		for i, v := range vals {
			if i == 0 || v != vals[i-1] {
				u = append(u, v)
			}
		}
		c := &cols[j]
		if (kind == "onehot" || kind == "all" || kind == "zlog" || kind == "onehotq" || kind == "keep" || kind == "mono") && integer && len(u) >= 3 && len(u) <= maxCard {
			if kind == "mono" && monotone(train, j, u) {
				outD++
				continue
			}
			c.cats = u
			outD += len(u)
			if kind == "keep" {
				c.keep = true
				outD++
			}
			continue
		}
		if (kind == "quantile" || kind == "onehotq") && len(u) > 2 {
			K := 64
			for k := 0; k <= K; k++ {
				c.q = append(c.q, vals[int(float64(k)/float64(K)*float64(len(vals)-1))])
			}
		}
		if kind == "slog" || kind == "all" || kind == "zlog" {
			// heavy tailed: max far beyond mean+5sd
			var m, s float64
			for _, v := range vals {
				m += v
			}
			m /= float64(len(vals))
			for _, v := range vals {
				s += (v - m) * (v - m)
			}
			s = math.Sqrt(s / float64(len(vals)))
			if s > 0 && (vals[len(vals)-1]-m > 5*s || m-vals[0] > 5*s) {
				c.slog = true
				if kind == "zlog" {
					c.zm, c.zs = m, s
				}
			}
		}
		outD++
	}
	apply := func(ds *dataset.Dataset) *dataset.Dataset {
		X := make([]float64, 0, ds.N*outD)
		for i := 0; i < ds.N; i++ {
			for j := 0; j < d; j++ {
				v := ds.X[i*d+j]
				c := cols[j]
				switch {
				case c.cats != nil:
					if c.keep {
						X = append(X, v)
					}
					for _, u := range c.cats {
						if u == v {
							X = append(X, 1)
						} else {
							X = append(X, 0)
						}
					}
				case c.q != nil:
					k := sort.SearchFloat64s(c.q, v)
					var r float64
					switch {
					case k == 0:
						r = 0
					case k >= len(c.q):
						r = 1
					default:
						lo, hi := c.q[k-1], c.q[k]
						f := 0.0
						if hi > lo {
							f = (v - lo) / (hi - lo)
						}
						r = (float64(k-1) + f) / float64(len(c.q)-1)
					}
					X = append(X, r)
				case c.slog && c.zs > 0:
					z := (v - c.zm) / c.zs
					X = append(X, math.Copysign(math.Log1p(math.Abs(z)), z))
				case c.slog:
					X = append(X, math.Copysign(math.Log1p(math.Abs(v)), v))
				default:
					X = append(X, v)
				}
			}
		}
		return &dataset.Dataset{N: ds.N, D: outD, X: X, Y: ds.Y}
	}
	return apply(train), apply(test)
}

// monotone reports whether the positive rate per value of column j is
// monotone in the value.
func monotone(ds *dataset.Dataset, j int, u []float64) bool {
	pos, cnt := make([]float64, len(u)), make([]float64, len(u))
	for i := 0; i < ds.N; i++ {
		k := sort.SearchFloat64s(u, ds.X[i*ds.D+j])
		cnt[k]++
		if ds.Y[i] > 0 {
			pos[k]++
		}
	}
	up, down := true, true
	for k := 1; k < len(u); k++ {
		a, b := pos[k-1]/cnt[k-1], pos[k]/cnt[k]
		if b < a {
			up = false
		}
		if b > a {
			down = false
		}
	}
	return up || down
}
