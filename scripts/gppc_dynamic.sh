#!/usr/bin/env bash
# Runs lddb's entry for the GPPC dynamic track (gppc/entry.cpp) under the start kit's own
# runner, as the competition does, and summarises each run (scripts/gppc_summary.py).
#
#   scripts/gppc_dynamic.sh [--build DIR] [--mode check|run|both] [--rounds N]
#                           [--entry NAME]... SCEN...
#
#   --build DIR   lddb's build folder (default build/), which holds gppc/liblddb-gppc.so
#   --mode        check: `run -check` and every path validated and compared with the
#                 scenario's reference cost (exit 1 on an invalid or longer path of lddb);
#                 run: `run -run`, timed, the least total of --rounds kept; both (default)
#   --rounds N    timed rounds per scenario and entry (default 1)
#   --entry NAME  lddb (default: the README's way, prepare + prepare_step), lddb-none
#                 (the same entry with nothing prepared), lddb-no-landmarks (prepared,
#                 no landmarks), lddb-tile-bounds (landmark bounds per tile) or example
#                 (the start kit's own entry); repeat to run
#                 several side by side
#
# The runner is built from the start kit in ../shared/gppc-dynamic/startkit (or
# $LDDB_GPPC_STARTKIT) into DIR/gppc-run, against each entry; nothing of it enters the
# repository. One line per scenario, entry and mode on standard output.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build" mode=both rounds=1 entries=() scens=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build="$(cd "$2" && pwd)"; shift 2 ;;
    --mode) mode="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --entry) entries+=("$2"); shift 2 ;;
    -h|--help) sed -n '2,22p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "gppc_dynamic.sh: unknown option $1" >&2; exit 2 ;;
    *) scens+=("$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"); shift ;;
  esac
done
[[ ${#entries[@]} -gt 0 ]] || entries=(lddb)
[[ ${#scens[@]} -gt 0 ]] || { echo "gppc_dynamic.sh: no scenario files given" >&2; exit 2; }
case "$mode" in check|run|both) ;; *) echo "gppc_dynamic.sh: --mode is check, run or both, not $mode" >&2; exit 2 ;; esac
startkit="${LDDB_GPPC_STARTKIT:-$root/../shared/gppc-dynamic/startkit}"
[[ -f "$startkit/Entry.h" && -f "$startkit/gppc/main.cpp" ]] ||
  { echo "gppc_dynamic.sh: no GPPC start kit at $startkit (set LDDB_GPPC_STARTKIT)" >&2; exit 1; }
entry_lib="$build/gppc/liblddb-gppc.so"
[[ -f "$entry_lib" ]] || cmake --build "$build" --target lddb_gppc
[[ -f "$entry_lib" ]] || { echo "gppc_dynamic.sh: $entry_lib was not built (is the start kit beside the project?)" >&2; exit 1; }

# The runner, as the start kit's CMakeLists builds it (C++17, Release), once per entry.
out="$build/gppc-run"
mkdir -p "$out"
sk="$startkit/gppc"
runner_sources=("$sk/main.cpp" "$sk/MapLoader.cpp" "$sk/ScenarioLoader.cpp" "$sk/Timer.cpp" "$sk/validator/ValidateSerialize.cpp")
build_runner() {  # NAME LIBRARY_DIR LIBRARY_NAME
  local exe="$out/run-$1"
  if [[ ! -x "$exe" || "$2/lib$3.so" -nt "$exe" ]]; then
    g++ -std=c++17 -O3 -DNDEBUG -I"$sk" -I"$startkit" "${runner_sources[@]}" -o "$exe" \
      -L"$2" -l"$3" -Wl,-rpath,"$2"
  fi
}
for e in "${entries[@]}"; do
  case "$e" in
    lddb|lddb-none|lddb-no-landmarks|lddb-tile-bounds) build_runner lddb "$build/gppc" lddb-gppc ;;
    example)
      if [[ ! -f "$out/libgppc-example.so" || "$startkit/Entry.cpp" -nt "$out/libgppc-example.so" ]]; then
        g++ -std=c++17 -O3 -DNDEBUG -fPIC -shared -I"$startkit" "$startkit/Entry.cpp" -o "$out/libgppc-example.so"
      fi
      build_runner example "$out" gppc-example ;;
    *) echo "gppc_dynamic.sh: unknown entry $e (lddb, lddb-none, lddb-no-landmarks, lddb-tile-bounds or example)" >&2; exit 2 ;;
  esac
done

status=0
for scen in "${scens[@]}"; do
  [[ -f "$scen" ]] || { echo "gppc_dynamic.sh: no scenario file $scen" >&2; exit 1; }
  for e in "${entries[@]}"; do
    exe="$out/run-${e%%-*}"
    prep=default
    [[ "$e" == lddb-* ]] && prep="${e#lddb-}"
    work="$(mktemp -d)"
    if [[ "$mode" != run ]]; then
      (cd "$work" && LDDB_GPPC_PREPARE=$prep "$exe" -check "$scen" > check.out) ||
        { echo "gppc_dynamic.sh: $exe -check $scen failed" >&2; exit 1; }
      printf 'entry=%s ' "$e"
      if ! python3 "$root/scripts/gppc_summary.py" check "$scen" "$work/check.out"; then
        [[ "$e" == example ]] || status=1  # the start kit's own entry is not optimal
      fi
    fi
    if [[ "$mode" != check ]]; then
      results=()
      for ((r = 1; r <= rounds; ++r)); do
        (cd "$work" && LDDB_GPPC_PREPARE=$prep "$exe" -run "$scen" > /dev/null && mv result.csv "result-$r.csv") ||
          { echo "gppc_dynamic.sh: $exe -run $scen failed" >&2; exit 1; }
        results+=("$work/result-$r.csv")
      done
      printf 'entry=%s ' "$e"
      python3 "$root/scripts/gppc_summary.py" run "$scen" "${results[@]}" || status=1
    fi
    rm -rf "$work"
  done
done
exit $status
