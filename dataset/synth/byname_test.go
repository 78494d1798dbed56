package synth

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestByName(t *testing.T) {
	want := []string{"moons", "spirals", "circles", "checkerboard", "se1", "se2", "se3", "se3text"}
	if got := knownNames(); !slices.Equal(got, want) {
		t.Fatalf("knownNames() = %v, want %v", got, want)
	}
	for _, name := range want {
		s, err := ByName(" "+strings.ToUpper(name), 10, 1)
		if err != nil {
			t.Fatalf("ByName(%q): %v", name, err)
		}
		if s.Name != name || s.N != 10 {
			t.Errorf("ByName(%q): Name %q N %d", name, s.Name, s.N)
		}
	}
	// The toys use their documented default noise.
	a, _ := ByName("moons", 50, 2)
	b, _ := Moons(50, moonsNoise, 2)
	if !sameBits(a.X, b.X) {
		t.Error("ByName(moons) differs from Moons(n, moonsNoise, seed)")
	}
	if _, err := ByName("moons", 0, 1); !errors.Is(err, errInvalidArgument) {
		t.Errorf("ByName(moons, n=0): err %v, want errInvalidArgument", err)
	}
}

func TestByNameUnknown(t *testing.T) {
	s, err := ByName("banana", 10, 1)
	if s != nil || !errors.Is(err, errUnknownName) {
		t.Fatalf("ByName(banana) = (%v, %v), want an errUnknownName error", s, err)
	}
	for _, name := range append(knownNames(), "banana") {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("error %q does not mention %q", err, name)
		}
	}
}
