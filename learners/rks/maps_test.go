package rks_test

import (
	"strings"
	"testing"

	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
	"github.com/rfkit/rfkit/learners/rks"
)

// rings is the suite's data set, the same bits everywhere.
var rings = learnertest.Rings

// TestMapsDiffer: the maps are really different models: equal seeds give
// different scores for rff, orf and laplacian, and uniform and k-means++
// landmarks differ.
func TestMapsDiffer(t *testing.T) {
	X, y := rings(200, 0, 0, 1, 4)
	x := X.Row(0)
	seen := map[float64]rks.Map{}
	for _, m := range []rks.Map{rks.RFF, rks.ORF, rks.Laplacian, rks.Nystrom, rks.NystromKMeans} {
		s := learnertest.MustFit(t, rks.Fit, X, y, rks.Config{Map: m, Features: 30, Seed: 1}).Score(x)
		if prev, ok := seen[s]; ok {
			t.Errorf("maps %q and %q score %v alike", prev, m, s)
		}
		seen[s] = m
	}
}

func TestMapErrors(t *testing.T) {
	X, y := rings(20, 0, 0, 1, 1)
	learnertest.FitErrors(t, "rks: ", rks.Fit, []learnertest.FitCase[rks.Config]{
		{Name: "unknown map", X: X, Y: y, Cfg: rks.Config{Map: "fastfood"}, Want: `rks: unknown Map "fastfood"`},
		{Name: "landmarks above rows", X: X, Y: y, Cfg: rks.Config{Map: rks.Nystrom, Features: 21}, Want: "Features = 21 Nyström landmarks, more than the 20 training rows"},
	})
	good := learnertest.Bytes(t, learnertest.MustFit(t, rks.Fit, X, y, rks.Config{Map: rks.Nystrom, Features: 10}))
	for _, c := range []struct{ name, from, to, want string }{
		{"bad map", `"Map":"nystrom"`, `"Map":"fastfood"`, `unknown Map "fastfood"`},
		{"map rff on landmarks", `,"Map":"nystrom"`, ``, `no array "w"`},
	} {
		bad := learnertest.Rewrite(t, good, func(f *modelfile.File) {
			f.Header.Config = []byte(strings.Replace(string(f.Header.Config), c.from, c.to, 1))
		})
		if _, err := rks.Load(bad); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}
