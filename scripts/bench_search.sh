#!/usr/bin/env bash
# Block A* against the reference searches on one map of each family in ../shared/maps
# (the six target maps of target_maps.sh), every query of each scenario file, one thread, side by side
# in one invocation. Prints markdown tables for docs/benchmarks.md.
# Usage: scripts/bench_search.sh [LIMIT]   (LIMIT: at most that many queries per map)
# LDDB_BENCH_ROUNDS=R (default 1): each row's searches run R times in turn, and each
# reports its least mean time, so that a burst of load on a shared machine does not
# decide a ratio.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
limit=()
if [[ -n ${1:-} ]]; then limit=(--limit "$1"); fi
source scripts/target_maps.sh
lddb=build/tools/lddb

rounds=${LDDB_BENCH_ROUNDS:-1}
declare -A best

# once ALGO RULE SCEN -> "queries mean_length mean_expanded mean_us invalid mismatches"
once() {
  "$lddb" bench --scen "$3" --algo "$1" --rule "$2" "${limit[@]}" 2>/dev/null |
    awk '$1 == "all" { print $2, $4, $6, $7, $8, $9 }'
}
# measure SCEN ALGO:RULE... : runs the searches in turn, `rounds` times, keeping for each
# the run with the least mean time in best[ALGO:RULE]
measure() {
  local scen=$1 r s line
  shift
  for s in "$@"; do best[$s]=""; done
  for ((r = 0; r < rounds; r++)); do
    for s in "$@"; do
      line=$(once "${s%%:*}" "${s#*:}" "$scen")
      if [[ -z ${best[$s]} ]] || awk -v a="$(cut -d' ' -f4 <<<"$line")" -v b="$(cut -d' ' -f4 <<<"${best[$s]}")" 'BEGIN{exit !(a < b)}'; then
        best[$s]=$line
      fi
    done
  done
}
run() { echo "${best[$1:$2]}"; }

echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; $(date -u +%Y-%m-%d); least of $rounds run(s) each"
echo
echo "| map | rule | queries | A* µs | Block A* µs | speed-up | A* expanded | Block A* expanded (blocks) | lengths equal (and optimal, octile) | invalid |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for m in "${target_maps[@]}"; do
  scen="$maps_dir/$m.map.scen"
  [[ -f $scen ]] || { echo "| $m | missing | | | | | | | | |"; continue; }
  for rule in tile octile; do
    measure "$scen" "astar:$rule" "block-astar:$rule"
    read -r q la ea ta ia ma < <(run astar "$rule")
    read -r _ lb eb tb ib mb < <(run block-astar "$rule")
    eq=$([[ $la == "$lb" ]] && echo yes || echo "no ($la vs $lb)")
    # Octile lengths must also be the scenario file's optimum, query by query ("-" for tile).
    if [[ $ma != 0 && $ma != - || $mb != 0 && $mb != - ]]; then eq="$eq; off the scenario optimum: A* $ma, Block A* $mb"; fi
    echo "| ${m#*/} | $rule | $q | $ta | $tb | $(awk -v a="$ta" -v b="$tb" 'BEGIN{printf "%.2f×", a/b}') | $ea | $eb | $eq | $((ia + ib)) |"
  done
done
echo
echo "| map | queries | octile A* µs | Theta* µs | Lazy Theta* µs | Block A* µs | vs A* | vs Theta* | Theta* length | Block A* length | Block A* vs Theta* | invalid |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
for m in "${target_maps[@]}"; do
  scen="$maps_dir/$m.map.scen"
  [[ -f $scen ]] || continue
  measure "$scen" astar:octile theta:any-angle lazy-theta:any-angle block-astar:any-angle
  read -r q _ _ ta _ _ < <(run astar octile)
  read -r _ lt _ tt it _ < <(run theta any-angle)
  read -r _ _ _ tl il _ < <(run lazy-theta any-angle)
  read -r _ lb _ tb ib _ < <(run block-astar any-angle)
  echo "| ${m#*/} | $q | $ta | $tt | $tl | $tb | $(awk -v a="$ta" -v b="$tb" 'BEGIN{printf "%.2f×", a/b}') | $(awk -v a="$tt" -v b="$tb" 'BEGIN{printf "%.2f×", a/b}') | $lt | $lb | $(awk -v a="$lt" -v b="$lb" 'BEGIN{printf "%+.2f%%", (b/a-1)*100}') | $((it + il + ib)) |"
done
