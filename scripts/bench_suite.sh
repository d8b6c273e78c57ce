#!/usr/bin/env bash
# The paper's benchmark in one command: builds lddb-bench (Release, Ninja) into build/ when
# needed and runs `lddb-bench suite paper --doc docs/benchmarks.md --svg docs/suite.svg`,
# which rewrites the suite section of docs/benchmarks.md (between <!-- suite:begin --> and
# <!-- suite:end -->) and docs/suite.svg. Extra arguments go to lddb-bench, e.g. `--limit 100`;
# a later `--doc /tmp/b.md --svg /tmp/b.svg` writes there instead.
# About 20 minutes with the defaults on 2 idle cores: run it on an otherwise idle machine.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [[ ! -f build/CMakeCache.txt ]]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
cmake --build build -j "$(nproc)" --target lddb-bench
read -r load _ < /proc/loadavg
if awk -v l="$load" 'BEGIN { exit !(l >= 0.5) }'; then
  echo "bench_suite.sh: note: load average $load; the times will be slower than on an idle machine" >&2
fi
exec build/bench/lddb-bench suite paper --doc docs/benchmarks.md --svg docs/suite.svg "$@"
