#!/usr/bin/env bash
# Builds the libFuzzer targets with clang and runs each for a while.
#   scripts/fuzz.sh [SECONDS_PER_TARGET]     (default 60)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDAMA_FUZZ=ON \
  -DDAMA_TESTS=OFF -DDAMA_BENCHMARKS=OFF >/dev/null
cmake --build build-fuzz --target fuzz_fen fuzz_move fuzz_pdn
for target in fuzz_fen fuzz_move fuzz_pdn; do
  mkdir -p "build-fuzz/corpus/$target"
  echo "== $target ($seconds s)"
  "build-fuzz/fuzz/$target" -max_total_time="$seconds" -max_len=256 "build-fuzz/corpus/$target"
done
