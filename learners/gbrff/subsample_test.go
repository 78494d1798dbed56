package gbrff

import (
	"bytes"
	"math"
	"testing"

	"github.com/rfkit/rfkit/dataset/synth"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
)

// TestSubsample: a fit of 9000 rows (three exploss chunks) that searches
// each round on Subsample = 1000 rows (16 blocks of 64) gives the same bytes
// for any Threads; it counts the subsample's sweeps apart from the full
// ones (per round two passes: one sweep of X for h and its correlation,
// and the update); it differs from the fit on every row; below the
// default's threshold (8192 rows) the default is the fit on every row
// (Subsample at least the rows), above it a subsample of 4096 rows; and it
// still learns the checkerboard.
func TestSubsample(t *testing.T) {
	tr := must(synth.Checkerboard(9000, 0.05, 5))
	te := must(synth.Checkerboard(3000, 0.05, 6))
	const T = 40
	var st FitStats
	m := fit(t, tr, Config{T: T, Gamma: 4, Seed: 2, Subsample: 1000, Stats: &st})
	want := marshal(t, m)
	for _, th := range []int{1, 2, 5} {
		if !bytes.Equal(marshal(t, fit(t, tr, Config{T: T, Gamma: 4, Seed: 2, Subsample: 1000, Threads: learners.Threads(th)})), want) {
			t.Errorf("Threads %d: model bytes differ", th)
		}
	}
	if st.Rounds != T || st.SubRows != 1024 {
		t.Fatalf("stats %+v: want %d rounds on 1024 rows", st, T)
	}
	if st.XPasses != T || st.SettleXPasses != T || st.StartXPasses != 0 || st.Passes != 2*T {
		t.Errorf("full sweeps: %d X passes (%d settle, %d start), %d passes; want %d X passes, all settle, and %d passes", st.XPasses, st.SettleXPasses, st.StartXPasses, st.Passes, T, 2*T)
	}
	// per round: the sincos at ω⁰, the frequency steps, the phase sweeps and
	// the copy of ỹ; the inputs are copied by a sweep of their own in the
	// first round only (after it, by the previous round's sweep of h)
	if st.SubXPasses != 1+T+st.FreqEvals || st.SubPasses != st.SubXPasses+st.PhasePasses+T-1 {
		t.Errorf("subsample sweeps %d (%d of X) for %d frequency and %d phase sweeps", st.SubPasses, st.SubXPasses, st.FreqEvals, st.PhasePasses)
	}
	// Subsample is stored in the model's Config: compare the scores, below
	// the default's threshold (8192 rows) and above it
	small := must(synth.Checkerboard(8000, 0.05, 5))
	full, def := fit(t, small, Config{T: T, Gamma: 4, Seed: 2, Subsample: maxSubsample}), fit(t, small, Config{T: T, Gamma: 4, Seed: 2})
	sub := fit(t, tr, Config{T: T, Gamma: 4, Seed: 2, Subsample: maxSubsample})
	same, sameFull := true, true
	for i := 0; i < te.N; i++ {
		x := te.X[i*te.D : (i+1)*te.D]
		same = same && math.Float64bits(full.Score(x)) == math.Float64bits(def.Score(x))
		sameFull = sameFull && math.Float64bits(sub.Score(x)) == math.Float64bits(m.Score(x))
	}
	if !same {
		t.Error("Subsample = maxSubsample scores differ from the default's below its threshold")
	}
	if sameFull {
		t.Error("the subsampled fit scores as the fit on every row")
	}
	var st0, st1 FitStats
	fit(t, small, Config{T: 2, Gamma: 4, Seed: 2, Stats: &st0})
	if st0.SubRows != 0 || st0.SubPasses != 0 {
		t.Errorf("default at 8000 rows subsampled: %+v", st0)
	}
	fit(t, tr, Config{T: 2, Gamma: 4, Seed: 2, Stats: &st1})
	if st1.SubRows != 4096 {
		t.Errorf("default at 9000 rows searched on %d rows, want 4096", st1.SubRows)
	}
	if a := accuracy(m, te); a < 0.85 {
		t.Errorf("subsampled checkerboard accuracy %.3f, want ≥ 0.85", a)
	}
	over := maxSubsample
	over++ // 2³¹ where int has 64 bits; negative where it has 32: refused either way
	for _, c := range []Config{{Subsample: -1}, {Subsample: over}, {Subsample: 10, Variant: VariantGBRFF1}, {Subsample: 10, ReoptimizePhase: true}} {
		if _, err := Fit(t.Context(), featmap.Dense(tr.N, tr.D, tr.X), tr.Y, c); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
}

// TestDefaultSubsample pins the default rule: none below 8192 rows, then
// whole chunks of 4096 rows up to half the rows and at most four, then n/20.
func TestDefaultSubsample(t *testing.T) {
	for _, c := range []struct{ n, m int }{
		{0, 0}, {8191, 0}, {8192, 4096}, {10000, 4096}, {16383, 4096}, {16384, 8192},
		{24576, 12288}, {31647, 12288}, {32768, 16384}, {100000, 16384}, {327680, 16384},
		{327700, 16385}, {1000000, 50000},
	} {
		if m := defaultSubsample(c.n); m != c.m {
			t.Errorf("defaultSubsample(%d) = %d, want %d", c.n, m, c.m)
		}
		if m := subsampleRule(Config{Variant: VariantGBRFF2}, c.n); m != c.m {
			t.Errorf("subsampleRule(default, %d) = %d, want %d", c.n, m, c.m)
		}
	}
}
