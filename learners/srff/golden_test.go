package srff_test

import (
	"bytes"
	"runtime"
	"testing"

	"github.com/rfkit/rfkit/internal/asm"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
	"github.com/rfkit/rfkit/learners/srff"
)

// goldenCase is a small fit whose model bytes are pinned in testdata.
type goldenCase struct {
	name string
	set  string
	n    int
	seed uint64
	cfg  srff.Config
}

// goldenCases cover the λ search and the refit (search), inputs switched
// off by the simplex on a set with a short last block of rows (se2), and a
// given simplex size (simplex), and the default accelerated alternation
// (GammaIterations = 1) with its momentum and restarts (accel). They are small, to run under qemu and the
// race detector; the parallel passes, which need larger sets, are checked
// for GOMAXPROCS independence by TestValueParallel and TestRidgeParallel.
var goldenCases = []goldenCase{
	{"search", "SE1", 120, 3, srff.Config{Features: 24, Lambdas: 2, MaxIterations: 8, GammaIterations: 10, Seed: 5}},
	{"se2", "SE2", 200, 4, srff.Config{Features: 16, Lambda: 3e-3, MaxIterations: 6, GammaIterations: 8, Seed: 6}},
	{"simplex", "SE1", 100, 5, srff.Config{Features: 20, Simplex: 3, Lambda: 1e-2, MaxIterations: 5, GammaIterations: 5, Seed: 7}},
	{"accel", "SE2", 200, 4, srff.Config{Features: 16, Lambda: 3e-3, MaxIterations: 25, Seed: 8}},
}

func (c goldenCase) fit(t *testing.T) []byte {
	t.Helper()
	X, y := set(t, c.set, c.n, c.seed)
	b := learnertest.Bytes(t, fit(t, X, y, c.cfg))
	return b
}

// TestGolden: models fitted on any machine and path serialise to the bytes
// in testdata (written on amd64; checked with every path of package asm in
// TestDeterminism, with -tags purego, and under qemu on arm64). The data
// come from package synth, bit-identical everywhere, and so is every step:
// the noise and phases (drawNoise), the standardisation (prep), the
// phases, the Gram matrix and the gradient's product (asm.AffineRows), the
// features and sines (asm.CosAffine, asm.Sin), the Cholesky rows
// (asm.DotStats), and the scalar sums, written with explicit FMAs and
// products rounded on their own. Regenerate with go test -run Golden ./learners/srff -update.
func TestGolden(t *testing.T) {
	for _, c := range goldenCases {
		got := c.fit(t)
		learnertest.Golden(t, c.name, got)

	}
}

// TestDeterminism: the same bytes on every path of package asm, for
// GOMAXPROCS 1 and 4, and different bytes for another seed. (These small
// fits run on one goroutine whatever GOMAXPROCS is; TestValueParallel and
// TestRidgeParallel check the parallel passes.)
func TestDeterminism(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, c := range goldenCases {
		want := c.fit(t)
		for _, path := range asm.Paths() {
			restore, err := asm.SetPath(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := c.fit(t); !bytes.Equal(got, want) {
				t.Errorf("%s: path %s: model bytes differ", c.name, path)
			}
			restore()
		}
		runtime.GOMAXPROCS(1)
		if got := c.fit(t); !bytes.Equal(got, want) {
			t.Errorf("%s: GOMAXPROCS 1: model bytes differ", c.name)
		}
		runtime.GOMAXPROCS(4)
		c.cfg.Seed++
		if other := c.fit(t); bytes.Equal(other, want) {
			t.Errorf("%s: seeds %d and %d give the same model", c.name, c.cfg.Seed-1, c.cfg.Seed)
		}
	}
}
