#!/usr/bin/env bash
# The main job on built-in defaults: a short overnight pipeline on russian
# (configs/pipeline/quick.toml: two generations of self-play -> tune -> match
# -> promote), a few minutes on two cores.  Run it again and it continues (or,
# when done, just prints the summary); delete runs/quick-russian to start over.
set -euo pipefail
cd "$(dirname "$0")/.."
dama=${DAMA:-build/dama}
[ -x "$dama" ] || { echo "run.sh: $dama not built; run scripts/setup.sh first" >&2; exit 2; }
"$dama" pipeline --config configs/pipeline/quick.toml
echo "report: runs/quick-russian/summary.csv and runs/quick-russian/summary.png (Elo by generation);"
echo "        the games of each generation's match: runs/quick-russian/gen-*/match.pdn"
