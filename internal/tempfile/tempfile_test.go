package tempfile

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestRemoveStale checks which temporary files Create and RemoveStale
// remove: those of a writer that has ended or is not named, of the file
// asked for (Create) or of any (RemoveStale with no name), and never one
// that a running process writes, nor a file that is not temporary.
func TestRemoveStale(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no asking whether a process runs here: every named writer is kept")
	}
	done := exec.Command("true")
	if err := done.Run(); err != nil {
		t.Skip("no process to wait for:", err)
	}
	ended := done.Process.Pid
	dir := t.TempDir()
	write := func(names ...string) {
		for _, name := range names {
			if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	there := func(name string) bool {
		_, err := os.Stat(filepath.Join(dir, name))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
		return err == nil
	}
	mine := fmt.Sprintf(".a.db.tmp%d-1", os.Getpid())
	keep := []string{
		mine,               // this process writes it
		"a.db", "a.db.tmp", // not temporary files
		fmt.Sprintf(".b.db.tmp%d-2", ended), // another file's: Create(a.db) leaves it
		".tmp",
	}
	gone := []string{
		fmt.Sprintf(".a.db.tmp%d-3", ended), // its writer has ended
		".a.db.tmp123456789",                // named before names held the process
	}
	write(append(keep, gone...)...)
	f, err := Create(filepath.Join(dir, "a.db"))
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	name := filepath.Base(f.Name())
	if pid, ok := writer(name[strings.LastIndex(name, ".tmp")+len(".tmp"):]); !ok || pid != os.Getpid() {
		t.Errorf("Create made %s: writer %d, %v; want this process, %d", f.Name(), pid, ok, os.Getpid())
	}
	for _, name := range keep {
		if !there(name) {
			t.Errorf("Create(a.db) removed %s", name)
		}
	}
	for _, name := range gone {
		if there(name) {
			t.Errorf("Create(a.db) left %s, whose writer has ended", name)
		}
	}
	// Without a name: every file's leftovers.
	write(".c.tier.tmp-split")
	RemoveStale(dir, "")
	for _, name := range []string{fmt.Sprintf(".b.db.tmp%d-2", ended), ".c.tier.tmp-split"} {
		if there(name) {
			t.Errorf("RemoveStale left %s", name)
		}
	}
	for _, name := range []string{mine, filepath.Base(f.Name()), "a.db", "a.db.tmp", ".tmp"} {
		if !there(name) {
			t.Errorf("RemoveStale removed %s", name)
		}
	}
}

// TestCreateHere checks that a bare file name's temporary file is made in
// the current folder, where the rename to it stays on one file system.
func TestCreateHere(t *testing.T) {
	t.Chdir(t.TempDir())
	f, err := Create("x.db")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if filepath.Dir(f.Name()) != "." {
		t.Errorf("Create(x.db) made %s, not in the current folder", f.Name())
	}
}
