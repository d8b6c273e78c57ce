#!/usr/bin/env bash
# Before/after wall time of Block A* for two builds of lddb, run in turn (old, new, old,
# new, ...) on the same scenario files, so that both see the same machine load.
# Prints one line per case: the mean µs a query of each run, in the order run.
# Usage: bash scripts/bench_ab.sh OLD_LDDB NEW_LDDB [ROUNDS]   (ROUNDS default 2)
# Example: git worktree add /tmp/old COMMIT, build it, then
#          bash scripts/bench_ab.sh /tmp/old/build/tools/lddb build/tools/lddb 2
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if (($# < 2)); then
  echo "usage: bash scripts/bench_ab.sh OLD_LDDB NEW_LDDB [ROUNDS]" >&2
  exit 2
fi
old=$1 new=$2 rounds=${3:-2}
maps_dir=${LDDB_MAPS_DIR:-../shared/maps}
# map rule limit (0: every query)
cases=("mazes/maze512-8-1 any-angle 1500" "dao/brc202d any-angle 0" "dao/den520d tile 0"
  "bg512/AR0500SR octile 0" "bg512/AR0500SR any-angle 0")
for spec in "${cases[@]}"; do
  read -r map rule limit <<<"$spec"
  args=(bench --scen "$maps_dir/$map.map.scen" --algo block-astar --rule "$rule")
  ((limit > 0)) && args+=(--limit "$limit")
  line="$map $rule:"
  for ((r = 0; r < rounds; ++r)); do
    for b in "$old" "$new"; do
      line+=" $("$b" "${args[@]}" 2>/dev/null | awk '$1 == "all" { print $7 }')"
    done
  done
  echo "$line"
done
