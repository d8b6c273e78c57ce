#!/usr/bin/env bash
# Before/after wall time of the default search for two builds of lddb, run in turn (old,
# new, old, new, ...) on the same queries, so that both see the same machine load.
# Cases: the six maps of target_maps.sh x the three rules. Each case runs LIMIT queries
# spread evenly over the map's scenario file (a file lists its queries shortest first, so
# its first queries alone would time only short paths).
# Prints one line per case: the mean µs a query of each run, in the order run, then
# new/old: the ratio of the two builds' times summed over the rounds, and the median of
# the rounds' own ratios (a round's two runs see much the same load, so a burst of other
# work on the machine moves the median less than the sum).
# Usage: bash scripts/bench_ab.sh [--limit N] [--rules "tile octile any-angle"] OLD_LDDB NEW_LDDB [ROUNDS]
#        (N default 400, ROUNDS default 2)
# Example: git worktree add /tmp/old COMMIT, build it, then
#          bash scripts/bench_ab.sh --limit 300 /tmp/old/build/tools/lddb build/tools/lddb 2
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
target_maps=()  # set by target_maps.sh
# shellcheck source=scripts/target_maps.sh disable=SC1091
source scripts/target_maps.sh
limit=400
rules=(tile octile any-angle)
while (($# > 0)); do
  case $1 in
    --limit) limit=$2; shift 2 ;;
    --rules) read -r -a rules <<<"$2"; shift 2 ;;
    *) break ;;
  esac
done
if (($# < 2)); then
  echo "usage: bash scripts/bench_ab.sh [--limit N] [--rules RULES] OLD_LDDB NEW_LDDB [ROUNDS]" >&2
  exit 2
fi
old=$1 new=$2 rounds=${3:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for map in "${target_maps[@]}"; do
  scen=$maps_dir/$map.map.scen
  spread_queries "$scen" "$limit" >"$work/${map//\//_}.scen"
done
ratio() { awk -v o="$1" -v n="$2" 'BEGIN { if (o > 0) printf "%.3f", n / o; else print "?" }'; }
for map in "${target_maps[@]}"; do
  for rule in "${rules[@]}"; do
    args=(bench --scen "$work/${map//\//_}.scen" --map "$maps_dir/$map.map" --rule "$rule"
      --limit "$limit")
    line="$map $rule:"
    sum_old=0 sum_new=0 ratios=()
    for ((r = 0; r < rounds; ++r)); do
      t_old=$("$old" "${args[@]}" 2>/dev/null | awk '$1 == "all" { print $7 }')
      t_new=$("$new" "${args[@]}" 2>/dev/null | awk '$1 == "all" { print $7 }')
      line+=" ${t_old:-?} ${t_new:-?}"
      sum_old=$(awk -v a="$sum_old" -v b="${t_old:-0}" 'BEGIN { print a + b }')
      sum_new=$(awk -v a="$sum_new" -v b="${t_new:-0}" 'BEGIN { print a + b }')
      ratios+=("$(ratio "${t_old:-0}" "${t_new:-0}")")
    done
    median=$(printf '%s\n' "${ratios[@]}" | sort -g | awk '{ r[NR] = $1 } END { print (NR % 2) ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2 }')
    echo "$line  new/old $(ratio "$sum_old" "$sum_new"), median $median"
  done
done
