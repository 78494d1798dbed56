package pbrff

import (
	"math"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/dataset/synth"
	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/learnertest"
)

func TestProgressAndContext(t *testing.T) {
	s := must(synth.Moons(60, 0.1, 2))
	for _, loss := range []Loss{Hinge, SquaredHinge, Logistic} {
		var events []learners.Event
		cfg := Config{Landmarks: 10, Loss: loss, Progress: func(e learners.Event) error {
			events = append(events, e)
			return nil
		}}
		fit(t, s, cfg)
		if len(events) != 2 || events[0].Round != 1 || events[1].Round != 2 || events[1].Rounds != 2 ||
			events[0].Method != "pbrff" || events[1].Elapsed < events[0].Elapsed {
			t.Fatalf("%s: events %+v", loss, events)
		}
		// Round 1: the mean q-weighted feature loss, in [0, 1] and below ½
		// on learnable data; round 2: the classifier's objective.
		if l := events[0].Loss; !(l >= 0 && l < 0.5) {
			t.Errorf("%s: round 1 loss %v", loss, l)
		}
		if l := events[1].Loss; !(l > 0) || math.IsInf(l, 0) {
			t.Errorf("%s: round 2 loss %v", loss, l)
		}
	}
}

// TestLoadErrors: the landmark count of the config fixes the array
// lengths (the generic file checks run in the conformance suite).
func TestLoadErrors(t *testing.T) {
	s := must(synth.Moons(30, 0.1, 3))
	good := marshal(t, fit(t, s, Config{Landmarks: 4, K: 3}))

	const resolved = `"Landmarks":4,"K":3,"Gamma":0.5,"Beta":1,"C":1,"Loss":"hinge","Tol":0.001,"MaxEpochs":1000`
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"more landmarks", learnertest.Rewrite(t, good, func(f *modelfile.File) {
			f.Header.Config = []byte(strings.Replace(`{`+resolved+`}`, `"Landmarks":4`, `"Landmarks":5`, 1))
		}), `array "landmarks" has 8 elements, want 10`},
	}
	learnertest.LoadErrors(t, "pbrff: ", Load, cases)
	// The file with the resolved config spelt out loads.
	if _, err := Load(learnertest.Rewrite(t, good, func(f *modelfile.File) { f.Header.Config = []byte(`{` + resolved + `}`) })); err != nil {
		t.Errorf("resolved config: %v", err)
	}
}
