#!/usr/bin/env bash
# Instruction-count guard: counts, under callgrind, the instructions of lddb's own code for
# a fixed set of queries (bench/instr_queries.cpp: every shipped database, every default
# search, five benchmark maps) and compares the mean per query of each group with
# tests/fingerprint/instructions.txt. Unlike a timing, a count does not move with the load
# on the machine: the same build gives the same counts on every run and on every x86-64 CPU
# (only lddb's own object is counted, not libc's or libstdc++'s CPU-dispatched routines;
# Block A* runs the portable min-plus loops, and the AVX2 lines are compared only where
# the CPU has AVX2).
#
# Usage: scripts/instr_guard.sh [--update]
#   Fails when a group's count rises by more than 3%, or a group is missing or new. A fall
#   of more than 3% is reported but passes. --update rewrites the file with this run's
#   counts (keeping the lines of groups this machine cannot run).
# Builds build/bench/instr_queries (Release, as scripts/test.sh does; reuses build/).
# Needs valgrind (scripts/setup.sh) and the benchmark maps ($LDDB_MAPS_DIR, else
# ../shared/maps): without the maps it says SKIPPED and exits 0, or fails when $CI is set.
# A group whose found= is short of its queries= fails. LDDB_INSTR_DUMPS=DIR keeps
# the callgrind files there, one per group, to see with callgrind_annotate where a count rose.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

update=0
case ${1-} in
  --update) update=1 ;;
  "") ;;
  *) echo "usage: scripts/instr_guard.sh [--update]" >&2; exit 2 ;;
esac
file=tests/fingerprint/instructions.txt
limit=1.03  # the rise that fails, and the fall that is reported

command -v valgrind >/dev/null || { echo "instr_guard.sh: valgrind not found (scripts/setup.sh installs it)" >&2; exit 1; }
if [[ ! -f build/CMakeCache.txt ]]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
# The recorded counts are of the portable Release build: other flags compile other code.
grep -q '^CMAKE_BUILD_TYPE:STRING=Release$' build/CMakeCache.txt ||
  { echo "instr_guard.sh: build/ is not a Release build; the counts are of one" >&2; exit 1; }
if grep -q '^LDDB_NATIVE:BOOL=ON$' build/CMakeCache.txt; then
  echo "instr_guard.sh: build/ has LDDB_NATIVE=ON (-march=native); the counts are of the portable build" >&2
  exit 1
fi
cmake --build build -j "$(nproc)" --target instr_queries
prog=$(realpath build/bench/instr_queries)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
start=$SECONDS
status=0
valgrind --tool=callgrind --instr-atstart=no --collect-atstart=no --compress-strings=no --compress-pos=no \
  --callgrind-out-file="$tmp/cg.out" --log-file="$tmp/valgrind.log" "$prog" >"$tmp/groups" || status=$?
if [[ $status -eq 77 ]]; then
  if [[ -n ${CI-} && ${CI} != false && ${CI} != 0 ]]; then
    echo "instr_guard.sh: FAILED: CI is set and the benchmark maps are missing (set LDDB_MAPS_DIR): nothing compared" >&2
    exit 1
  fi
  echo "instr_guard.sh: SKIPPED, nothing compared: the benchmark maps are missing (set LDDB_MAPS_DIR)" >&2
  exit 0
elif [[ $status -ne 0 ]]; then
  echo "instr_guard.sh: instr_queries failed under valgrind (status $status):" >&2
  cat "$tmp/valgrind.log" >&2
  exit 1
fi
echo "instr_guard.sh: callgrind ran for $((SECONDS - start)) s"
if [[ -n ${LDDB_INSTR_DUMPS-} ]]; then
  mkdir -p "$LDDB_INSTR_DUMPS"
  cp "$tmp"/cg.out.* "$LDDB_INSTR_DUMPS"/
fi

# Each group's dump file: sum the exclusive cost of every cost line in the program's own
# object (a cost line right after calls= is the call's inclusive cost, left out).
shopt -s nullglob
dumps=("$tmp"/cg.out.*)
[[ ${#dumps[@]} -gt 0 ]] ||
  { echo "instr_guard.sh: no callgrind dumps: was instr_queries built without <valgrind/callgrind.h>?" >&2; exit 1; }
awk -v prog="$prog" '
  FNR == 1 { group = ""; ob = ""; after_call = 0 }
  /^desc: Trigger: Client Request: / { group = substr($0, 32); seen[group] = 1; next }
  /^ob=/ { ob = substr($0, 4); next }
  /^calls=/ { after_call = 1; next }
  /^[0-9]/ {
    if (after_call) { after_call = 0; next }
    if (group != "" && ob == prog) cost[group] += $2
  }
  END { for (g in seen) printf "%s\t%.0f\n", g, cost[g] }' "${dumps[@]}" >"$tmp/counts"

# This run: "GROUP<TAB>queries<TAB>instructions per query", in the program's order. Every
# query comes from a scenario file and has a path: a group that found fewer counted a
# search that gave up or went wrong, not the one recorded.
awk -F'\t' 'FNR == NR { total[$1] = $2; next }
  /^group / {
    line = substr($0, 7); q = line; sub(/.* queries=/, "", q); sub(/ .*/, "", q)
    f = line; sub(/.* found=/, "", f); sub(/ .*/, "", f)
    g = line; sub(/ queries=.*/, "", g)
    if (f != q) { print "instr_guard.sh: " g " found " f " paths of " q " queries" > "/dev/stderr"; exit 1 }
    if (!(g in total) || total[g] == 0) { print "instr_guard.sh: nothing counted for " g > "/dev/stderr"; exit 1 }
    printf "%s\t%s\t%.0f\n", g, q, total[g] / q
  }' "$tmp/counts" "$tmp/groups" >"$tmp/now"
grep '^skipped ' "$tmp/groups" | sed 's/^skipped //' >"$tmp/skipped" || true

if [[ $update -eq 1 ]]; then
  {
    sed -n '/^#/p' "$file" 2>/dev/null || true
    # Every group measured now, and the recorded lines of the groups this machine skipped.
    awk -F'\t' '{ printf "%s queries=%s instructions=%s\n", $1, $2, $3 }' "$tmp/now"
    while IFS= read -r s; do grep -F "${s%%:*} queries=" "$file" || true; done <"$tmp/skipped"
  } >"$tmp/new"
  mv "$tmp/new" "$file"
  echo "instr_guard.sh: wrote $file ($(grep -vc '^#' "$file") groups)"
  exit 0
fi

[[ -f $file ]] || { echo "instr_guard.sh: $file is missing; make it with --update" >&2; exit 1; }
awk -v limit="$limit" -v skipfile="$tmp/skipped" '
  BEGIN {
    while ((getline s < skipfile) > 0) { sub(/:.*/, "", s); skipped[s] = 1 }
    printf "%-50s %12s %12s %7s\n", "group", "recorded", "now", "ratio"
  }
  FNR == NR { now[$1] = $3; nq[$1] = $2; order[++n] = $1; next }
  /^#/ || NF == 0 { next }
  {
    g = $1 " " $2 " " $3; q = $4; v = $5; sub(/^queries=/, "", q); sub(/^instructions=/, "", v)
    rec[g] = v; rq[g] = q; rorder[++m] = g
  }
  END {
    bad = 0; fell = 0
    for (i = 1; i <= m; i++) {
      g = rorder[i]
      if (g in skipped) {
        printf "%-50s %12s %12s %7s  NOT COMPARED: this CPU cannot run it\n", g, rec[g], "-", "-"; ++uncompared; continue
      }
      if (!(g in now)) { printf "%-50s %12s %12s %7s  MISSING\n", g, rec[g], "-", "-"; bad = 1; continue }
      r = now[g] / rec[g]; note = ""
      if (nq[g] != rq[g]) { note = "  QUERIES " rq[g] " -> " nq[g]; bad = 1 }
      else if (r > limit) { note = "  ROSE"; bad = 1 } else if (r < 2 - limit) { note = "  fell"; fell = 1 }
      printf "%-50s %12s %12s %7.4f%s\n", g, rec[g], now[g], r, note
      done[g] = 1
    }
    for (i = 1; i <= n; i++) if (!(order[i] in done)) {
      printf "%-50s %12s %12s %7s  NEW\n", order[i], "-", now[order[i]], "-"; bad = 1
    }
    if (uncompared) printf "instr_guard.sh: WARNING: %d groups NOT COMPARED: this CPU has no AVX2 (see above)\n", uncompared
    if (fell) print "instr_guard.sh: some counts fell by more than 3%: record them with scripts/instr_guard.sh --update"
    if (bad) {
      print "instr_guard.sh: FAILED: a count rose by more than 3%, or a group is missing, new or has other"
      print "queries. A change meant to cost more updates the file with scripts/instr_guard.sh --update and"
      print "says why in its commit."
      exit 1
    }
    print "instr_guard.sh: passed"
  }' FS='\t' "$tmp/now" FS=' ' "$file"
