#!/usr/bin/env bash
# Builds lddb (Release, Ninja) into build/ and runs every test suite.
# Reuses an existing build/ folder; extra arguments go to ctest (e.g. -R cli).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [[ ! -f build/CMakeCache.txt ]]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
cmake --build build -j "$(nproc)"
ctest --test-dir build --output-on-failure -j2 "$@"
