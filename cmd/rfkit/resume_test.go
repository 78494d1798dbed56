package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/dataset/synth"
)

// part is the rows lo..hi of s.
func part(s *synth.Set, lo, hi int) *synth.Set {
	return &synth.Set{N: hi - lo, D: s.D, X: s.X[lo*s.D : hi*s.D], Y: s.Y[lo:hi]}
}

// TestTrainResume: train in file order on the first rows, then
// train -resume on the rest, writes the same model bytes as one train on
// all the rows (rrf and fogd); the resumed run takes the old model's
// configuration (features, eta) without repeating it.
func TestTrainResume(t *testing.T) {
	dir := t.TempDir()
	s := moons(t, 300, 4, 3, 7)
	all := writeFile(t, dir, "all.csv", csvText(s, true))
	first := writeFile(t, dir, "first.csv", csvText(part(s, 0, 130), true))
	more := writeFile(t, dir, "more.csv", csvText(part(s, 130, 300), true))
	stream := []string{"-param", "epochs=1", "-param", "shuffle=false", "-param", "standardize=false", "-param", "calibrate=false", "-param", "search=false"}
	for _, c := range []struct {
		method string
		params []string
	}{
		{"rrf", []string{"-param", "features=20", "-param", "eta=0.02", "-seed", "5"}},
		{"fogd", []string{"-param", "features=20", "-param", "eta=0.5", "-seed", "5"}},
	} {
		train := func(data, model string, extra ...string) []byte {
			t.Helper()
			args := append([]string{"train", "-quiet", "-method", c.method, "-data", data, "-model", model}, extra...)
			rfkit(t, args...).ok(t)
			b, err := os.ReadFile(model)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
		whole := train(all, filepath.Join(dir, c.method+"-whole.model"), append(c.params, stream...)...)
		old := filepath.Join(dir, c.method+"-old.model")
		half := train(first, old, append(c.params, stream...)...)
		resumed := train(more, filepath.Join(dir, c.method+"-new.model"), append([]string{"-resume", old}, stream...)...)
		if !bytes.Equal(resumed, whole) {
			t.Errorf("%s: train -resume on the rest differs from one train on all the rows", c.method)
		}
		if bytes.Equal(half, whole) {
			t.Errorf("%s: the first part's model equals the whole: the test proves nothing", c.method)
		}
		// The summary line reports the resumed model.
		r := rfkit(t, "train", "-method", c.method, "-data", more, "-resume", old, "-model", filepath.Join(dir, "x.model")).ok(t)
		if !strings.Contains(r.stdout, c.method+": binary on 170 rows × 2 inputs") {
			t.Errorf("%s: summary %q", c.method, r.stdout)
		}
	}

	rrfOld := filepath.Join(dir, "rrf-old.model")
	out := filepath.Join(dir, "bad.model")
	rks := filepath.Join(dir, "rks.model")
	rfkit(t, "train", "-quiet", "-method", "rks", "-data", first, "-model", rks).ok(t)
	three := writeFile(t, dir, "three.csv", "a,b,c,y\n1,2,3,3\n4,5,6,7\n")
	other := writeFile(t, dir, "other.csv", "x0,x1,y\n1,2,3\n4,5,9\n")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-method", "fogd", "-data", more, "-resume", rrfOld}, 2, "a rrf model, but -method is fogd"},
		{[]string{"-method", "rks", "-data", more, "-resume", rks}, 2, "rks cannot continue training from a model (methods that can: fogd, nogd, rrf)"},
		{[]string{"-method", "rrf", "-data", more, "-resume", rrfOld, "-task", "regression"}, 2, "a binary model, but -task is regression"},
		{[]string{"-method", "rrf", "-data", three, "-resume", rrfOld}, 2, "the model takes 2 inputs, the data has 3"},
		{[]string{"-method", "rrf", "-data", more, "-resume", rrfOld, "-param", "epochs=-1"}, 2, "Epochs = -1"},
		{[]string{"-method", "rrf", "-data", more, "-resume", rrfOld, "-param", "shuffle=sometimes"}, 2, `"sometimes" is not a boolean`},
		{[]string{"-method", "rrf", "-data", more, "-resume", rrfOld, "-param", "features=30"}, 1, "Features = 30, the model has 20"},
		{[]string{"-method", "rrf", "-data", other, "-resume", rrfOld}, 1, "label 9 is neither 3 nor 7"},
		{[]string{"-method", "rrf", "-data", more, "-resume", filepath.Join(dir, "nope.model")}, 1, "nope.model"},
		{[]string{"-method", "rrf", "-data", more, "-resume", more}, 1, "not an rfkit model file"},
	} {
		r := rfkit(t, append(append([]string{"train"}, c.args...), "-model", out)...)
		r.fails(t, c.code, c.want)
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%v: wrote a model", c.args)
		}
	}
}
