package kit

import (
	"context"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/learners"
)

func TestBinaryLabels(t *testing.T) {
	signs, l, err := learners.BinaryLabels([]float64{5, -3, 5, 5, -3})
	if err != nil || l != (learners.Labels{Neg: -3, Pos: 5}) || !reflect.DeepEqual(signs, []float64{1, -1, 1, 1, -1}) {
		t.Fatalf("got %v, %v, %v", signs, l, err)
	}
	for _, c := range []struct {
		y    []float64
		want string
	}{
		{nil, "no labels"},
		{[]float64{1, 1, 1}, "only one class (every label is 1)"},
		{[]float64{0, 1, 1, 2}, "more than two classes (0, 1 and 2, first at y[3])"},
		{[]float64{0, 1, math.NaN()}, "y[2] is NaN"},
		{[]float64{math.Inf(1), 1}, "y[0] is +Inf"},
	} {
		if _, _, err := learners.BinaryLabels(c.y); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("learners.BinaryLabels(%v): %v, want %q", c.y, err, c.want)
		}
	}
	if DecodeLabel(l, 0) != 5 || DecodeLabel(l, -1e-300) != -3 || !math.IsNaN(DecodeLabel(l, math.NaN())) {
		t.Error("Decode")
	}
	if v, err := EncodeLabel(l, -3); v != -1 || err != nil {
		t.Error("Encode(-3)")
	}
	if _, err := EncodeLabel(l, 0); err == nil {
		t.Error("Encode(0) accepted")
	}
	if _, err := learners.NewLabels(1, 1); err == nil {
		t.Error("NewLabels(1, 1) accepted")
	}
	if _, err := learners.NewLabels(0, math.Inf(1)); err == nil {
		t.Error("NewLabels(0, Inf) accepted")
	}
	if got, err := learners.NewLabels(-1, 1); err != nil || got != (learners.Labels{Neg: -1, Pos: 1}) {
		t.Error("NewLabels(-1, 1)")
	}
}

// TestRounds: End sends the round's Event (method, round of the total set
// by SetTotal, loss) and wraps a progress error or a cancelled ctx with
// the prefix.
func TestRounds(t *testing.T) {
	var got []learners.Event
	stop := errors.New("stop")
	ctx, cancel := context.WithCancel(context.Background())
	r := NewRounds(ctx, func(e learners.Event) error {
		got = append(got, e)
		if e.Round == 2 {
			return stop
		}
		return nil
	}, "pkg", "meth", 0)
	r.SetTotal(3)
	if err := r.End(1, 0.5); err != nil {
		t.Fatal(err)
	}
	if err := r.End(2, math.NaN()); !errors.Is(err, stop) || !strings.HasPrefix(err.Error(), "pkg: ") || !strings.Contains(err.Error(), "after round 2 of 3") {
		t.Fatalf("progress error: %v", err)
	}
	cancel()
	if err := r.End(3, 1); !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "pkg: ") {
		t.Fatalf("cancelled: %v", err)
	}
	if len(got) != 3 || got[0].Method != "meth" || got[0].Round != 1 || got[0].Rounds != 3 || got[0].Loss != 0.5 || got[0].Elapsed < 0 {
		t.Fatalf("events %+v", got)
	}
	if err := NewRounds(context.Background(), nil, "pkg", "meth", 1).End(1, 0); err != nil {
		t.Fatalf("no progress: %v", err)
	}
}
