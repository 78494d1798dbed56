//go:build !unix

package atomicfile

import "io/fs"

// writable reports whether this process may write the existing file fi:
// the owner's write bit (Windows maps the read-only attribute onto it).
func writable(fi fs.FileInfo) bool { return fi.Mode().Perm()&0o200 != 0 }
