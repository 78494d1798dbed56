package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	rfbeam "github.com/rfkit/rfkit/beam"
	"github.com/rfkit/rfkit/learners"
)

// The numeric flags are bounded (boundedInt): a value out of range, or not
// an integer, fails in parse as a usage error (exit status 2) naming the
// flag and its range, before anything is read or a job starts, as in
// rfkit (cmd/rfkit/bounded.go). The enumerated string flags are checked
// by checkFlags, also before anything is read.

const (
	// maxFolds bounds --folds, as rfkit cv bounds -folds.
	maxFolds = 100_000
	// maxInputs bounds --inputs: rfkit's largest -max-inputs (a LIBSVM
	// row of more inputs alone exceeds its 1 GiB bound); the fit's own
	// size statement (learners.CheckSize) bounds its memory below that.
	maxInputs = 1 << 27
)

// boundedInt is an int flag bounded to [lo, hi].
type boundedInt struct {
	p      *int
	lo, hi int
}

func (b *boundedInt) String() string {
	if b.p == nil {
		return "0"
	}
	return strconv.Itoa(*b.p)
}

func (b *boundedInt) Set(s string) error {
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || v < int64(b.lo) || v > int64(b.hi) {
		return fmt.Errorf("want an integer from %d to %d", b.lo, b.hi)
	}
	*b.p = int(v)
	return nil
}

// intRange defines an int flag of flag.CommandLine bounded to [lo, hi].
func intRange(name string, def, lo, hi int, usage string) *int {
	p := new(int)
	*p = def
	flag.Var(&boundedInt{p: p, lo: lo, hi: hi}, name, usage)
	return p
}

// ownFlags are the flags rfkit-beam declares (beside Beam's).
var ownFlags = []string{"model", "input", "output", "shards", "epochs", "output-kind", "format", "label", "inputs", "method", "task", "folds", "seed", "param", "grid"}

// checkFlags checks the enumerated flags for the command cmd.
func checkFlags(cmd string) error {
	switch rfbeam.Output(*kind) {
	case rfbeam.Predict, rfbeam.RawScore, rfbeam.Probability:
	default:
		return usagef("--output-kind %q: want predict, score or probability", *kind)
	}
	switch *format {
	case "", string(rfbeam.CSV), string(rfbeam.LIBSVM):
	default:
		return usagef("--format %q: want csv or libsvm", *format)
	}
	switch *task {
	case "auto", "binary", "regression":
	case "multiclass":
		if cmd != "cv" {
			return usagef("--task %q: want auto, binary or regression", *task)
		}
	default:
		return usagef("--task %q: want auto, binary, multiclass (cv) or regression", *task)
	}
	if cmd == "cv" {
		if _, err := learners.Lookup(*method); err != nil {
			return usagef("--method %q: %v", *method, err)
		}
	}
	return nil
}

// parseFlags parses args into flag.CommandLine, which reports nothing
// itself: the caller prints the error on one line.
func parseFlags(args []string) error {
	flag.CommandLine.Init("rfkit-beam", flag.ContinueOnError)
	flag.CommandLine.SetOutput(io.Discard)
	err := flag.CommandLine.Parse(args)
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		return usagef("%v", err)
	}
	return err
}
