package gbrff

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/rfkit/rfkit/learners/internal/kit"

	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/exploss"
	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/internal/xrand"
	"github.com/rfkit/rfkit/learners"
)

// Fit trains a GBRFF2 or GBRFF1 model (cfg.Variant) on the rows of X and
// their labels y, which must take exactly two distinct values (cfg.Task
// Binary), or their real targets y (cfg.Task Regression, regression.go). It checks ctx
// between rounds, reports each round to cfg.Progress, and is deterministic
// for a given cfg.Seed on every machine and for any GOMAXPROCS.
func Fit(ctx context.Context, X featmap.Matrix, y []float64, cfg Config) (*Model, error) {
	switch cfg.Task {
	case learners.Regression:
		return fitRegression(ctx, X, y, nil, cfg)
	case learners.Multiclass:
		return fitMulticlass(ctx, X, y, nil, cfg)
	}
	if err := kit.CheckFit(ctx, "gbrff", cfg, X, y); err != nil {
		return nil, err
	}
	signs, labels, err := learners.BinaryLabels(y)
	if err != nil {
		return nil, fmt.Errorf("gbrff: %w", err)
	}
	progress, stats, threads := cfg.Progress, cfg.Stats, int(cfg.Threads)
	c := cfg.resolved(X.Cols)
	// train nil: every row trains (no index slice of n ints)
	var train, val []int
	if c.Validation > 0 {
		train, val = dataset.StratifiedSplit(signs, c.Validation, c.Seed^0x5eed)
		if len(val) == 0 || len(train) < 2 {
			return nil, fmt.Errorf("gbrff: Validation = %v leaves %d training and %d validation rows", c.Validation, len(train), len(val))
		}
	}
	Xf, enc, raw, err := encodeInputs(c, X, train, threads)
	if err != nil {
		return nil, err
	}
	f, err := newFitter(c, Xf, signs, train, val, threads)
	if err != nil {
		return nil, err
	}
	if enc != nil {
		f.enc, f.raw = enc, raw
		f.st.InputCopies++
	}
	f.setThreads(threads)
	start := time.Now()
	best, bestLoss, since := 0, math.Inf(1), 0
	for t := 0; t < c.T; t++ {
		if err := ctxRound(ctx, t, c.T); err != nil {
			return nil, err
		}
		if err := f.runRound(t, f.round1, f.round2, progress, start, f.meanWeight); err != nil {
			return nil, err
		}
		if f.val == nil {
			best = t + 1
			continue
		}
		if f.valLoss < bestLoss {
			best, bestLoss, since = t+1, f.valLoss, 0
		} else if since++; since >= c.Patience {
			break
		}
	}
	if stats != nil {
		f.st.LBFGSIters = f.opt.iters
		*stats = f.st
	}
	m := f.model(best, labels)
	if cfg.Calibration == CalibrationNone {
		return m, nil
	}
	return calibrate(ctx, m, X, y, nil, cfg, rowCount(X, train), val)
}

// ctxRound is the check before round t of T: the context's error, if any,
// wrapped with the round.
func ctxRound(ctx context.Context, t, T int) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("gbrff: round %d of %d: %w", t+1, T, err)
	}
	return nil
}

// runRound runs round t, one for GBRFF1 and two for GBRFF2, counts it and
// reports it to progress with the training loss loss() after it.
func (f *fitter) runRound(t int, one, two func(int) error, progress learners.Progress, start time.Time, loss func() float64) error {
	run := two
	if f.c.Variant == VariantGBRFF1 {
		run = one
	}
	if err := run(t); err != nil {
		return fmt.Errorf("gbrff: round %d: %w", t+1, err)
	}
	f.st.Rounds++
	if err := kit.Report(progress, learners.Event{Method: f.c.Variant, Round: t + 1, Rounds: f.c.T, Loss: loss(), Elapsed: time.Since(start)}); err != nil {
		return fmt.Errorf("gbrff: %w", err)
	}
	return nil
}

// meanWeight is the training loss of a classification fit: the mean
// boosting weight Σw/n.
func (f *fitter) meanWeight() float64 { return f.sumW / float64(len(f.y)) }

func allRows(n int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	return idx
}

// rowCount is the number of rows of X that rows selects: every row when
// rows is nil.
func rowCount(X featmap.Matrix, rows []int) int {
	if rows == nil {
		return X.Rows
	}
	return len(rows)
}

// rowAt is the row index of the i-th row that rows selects: i itself when
// rows is nil (every row).
func rowAt(rows []int, i int) int {
	if rows == nil {
		return i
	}
	return rows[i]
}

// fitter holds the state of one Fit.
type fitter struct {
	c           Config
	d           int
	mean, scale []float64
	x           *exploss.Data
	y, yt, H, h []float64
	sumW        float64
	s, cs       []float64 // sin and cos of the current projection
	omega       []float64 // all frequencies, drawn up front
	opt         *optimizer
	lm          *exploss.Landmark // GBRFF1: reused across rounds (Reset)
	fs          *exploss.FreqStep // GBRFF2: made once (newSweeps)
	ph          *exploss.Phase    // GBRFF2: made once (newSweeps)
	// start holds the sines and cosines at ω⁰ of rounds t0 ≤ t < t0 + m
	// (round t's at s[(t−t0)·n:], c[(t−t0)·n:]), see startSincos; share is
	// the number of fitters that split startBlockBytes (0: 1).
	start struct {
		t0, m, share int
		s, c         []float64
	}

	// reuseSincos: a binary GBRFF2 fit without ReoptimizePhase, whose
	// rounds do not read f.s and f.cs after the phase search: the frequency
	// step keeps its projections there (exploss.FreqStep.UseProjections),
	// and f.h is the one of the two its result is not in (FreqStep.Spare),
	// so the fit holds neither the step's two n-vectors nor an f.h of its
	// own (hOwn, made only if a round's settle sweeps X).
	reuseSincos bool
	hOwn        []float64

	// sub, when set, is the per-round subsample of a binary GBRFF2 fit
	// (subsampleRule): its rounds run round2sub.
	sub *subsample

	// the expansion so far (see Model)
	h0      float64
	w, b, a [][]float64 // per term: w_j (len d); b and a as 1-element rows

	val     *validation
	valLoss float64

	startNorm float64 // GBRFF2: ‖ω⁰‖ of the current round (firstStep)

	// enc is the encoding of Config.Inputs "auto" (nil: the raw inputs),
	// raw the standardisation of the raw inputs it starts from.
	enc *encoding
	raw *dataset.Scaler

	st FitStats // work counts (Config.Stats)
	// threads is Config.Threads (0 = GOMAXPROCS): the goroutines the exploss
	// sweeps of this fit may use (set on f.x, the phase sweeps and the
	// weight sums). The results do not depend on it.
	threads int
}

// newFitter makes the fitter of the rows train of X (nil: every row) with
// the ±1 labels signs of every row of X (used, not copied, when every row
// trains).
func newFitter(c Config, X featmap.Matrix, signs []float64, train, val []int, threads int) (*fitter, error) {
	scaler, data, err := standardizedData(X, train, threads)
	if err != nil {
		return nil, fmt.Errorf("gbrff: %w", err)
	}
	n, d := rowCount(X, train), X.Cols
	f := &fitter{c: c, d: d, mean: scaler.Mean, scale: scaler.Scale, x: data,
		y: signs, yt: make([]float64, n), H: make([]float64, n)}
	if train != nil {
		f.y = make([]float64, n)
		for i, r := range train {
			f.y[i] = signs[r]
		}
	}
	var sum float64
	for _, v := range f.y {
		sum += v
	}
	ybar := sum / float64(n)
	// Both classes are in the training part, so |ȳ| < 1 and H⁰ is finite.
	f.h0 = 0.5 * xmath.Log((1+ybar)/(1-ybar))
	for i := range f.H {
		f.H[i] = f.h0
	}
	if m := subsampleRule(c, n); m > 0 {
		if f.sub = newSubsample(c, n, m); f.sub != nil {
			f.st.SubRows = len(f.sub.yt)
		}
	}
	if err := f.binaryVectors(); err != nil {
		return nil, err
	}
	f.st.InputCopies = 1 // standardizedData: exploss's layout, standardised on the way in
	if err := f.setupRounds(); err != nil {
		return nil, err
	}
	if len(val) > 0 {
		if f.val, err = newValidation(X, signs, val, scaler, f.h0); err != nil {
			return nil, err
		}
		f.valLoss = f.val.loss()
	}
	return f, nil
}

// binaryVectors makes f.s, f.cs and f.h (none of its own when
// f.reuseSincos) of a binary classification fit, f.y and f.H set, and sets
// the weights of H⁰.
func (f *fitter) binaryVectors() error {
	n := len(f.y)
	f.reuseSincos = f.c.Variant == VariantGBRFF2 && !f.c.ReoptimizePhase && f.sub == nil
	f.newSincos(n)
	h := f.s // zero until the first round: α = 0 adds nothing
	if !f.reuseSincos {
		f.h = make([]float64, n)
		h = f.h
	}
	var err error
	if f.sumW, err = exploss.Weights(f.yt, f.H, f.y, h, 0); err != nil {
		return fmt.Errorf("gbrff: %w", err)
	}
	return nil
}

// newSincos makes f.s and f.cs (len n): for GBRFF2, the first slots of the
// start block of round 0 (startSincos), which every later block reuses (none
// is larger), so the fit makes no other.
func (f *fitter) newSincos(n int) {
	m := 1
	if f.c.Variant == VariantGBRFF2 && f.sub == nil {
		m = f.blockRounds(0, n)
	}
	f.start.s, f.start.c = make([]float64, m*n), make([]float64, m*n)
	f.s, f.cs = f.start.s[:n:n], f.start.c[:n:n]
}

// drawFrequencies draws every round's frequencies up front, ω ~ N(0, 2γI)
// (K per round for GBRFF1; γ = γ_t of roundWidth when Config.GammaMin > 0),
// and makes the optimiser; every task's fit starts so.
func (f *fitter) drawFrequencies() {
	c, d := f.c, f.d
	per := c.termsPerRound()
	rng := rand.New(rand.NewPCG(c.Seed, 0x9b7ff))
	sd := math.Sqrt(2 * c.Gamma)
	f.omega = make([]float64, c.T*per*d)
	for i := range f.omega {
		if c.GammaMin > 0 && i%d == 0 {
			sd = roundWidth(c.GammaMin, c.Gamma, i/(per*d))
		}
		f.omega[i] = float64(xrand.Normal(rng) * sd)
	}
	f.opt = newOptimizer(d, c.Iterations)
}

// setupRounds draws every round's frequencies up front, ω ~ N(0, 2γI)
// (K per round for GBRFF1), and makes the optimiser and, for GBRFF2, the
// frequency-step and phase sweeps.
func (f *fitter) setupRounds() error {
	c := f.c
	f.drawFrequencies()
	if c.Variant == VariantGBRFF2 {
		f.opt.opt.FuncTol = freqFuncTol
		f.opt.opt.PredictedStop = true // why: the note after freqFuncTol (rounds.go)
		if c.GammaMin > 0 {
			f.opt.opt.FirstStep = f.firstStep // why: the note on firstStepRatio (rounds.go)
		}
		if err := f.newSweeps(); err != nil {
			return fmt.Errorf("gbrff: %w", err)
		}
	}
	return nil
}

// setThreads sets Config.Threads on the fit and its sweeps (the GBRFF1
// landmark sweep runs on f.x's goroutines).
func (f *fitter) setThreads(threads int) {
	f.threads = threads
	f.x.SetThreads(threads)
	if f.ph != nil {
		f.ph.SetThreads(threads)
	}
}

// step is the closed-form α for weak-learner outputs with Σw = sumW and
// Σ w·y·h = corr, shrunk by the learning rate.
func (f *fitter) step(corr float64) float64 {
	floor := 1e-10 * f.sumW
	A := math.Max(f.sumW+corr, floor)
	B := math.Max(f.sumW-corr, floor)
	return float64(0.5*xmath.Log(A/B)) * f.c.LearningRate
}

// addTerm appends a_j·cos(w_j·z + b_j) to the expansion.
func (f *fitter) addTerm(w []float64, b, a float64) {
	f.w = append(f.w, append([]float64(nil), w...))
	f.b = append(f.b, []float64{b})
	f.a = append(f.a, []float64{a})
}

// update applies the round's step to H, the weights and the validation set.
func (f *fitter) update(alpha float64) error {
	var err error
	if f.sumW, err = f.x.Weights(f.yt, f.H, f.y, f.h, alpha); err != nil {
		return err
	}
	f.st.Passes++
	return nil
}

// model builds the Model from the first `rounds` rounds.
func (f *fitter) model(rounds int, labels learners.Labels) *Model {
	J := rounds * f.c.termsPerRound()
	m := &body{cfg: f.c, h0: f.h0,
		w: make([]float64, f.d*J), b: make([]float64, J), a: make([]float64, J), rounds: rounds}
	for j := 0; j < J; j++ {
		for k := 0; k < f.d; k++ {
			m.w[k*J+j] = f.w[j][k]
		}
		m.b[j], m.a[j] = f.b[j][0], f.a[j][0]
	}
	if f.enc != nil {
		f.enc.mean, f.enc.scale = f.mean, f.scale
		m.enc = f.enc
		return newModel(m, labels, f.raw.Mean, f.raw.Scale)
	}
	return newModel(m, labels, f.mean, f.scale)
}

// encodeInputs chooses the encoding of c.Inputs "auto" on the rows train
// of X (nil: every row) and returns the encoded inputs of every row of X (before their
// standardisation, which the fit does as for raw inputs), the encoding and
// the standardisation of the raw inputs; X itself and a nil encoding when
// c.Inputs is raw or every input is kept as it is.
func encodeInputs(c Config, X featmap.Matrix, train []int, threads int) (featmap.Matrix, *encoding, *dataset.Scaler, error) {
	if c.Inputs != InputsAuto {
		return X, nil, nil, nil
	}
	raw, err := scalerOf(X, train)
	if err != nil {
		return X, nil, nil, fmt.Errorf("gbrff: %w", err)
	}
	enc := chooseEncoding(X, train, raw.Mean, raw.Scale)
	if enc == nil {
		return X, nil, nil, nil
	}
	if k := enc.inputs(); X.Rows > math.MaxInt/8/k {
		return X, nil, nil, fmt.Errorf("gbrff: %d rows × %d encoded inputs do not fit in memory (fit with Inputs %q)", X.Rows, k, InputsRaw)
	}
	return enc.encodeRows(X, raw.Mean, raw.Scale, threads), enc, raw, nil
}

// widthCycle is the number of kernel widths roundWidth cycles through.
const widthCycle = 7

// roundWidth is the standard deviation √(2γ_t) of round t's frequencies
// when the widths are spread (Config.GammaMin = lo > 0, Gamma = hi):
// γ_t = lo·(hi/lo)^u, u = (t mod 7 + ½)/7, so every 7 consecutive rounds
// try 7 widths log-spaced across [lo, hi]. Boosting keeps the rounds whose
// width suits the data: measured on the 16 binary sets of the GBRFF paper,
// ionosphere wants γ ≈ 0.1/d, spambase γ ≥ 1/d, and the spread
// [0.05, 0.5]/d fits both within 1.3 points of the better width
// (binaryDefaults).
func roundWidth(lo, hi float64, t int) float64 {
	u := (float64(t%widthCycle) + 0.5) / widthCycle
	// internal/xmath's exp and log, every product rounded on its own: the
	// same bits on every architecture (math.Pow's may differ).
	g := float64(lo * xmath.Exp(float64(u*xmath.Log(hi/lo))))
	return math.Sqrt(float64(2 * g))
}
