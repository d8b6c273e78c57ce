#!/usr/bin/env bash
# What smoothing costs a default any-angle query: `lddb bench` on every query of each target
# map's scenario file (target_maps.sh), smoothed (the default) and raw (--raw) in turn,
# ROUNDS rounds (default 3), least mean time kept. Prints a markdown table: mean waypoints
# are not in bench's summary, so the table gives mean length and mean microseconds.
#   bash scripts/bench_smooth.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/target_maps.sh
rounds=${1:-3}
lddb=build/tools/lddb
[[ -x $lddb ]] || { echo "bench_smooth.sh: no $lddb; run scripts/test.sh first" >&2; exit 1; }

# mean length and mean microseconds of one run (bench's "all" row)
run() { "$lddb" bench --scen "$maps_dir/$1.map.scen" --lddb lddb/any-angle-4.lddb "${@:2}" 2>/dev/null |
  awk '$1 == "all" { print $4, $7 }'; }

echo "| map | length smoothed | length raw | µs smoothed | µs raw | smoothed / raw |"
echo "|---|---|---|---|---|---|"
for m in "${target_maps[@]}"; do
  best_s='' best_r=''
  for ((k = 0; k < rounds; ++k)); do
    read -r len_s us_s < <(run "$m")
    read -r len_r us_r < <(run "$m" --raw)
    [[ -z $best_s ]] || (($(awk -v a="$us_s" -v b="$best_s" 'BEGIN{print (a < b)}'))) && best_s=$us_s
    [[ -z $best_r ]] || (($(awk -v a="$us_r" -v b="$best_r" 'BEGIN{print (a < b)}'))) && best_r=$us_r
  done
  ratio=$(awk -v a="$best_s" -v b="$best_r" 'BEGIN { printf "%.2f", a / b }')
  echo "| $m | $len_s | $len_r | $best_s | $best_r | $ratio |"
done
