package asm

import (
	"fmt"

	"github.com/rfkit/rfkit/internal/cpu"
)

// path is the implementation every kernel dispatches on: the dispatch table,
// and the package's only mutable global. It is chosen once at start-up from
// what the CPU supports, what this build compiled in (compiledPaths, per build
// tag) and RFKIT_DISABLE.
var path = cpu.Best(compiledPaths)

// Selected returns the name of the implementation the kernels use now:
// "avx512", "avx2", "neon" or "generic".
func Selected() string { return path.String() }

// Paths returns the names of every implementation this process can run: the
// ones compiled in (none with -tags purego) that the CPU supports and
// RFKIT_DISABLE left on, plus "generic".
func Paths() []string {
	out := []string{cpu.Generic.String()}
	for _, p := range compiledPaths {
		if cpu.Enabled(p) {
			out = append(out, p.String())
		}
	}
	return out
}

// SetPath switches every kernel to the named implementation and returns a
// function that restores the previous one. It is the test and benchmark
// hook: tests and benchmarks that compare paths in one process call it
// (production code never does; RFKIT_DISABLE chooses paths for a whole
// run). It must not race with kernel calls, so never call it while other
// goroutines use the package.
func SetPath(name string) (restore func(), err error) {
	p, err := cpu.ParsePath(name)
	if err != nil {
		return nil, fmt.Errorf("asm: %w", err)
	}
	ok := p == cpu.Generic
	for _, c := range compiledPaths {
		ok = ok || (c == p && cpu.Enabled(p))
	}
	if !ok {
		return nil, fmt.Errorf("asm: path %q is not available here (available: %v)", name, Paths())
	}
	old := path
	path = p
	return func() { path = old }, nil
}
