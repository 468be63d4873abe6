#!/usr/bin/env bash
# Issue 11's measurement, end to end: does the pattern model trained by the
# pipeline beat the linear model trained by the same pipeline on the same
# self-play budget?  And does its last generation beat its first?
#
#   scripts/patterns_vs_linear.sh [PIPELINE_CONFIG] [OUT_DIR]
#
# PIPELINE_CONFIG is a pattern pipeline (default
# configs/pipeline/russian-patterns.toml; czech- and international-patterns
# are the others shipped).  Its linear twin is the same file with
# [tune] model = "linear" and the linear tuner settings that made the
# built-in weights (configs/train/VARIANT.toml with lambda = 0.2, quiet
# positions only, a man = 100; scripts/make_linear_weights.sh), so the two
# runs differ in the model only: the same self-play config, games per
# generation, generations, deadline, matches and seeds.  Then:
#   1. the pattern pipeline, in OUT_DIR/patterns;
#   2. the linear pipeline, in OUT_DIR/linear;
#   3. the best patterns against the best linear weights, MATCH_GAMES
#      (default 1000) paired games at LIMIT (default movetime=50) a move;
#   4. the pattern run's best against its generation 1 (the issue's
#      "generation 4 against generation 1"), the same match.
# Each match prints its Elo with the 95% interval; docs/performance.md
# records them.  With two cores, the two-hour configs take about five hours
# in all.  Every step resumes (the pipelines from their state files, the
# matches from their journals): run the same command again after Ctrl-C or
# a crash.  DAMA (default build/dama) is the program; CONCURRENCY (default
# 2) the games played at once.
set -euo pipefail
cd "$(dirname "$0")/.."
config=${1:-configs/pipeline/russian-patterns.toml}
dama=${DAMA:-build/dama}
games=${MATCH_GAMES:-1000}
limit=${LIMIT:-movetime=50}
concurrency=${CONCURRENCY:-2}
[ -f "$config" ] || { echo "patterns_vs_linear.sh: $config: no such pipeline config" >&2; exit 1; }
grep -q '^model = "patterns"' "$config" ||
  { echo "patterns_vs_linear.sh: $config: [tune] model is not \"patterns\"" >&2; exit 1; }
variant=$(sed -n 's/^variant = "\([^"]*\)".*/\1/p' "$config")
[ -n "$variant" ] || { echo "patterns_vs_linear.sh: $config: no variant" >&2; exit 1; }
out=${2:-runs/patterns-vs-linear-$variant}
mkdir -p "$out"
touch "$out/.writable" && rm "$out/.writable"

# The linear twin: the model and the tuner settings change, nothing else.
linear_tune=$out/linear-tune.toml
sed -e 's/^lambda = .*/lambda = 0.2\nman_value = 100/' \
    -e 's/^validation_share = \(.*\)/validation_share = \1\nquiet_only = true/' \
    "configs/train/$variant.toml" > "$linear_tune"
linear_config=$out/linear-pipeline.toml
sed -e 's/^model = "patterns".*/model = "linear"/' \
    -e "/^\[tune\]/,/^\[/ s#^config = .*#config = \"$linear_tune\"#" \
    "$config" > "$linear_config"
grep -q "^config = \"$linear_tune\"" "$linear_config" ||
  { echo "patterns_vs_linear.sh: $config: no [tune] config line to replace" >&2; exit 1; }

# A pipeline that stops before its last generation (its deadline) still has
# a best; the matches below play whatever it has.
"$dama" pipeline --config "$config" --run-dir "$out/patterns"
"$dama" pipeline --config "$linear_config" --run-dir "$out/linear"

play() {  # play NAME A B SEED
  "$dama" match --variant "$variant" --a "weights=$2,$limit" --b "weights=$3,$limit" --games "$games" \
    --random-plies 6 --seed "$4" --concurrency "$concurrency" --pgn-out "$out/$1.pdn" --resume | tee "$out/$1.txt"
}
play patterns-vs-linear "$out/patterns/best.patterns" "$out/linear/best.json" 111
first=$out/patterns/gen-001/weights.patterns
if [ -f "$first" ] && ! cmp -s "$first" "$out/patterns/best.patterns"; then
  play last-vs-first-generation "$out/patterns/best.patterns" "$first" 112
else
  echo "the pattern run's best is its generation 1 (or it has none): no match of generations"
fi
