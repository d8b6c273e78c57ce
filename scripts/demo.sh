#!/usr/bin/env bash
# The main job: builds lddb if needed, then opens and verifies every database shipped in
# lddb/ and prints a summary table (`lddb info`).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [[ ! -f build/CMakeCache.txt ]]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
cmake --build build -j "$(nproc)" --target lddb
exec build/tools/lddb info --dir "$PWD/lddb" "$@"
