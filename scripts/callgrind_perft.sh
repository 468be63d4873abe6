#!/usr/bin/env bash
# Instructions per leaf node of perft, counted by valgrind's callgrind (stable
# across noisy machines).  The program prints every depth up to N, so the cost
# of depth N alone is the count for N minus the count for N-1.
#   scripts/callgrind_perft.sh VARIANT DEPTH [BUILD_DIR]
# BUILD_DIR must be built with -DDAMA_ARCH=x86-64-v3 (valgrind 3.19 cannot run
# AVX-512); scripts/callgrind_perft.sh creates build-callgrind when none is given.
set -euo pipefail
cd "$(dirname "$0")/.."
variant=${1:?variant}; depth=${2:?depth}; build=${3:-build-callgrind}
if [ ! -x "$build/dama" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDAMA_ARCH=x86-64-v3 \
        -DDAMA_TESTS=OFF -DDAMA_BENCHMARKS=OFF >/dev/null
  cmake --build "$build" --target dama >/dev/null
fi
instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$build/dama" perft -v "$variant" -d "$1" 2>&1 |
    sed -n 's/.*I *refs: *//p' | tr -d ,
}
leaves=$("$build/dama" perft -v "$variant" -d "$depth" | awk -v d="$depth" '$2 == d {print $3}')
total=$(instructions "$depth")
previous=$(instructions "$((depth - 1))")
awk -v t="$total" -v p="$previous" -v n="$leaves" -v v="$variant" -v d="$depth" \
  'BEGIN { printf "%s perft %d: %d leaves, %d instructions, %.1f instructions per leaf\n", v, d, n, t - p, (t - p) / n }'
