package rrf_test

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/learnertest"
	"github.com/rfkit/rfkit/learners/rrf"
)

// The resume checks every online learner shares run in the conformance
// suite (learnertest.RunOnline); these are rrf's own.

// TestResumeMulticlass: Fit in file order on the first rows of three
// classes, save, load, and Fit with Resume on the rest gives the bytes of
// one Fit on all the rows.
func TestResumeMulticlass(t *testing.T) {
	const n, k = 400, 208
	X, _ := learnertest.Shifted(learners.Binary, n, 1)
	three := make([]float64, n)
	for i := range three {
		three[i] = float64(i % 3 * 5)
	}
	cfg := rrf.Config{Features: 16, Multiclass: true, Seed: 3, Shuffle: learners.Disabled, Standardize: learners.Disabled, Epochs: 1}
	ctx := context.Background()
	whole := learnertest.MustFit(t, rrf.Fit, X, three, cfg)
	first := learnertest.MustFit(t, rrf.Fit, featmap.Dense(k, X.Cols, X.Data[:k*X.Cols]), three[:k], cfg)
	old, err := rrf.Load(learnertest.Bytes(t, first))
	if err != nil {
		t.Fatal(err)
	}
	rc := old.Config()
	rc.Resume = old
	rest, err := rrf.Fit(ctx, featmap.Dense(n-k, X.Cols, X.Data[k*X.Cols:]), three[k:], rc)
	if err != nil {
		t.Fatal(err)
	}
	if want := learnertest.Bytes(t, whole); !bytes.Equal(learnertest.Bytes(t, rest), want) || bytes.Equal(learnertest.Bytes(t, first), want) {
		t.Error("resumed multiclass model bytes differ from one uninterrupted pass (or the first part equals it)")
	}
}

// TestResumeErrors: a Resume model refuses a Config that changes its task,
// loss, classes or width.
func TestResumeErrors(t *testing.T) {
	const n = 120
	X, y := learnertest.Shifted(learners.Binary, n, 6)
	m := learnertest.MustFit(t, rrf.Fit, X, y, rrf.Config{Features: 10, Epochs: 1})
	base := m.Config()
	base.Resume = m
	with := func(f func(*rrf.Config)) rrf.Config { c := base; f(&c); return c }
	for _, c := range []struct {
		name string
		cfg  rrf.Config
		want string
	}{
		{"task", with(func(c *rrf.Config) { c.Task = learners.Regression; c.Loss = ""; c.Classes = nil }), "the model's task is binary"},
		{"loss", with(func(c *rrf.Config) { c.Loss = rrf.Logistic }), "Loss = logistic"},
		{"classes", with(func(c *rrf.Config) { c.Classes = []float64{0, 1} }), "Classes = [0 1]"},
		{"width", with(func(c *rrf.Config) { c.Width = 7 }), "Width = 7"},
	} {
		got, err := rrf.Fit(context.Background(), X, slices.Clone(y), c.cfg)
		if err == nil || got != nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "rrf: ") {
			t.Errorf("%s: got %v, want an error with %q", c.name, err, c.want)
		}
	}
}
