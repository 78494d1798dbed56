package fogd_test

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/fogd"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
)

// rings is the suite's disc data set.
var rings = learnertest.Disc

func TestOnline(t *testing.T) {
	const n, d = 6000, 2
	X, y := rings(n, d, 1)
	l, err := fogd.NewLearner(d, fogd.Config{Eta: 0.5, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	rate := learnertest.LateMistakes(t, l, X, y, d)
	t.Logf("online mistake rate %.4f, second half %.4f", l.Stats().MistakeRate(), rate)
	if rate > 0.1 {
		t.Errorf("second-half mistake rate %.4f, want ≤ 0.1", rate)
	}
	m := l.Snapshot()
	Xt, yt := rings(1000, d, 2)
	e := 0
	for i := range yt {
		if m.Predict(Xt[i*d:(i+1)*d]) != yt[i] {
			e++
		}
	}
	if float64(e)/1000 > 0.1 {
		t.Errorf("averaged model test error %v", float64(e)/1000)
	}
	learnertest.RoundTrip(t, m, fogd.Load, Xt, d)
	if _, err := l.Update(X[:d], 0); err == nil || !strings.Contains(err.Error(), "neither") {
		t.Errorf("bad label: %v", err)
	}
	if _, err := l.Update([]float64{math.NaN(), 1}, 1); err == nil {
		t.Error("NaN accepted")
	}
}

func TestFitAndRegression(t *testing.T) {
	const n, d = 3000, 2
	X, y := rings(n, d, 3)
	for i := range y {
		y[i] = (y[i] + 1) * 5 // labels 0 / 10
	}
	m, err := fogd.Fit(context.Background(), featmap.Dense(n, d, X), y, fogd.Config{Eta: 0.5, Epochs: 3})
	if err != nil {
		t.Fatal(err)
	}
	e := 0
	for i := range y {
		if m.Predict(X[i*d:(i+1)*d]) != y[i] {
			e++
		}
	}
	if float64(e)/n > 0.1 || m.Labels() != (learners.Labels{Neg: 0, Pos: 10}) {
		t.Errorf("Fit training error %v, labels %v", float64(e)/n, m.Labels())
	}
	learnertest.RoundTrip(t, m, fogd.Load, X[:400], d)

	r := rand.New(rand.NewPCG(4, 4))
	yr := make([]float64, n)
	for i := range yr {
		yr[i] = math.Sin(2*X[i*d]) + 0.05*r.NormFloat64()
	}
	for _, loss := range []fogd.Loss{fogd.Squared, fogd.EpsInsensitive} {
		l, _ := fogd.NewLearner(d, fogd.Config{Task: learners.Regression, Loss: loss, Eta: 0.5})
		for i := range yr {
			if _, err := l.Update(X[i*d:(i+1)*d], yr[i]); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("%s: online RMSE %.4f", loss, l.Stats().RMSE())
		if l.Stats().RMSE() > 0.35 { // sd(y) ≈ 0.69
			t.Errorf("%s: online RMSE %.4f", loss, l.Stats().RMSE())
		}
		learnertest.RoundTrip(t, l.Snapshot(), fogd.Load, X[:400], d)
	}
}

func TestErrorsAndHostile(t *testing.T) {
	for _, c := range []fogd.Config{{Features: -1}, {Gamma: -1}, {Eta: math.NaN()}, {Epochs: -1}, {Loss: "x"},
		{Loss: fogd.Squared}, {Task: learners.Regression, Loss: fogd.Hinge}, {Labels: learners.Labels{Neg: 2, Pos: 1}}} {
		if _, err := fogd.NewLearner(2, c); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
	l, _ := fogd.NewLearner(2, fogd.Config{Task: learners.Regression, Eta: 0.9})
	r := rand.New(rand.NewPCG(1, 1))
	for i := 0; i < 5000; i++ {
		x := []float64{1e300 * r.NormFloat64(), r.NormFloat64()}
		_, _ = l.Update(x, 1e300*r.NormFloat64())
	}
	if _, err := fogd.Load(must(l.Snapshot().MarshalBinary())); err != nil {
		t.Fatalf("hostile stream: %v", err)
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

func TestAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("race detector")
	}
	const d = 20
	X, y := rings(100, d, 5)
	l, _ := fogd.NewLearner(d, fogd.Config{})
	i := 0
	if a := testing.AllocsPerRun(200, func() { _, _ = l.Update(X[(i%100)*d:(i%100+1)*d], y[i%100]); i++ }); a != 0 {
		t.Errorf("Update allocates %v", a)
	}
}

// BenchmarkUpdate times Learner.Update at d = 20, D = 100 (hinge and
// squared loss).
func BenchmarkUpdate(b *testing.B) {
	const d = 20
	X, y := rings(1024, d, 8)
	for _, c := range []struct {
		name string
		cfg  fogd.Config
	}{{"hinge", fogd.Config{}}, {"squared", fogd.Config{Task: learners.Regression}}} {
		b.Run(c.name, func(b *testing.B) {
			l, _ := fogd.NewLearner(d, c.cfg)
			i := 0
			b.ReportAllocs()
			for b.Loop() {
				j := i & 1023
				if _, err := l.Update(X[j*d:(j+1)*d], y[j]); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkPredict times Model.Predict and Learner.Predict at d = 20,
// D = 100.
func BenchmarkPredict(b *testing.B) {
	const d = 20
	X, y := rings(1024, d, 8)
	l, _ := fogd.NewLearner(d, fogd.Config{})
	for i := range y {
		_, _ = l.Update(X[i*d:(i+1)*d], y[i])
	}
	learnertest.BenchPredict(b, X, d, map[string]func([]float64) float64{"model": l.Snapshot().Predict, "learner": l.Predict})
}

// TestDefaultsScaleWithInputs: Fit with the zero Config learns a smooth
// boundary in d = 20 inputs. Measured test error 0.159 (one epoch); with
// the earlier default γ = 1/2 (nearly diagonal at d = 20) it was 0.485,
// chance.
func TestDefaultsScaleWithInputs(t *testing.T) {
	learnertest.SmoothError(t, 0.25, func(X featmap.Matrix, y []float64) (*fogd.Model, error) {
		return fogd.Fit(context.Background(), X, y, fogd.Config{})
	})
}
