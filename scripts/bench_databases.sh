#!/usr/bin/env bash
# Measures the database figures in docs/benchmarks.md: b=4 generation time per rule
# (hyperfine, whole `lddb gen` command, 2 threads), open + verify and lookups (Google
# Benchmark, build/bench/bench_lddb and bench_search). Run on a quiet machine after a
# Release build.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores"
for rule in tile octile any-angle; do
  hyperfine --warmup 2 --runs 10 --style basic --export-markdown "$out/$rule.md" \
    "build/tools/lddb gen --rule $rule --block 4 --threads 2 --out $out/$rule-4.lddb" >/dev/null
  tail -n 1 "$out/$rule.md"
done
build/bench/bench_lddb --benchmark_filter='OpenVerify' --benchmark_repetitions=5 \
  --benchmark_report_aggregates_only=true
build/bench/bench_search --benchmark_filter='CostLookup' --benchmark_repetitions=5 \
  --benchmark_report_aggregates_only=true
