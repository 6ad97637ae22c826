#!/usr/bin/env bash
# The size of a folder of chess databases (issue 33): a Markdown row per
# class of endgame (up to 4 pieces, 5 without pawns, 5 with pawns) with its
# files and bytes, then the total beside Syzygy's WDL+DTZ tables of the
# same endgames (939 MiB, which hold no depth to mate).
#   bench/chess-size.sh DIR
# DIR is a folder of `retro solve chess -all N -dir DIR` (or its files
# rewritten by `retro db compact`).
set -euo pipefail
dir=${1:?usage: bench/chess-size.sh DIR}
[ -d "$dir" ] || { echo "chess-size: $dir is not a folder" >&2; exit 1; }
echo "| endgames | files | MiB | MiB per file |"
echo "|---|---|---|---|"
for f in "$dir"/*.db; do
  sig=$(basename "$f" .db)
  pieces=${sig//v/}
  class="up to 4 pieces"
  if [ ${#pieces} -eq 5 ]; then
    class="5 pieces, no pawn"
    [[ $sig == *P* ]] && class="5 pieces, pawns"
  fi
  echo "$class	$(stat -c %s "$f")"
done | awk -F'\t' '
  { n[$1]++; b[$1] += $2; all += $2; files++ }
  END {
    split("up to 4 pieces|5 pieces, no pawn|5 pieces, pawns", order, "|")
    for (k = 1; k <= 3; k++) if (n[order[k]])
      printf "| %s | %d | %.1f | %.1f |\n", order[k], n[order[k]], b[order[k]] / 1048576, b[order[k]] / 1048576 / n[order[k]]
    printf "| all | %d | %.1f | |\n\n", files, all / 1048576
    printf "%.2f GiB (%.2f GB), %.2fx Syzygy'\''s 939 MiB of WDL and DTZ\n", all / 1073741824, all / 1e9, all / 1048576 / 939
  }'
