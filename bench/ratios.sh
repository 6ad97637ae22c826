#!/usr/bin/env bash
# Measures, in one run on this machine, the ratios that say how close retro
# is to its own in-memory solves and to its peers (issue 31):
#   - a tiered solve's time over the in-memory solve's (Quixo 4x4 with -db,
#     and with its tiers in a checkpoint folder; Teeko with -db);
#   - 2 workers' speed over one worker's (police 96x96, Quixo 4x4);
#   - the engine's police 64x64 solve over the yardstick's (bench/yardstick,
#     the hand-written solver with a 32-bit state per position);
#   - retro over the seed 003 program on police 64x64 (about 35 s, 4 GB);
#   - retro over GamesmanOne on Quixo 4x4, if GAMESMAN names its gamesman
#     binary (built by ../shared/tools/build-gamesmanone.sh, run from its
#     run folder beside it);
#   - retro's predecessor edges per second over the GAP benchmark suite's
#     BFS edges per second (the out-edges of the vertices it reaches) on
#     retro bench's random graphs, 2e7 and 5e7 edges, if GAPBFS names its
#     bfs binary (github.com/sbeamer/gapbs, make bfs), and one BFS's time
#     beside the whole solve's.
# Each time is the median of REPS runs (default 3); the two sides of a
# ratio run by turns. Lines "# cores now: ...", "# memory now: ..." and
# "# phases now: ..." (retro info -cores) say, before and after the parts
# that run on several threads, how many times one thread's integer work
# and random memory operations the cores did then, and its integer work
# in phases of a millisecond (the most workers could gain in a solve of
# such phases). PARTS (default all)
# picks some: tiered, workers, yardstick, seeds, gamesman, gap.
#   bench/ratios.sh [WORKDIR]
# Needs GNU time (/usr/bin/time); the seed comparison needs g++ and the
# shared folder beside the repository (or SHARED=path).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
shared=${SHARED:-$repo/../shared}
work=${1:-$(mktemp -d)}
reps=${REPS:-3}
mkdir -p "$work"
[ -x /usr/bin/time ] || { echo "ratios: GNU time (/usr/bin/time) is needed" >&2; exit 1; }
(cd "$repo" && go build -o "$work/retro" ./cmd/retro)
gen() { (cd "$repo" && go run ./bench/gen "$@"); }
gen police -rows 64 -cols 64 -walls 0.1 -exits 0.005 -seed 1 >"$work/police-64x64.txt"
gen police -rows 96 -cols 96 -walls 0.1 -exits 0.005 -seed 1 >"$work/police-96x96.txt"
retro=$work/retro
parts=,${PARTS:-tiered,workers,yardstick,seeds,gamesman,gap},
want() { [[ $parts == *",$1,"* ]]; }

# timed CMD...: runs CMD once (after "prep", if defined) and prints its
# seconds and peak memory in KiB.
timed() {
  if declare -F prep >/dev/null; then prep; fi
  /usr/bin/time -f "%e %M" -o "$work/time" "$@" >/dev/null 2>&1
  cat "$work/time"
}

# summary reads lines of seconds and KiB and prints the median seconds and
# the largest peak in MiB.
summary() {
  sort -n | awk '{a[NR]=$1; if ($2 > p) p = $2} END {printf "%.3f %.1f\n", a[int((NR+1)/2)], p/1024}'
}

# middle W FILE: of FILE's lines "workers seconds rate", the seconds and
# rate of W's run of median time.
middle() { awk -v w="$1" '$1 == w {print $2, $3}' "$2" | sort -n | awk '{a[NR]=$0} END {print a[int((NR+1)/2)]}'; }

# median CMD...: runs CMD reps times and prints the median seconds and the
# largest peak in MiB.
median() {
  for _ in $(seq "$reps"); do timed "$@"; done | summary
}

# pair A B: runs the commands in the arrays named A and B by turns, reps
# times each, and prints A's median seconds and largest peak in MiB, then
# B's. By turns, so that the guest's speed, which drifts by a fifth from
# hour to hour, moves both sides of a ratio alike: a median of A's runs and
# then one of B's would put the drift into the ratio. A goes first in odd
# rounds and B in even ones: the second run of two is often 5 to 10% the
# faster, whichever it is (2026-11-28), which would favour B always.
pair() {
  local -n pa=$1 pb=$2
  : >"$work/a.times"
  : >"$work/b.times"
  for r in $(seq "$reps"); do
    if ((r % 2)); then
      timed "${pa[@]}" >>"$work/a.times"
      timed "${pb[@]}" >>"$work/b.times"
    else
      timed "${pb[@]}" >>"$work/b.times"
      timed "${pa[@]}" >>"$work/a.times"
    fi
  done
  echo "$(summary <"$work/a.times") $(summary <"$work/b.times")"
}

# row WHAT A-LABEL A-SECONDS A-MIB B-LABEL B-SECONDS B-MIB: B's time over A's.
row() {
  awk -v w="$1" -v al="$2" -v at="$3" -v am="$4" -v bl="$5" -v bt="$6" -v bm="$7" 'BEGIN {
    printf "%-34s %-22s %8.3fs %8.1f MiB   %-22s %8.3fs %8.1f MiB   %6.2fx\n", w, al, at, am, bl, bt, bm, bt/(at > 0 ? at : 0.001) }'
}

echo "# bench/ratios.sh, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, reps $reps; last column: right time / left time"

# cores prints, as comments, how many times one thread's integer work and
# random memory operations the cores do now, and the integer work in
# phases of a millisecond (retro info -cores): a shared
# guest's virtual cores share a physical one at some times and not at
# others, its memory carries other guests' load, and the ratios of workers
# and of threads move with them. Printed before and after the parts that
# run several threads.
cores() { "$retro" info -cores | tail -n 3 | sed 's/^/# /'; }

if want tiered; then
unset -f prep
a=("$retro" solve quixo -n 4 -db "$work/q.db")
b=("$retro" solve quixo -n 4 -tiered -db "$work/qt.db")
read -r wt wm tt tm < <(pair a b)
cmp -s "$work/q.db" "$work/qt.db" || echo "ratios: the tiered Quixo database differs from the in-memory one" >&2
row "quixo 4x4 -db: tiered / in memory" "in memory" "$wt" "$wm" "-tiered" "$tt" "$tm"
prep() { rm -rf "$work/qck"; }
a=("$retro" solve quixo -n 4 -checkpoint "$work/qck")
b=("$retro" solve quixo -n 4 -tiered -checkpoint "$work/qck")
read -r wt wm tt tm < <(pair a b)
row "quixo 4x4 no -db: tiered / in memory" "in memory" "$wt" "$wm" "-tiered" "$tt" "$tm"
unset -f prep
a=("$retro" solve teeko -db "$work/t.db")
b=("$retro" solve teeko -tiered -db "$work/tt.db")
read -r wt wm tt tm < <(pair a b)
row "teeko -db: tiered / in memory" "in memory" "$wt" "$wm" "-tiered" "$tt" "$tm"
fi

if want workers; then
cores
a=("$retro" solve police "$work/police-96x96.txt" -workers 2)
b=("$retro" solve police "$work/police-96x96.txt" -workers 1)
read -r at am bt bm < <(pair a b)
row "police 96x96: 1 worker / 2" "2 workers" "$at" "$am" "1 worker" "$bt" "$bm"
a=("$retro" solve quixo -n 4 -workers 2)
b=("$retro" solve quixo -n 4 -workers 1)
read -r at am bt bm < <(pair a b)
row "quixo 4x4: 1 worker / 2" "2 workers" "$at" "$am" "1 worker" "$bt" "$bm"
fi

# The yardstick and the engine in one benchmark binary, on the same board,
# built with the profile the retro command is built with (cmd/retro's
# default.pgo, which go test does not take by itself): the engine as the
# command runs it.
if want yardstick; then
(cd "$repo" && go test -pgo="$repo/cmd/retro/default.pgo" ./bench/yardstick -run '^$' -bench '^BenchmarkPolice$' -count "$reps" -timeout 30m) >"$work/yardstick.txt"
for w in 1 2; do
  y=$(awk -v w="$w" '$1 ~ "solver=yardstick/workers="w"-" {print $3/1e9}' "$work/yardstick.txt" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  l=$(awk -v w="$w" '$1 ~ "solver=lean/workers="w"-" {print $3/1e9}' "$work/yardstick.txt" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  row "police 64x64, $w worker(s): yardstick / lean" "engine (lean)" "$l" 0 "yardstick" "$y" 0
done
fi

if want seeds && [ -d "$shared/tools" ]; then
  bash "$shared/tools/seed-baselines.sh" "$work/seeds" >/dev/null
  reps_saved=$reps reps=1
  read -r st sm < <(median sh -c "'$work/seeds/police-seed-4k' <'$work/police-64x64.txt'")
  reps=$reps_saved
  read -r rt rm < <(median "$retro" solve police "$work/police-64x64.txt")
  row "police 64x64: seed 003 / retro" "retro" "$rt" "$rm" "seed 003 (one run)" "$st" "$sm"
fi

if want gamesman && [ -n "${GAMESMAN:-}" ]; then
  cores
  run=$(dirname "$GAMESMAN")/../../run
  # GamesmanOne solves from its run folder, its database gone each time.
  prep() { rm -rf "$run/data"; }
  a=("$retro" solve quixo -n 4 -workers 2)
  b=(env -C "$run" OMP_NUM_THREADS=2 "$GAMESMAN" -f -v solve quixo 1)
  read -r rt rm gt gm < <(pair a b)
  unset -f prep
  row "quixo 4x4, 2 threads: GamesmanOne / retro" "retro" "$rt" "$rm" "GamesmanOne" "$gt" "$gm"
fi

if want gap && [ -n "${GAPBFS:-}" ]; then
  cores
  # GAP's rate: the out-edges of the vertices its BFS reaches over its
  # mean time, from the first of the vertices 0-9 that reaches half the
  # graph; retro's: the predecessor edges its solve walks per second.
  for m in 2 5; do
    gen graph -n 10000000 -m ${m}0000000 -seed 1 | tail -n +2 >"$work/g$m.el"
    root=0
    for r in $(seq 0 9); do
      if OMP_NUM_THREADS=1 "$GAPBFS" -f "$work/g$m.el" -r "$r" -n 1 -a | awk '/BFS Tree has/ {exit !($4 > 5000000)}'; then root=$r; break; fi
    done
    # By turns: a solve at 1 and 2 workers, then 3 BFS at 1 and 2
    # threads, reps times; each side's median time, and its rate.
    : >"$work/ours$m"
    : >"$work/gap$m"
    for _ in $(seq "$reps"); do
      "$retro" bench -workload "graph-1e7x$m" -engines par -workers 1,2 -reps 1 2>/dev/null |
        awk '/^BenchmarkSolve/ {split($1, f, "workers="); print f[2]+0, $3/1e9, $7}' >>"$work/ours$m"
      for w in 1 2; do
        OMP_NUM_THREADS=$w "$GAPBFS" -f "$work/g$m.el" -r "$root" -n 3 -a |
          awk -v w="$w" '/BFS Tree has/ {e=$7} /Average Time/ {t=$3} END {print w, t, e/t}' >>"$work/gap$m"
      done
    done
    for w in 1 2; do
      read -r gapt gap < <(middle "$w" "$work/gap$m")
      read -r ourt ours < <(middle "$w" "$work/ours$m")
      awk -v m="$m" -v w="$w" -v g="$gap" -v o="$ours" 'BEGIN {
        printf "%-34s %-22s %9.3g/s %12s   %-22s %9.3g/s %12s   %6.2fx\n", "graph 1e7 x " m ", " w " thread(s): retro / BFS", "GAP BFS edges", g, "", "retro edges", o, "", o/(g > 0 ? g : 1) }'
      # Retro walks back only the edges into positions it resolves (all
      # of them on 2e7 edges, a few percent on 5e7, where most positions
      # are draws), so the whole solve's time beside one BFS says more.
      row "graph 1e7 x $m, $w thread(s): BFS / solve" "retro (whole solve)" "$ourt" 0 "GAP BFS (one search)" "$gapt" 0
    done
  done
fi

if want workers || want gamesman || want gap; then cores; fi
