//go:build !unix

package interrupt

import "os"

// hangups is empty where the system has no SIGHUP or SIGQUIT.
var hangups []os.Signal
