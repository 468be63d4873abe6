#!/usr/bin/env bash
# The endgame tables and the 10x8/10x10/8x8 boards under AddressSanitizer and
# UBSan (tests/sanitize_egtb.cpp): builds dama_sanitize_egtb in
# build-address-undefined/ and runs it; a sanitizer report or a table
# mismatch exits non-zero.  Minutes, where the whole suite under the
# sanitizers (scripts/test.sh --sanitize address,undefined) takes an hour.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build-address-undefined}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDAMA_SANITIZE=address,undefined \
  -DDAMA_BENCHMARKS=OFF >/dev/null
cmake --build "$build" --target dama_sanitize_egtb --parallel "$(nproc)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/tests/dama_sanitize_egtb" "$work"
