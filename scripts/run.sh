#!/usr/bin/env bash
# The main job on built-in defaults.  Until the self-play pipeline lands this
# is the generator's check and speed run: perft from the start of every
# variant against the published figures.
set -euo pipefail
cd "$(dirname "$0")/.."
dama=${DAMA:-build/dama}
[ -x "$dama" ] || { echo "run.sh: $dama not built; run scripts/setup.sh first" >&2; exit 2; }
"$dama" variants
while read -r variant depth; do
  echo "== $variant"
  "$dama" perft --variant "$variant" --depth "$depth" | tail -n 3
done <<'LIST'
russian 11
czech 11
brazilian 11
spanish 11
italian 11
american 11
international 9
LIST
