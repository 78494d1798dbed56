package learners_test

import (
	"encoding/json"
	"testing"

	"github.com/rfkit/rfkit/learners"
)

func TestToggle(t *testing.T) {
	type cfg struct {
		A learners.Toggle `json:",omitempty"`
		B learners.Toggle `json:",omitempty"`
		C learners.Toggle `json:",omitempty"`
	}
	c := cfg{B: learners.Enabled, C: learners.Disabled}
	raw, err := json.Marshal(c)
	if err != nil || string(raw) != `{"B":"true","C":"false"}` {
		t.Fatalf("JSON %s, %v: a Default toggle must be left out (old files keep their bytes)", raw, err)
	}
	var back cfg
	if err := json.Unmarshal(raw, &back); err != nil || back != c {
		t.Errorf("round trip %+v, %v", back, err)
	}
	for s, want := range map[string]learners.Toggle{"": learners.Default, "default": learners.Default, "1": learners.Enabled, "TRUE": learners.Enabled, "f": learners.Disabled} {
		var g learners.Toggle
		if err := g.UnmarshalText([]byte(s)); err != nil || g != want {
			t.Errorf("%q: %v, %v; want %v", s, g, err, want)
		}
	}
	var g learners.Toggle
	if err := g.UnmarshalText([]byte("yes")); err == nil {
		t.Error(`"yes" accepted`)
	}
	if _, err := learners.Toggle(7).MarshalText(); err == nil {
		t.Error("Toggle(7) marshalled")
	}
	// SetParam and Params see a Toggle as a setting.
	var p struct {
		Shuffle learners.Toggle `help:"h" default:"true"`
	}
	if err := learners.SetParam(&p, "shuffle", "false"); err != nil || p.Shuffle != learners.Disabled {
		t.Errorf("SetParam: %v, %v", p.Shuffle, err)
	}
	if ps := learners.Params(&p); len(ps) != 1 || ps[0].Default != "true" || ps[0].Type != "learners.Toggle" {
		t.Errorf("Params: %+v", ps)
	}
}
