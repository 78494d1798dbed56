package gbrff

import (
	"fmt"
	"math"
	"slices"

	"github.com/rfkit/rfkit/learners/internal/kit"
	"github.com/rfkit/rfkit/learners/internal/par"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/asm"
	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/learners/internal/graph"
)

// The kinds of encoded input (encoding.kind).
const (
	encCopy  = iota // the standardised input z itself
	encLog          // sign(z)·ln(1 + |z|) of the standardised input
	encLevel        // 1 when the standardised input equals the level, else 0
)

// encodeRule chooses the encoding of Config.Inputs "auto" from the
// training rows: an input whose training values are all integers with
// MinLevels to MaxLevels distinct values is one-hot encoded (one 0/1 input
// per value); an input whose standardised training values reach beyond
// ±Tail (a value more than Tail standard deviations from the mean) gets the
// signed log of its standardised value; every other input is kept. On many
// rows Tail rises to tailOf(n): a light-tailed input is not taken for a
// heavy-tailed one because n draws reach far.
// Measured on the 16 binary sets of the GBRFF paper (5 splits, T = 300,
// widths over [γ/20, γ]): one-hot took splice (60 nucleotide codes 1…4)
// from 91.5 to 95.8 %; up to 10 values it cost australian 1.6 and german
// 1.4 points (ordinal codes of 8 and 5 values), up to 4 values it cost
// balance 0.9 (codes 1…5); the signed log took spambase from 93.2 to 93.8
// and bupa from 68.9 to 70.4 (occupancy unchanged). A rank transform
// helped spambase and sonar but cost ionosphere 1.3 and occupancy 1.0.
var encodeRule = struct {
	MinLevels, MaxLevels int
	Tail                 float64
}{MinLevels: 3, MaxLevels: 5, Tail: 5}

// encoding maps a standardised input row z (len d, the model's stored
// standardisation) to the dEnc inputs the boosting saw: encoded input q is
// made from raw input src[q] by kind[q], then standardised by mean[q] and
// scale[q] (the fit's standardisation of the encoded inputs). It is chosen
// on the training rows only and stored in the model (model format 5).
type encoding struct {
	src         []int
	kind        []int
	level       []float64 // encLevel: the standardised value of the level
	mean, scale []float64 // standardisation of the encoded inputs
}

// chooseEncoding applies encodeRule to the rows `rows` of X (nil: every
// row) standardised by mean and scale (asm.Standardize, the bits Predict
// computes). It returns nil when every input is kept as it is.
func chooseEncoding(X featmap.Matrix, rows []int, mean, scale []float64) *encoding {
	d := X.Cols
	type stat struct {
		integer  bool
		raw, lvl []float64 // distinct raw values and their standardised values, up to MaxLevels+1
		lo, hi   float64
	}
	st := make([]stat, d)
	for j := range st {
		st[j].integer, st[j].lo, st[j].hi = true, math.Inf(1), math.Inf(-1)
	}
	z := make([]float64, d)
	nr := rowCount(X, rows)
	for i := 0; i < nr; i++ {
		x := X.Row(rowAt(rows, i))
		asm.Standardize(z, x, mean, scale)
		for j, v := range x {
			s := &st[j]
			s.lo, s.hi = min(s.lo, z[j]), max(s.hi, z[j])
			if !s.integer {
				continue
			}
			if v != math.Trunc(v) {
				s.integer = false
				continue
			}
			if len(s.raw) <= encodeRule.MaxLevels && !slices.Contains(s.raw, v) {
				s.raw, s.lvl = append(s.raw, v), append(s.lvl, z[j])
			}
		}
	}
	tail := tailOf(nr)
	e := &encoding{}
	changed := false
	for j := range st {
		s := &st[j]
		switch {
		case s.integer && len(s.raw) >= encodeRule.MinLevels && len(s.raw) <= encodeRule.MaxLevels:
			// the levels in increasing raw order (standardising is
			// monotone, so the standardised ones too)
			slices.Sort(s.lvl)
			for _, l := range s.lvl {
				e.add(j, encLevel, l)
			}
			changed = true
		case s.hi > tail || s.lo < -tail:
			e.add(j, encLog, 0)
			changed = true
		default:
			e.add(j, encCopy, 0)
		}
	}
	if !changed {
		return nil
	}
	return e
}

// tailOf is the standardised value beyond which an input of n training
// rows counts as heavy-tailed: encodeRule.Tail, or, when larger, the value
// that n standard normal draws pass (in either direction) with probability
// 1 %. Without it the rule took Gaussian inputs for heavy-tailed ones on
// large sets (at n = 10⁶ a standard normal column passes ±5 with
// probability 0.43): a wrong encoding, and an extra n×d copy of the inputs
// (523 MB against 363 MB peak at n = 10⁶, d = 20). It is Tail up to
// n ≈ 1.7·10⁴ rows, 5.3 at 10⁵, 5.7 at 10⁶. math.Erfcinv is pure Go: the
// same bits on every architecture.
func tailOf(n int) float64 {
	return max(encodeRule.Tail, math.Sqrt2*math.Erfcinv(0.01/float64(max(n, 1))))
}

func (e *encoding) add(src, kind int, level float64) {
	e.src, e.kind, e.level = append(e.src, src), append(e.kind, kind), append(e.level, level)
}

// inputs is the number of encoded inputs.
func (e *encoding) inputs() int { return len(e.src) }

// values writes the encoded inputs of the standardised row z into v,
// before their standardisation. The signed log is internal/xmath's: the
// same bits on every architecture.
func (e *encoding) values(v, z []float64) {
	for q, j := range e.src {
		a := z[j]
		switch e.kind[q] {
		case encCopy:
			v[q] = a
		case encLog:
			v[q] = math.Copysign(xmath.Log1p(math.Abs(a)), a)
		default:
			v[q] = 0
			if a == e.level[q] {
				v[q] = 1
			}
		}
	}
}

// apply writes the standardised encoded inputs of the standardised row z
// into out, using v (len inputs()) as scratch: the bits the fit trained on.
func (e *encoding) apply(out, v, z []float64) {
	e.values(v, z)
	asm.Standardize(out, v, e.mean, e.scale)
}

// encodeRows returns the encoded inputs (before their standardisation) of
// every row of X standardised by mean and scale: a dense n×inputs() copy,
// made on up to threads goroutines (Config.Threads; each row's values are
// the same bits on any of them), encodeTask rows at a time.
func (e *encoding) encodeRows(X featmap.Matrix, mean, scale []float64, threads int) featmap.Matrix {
	dEnc := e.inputs()
	out := make([]float64, X.Rows*dEnc)
	tasks := (X.Rows + encodeTask - 1) / encodeTask
	par.Each(threads, tasks, false, func() []float64 { return make([]float64, X.Cols) }, nil, func(t int, z []float64) {
		for i := t * encodeTask; i < min((t+1)*encodeTask, X.Rows); i++ {
			asm.Standardize(z, X.Row(i), mean, scale)
			e.values(out[i*dEnc:(i+1)*dEnc], z)
		}
	})
	return featmap.Dense(X.Rows, dEnc, out)
}

// encodeTask is the rows of one task of encodeRows: at n = 10⁶, d = 20 the
// copy was 0.12 of a one-core default fit's 2.7 CPU-s, then serial.
const encodeTask = 4096

// graph is the encoding as an exporter's graph describes it (nil for no
// encoding): the kinds map one to one (encCopy, encLog, encLevel).
func (e *encoding) graph() *graph.Encoding {
	if e == nil {
		return nil
	}
	g := &graph.Encoding{Src: e.src, Kind: make([]graph.EncKind, len(e.kind)), Level: e.level, Mean: e.mean, Scale: e.scale}
	for q, k := range e.kind {
		g.Kind[q] = [...]graph.EncKind{encCopy: graph.EncCopy, encLog: graph.EncLog, encLevel: graph.EncLevel}[k]
	}
	return g
}

// encWork is the scratch of an encoded model's Score (body.NewWork).
type encWork struct{ v, e []float64 }

// check reports an encoding that a model file cannot hold: d raw inputs.
func (e *encoding) check(d int) error {
	for q, j := range e.src {
		switch {
		case j < 0 || j >= d:
			return fmt.Errorf("encoded input %d reads input %d of %d", q, j, d)
		case e.kind[q] < encCopy || e.kind[q] > encLevel:
			return fmt.Errorf("encoded input %d has kind %d", q, e.kind[q])
		case !xmath.Finite(e.level[q]) || !xmath.Finite(e.mean[q]):
			return fmt.Errorf("encoded input %d: level %v, mean %v", q, e.level[q], e.mean[q])
		case !(e.scale[q] > 0) || !xmath.Finite(e.scale[q]):
			return fmt.Errorf("encoded input %d: scale %v, want > 0", q, e.scale[q])
		}
	}
	return nil
}

// encArrays are the names of an encoding's arrays in a model file.
var encArrays = [5]string{"enc_src", "enc_kind", "enc_level", "enc_mean", "enc_scale"}

// encode writes the encoding into a model file (format 5).
func (e *encoding) encode(enc *kit.Encoder) {
	src, kind := make([]float64, len(e.src)), make([]float64, len(e.kind))
	for q := range src {
		src[q], kind[q] = float64(e.src[q]), float64(e.kind[q])
	}
	enc.Meta("encoded", float64(len(e.src)))
	for i, v := range [][]float64{src, kind, e.level, e.mean, e.scale} {
		enc.Array(encArrays[i], v)
	}
}

// decodeEncoding reads the encoding of a model of d raw inputs.
func decodeEncoding(dec *kit.Decoder, d int) (*encoding, error) {
	k := dec.Meta("encoded")
	if err := dec.Err(); err != nil {
		return nil, err
	}
	if k != math.Trunc(k) || k < 1 || k > float64(d)*float64(encodeRule.MaxLevels) {
		return nil, fmt.Errorf("%v encoded inputs for %d inputs", k, d)
	}
	n := int(k)
	var a [5][]float64
	for i, name := range encArrays {
		a[i] = dec.Array(name, n)
	}
	if err := dec.Err(); err != nil {
		return nil, err
	}
	e := &encoding{src: make([]int, n), kind: make([]int, n), level: a[2], mean: a[3], scale: a[4]}
	for q := range e.src {
		s, kd := a[0][q], a[1][q]
		if s != math.Trunc(s) || s < 0 || s >= float64(d) || kd != math.Trunc(kd) || kd < encCopy || kd > encLevel {
			return nil, fmt.Errorf("encoded input %d: input %v, kind %v", q, s, kd)
		}
		e.src[q], e.kind[q] = int(s), int(kd)
	}
	if err := e.check(d); err != nil {
		return nil, err
	}
	return e, nil
}
