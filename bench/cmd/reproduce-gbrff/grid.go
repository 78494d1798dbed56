package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/cv"

	_ "github.com/rfkit/rfkit/learners/gbrff" // registers gbrff2, gbrff1
	_ "github.com/rfkit/rfkit/learners/pbrff" // registers pbrff
	_ "github.com/rfkit/rfkit/learners/rks"   // registers rks
)

// method is one column of the table: a registered learner, its fixed
// parameters and its CV grid.
type method struct {
	Key   string // registry name and -methods key
	Title string // column title
	// grid returns the fixed parameters and the grid for a data set with d
	// inputs.
	grid func(d int, o *options) (fixed map[string]string, grid map[string][]string)
}

// The paper's grids (Table 2 protocol; experiment-latex-array-results/main.py
// of the authors' code holds the same lists).
var (
	gammaExp = []int{-2, -1, 0, 1, 2}                             // γ = 2^e / d
	lambdas  = []float64{0, 1.0 / 32, 1.0 / 16, 1.0 / 8, 1.0 / 4} // GBRFF2's λ
	decades  = []float64{0.01, 0.1, 1, 10, 100}                   // GBRFF1/PBRFF β, PBRFF C
	// RKS is not in the paper; its L2 penalty λ of logistic regression
	// ((1/n)Σ loss + (λ/2)‖w‖²) spans about the same range as PBRFF's C
	// (λ ≈ 1/(Cn) for n of a few hundred to a few thousand).
	rksLambdas = []float64{1e-5, 1e-4, 1e-3, 1e-2, 1e-1}
)

// methods are the table's columns, in order.
var methods = []method{
	{"gbrff2", "GBRFF2", func(d int, o *options) (map[string]string, map[string][]string) {
		// The paper's algorithm: every round searches b and ω on every row
		// (Subsample 2³¹ − 1, the largest allowed: no per-round subsample of the
		// rows, gbrff.Config.Subsample).
		fixed := map[string]string{"t": itoa(o.T), "subsample": strconv.Itoa(math.MaxInt32)}
		if o.quick {
			return fixed, map[string][]string{"gamma": gammas(d, 0, 1)}
		}
		return fixed, map[string][]string{"gamma": gammas(d, gammaExp...), "lambda": floats(lambdas)}
	}},
	{"gbrff1", "GBRFF1", func(d int, o *options) (map[string]string, map[string][]string) {
		fixed := map[string]string{"t": itoa(o.T), "k": "10"}
		if o.quick {
			return fixed, map[string][]string{"gamma": gammas(d, 0), "beta": {"1"}}
		}
		return fixed, map[string][]string{"gamma": gammas(d, gammaExp...), "beta": floats(decades)}
	}},
	{"pbrff", "PBRFF", func(d int, o *options) (map[string]string, map[string][]string) {
		fixed := map[string]string{"landmarks": itoa(o.T), "k": "10"}
		if o.quick {
			return fixed, map[string][]string{"gamma": gammas(d, 0), "beta": {"1"}, "c": {"1"}}
		}
		return fixed, map[string][]string{"gamma": gammas(d, gammaExp...), "beta": floats(decades), "c": floats(decades)}
	}},
	{"rks", "RKS", func(d int, o *options) (map[string]string, map[string][]string) {
		fixed := map[string]string{"features": itoa(o.T)}
		if o.quick {
			return fixed, map[string][]string{"gamma": gammas(d, 0), "lambda": {"0.001"}}
		}
		return fixed, map[string][]string{"gamma": gammas(d, gammaExp...), "lambda": floats(rksLambdas)}
	}},
}

func itoa(v int) string { return strconv.Itoa(v) }

// gammas returns 2^e/d for each exponent, spelt so that ParseFloat gives
// the same float64 back.
func gammas(d int, exps ...int) []string {
	out := make([]string, len(exps))
	for i, e := range exps {
		out[i] = strconv.FormatFloat(math.Ldexp(1, e)/float64(d), 'g', -1, 64)
	}
	return out
}

func floats(v []float64) []string {
	out := make([]string, len(v))
	for i, x := range v {
		out[i] = strconv.FormatFloat(x, 'g', -1, 64)
	}
	return out
}

// candidates builds the grid of m for d inputs as cv candidates, the model
// seed set to seed.
func candidates(m method, d int, o *options, seed uint64) ([]cv.Candidate, error) {
	lm, err := learners.Lookup(m.Key)
	if err != nil {
		return nil, err
	}
	fixed, grid := m.grid(d, o)
	base := lm.NewConfig()
	for k, v := range fixed {
		if err := learners.SetParam(base, k, v); err != nil {
			return nil, fmt.Errorf("%s: %w", m.Key, err)
		}
	}
	if err := learners.SetParam(base, "seed", strconv.FormatUint(seed, 10)); err != nil {
		return nil, fmt.Errorf("%s: %w", m.Key, err)
	}
	vars, err := cv.Expand(base, grid)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m.Key, err)
	}
	return cv.Candidates(lm, vars), nil
}

// gridSize is the number of candidates of m's grid.
func gridSize(m method, o *options) int {
	_, g := m.grid(1, o)
	n := 1
	for _, v := range g {
		n *= len(v)
	}
	return n
}

// describeGrid spells m's grid for the report, γ as multiples of 1/d.
func describeGrid(m method, o *options) string {
	fixed, g := m.grid(1, o)
	var parts []string
	for _, k := range sortedKeys(fixed) {
		parts = append(parts, k+"="+fixed[k])
	}
	for _, k := range sortedKeys(g) {
		v := g[k]
		if k == "gamma" {
			parts = append(parts, "gamma∈{"+strings.Join(v, ",")+"}/d")
		} else {
			parts = append(parts, k+"∈{"+strings.Join(v, ",")+"}")
		}
	}
	return strings.Join(parts, " ")
}
