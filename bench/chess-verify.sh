#!/usr/bin/env bash
# Runs `retro verify` on chess databases (issue 33), smallest first: one
# Markdown row per database with verify's verdict, its time and peak memory,
# then a line with the totals.
#   bench/chess-verify.sh DIR [SIGNATURE...]
# DIR is a folder of `retro solve chess -all N -dir DIR`; without
# signatures, every DIR/*.db. A linked database reads its children's files
# beside it, so they are checked too where a move reaches them. Extra
# flags for verify may be given in VERIFY_FLAGS (e.g. "-workers 2").
# Needs GNU time. Exit status 1 if any database fails.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:?usage: bench/chess-verify.sh DIR [SIGNATURE...]}
shift
[ -d "$dir" ] || { echo "chess-verify: $dir is not a folder" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "chess-verify: GNU time (/usr/bin/time) is needed" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$repo" && go build -o "$work/retro" ./cmd/retro)

files=()
if [ $# -gt 0 ]; then
  for sig in "$@"; do files+=("$dir/$sig.db"); done
else
  # smallest first: the quick ones report at once
  while IFS= read -r f; do files+=("$f"); done < <(ls -1rS "$dir"/*.db)
fi

echo "| database | verify | time (s) | peak memory (MiB) |"
echo "|---|---|---|---|"
status=0 ok=0 failed=0 secs=0
for f in "${files[@]}"; do
  name=$(basename "$f" .db)
  # shellcheck disable=SC2086 # VERIFY_FLAGS is split on purpose
  if /usr/bin/time -f "%e %M" -o "$work/time" "$work/retro" verify ${VERIFY_FLAGS:-} "$f" >"$work/out" 2>&1; then
    verdict=ok ok=$((ok + 1))
  else
    verdict="FAILED: $(head -1 "$work/out")" failed=$((failed + 1)) status=1
  fi
  read -r s kb < <(tail -1 "$work/time") # after "Command exited with ..." on a failure
  secs=$(echo "$secs + $s" | bc)
  echo "| $name | $verdict | $s | $((kb / 1024)) |"
done
echo
printf "%d ok, %d failed; verify took %.1f s in all\n" "$ok" "$failed" "$secs"
exit $status
