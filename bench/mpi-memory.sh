#!/usr/bin/env bash
# Measures the memory of an MPI solve per rank (issue 34), side by side with
# the single process, in one run on this machine: a police board solved
# with -db by one process and under mpirun on each number of ranks given
# (oversubscribed: ranks share the cores), each rank's peak resident memory
# (GNU time's maximum RSS) and wall time, whether each database is byte
# for byte the single process's, and what the ranks sent each other (rank
# 0's -progress summary: un-moves, those crossing ranks, bytes sent, and the
# slowest rank's time computing and exchanging, waiting included).
#   bench/mpi-memory.sh WORKDIR SIZE RANKS...     e.g. bench/mpi-memory.sh /tmp/m 128 2 4
# RETRO names a retro binary built with -tags mpi (default: built here);
# ENGINE, if set, is passed as -engine (lean or par; default auto).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$1 size=$2
shift 2
mkdir -p "$work"
[ -x /usr/bin/time ] || { echo "mpi-memory: GNU time (/usr/bin/time) is needed" >&2; exit 1; }
command -v mpirun >/dev/null || { echo "mpi-memory: mpirun is needed (openmpi-bin, libopenmpi-dev)" >&2; exit 1; }
retro=${RETRO:-}
if [ -z "$retro" ]; then
  retro=$work/retro
  (cd "$repo" && go build -tags mpi -o "$retro" ./cmd/retro)
fi
board=$work/police-$size.txt
(cd "$repo" && go run ./bench/gen police -rows "$size" -cols "$size" -walls 0.1 -exits 0.005 -seed 1) >"$board"
root=()
[ "$(id -u)" = 0 ] && root=(--allow-run-as-root)
engine=()
[ -n "${ENGINE:-}" ] && engine=(-engine "$ENGINE")

echo "# bench/mpi-memory.sh, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, police ${size}x${size}"
/usr/bin/time -f "%e %M" -o "$work/time" "$retro" solve police "$board" -db "$work/single.db" >"$work/single.out"
read -r t m <"$work/time"
single=$m
printf '%-10s %-6s %10s %12s %8s  %s\n' "run" "rank" "wall s" "peak MiB" "/single" "database"
printf '%-10s %-6s %10s %12.1f %8s  %s\n' "1 process" "-" "$t" "$(echo "$m/1024" | bc -l)" "1.000" "$(cat "$work/single.out")"
for ranks in "$@"; do
  rm -f "$work"/rank-*.time
  mpirun "${root[@]}" --oversubscribe -np "$ranks" bash -c \
    '/usr/bin/time -f "%e %M" -o "$0/rank-$OMPI_COMM_WORLD_RANK.time" "$1" solve police "$2" -db "$0/mpi.db" -progress "${@:3}" 2>"$0/rank-$OMPI_COMM_WORLD_RANK.err"' \
    "$work" "$retro" "$board" "${engine[@]}" >"$work/mpi.out"
  same=differs
  cmp -s "$work/single.db" "$work/mpi.db" && same="identical bytes"
  for r in $(seq 0 $((ranks - 1))); do
    read -r t m <"$work/rank-$r.time"
    printf '%-10s %-6s %10s %12.1f %8.3f  %s\n' "$ranks ranks" "$r" "$t" "$(echo "$m/1024" | bc -l)" "$(echo "$m/$single" | bc -l)" "$same"
  done
  tr '\r' '\n' <"$work/rank-0.err" | grep -E '^retro: (in all|lean ranks)' | sed "s/^retro: /  $ranks ranks: /"
done
