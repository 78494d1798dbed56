package exploss

import (
	"errors"
	"slices"
	"testing"
)

// TestLandmarkReset: a landmark Reset to other frequencies and targets is
// the one NewLandmark builds from them, bit for bit, and a Reset of the
// wrong shape is an ErrShape.
func TestLandmarkReset(t *testing.T) {
	const n, d, K = 5000, 4, 3
	p, q := newProblem(t, n, d, K, 1), newProblem(t, n, d, K, 2)
	l, err := NewLandmark(p.x, p.Om, K, p.yt)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Reset(p.x, q.Om, q.yt); err != nil {
		t.Fatal(err)
	}
	fresh, err := NewLandmark(p.x, q.Om, K, q.yt)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(l.C, fresh.C) || !slices.Equal(l.S, fresh.S) {
		t.Fatal("Reset: cos/sin differ from NewLandmark's")
	}
	a := []float64{0.3, -1.2, 2}
	ga, gf := make([]float64, K), make([]float64, K)
	la, err1 := l.Eval(a, ga)
	lf, err2 := fresh.Eval(a, gf)
	if err1 != nil || err2 != nil || la != lf || !slices.Equal(ga, gf) {
		t.Fatalf("Reset: Eval %v %v, NewLandmark's %v %v (%v, %v)", la, ga, lf, gf, err1, err2)
	}
	small := newProblem(t, 100, d, K, 3)
	for name, err := range map[string]error{
		"rows":    l.Reset(small.x, q.Om, small.yt),
		"omega":   l.Reset(p.x, q.Om[:d], q.yt),
		"targets": l.Reset(p.x, q.Om, q.yt[:n-1]),
		"nil":     l.Reset(nil, q.Om, q.yt),
	} {
		if !errors.Is(err, ErrShape) {
			t.Errorf("Reset with wrong %s: %v, want ErrShape", name, err)
		}
	}
}
