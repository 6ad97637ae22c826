module github.com/retro-solver/retro

go 1.26.0

require (
	github.com/chromedp/chromedp v0.23.0
	github.com/corentings/chess/v2 v2.3.2
	github.com/klauspost/compress v1.20.3
	github.com/klauspost/cpuid/v2 v2.4.2
	github.com/pkg/profile v1.7.0
	golang.org/x/sync v0.24.0
)

require (
	github.com/DataDog/zstd v1.5.7 // indirect
	github.com/chromedp/cdproto v0.159.0 // indirect
	github.com/felixge/fgprof v0.9.3 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/google/pprof v0.0.0-20211214055906-6f57359322fd // indirect
	golang.org/x/exp v0.0.0-20250128182459-e0ece0dbea4c // indirect
	golang.org/x/sys v0.41.0 // indirect
)
