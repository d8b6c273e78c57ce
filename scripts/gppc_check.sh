#!/usr/bin/env bash
# lddb's entry for the GPPC dynamic track (gppc/entry.cpp) under the start kit's own
# runner and validator (`run -check`): every path valid and of the scenario's reference
# cost, on the start kit's two example scenarios, the dev scenarios beside it and
# scenarios `lddb dynamic` writes from a map of each family of ../shared/maps (doors,
# buildings and regions; one switching between two maps; one drawn at 2048 x 2048), and
# again with landmark bounds per tile on every map. Fails when the start kit or a
# map is missing. Usage: bash scripts/gppc_check.sh [BUILD_DIR]   (default build/)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
shared="$root/../shared"
startkit="${LDDB_GPPC_STARTKIT:-$shared/gppc-dynamic/startkit}"
maps="$shared/maps"
[[ -f "$startkit/Entry.h" ]] || { echo "gppc_check.sh: no GPPC start kit at $startkit" >&2; exit 1; }
[[ -f "$build/CMakeCache.txt" ]] || cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" -j "$(nproc)" --target lddb lddb_gppc

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
generated=()
for m in bg512/AR0012SR dao/lak303d mazes/maze512-32-1 random/random512-10-1 rooms/16room_001; do
  name="$(basename "$m")"
  "$build/tools/lddb" dynamic "$maps/$m.map" --scen "$maps/$m.map.scen" --out "$work/$name" --seed 7 \
    --rounds 20 --changes 10 --queries 15 --kinds doors,buildings,regions
  generated+=("$work/$name.scen")
done
"$build/tools/lddb" dynamic "$maps/bg512/AR0500SR.map" --scen "$maps/bg512/AR0500SR.map.scen" \
  --out "$work/AR0500SR-switch" --seed 7 --rounds 10 --changes 4 --queries 15 --kinds doors,buildings,switch \
  --switch-to "$maps/bg512/AR0504SR.map"
generated+=("$work/AR0500SR-switch.scen")
# At 2048 x 2048, where octile's landmarks are bounds per tile: a rooms map drawn 4x
# (doors and buildings come and go, regions open walls: the ranges are lowered or rebuilt).
# shellcheck source=scripts/target_maps.sh disable=SC1091
source "$root/scripts/target_maps.sh"
scaled "$maps/rooms/16room_001.map" "$work/16room_001-x4.map" 4
spread_queries "$maps/rooms/16room_001.map.scen" 400 >"$work/q.scen"
scaled_scen "$work/q.scen" "$work/16room_001-x4.map.scen" 4
"$build/tools/lddb" dynamic "$work/16room_001-x4.map" --scen "$work/16room_001-x4.map.scen" --out "$work/16room_001-x4" \
  --seed 7 --rounds 12 --changes 10 --queries 15 --kinds doors,buildings,regions
generated+=("$work/16room_001-x4.scen")

bash "$root/scripts/gppc_dynamic.sh" --build "$build" --mode check \
  "$startkit"/data/*.scen "$shared"/gppc-dynamic/dev/*.scen "${generated[@]}"
# Tile bounds on every map, under the same validator.
bash "$root/scripts/gppc_dynamic.sh" --build "$build" --mode check --entry lddb-tile-bounds \
  "$shared"/gppc-dynamic/dev/*.scen "${generated[@]}"
