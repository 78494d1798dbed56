package ogd

import (
	"strings"
	"testing"

	"github.com/rfkit/rfkit/internal/limit"
	"github.com/rfkit/rfkit/learners/internal/kit"

	"github.com/rfkit/rfkit/learners"
)

// TestGrad: the loss and step of each rule at a few scores, the squared
// residual clipped to ±MaxGrad in the step only.
func TestGrad(t *testing.T) {
	for _, c := range []struct {
		loss       Loss
		f, t, l, g float64
	}{
		{Hinge, 0.5, 1, 0.5, -1}, {Hinge, 2, 1, 0, 0}, {Hinge, 0.5, -1, 1.5, 1},
		{EpsInsensitive, 1.05, 1, 0, 0}, {EpsInsensitive, 2, 1, 0.9, 1}, {EpsInsensitive, 0, 1, 0.9, -1},
		{Squared, 3, 1, 2, 2}, {Squared, 3e6, 0, 4.5e12, MaxGrad},
	} {
		if l, g := Grad(c.loss, c.f, c.t); l != c.l || g != c.g {
			t.Errorf("%s(%v, %v) = %v, %v; want %v, %v", c.loss, c.f, c.t, l, g, c.l, c.g)
		}
	}
}

// TestCheckResolve: each loss fits its tasks only, "" takes the task's
// default.
func TestCheckResolve(t *testing.T) {
	for _, c := range []struct {
		loss Loss
		task learners.Task
		want string
	}{
		{"", learners.Regression, ""}, {Hinge, learners.Multiclass, ""}, {Squared, learners.Regression, ""},
		{Hinge, learners.Regression, "hinge needs the binary task"},
		{EpsInsensitive, learners.Binary, "eps needs the regression task"},
		{"log", learners.Binary, `unknown Loss "log"`},
	} {
		v := kit.NewCheck("x")
		CheckLoss(v, c.loss, c.task)
		if err := v.Err(); (err == nil) != (c.want == "") || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q %v: %v, want %q", c.loss, c.task, err, c.want)
		}
	}
	if Resolve("", learners.Binary) != Hinge || Resolve("", learners.Regression) != Squared || Resolve(EpsInsensitive, learners.Regression) != EpsInsensitive {
		t.Error("Resolve")
	}
}

// An out-of-range epochs stays out of range, so that the held-out fit's
// Validate refuses it by name instead of fitting limit.Count epochs.
func TestHeldOutEpochsKeepsInvalid(t *testing.T) {
	for _, e := range []int{-1, limit.Count + 1, 1 << 62} {
		if got := HeldOutEpochs(e, 20, 40, true); got != e {
			t.Errorf("HeldOutEpochs(%d, 20, 40) = %d, want %d", e, got, e)
		}
	}
	if got := HeldOutEpochs(0, 20, 40, true); got != 2*DefaultEpochs {
		t.Errorf("HeldOutEpochs(0, 20, 40) = %d, want %d", got, 2*DefaultEpochs)
	}
	if got := HeldOutEpochs(3, 20, 40, false); got != 3 {
		t.Errorf("uncalibrated: %d, want 3", got)
	}
}
