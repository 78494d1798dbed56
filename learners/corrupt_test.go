package learners_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/gbrff"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
	"github.com/rfkit/rfkit/learners/rks"
)

// TestMulticlassCorrupt: hostile multiclass headers are ErrCorrupt: a
// multiclass header on a learner that has no multiclass model (its Decode
// or the core, for a Body without Scores, refuses it), a
// multiclass rks file claiming version 1, classes that disagree with the
// arrays, and GBRFF refuses three classes with a clear error.
func TestMulticlassCorrupt(t *testing.T) {
	X, y := learnertest.Rings(60, 0, 0, 1, 1)
	g, err := gbrff.Fit(context.Background(), X, y, gbrff.Config{})
	if err != nil {
		t.Fatal(err)
	}
	gb, _ := g.MarshalBinary()
	X3, y3 := learnertest.Rings3(60, 1)
	r, err := rks.Fit(context.Background(), X3, y3, rks.Config{Task: learners.Multiclass, Features: 5})
	if err != nil {
		t.Fatal(err)
	}
	rb, _ := r.MarshalBinary()
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"gbrff multiclass", learnertest.Rewrite(t, gb, func(f *modelfile.File) {
			f.Header.Task, f.Header.Labels = modelfile.TaskMulticlass, []float64{0, 1, 2}
		}), "multiclass"},
		{"rks version 1", learnertest.Rewrite(t, rb, func(f *modelfile.File) { f.Header.Version = 1 }), "multiclass models are version 2"},
		{"rks four classes", learnertest.Rewrite(t, rb, func(f *modelfile.File) { f.Header.Labels = []float64{10, 20, 30, 40} }), `array "coef" has 15 elements, want 20`},
		{"rks binary", learnertest.Rewrite(t, rb, func(f *modelfile.File) {
			f.Header.Task, f.Header.Labels = modelfile.TaskBinary, []float64{10, 30}
		}), "config task multiclass, header task binary"},
	} {
		if _, err := learners.Load(c.data); !errors.Is(err, learners.ErrCorrupt) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ErrCorrupt and %q", c.name, err, c.want)
		}
	}
	if _, err := gbrff.Fit(context.Background(), X3, y3, gbrff.Config{}); err == nil || !strings.Contains(err.Error(), "use the multiclass task") {
		t.Errorf("gbrff on three classes: %v", err)
	}
}
