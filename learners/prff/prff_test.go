package prff_test

import (
	"bytes"
	"context"
	"math"
	"reflect"
	"runtime"
	"sync"
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/prff"
	"github.com/rfkit/rfkit/solvers"
)

func fit(t testing.TB, X featmap.Matrix, y []float64, cfg prff.Config) *prff.Model {
	t.Helper()
	if raceEnabled && cfg.MaxIter == 0 {
		cfg.MaxIter = 30 // the race detector slows learning ~10×; the thresholds still hold
	}
	m, err := prff.Fit(context.Background(), X, y, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func accuracy(m learners.Model, X featmap.Matrix, y []float64) float64 {
	ok := 0
	for i, v := range y {
		if m.Predict(X.Row(i)) == v {
			ok++
		}
	}
	return float64(ok) / float64(len(y))
}

// TestRings: two concentric rings (radii 1 and 2, radial noise 0.15) in
// the first two of four inputs, the other two pure noise. The classes have
// the same mean, so a linear classifier is at chance (threshold 0.62),
// while the Gaussian kernel separates them almost perfectly (the Bayes
// error is ≈ 0.05%; PRFF with the defaults measured 0.978–0.997 with both
// losses on 6 seeds; threshold 0.90).
func TestRings(t *testing.T) {
	X, y := rings(400, 2, 3, 7, 1)
	Xt, yt := rings(1000, 2, 3, 7, 2)
	for _, loss := range []prff.Loss{prff.Logistic, prff.Ridge} {
		m := fit(t, X, y, prff.Config{Loss: loss, Seed: 3})
		if acc := accuracy(m, Xt, yt); acc < 0.90 {
			t.Errorf("%s: test accuracy %.3f < 0.90", loss, acc)
		}
		if got := m.Predict(Xt.Row(0)); got != 3 && got != 7 {
			t.Errorf("Predict returned %v, not an original label", got)
		}
	}

	signs, _, err := learners.BinaryLabels(y)
	if err != nil {
		t.Fatal(err)
	}
	w, b, err := solvers.Logistic(X.Data, X.Rows, X.Cols, signs, 1e-3, solvers.LogisticOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ok := 0
	for i, v := range yt {
		s := b
		for k, x := range Xt.Row(i) {
			s += w[k] * x
		}
		if (s >= 0) == (v == 7) {
			ok++
		}
	}
	if acc := float64(ok) / float64(len(yt)); acc > 0.62 {
		t.Errorf("a linear model reaches %.3f: the problem is too easy to show anything", acc)
	}
}

// TestRegression: y = sin(2x₁) + x₂²/2 + N(0, 0.1²). The mean predictor's
// RMSE is ≈ 0.89; PRFF with the defaults measured 0.138–0.164 on 6 seeds
// (the noise floor is 0.1). Thresholds: 0.3 and half the mean predictor's.
func TestRegression(t *testing.T) {
	X, y := sine(400, 1)
	Xt, yt := sine(1000, 2)
	m := fit(t, X, y, prff.Config{Task: learners.Regression, Seed: 3})
	if m.Config().Loss != prff.Ridge || m.Task() != learners.Regression {
		t.Fatalf("resolved config %+v", m.Config())
	}
	var mean float64
	for _, v := range y {
		mean += v / float64(len(y))
	}
	var se, se0 float64
	for i, v := range yt {
		e := m.Predict(Xt.Row(i)) - v
		se += e * e
		se0 += (v - mean) * (v - mean)
	}
	rmse, rmse0 := math.Sqrt(se/float64(len(yt))), math.Sqrt(se0/float64(len(yt)))
	if rmse > 0.3 || rmse > rmse0/2 {
		t.Errorf("RMSE %.3f, mean predictor %.3f", rmse, rmse0)
	}
	if p := m.Probability(Xt.Row(0)); !math.IsNaN(p) {
		t.Errorf("Probability of a regression model = %v, want NaN", p)
	}
}

func TestDeterminism(t *testing.T) {
	// 1000 rows: enough for featmap to split the feature map across
	// goroutines when GOMAXPROCS > 1.
	X, y := rings(1000, 2, 0, 1, 4)
	cfg := prff.Config{Features: 24, MaxIter: 100, Seed: 42}
	var want []byte
	for _, procs := range []int{1, 4, 1} {
		old := runtime.GOMAXPROCS(procs)
		b, err := fit(t, X, y, cfg).MarshalBinary()
		runtime.GOMAXPROCS(old)
		if err != nil {
			t.Fatal(err)
		}
		if want == nil {
			want = b
		} else if !bytes.Equal(b, want) {
			t.Fatalf("GOMAXPROCS=%d: model bytes differ", procs)
		}
	}
	cfg.Seed++
	if b, _ := fit(t, X, y, cfg).MarshalBinary(); bytes.Equal(b, want) {
		t.Error("a different seed gave the same model")
	}
}

func TestRoundTrip(t *testing.T) {
	for _, task := range []learners.Task{learners.Binary, learners.Regression} {
		X, y := rings(200, 1, -2, 5, 5)
		if task == learners.Regression {
			X, y = sine(200, 5)
		}
		m := fit(t, X, y, prff.Config{Task: task, Features: 30, Seed: 9})
		data, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		m2, err := prff.Load(data)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if _, err := m.WriteTo(&buf); err != nil {
			t.Fatal(err)
		}
		m3 := new(prff.Model)
		if n, err := m3.ReadFrom(&buf); err != nil || n != int64(len(data)) {
			t.Fatalf("ReadFrom: %d, %v", n, err)
		}
		m4, err := learners.Load(data) // dispatch by the header's method
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < X.Rows; i++ {
			x := X.Row(i)
			s := m.Score(x)
			if s2, s3, s4 := m2.Score(x), m3.Score(x), m4.(*prff.Model).Score(x); s2 != s || s3 != s || s4 != s {
				t.Fatalf("%v row %d: scores %v, %v, %v, %v", task, i, s, s2, s3, s4)
			}
		}
		if again, _ := m2.MarshalBinary(); !bytes.Equal(again, data) {
			t.Errorf("%v: re-marshalled bytes differ", task)
		}
		if !reflect.DeepEqual(m2.Config(), m.Config()) || m2.Labels() != m.Labels() || m2.NumInputs() != X.Cols {
			t.Errorf("%v: config %+v / %+v, labels %v / %v", task, m2.Config(), m.Config(), m2.Labels(), m.Labels())
		}
		if err := m2.UnmarshalBinary(data); err == nil {
			t.Error("UnmarshalBinary into a model in use succeeded")
		}
	}
}

func TestPredictBatch(t *testing.T) {
	X, y := rings(100, 0, 0, 1, 6)
	m := fit(t, X, y, prff.Config{Features: 20})
	// A strided view: every row padded with one junk column.
	d := X.Cols
	padded := make([]float64, X.Rows*(d+1))
	for i := 0; i < X.Rows; i++ {
		copy(padded[i*(d+1):], X.Row(i))
		padded[i*(d+1)+d] = math.NaN()
	}
	V := featmap.Matrix{Rows: X.Rows, Cols: d, Stride: d + 1, Data: padded}
	dst := make([]float64, X.Rows)
	if err := m.PredictBatch(dst, V); err != nil {
		t.Fatal(err)
	}
	for i, v := range dst {
		if p := m.Predict(X.Row(i)); v != p {
			t.Fatalf("row %d: batch %v, single %v", i, v, p)
		}
	}
	p := m.Probability(X.Row(0))
	if !(p > 0 && p < 1) || (p >= 0.5) != (m.Predict(X.Row(0)) == 1) {
		t.Errorf("Probability %v disagrees with Predict %v", p, m.Predict(X.Row(0)))
	}
}

func TestPredictPanicsOnWrongLength(t *testing.T) {
	X, y := rings(50, 0, 0, 1, 7)
	m := fit(t, X, y, prff.Config{Features: 10})
	defer func() {
		if r := recover(); r == nil {
			t.Error("no panic")
		} else if s, _ := r.(string); s != "prff: Score/Predict: len(x) = 3, the model takes 2 inputs" {
			t.Errorf("panic %q", r)
		}
	}()
	m.Predict([]float64{1, 2, 3})
}

func TestAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop items on purpose")
	}
	X, y := rings(100, 2, 0, 1, 8)
	m := fit(t, X, y, prff.Config{})
	x := X.Row(3)
	dst := make([]float64, X.Rows)
	sink := 0.0
	for name, f := range map[string]func(){
		"Predict":      func() { sink += m.Predict(x) },
		"Score":        func() { sink += m.Score(x) },
		"Probability":  func() { sink += m.Probability(x) },
		"PredictBatch": func() { _ = m.PredictBatch(dst, X) },
	} {
		if a := testing.AllocsPerRun(200, f); a != 0 {
			t.Errorf("%s: %v allocations per call", name, a)
		}
	}

	// Concurrently: AllocsPerRun counts every goroutine's allocations.
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
					m.Predict(x)
				}
			}
		}()
	}
	a := testing.AllocsPerRun(2000, func() { sink += m.Predict(x) })
	close(stop)
	wg.Wait()
	if a != 0 {
		t.Errorf("concurrent Predict: %v allocations per call", a)
	}
	_ = sink
}

func TestConcurrentPredict(t *testing.T) {
	X, y := sine(300, 9)
	m := fit(t, X, y, prff.Config{Task: learners.Regression, Features: 50})
	want := make([]float64, X.Rows)
	if err := m.PredictBatch(want, X); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dst := make([]float64, X.Rows)
			for rep := 0; rep < 5; rep++ {
				for i := range want {
					if v := m.Predict(X.Row(i)); v != want[i] {
						errs <- "Predict differs under concurrency"
						return
					}
				}
				if err := m.PredictBatch(dst, X); err != nil || dst[7] != want[7] {
					errs <- "PredictBatch differs under concurrency"
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}
