#!/usr/bin/env bash
# Makes the built-in linear weights of a variant, configs/weights/VARIANT.json,
# the way the shipped ones were made (docs/evaluation.md, "The built-in
# linear weights"):
#
#   scripts/make_linear_weights.sh VARIANT [OUT_DIR]
#
# 1. self-play of the hand-set start (configs/weights/handset/VARIANT.json)
#    at the self-play config's depth (SELFPLAY_CONFIG, default
#    configs/selfplay/VARIANT.toml), GAMES games (default 10 000) on two
#    threads, seed 101;
# 2. dama tune of the linear model from the same start, with
#    configs/train/VARIANT.toml's optimiser and two changes that the pattern
#    screening found better (docs/performance.md, "Pattern evaluation"): the
#    target leans on the search score (lambda = 0.2) and only quiet
#    positions are fitted; and the result is written on the scale of a
#    man = 100 (model.man_value: the fit fixes only k * weights, and the
#    search's margins are in hundredths of a man);
# 3. prints the match that measures the result against the hand-set start.
# Every step resumes: run it again after an interruption.
set -euo pipefail
cd "$(dirname "$0")/.."
variant=${1:?usage: scripts/make_linear_weights.sh VARIANT [OUT_DIR]}
out=${2:-runs/linear-$variant}
dama=${DAMA:-build/dama}
games=${GAMES:-10000}
selfplay_config=${SELFPLAY_CONFIG:-configs/selfplay/$variant.toml}
start=configs/weights/handset/$variant.json
[ -f "$start" ] || { echo "make_linear_weights.sh: no hand-set start $start" >&2; exit 1; }
mkdir -p "$out"
"$dama" selfplay --config "$selfplay_config" --weights "$start" --games "$games" --threads 2 \
  --seed 101 --out "$out/$variant.h5" --resume  # --resume starts the job when there is none
config=$out/linear.toml
sed -e 's/^lambda = .*/lambda = 0.2\nman_value = 100/' -e 's/^validation_share = \(.*\)/validation_share = \1\nquiet_only = true/' \
  "configs/train/$variant.toml" > "$config"
resume_tune() { [ -f "$1.checkpoint" ] && echo --resume || true; }
"$dama" tune --variant "$variant" --data "$out/$variant.h5" --weights "$start" --config "$config" \
  --out "$out/$variant.json" --log "$out/linear.csv" $(resume_tune "$out/$variant.json")
echo "linear weights: $out/$variant.json (copy to configs/weights/$variant.json to build them in)"
echo "compare: $dama match --variant $variant --a weights=$out/$variant.json,movetime=20" \
  "--b weights=$start,movetime=20 --games 1000 --random-plies 6 --concurrency 2 --sprt 0,20,0.05,0.05"
