#!/bin/bash
# Issue 32's restart check: `retro solve morris -max-stones 5 -tiered -db`
# killed (-9) five times, 2-5 s after each start, and run again each time
# to the end, against one uninterrupted solve: the two databases must be
# the same bytes. RETRO is the binary (default: built from this checkout);
# DIR the scratch folder (default: a temporary one).
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${DIR:-$(mktemp -d)}
if [ -z "${RETRO:-}" ]; then
  RETRO=$DIR/retro
  go build -o "$RETRO" ./cmd/retro
fi
cd "$DIR"
rm -rf a.db b.db b.db.tiers
"$RETRO" solve morris -max-stones 5 -tiered -db a.db
for i in 1 2 3 4 5; do
  "$RETRO" solve morris -max-stones 5 -tiered -db b.db > /dev/null 2>&1 &
  pid=$!
  sleep $((2 + RANDOM % 4))
  kill -9 $pid || echo "kill $i: the solve had ended, the check is void"
  wait $pid 2>/dev/null || true
  echo "kill $i: $(ls b.db.tiers 2>/dev/null | grep -c '^tier-' || true) tiers finished"
done
"$RETRO" solve morris -max-stones 5 -tiered -db b.db
cmp a.db b.db && echo "same bytes: $(stat -c %s a.db) bytes"
