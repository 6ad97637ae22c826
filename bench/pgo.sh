#!/usr/bin/env bash
# Makes cmd/retro/default.pgo, the CPU profile that `go build` and `go run`
# optimize the retro command with (profile-guided optimization, go.dev/doc/pgo:
# the hot interface calls devirtualized and the hot calls inlined), from the
# solves whose speed the project measures: police 96x96 (2 workers) and
# 64x64 (1 worker), Quixo 4x4, a random graph of 2x10^6 vertices and 4x10^6
# edges, Nine Men's Morris with 5 stones, and the chess endgames KQRvKR
# (with the 3- and 4-piece endgames its captures reach) and KRPvK. Each
# solve's profile weighs its CPU time; the merged profile is written over
# default.pgo. About a minute and a half on 2 cores.
#   bench/pgo.sh [WORKDIR]
# Run it again when the hot paths change much: a stale profile still
# builds, and optimizes what it still names.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$(mktemp -d)}
mkdir -p "$work"
retro=$work/retro
(cd "$repo" && go build -pgo=off -o "$retro" ./cmd/retro)
gen() { (cd "$repo" && go run ./bench/gen "$@"); }
gen police -rows 96 -cols 96 -walls 0.1 -exits 0.005 -seed 1 >"$work/police-96x96.txt"
gen police -rows 64 -cols 64 -walls 0.1 -exits 0.005 -seed 1 >"$work/police-64x64.txt"
gen graph -n 2000000 -m 4000000 -seed 3 >"$work/graph.txt"

k=0
profiles=()
# profile ARGS...: one solve, its CPU profile kept.
profile() {
  k=$((k + 1))
  mkdir -p "$work/p$k"
  if ! "$retro" "$@" -profile cpu -profile-dir "$work/p$k" >/dev/null 2>"$work/p$k/stderr"; then
    echo "pgo: retro $* failed:" >&2
    cat "$work/p$k/stderr" >&2
    exit 1
  fi
  profiles+=("$work/p$k/cpu.pprof")
  echo "pgo: $* done" >&2
}
profile solve police "$work/police-96x96.txt" -workers 2
profile solve police "$work/police-64x64.txt" -workers 1
profile solve quixo -n 4
profile solve graph "$work/graph.txt"
profile solve morris -stones 5
rm -rf "$work/chess"
profile solve chess KQRvKR -checkpoint "$work/chess"
profile solve chess KRPvK -checkpoint "$work/chess"
go tool pprof -proto "${profiles[@]}" >"$work/default.pgo"
mv "$work/default.pgo" "$repo/cmd/retro/default.pgo"
echo "pgo: $repo/cmd/retro/default.pgo: $(wc -c <"$repo/cmd/retro/default.pgo") bytes from ${#profiles[@]} profiles" >&2
