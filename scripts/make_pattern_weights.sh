#!/usr/bin/env bash
# Trains the pattern weights of a variant the way configs/weights/russian.patterns
# was made (docs/evaluation.md, "How the shipped weights were made"), and the
# linear model on the same data for the side-by-side match:
#
#   scripts/make_pattern_weights.sh VARIANT [OUT_DIR]
#
# 1. self-play with the hand-set linear weights (configs/weights/handset/,
#    the built-in ones when the shipped pattern files were made; START to
#    choose others) at the self-play config's depth, two datasets (seeds 101
#    and 202), one thread each;
# 2. dama tune --model patterns with configs/train/patterns/VARIANT.toml
#    (falls back to the russian one), and the linear model with the same
#    target and quiet-only setting, on both datasets;
# 3. generation 2: self-play with the generation-1 pattern weights (seed 303,
#    two threads), then the patterns fitted again on all three datasets,
#    starting from generation 1 -- what configs/weights/russian.patterns is;
# 4. prints the matches that compare them at equal time per move.
# Every step resumes: run it again after an interruption.
set -euo pipefail
cd "$(dirname "$0")/.."
variant=${1:?usage: scripts/make_pattern_weights.sh VARIANT [OUT_DIR]}
out=${2:-runs/patterns-$variant}
dama=${DAMA:-build/dama}
games_a=${GAMES_A:-24000}
games_b=${GAMES_B:-36000}
start=${START:-configs/weights/handset/$variant.json}
mkdir -p "$out"
selfplay_config=configs/selfplay/$variant.toml
pattern_config=configs/train/patterns/$variant.toml
[ -f "$pattern_config" ] || pattern_config=configs/train/patterns/russian.toml
"$dama" selfplay --config "$selfplay_config" --weights "$start" --games "$games_a" --threads 1 --seed 101 --out "$out/a.h5" --resume &
"$dama" selfplay --config "$selfplay_config" --weights "$start" --games "$games_b" --threads 1 --seed 202 --out "$out/b.h5" --resume &
wait
# The linear model with the pattern config's target and quiet-only setting,
# and the linear optimiser settings of configs/train/$variant.toml.
linear_config=$out/linear.toml
sed -e 's/^lambda = .*/lambda = 0.2/' -e 's/^validation_share = \(.*\)/validation_share = \1\nquiet_only = true/' \
  "configs/train/$variant.toml" > "$linear_config"
resume() { [ -f "$1.checkpoint" ] && echo --resume || true; }
"$dama" tune --variant "$variant" --data "$out/a.h5" "$out/b.h5" --model patterns --weights "$start" --config "$pattern_config" \
  --out "$out/$variant.patterns" --log "$out/patterns.csv" $(resume "$out/$variant.patterns")
"$dama" tune --variant "$variant" --data "$out/a.h5" "$out/b.h5" --weights "$start" --config "$linear_config" \
  --out "$out/linear.json" --log "$out/linear.csv" $(resume "$out/linear.json")
games_c=${GAMES_C:-40000}
"$dama" selfplay --config "$selfplay_config" --weights "$out/$variant.patterns" --games "$games_c" --threads 2 \
  --seed 303 --out "$out/c.h5" --resume
"$dama" tune --variant "$variant" --data "$out/a.h5" "$out/b.h5" "$out/c.h5" --model patterns \
  --weights "$out/$variant.patterns" --config "$pattern_config" --out "$out/$variant-gen2.patterns" \
  --log "$out/patterns-gen2.csv" $(resume "$out/$variant-gen2.patterns")
echo "pattern weights: $out/$variant-gen2.patterns (copy to configs/weights/$variant.patterns to ship them)"
for b in "$out/$variant.patterns" "$out/linear.json"; do
  echo "compare: $dama match --variant $variant --a weights=$out/$variant-gen2.patterns,movetime=20" \
    "--b weights=$b,movetime=20 --games 1000 --random-plies 6 --concurrency 2"
done
