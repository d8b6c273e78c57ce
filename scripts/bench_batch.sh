#!/usr/bin/env bash
# Many agents at once: the paper's real-time strategy case, 1,600 queries on one 512x512
# game map, solved by Block A* through a batch_solver (lddb/batch.hpp) on 1 and 2 threads.
#
# The queries are the first 1,600 of bg512/AR0500SR.map.scen, which holds 1,280: they are
# taken in order and cycled (queries 1,281..1,600 repeat the first 320), so every query is
# a real scenario query and its octile optimum is known. `lddb bench --threads N` solves
# them in batches of 256 per thread, each worker with its own warm search_context, and
# reports the wall time of the searches alone (loading and path checking excluded) and the
# throughput; every path is still checked. Each configuration runs RUNS times (default 3)
# and the best run counts: on a shared machine the best run is the one least disturbed.
# Prints the load average before and after, since the machine may be shared.
#
# Usage: scripts/bench_batch.sh [RUNS]
#   LDDB=path/to/lddb (default build/tools/lddb), LDDB_MAPS_DIR (default ../shared/maps)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
runs=${1:-3}
lddb=${LDDB:-build/tools/lddb}
maps_dir=${LDDB_MAPS_DIR:-../shared/maps}
map=$maps_dir/bg512/AR0500SR.map
scen=$map.scen
queries=1600
[[ -x $lddb ]] || { echo "bench_batch.sh: $lddb not built (run scripts/test.sh or set LDDB)" >&2; exit 1; }
[[ -f $scen ]] || { echo "bench_batch.sh: $scen not found (set LDDB_MAPS_DIR)" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The first $queries queries, cycling through the file when it holds fewer.
awk -v n="$queries" 'NR == 1 { print; next } { q[++m] = $0 } END { for (k = 0; k < n; ++k) print q[k % m + 1] }' \
  "$scen" > "$tmp/rts.scen"

load() { cut -d' ' -f1-3 /proc/loadavg; }
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "map: $map; $queries queries (the scenario's $(($(wc -l < "$scen") - 1)), cycled); best of $runs runs"
echo "load average before: $(load)"
echo
echo "| rule | threads | wall time (ms) | queries/s | mean µs per query | search state per context (bytes) | peak RSS (MiB) |"
echo "|---|---|---|---|---|---|---|"
declare -A best
for rule in any-angle octile; do
  for threads in 1 2; do
    best_qps=0 best_line=
    for ((r = 0; r < runs; ++r)); do
      out=$("$lddb" bench --scen "$tmp/rts.scen" --map "$map" --rule "$rule" --threads "$threads") || {
        echo "bench_batch.sh: lddb bench failed ($rule, $threads threads):" >&2
        echo "$out" >&2
        exit 1
      }
      # searches: N thread(s), wall time S s, Q queries/s (summed search time T s)
      qps=$(awk '$1 == "searches:" { print $8 }' <<< "$out")
      wall=$(awk '$1 == "searches:" { print $6 }' <<< "$out")
      us=$(awk '$1 == "all" { print $7 }' <<< "$out")
      state=$(awk '$1 == "search" && $2 == "state:" { print $3 }' <<< "$out")
      rss=$(awk '$1 == "peak" { print $4 }' <<< "$out")
      if awk -v a="$qps" -v b="$best_qps" 'BEGIN { exit !(a > b) }'; then
        best_qps=$qps
        best_line="| $rule | $threads | $(awk -v s="$wall" 'BEGIN { printf "%.1f", s * 1000 }') | $qps | $us | $state | $rss |"
      fi
    done
    best[$rule,$threads]=$best_qps
    echo "$best_line"
  done
done
echo
for rule in any-angle octile; do
  echo "$rule: 2 threads / 1 thread throughput = $(awk -v a="${best[$rule,2]}" -v b="${best[$rule,1]}" 'BEGIN { printf "%.2f", a / b }')"
done
echo "load average after: $(load)"
