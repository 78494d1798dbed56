package atomicfile

import (
	"errors"
	"fmt"
	"os"
)

// ErrNotWritable is wrapped by the error of Write for an existing file
// whose permission bits do not let the caller write it: it is not
// replaced, though its directory would let the rename through.
var ErrNotWritable = errors.New("not writable by this user: not replaced")

// SameFileError is CheckDistinct's error: the output is the input.
type SameFileError struct {
	Output, Input string
}

func (e *SameFileError) Error() string {
	if e.Output == e.Input {
		return fmt.Sprintf("%s is both an input and the output: it would be overwritten", e.Output)
	}
	return fmt.Sprintf("the output %s is the input %s (the same file): it would be overwritten", e.Output, e.Input)
}

// CheckDistinct returns a *SameFileError when the output path names the
// same regular file (device and inode, through symbolic and hard links)
// as one of inputs, so that a command refuses before reading anything
// rather than replace its input. Paths that do not exist yet, "" and "-"
// (stdin, stdout) and files that are not regular (a device or a pipe,
// which writing does not replace) pass.
func CheckDistinct(output string, inputs ...string) error {
	of, ok := regular(output)
	if !ok {
		return nil
	}
	for _, in := range inputs {
		if inf, ok := regular(in); ok && os.SameFile(of, inf) {
			return &SameFileError{Output: output, Input: in}
		}
	}
	return nil
}

// regular stats path (following links) when it is an existing regular
// file.
func regular(path string) (os.FileInfo, bool) {
	if path == "" || path == "-" {
		return nil, false
	}
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return nil, false
	}
	return fi, true
}
