package learners_test

import (
	"context"
	"errors"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	_ "github.com/rfkit/rfkit/learners/fogd"
	_ "github.com/rfkit/rfkit/learners/gbrff"
	_ "github.com/rfkit/rfkit/learners/kernel"
	_ "github.com/rfkit/rfkit/learners/mfga"
	_ "github.com/rfkit/rfkit/learners/nogd"
	_ "github.com/rfkit/rfkit/learners/pbrff"
	_ "github.com/rfkit/rfkit/learners/prff"
	_ "github.com/rfkit/rfkit/learners/rfselect"
	_ "github.com/rfkit/rfkit/learners/rks"
	_ "github.com/rfkit/rfkit/learners/rrf"
	_ "github.com/rfkit/rfkit/learners/srff"
)

// hostileWide is the matrix of the LIBSVM file "1 131072:1\n-1 1:1\n"
// (18 bytes): two rows of 131072 inputs, for every method its
// task's labels.
// sizer is the FitSize every learner's Config states (learners.CheckSize).
type sizer interface {
	FitSize(n, d, k int) learners.Size
}

func hostileWide(rows, d int) (featmap.Matrix, []float64) {
	x := make([]float64, rows*d)
	y := make([]float64, rows)
	for i := range rows {
		x[i*d+(i*7919)%d] = 1
		y[i] = float64(2*(i%2) - 1)
	}
	return featmap.Dense(rows, d, x), y
}

// fitAlloc fits m on X, y with default parameters and returns the bytes
// the fit allocated in all (an upper bound of its peak) and its error.
func fitAlloc(m learners.Method, X featmap.Matrix, y []float64) (uint64, time.Duration, error) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	_, err := m.Fit(context.Background(), X, y, m.NewConfig(), nil)
	el := time.Since(start)
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc, el, err
}

// TestFitSizeBound: every method at default parameters on the 18-byte
// hostile file (two rows, 131072 inputs) either fits within 512 MB and
// 30 s or refuses with ErrTooLarge, before allocating.
func TestFitSizeBound(t *testing.T) {
	X, y := hostileWide(2, 1<<17)
	for _, m := range learners.Methods() {
		cfg := m.NewConfig()
		if !strings.HasPrefix(reflect.TypeOf(cfg).Elem().PkgPath(), "github.com/rfkit/rfkit/learners/") {
			continue // a test's fake learner
		}
		if _, ok := cfg.(sizer); !ok {
			t.Errorf("%s: its Config states no size (sizer)", m.Name)
			continue
		}
		alloc, el, err := fitAlloc(m, X, y)
		t.Logf("%s: %.1f MB in %v: %v", m.Name, float64(alloc)/1e6, el, err)
		if alloc > 512<<20 || el > 30*time.Second {
			t.Errorf("%s: %.3g MB allocated in %v on a 2-row, 131072-input set (%v)", m.Name, float64(alloc)/1e6, el, err)
		}
	}
}

// TestFitSizeWithMaxSize: a Fit refuses, before allocating, a Config larger
// than the bound of its context (learners.WithMaxSize), and accepts it
// under a larger one.
func TestFitSizeWithMaxSize(t *testing.T) {
	X, y := hostileWide(4, 4096)
	m, err := learners.Lookup("rks")
	if err != nil {
		t.Fatal(err)
	}
	cfg := m.NewConfig()
	if err := learners.SetParam(cfg, "features", "1000"); err != nil {
		t.Fatal(err)
	}
	fixed := cfg.(sizer).FitSize(4, 4096, 2).Fixed
	if fixed < 1000*4096 {
		t.Fatalf("rks states %g values, want at least features × inputs", fixed)
	}
	_, err = m.Fit(learners.WithMaxSize(context.Background(), int64(fixed)-1), X, y, cfg, nil)
	if !errors.Is(err, learners.ErrTooLarge) {
		t.Errorf("bound %d: err = %v, want ErrTooLarge", int64(fixed)-1, err)
	}
	if _, err := m.Fit(learners.WithMaxSize(context.Background(), int64(fixed)), X, y, cfg, nil); err != nil {
		t.Errorf("bound %d: %v", int64(fixed), err)
	}
	if s := cfg.(sizer).FitSize(1<<62, 4096, 2); s.Fixed+(1<<62)*s.PerRow < 1<<62 {
		t.Errorf("2^62 rows: %v values", s.Fixed+(1<<62)*s.PerRow)
	}
}

// TestFitWeightedNil: for every learner that takes weights, nil weights
// mean unweighted: FitWeighted(nil) writes the bytes Fit writes (the
// documented contract of Method.FitWeighted).
func TestFitWeightedNil(t *testing.T) {
	const n, d = 60, 2
	x, y := make([]float64, n*d), make([]float64, n)
	for i := range n {
		x[i*d], x[i*d+1] = float64(i%7)-3, float64(i%5)-2
		y[i] = float64(2*((i/3)%2) - 1)
	}
	X := featmap.Dense(n, d, x)
	small := map[string][]string{"gbrff1": {"t=3", "calibration=none"}, "gbrff2": {"t=3", "calibration=none"}, "srff": {"features=8", "maxiterations=3", "lambda=0.1"},
		"pbrff": {"landmarks=4"}, "prff": {"features=4"}, "eerf": {"features=4"}, "lkrf": {"features=4"}, "mfga": {"features=4"}, "rks": {"features=4"}}
	for _, m := range learners.Methods() {
		if m.FitWeighted == nil || !strings.HasPrefix(reflect.TypeOf(m.NewConfig()).Elem().PkgPath(), "github.com/rfkit/rfkit/learners/") {
			continue
		}
		cfg := m.NewConfig()
		for _, kv := range small[m.Name] {
			k, v, _ := strings.Cut(kv, "=")
			if err := learners.SetParam(cfg, k, v); err != nil {
				t.Fatalf("%s: %v", m.Name, err)
			}
		}
		a, err := m.Fit(context.Background(), X, y, cfg, nil)
		if err != nil {
			t.Fatalf("%s: Fit: %v", m.Name, err)
		}
		b, err := m.FitWeighted(context.Background(), X, y, nil, cfg, nil)
		if err != nil {
			t.Errorf("%s: FitWeighted(nil): %v", m.Name, err)
			continue
		}
		t.Logf("%s: FitWeighted(nil) == Fit", m.Name)
		da, _ := a.MarshalBinary()
		db, _ := b.MarshalBinary()
		if string(da) != string(db) {
			t.Errorf("%s: FitWeighted(nil) differs from Fit", m.Name)
		}
	}
}
