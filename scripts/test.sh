#!/usr/bin/env bash
# Installs what is missing, builds dama and runs the default test suite
# (every test except those labelled `slow`).
#   scripts/test.sh                 Release build in build/, default suite
#   scripts/test.sh --slow          also the slow tests (deep perft)
#   scripts/test.sh --sanitize address,undefined|thread   in build-<sanitizers>/
set -euo pipefail
cd "$(dirname "$0")/.."

label_filter=(-LE slow)
sanitize=""
while (($#)); do
  case "$1" in
    --slow) label_filter=() ;;
    --sanitize) sanitize=${2:?--sanitize needs address,undefined or thread}; shift ;;
    *) echo "scripts/test.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
  shift
done

bash scripts/setup.sh --deps

if [ -n "$sanitize" ]; then
  build=${BUILD_DIR:-build-${sanitize//,/-}}
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDAMA_SANITIZE="$sanitize" -DDAMA_BENCHMARKS=OFF >/dev/null
else
  build=${BUILD_DIR:-build}
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$build" --parallel "$(nproc)"
cd "$build"
ctest "${label_filter[@]}" --output-on-failure --parallel "$(nproc)"
