#!/usr/bin/env bash
# Solves chess endgames and compares their counts with Syzygy's published
# statistics, "cursed" wins and losses counted as wins and losses
# (GAMES.md, chess): one Markdown row per endgame and side to move, with
# the solve's wall time and peak memory.
#   bench/chess-stats.sh STATS SIGNATURE...
#   bench/chess-stats.sh STATS -all N DIR
# The second form runs `retro solve chess -all N -dir DIR` once (every
# endgame of up to N pieces, each into DIR/SIG.db) and makes a row of
# each of its lines as it comes, with the endgame's own time and database
# size, then prints the run's wall time and peak memory.
# STATS is regular-stats.txt from the syzygy-tables.info repository
# (github.com/niklasf/syzygy-tables.info, stats/regular/). Needs GNU time.
# Exit status 1 if any count differs.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
stats=${1:?usage: bench/chess-stats.sh STATS SIGNATURE...}
shift
[ -r "$stats" ] || { echo "chess-stats: cannot read $stats" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "chess-stats: GNU time (/usr/bin/time) is needed" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$repo" && go build -o "$work/retro" ./cmd/retro)

# published SIG SIDE: "W D L" for SIDE ("White" or "Black") to move.
published() {
  awk -v sig="########## $1 ##########" -v side="$2 to move:" '
    $0 == sig { in_sig = 1; next }
    in_sig && /^##########/ { exit }
    in_sig && $0 == side { in_side = 1; next }
    in_sig && /to move:$/ { in_side = 0 }
    in_side && / positions are (cursed )?wins\.$/ { w += $1 }
    in_side && / positions are draws\.$/ { d += $1 }
    in_side && / positions are (cursed )?losses\.$/ { l += $1 }
    END { if (in_sig) print w + 0, d + 0, l + 0 }' "$stats"
}

# row SIG LINE SECS SIZE: the row of SIG's answer line LINE ("white to
# move: ..."); status=1 if its counts differ.
row() {
  local sig=$1 line=$2 side w d l a b theirs equal
  side=${line%% to move:*} # "white" or "black"
  read -r w d l a b < <(echo "$line" | sed -E 's/.*: ([0-9]+) wins, ([0-9]+) draws, ([0-9]+) losses; longest win ([0-9]+) plies, longest loss ([0-9]+) plies/\1 \2 \3 \4 \5/')
  theirs=$(published "$sig" "${side^}")
  equal=no
  if [ "$theirs" = "$w $d $l" ]; then equal=yes; else status=1; fi
  echo "| $sig | $side | $w, $d, $l | ${theirs// /, } | $equal | $a, $b | $3 | $4 |"
}

status=0
if [ "${1:-}" = -all ]; then
  n=${2:?usage: bench/chess-stats.sh STATS -all N DIR}
  dir=${3:?usage: bench/chess-stats.sh STATS -all N DIR}
  echo "| endgame | to move | retro: wins, draws, losses | published | equal | longest win, loss (plies) | time | database |"
  echo "|---|---|---|---|---|---|---|---|"
  # Each endgame's rows come as soon as its line does (a run of hours,
  # cut off, keeps those it printed); the lines go to standard error too.
  /usr/bin/time -f "%e %M" -o "$work/time" "$work/retro" solve chess -all "$n" -dir "$dir" | tee "$work/out" |
    while IFS= read -r line; do
      echo "$line" >&2
      case $line in
      *": white to move: "*) ;;
      *) continue ;; # "SIG: in DIR/SIG.db already", and the total
      esac
      sig=${line%%: *}
      [ -n "$(published "$sig" White)" ] || continue # KvK, which the endgames reach: no statistics
      rest=${line#*: }
      white=${rest%%; black to move:*}
      black="black to move:${rest#*; black to move:}"
      tail=${black##*plies; }            # "1.2s, 3.4 MiB"
      black=${black%; "$tail"}
      row "$sig" "$white" "${tail%%, *}" "${tail#*, }"
      row "$sig" "$black" "${tail%%, *}" "${tail#*, }"
      if [ $status != 0 ]; then touch "$work/differ"; fi
    done
  [ -e "$work/differ" ] && status=1
  read -r secs kib <"$work/time"
  echo
  echo "$(tail -n 1 "$work/out"); wall ${secs} s, peak $((kib / 1024)) MiB"
  exit $status
fi

echo "| endgame | to move | retro: wins, draws, losses | published | equal | longest win, loss (plies) | wall s | peak MiB |"
echo "|---|---|---|---|---|---|---|---|"
for sig in "$@"; do
  /usr/bin/time -f "%e %M" -o "$work/time" "$work/retro" solve chess "$sig" >"$work/out"
  read -r secs kib <"$work/time"
  while read -r line; do
    row "$sig" "$line" "$secs" "$((kib / 1024))"
  done <"$work/out"
done
exit $status
