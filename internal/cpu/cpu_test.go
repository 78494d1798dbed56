package cpu

import (
	"runtime"
	"strings"
	"testing"
)

func TestParsePath(t *testing.T) {
	for p := Generic; p < numPaths; p++ {
		q, err := ParsePath(p.String())
		if err != nil || q != p {
			t.Errorf("ParsePath(%q) = %v, %v", p.String(), q, err)
		}
	}
	if _, err := ParsePath("sse9"); err == nil {
		t.Error("ParsePath accepted an unknown name")
	}
}

func TestBest(t *testing.T) {
	if Best(nil) != Generic {
		t.Error("Best(nil) must be Generic")
	}
	if !HasHardware(Generic) || !Enabled(Generic) {
		t.Error("Generic must always be available")
	}
	if runtime.GOARCH == "arm64" && !HasHardware(NEON) {
		t.Error("arm64 without NEON")
	}
	if HasHardware(AVX512) && !HasHardware(AVX2) {
		t.Error("AVX-512 reported without AVX2")
	}
	if b := Best([]Path{AVX2, AVX512}); b != Generic && !Enabled(b) {
		t.Errorf("Best chose disabled path %v", b)
	}
}

func TestCheckRequired(t *testing.T) {
	t.Setenv("RFKIT_TEST_REQUIRE", "avx2")
	if CheckRequired(AVX2) != nil {
		t.Error("requirement met but reported")
	}
	if CheckRequired(Generic) == nil {
		t.Error("unmet requirement not reported")
	}
	t.Setenv("RFKIT_TEST_REQUIRE", "bogus")
	if CheckRequired(Generic) == nil {
		t.Error("unknown requirement not reported")
	}
}

func TestDisableWarnings(t *testing.T) {
	savedD, savedW := disabled, warnings
	defer func() { disabled, warnings = savedD, savedW }()
	disabled, warnings = [numPaths]bool{}, nil
	parseDisable("avx-512, AVX2,generic")
	if !disabled[AVX2] || disabled[AVX512] {
		t.Errorf("disabled %v", disabled)
	}
	w := Warnings()
	if len(w) != 2 || !strings.Contains(w[0], `unknown path "avx-512" ignored`) || !strings.Contains(w[1], "generic cannot be turned off") {
		t.Errorf("warnings %q", w)
	}
}
