package main

import (
	"context"
	"io"

	"github.com/rfkit/rfkit/internal/atomicfile"
	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners"
)

// writeModel writes model to path (atomicfile.Write: complete or absent)
// and returns its size in bytes and its first bytes, up to the end of the
// largest header (modelfile.ReadHeader reads them). A model that streams its encoding
// (io.WriterTo, as every learner's does) is not held in memory whole: a
// model of 10⁸ bytes of landmarks would otherwise double the command's
// peak memory at the very end of a fit.
func writeModel(ctx context.Context, path string, model learners.Model) (int64, []byte, error) {
	var n int64
	head := &headWriter{max: len(modelfile.Magic) + 6 + modelfile.MaxHeader}
	err := atomicfile.Write(ctx, path, func(out io.Writer) error {
		head.b = head.b[:0]
		w := io.MultiWriter(out, head)
		if wt, ok := model.(io.WriterTo); ok {
			var err error
			n, err = wt.WriteTo(w)
			return err
		}
		data, err := model.MarshalBinary()
		if err != nil {
			return err
		}
		k, err := w.Write(data)
		n = int64(k)
		return err
	})
	return n, head.b, err
}

// headWriter keeps the first max bytes written to it.
type headWriter struct {
	b   []byte
	max int
}

func (h *headWriter) Write(p []byte) (int, error) {
	if k := min(len(p), h.max-len(h.b)); k > 0 {
		h.b = append(h.b, p[:k]...)
	}
	return len(p), nil
}
