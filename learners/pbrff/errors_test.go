package pbrff

import (
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/rfkit/rfkit/datasets/synth"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners"
)

func TestFitErrors(t *testing.T) {
	s := must(synth.Moons(20, 0.1, 1))
	X, y := dense(s), s.Y
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
	one := make([]float64, len(y))
	cases := []struct {
		name string
		X    featmap.Matrix
		y    []float64
		cfg  Config
		want string
	}{
		{"NaN in X", with(7, math.NaN()), y, Config{}, "pbrff: X[3, 1] is NaN: inputs must be finite"},
		{"Inf in X", with(0, math.Inf(-1)), y, Config{}, "X[0, 0] is -Inf"},
		{"NaN in y", X, yWith(2, math.NaN()), Config{}, "pbrff: y[2] is NaN: targets must be finite"},
		{"Inf in y", X, yWith(4, math.Inf(1)), Config{}, "y[4] is +Inf"},
		{"short y", X, y[:19], Config{}, "pbrff: X has 20 rows but y has 19 values"},
		{"short data", featmap.Dense(20, 2, X.Data[:39]), y, Config{}, "needs 40 elements, has 39"},
		{"bad stride", featmap.Matrix{Rows: 20, Cols: 2, Stride: 1, Data: X.Data}, y, Config{}, "stride 1 is below its 2 columns"},
		{"huge stride", featmap.Matrix{Rows: 20, Cols: 2, Stride: math.MaxInt / 4, Data: X.Data}, y, Config{}, "too large"},
		{"empty", featmap.Matrix{}, nil, Config{}, "pbrff: X is 0×0: empty data"},
		{"no columns", featmap.Dense(3, 0, nil), []float64{1, 2, 3}, Config{}, "empty data"},
		{"one class", X, one, Config{}, "pbrff: labels: only one class (every label is 0)"},
		{"three classes", X, yWith(5, 2), Config{}, "more than two classes (-1, 1 and 2, first at y[5])"},
		{"negative landmarks", X, y, Config{Landmarks: -1}, "pbrff: Landmarks = -1, want 1..65536"},
		{"huge landmarks", X, y, Config{Landmarks: MaxLandmarks + 1}, "Landmarks = 65537"},
		{"negative K", X, y, Config{K: -3}, "pbrff: K = -3, want 1..4096"},
		{"huge K", X, y, Config{K: MaxK + 1}, "K = 4097"},
		{"too many frequencies", X, y, Config{Landmarks: 4096, K: 4096}, "Landmarks·K = 4096·4096 = 16777216 random frequencies, want at most 1048576"},
		{"NaN gamma", X, y, Config{Gamma: math.NaN()}, "pbrff: Gamma = NaN"},
		{"negative gamma", X, y, Config{Gamma: -1}, "Gamma = -1, want a finite γ > 0"},
		{"Inf gamma", X, y, Config{Gamma: math.Inf(1)}, "Gamma = +Inf"},
		{"negative beta", X, y, Config{Beta: -0.5}, "pbrff: Beta = -0.5, want a finite β > 0"},
		{"Inf beta", X, y, Config{Beta: math.Inf(1)}, "Beta = +Inf"},
		{"negative C", X, y, Config{C: -1}, "pbrff: C = -1, want a finite C > 0"},
		{"NaN C", X, y, Config{C: math.NaN()}, "C = NaN"},
		{"negative tol", X, y, Config{Tol: -1e-3}, "pbrff: Tol = -0.001"},
		{"negative epochs", X, y, Config{MaxEpochs: -1}, "pbrff: MaxEpochs = -1"},
		{"unknown loss", X, y, Config{Loss: "ridge"}, `pbrff: unknown Loss "ridge", want "hinge", "squared-hinge" or "logistic"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := Fit(context.Background(), c.X, c.y, c.cfg)
			if err == nil || m != nil {
				t.Fatalf("got %v, %v; want error %q", m, err, c.want)
			}
			if !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "pbrff: ") {
				t.Fatalf("got %q, want %q", err, c.want)
			}
		})
	}
}

func TestProgressAndContext(t *testing.T) {
	s := must(synth.Moons(60, 0.1, 2))
	X, y := dense(s), s.Y
	for _, loss := range []Loss{Hinge, SquaredHinge, Logistic} {
		var events []learners.Event
		cfg := Config{Landmarks: 10, Loss: loss, Progress: func(e learners.Event) error {
			events = append(events, e)
			return nil
		}}
		fit(t, s, cfg)
		if len(events) != 2 || events[0].Round != 1 || events[1].Round != 2 || events[1].Rounds != 2 ||
			events[0].Method != "pbrff" || events[1].Elapsed < events[0].Elapsed {
			t.Fatalf("%s: events %+v", loss, events)
		}
		// Round 1: the mean q-weighted feature loss, in [0, 1] and below ½
		// on learnable data; round 2: the classifier's objective.
		if l := events[0].Loss; !(l >= 0 && l < 0.5) {
			t.Errorf("%s: round 1 loss %v", loss, l)
		}
		if l := events[1].Loss; !(l > 0) || math.IsInf(l, 0) {
			t.Errorf("%s: round 2 loss %v", loss, l)
		}
	}

	stop := errors.New("enough")
	cfg := Config{Landmarks: 10, Progress: func(learners.Event) error { return stop }}
	if _, err := Fit(context.Background(), X, y, cfg); !errors.Is(err, stop) || !strings.Contains(err.Error(), "after round 1 of 2") {
		t.Errorf("stopping callback: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Fit(ctx, X, y, Config{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	cfg.Progress = func(learners.Event) error { cancel(); return nil } // cancelled during round 1
	if _, err := Fit(ctx, X, y, cfg); !errors.Is(err, context.Canceled) {
		t.Errorf("context cancelled mid-fit: %v", err)
	}
}

func TestPredictBatchErrors(t *testing.T) {
	s := must(synth.Moons(30, 0.1, 3))
	m := fit(t, s, Config{Landmarks: 10})
	X := dense(s)
	for _, c := range []struct {
		dst  []float64
		X    featmap.Matrix
		want string
	}{
		{make([]float64, 30), featmap.Dense(30, 3, make([]float64, 90)), "X has 3 columns, the model takes 2 inputs"},
		{make([]float64, 29), X, "len(dst) = 29, X has 30 rows"},
		{make([]float64, 30), featmap.Dense(30, 2, X.Data[:50]), "needs 60 elements, has 50"},
		{make([]float64, 30), featmap.Matrix{Rows: 30, Cols: 2, Stride: 1, Data: X.Data}, "stride 1"},
		{make([]float64, 30), featmap.Matrix{Rows: 30, Cols: 2, Stride: math.MaxInt / 8, Data: X.Data}, "stride"},
	} {
		for _, f := range []func([]float64, featmap.Matrix) error{m.PredictBatch, m.ScoreBatch} {
			err := f(c.dst, c.X)
			if err == nil || !errors.Is(err, featmap.ErrShape) || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "pbrff: ") {
				t.Errorf("got %v, want %q", err, c.want)
			}
		}
	}
	if err := m.PredictBatch(nil, featmap.Dense(0, 2, nil)); err != nil {
		t.Errorf("no rows: %v", err)
	}
}

func TestPredictPanicsOnWrongLength(t *testing.T) {
	s := must(synth.Moons(30, 0.1, 7))
	m := fit(t, s, Config{Landmarks: 10})
	defer func() {
		if r := recover(); r == nil {
			t.Error("no panic")
		} else if s, _ := r.(string); s != "pbrff: Score/Predict: len(x) = 3, the model takes 2 inputs" {
			t.Errorf("panic %q", r)
		}
	}()
	m.Predict([]float64{1, 2, 3})
}

func TestLoadErrors(t *testing.T) {
	s := must(synth.Moons(30, 0.1, 3))
	good := marshal(t, fit(t, s, Config{Landmarks: 4, K: 3}))
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
	const resolved = `"Landmarks":4,"K":3,"Gamma":0.5,"Beta":1,"C":1,"Loss":"hinge","Tol":0.001,"MaxEpochs":1000`
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "truncated"},
		{"truncated", good[:len(good)-9], "truncated"},
		{"flipped", flipped, "checksum mismatch"},
		{"other method", rewrite(func(f *modelfile.File) { f.Header.Method = "rks" }), `a "rks" model, not "pbrff"`},
		{"newer", rewrite(func(f *modelfile.File) { f.Header.Version = 2 }), "model version 2 is newer"},
		{"bad config", rewrite(func(f *modelfile.File) { f.Header.Config = []byte(`{"Landmarks":"many"}`) }), "config"},
		{"unresolved", rewrite(func(f *modelfile.File) { f.Header.Config = []byte(`{"Landmarks":4}`) }), "unresolved defaults"},
		{"invalid config", rewrite(func(f *modelfile.File) {
			f.Header.Config = []byte(`{"Landmarks":4,"K":3,"Gamma":-1,"Beta":1,"C":1,"Loss":"hinge","Tol":0.001,"MaxEpochs":1000}`)
		}), "Gamma = -1"},
		{"regression", rewrite(func(f *modelfile.File) { f.Header.Task = "regression"; f.Header.Labels = nil }), "task regression, want binary"},
		{"short w", rewrite(func(f *modelfile.File) { setArray(f, "w", make([]float64, 23)) }), `array "w" has 23 elements, want 24`},
		{"short landmarks", rewrite(func(f *modelfile.File) { setArray(f, "landmarks", make([]float64, 7)) }), `array "landmarks" has 7 elements, want 8`},
		{"no coef", rewrite(func(f *modelfile.File) { f.Arrays = f.Arrays[:5] }), `no array "coef"`},
		{"zero scale", rewrite(func(f *modelfile.File) { setArray(f, "scale", []float64{1, 0}) }), "scale[1] = 0"},
		{"no bias", rewrite(func(f *modelfile.File) { delete(f.Header.Meta, "bias") }), `no meta value "bias"`},
		{"more inputs", rewrite(func(f *modelfile.File) { f.Header.Inputs = 3 }), `array "mean" has 2 elements, want 3`},
		{"more landmarks", rewrite(func(f *modelfile.File) {
			f.Header.Config = []byte(strings.Replace(`{`+resolved+`}`, `"Landmarks":4`, `"Landmarks":5`, 1))
		}), `array "landmarks" has 8 elements, want 10`},
		{"hostile size", rewrite(func(f *modelfile.File) { f.Header.Inputs = math.MaxInt / 4 }), `array "mean" has 2 elements, want 2305843009213693951`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := Load(c.data)
			if err == nil || m != nil {
				t.Fatalf("got %v, %v; want error %q", m, err, c.want)
			}
			if !errors.Is(err, modelfile.ErrCorrupt) || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "pbrff: ") {
				t.Fatalf("got %q, want ErrCorrupt and %q", err, c.want)
			}
		})
	}
	// The file with the resolved config spelt out loads.
	if _, err := Load(rewrite(func(f *modelfile.File) { f.Header.Config = []byte(`{` + resolved + `}`) })); err != nil {
		t.Errorf("resolved config: %v", err)
	}
}

func FuzzUnmarshal(f *testing.F) {
	s := must(synth.Moons(20, 0.1, 4))
	for _, loss := range []Loss{Hinge, Logistic} {
		good := marshal(f, fit(f, s, Config{Landmarks: 3, K: 2, Loss: loss}))
		f.Add(good)
		for _, n := range []int{0, 8, 30, len(good) / 2, len(good) - 1} {
			f.Add(good[:n])
		}
		for _, i := range []int{10, 40, len(good) - 30} {
			c := append([]byte(nil), good...)
			c[i] ^= 0x10
			f.Add(c)
		}
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
	m, err := Load(data)
	if err != nil {
		if m != nil || !errors.Is(err, modelfile.ErrCorrupt) {
			t.Fatalf("%v with model %v", err, m)
		}
		return
	}
	// A model that loads is usable and round-trips.
	x := make([]float64, m.NumInputs())
	m.Predict(x)
	m.Probability(x)
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Load(b); err != nil {
		t.Fatal(err)
	}
}

func TestRegistered(t *testing.T) {
	meth, err := learners.Lookup("pbrff")
	if err != nil {
		t.Fatal(err)
	}
	cfg := meth.NewConfig()
	for k, v := range map[string]string{"landmarks": "20", "K": "4", "gamma": "2", "BETA": "0.1", "c": "10", "loss": "squared-hinge", "seed": "7"} {
		if err := learners.SetParam(cfg, k, v); err != nil {
			t.Fatal(err)
		}
	}
	want := Config{Landmarks: 20, K: 4, Gamma: 2, Beta: 0.1, C: 10, Loss: SquaredHinge, Seed: 7}
	if c := *cfg.(*Config); c.Landmarks != want.Landmarks || c.K != want.K || c.Gamma != want.Gamma || c.Beta != want.Beta ||
		c.C != want.C || c.Loss != want.Loss || c.Seed != want.Seed {
		t.Fatalf("config %+v", c)
	}
	s := must(synth.Moons(100, 0.1, 1))
	rounds := 0
	m, err := meth.Fit(context.Background(), dense(s), s.Y, cfg, func(learners.Event) error { rounds++; return nil })
	if err != nil || rounds != 2 || m.Task() != learners.Binary || m.NumInputs() != 2 {
		t.Fatalf("Fit: %v, %d rounds", err, rounds)
	}
	if m.(*Model).Config().Loss != SquaredHinge {
		t.Errorf("loss %v", m.(*Model).Config().Loss)
	}
	data, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if m2, err := meth.Load(data); err != nil || m2.Predict(s.X[:2]) != m.Predict(s.X[:2]) {
		t.Fatalf("Load: %v", err)
	}
	if m2, err := meth.Load(data[:10]); err == nil || m2 != nil {
		t.Fatalf("Load of a truncated file: %v, %v", m2, err)
	}
	_ = learners.SetParam(cfg, "loss", "ridge") // Validate's business
	if m2, err := meth.Fit(context.Background(), dense(s), s.Y, cfg, nil); err == nil || m2 != nil || !strings.Contains(err.Error(), `unknown Loss "ridge"`) {
		t.Fatalf("bad loss: %v, %v", m2, err)
	}
	if _, err := meth.Fit(context.Background(), dense(s), s.Y, Config{}, nil); err == nil {
		t.Error("Fit accepted a Config value instead of a pointer")
	}
	names := map[string]bool{}
	for _, p := range learners.Params(cfg) {
		names[p.Name] = true
	}
	if len(names) != 9 || !names["landmarks"] || !names["beta"] || !names["maxepochs"] || names["progress"] {
		t.Errorf("params %v", names)
	}
}
