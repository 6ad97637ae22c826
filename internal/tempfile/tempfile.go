// Package tempfile makes the temporary files that retro writes a file
// under before renaming it into place (a tier, a database, a checkpoint),
// named after the process that writes them, so that a later run can tell
// what a killed writer left behind (kill -9 leaves its temporary file)
// from a file that a live process is still writing, and remove the first
// kind only.
//
// A temporary file for path is ".NAME.tmpPID-RANDOM" in path's folder,
// NAME being path's base name.
package tempfile

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Create makes a temporary file for path in its folder, opened for
// writing, after removing the temporary files of path that no running
// process writes (RemoveStale). The caller renames it to path when it is
// complete, or removes it.
func Create(path string) (*os.File, error) {
	dir, name := filepath.Dir(path), filepath.Base(path)
	RemoveStale(dir, name)
	return os.CreateTemp(dir, "."+name+".tmp"+strconv.Itoa(os.Getpid())+"-*")
}

// RemoveStale removes from dir the temporary files of the file called
// name, or of every file if name is "", that their writers left: those
// whose process no longer runs, and those named without a process (by an
// earlier retro, or ".NAME.tmp-split"). Errors are ignored: what cannot
// be removed now is tried again the next time.
func RemoveStale(dir, name string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		f := e.Name()
		k := strings.LastIndex(f, ".tmp")
		if k < 1 || f[0] != '.' || name != "" && f[1:k] != name {
			continue
		}
		if pid, ok := writer(f[k+len(".tmp"):]); !ok || !alive(pid) {
			os.Remove(filepath.Join(dir, f))
		}
	}
}

// writer returns the process number in what follows ".tmp" in the name of
// a temporary file made by Create ("PID-RANDOM"); ok is false for a name
// without one.
func writer(suffix string) (pid int, ok bool) {
	digits, _, dash := strings.Cut(suffix, "-")
	if !dash {
		return 0, false
	}
	pid, err := strconv.Atoi(digits)
	return pid, err == nil && pid > 0
}
