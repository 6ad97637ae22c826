#!/usr/bin/env bash
# Side by side with Syzygy's generator (issue 33): each endgame solved by
# retro with depth to mate and by rtbgen/rtbgenp computing WDL and DTZ
# without compressing (-g), both with 2 threads and with the endgames that
# captures and promotions lead to already solved (retro's tiers from a
# `retro solve chess -all 4`, rtbgen's compressed tables), so that each
# figure is the endgame's own: wall time and peak memory (GNU time).
#   bench/chess-rtbgen.sh RTBGEN WORK SIGNATURE...
# RTBGEN is the folder of rtbgen and rtbgenp (../shared/tools/build-rtbgen.sh
# OUTDIR builds them into OUTDIR/src); WORK a folder for both solvers'
# tables, kept between runs (the 3- and 4-piece sets are made once; their
# times are printed too). Prints a Markdown table.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
gen=${1:?usage: bench/chess-rtbgen.sh RTBGEN WORK SIGNATURE...}
work=${2:?usage: bench/chess-rtbgen.sh RTBGEN WORK SIGNATURE...}
shift 2
[ -x "$gen/rtbgen" ] && [ -x "$gen/rtbgenp" ] || { echo "chess-rtbgen: no rtbgen and rtbgenp in $gen" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "chess-rtbgen: GNU time (/usr/bin/time) is needed" >&2; exit 1; }
mkdir -p "$work/rtb" "$work/retro"
work=$(cd "$work" && pwd)
(cd "$repo" && go build -o "$work/retro-bin" ./cmd/retro)
retro=$work/retro-bin

# syzygy NAME: the endgame NAME ("KQvKRR") as Syzygy names it ("KRRvKQ"):
# the side with more pieces first, or with as many the stronger.
syzygy() {
  local w=${1%%v*} b=${1#*v} ws bs
  ws=$(echo "$w" | tr QRBNP 12345)
  bs=$(echo "$b" | tr QRBNP 12345)
  if ((${#b} > ${#w})) || { ((${#b} == ${#w})) && [[ $bs < $ws ]]; }; then
    echo "${b}v${w}"
  else
    echo "${w}v${b}"
  fi
}

tool() { if [[ $1 == *P* ]]; then echo rtbgenp; else echo rtbgen; fi; }

# The children: retro's -all 4 (its tiers shared by the runs below), and
# rtbgen's compressed 3- and 4-piece tables, which its -g runs read.
if ! [ -e "$work/retro/done" ]; then
  /usr/bin/time -f "retro -all 4: %e s, %M KiB" -o "$work/retro/time" "$retro" solve chess -all 4 -dir "$work/retro" >"$work/retro/all4.txt"
  touch "$work/retro/done"
fi
if ! [ -e "$work/rtb/done" ]; then
  start=$(date +%s.%N)
  for sig in $("$retro" solve chess -all 4 -dir "$work/retro" | grep ' already$' | cut -d: -f1 | grep -vx KvK); do
    (cd "$work/rtb" && RTBPATH="$work/rtb" "$gen/$(tool "$sig")" -t 2 "$sig" >/dev/null)
  done
  echo "rtbgen, 3 and 4 pieces, compressed: $(echo "$(date +%s.%N) - $start" | bc) s" >"$work/rtb/time"
  touch "$work/rtb/done"
fi
cat "$work/retro/time" "$work/rtb/time"
echo
# Both sides run 2 threads: how many times one thread's work the guest's
# cores give now (retro info -cores), before the table and after it.
"$retro" info -cores | tail -n 3
echo "| endgame | retro (DTM) wall s | peak MiB | rtbgen -g (WDL, DTZ) wall s | peak MiB | time ratio retro/rtbgen | memory ratio |"
echo "|---|---|---|---|---|---|---|"
for sig in "$@"; do
  tiers=$work/retro/tiers
  # Its children of 5 pieces (the promotions of one with pawns), solved
  # first by both and not timed: retro's tiers, rtbgen's tables.
  # (A tier of an endgame with pawns is a part of it: KRPvKR.3.)
  for child in $("$retro" solve chess "$sig" -plan | awk 'NR > 1 { n = $2; sub(/\..*/, "", n); if (length(n) == 6 && !seen[n]++) print n }'); do
    [ "$child" = "$sig" ] && continue
    "$retro" solve chess "$child" -checkpoint "$tiers" >/dev/null
    name=$(syzygy "$child")
    [ -e "$work/rtb/$name.rtbw" ] || (cd "$work/rtb" && RTBPATH="$work/rtb" "$gen/$(tool "$name")" -t 2 "$name" >/dev/null)
  done
  tool=$(tool "$sig")
  rm -f "$tiers/$sig.tier" "$tiers/$sig"_*.tier # solve the endgame's own tiers again
  /usr/bin/time -f "%e %M" -o "$work/retro.time" "$retro" solve chess "$sig" -workers 2 -checkpoint "$tiers" >/dev/null
  (cd "$work/rtb" && RTBPATH="$work/rtb" /usr/bin/time -f "%e %M" -o "$work/rtb.time" "$gen/$tool" -g -t 2 "$sig" >/dev/null)
  read -r rs rk <"$work/retro.time"
  read -r gs gk <"$work/rtb.time"
  echo "| $sig | $rs | $((rk / 1024)) | $gs | $((gk / 1024)) | $(echo "scale=1; $rs / $gs" | bc) | $(echo "scale=1; $rk / $gk" | bc) |"
done
"$retro" info -cores | tail -n 3
