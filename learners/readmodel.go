package learners

import (
	"io"

	"github.com/rfkit/rfkit/internal/modelfile"
)

// ReadModel reads one model file from r, as a stream (so a pipe works)
// and checked on the way: the magic before anything else, then every
// length the container declares before the bytes it covers are read, at
// most 4 GiB in all, so neither /dev/zero nor a lying header
// fills memory. It returns the file's bytes for Load (which checks the
// checksum and the contents). Errors for a stream that is not a model file
// wrap ErrCorrupt; r's own are returned as they are. The rfkit command and
// rfkit-beam read every model file through it.
func ReadModel(r io.Reader) ([]byte, error) { return modelfile.ReadAll(r) }
