package learnertest

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/dataset/synth"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/asm"
	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners"
)

// The helpers below serve the learners' own tests: data sets whose values
// are the same bits on every architecture, and the table runners their
// error and golden-file tests share.

// Rings draws n points of two concentric noisy rings in the plane (radius 1
// → label lo, radius 2 → label hi, noise σ = 0.15 on the radius), plus
// extra pure-noise inputs. No linear function of the inputs separates them.
func Rings(n, extra int, lo, hi float64, seed uint64) (featmap.Matrix, []float64) {
	r := rand.New(rand.NewPCG(seed, 1))
	d := 2 + extra
	X := make([]float64, n*d)
	y := make([]float64, n)
	for i := range y {
		rad, lab := 1.0, lo
		if i%2 == 1 {
			rad, lab = 2.0, hi
		}
		// A uniform direction without math.Cos, whose last bit may differ
		// between architectures; float64() forbids FMA fusion. So the data
		// are the same bits everywhere.
		rad += float64(0.15 * r.NormFloat64())
		g1, g2 := r.NormFloat64(), r.NormFloat64()
		s := rad / math.Sqrt(float64(g1*g1)+float64(g2*g2))
		X[i*d], X[i*d+1] = s*g1, s*g2
		for k := 2; k < d; k++ {
			X[i*d+k] = r.NormFloat64()
		}
		y[i] = lab
	}
	return featmap.Dense(n, d, X), y
}

// Sine draws y = sin(2·x1) + 0.5·x2² + N(0, 0.1²) with x ~ U[−2, 2]².
func Sine(n int, seed uint64) (featmap.Matrix, []float64) {
	r := rand.New(rand.NewPCG(seed, 2))
	X := make([]float64, 2*n)
	y := make([]float64, n)
	for i := range y {
		a, b := float64(4*r.Float64())-2, float64(4*r.Float64())-2
		X[2*i], X[2*i+1] = a, b
		y[i] = math.Sin(2*a) + float64(float64(0.5*b)*b) + float64(0.1*r.NormFloat64()) // see rings
	}
	return featmap.Dense(n, 2, X), y
}

// Smooth draws n rows of d standard normal inputs labelled
// sign(x₀ + x₁ + ½·sin 2x₂) (±1).
func Smooth(n, d int, seed uint64) ([]float64, []float64) {
	return normalRows(n, d, rand.NewPCG(seed, 11), func(x []float64) bool { return x[0]+x[1]+0.5*math.Sin(2*x[2]) > 0 })
}

// normalRows draws n rows of d standard normal inputs from src, labelled
// +1 where pos holds and −1 elsewhere.
func normalRows(n, d int, src rand.Source, pos func(x []float64) bool) ([]float64, []float64) {
	r := rand.New(src)
	X, y := make([]float64, n*d), make([]float64, n)
	for i := range y {
		x := X[i*d : (i+1)*d]
		for j := range x {
			x[j] = r.NormFloat64()
		}
		y[i] = -1
		if pos(x) {
			y[i] = 1
		}
	}
	return X, y
}

// Accuracy is the fraction of rows of X that m predicts as y.
func Accuracy(m learners.Model, X featmap.Matrix, y []float64) float64 {
	ok := 0
	for i, v := range y {
		if m.Predict(X.Row(i)) == v {
			ok++
		}
	}
	return float64(ok) / float64(len(y))
}

// FitCase is one row of a learner's table of bad Fit inputs: Fit on X,
// y with Cfg must fail with an error containing Want.
type FitCase[C any] struct {
	Name string
	X    featmap.Matrix
	Y    []float64
	Cfg  C
	Want string
}

// FitErrors runs a learner's table of bad Fit inputs: fit must fail on
// every case with an error that starts with prefix and contains its Want,
// and return no model.
func FitErrors[C, M any](t *testing.T, prefix string, fit func(context.Context, featmap.Matrix, []float64, C) (M, error), cases []FitCase[C]) {
	t.Helper()
	for _, c := range cases {
		m, err := fit(context.Background(), c.X, c.Y, c.Cfg)
		if err == nil || !reflect.ValueOf(&m).Elem().IsZero() {
			t.Errorf("%s: got %v, %v; want error %q", c.Name, m, err, c.Want)
		} else if !strings.Contains(err.Error(), c.Want) || !strings.HasPrefix(err.Error(), prefix) {
			t.Errorf("%s: got %q, want %q", c.Name, err, c.Want)
		}
	}
}

// LoadCase is one row of a learner's table of corrupt model files:
// loading Data must fail with an error containing Want.
type LoadCase struct {
	Name string
	Data []byte
	Want string
}

// LoadErrors runs a learner's table of corrupt files: load must fail on
// every case with an error wrapping learners.ErrCorrupt that starts with
// prefix and contains its Want, and return no model.
func LoadErrors[M any](t *testing.T, prefix string, load func([]byte) (M, error), cases []LoadCase) {
	t.Helper()
	for _, c := range cases {
		m, err := load(c.Data)
		if err == nil || !reflect.ValueOf(&m).Elem().IsZero() {
			t.Errorf("%s: got %v, %v; want error %q", c.Name, m, err, c.Want)
		} else if !errors.Is(err, learners.ErrCorrupt) || !strings.Contains(err.Error(), c.Want) || !strings.HasPrefix(err.Error(), prefix) {
			t.Errorf("%s: got %q, want ErrCorrupt and %q", c.Name, err, c.Want)
		}
	}
}

// Rewrite returns the model file good with mod applied to its parsed
// form: a well-formed file with the wrong contents.
func Rewrite(t testing.TB, good []byte, mod func(f *modelfile.File)) []byte {
	t.Helper()
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

// Parsed is the parsed model file of m, failing t on an error.
func Parsed(t testing.TB, m interface{ MarshalBinary() ([]byte, error) }) *modelfile.File {
	t.Helper()
	f, err := modelfile.Parse(Bytes(t, m))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// SetArray replaces the array called name of f.
func SetArray(f *modelfile.File, name string, v []float64) {
	for i := range f.Arrays {
		if f.Arrays[i].Name == name {
			f.Arrays[i].Data = v
		}
	}
}

var update = flag.Bool("update", false, "rewrite the golden model files in testdata")

// Golden compares got, the bytes of a model trained in the test, with
// testdata/name.model (written on amd64; checked on every path, under qemu
// on arm64 and with -tags purego), or rewrites the file under -update.
func Golden(t *testing.T, name string, got []byte) {
	t.Helper()
	file := filepath.Join("testdata", name+".model")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s: model bytes differ from %s (path %s, %s)", name, file, asm.Selected(), runtime.GOARCH)
	}
}

// RingsAccuracy fits on Rings(400, 2, 3, 7, 1) (two rings, two noise
// inputs) and checks the accuracy on Rings(1000, 2, 3, 7, 2) is at least
// min and that Predict returns the original labels 3 and 7. No linear
// classifier reaches 0.62 on these data (TestRingsAreNonlinear).
func RingsAccuracy[M learners.Model](t *testing.T, min float64, fit func(featmap.Matrix, []float64) (M, error)) M {
	t.Helper()
	X, y := Rings(400, 2, 3, 7, 1)
	Xt, yt := Rings(1000, 2, 3, 7, 2)
	m, err := fit(X, y)
	if err != nil {
		t.Fatal(err)
	}
	if acc := Accuracy(m, Xt, yt); acc < min {
		t.Errorf("test accuracy %.3f < %v", acc, min)
	}
	if got := m.Predict(Xt.Row(0)); got != 3 && got != 7 {
		t.Errorf("Predict returned %v, not an original label", got)
	}
	return m
}

// SineRMSE fits on Sine(400, 1) (y = sin(2x₁) + x₂²/2 + N(0, 0.1²); the
// mean predictor's RMSE is ≈ 0.89, the noise floor 0.1) and checks the
// RMSE on Sine(1000, 2) is at most max and half the mean predictor's.
func SineRMSE[M learners.Model](t *testing.T, max float64, fit func(featmap.Matrix, []float64) (M, error)) M {
	t.Helper()
	X, y := Sine(400, 1)
	Xt, yt := Sine(1000, 2)
	m, err := fit(X, y)
	if err != nil {
		t.Fatal(err)
	}
	if m.Task() != learners.Regression {
		t.Fatalf("task %v", m.Task())
	}
	rmse, rmse0 := RMSE(m, y, Xt, yt)
	if rmse > max || rmse > rmse0/2 {
		t.Errorf("RMSE %.3f, mean predictor %.3f", rmse, rmse0)
	}
	return m
}

// SmoothError fits on Smooth(3000, 20, 1) (a smooth boundary in d = 20
// inputs, where a kernel width that does not scale with d is nearly
// diagonal and at chance) and checks the error on Smooth(1000, 20, 2) is at
// most max.
func SmoothError[M learners.Model](t *testing.T, max float64, fit func(featmap.Matrix, []float64) (M, error)) {
	t.Helper()
	const d = 20
	X, y := Smooth(3000, d, 1)
	Xt, yt := Smooth(1000, d, 2)
	m, err := fit(featmap.Dense(3000, d, X), y)
	if err != nil {
		t.Fatal(err)
	}
	e := 1 - Accuracy(m, featmap.Dense(1000, d, Xt), yt)
	t.Logf("test error %.3f", e)
	if e > max {
		t.Errorf("test error %.3f with the defaults at d = %d, want ≤ %v", e, d, max)
	}
}

// SetAccuracy is Accuracy on a synth.Set.
func SetAccuracy(m learners.Model, s *synth.Set) float64 {
	return Accuracy(m, featmap.Dense(s.N, s.D, s.X), s.Y)
}

// Must returns s, panicking on err (for synth generators with valid
// arguments).
func Must(s *synth.Set, err error) *synth.Set {
	if err != nil {
		panic(err)
	}
	return s
}

// Disc draws n rows of d standard normal inputs labelled +1 inside the
// disc x₀² + x₁² < 1.2 and −1 outside (the online learners' data).
func Disc(n, d int, seed uint64) ([]float64, []float64) {
	return normalRows(n, d, rand.NewPCG(seed, 9), func(x []float64) bool { return x[0]*x[0]+x[1]*x[1] < 1.2 })
}

// RMSE is the root mean squared error of m on the test rows Xt, yt, and
// that of the mean of the training targets y (the baseline to beat).
func RMSE(m learners.Model, y []float64, Xt featmap.Matrix, yt []float64) (rmse, baseline float64) {
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
	return math.Sqrt(se / float64(len(yt))), math.Sqrt(se0 / float64(len(yt)))
}

// NotWorseThanMeanSE1 fits a regression with fit on 3000 rows of SE1
// (seeds 1–3), which random-feature models at their defaults fit no better
// than the training mean, and fails t when the RMSE on the other 1000 rows
// is above 1.01 × that mean's: a default fit must not do worse than the
// trivial predictor. With -short (the race and qemu stages of make test)
// it fits seed 1 only.
func NotWorseThanMeanSE1[M learners.Model](t *testing.T, fit func(featmap.Matrix, []float64) (M, error)) {
	t.Helper()
	seeds := []uint64{1, 2, 3}
	if testing.Short() {
		seeds = seeds[:1]
	}
	for _, seed := range seeds {
		s := Must(synth.ByName("se1", 4000, seed))
		const n = 3000
		Xtr, ytr := featmap.Dense(n, s.D, s.X[:n*s.D]), s.Y[:n]
		Xte, yte := featmap.Dense(s.N-n, s.D, s.X[n*s.D:]), s.Y[n:]
		m, err := fit(Xtr, ytr)
		if err != nil {
			t.Fatal(err)
		}
		got, base := RMSE(m, ytr, Xte, yte)
		t.Logf("seed %d: test RMSE %.4f, the training mean's %.4f", seed, got, base)
		if got > 1.01*base {
			t.Errorf("seed %d: test RMSE %.4f > 1.01 × the training mean's %.4f", seed, got, base)
		}
	}
}
