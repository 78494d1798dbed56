package synth

import (
	"fmt"
	"strings"
)

// generators maps each [ByName] name to its generator, in knownNames order.
var generators = []struct {
	name string
	gen  func(n int, seed uint64) (*Set, error)
}{
	{"moons", func(n int, seed uint64) (*Set, error) { return Moons(n, moonsNoise, seed) }},
	{"spirals", func(n int, seed uint64) (*Set, error) { return Spirals(n, spiralsNoise, seed) }},
	{"circles", func(n int, seed uint64) (*Set, error) { return Circles(n, circlesNoise, seed) }},
	{"checkerboard", func(n int, seed uint64) (*Set, error) {
		return Checkerboard(n, checkerboardNoise, seed)
	}},
	{"se1", se1},
	{"se2", se2},
	{"se3", se3Gen},
	{"se3text", se3Text},
}

// knownNames returns the names [ByName] accepts, in a fixed order.
func knownNames() []string {
	names := make([]string, len(generators))
	for i, g := range generators {
		names[i] = g.name
	}
	return names
}

// ByName generates the named set with n samples from seed: "moons",
// "spirals", "circles" and "checkerboard" with their default noise (package doc),
// and "se1", "se2", "se3", "se3text". Names are matched case-insensitively
// after trimming spaces. An unknown name gives an error wrapping
// errUnknownName that lists the known names. [Gaussian] is not offered
// here because it needs a dimension.
func ByName(name string, n int, seed uint64) (*Set, error) {
	key := strings.ToLower(strings.TrimSpace(name))
	for _, g := range generators {
		if g.name == key {
			return g.gen(n, seed)
		}
	}
	return nil, fmt.Errorf("synth: %w %q (known: %s)", errUnknownName, name, strings.Join(knownNames(), ", "))
}
