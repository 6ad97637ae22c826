#!/usr/bin/env bash
# Compares retro with the seeds' own C++ programs on the same inputs, in one
# run: wall time and peak memory of each, the ratios, and whether the
# answers agree.
#   bench/compare-seeds.sh [WORKDIR]
# Needs g++, GNU time (/usr/bin/time) and the shared folder beside the
# repository (or SHARED=path). The police-seed-4k run takes about 40 s and
# 4 GB.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
shared=${SHARED:-$repo/../shared}
work=${1:-$(mktemp -d)}
mkdir -p "$work"
[ -x /usr/bin/time ] || { echo "compare-seeds: GNU time (/usr/bin/time) is needed" >&2; exit 1; }
bash "$shared/tools/seed-baselines.sh" "$work/seeds" >/dev/null
(cd "$repo" && go build -o "$work/retro" ./cmd/retro)
gen() { (cd "$repo" && go run ./bench/gen "$@"); }
gen pawns -rows 10 -cols 10 -walls 0.1 -boards 10 -seed 1 >"$work/pawns-10x10x10.txt"
gen pawns -rows 15 -cols 15 -walls 0.1 -boards 1 -seed 2 >"$work/pawns-15x15.txt"
gen police -rows 10 -cols 10 -walls 0.1 -exits 0.02 -seed 1 >"$work/police-10x10.txt"
gen police -rows 64 -cols 64 -walls 0.1 -exits 0.005 -seed 1 >"$work/police-64x64.txt"

# measure OUT PROGRAM ARGS... < input: runs the program, its output to OUT,
# and prints "seconds kilobytes".
measure() {
  local out=$1; shift
  ( ulimit -s unlimited 2>/dev/null || true; /usr/bin/time -f "%e %M" -o "$out.time" "$@" >"$out" )
  cat "$out.time"
}

printf '%-16s %-15s %9s %10s %9s %10s %8s %8s %s\n' input seed seed-s seed-MB retro-s retro-MB speed memory answers
row() { # INPUT SEED-PROGRAM GAME
  local in=$work/$1.txt
  read -r st sm < <(measure "$work/$1.seed" "$work/seeds/$2" <"$in")
  read -r rt rm < <(measure "$work/$1.retro" "$work/retro" solve "$3" "$in")
  local same=differ
  if [ "$3" = police ]; then
    # The seed prints no depth: compare the verdicts.
    [ "$(sed 's/ in [0-9]* moves//' "$work/$1.retro")" = "$(cat "$work/$1.seed")" ] && same=agree
  else
    cmp -s "$work/$1.retro" "$work/$1.seed" && same=agree
  fi
  awk -v i="$1" -v p="$2" -v st="$st" -v sm="$sm" -v rt="$rt" -v rm="$rm" -v a="$same" 'BEGIN {
    printf "%-16s %-15s %9.2f %10.1f %9.2f %10.1f %7.1fx %7.1fx %s\n", i, p, st, sm/1024, rt, rm/1024,
      st/(rt > 0 ? rt : 0.01), sm/rm, a }'
}
row pawns-10x10x10 pawns-seed pawns
row pawns-15x15 pawns-seed-15 pawns
row police-10x10 police-seed police
row police-64x64 police-seed-4k police
