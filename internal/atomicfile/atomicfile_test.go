package atomicfile

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func names(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

// TestWrite: a failing or panicking write leaves neither a temporary file
// nor a changed target; a good one replaces the target and keeps its mode.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	boom := func(w io.Writer) error {
		w.Write([]byte("partial"))
		return os.ErrInvalid
	}
	if err := Write(context.Background(), p, boom); !errors.Is(err, os.ErrInvalid) {
		t.Fatalf("error %v, want the write's", err)
	}
	if got := names(t, dir); len(got) != 0 {
		t.Errorf("left %v", got)
	}
	func() {
		defer func() { recover() }()
		Write(context.Background(), p, func(w io.Writer) error { panic("mid-write") })
	}()
	if got := names(t, dir); len(got) != 0 {
		t.Errorf("left after a panic: %v", got)
	}
	if err := WriteBytes(context.Background(), p, []byte("ok")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "ok" {
		t.Errorf("content %q", b)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v", st.Mode())
	}
	// The previous content survives a failed rewrite.
	if err := os.Chmod(p, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(context.Background(), p, boom); err == nil {
		t.Fatal("no error")
	}
	if b, _ := os.ReadFile(p); string(b) != "ok" {
		t.Errorf("old file changed to %q", b)
	}
	if got := names(t, dir); !slices.Equal(got, []string{"f"}) {
		t.Errorf("files %v", got)
	}
	if err := WriteBytes(context.Background(), p, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the old file's 0600", st.Mode())
	}
	// A cancelled context writes nothing.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := WriteBytes(ctx, p, []byte("late")); !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "new" {
		t.Errorf("content %q after a cancelled write", b)
	}
}
