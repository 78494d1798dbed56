package prff_test

import (
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/prff"
)

func TestFitErrors(t *testing.T) {
	X, y := rings(20, 0, 0, 1, 1)
	with := func(i int, v float64) featmap.Matrix {
		d := append([]float64(nil), X.Data...)
		d[i] = v
		return featmap.Dense(X.Rows, X.Cols, d)
	}
	yWith := func(i int, v float64) []float64 {
		c := append([]float64(nil), y...)
		c[i] = v
		return c
	}
	three := yWith(5, 2)
	one := make([]float64, len(y))
	cases := []struct {
		name string
		X    featmap.Matrix
		y    []float64
		cfg  prff.Config
		want string
	}{
		{"NaN in X", with(7, math.NaN()), y, prff.Config{}, "prff: X[3, 1] is NaN: inputs must be finite"},
		{"Inf in X", with(0, math.Inf(-1)), y, prff.Config{}, "X[0, 0] is -Inf"},
		{"Inf in y", X, yWith(4, math.Inf(1)), prff.Config{}, "prff: y[4] is +Inf: targets must be finite"},
		{"NaN in y regression", X, yWith(2, math.NaN()), prff.Config{Task: learners.Regression}, "y[2] is NaN"},
		{"ragged y", X, y[:19], prff.Config{}, "prff: X has 20 rows but y has 19 values"},
		{"short data", featmap.Dense(20, 2, X.Data[:39]), y, prff.Config{}, "needs 40 elements, has 39"},
		{"bad stride", featmap.Matrix{Rows: 20, Cols: 2, Stride: 1, Data: X.Data}, y, prff.Config{}, "stride 1 is below its 2 columns"},
		{"huge stride", featmap.Matrix{Rows: 20, Cols: 2, Stride: math.MaxInt / 4, Data: X.Data}, y, prff.Config{}, "too large"},
		{"empty", featmap.Matrix{}, nil, prff.Config{}, "prff: X is 0×0: empty data"},
		{"no columns", featmap.Dense(3, 0, nil), []float64{1, 2, 3}, prff.Config{}, "empty data"},
		{"one class", X, one, prff.Config{}, "prff: labels: only one class (every label is 0)"},
		{"three classes", X, three, prff.Config{}, "more than two classes (0, 1 and 2, first at y[5])"},
		{"negative features", X, y, prff.Config{Features: -1}, "prff: Features = -1"},
		{"huge features", X, y, prff.Config{Features: prff.MaxFeatures + 1}, "Features = 65537, want 1..65536"},
		{"NaN gamma", X, y, prff.Config{Gamma: math.NaN()}, "prff: Gamma = NaN"},
		{"negative gamma", X, y, prff.Config{Gamma: -1}, "Gamma = -1"},
		{"Inf gamma", X, y, prff.Config{Gamma: math.Inf(1)}, "Gamma = +Inf"},
		{"negative lambda", X, y, prff.Config{Lambda: -1e-3}, "prff: Lambda = -0.001"},
		{"NaN lambda", X, y, prff.Config{Lambda: math.NaN()}, "Lambda = NaN"},
		{"unknown loss", X, y, prff.Config{Loss: "hinge"}, `prff: unknown Loss "hinge"`},
		{"logistic regression", X, y, prff.Config{Loss: prff.Logistic, Task: learners.Regression}, "logistic needs the binary task"},
		{"bad task", X, y, prff.Config{Task: 7}, "Task = Task(7)"},
		{"negative alpha", X, y, prff.Config{Alpha: -1}, "prff: Alpha = -1"},
		{"Inf alpha", X, y, prff.Config{Alpha: math.Inf(1)}, "Alpha = +Inf"},
		{"NaN freq lambda", X, y, prff.Config{FreqLambda: math.NaN()}, "prff: FreqLambda = NaN"},
		{"negative batch", X, y, prff.Config{Batch: -5}, "prff: Batch = -5, want 1..4096"},
		{"huge batch", X, y, prff.Config{Batch: prff.MaxBatch + 1}, "Batch = 4097"},
		{"negative iterations", X, y, prff.Config{MaxIter: -1}, "prff: MaxIter = -1"},
		{"negative tol", X, y, prff.Config{Tol: -1e-3}, "prff: Tol = -0.001"},
		{"coincident rows", featmap.Dense(20, 2, make([]float64, 40)), y, prff.Config{}, "bandwidth rule gives σ = 0"},
		{"one row", featmap.Dense(1, 2, []float64{1, 2}), []float64{3}, prff.Config{Task: learners.Regression}, "bandwidth rule needs at least 2 rows"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := prff.Fit(context.Background(), c.X, c.y, c.cfg)
			if err == nil || m != nil {
				t.Fatalf("got %v, %v; want error %q", m, err, c.want)
			}
			if !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "prff: ") {
				t.Fatalf("got %q, want %q", err, c.want)
			}
		})
	}
}

func TestProgressAndContext(t *testing.T) {
	X, y := rings(50, 0, 0, 1, 2)
	var events []learners.Event
	cfg := prff.Config{Features: 10, Progress: func(e learners.Event) error {
		events = append(events, e)
		return nil
	}}
	fit(t, X, y, cfg)
	// One event per learned feature (its final Gram loss), then the solve.
	if len(events) != 11 || events[10].Round != 11 || events[10].Rounds != 11 || events[0].Method != "prff" {
		t.Fatalf("events %+v", events)
	}
	for i, e := range events {
		if e.Round != i+1 || !(e.Loss > 0) || (i > 0 && e.Elapsed < events[i-1].Elapsed) {
			t.Errorf("event %d: %+v", i, e)
		}
	}

	stop := errors.New("enough")
	cfg.Progress = func(learners.Event) error { return stop }
	if _, err := prff.Fit(context.Background(), X, y, cfg); !errors.Is(err, stop) || !strings.Contains(err.Error(), "after round 1 of 11") {
		t.Errorf("stopping callback: %v", err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := prff.Fit(ctx, X, y, prff.Config{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	cfg.Progress = func(learners.Event) error { cancel(); return nil } // cancelled after feature 1
	if _, err := prff.Fit(ctx, X, y, cfg); !errors.Is(err, context.Canceled) {
		t.Errorf("context cancelled mid-fit: %v", err)
	}
}

func TestPredictBatchErrors(t *testing.T) {
	X, y := rings(30, 0, 0, 1, 3)
	m := fit(t, X, y, prff.Config{Features: 10})
	for _, c := range []struct {
		dst  []float64
		X    featmap.Matrix
		want string
	}{
		{make([]float64, 30), featmap.Dense(30, 3, make([]float64, 90)), "X has 3 columns, the model takes 2 inputs"},
		{make([]float64, 29), X, "len(dst) = 29, X has 30 rows"},
		{make([]float64, 30), featmap.Dense(30, 2, X.Data[:50]), "needs 60 elements, has 50"},
		{nil, featmap.Matrix{}, "empty data"},
	} {
		if err := m.PredictBatch(c.dst, c.X); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	X, y := rings(30, 0, 0, 1, 3)
	good, err := fit(t, X, y, prff.Config{Features: 10}).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	flipped := append([]byte(nil), good...)
	flipped[len(flipped)/2] ^= 1

	// Well-formed files with the wrong contents.
	rewrite := func(mod func(f *modelfile.File)) []byte {
		f, err := modelfile.Parse(good)
		if err != nil {
			t.Fatal(err)
		}
		mod(f)
		b, err := f.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	setArray := func(f *modelfile.File, name string, v []float64) {
		for i := range f.Arrays {
			if f.Arrays[i].Name == name {
				f.Arrays[i].Data = v
			}
		}
	}
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "truncated"},
		{"truncated", good[:len(good)-9], "truncated"},
		{"flipped", flipped, "checksum mismatch"},
		{"other method", rewrite(func(f *modelfile.File) { f.Header.Method = "gbrff" }), `a "gbrff" model, not "prff"`},
		{"newer", rewrite(func(f *modelfile.File) { f.Header.Version = 2 }), "model version 2 is newer"},
		{"bad config", rewrite(func(f *modelfile.File) { f.Header.Config = []byte(`{"Features":"many"}`) }), "config"},
		{"unresolved", rewrite(func(f *modelfile.File) { f.Header.Config = []byte(`{"Features":10}`) }), "unresolved defaults"},
		{"invalid config", rewrite(func(f *modelfile.File) {
			f.Header.Config = []byte(`{"Features":10,"Gamma":-1,"Lambda":1,"Loss":"ridge"}`)
		}), "Gamma = -1"},
		{"task mismatch", rewrite(func(f *modelfile.File) {
			f.Header.Config = []byte(`{"Features":10,"Gamma":1,"Alpha":1,"FreqLambda":1,"Batch":1,"MaxIter":1,"Tol":1,"Lambda":1,"Loss":"ridge","Task":"regression"}`)
		}), "config task regression, header task binary"},
		{"no losses", rewrite(func(f *modelfile.File) { f.Arrays = f.Arrays[:5] }), `no array "losses"`},
		{"NaN frequency", rewrite(func(f *modelfile.File) {
			w := make([]float64, 20)
			w[3] = math.NaN()
			setArray(f, "w", w)
		}), `array "w": element 3 is NaN`},
		{"short w", rewrite(func(f *modelfile.File) { setArray(f, "w", make([]float64, 19)) }), `array "w" has 19 elements, want 20`},
		{"no coef", rewrite(func(f *modelfile.File) { f.Arrays = f.Arrays[:4] }), `no array "coef"`},
		{"zero scale", rewrite(func(f *modelfile.File) { setArray(f, "scale", []float64{1, 0}) }), "scale[1] = 0"},
		{"no bias", rewrite(func(f *modelfile.File) { delete(f.Header.Meta, "bias") }), `no meta value "bias"`},
		{"more inputs", rewrite(func(f *modelfile.File) { f.Header.Inputs = 3 }), `array "mean" has 2 elements, want 3`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := prff.Load(c.data)
			if err == nil || m != nil {
				t.Fatalf("got %v, %v; want error %q", m, err, c.want)
			}
			if !errors.Is(err, modelfile.ErrCorrupt) || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "prff: ") {
				t.Fatalf("got %q, want ErrCorrupt and %q", err, c.want)
			}
		})
	}
	if _, err := new(prff.Model).MarshalBinary(); err == nil {
		t.Error("MarshalBinary of a zero Model succeeded")
	}
}

func FuzzUnmarshal(f *testing.F) {
	X, y := rings(20, 0, 0, 1, 4)
	good, err := fit(f, X, y, prff.Config{Features: 4}).MarshalBinary()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	for _, n := range []int{0, 8, 30, len(good) / 2, len(good) - 1} {
		f.Add(good[:n])
	}
	for _, i := range []int{10, 40, len(good) - 30} {
		c := append([]byte(nil), good...)
		c[i] ^= 0x10
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkLoad(t, data)
		if len(data) >= 4 { // fix the checksum to reach the contents
			body := data[:len(data)-4]
			checkLoad(t, binary.LittleEndian.AppendUint32(append([]byte(nil), body...), crc32.ChecksumIEEE(body)))
		}
	})
}

func checkLoad(t *testing.T, data []byte) {
	m, err := prff.Load(data)
	if err != nil {
		if m != nil || !errors.Is(err, modelfile.ErrCorrupt) {
			t.Fatalf("%v with model %v", err, m)
		}
		return
	}
	// A model that loads is usable and round-trips.
	x := make([]float64, m.NumInputs())
	m.Predict(x)
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := prff.Load(b); err != nil {
		t.Fatal(err)
	}
}

func TestLearnErrors(t *testing.T) {
	X, _ := rings(20, 0, 0, 1, 1)
	bad := append([]float64(nil), X.Data...)
	bad[5] = math.NaN()
	for _, c := range []struct {
		name string
		X    featmap.Matrix
		cfg  prff.Config
		want string
	}{
		{"NaN", featmap.Dense(20, 2, bad), prff.Config{}, "prff: X[2, 1] is NaN: inputs must be finite"},
		{"empty", featmap.Matrix{}, prff.Config{}, "prff: X is 0×0: empty data"},
		{"short", featmap.Dense(20, 2, X.Data[:30]), prff.Config{}, "needs 40 elements, has 30"},
		{"bad config", X, prff.Config{Features: -2}, "prff: Features = -2"},
		{"one row", featmap.Dense(1, 2, X.Data[:2]), prff.Config{}, "needs at least 2 rows"},
	} {
		m, err := prff.Learn(context.Background(), c.X, c.cfg)
		if err == nil || m != nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, %v; want %q", c.name, m, err, c.want)
		}
	}
	// One row is fine with an explicit γ.
	if m, err := prff.Learn(context.Background(), featmap.Dense(1, 2, X.Data[:2]), prff.Config{Features: 3, Gamma: 1}); err != nil || m.Features() != 3 {
		t.Errorf("one row with Gamma: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := prff.Learn(ctx, X, prff.Config{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
