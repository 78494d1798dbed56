// Package resultfile is how the bench commands write their result files
// (tables, CSV, plots): through internal/atomicfile, so that a failed or
// interrupted run leaves the previous file intact, and never a half-written
// table in bench/results.
package resultfile

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/rfkit/rfkit/internal/atomicfile"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// Output calls write on standard output when path is empty; otherwise it
// renders into memory and writes path atomically only if write succeeded,
// so an error part-way through leaves the old file as it was.
func Output(path string, write func(io.Writer) error) error {
	p := Start(path)
	if err := write(p.Writer()); err != nil {
		return err
	}
	return p.Commit()
}

// A Pending is a result file being rendered: with a path, the text is kept
// in memory and reaches the file only at Commit, so a run that fails or is
// interrupted first leaves the old file intact; without one, it goes to
// standard output as it is written.
type Pending struct {
	path string
	buf  bytes.Buffer
}

// Start begins a result file for path ("" for standard output).
func Start(path string) *Pending { return &Pending{path: path} }

// Writer is where the result is written.
func (p *Pending) Writer() io.Writer {
	if p.path == "" {
		return os.Stdout
	}
	return &p.buf
}

// Commit writes what was rendered to the file, atomically (nothing to do
// for standard output).
func (p *Pending) Commit() error {
	if p.path == "" {
		return nil
	}
	return Write(p.path, p.buf.Bytes())
}

// Write writes data to path atomically.
func Write(path string, data []byte) error {
	return atomicfile.WriteBytes(context.Background(), path, data)
}

// WriteTo writes path atomically from w (an image canvas, a CSV writer).
func WriteTo(path string, w io.WriterTo) error {
	return atomicfile.Write(context.Background(), path, func(out io.Writer) error {
		_, err := w.WriteTo(out)
		return err
	})
}

// SavePlot is plot.Plot.Save written atomically: the image format comes
// from the file name's extension (png, svg, pdf, ...), as for Save.
func SavePlot(p *plot.Plot, w, h vg.Length, path string) error {
	format := strings.ToLower(strings.TrimPrefix(filepath.Ext(path), "."))
	wt, err := p.WriterTo(w, h, format)
	if err != nil {
		return err
	}
	return WriteTo(path, wt)
}
