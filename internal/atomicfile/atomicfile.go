// Package atomicfile writes files so that a reader never sees a half-written
// one: the bytes go to a temporary file beside the target, which is synced
// and renamed over it only when everything succeeded. The rfkit command
// writes its models and outputs with it, the bench commands their result
// files, so a failed or cancelled run leaves the previous file intact.
package atomicfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Write writes path through write. For a regular file (or a
// path that does not exist yet) that is atomic: the bytes go to a
// temporary file in the directory of the file, which is synced and renamed
// over it only when write and the close succeed and ctx is still live. On
// any error, a cancelled ctx (Ctrl-C, SIGTERM) or a panic the temporary
// file is removed and the file is left as it was, so a reader never sees a
// half-written file.
//
// What path names is kept: a symbolic link is followed and the file it
// points to is replaced (the link stays a link); an existing file keeps its
// permission bits, and one the caller could not write (its permission bits
// deny it) is not replaced but an error (ErrNotWritable); a new file gets
// 0666 less the umask, as any program's; a device, a named pipe or a socket (/dev/null,
// /dev/stdout, a FIFO) cannot be renamed over, so it is written through
// directly; a directory is an error.
func Write(ctx context.Context, path string, write func(io.Writer) error) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	target, mode, special, err := resolveOutput(path)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if special {
		return writeThrough(ctx, path, write)
	}
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	tmp, err := createTemp(dir, "."+base+".tmp-")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	name := tmp.Name()
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(name)
		}
	}()
	if err := write(ctxWriter{ctx, tmp}); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if mode != newFile {
		if err := tmp.Chmod(mode); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	// The last moment a signal can still keep the old file.
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := os.Rename(name, target); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	done = true
	return nil
}

// newFile is the mode resolveOutput returns for a file that does not
// exist yet: the temporary file keeps the mode it was created with (0666
// less the umask).
const newFile fs.FileMode = 1<<32 - 1

// resolveOutput returns the file that writing path replaces (path with
// its symbolic links followed, also a dangling link's target), the
// permission bits to give it (the old file's, else newFile), and whether
// path is not a regular file and must be written through. An existing
// regular file the caller could not write is ErrNotWritable.
func resolveOutput(path string) (target string, mode fs.FileMode, special bool, err error) {
	fi, err := os.Stat(path) // follows links, also the kernel's (/dev/stdout)
	switch {
	case err == nil && fi.IsDir():
		return "", 0, false, errors.New("is a directory")
	case err == nil && !fi.Mode().IsRegular():
		return path, 0, true, nil
	case err == nil:
		if target, err = filepath.EvalSymlinks(path); err != nil {
			return "", 0, false, err
		}
		if !writable(fi) {
			return "", 0, false, fmt.Errorf("%w (mode %v)", ErrNotWritable, fi.Mode().Perm())
		}
		return target, fi.Mode().Perm(), false, nil
	case !errors.Is(err, fs.ErrNotExist):
		return "", 0, false, err
	}
	// Nothing there yet, or a dangling link: create the file the chain of
	// links ends at.
	target = path
	for range 40 { // the number of links Linux follows
		fi, err := os.Lstat(target)
		if errors.Is(err, fs.ErrNotExist) {
			return target, newFile, false, nil
		}
		if err != nil {
			return "", 0, false, err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return "", 0, false, fmt.Errorf("%s appeared while writing", target)
		}
		link, err := os.Readlink(target)
		if err != nil {
			return "", 0, false, err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(target), link)
		}
		target = link
	}
	return "", 0, false, errors.New("too many levels of symbolic links")
}

// writeThrough writes to an existing non-regular file (a device, a pipe)
// in place: there is nothing to rename over.
func writeThrough(ctx context.Context, path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := write(ctxWriter{ctx, f}); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// ctxWriter fails writes once ctx is cancelled, so that a signal stops a
// long write (a model of hundreds of megabytes) promptly.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}

// WriteBytes writes data to path with Write, in pieces so
// that a cancelled ctx stops it between them.
func WriteBytes(ctx context.Context, path string, data []byte) error {
	return Write(ctx, path, func(w io.Writer) error {
		const piece = 4 << 20
		for len(data) > 0 {
			n := min(len(data), piece)
			if _, err := w.Write(data[:n]); err != nil {
				return err
			}
			data = data[n:]
		}
		return nil
	})
}
