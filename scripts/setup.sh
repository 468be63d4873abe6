#!/usr/bin/env bash
# Idempotent set-up for a fresh Debian machine: installs every package dama needs
# (now and in later stages, so the set-up never changes shape), then configures
# and builds.  Run as root (or with sudo available).
#   scripts/setup.sh            install packages, configure, build
#   scripts/setup.sh --deps     install packages only
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  build-essential cmake ninja-build pkg-config git
  clang libclang-rt-14-dev            # libFuzzer target and sanitizer runtimes
  libeigen3-dev libhdf5-dev libcli11-dev libtomlplusplus-dev nlohmann-json3-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libopenmpi-dev openmpi-bin
  python3 python3-h5py python3-matplotlib
  chromium                            # the compare report's test opens it headless
  valgrind
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

[ "${1:-}" = "--deps" ] && exit 0

BUILD_DIR=${BUILD_DIR:-build}
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD_DIR" --parallel "$(nproc)"
