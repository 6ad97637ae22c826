//go:build linux || darwin

package main

import "syscall"

// freeDiskOS returns the bytes free to this user on the file system of dir,
// and false where the system does not say.
func freeDiskOS(dir string) (uint64, bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, false
	}
	return uint64(st.Bavail) * uint64(st.Bsize), true
}
