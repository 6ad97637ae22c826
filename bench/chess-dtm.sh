#!/usr/bin/env bash
# Compares the longest mate of each chess endgame with the published maxima
# (issue 33): one Markdown row per endgame, ours and theirs, in plies.
#   bench/chess-dtm.sh TBPROBE [LOG...]
# LOG holds the lines of `retro solve chess -all N -dir DIR` ("KQvKR: white
# to move: ...; black to move: ...; TIME, SIZE"); standard input without one.
# Ours is the largest of the four longest depths of the line: wins and
# losses, both sides to move.
#
# TBPROBE is lib/texellib/tb/tbprobe.cpp of the Texel chess engine
# (github.com/peterosterlund2/texel), whose initMaxDTM table holds the
# largest depth to mate of every endgame of 3 to 5 pieces in the Gaviota
# tablebases (no castling, en passant as GAMES.md has it), one entry for
# an endgame and its colour swap: "{ Q+R+p, 31865 }" is KQRvKP and KPvKQR.
# An entry is Texel's mate score 32000 - 1 - plies (31998 is a mate in
# one ply), so KQvK's 31979 is 20 plies: Black to move, mated in 10 moves.
# Endgames without an entry (KBvK, KNvK: no mate) are left out.
# Exit status 1 if a depth differs.
set -euo pipefail
tbprobe=${1:?usage: bench/chess-dtm.sh TBPROBE [LOG...]}
shift
[ -r "$tbprobe" ] || { echo "chess-dtm: cannot read $tbprobe" >&2; exit 1; }

# The table as "QRvP 134" lines: white's pieces, "v", black's, plies.
published=$(awk '
  /initMaxDTM\(\) *\{/ { on = 1; next }
  on && /^}/ { exit }
  on {
    line = $0
    while (match(line, /\{ *[QRBNPqrbnp+]+, *[0-9]+ *\}/)) {
      entry = substr(line, RSTART, RLENGTH)
      line = substr(line, RSTART + RLENGTH)
      gsub(/[{} ]/, "", entry)
      split(entry, f, ",")
      m = f[1]
      gsub(/\+/, "", m)
      white = m; gsub(/[qrbnp]/, "", white)
      black = m; gsub(/[QRBNP]/, "", black)
      print white "v" toupper(black), 31999 - f[2]
    }
  }' "$tbprobe")
[ -n "$published" ] || { echo "chess-dtm: no initMaxDTM table in $tbprobe" >&2; exit 1; }

echo "| endgame | retro: longest mate (plies) | published (Gaviota, via Texel) | equal |"
echo "|---|---|---|---|"
cat "$@" | awk -v table="$published" '
  BEGIN {
    n = split(table, rows, "\n")
    for (i = 1; i <= n; i++) { split(rows[i], f, " "); max[f[1]] = f[2] }
  }
  /: white to move: .*black to move: / {
    sig = $1; sub(/:$/, "", sig)
    if (seen[sig]++) next
    ours = 0
    k = split($0, parts, /longest (win|loss) /)
    for (i = 2; i <= k; i++) if (parts[i] + 0 > ours) ours = parts[i] + 0
    s = sig; gsub(/K/, "", s); split(s, side, "v")
    if ((side[1] "v" side[2]) in max) theirs = max[side[1] "v" side[2]]
    else if ((side[2] "v" side[1]) in max) theirs = max[side[2] "v" side[1]]
    else next
    same = ours == theirs ? "yes" : "**no**"
    if (ours == theirs) equal++; else differ++
    printf "| %s | %d | %d | %s |\n", sig, ours, theirs, same
  }
  END {
    printf "\n%d endgames equal, %d different\n", equal, differ
    exit differ > 0
  }'
