package kit

import (
	"errors"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/learners"
)

func TestProgressReport(t *testing.T) {
	var p learners.Progress
	if err := Report(p, learners.Event{}); err != nil {
		t.Fatal(err)
	}
	stop := errors.New("stop")
	p = func(e learners.Event) error {
		if e.Round == 3 {
			return stop
		}
		return nil
	}
	if err := Report(p, learners.Event{Round: 2, Rounds: 5}); err != nil {
		t.Fatal(err)
	}
	if err := Report(p, learners.Event{Round: 3, Rounds: 5}); !errors.Is(err, stop) || !strings.Contains(err.Error(), "after round 3 of 5") {
		t.Fatalf("got %v", err)
	}
}
