package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// asMainEnv makes the test binary run main instead of the tests, so that
// TestInterrupt can send a real Ctrl-C to a real process.
const asMainEnv = "RFKIT_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(asMainEnv) == "1" {
		main()
	}
	os.Exit(m.Run())
}

func TestInterrupt(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("no SIGINT here")
	}
	if testing.Short() {
		t.Skip("starts a process and waits for it")
	}
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", csvText(moons(t, 2000, 1, 0, 1), true))
	model := filepath.Join(dir, "m.model")
	cmd := exec.Command(os.Args[0], "train", "-method", "gbrff2", "-param", "t=1000000", "-data", data, "-model", model)
	cmd.Env = append(os.Environ(), asMainEnv+"=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second) // well into the million rounds
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("still running 30 s after Ctrl-C")
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Errorf("exit: %v, want status 1", err)
	}
	if got := stderr.String(); !strings.HasPrefix(got, "rfkit train: interrupted") || strings.Count(got, "\n") != 1 {
		t.Errorf("stderr %q", got)
	}
	if got := files(t, dir); len(got) != 1 {
		t.Errorf("files after Ctrl-C: %v", got)
	}
}
