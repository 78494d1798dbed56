//go:build unix

package atomicfile

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestUmask: a new file gets 0666 less the umask (0600 under umask 077,
// 0640 under 027); an existing file keeps its mode whatever the umask.
func TestUmask(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		umask int
		want  fs.FileMode
	}{{0o077, 0o600}, {0o027, 0o640}, {0o002, 0o664}} {
		old := syscall.Umask(c.umask)
		p := filepath.Join(dir, "new")
		os.Remove(p)
		err := WriteBytes(context.Background(), p, []byte("x"))
		syscall.Umask(old)
		if err != nil {
			t.Fatal(err)
		}
		if st, _ := os.Stat(p); st.Mode().Perm() != c.want {
			t.Errorf("umask %03o: new file mode %v, want %v", c.umask, st.Mode().Perm(), c.want)
		}
	}
	p := filepath.Join(dir, "old")
	if err := os.WriteFile(p, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, 0o604); err != nil {
		t.Fatal(err)
	}
	old := syscall.Umask(0o077)
	err := WriteBytes(context.Background(), p, []byte("x"))
	syscall.Umask(old)
	if st, _ := os.Stat(p); err != nil || st.Mode().Perm() != 0o604 {
		t.Errorf("existing file: mode %v (%v), want 0604 kept", st.Mode().Perm(), err)
	}
}

// TestCanWrite: the permission rule that keeps Write from replacing a
// file the caller could not write (a 0444 file of root in a 0777
// directory, replaced by another user before).
func TestCanWrite(t *testing.T) {
	for _, c := range []struct {
		perm                 fs.FileMode
		uid, gid, euid, egid int
		groups               []int
		want                 bool
	}{
		{0o444, 0, 0, 1000, 1000, nil, false},       // root's read-only file, another user
		{0o644, 0, 0, 1000, 1000, nil, false},       // root's file, not group/other-writable
		{0o666, 0, 0, 1000, 1000, nil, true},        // world-writable
		{0o444, 1000, 1000, 1000, 1000, nil, false}, // one's own read-only file
		{0o644, 1000, 1000, 1000, 1000, nil, true},  // one's own file
		{0o464, 0, 50, 1000, 1000, []int{50}, true}, // a supplementary group's
		{0o464, 0, 50, 1000, 1000, nil, false},
		{0o444, 1000, 1000, 0, 0, nil, true}, // root writes anything
	} {
		if got := canWrite(c.perm, c.uid, c.gid, c.euid, c.egid, c.groups); got != c.want {
			t.Errorf("canWrite(%v, owner %d:%d, user %d:%d %v) = %v, want %v", c.perm, c.uid, c.gid, c.euid, c.egid, c.groups, got, c.want)
		}
	}
}

// TestNotWritable: as a user other than root, Write refuses to replace a
// 0444 file (rename would let it through: the directory is writable).
func TestNotWritable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root may write any file (TestCanWrite checks the rule)")
	}
	p := filepath.Join(t.TempDir(), "ro")
	if err := os.WriteFile(p, []byte("old"), 0o444); err != nil {
		t.Fatal(err)
	}
	if err := WriteBytes(context.Background(), p, []byte("new")); !errors.Is(err, ErrNotWritable) {
		t.Errorf("err = %v, want ErrNotWritable", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "old" {
		t.Errorf("replaced: %q", b)
	}
}

// TestCheckDistinct: an output that is an input, by name, through a
// symbolic link or a hard link, is a SameFileError; another file, a new
// path, "-" and a device pass.
func TestCheckDistinct(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.csv")
	other := filepath.Join(dir, "other.csv")
	for _, p := range []string{in, other} {
		if err := os.WriteFile(p, []byte("a,y\n1,1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sym, hard := filepath.Join(dir, "sym"), filepath.Join(dir, "hard")
	if err := os.Symlink("in.csv", sym); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(in, hard); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{in, sym, hard, filepath.Join(dir, ".", "in.csv")} {
		var same *SameFileError
		if err := CheckDistinct(out, other, in); !errors.As(err, &same) || same.Input != in {
			t.Errorf("output %s: %v, want a SameFileError naming %s", out, err, in)
		}
	}
	for _, out := range []string{other, filepath.Join(dir, "new"), "-", "", os.DevNull} {
		if err := CheckDistinct(out, in, "-", os.DevNull); err != nil {
			t.Errorf("output %s: %v", out, err)
		}
	}
}
