#!/usr/bin/env bash
# Parallel scaling: retro's wall time at each number of workers on Quixo
# 4 x 4, police 128 x 128, Teeko, a 5-piece chess endgame (KBNvKN, its
# children solved first and not timed) and a random graph, with the peers
# beside it at the same numbers of threads where they are built:
# GamesmanOne (Quixo), rtbgen (KBNvKN), the GAP benchmark suite's BFS
# (the graph). One run of each, on a machine of many cores.
#   bench/scaling.sh WORK
# WORK: a folder for the inputs and the solvers' files. Environment:
#   WORKERS   the numbers of workers (default "1 2 4 8 16")
#   RETRO     a retro binary (default: built from this repository), and
#   GEN       a bench/gen binary likewise (for a machine without Go)
#   GAMESMAN  GamesmanOne's binary (../shared/tools/build-gamesmanone.sh)
#   RTBGEN    rtbgen's binary, with RTBTABLES the folder of its 3- and
#             4-piece tables (bench/chess-rtbgen.sh makes them)
#   GAPBFS    gapbs's bfs, with GAPCONVERTER its converter (make bfs converter)
# Prints a line per run: what, threads, wall seconds, peak MiB (GNU time,
# where the machine has it).
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=${1:?usage: bench/scaling.sh WORK}
mkdir -p "$work" && work=$(cd "$work" && pwd)
workers=${WORKERS:-1 2 4 8 16}
retro=${RETRO:-}
gen=${GEN:-}
if [ -z "$retro" ]; then (cd "$repo" && go build -o "$work/retro" ./cmd/retro) && retro=$work/retro; fi
if [ -z "$gen" ]; then (cd "$repo" && go build -o "$work/gen" ./bench/gen) && gen=$work/gen; fi

# timed WHAT THREADS CMD...: runs CMD (its output in $work/out) and prints
# WHAT, THREADS, its wall time and, with GNU time, its peak memory.
timed() {
  local what=$1 threads=$2; shift 2
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f "%e %M" -o "$work/time" "$@" >"$work/out" 2>&1
    local s k
    read -r s k < <(tail -1 "$work/time")
    [[ $k =~ ^[0-9]+$ ]] || k=0
    printf "%-28s %3s threads %9.2f s %7d MiB\n" "$what" "$threads" "$s" $((k / 1024))
  else
    local start=$EPOCHREALTIME
    "$@" >"$work/out" 2>&1
    printf "%-28s %3s threads %9.2f s\n" "$what" "$threads" "$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }')"
  fi
}

echo "$(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
# How many times one thread's integer work and memory operations the cores
# give now (a lent or shared machine's may share physical cores), and the
# integer work in phases of a millisecond.
"$retro" info -cores 2>/dev/null | tail -n 3 || true # a retro older than -cores prints none
for w in $workers; do timed "retro quixo 4x4" "$w" "$retro" solve quixo -n 4 -workers "$w"; done
if [ -n "${GAMESMAN:-}" ]; then
  mkdir -p "$work/gamesman"
  for w in $workers; do
    rm -rf "$work/gamesman/data"
    (cd "$work/gamesman" && OMP_NUM_THREADS=$w timed "GamesmanOne quixo 4x4" "$w" "$GAMESMAN" -f -v solve quixo 1)
  done
fi

"$gen" police -rows 128 -cols 128 -walls 0.1 -exits 0.005 -seed 1 >"$work/police-128.txt"
for w in $workers; do timed "retro police 128x128" "$w" "$retro" solve police "$work/police-128.txt" -workers "$w"; done
for w in $workers; do timed "retro teeko" "$w" "$retro" solve teeko -workers "$w"; done

# KBNvKN: its children's tiers first (a solve of it into the tier folder,
# whose children's tiers the timed runs then read), then its own tiers
# again at each number of workers. (solve chess -all writes databases, not
# tiers: after it the first timed run would solve the children too.)
timed "retro chess KBNvKN, children" "$(nproc)" "$retro" solve chess KBNvKN -checkpoint "$work/chess/tiers"
for w in $workers; do
  rm -f "$work/chess/tiers/KBNvKN.tier" "$work/chess/tiers/KBNvKN_"*.tier
  timed "retro chess KBNvKN" "$w" "$retro" solve chess KBNvKN -workers "$w" -checkpoint "$work/chess/tiers"
done
if [ -n "${RTBGEN:-}" ] && [ -n "${RTBTABLES:-}" ]; then
  mkdir -p "$work/rtb" && cp "$RTBTABLES"/*.rtb[wz] "$work/rtb/"
  for w in $workers; do (cd "$work/rtb" && RTBPATH="$work/rtb" timed "rtbgen -g KBNvKN" "$w" "$RTBGEN" -g -t "$w" KBNvKN); done
fi

# The graph: retro's predecessor edges per second (retro bench), and GAP's
# BFS's out-edges of the vertices it reaches per second, from the first
# of the vertices 0-19 that reaches half the graph.
"$retro" bench -workload graph-1e7x2 -engines par -workers "$(echo $workers | tr ' ' ,)" -reps 2 2>/dev/null | grep '^  graph'
if [ -n "${GAPBFS:-}" ] && [ -n "${GAPCONVERTER:-}" ]; then
  "$gen" graph -n 10000000 -m 20000000 -seed 1 | tail -n +2 >"$work/g.el"
  "$GAPCONVERTER" -f "$work/g.el" -b "$work/g.sg" >/dev/null && rm "$work/g.el"
  root=0
  for r in $(seq 0 19); do
    if OMP_NUM_THREADS=4 "$GAPBFS" -f "$work/g.sg" -r "$r" -n 1 -a | awk '/BFS Tree has/ {exit !($4 > 5000000)}'; then root=$r; break; fi
  done
  for w in $workers; do
    OMP_NUM_THREADS=$w "$GAPBFS" -f "$work/g.sg" -r "$root" -n 8 -a | awk -v w="$w" '/BFS Tree has/ {e = $7} /Average Time/ {s = $3} END {printf "%-28s %3s threads %9.4f s %.3g edges/s\n", "GAP bfs graph-1e7x2", w, s, e / s}'
  done
fi
