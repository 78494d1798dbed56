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

func TestCheckTaskAndToggles(t *testing.T) {
	for _, task := range []learners.Task{learners.Binary, learners.Regression} {
		c := NewCheck("x")
		c.Task(task)
		c.Toggles("Search", learners.Default, learners.Enabled, learners.Disabled)
		if c.Err() != nil {
			t.Errorf("%v: %v", task, c.Err())
		}
	}
	for _, task := range []learners.Task{learners.Multiclass, learners.Task(7)} {
		c := NewCheck("x")
		if c.Task(task); c.Err() == nil {
			t.Errorf("Task %v accepted", task)
		}
	}
	c := NewCheck("x")
	if c.Toggles("Search", learners.Enabled, learners.Toggle(7)); c.Err() == nil || !strings.Contains(c.Err().Error(), "Search") {
		t.Errorf("Toggle(7): %v", c.Err())
	}
}

func TestOn(t *testing.T) {
	if !On(learners.Default, true) || On(learners.Default, false) || !On(learners.Enabled, false) || On(learners.Disabled, true) {
		t.Error("On ignores the value or the default")
	}
}
