package asm

import (
	"fmt"
	"os"
	"testing"

	"github.com/rfkit/rfkit/internal/cpu"
)

func TestMain(m *testing.M) {
	// RFKIT_TEST_REQUIRE: fail unless the path CI asked for is the one selected.
	if err := cpu.CheckRequired(path); err != nil {
		fmt.Fprintln(os.Stderr, "asm:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "asm: selected path %s, available %v\n", Selected(), Paths())
	os.Exit(m.Run())
}

// forEachPath runs f once per implementation this process can run, with the
// kernels switched to it.
func forEachPath(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	for _, name := range Paths() {
		t.Run(name, func(t *testing.T) {
			restore, err := SetPath(name)
			if err != nil {
				t.Fatal(err)
			}
			defer restore()
			f(t)
		})
	}
}
