//go:build unix

package interrupt

import (
	"os"
	"syscall"
)

// hangups are the terminating signals of a Unix terminal beyond INT and
// TERM: a closed terminal (SIGHUP) and Ctrl-\ (SIGQUIT).
var hangups = []os.Signal{syscall.SIGHUP, syscall.SIGQUIT}
