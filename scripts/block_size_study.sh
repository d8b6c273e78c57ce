#!/usr/bin/env bash
# Block size study: Block A* with b = 2, 3, 4 and 5 for each rule on one
# map of four families, every query of each scenario file (or the first LIMIT), one
# thread. Prints markdown tables for docs/block-size.md.
#
# Times: every configuration (rule and b, and Theta* for the any-angle lengths) is run
# RUNS times, the passes one after the other, and each mean time is the least of its
# RUNS means: on a shared machine the other load only ever adds time. Lengths and
# expansions do not depend on the run and are checked to be equal in every pass. Any-angle
# paths are also smoothed (lddb bench --smooth) once, for their length after smoothing.
#
# Databases: b = 4 is the shipped lddb/<rule>-4.lddb (linked into the study folder); the
# others are generated there once and reused (any-angle b = 5 takes minutes and about
# 3.3 GB of memory to build, 1.3 GB to open).
#
# Usage: scripts/block_size_study.sh [LIMIT]
#   LDDB_BUILD_DIR  build folder holding tools/lddb (default build)
#   LDDB_STUDY_DIR  where the databases go (default $LDDB_BUILD_DIR/study)
#   LDDB_MAPS_DIR   the Moving AI maps (default ../shared/maps)
#   LDDB_GEN_THREADS  threads for `lddb gen` (default 2)
#   LDDB_STUDY_RUNS   passes over every configuration (default 3)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=${LDDB_BUILD_DIR:-build}
lddb=$build/tools/lddb
study=${LDDB_STUDY_DIR:-$build/study}
maps_dir=${LDDB_MAPS_DIR:-../shared/maps}
limit=${1:+--limit $1}
maps=(bg512/AR0500SR dao/den520d random/random512-25-1 rooms/64room_001)
rules=(tile octile any-angle)
blocks=(2 3 4 5)
runs=${LDDB_STUDY_RUNS:-3}

[[ -x $lddb ]] || { echo "block_size_study.sh: $lddb is missing; build it first (scripts/test.sh)" >&2; exit 1; }

# ---- databases (generated once, in order of cost, one at a time)
mkdir -p "$study"
for b in "${blocks[@]}"; do
  for rule in "${rules[@]}"; do
    db=$study/$rule-$b.lddb
    if [[ $b == 4 && -f lddb/$rule-4.lddb ]]; then
      ln -sfn "$PWD/lddb/$rule-4.lddb" "$db"
    elif [[ ! -f $db ]]; then  # gen writes atomically: a file that exists is complete
      echo "generating $db" >&2
      nice "$lddb" gen --rule "$rule" --block "$b" --out "$db" --threads "${LDDB_GEN_THREADS:-2}" >&2
    fi
  done
done

# ---- the queries: one folder of links to the four scenario files and their maps, so one
# `lddb bench` run covers them all and reports each map and the whole
scen_dir=$(mktemp -d)
out=$(mktemp -d)
trap 'rm -rf "$scen_dir" "$out"' EXIT
for m in "${maps[@]}"; do
  for f in "$maps_dir/$m.map" "$maps_dir/$m.map.scen"; do
    [[ -f $f ]] || { echo "block_size_study.sh: $f is missing" >&2; exit 1; }
    ln -s "$(realpath "$f")" "$scen_dir/"
  done
done

# bench NAME ARGS...: runs `lddb bench` on every query: summary in $out/NAME.txt, one CSV
# row per query in $out/NAME.csv, exit status in $out/NAME.rc (1 when a path is missing or
# invalid, or an octile length is off).
bench() {
  local name=$1
  shift
  local rc=0
  "$lddb" bench --scen "$scen_dir" $limit --csv "$out/$name.csv" "$@" >"$out/$name.txt" 2>&1 || rc=$?
  echo "$rc" >"$out/$name.rc"
  echo "$name: exit $rc, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
}
# field NAME ROW COLUMN: one column of the summary row ROW ("all" or a map file name), in
# the first pass. mean_us NAME ROW: the least mean µs of ROW over the passes; max_us: the
# greatest (how much the load on the machine moved the figures).
field() { awk -v row="$2" -v col="$3" '$1 == row { v = $col } END { print v }' "$out/$1.1.txt"; }
mean_us() {
  awk -v row="$2" '$1 == row && (best == "" || $7 + 0 < best + 0) { best = $7 } END { print best }' "$out/$1".*.txt
}
max_us() {
  awk -v row="$2" '$1 == row && (worst == "" || $7 + 0 > worst + 0) { worst = $7 } END { print worst }' "$out/$1".*.txt
}
# by_length NAME: mean µs of the queries whose scenario optimum is < 32, 32 to 128, and
# >= 128 (the least over the passes for each class), then the three counts.
by_length() {
  awk -F, 'FNR == 1 { next }
    { c = $12 < 32 ? 0 : ($12 < 128 ? 1 : 2); sum[FILENAME, c] += $15; n[FILENAME, c]++; files[FILENAME] }
    END {
      for (c = 0; c < 3; ++c) {
        best[c] = ""
        for (f in files) {
          m = n[f, c] ? sum[f, c] / n[f, c] / 1000 : 0
          if (best[c] == "" || m < best[c]) { best[c] = m; count[c] = n[f, c] }
        }
      }
      printf "%.2f %.2f %.2f %d %d %d\n", best[0], best[1], best[2], count[0], count[1], count[2]
    }' "$out/$1".*.csv
}
# exits NAME: the exit statuses of the passes (all 0 when every path was found and valid).
exits() { cat "$out/$1".*.rc | sort -u | paste -sd/; }
# same NAME: "yes" when every pass gave the same lengths, expansions and validity.
same() {
  local f
  for f in "$out/$1".*.txt; do awk '$1 ~ /\.map$|^all$/ { print $1, $2, $3, $4, $6, $8, $9 }' "$f" | md5sum; done |
    sort -u | awk 'END { print NR == 1 ? "yes" : "NO" }'
}

echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
"$lddb" info --dir "$study" >"$out/info.txt" 2>&1 || true
for pass in $(seq "$runs"); do
  bench "theta.$pass" --algo theta --rule any-angle
  for rule in "${rules[@]}"; do
    for b in "${blocks[@]}"; do
      bench "$rule-$b.$pass" --algo block-astar --lddb "$study/$rule-$b.lddb"
    done
  done
done
for b in "${blocks[@]}"; do
  bench "smoothed-any-angle-$b" --algo block-astar --lddb "$study/any-angle-$b.lddb" --smooth
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo

# bytes N: "N B" with thousands separators
bytes() { echo "$1 B" | sed ':a; s/\B[0-9]\{3\}\>/,&/; ta'; }
theta_len=$(field theta all 4)
echo "| rule | b | on disk | in memory | open + verify | queries | mean µs (least of $runs) | slowest pass µs | mean expanded blocks | mean length | vs Theta* | smoothed vs Theta* | invalid | exit | passes agree |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for rule in "${rules[@]}"; do
  for b in "${blocks[@]}"; do
    n=$rule-$b
    size=$(bytes "$(stat -L -c %s "$study/$n.lddb")")
    # lddb info: file rule b on-disk(2 words) in-memory(2) canonical cost path open+verify(2) status
    IFS='|' read -r mem verify < <(awk -v f="$n.lddb" '$1 == f { print $6 " " $7 "|" $11 " " $12 }' "$out/info.txt") || true
    gap="" smoothed_gap=""
    if [[ $rule == any-angle ]]; then
      gap=$(awk -v a="$(field "$n" all 4)" -v t="$theta_len" 'BEGIN { printf "%+.2f%%", (a / t - 1) * 100 }')
      smoothed=$(awk '$1 == "all" { print $4 }' "$out/smoothed-$n.txt")
      smoothed_gap=$(awk -v a="$smoothed" -v t="$theta_len" 'BEGIN { printf "%+.2f%%", (a / t - 1) * 100 }')
      [[ $(cat "$out/smoothed-$n.rc") == 0 ]] || smoothed_gap+=" (exit $(cat "$out/smoothed-$n.rc"))"
    fi
    echo "| $rule | $b | $size | $mem | $verify | $(field "$n" all 2) | $(mean_us "$n" all) | $(max_us "$n" all) | $(field "$n" all 6) | $(field "$n" all 4) | $gap | $smoothed_gap | $(field "$n" all 8) | $(exits "$n") | $(same "$n") |"
  done
done
echo "| any-angle | Theta\* | | | | $(field theta all 2) | $(mean_us theta all) | $(max_us theta all) | $(field theta all 6) (vertices) | $theta_len | | | $(field theta all 8) | $(exits theta) | $(same theta) |"

echo
echo "Per map: mean µs (least of $runs passes) and mean expanded blocks."
echo
header="| rule | b |"
rule_line="|---|---|"
for m in "${maps[@]}"; do
  header+=" ${m#*/} µs | blocks |"
  rule_line+="---|---|"
done
echo "$header"
echo "$rule_line"
for rule in "${rules[@]}"; do
  for b in "${blocks[@]}"; do
    row="| $rule | $b |"
    for m in "${maps[@]}"; do
      row+=" $(mean_us "$rule-$b" "${m#*/}.map") | $(field "$rule-$b" "${m#*/}.map" 6) |"
    done
    echo "$row"
  done
done
row="| any-angle | Theta\* |"
for m in "${maps[@]}"; do row+=" $(mean_us theta "${m#*/}.map") | |"; done
echo "$row"

echo
echo "By the length of the query (the scenario's octile optimum): mean µs, least of $runs passes."
echo
read -r _ _ _ c0 c1 c2 < <(by_length theta)
echo "| rule | b | < 32 ($c0 queries) | 32 to 128 ($c1) | >= 128 ($c2) |"
echo "|---|---|---|---|---|"
for rule in "${rules[@]}"; do
  for b in "${blocks[@]}"; do
    read -r s0 s1 s2 _ < <(by_length "$rule-$b")
    echo "| $rule | $b | $s0 | $s1 | $s2 |"
  done
done
read -r s0 s1 s2 _ < <(by_length theta)
echo "| any-angle | Theta\* | $s0 | $s1 | $s2 |"
