// Package cpu reports which SIMD code paths this machine can run and which one
// rfkit selects by default.
//
// It reads golang.org/x/sys/cpu and adds two environment switches:
//
//	RFKIT_DISABLE=avx512,avx2,neon   turn the named paths off at start-up
//	RFKIT_TEST_REQUIRE=avx2          make tests fail unless that path is the one selected
//
// The selection is computed once, when the package is initialised, after
// x/sys/cpu has run its own detection.
package cpu

import (
	"fmt"
	"os"
	"runtime"
	"strings"

	xcpu "golang.org/x/sys/cpu"
)

// Path names one implementation of the kernels.
type Path uint8

// The implementations, from slowest to fastest on their architecture.
const (
	Generic Path = iota // pure Go, every architecture
	AVX2                // amd64 with AVX2 and FMA3
	AVX512              // amd64 with AVX-512F (and OS support for the ZMM state)
	NEON                // arm64 Advanced SIMD
	numPaths
)

var pathNames = [numPaths]string{"generic", "avx2", "avx512", "neon"}

func (p Path) String() string {
	if p < numPaths {
		return pathNames[p]
	}
	return fmt.Sprintf("cpu.Path(%d)", uint8(p))
}

// ParsePath returns the Path with the given name ("generic", "avx2", "avx512", "neon").
func ParsePath(name string) (Path, error) {
	for i, n := range pathNames {
		if strings.EqualFold(strings.TrimSpace(name), n) {
			return Path(i), nil
		}
	}
	return 0, fmt.Errorf("cpu: unknown path %q (want one of %s)", name, strings.Join(pathNames[:], ", "))
}

var (
	hardware [numPaths]bool // what the CPU and OS can run, ignoring RFKIT_DISABLE
	disabled [numPaths]bool // turned off through RFKIT_DISABLE
	warnings []string       // RFKIT_DISABLE entries that were ignored, and why
)

func init() {
	hardware[Generic] = true
	switch runtime.GOARCH {
	case "amd64":
		// x/sys/cpu only reports AVX, FMA and AVX-512 when the OS saves the
		// YMM/ZMM state (XGETBV).
		hardware[AVX2] = xcpu.X86.HasAVX && xcpu.X86.HasAVX2 && xcpu.X86.HasFMA
		hardware[AVX512] = hardware[AVX2] && xcpu.X86.HasAVX512F && xcpu.X86.HasAVX512DQ
	case "arm64":
		// Advanced SIMD is mandatory in ARMv8-A.
		hardware[NEON] = true
	}
	parseDisable(os.Getenv("RFKIT_DISABLE"))
}

// parseDisable applies an RFKIT_DISABLE value, recording a warning for
// each entry it ignores: a misspelt name ("avx-512") would otherwise leave
// the path on without a word.
func parseDisable(s string) {
	for _, name := range splitList(s) {
		p, err := ParsePath(name)
		switch {
		case err != nil:
			warnings = append(warnings, fmt.Sprintf("RFKIT_DISABLE: unknown path %q ignored (want avx512, avx2 or neon)", name))
		case p == Generic:
			warnings = append(warnings, "RFKIT_DISABLE: generic cannot be turned off (it is the fallback); ignored")
		default:
			disabled[p] = true
		}
	}
}

// Warnings returns the RFKIT_DISABLE entries that were ignored, one
// sentence each, for a command to show the user.
func Warnings() []string { return append([]string(nil), warnings...) }

func splitList(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}

// HasHardware reports whether the CPU and OS can run p, whatever RFKIT_DISABLE says.
func HasHardware(p Path) bool { return p < numPaths && hardware[p] }

// Enabled reports whether p can run here and was not turned off by RFKIT_DISABLE.
// Assembly that was compiled out (purego builds) is the caller's concern.
func Enabled(p Path) bool { return HasHardware(p) && !disabled[p] }

// Best returns the fastest enabled path among those the caller was compiled with.
func Best(compiled []Path) Path {
	best := Generic
	for _, p := range compiled {
		if Enabled(p) && rank(p) > rank(best) {
			best = p
		}
	}
	return best
}

func rank(p Path) int {
	switch p {
	case AVX512:
		return 3
	case AVX2, NEON:
		return 2
	}
	return 0
}

// CheckRequired compares RFKIT_TEST_REQUIRE with the path a package actually
// selected. Tests call it from TestMain so that CI cannot silently fall back to
// a slower path. An empty variable requires nothing.
func CheckRequired(selected Path) error {
	for _, name := range splitList(os.Getenv("RFKIT_TEST_REQUIRE")) {
		p, err := ParsePath(name)
		if err != nil {
			return fmt.Errorf("RFKIT_TEST_REQUIRE: %w", err)
		}
		if p != selected {
			return fmt.Errorf("RFKIT_TEST_REQUIRE=%s but the selected path is %s (hardware: %s, RFKIT_DISABLE=%q)",
				name, selected, hardwareList(), os.Getenv("RFKIT_DISABLE"))
		}
	}
	return nil
}

func hardwareList() string {
	var s []string
	for p := Path(0); p < numPaths; p++ {
		if hardware[p] {
			s = append(s, p.String())
		}
	}
	return strings.Join(s, ",")
}
