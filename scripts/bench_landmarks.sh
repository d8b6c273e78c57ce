#!/usr/bin/env bash
# What landmarks cost to build and hold (lddb/landmarks.hpp): for two 512 x 512 maps and the
# same maps scaled to 2048 x 2048 (each cell drawn as 4 x 4), every rule and K landmarks,
# the wall time of landmark_set::build (farthest placement) and the bytes of its tables, as
# `lddb bench --landmarks K` reports them. Each build runs ROUNDS times; the least time is kept.
#
# Usage: bash scripts/bench_landmarks.sh [ROUNDS] [K...]   (default: 2 rounds; K = 1 4 8 16)
#
# With --repair [RUNS] it measures landmark_set::repair against a rebuild instead
# (bench/bench_landmark_repair.cpp; docs/benchmarks.md, "Landmark repair"): 8 landmarks,
# octile and any-angle, and octile's 16 as tile bounds, doors opened and reopened, 10 and
# 1000 cells freed, on the rooms
# maps of /work/shared/maps (LDDB_MAPS) at 512 x 512 and drawn at 2048 x 2048; least of
# RUNS (default 3).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [[ ${1:-} == --repair ]]; then
  runs=${2:-3}
  build=${LDDB_BUILD_DIR:-build}
  cmake --build "$build" -j 2 --target bench_landmark_repair >/dev/null
  echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; $(date -u '+%Y-%m-%d %H:%M UTC'); least of $runs run(s)"
  echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  for m in 64room_001 16room_001; do
    map=${LDDB_MAPS:-/work/shared/maps}/rooms/$m.map
    [[ -f $map ]] || { echo "bench_landmarks.sh: $map is missing" >&2; exit 2; }
    echo
    "$build/bench/bench_landmark_repair" "$map" "$runs"
  done
  echo
  echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
  exit 0
fi
rounds=${1:-2}
shift || true
counts=("$@")
((${#counts[@]})) || counts=(1 4 8 16)
lddb=build/tools/lddb
[[ -x $lddb ]] || { echo "bench_landmarks.sh: $lddb is missing: build first (bash scripts/test.sh)" >&2; exit 2; }
maps_dir=''  # set by target_maps.sh, with scaled()
# shellcheck source=scripts/target_maps.sh disable=SC1091
source scripts/target_maps.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# one_query MAP OUT: a scenario of one query between the map's first and last free cells.
one_query() {
  awk 'NR == 2 { h = $2 } NR == 3 { w = $2 } NR > 4 { y = NR - 5
      for (x = 0; x < length($0); ++x) if (substr($0, x + 1, 1) == ".") { if (!seen) { sx = x; sy = y; seen = 1 } gx = x; gy = y } }
    END { printf "version 1\n0\tm.map\t%d\t%d\t%d\t%d\t%d\t%d\t0\n", w, h, sx, sy, gx, gy }' "$1" >"$2"
}

echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; $(date -u '+%Y-%m-%d %H:%M UTC'); least of $rounds build(s)"
echo
echo "| map | size | rule | K | build ms | ms a landmark | MiB |"
echo "|---|---|---|---|---|---|---|"
for m in bg512/AR0500SR mazes/maze512-8-1; do
  name=${m#*/}
  [[ -f $maps_dir/$m.map ]] || { echo "| $name | missing | | | | | |"; continue; }
  cp "$maps_dir/$m.map" "$work/$name-512.map"
  scaled "$maps_dir/$m.map" "$work/$name-2048.map" 4
  for size in 512 2048; do
    map=$work/$name-$size.map
    one_query "$map" "$work/q.scen"
    for rule in tile octile any-angle; do
      for k in "${counts[@]}"; do
        best="" mib=""
        for ((r = 0; r < rounds; ++r)); do
          line=$("$lddb" bench --scen "$work/q.scen" --map "$map" --rule "$rule" --landmarks "$k" 2>/dev/null | grep '^landmarks:') || true
          [[ -n $line ]] || { echo "bench_landmarks.sh: no landmark line for $name $size $rule K=$k" >&2; exit 1; }
          ms=$(sed -n 's/.*at most \([0-9.]*\) ms and \([0-9.]*\) MiB.*/\1/p' <<<"$line")
          mib=$(sed -n 's/.*at most \([0-9.]*\) ms and \([0-9.]*\) MiB.*/\2/p' <<<"$line")
          if [[ -z $best ]] || awk -v a="$ms" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$ms; fi
        done
        echo "| $name | ${size}² | $rule | $k | $best | $(awk -v a="$best" -v k="$k" 'BEGIN { printf "%.1f", a / k }') | $mib |"
      done
    done
  done
done
