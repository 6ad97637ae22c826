package bench

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
)

// SharedDir returns the project's shared folder (the seeds, GAMES.md and
// the tools), which sits beside the module's root: ../shared from the
// folder holding go.mod. It searches upwards from the working directory.
func SharedDir() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			shared := filepath.Join(filepath.Dir(dir), "shared")
			if _, err := os.Stat(filepath.Join(shared, "tools", "seed-baselines.sh")); err != nil {
				return "", fmt.Errorf("no shared/tools/seed-baselines.sh beside the module root %s", dir)
			}
			return shared, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}

// The seed programs that shared/tools/seed-baselines.sh builds.
const (
	PawnsSeed    = "pawns-seed"     // seed 001 as printed: boards up to 10 x 10
	PawnsSeed15  = "pawns-seed-15"  // seed 001 with arrays for 15 x 15
	PoliceSeed   = "police-seed"    // seed 003 as printed: up to 100 cells
	PoliceSeed4K = "police-seed-4k" // seed 003 with arrays for 4096 cells
)

var seedBuild struct {
	once sync.Once
	dir  string
	err  error
}

// SeedPrograms builds the seeds' C++ programs (once per process, and once
// per version of the seeds in a folder under the system's temporary
// directory) and returns the folder that holds them. It fails, saying why,
// where the shared folder or g++ is missing.
func SeedPrograms() (string, error) {
	s := &seedBuild
	s.once.Do(func() { s.dir, s.err = buildSeeds() })
	return s.dir, s.err
}

func buildSeeds() (string, error) {
	shared, err := SharedDir()
	if err != nil {
		return "", err
	}
	if _, err := exec.LookPath("g++"); err != nil {
		return "", errors.New("g++ is not installed")
	}
	h := sha256.New()
	for _, f := range []string{"tools/seed-baselines.sh", "seeds/001_db2a04a7a6f236e2.txt", "seeds/003_a55b0f1313bec1e6.txt"} {
		data, err := os.ReadFile(filepath.Join(shared, f))
		if err != nil {
			return "", err
		}
		h.Write(data)
	}
	dir := filepath.Join(os.TempDir(), "retro-seeds-"+hex.EncodeToString(h.Sum(nil))[:12])
	if _, err := os.Stat(filepath.Join(dir, PoliceSeed4K)); err == nil {
		return dir, nil
	}
	tmp, err := os.MkdirTemp(os.TempDir(), "retro-seeds-build-")
	if err != nil {
		return "", err
	}
	out, err := exec.Command("bash", filepath.Join(shared, "tools", "seed-baselines.sh"), tmp).CombinedOutput()
	if err != nil {
		os.RemoveAll(tmp)
		return "", fmt.Errorf("seed-baselines.sh: %v: %s", err, out)
	}
	if err := os.Rename(tmp, dir); err != nil {
		// Another process built them first: use its folder.
		os.RemoveAll(tmp)
		if _, serr := os.Stat(filepath.Join(dir, PoliceSeed4K)); serr != nil {
			return "", err
		}
	}
	return dir, nil
}
