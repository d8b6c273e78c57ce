#!/usr/bin/env bash
# Component labels (bench/bench_components.cpp): build time, set_blocked cost and the time
# saved on queries between components, on generated 512 x 512 and 2048 x 2048 maps; prints
# the machine, the date and markdown tables (docs/benchmarks.md, "Component labels").
# Usage: scripts/bench_components.sh [--quick]
# LDDB_BUILD_DIR: the build folder (default build/, configured as scripts/test.sh does).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=${LDDB_BUILD_DIR:-build}

if [[ ! -f $build/CMakeCache.txt ]]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
cmake --build "$build" -j "$(nproc)" --target bench_components >/dev/null
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
"$build/bench/bench_components" "$@"
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
