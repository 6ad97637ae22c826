package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/pkg/profile"
)

// profileModes maps the -profile values to github.com/pkg/profile modes;
// "" (no profile) maps to nil.
var profileModes = map[string]func(*profile.Profile){
	"":      nil,
	"cpu":   profile.CPUProfile,
	"mem":   profile.MemProfile,
	"block": profile.BlockProfile,
	"mutex": profile.MutexProfile,
	"trace": profile.TraceProfile,
}

// profileMode returns the mode of -profile kind for command cmd ("solve
// quixo", "verify"), nil for none, or a usage error: a kind it does not
// know, or -profile-dir set in fs without -profile.
func profileMode(cmd, kind string, fs *flag.FlagSet) (func(*profile.Profile), error) {
	mode, ok := profileModes[kind]
	if !ok {
		return nil, usagef("%s: -profile %q: want cpu, mem, block, mutex or trace", cmd, kind)
	}
	dirSet := false
	fs.Visit(func(f *flag.Flag) { dirSet = dirSet || f.Name == "profile-dir" })
	if dirSet && mode == nil {
		return nil, usagef("%s: -profile-dir needs -profile (cpu, mem, block, mutex or trace)", cmd)
	}
	return mode, nil
}

var profileFiles = map[string]string{
	"cpu": "cpu.pprof", "mem": "mem.pprof", "block": "block.pprof", "mutex": "mutex.pprof", "trace": "trace.out",
}

// startProfile starts a profile of the given kind into dir and returns the
// function that stops it and says where the file is.
func startProfile(mode func(*profile.Profile), dir, kind string, e *env) (func(), error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("-profile-dir: %v", err)
	}
	// The profiling library ends the process with a log line of its own
	// when it cannot create its file: find out first.
	path := filepath.Join(dir, profileFiles[kind])
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("-profile %s: cannot write %s: %v", kind, path, errors.Unwrap(err))
	}
	f.Close()
	p := profile.Start(mode, profile.ProfilePath(dir), profile.NoShutdownHook, profile.Quiet)
	return func() {
		p.Stop()
		fmt.Fprintf(e.stderr, "retro: %s profile written to %s\n", kind, filepath.Join(dir, profileFiles[kind]))
	}, nil
}
