#!/usr/bin/env bash
# Installs the Debian 12 packages lddb needs to build and test. Safe to run again: apt
# skips what is already installed. Uses sudo only when not already root.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  python3  # tests/python: the C API through ctypes
  libzstd-dev libxxhash-dev libboost-serialization-dev
  libgtest-dev libcli11-dev nlohmann-json3-dev libbenchmark-dev
  clang-14 libclang-rt-14-dev  # scripts/fuzz.sh: libFuzzer and clang's sanitizer runtimes
  valgrind  # scripts/instr_guard.sh: callgrind, and <valgrind/callgrind.h> for bench/instr_queries
)

if [[ ${EUID:-$(id -u)} -eq 0 ]]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1; then
  sudo=(sudo)
else
  echo "setup.sh: need root or sudo to install: ${packages[*]}" >&2
  exit 1
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [[ ${#missing[@]} -eq 0 ]]; then
  echo "setup.sh: all packages already installed"
  exit 0
fi

echo "setup.sh: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update
"${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
