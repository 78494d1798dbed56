package nogd

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/ogd"
)

// Fit standardises X with its statistics and runs Epochs passes of the
// NOGD rule over seeded permutations (in row order if Shuffle is
// Disabled); the landmarks are the first Budget rows of the first pass, and
// the model has the weights averaged over every step. Binary labels may be
// any two values (smaller → −1).
//
// Errors: learners.Prepare's, Budget above the number of rows, a score that
// overflows, or a Progress error (wrapped). The result depends only on the
// data and cfg, not on GOMAXPROCS or the SIMD path. Cost: O(B³) for the
// map, then O(n·B·(d + B)) per epoch; memory O(B² + n·d).
func Fit(ctx context.Context, X featmap.Matrix, y []float64, cfg Config) (*Model, error) {
	rounds := learners.NewRounds(ctx, cfg.Progress, Name, Name, 0)
	p, err := learners.Prepare(ctx, Name, cfg, cfg.Task, X, y)
	if err != nil {
		return nil, err
	}
	n, d := p.N, p.D
	c := cfg.resolve(d)
	rounds.SetTotal(c.Epochs)
	if cfg.Budget == 0 {
		c.Budget = min(c.Budget, n)
	}
	B := c.Budget
	if B > n {
		return nil, fmt.Errorf("nogd: Budget = %d landmarks, more than the %d training rows", B, n)
	}
	r := rand.New(rand.NewPCG(c.Seed, 0x6e6f6764)) // "nogd"
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	shuffle := c.Shuffle.On(true)
	if shuffle {
		r.Shuffle(n, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	}
	land := make([]float64, B*d)
	for k, i := range perm[:B] {
		copy(land[k*d:(k+1)*d], p.Z[i*d:(i+1)*d])
	}
	nys, err := featmap.NewNystromFromLandmarks(land, d, B, c.Gamma)
	if err != nil {
		return nil, fmt.Errorf("nogd: %w", err)
	}
	w, sum := make([]float64, B), make([]float64, B)
	z, work := make([]float64, B), make([]float64, nys.WorkLen())
	var steps float64
	for ep := 1; ep <= c.Epochs; ep++ {
		if ep > 1 && shuffle {
			r.Shuffle(n, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		}
		var loss float64
		for _, i := range perm {
			nys.TransformRowWork(z, p.Z[i*d:(i+1)*d], work)
			f := xmath.DotRound(w, z)
			if !xmath.Finite(f) {
				return nil, fmt.Errorf("nogd: row %d: the score is not finite (step size too large)", i)
			}
			l, g := ogd.Grad(c.Loss, f, p.Targets[i])
			loss += l
			if g != 0 {
				a := float64(c.Eta * g)
				for k, v := range z {
					w[k] -= float64(a * v)
				}
			}
			for k, v := range w {
				sum[k] += v
			}
			steps++
		}
		if err := rounds.End(ep, loss/float64(n)); err != nil {
			return nil, err
		}
	}
	for k := range sum {
		sum[k] /= steps
	}
	b := &body{cfg: c, nys: nys, coef: sum}
	m := new(Model)
	learners.Build(&m.Base, p.Common(c.Task, learners.NoProbability), b)
	return m, nil
}
