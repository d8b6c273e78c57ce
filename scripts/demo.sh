#!/usr/bin/env bash
# The main job: builds lddb if needed, then
#   1. `lddb info`: opens and verifies every database shipped in lddb/ and prints a table;
#   2. `lddb demo`: runs Block A* (octile and any-angle databases), A*, Theta* and Lazy
#      Theta* on a 256x256 rooms map generated with a fixed seed, prints a table of mean
#      length, expansions, time and speed-up over A* (every path checked), and writes
#      lddb-demo.svg here, in the repository root.
# Both steps always run; the exit status is non-zero if either failed. Extra arguments go
# to `lddb demo` (e.g. --out /tmp/demo.svg).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [[ ! -f build/CMakeCache.txt ]]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
cmake --build build -j "$(nproc)" --target lddb

status=0
build/tools/lddb info --dir "$PWD/lddb" || status=$?
echo
LDDB_DATA_DIR="$PWD/lddb" build/tools/lddb demo "$@" || status=$?
exit "$status"
