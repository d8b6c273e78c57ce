#!/usr/bin/env bash
# What the default any-angle rule (no passing between the sides of a double corner) costs
# against any-angle:squeeze=allowed: Block A*, Block A* smoothed, Theta* and Lazy Theta* on
# the six target maps (target_maps.sh), every query of each scenario file, one thread.
# Prints a markdown table for docs/benchmarks.md: per map and search, the mean time and
# mean length under each rule and the ratios strict / allowed.
# Usage: scripts/bench_rules.sh [LIMIT]   (LIMIT: at most that many queries per map)
# LDDB_BENCH_ROUNDS=R (default 1): the two rules run in turn R times; each keeps its least
# mean time. Block A* under squeeze=allowed needs a database for that rule: it is built
# into a temporary folder first (under a second).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
limit=()
if [[ -n ${1:-} ]]; then limit=(--limit "$1"); fi
source scripts/target_maps.sh
lddb=build/tools/lddb
rounds=${LDDB_BENCH_ROUNDS:-1}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$lddb" gen --rule any-angle:squeeze=allowed --block 4 --out "$tmp/allowed.lddb" >/dev/null
strict_db=lddb/any-angle-4.lddb

# once SCEN ALGO RULE DB [--smooth] -> "queries found mean_length mean_us invalid"
once() {
  local scen=$1 algo=$2 rule=$3 db=$4
  shift 4
  local args=(--scen "$scen" --algo "$algo" "${limit[@]}" "$@")
  if [[ $algo == block-astar ]]; then args+=(--lddb "$db"); else args+=(--rule "$rule"); fi
  "$lddb" bench "${args[@]}" 2>/dev/null | awk '$1 == "all" { print $2, $3, $4, $7, $8 }' || true
}

# best of the rounds, by mean time (4th field)
keep_best() { awk -v a="$1" -v b="$2" 'BEGIN { split(a, x, " "); split(b, y, " "); print (b == "" || x[4] < y[4]) ? a : b }'; }

echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; $(date -u +%Y-%m-%d); least of $rounds run(s) each"
echo
echo "| map | search | queries | allowed µs | default µs | time default/allowed | allowed length | default length | length default/allowed | found allowed / default | invalid |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for m in "${target_maps[@]}"; do
  scen="$maps_dir/$m.map.scen"
  [[ -f $scen ]] || { echo "| ${m#*/} | missing | | | | | | | | | |"; continue; }
  for search in block-astar block-astar+smooth theta lazy-theta; do
    algo=${search%+smooth}
    extra=()
    [[ $search == *+smooth ]] && extra=(--smooth)
    a="" d=""
    for ((r = 0; r < rounds; r++)); do
      a=$(keep_best "$(once "$scen" "$algo" any-angle:squeeze=allowed "$tmp/allowed.lddb" "${extra[@]}")" "$a")
      d=$(keep_best "$(once "$scen" "$algo" any-angle "$strict_db" "${extra[@]}")" "$d")
    done
    read -r q fa la ta ia <<<"$a"
    read -r _ fd ld td id <<<"$d"
    echo "| ${m#*/} | $search | $q | $ta | $td | $(awk -v a="$ta" -v b="$td" 'BEGIN{printf "%.3f", b/a}') | $la | $ld |" \
      "$(awk -v a="$la" -v b="$ld" 'BEGIN{printf "%.4f", b/a}') | $fa / $fd | $((ia + id)) |"
  done
done
