package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/rfkit/rfkit/internal/cpu"
	"github.com/rfkit/rfkit/internal/interrupt"
)

// command is one subcommand.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, env *env, args []string) error
}

// commands lists the subcommands in the order the usage shows them.
var commands = []command{
	{"train", "fit a model on a data file and write the model file", runTrain},
	{"predict", "write one prediction per row of a data file", runPredict},
	{"eval", "accuracy, log loss, AUC, macro-F1 and confusion matrix, or RMSE, MAE and R², of a model on a data file", runEval},
	{"cv", "k-fold cross-validated grid search over hyper-parameters; -model saves the best refitted", runCV},
	{"importance", "inputs ranked by permutation importance on labelled data (any model) or by learned importance", runImportance},
	{"split", "split a CSV file into training and test files (stratified for class labels, seeded)", runSplit},
	{"demo", "train GBRFF2 and RKS on the checkerboard and spiral toys", runDemo},
	{"bench", "benchmark the cos, sin, sincos and exp kernels on every SIMD path", runBench},
	{"export", "write a model as an ONNX graph (-format onnx)", runExport},
	{"info", "describe a model file: method, task, classes, inputs, configuration, size", runInfo},
	{"version", "the module version, VCS revision, Go version and SIMD path of this build", runVersion},
}

// env is what a subcommand writes to.
type env struct {
	stdout, stderr io.Writer
}

func main() {
	// The first of interrupt.Signals (Ctrl-C, SIGTERM, SIGHUP, SIGQUIT)
	// cancels ctx and the command stops at its next check; a second one
	// kills the process as usual.
	ctx, stop := interrupt.Context(context.Background())
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run executes the command line args (without the program name) and returns
// the exit status: 0 on success, 1 on a runtime error, 2 on a usage error.
// Errors, including panics, are reported as one line on stderr.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) (code int) {
	name := "rfkit"
	out := &checkedWriter{w: stdout}
	stdout = out
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "%s: internal error: %s\n", name, oneLine(fmt.Sprint(r)))
			code = 1
		}
		// Output that did not reach stdout (a full disk, a closed pipe) is a
		// failure even when the command itself succeeded.
		if err := out.Err(); err != nil && code == 0 {
			fmt.Fprintf(stderr, "%s: write stdout: %s\n", name, oneLine(err.Error()))
			code = 1
		}
	}()
	for _, w := range cpu.Warnings() {
		fmt.Fprintf(stderr, "rfkit: warning: %s\n", w)
	}
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	sub := args[0]
	switch sub {
	case "-version", "--version":
		return run(ctx, append([]string{"version"}, args[1:]...), stdout, stderr)
	case "-h", "-help", "--help", "help":
		if len(args) > 1 && sub == "help" {
			return run(ctx, []string{args[1], "-h"}, stdout, stderr)
		}
		usage(stdout)
		return 0
	}
	for _, c := range commands {
		if c.name == sub {
			name = "rfkit " + sub
			return report(stderr, name, c.run(ctx, &env{stdout: stdout, stderr: stderr}, args[1:]))
		}
	}
	fmt.Fprintf(stderr, "rfkit: unknown command %q (commands: %s; see rfkit -h)\n", sub, strings.Join(commandNames(), ", "))
	return 2
}

// checkedWriter passes writes to w and keeps the first error, after which
// it writes nothing more; run checks it when the command returns. It is
// safe for concurrent use (the progress line writes from a ticker).
type checkedWriter struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	c.err = err
	return n, err
}

// Err returns the first write error.
func (c *checkedWriter) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// report prints err as one line prefixed with the command's name and
// returns the exit status it stands for.
func report(stderr io.Writer, name string, err error) int {
	switch {
	case err == nil, errors.Is(err, errHelp):
		return 0
	case isUsage(err):
		fmt.Fprintf(stderr, "%s: %s (see %s -h)\n", name, oneLine(err.Error()), name)
		return 2
	case errors.Is(err, context.Canceled):
		fmt.Fprintf(stderr, "%s: interrupted (%s)\n", name, oneLine(err.Error()))
		return 1
	}
	fmt.Fprintf(stderr, "%s: %s\n", name, oneLine(err.Error()))
	return 1
}

// oneLine joins the lines of s with "; " so an error stays on one line.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' }), "; ")
}

func commandNames() []string {
	out := make([]string, len(commands))
	for i, c := range commands {
		out[i] = c.name
	}
	return out
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "rfkit trains and applies random-Fourier-feature models.")
	fmt.Fprintln(w, "\nUsage: rfkit <command> [flags]   (rfkit <command> -h for its flags; rfkit --version)")
	fmt.Fprintln(w, "\nCommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-11s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nMethods:")
	for _, m := range methodList() {
		fmt.Fprintf(w, "  %-11s %s\n", m.Name, m.Doc)
	}
	fmt.Fprintln(w, "\nExit status: 0 ok, 1 runtime error, 2 usage error.")
}
