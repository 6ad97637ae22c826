//go:build !linux && !darwin

package main

// freeDiskOS says that the free space of dir is not known here.
func freeDiskOS(dir string) (uint64, bool) { return 0, false }
