package gbrff

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rfkit/rfkit/dataset/synth"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/exploss"
	"github.com/rfkit/rfkit/internal/solvers"
	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/prep"
)

// TestStandardizedDataMatchesPrep: the one-copy standardisation of Fit gives
// the scaler and data bits of the generic path (prep.Rows, prep.Standardize,
// exploss.NewData) on a subset of rows in shuffled order, with a constant
// column and a strided matrix.
func TestStandardizedDataMatchesPrep(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 5))
	n, d, stride := 777, 6, 9
	data := make([]float64, n*stride)
	for i := range data {
		data[i] = r.NormFloat64()*3 + 1
	}
	for i := 0; i < n; i++ {
		data[i*stride+2] = 5 // constant column
	}
	X := featmap.Matrix{Rows: n, Cols: d, Stride: stride, Data: data}
	rows := r.Perm(n)[:500]
	sc, x, err := standardizedData(X, rows, 0)
	if err != nil {
		t.Fatal(err)
	}
	wantSc, Z, err := prep.Standardize(prep.Rows(X, rows))
	if err != nil {
		t.Fatal(err)
	}
	want, err := exploss.NewData(Z, len(rows), d, d)
	if err != nil {
		t.Fatal(err)
	}
	bits := func(v []float64) []uint64 {
		out := make([]uint64, len(v))
		for i, f := range v {
			out[i] = math.Float64bits(f)
		}
		return out
	}
	if !slices.Equal(bits(sc.Mean), bits(wantSc.Mean)) || !slices.Equal(bits(sc.Scale), bits(wantSc.Scale)) {
		t.Fatalf("scaler %v %v, want %v %v", sc.Mean, sc.Scale, wantSc.Mean, wantSc.Scale)
	}
	if x.N != want.N || x.D != want.D {
		t.Fatalf("standardised data %d×%d, want %d×%d", x.N, x.D, want.N, want.D)
	}
	for i := 0; i < x.N; i++ {
		for k := 0; k < x.D; k++ {
			if math.Float64bits(x.At(i, k)) != math.Float64bits(want.At(i, k)) {
				t.Fatalf("standardised input %d of row %d is %v, want %v (prep.Standardize + exploss.NewData)", k, i, x.At(i, k), want.At(i, k))
			}
		}
	}
}

// TestFitStats: Config.Stats receives the work of the fit, consistent with
// how a GBRFF2 round is built (its sines and cosines at ω⁰, one sweep
// over X for a block of up to startBlock rounds; the phase
// evaluations, the frequency-step evaluations, one pass at ω over the
// stored projections for sincos and correlation — or a sincos pass over X
// and a correlation pass — and the weight update), and the stats pointer
// does not change the model.
func TestFitStats(t *testing.T) {
	tr := must(synth.Checkerboard(600, 0.05, 5))
	var st FitStats
	m := fit(t, tr, Config{T: 11, Seed: 3, Stats: &st})
	if !bytes.Equal(marshal(t, m), marshal(t, fit(t, tr, Config{T: 11, Seed: 3}))) {
		t.Fatal("Stats changed the model")
	}
	if st.Rounds != 11 || st.FreqEvals < st.Rounds || st.PhaseEvals < 8*st.Rounds || st.LBFGSIters < 1 || st.InputCopies < 1 {
		t.Fatalf("implausible stats %+v", st)
	}
	// The sincos at the ω L-BFGS returns reads X only when that ω is
	// neither the last evaluated point nor the best one (SettleXPasses).
	// The sincos at ω⁰ of up to startBlock rounds is one sweep over X.
	if want := (st.Rounds + startBlock - 1) / startBlock; st.StartXPasses != want {
		t.Errorf("StartXPasses %d for %d rounds, want %d", st.StartXPasses, st.Rounds, want)
	}
	if st.XPasses != st.StartXPasses+st.FreqEvals+st.SettleXPasses {
		t.Errorf("XPasses %d, want %d start sweeps + %d frequency evaluations + %d settle sweeps", st.XPasses, st.StartXPasses, st.FreqEvals, st.SettleXPasses)
	}
	if st.SettleXPasses > st.Rounds/2 {
		t.Errorf("%d of %d rounds swept X to settle: the stored projections are not used", st.SettleXPasses, st.Rounds)
	}
	// The settle from stored projections is one pass (sincos and
	// correlation fused), the fallback an X pass and a correlation pass.
	if st.Passes != st.XPasses+st.PhasePasses+2*st.Rounds {
		t.Errorf("Passes %d, want X passes %d + phase passes %d + 2 per round", st.Passes, st.XPasses, st.PhasePasses)
	}
	// One pass for the 8-point grid, then one per Hermite step of the two
	// brackets (each pass one or two phases).
	if st.PhasePasses < st.Rounds || st.PhasePasses > (1+hermiteSteps)*st.Rounds || st.PhaseEvals > (8+2*hermiteSteps)*st.Rounds || st.PhaseEvals > 8*st.Rounds+2*(st.PhasePasses-st.Rounds) {
		t.Errorf("PhasePasses %d for %d phase evaluations in %d rounds", st.PhasePasses, st.PhaseEvals, st.Rounds)
	}
	var st1 FitStats
	fit(t, tr, Config{Variant: VariantGBRFF1, T: 3, K: 4, Seed: 3, Stats: &st1})
	if st1.Rounds != 3 || st1.XPasses != 3*4 || st1.Passes <= st1.XPasses {
		t.Errorf("gbrff1 stats %+v: want 3 rounds of K = 4 sincos passes each", st1)
	}
}

// TestThreads: Threads is a property of the run, not of the model: any value
// gives the same bytes, and the fitted model's Config has it at 0. 9000 rows
// are three exploss chunks, so the sweeps really are split between workers.
func TestThreads(t *testing.T) {
	tr := must(synth.Checkerboard(9000, 0.05, 5))
	want := marshal(t, fit(t, tr, Config{T: 3, Seed: 1}))
	for _, th := range []int{1, 2, 5} {
		m := fit(t, tr, Config{T: 3, Seed: 1, Threads: learners.Threads(th)})
		if !bytes.Equal(marshal(t, m), want) {
			t.Errorf("Threads %d: model bytes differ", th)
		}
		if m.Config().Threads != 0 {
			t.Errorf("Threads %d stored in the model config", th)
		}
	}
}

// TestPhaseSearchGlobal: in every round of GBRFF2 fits at three kernel widths
// the phase search of Fit (an 8-point grid, Hermite steps in two brackets
// until the next moves b by ≤ 1e-2) reaches the minimum that a 256-point
// grid refining 8 brackets finds, to 1e-4 relative (f(b) − f(b*) ≈
// ½f″(b − b*)²: up to 3e-5 was seen in these 225 searches; another local
// minimum is off by far more).
func TestPhaseSearchGlobal(t *testing.T) {
	tr := must(synth.Checkerboard(800, 0.05, 5))
	for _, g := range []float64{0.25, 1, 4} {
		c := Config{T: 25, Gamma: g / float64(tr.D), Seed: 2}.resolved(tr.D)
		signs, _, err := learners.BinaryLabels(tr.Y)
		if err != nil {
			t.Fatal(err)
		}
		f, err := newFitter(c, featmap.Dense(tr.N, tr.D, tr.X), signs, allRows(tr.N), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for r := 0; r < c.T; r++ {
			if err := f.x.Sincos(f.s, f.cs, f.omega[r*f.d:(r+1)*f.d]); err != nil {
				t.Fatal(err)
			}
			b, err := f.phase()
			if err != nil {
				t.Fatal(err)
			}
			ph, err := exploss.NewPhase(f.cs, f.s, f.yt)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := ph.Eval(b)
			_, ref := solvers.MinimizeCircle(ph.Eval, solvers.CircleOptions{GridPoints: 256, Candidates: 8})
			if got > ref*(1+1e-4) {
				t.Errorf("γ = %v/d, round %d: phase search f(%v) = %v, the fine search found %v", g, r, b, got, ref)
			}
			if err := f.round2(r); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestStartBlock: the sines and cosines at ω⁰ computed for a block of
// rounds in one sweep (SincosMany) give the model bytes of one sweep per
// round (a block of 1, when the memory bound forbids more), for a
// classification fit, a weighted one, one stopped early by validation, and
// regression (weighted, with candidate frequencies) and multiclass fits.
func TestStartBlock(t *testing.T) {
	tr := must(synth.Checkerboard(5000, 0.05, 5))
	X := featmap.Dense(tr.N, tr.D, tr.X)
	w := make([]float64, tr.N)
	for i := range w {
		w[i] = float64(1 + i%3)
	}
	for _, tc := range []struct {
		name string
		c    Config
		w    []float64
	}{
		{"plain", Config{T: 19, Seed: 2}, nil},
		{"weighted", Config{T: 10, Seed: 4}, w},
		{"validation", Config{T: 30, Seed: 5, Validation: 0.3, Patience: 2}, nil},
		{"regression", Config{Task: learners.Regression, T: 12, Seed: 6}, nil},
		{"regression-candidates", Config{Task: learners.Regression, T: 9, Seed: 7, Candidates: 3}, w},
		{"multiclass", Config{Task: learners.Multiclass, T: 10, Seed: 8}, nil},
	} {
		y := tr.Y
		switch tc.c.Task {
		case learners.Regression:
			y = make([]float64, tr.N)
			for i := range y {
				y[i] = tr.X[i*tr.D] + 2*tr.Y[i]
			}
		case learners.Multiclass:
			y = make([]float64, tr.N)
			for i := range y {
				y[i] = float64(i % 3)
				if tr.Y[i] > 0 && tr.X[i*tr.D] > 0 {
					y[i] = 3
				}
			}
		}
		run := func(bytesLimit int) ([]byte, FitStats) {
			defer func(v int) { startBlockBytes = v }(startBlockBytes)
			startBlockBytes = bytesLimit
			var st FitStats
			c := tc.c
			c.Stats = &st
			c.Calibration = CalibrationNone
			var m *Model
			var err error
			if tc.w != nil {
				m, err = FitWeighted(context.Background(), X, y, tc.w, c)
			} else {
				m, err = Fit(context.Background(), X, y, c)
			}
			if err != nil {
				t.Fatal(err)
			}
			return marshal(t, m), st
		}
		one, st1 := run(0)
		blk, st8 := run(1 << 30)
		if !bytes.Equal(one, blk) {
			t.Errorf("%s: blocks of %d rounds changed the model bytes", tc.name, startBlock)
		}
		if tc.c.Task != learners.Binary {
			continue // no FitStats off binary classification
		}
		if st1.StartXPasses != st1.Rounds || st8.StartXPasses != (st8.Rounds+startBlock-1)/startBlock && tc.c.Validation == 0 {
			t.Errorf("%s: %d and %d start sweeps for %d rounds", tc.name, st1.StartXPasses, st8.StartXPasses, st8.Rounds)
		}
	}
}

// TestSettleShared: in a binary GBRFF2 fit, whose frequency step keeps its
// projections in the round's f.s and f.cs (fitter.reuseSincos), settle
// gives the bits of a sweep over X followed by WeightedCorrelation both at an
// evaluated ω (f.h then the buffer of the other evaluation) and at one
// the step did not evaluate (f.h a buffer of its own, f.s and f.cs the
// sines and cosines at ω).
func TestSettleShared(t *testing.T) {
	tr := must(synth.Checkerboard(5000, 0.05, 5))
	c := Config{T: 5, Seed: 2}.resolved(tr.D)
	signs, _, err := learners.BinaryLabels(tr.Y)
	if err != nil {
		t.Fatal(err)
	}
	f, err := newFitter(c, featmap.Dense(tr.N, tr.D, tr.X), signs, nil, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !f.reuseSincos || f.h != nil {
		t.Fatalf("binary GBRFF2 fitter: reuseSincos %v, own h %v", f.reuseSincos, f.h != nil)
	}
	n, d := tr.N, f.d
	s, cs, h := make([]float64, n), make([]float64, n), make([]float64, n)
	check := func(what string, w []float64, b, corr float64) {
		t.Helper()
		if err := f.x.Sincos(s, cs, w); err != nil {
			t.Fatal(err)
		}
		sb, cb := xmath.Sincos(b)
		want, err := f.x.WeightedCorrelation(h, f.yt, cs, s, []float64{cb}, []float64{sb})
		if err != nil {
			t.Fatal(err)
		}
		if math.Float64bits(corr) != math.Float64bits(want) || !slices.Equal(f.h, h) {
			t.Fatalf("%s: correlation %v or h differ from the sweep's (%v)", what, corr, want)
		}
	}
	for round, evaluated := range []bool{true, false} {
		if err := f.startSincos(round); err != nil {
			t.Fatal(err)
		}
		b, err := f.phase()
		if err != nil {
			t.Fatal(err)
		}
		if err := f.fs.UseProjections(f.s, f.cs); err != nil {
			t.Fatal(err)
		}
		w0 := f.omega[round*d : (round+1)*d]
		w1 := slices.Clone(w0)
		w1[0] += 0.3
		g := make([]float64, d)
		for _, w := range [][]float64{w0, w1} {
			if _, err := f.fs.Eval(w, b, c.Lambda, g); err != nil {
				t.Fatal(err)
			}
		}
		w := w0
		if !evaluated {
			w = slices.Clone(w0)
			w[1] -= 0.2
		}
		xp := f.st.SettleXPasses
		b2, corr, err := f.settle(w, b)
		if err != nil || b2 != b {
			t.Fatalf("settle: b %v → %v, %v", b, b2, err)
		}
		if swept := f.st.SettleXPasses > xp; swept == evaluated {
			t.Fatalf("evaluated ω %v: settle swept X %v", evaluated, swept)
		}
		check(fmt.Sprintf("evaluated ω %v", evaluated), w, b, corr)
		if evaluated && (f.hOwn != nil || &f.h[0] != &f.s[0] && &f.h[0] != &f.cs[0]) {
			t.Fatal("settle at an evaluated ω: h is not the other evaluation's buffer")
		}
		if !evaluated {
			if &f.h[0] != &f.hOwn[0] || !slices.Equal(f.s, s) || !slices.Equal(f.cs, cs) {
				t.Fatal("settle at another ω: h not a buffer of its own, or f.s, f.cs not the sines and cosines at ω")
			}
		}
		if err := f.update(f.step(corr)); err != nil {
			t.Fatal(err)
		}
	}
}
