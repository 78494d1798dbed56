package asm

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// highVector matches the vector registers 16–31, which exist only with
// AVX-512 (an instruction naming one is EVEX-encoded).
var highVector = regexp.MustCompile(`\b[XYZ](1[6-9]|2[0-9]|3[01])\b`)

// TestAVX2KernelsUseSixteenRegisters: no function of the generated amd64
// assembly other than an AVX-512 one names a vector register above 15 or
// has an instruction the generator lists as needing AVX-512 (its
// "Requires:" line).
// The register allocator of the generator may take any of the 32, and on a
// machine with AVX-512 such an AVX2 body runs, so the differential tests
// pass there; on an AVX2-only machine it is an illegal instruction. This
// check reads the files, so it fails on every machine.
func TestAVX2KernelsUseSixteenRegisters(t *testing.T) {
	files, err := filepath.Glob("*_amd64.s")
	if err != nil || len(files) == 0 {
		t.Fatalf("no amd64 assembly found (%v)", err)
	}
	funcs := 0
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		fn, requires := "", ""
		for i, line := range strings.Split(string(src), "\n") {
			if strings.HasPrefix(line, "// Requires:") {
				requires = line
				continue
			}
			if strings.HasPrefix(line, "TEXT ") {
				fn = strings.Fields(line)[1]
				funcs++
				if !strings.Contains(fn, "AVX512") && strings.Contains(requires, "AVX512") {
					t.Errorf("%s:%d: %s is not an AVX-512 body but %s", name, i+1, fn, requires)
				}
				requires = ""
				continue
			}
			if fn == "" || strings.Contains(fn, "AVX512") || strings.HasPrefix(strings.TrimSpace(line), "//") {
				continue
			}
			if r := highVector.FindString(line); r != "" {
				t.Errorf("%s:%d: %s uses %s, an AVX-512 register: %s", name, i+1, fn, r, strings.TrimSpace(line))
			}
		}
	}
	if funcs == 0 {
		t.Fatal("no TEXT symbols found: the check read nothing")
	}
}
