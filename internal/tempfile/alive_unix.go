//go:build unix

package tempfile

import "syscall"

// alive reports whether process pid runs on this machine (or may: one of
// another user's).
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}
