#!/usr/bin/env bash
# Microbenchmarks of the parts of a query (bench/bench_search.cpp): builds bench_search,
# runs every benchmark 5 times and prints a markdown table of the mean CPU time per
# operation (the operation of each row is named in bench_search.cpp), with its standard
# deviation over the 5 repetitions.
# Usage: scripts/bench_micro.sh [more Google Benchmark flags, e.g. --benchmark_filter=Heap]
# LDDB_BUILD_DIR: the build folder (default build/, configured as scripts/test.sh does).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=${LDDB_BUILD_DIR:-build}

if [[ ! -f $build/CMakeCache.txt ]]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
cmake --build "$build" -j "$(nproc)" --target bench_search >/dev/null ||
  { echo "bench_micro.sh: cannot build bench_search (it needs libbenchmark-dev)" >&2; exit 1; }

json=$(mktemp)
trap 'rm -f "$json"' EXIT
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$build/bench/bench_search" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_out="$json" --benchmark_out_format=json "$@" >/dev/null
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| benchmark | case | ns per operation (mean of 5) | std. dev. | other |"
echo "|---|---|---|---|---|"
# The JSON report has one "key": value per line; each benchmark object ends with "}".
awk '
  /^ *"[a-z_]+": / {
    key = $1; gsub(/[":]/, "", key)
    value = $0; sub(/^ *"[a-z_]+": */, "", value); sub(/,$/, "", value); gsub(/"/, "", value)
    field[key] = value
    next
  }
  /^ *}/ {
    if (field["run_type"] == "aggregate" && field["per_op"] != "") {
      run = field["run_name"]
      if (field["aggregate_name"] == "mean") {
        if (!(run in mean)) order[n++] = run
        mean[run] = field["per_op"] * 1e9
        label[run] = field["label"]
        other[run] = ""
        if (field["nodes_per_query"] != "") other[run] = sprintf("%.1f nodes per query", field["nodes_per_query"])
        if (field["mean_length"] != "") other[run] = sprintf("mean segment length %.2f", field["mean_length"])
      } else if (field["aggregate_name"] == "stddev") {
        dev[run] = field["per_op"] * 1e9
      }
    }
    split("", field)
  }
  END {
    for (i = 0; i < n; ++i) {
      r = order[i]
      name = r; sub(/^BM_/, "", name); sub(/\/.*/, "", name)
      printf "| %s | %s | %.1f | %.1f | %s |\n", name, label[r] != "" ? label[r] : substr(r, index(r, "/") + 1), mean[r], dev[r], other[r]
    }
  }
' "$json"
