module github.com/retro-solver/retro

go 1.26.0

require (
	github.com/klauspost/compress v1.20.3
	github.com/klauspost/cpuid/v2 v2.4.2
	github.com/pkg/profile v1.7.0
	golang.org/x/sync v0.24.0
)

require (
	github.com/felixge/fgprof v0.9.3 // indirect
	github.com/google/pprof v0.0.0-20211214055906-6f57359322fd // indirect
	golang.org/x/sys v0.41.0 // indirect
)
