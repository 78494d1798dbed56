package nogd_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/dataset/synth"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
	"github.com/rfkit/rfkit/learners/nogd"
)

// TestStreamEqualsFit: a Learner fed the rows in order ends with the
// model bytes of Fit in file order without standardisation, one epoch
// (the landmarks are the first B rows in both), for both tasks.
func TestStreamEqualsFit(t *testing.T) {
	moons := learnertest.Must(synth.Moons(150, 0.1, 2))
	se1 := learnertest.Must(synth.ByName("se1", 120, 3))
	for _, c := range []struct {
		set *synth.Set
		cfg nogd.Config
	}{
		{moons, nogd.Config{Budget: 25, Eta: 0.5, Calibrate: learners.Disabled, Search: learners.Disabled}},
		{se1, nogd.Config{Budget: 15, Task: learners.Regression, Loss: nogd.EpsInsensitive, Search: learners.Disabled}},
	} {
		y := c.set.Y // the moons' labels are ±1
		c.cfg.Shuffle, c.cfg.Standardize = learners.Disabled, learners.Disabled
		want := learnertest.Bytes(t, learnertest.MustFit(t, nogd.Fit, featmap.Dense(c.set.N, c.set.D, c.set.X), y, c.cfg))
		got := learnertest.Bytes(t, learnertest.Stream(t, nogd.NewLearner, c.set, y, c.cfg, 1))
		if !bytes.Equal(got, want) {
			t.Errorf("%v: the streamed model differs from Fit's", c.cfg.Task)
		}
	}
}

// TestResumeBeforeBudget: a Learner snapshotted while it still collects
// its landmarks (k < B rows seen), saved, loaded and resumed, ends with
// the Snapshot bytes of a Learner that was never stopped; the early
// snapshot scores 0 and predicts the label of score 0, as the Learner.
func TestResumeBeforeBudget(t *testing.T) {
	X, y := learnertest.Shifted(learners.Binary, 200, 11)
	cfg := nogd.Config{Budget: 40, Seed: 1}
	feed := func(l *nogd.Learner, lo, hi int) {
		for i := lo; i < hi; i++ {
			if _, err := l.Update(X.Row(i), y[i]); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, k := range []int{0, 1, 17, 39} {
		a, err := nogd.NewLearner(X.Cols, cfg)
		if err != nil {
			t.Fatal(err)
		}
		b, err := nogd.NewLearner(X.Cols, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := a.StandardizeFrom(featmap.Dense(30, X.Cols, X.Data[:30*X.Cols])); err != nil {
			t.Fatal(err)
		}
		mean, scale := a.Standardization()
		if err := b.SetStandardization(mean, scale); err != nil {
			t.Fatal(err)
		}
		feed(a, 0, X.Rows)
		feed(b, 0, k)
		early := b.Snapshot()
		if s := early.Score(X.Row(0)); s != 0 {
			t.Errorf("k %d: the snapshot before the landmarks scores %v, want 0", k, s)
		}
		if p, q := early.Predict(X.Row(0)), b.Predict(X.Row(0)); p != q || p != 1 {
			t.Errorf("k %d: snapshot predicts %v, learner %v, want 1 (score 0)", k, p, q)
		}
		mid, err := nogd.Load(learnertest.Bytes(t, early))
		if err != nil {
			t.Fatal(err)
		}
		r, err := nogd.Resume(mid)
		if err != nil {
			t.Fatal(err)
		}
		feed(r, k, X.Rows)
		if !bytes.Equal(learnertest.Bytes(t, r.Snapshot()), learnertest.Bytes(t, a.Snapshot())) {
			t.Errorf("k %d: the resumed Learner's snapshot differs from the uninterrupted one", k)
		}
		if r.Stats().N != X.Rows-k || a.Stats().N != X.Rows {
			t.Errorf("k %d: Stats.N %d and %d", k, r.Stats().N, a.Stats().N)
		}
	}
}

// TestUpdateErrors: bad rows and labels are refused and change nothing.
func TestUpdateErrors(t *testing.T) {
	l, err := nogd.NewLearner(2, nogd.Config{Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		x    []float64
		y    float64
		want string
	}{
		{[]float64{1}, 1, "nogd: Update: len(x) = 1"},
		{[]float64{1, 2}, 0, "nogd: Update: label 0"},
		{[]float64{1, 2}, 2, "nogd: Update: label 2"},
	} {
		if _, err := l.Update(c.x, c.y); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Update(%v, %v): %v, want %q", c.x, c.y, err, c.want)
		}
	}
	if l.Stats().N != 0 {
		t.Errorf("Stats.N = %d after refused updates", l.Stats().N)
	}
	if _, err := nogd.NewLearner(2, nogd.Config{Eta: -1}); err == nil || !strings.Contains(err.Error(), "Eta = -1") {
		t.Errorf("NewLearner with Eta = -1: %v", err)
	}
	if _, err := nogd.NewLearner(0, nogd.Config{}); err == nil {
		t.Error("NewLearner with 0 inputs accepted")
	}
}

// TestVersion1: a version 1 file (testdata/hinge-v1.model, written before
// the Learner) loads, re-saves to its own bytes and predicts, but cannot
// be resumed; the version 2 model Fit now writes has the same landmarks
// and weights, so it scores every row with the same bits.
func TestVersion1(t *testing.T) {
	old, err := os.ReadFile("testdata/hinge-v1.model")
	if err != nil {
		t.Fatal(err)
	}
	m, err := nogd.Load(old)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(learnertest.Bytes(t, m), old) {
		t.Error("the version 1 model re-saves to other bytes")
	}
	if _, err := nogd.Resume(m); err == nil || !strings.Contains(err.Error(), "version 1 model holds only the averaged weights") {
		t.Errorf("Resume of a version 1 model: %v", err)
	}
	moons := learnertest.Must(synth.Moons(300, 0.1, 5))
	X := featmap.Dense(moons.N, moons.D, moons.X)
	now := learnertest.MustFit(t, nogd.Fit, X, moons.Y, nogd.Config{Budget: 30, Epochs: 2, Seed: 3, Search: learners.Disabled})
	for i := range X.Rows {
		if a, b := m.Score(X.Row(i)), now.Score(X.Row(i)); a != b {
			t.Fatalf("row %d: version 1 model scores %v, version 2 %v", i, a, b)
		}
	}
}
