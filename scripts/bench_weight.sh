#!/usr/bin/env bash
# Weighted search (search_options::weight, `--weight W`): time and mean length against W for
# Block A* (tile, octile, any-angle) and octile A*, on two of the six target maps
# (target_maps.sh), every query of each scenario file, one thread, one run.
# Prints a markdown table for docs/benchmarks.md: per map, search and weight, the mean
# time, expansions and length, and their ratios to weight 1. `lddb bench` checks every path
# and holds octile lengths to [optimum, W x optimum]; the script stops if a check fails.
# Usage: scripts/bench_weight.sh [LIMIT]   (LIMIT: at most that many queries per map)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
limit=()
if [[ -n ${1:-} ]]; then limit=(--limit "$1"); fi
source scripts/target_maps.sh
lddb=build/tools/lddb
maps=("${target_maps[2]}" "${target_maps[4]}")  # den520d (a game map) and 64room_001 (open rooms)
weights=(1 1.1 1.25 1.5 2 3)

# once ALGO RULE SCEN WEIGHT -> "queries mean_length mean_expanded mean_us"
once() {
  "$lddb" bench --scen "$3" --algo "$1" --rule "$2" --weight "$4" "${limit[@]}" |
    awk '$1 == "all" { print $2, $4, $6, $7 }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }

echo "command: scripts/bench_weight.sh ${1:-}"
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; $(date -u +%Y-%m-%d); one run each"
echo
echo "| map | search | weight | queries | mean µs | time vs w=1 | mean expanded | expanded vs w=1 | mean length | length vs w=1 |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for m in "${maps[@]}"; do
  scen="$maps_dir/$m.map.scen"
  [[ -f $scen ]] || { echo "| ${m#*/} | missing | | | | | | | | |"; continue; }
  for s in block-astar:tile block-astar:octile block-astar:any-angle astar:octile; do
    algo=${s%%:*} rule=${s#*:}
    for w in "${weights[@]}"; do
      line=$(once "$algo" "$rule" "$scen" "$w")  # a failed check stops the script here
      read -r q len exp us <<<"$line"
      if [[ $w == 1 ]]; then len1=$len exp1=$exp us1=$us; fi
      echo "| ${m#*/} | $algo ($rule) | $w | $q | $us | $(ratio "$us" "$us1") | $exp | $(ratio "$exp" "$exp1") | $len | $(ratio "$len" "$len1") |"
    done
  done
done
