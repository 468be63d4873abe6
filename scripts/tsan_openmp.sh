#!/usr/bin/env bash
# The OpenMP code under ThreadSanitizer: a self-play job on 2 threads (game
# workers and the writer thread), stopped by SIGTERM and resumed, then the
# tuner on 2 threads with its samples in memory and streamed.
#
# Built with clang++: its libomp loads the Archer tool under TSan, which
# tells TSan about OpenMP's fork, join and barriers.  GCC's libgomp is not
# instrumented, so a GCC TSan build reports every OpenMP join as a race.
#   scripts/tsan_openmp.sh            build in build-tsan-clang/, then run
# Exits non-zero on the first report (halt_on_error).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build-tsan-clang}
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
if [ -f "$build/CMakeCache.txt" ]; then
  grep -q '^CMAKE_CXX_COMPILER:FILEPATH=.*clang++' "$build/CMakeCache.txt" \
    || { echo "scripts/tsan_openmp.sh: $build was configured with another compiler than clang++" >&2; exit 2; }
else
  export CC=clang CXX=clang++
fi
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDAMA_SANITIZE=thread \
  -DDAMA_BENCHMARKS=OFF -DDAMA_TESTS=OFF -DDAMA_ARCH=x86-64-v3 "${launcher[@]}" >/dev/null
cmake --build "$build" --target dama --parallel "$(nproc)"

export TSAN_OPTIONS="halt_on_error=1 ignore_noninstrumented_modules=1 second_deadlock_stack=1"
dama=$build/dama
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/job.toml" <<'TOML'
variant = "russian"
seed = 3
[search]
depth = 3
[checkpoint]
games = 4
seconds = 1
TOML

echo "== self-play, 2 threads, SIGTERM, resume"
"$dama" selfplay --config "$work/job.toml" --games 40 --threads 2 --out "$work/sp.h5" >/dev/null 2>"$work/sp.log" &
pid=$!
sleep 4
kill -TERM "$pid" 2>/dev/null || true
status=0
wait "$pid" || status=$?
# 0: it finished before the signal; 130: it stopped on it.  Anything else is a failure.
if [ "$status" -ne 0 ] && [ "$status" -ne 130 ]; then cat "$work/sp.log" >&2; exit 1; fi
"$dama" selfplay --config "$work/job.toml" --games 40 --threads 2 --out "$work/sp.h5" --resume >/dev/null 2>>"$work/sp.log" \
  || { cat "$work/sp.log" >&2; exit 1; }

echo "== tuner, 2 threads, in memory"
"$dama" tune --variant russian --data "$work/sp.h5" --out "$work/memory.json" --threads 2 >/dev/null
echo "== tuner, 2 threads, streamed"
"$dama" tune --variant russian --data "$work/sp.h5" --out "$work/streamed.json" --threads 2 --stream --block-rows 512 >/dev/null
echo "ThreadSanitizer: no report"
