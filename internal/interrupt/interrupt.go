// Package interrupt is the one set of signals rfkit's commands (rfkit,
// rfkit-beam) take as a request to stop, and the context they cancel.
package interrupt

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// Signals are every terminating signal a command can catch: Ctrl-C
// (SIGINT), the SIGTERM of kill, timeout and service managers, the SIGHUP
// of a closed terminal or ssh session, and the SIGQUIT of Ctrl-\. Each
// cancels the command's context, so a fit stops at its next check, the
// temporary files are removed, no output file is replaced, and the
// command exits 1 with one line (SIGQUIT no longer dumps the goroutines).
// Where the system has no SIGHUP or SIGQUIT (js/wasm) the set is Ctrl-C
// and SIGTERM.
var Signals = append([]os.Signal{os.Interrupt, syscall.SIGTERM}, hangups...)

// Context returns a copy of parent cancelled by the first of Signals;
// after it, the signals get their default action again, so a second one
// ends the process at once. stop releases the signals.
func Context(parent context.Context) (ctx context.Context, stop context.CancelFunc) {
	ctx, stop = signal.NotifyContext(parent, Signals...)
	go func() {
		<-ctx.Done()
		stop()
	}()
	return ctx, stop
}
