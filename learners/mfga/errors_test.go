package mfga_test

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
	"github.com/rfkit/rfkit/learners/mfga"
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
		cfg  mfga.Config
		want string
	}{
		{"NaN in X", with(7, math.NaN()), y, mfga.Config{}, "mfga: X[3, 1] is NaN: inputs must be finite"},
		{"Inf in X", with(0, math.Inf(-1)), y, mfga.Config{}, "X[0, 0] is -Inf"},
		{"Inf in y", X, yWith(4, math.Inf(1)), mfga.Config{}, "mfga: y[4] is +Inf: targets must be finite"},
		{"NaN in y regression", X, yWith(2, math.NaN()), mfga.Config{Task: learners.Regression}, "y[2] is NaN"},
		{"ragged y", X, y[:19], mfga.Config{}, "mfga: X has 20 rows but y has 19 values"},
		{"short data", featmap.Dense(20, 2, X.Data[:39]), y, mfga.Config{}, "needs 40 elements, has 39"},
		{"bad stride", featmap.Matrix{Rows: 20, Cols: 2, Stride: 1, Data: X.Data}, y, mfga.Config{}, "stride 1 is below its 2 columns"},
		{"huge stride", featmap.Matrix{Rows: 20, Cols: 2, Stride: math.MaxInt / 4, Data: X.Data}, y, mfga.Config{}, "too large"},
		{"empty", featmap.Matrix{}, nil, mfga.Config{}, "mfga: X is 0×0: empty data"},
		{"no columns", featmap.Dense(3, 0, nil), []float64{1, 2, 3}, mfga.Config{}, "empty data"},
		{"one class", X, one, mfga.Config{}, "mfga: labels: only one class (every label is 0)"},
		{"three classes", X, three, mfga.Config{}, "more than two classes (0, 1 and 2, first at y[5])"},
		{"negative features", X, y, mfga.Config{Features: -1}, "mfga: Features = -1"},
		{"huge features", X, y, mfga.Config{Features: mfga.MaxFeatures + 1}, "Features = 16385, want 1..16384"},
		{"negative perstep", X, y, mfga.Config{PerStep: -2}, "mfga: PerStep = -2"},
		{"degree 3", X, y, mfga.Config{Degree: 3}, "mfga: Degree = 3, want 1 or 2"},
		{"NaN sigma", X, y, mfga.Config{Sigma: math.NaN()}, "mfga: Sigma = NaN"},
		{"negative sigma", X, y, mfga.Config{Sigma: -1}, "Sigma = -1"},
		{"Inf sigma", X, y, mfga.Config{Sigma: math.Inf(1)}, "Sigma = +Inf"},
		{"negative lambda", X, y, mfga.Config{Lambda: -1e-3}, "mfga: Lambda = -0.001"},
		{"NaN lambda", X, y, mfga.Config{Lambda: math.NaN()}, "Lambda = NaN"},
		{"NaN tol", X, y, mfga.Config{Tol: math.NaN()}, "mfga: Tol = NaN"},
		{"huge dictionary", featmap.Dense(1, 5000, make([]float64, 5000)), []float64{1}, mfga.Config{Task: learners.Regression}, "more than 4194304 degree-2 candidates"},
		{"bad task", X, y, mfga.Config{Task: 7}, "Task = Task(7)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := mfga.Fit(context.Background(), c.X, c.y, c.cfg)
			if err == nil || m != nil {
				t.Fatalf("got %v, %v; want error %q", m, err, c.want)
			}
			if !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "mfga: ") {
				t.Fatalf("got %q, want %q", err, c.want)
			}
		})
	}
}

func TestProgressAndContext(t *testing.T) {
	X, y := rings(50, 0, 0, 1, 2)
	var events []learners.Event
	cfg := mfga.Config{Features: 10, PerStep: 1, Tol: -1, Progress: func(e learners.Event) error {
		events = append(events, e)
		return nil
	}}
	fit(t, X, y, cfg)
	// Two inputs: M₀ = 5 candidates, so 5 steps of one feature.
	if len(events) != 5 || events[0].Round != 1 || events[4].Round != 5 || events[4].Rounds != 5 ||
		events[0].Method != "mfga" || !(events[4].Loss > 0) || events[4].Elapsed < events[0].Elapsed {
		t.Errorf("events %+v", events)
	}

	stop := errors.New("enough")
	cfg.Progress = func(learners.Event) error { return stop }
	cfg.Features = 0
	if _, err := mfga.Fit(context.Background(), X, y, cfg); !errors.Is(err, stop) || !strings.Contains(err.Error(), "after round 1 of 5") {
		t.Errorf("stopping callback: %v", err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := mfga.Fit(ctx, X, y, mfga.Config{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	cfg.Progress = func(learners.Event) error { cancel(); return nil } // cancelled during round 1
	if _, err := mfga.Fit(ctx, X, y, cfg); !errors.Is(err, context.Canceled) {
		t.Errorf("context cancelled mid-fit: %v", err)
	}
}

func TestPredictBatchErrors(t *testing.T) {
	X, y := rings(30, 0, 0, 1, 3)
	m := fit(t, X, y, mfga.Config{Features: 3})
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
	good, err := fit(t, X, y, mfga.Config{Features: 3, Tol: -1}).MarshalBinary()
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
		{"other method", rewrite(func(f *modelfile.File) { f.Header.Method = "gbrff" }), `a "gbrff" model, not "mfga"`},
		{"newer", rewrite(func(f *modelfile.File) { f.Header.Version = 2 }), "model version 2 is newer"},
		{"bad config", rewrite(func(f *modelfile.File) { f.Header.Config = []byte(`{"Features":"many"}`) }), "config"},
		{"unresolved", rewrite(func(f *modelfile.File) { f.Header.Config = []byte(`{"Features":10}`) }), "unresolved defaults"},
		{"invalid config", rewrite(func(f *modelfile.File) {
			f.Header.Config = []byte(`{"Features":10,"PerStep":1,"Degree":1,"Sigma":-1,"Lambda":1,"Tol":1}`)
		}), "Sigma = -1"},
		{"task mismatch", rewrite(func(f *modelfile.File) {
			f.Header.Config = []byte(`{"Features":10,"PerStep":1,"Degree":1,"Sigma":1,"Lambda":1,"Tol":1,"Task":"regression"}`)
		}), "config task regression, header task binary"},
		{"short coef", rewrite(func(f *modelfile.File) { setArray(f, "coef", make([]float64, 2)) }), `array "coef" has 2 elements, want 3`},
		{"no coef", rewrite(func(f *modelfile.File) { f.Arrays = f.Arrays[:3] }), `no array "coef"`},
		{"zero scale", rewrite(func(f *modelfile.File) { setArray(f, "scale", []float64{1, 0}) }), "scale[1] = 0"},
		{"no bias", rewrite(func(f *modelfile.File) { delete(f.Header.Meta, "bias") }), `no meta value "bias"`},
		{"no selected", rewrite(func(f *modelfile.File) { delete(f.Header.Meta, "selected") }), `no meta value "selected"`},
		{"too many selected", rewrite(func(f *modelfile.File) { f.Header.Meta["selected"] = 11 }), "selected = 11, want an integer in 0..3"},
		{"fractional selected", rewrite(func(f *modelfile.File) { f.Header.Meta["selected"] = 1.5 }), "selected = 1.5"},
		{"bad index", rewrite(func(f *modelfile.File) { setArray(f, "index", []float64{0, 5, 1}) }), "index[1] = 5, want an integer in 0..4"},
		{"negative index", rewrite(func(f *modelfile.File) { setArray(f, "index", []float64{0, -1, 1}) }), "index[1] = -1"},
		{"long risk", rewrite(func(f *modelfile.File) { setArray(f, "risk", make([]float64, 5)) }), "risk path has 5 values, want 1..4"},
		{"more inputs", rewrite(func(f *modelfile.File) { f.Header.Inputs = 3 }), `array "mean" has 2 elements, want 3`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := mfga.Load(c.data)
			if err == nil || m != nil {
				t.Fatalf("got %v, %v; want error %q", m, err, c.want)
			}
			if !errors.Is(err, modelfile.ErrCorrupt) || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "mfga: ") {
				t.Fatalf("got %q, want ErrCorrupt and %q", err, c.want)
			}
		})
	}
	if _, err := new(mfga.Model).MarshalBinary(); err == nil {
		t.Error("MarshalBinary of a zero Model succeeded")
	}
}

func FuzzUnmarshal(f *testing.F) {
	X, y := rings(20, 0, 0, 1, 4)
	good, err := fit(f, X, y, mfga.Config{Features: 3}).MarshalBinary()
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
	m, err := mfga.Load(data)
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
	if _, err := mfga.Load(b); err != nil {
		t.Fatal(err)
	}
}
