#!/usr/bin/env bash
# Self-play throughput: positions/s at a fixed depth, with 1 and with 2 game
# threads (the scaling ratio), for russian and international.
#   scripts/bench_selfplay.sh [DEPTH] [GAMES]      defaults: depth 8, 40 games
#   VARIANTS="russian" DAMA=path/to/dama ...       other variants or another build
#   WEIGHTS=builtin:patterns ...                   other weights (a file, builtin:linear or
#                                                  builtin:patterns; default: the config's built-in)
# Writes into a temporary directory and removes it.  Quote ratios: the
# machines are noisy.
set -euo pipefail
cd "$(dirname "$0")/.."
dama=${DAMA:-build/dama}
depth=${1:-8}
games=${2:-40}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '%-14s %7s %7s %10s %12s\n' variant depth threads seconds positions/s
for variant in ${VARIANTS:-russian international}; do
  for threads in 1 2; do
    cat > "$work/job.toml" <<TOML
variant = "$variant"
seed = 5
[search]
depth = $depth
[randomness]
plies = 0
[checkpoint]
games = 1000
seconds = 3600
TOML
    start=$(date +%s.%N)
    "$dama" selfplay --config "$work/job.toml" --games "$games" --threads "$threads" \
      ${WEIGHTS:+--weights "$WEIGHTS"} --out "$work/$variant-$threads.h5" >/dev/null 2>&1
    end=$(date +%s.%N)
    positions=$(/usr/bin/python3 -c "import h5py,sys; print(h5py.File(sys.argv[1],'r')['positions/ply'].shape[0])" "$work/$variant-$threads.h5")
    awk -v v="$variant" -v d="$depth" -v t="$threads" -v s="$start" -v e="$end" -v p="$positions" \
      'BEGIN { printf "%-14s %7d %7d %10.1f %12.1f\n", v, d, t, e - s, p / (e - s) }'
  done
done
