//go:build unix

package atomicfile

import (
	"io/fs"
	"os"
	"slices"
	"syscall"
)

// writable reports whether this process may write the existing file fi
// by its permission bits (canWrite with the effective user and groups).
func writable(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return true
	}
	groups, _ := os.Getgroups()
	return canWrite(fi.Mode().Perm(), int(st.Uid), int(st.Gid), os.Geteuid(), os.Getegid(), groups)
}

// canWrite applies the permission bits perm of a file owned by uid:gid to
// a process of user euid, group egid and supplementary groups: root may
// write anything, the owner by the owner's bit, a member of the group by
// the group's, others by the others'.
func canWrite(perm fs.FileMode, uid, gid, euid, egid int, groups []int) bool {
	switch {
	case euid == 0:
		return true
	case euid == uid:
		return perm&0o200 != 0
	case egid == gid || slices.Contains(groups, gid):
		return perm&0o020 != 0
	}
	return perm&0o002 != 0
}
