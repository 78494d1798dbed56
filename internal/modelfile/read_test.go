package modelfile

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// zeros is an endless stream of zero bytes (/dev/zero) that counts what
// was read from it.
type zeros struct{ n int }

func (z *zeros) Read(p []byte) (int, error) {
	clear(p)
	z.n += len(p)
	return len(p), nil
}

// TestReadAllHostile: ReadAll stops at the magic of /dev/zero, at a lying
// header length or element count, and at a truncated file, with errors
// wrapping ErrCorrupt, having read little.
func TestReadAllHostile(t *testing.T) {
	z := &zeros{}
	if _, err := ReadAll(z); !errors.Is(err, ErrCorrupt) || z.n > 1<<16 {
		t.Errorf("/dev/zero: %v after %d bytes", err, z.n)
	}
	good := mustMarshal(t, sample())
	if b, err := ReadAll(bytes.NewReader(good)); err != nil || !bytes.Equal(b, good) {
		t.Fatalf("good file: %v", err)
	}
	// The magic and version, then a header length of 2^32 − 1.
	lying := append(append([]byte(nil), good[:10]...), 0xff, 0xff, 0xff, 0xff)
	if _, err := ReadAll(io.MultiReader(bytes.NewReader(lying), &zeros{})); !errors.Is(err, ErrCorrupt) {
		t.Errorf("header length 2^32−1: %v", err)
	}
	for _, n := range []int{0, 3, 8, 20, len(good) - 1} {
		if _, err := ReadAll(bytes.NewReader(good[:n])); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%d of %d bytes: %v", n, len(good), err)
		}
	}
	if _, err := ReadAll(bytes.NewReader(append(good, 0))); !errors.Is(err, ErrCorrupt) {
		t.Errorf("a trailing byte: %v", err)
	}
}

// FuzzReadAll: whatever the stream, ReadAll returns bytes Parse may judge
// or an error wrapping ErrCorrupt, never more bytes than it was given.
func FuzzReadAll(f *testing.F) {
	good := mustMarshal(f, sample())
	f.Add(good)
	for _, n := range []int{0, 7, 8, 12, 20, len(good) / 2, len(good) - 1} {
		f.Add(good[:n])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := ReadAll(bytes.NewReader(data))
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v does not wrap ErrCorrupt", err)
			}
			return
		}
		if !bytes.Equal(b, data) {
			t.Fatalf("read %d bytes of %d", len(b), len(data))
		}
		checkParse(t, b)
	})
}
