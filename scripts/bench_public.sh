#!/usr/bin/env bash
# Block A* against public searches, side by side on this machine: for each of the
# six target maps (target_maps.sh), every query of its scenario file, the programs run in turn (ours, then each
# public one), ROUNDS times, and each keeps its least mean time. Any-angle unless --rule
# says otherwise (tile or octile, against public A* or JPS drivers); any-angle runs under
# the public searches' rule, any-angle:squeeze=allowed.
#
# The public programs are not part of this repository (their code is not ours to ship).
# Each is a driver the user builds around a public implementation, given as NAME=PATH, and
# must take `MAP SCEN` and print, one per line, `queries N`, `mean_length L` and
# `mean_us T` (mean microseconds per query around the search call only). docs/benchmarks.md
# says how the ones we measured were built (ANYA and per-map Block A* of Uras & Koenig;
# warthog's A* and JPS2).
#
# --ours "ARGS" passes more options to our `lddb bench` (e.g. "--landmarks 8"); --baseline
# LDDB adds a column for another build of lddb (its Block A* with the same database and no
# extra options), so that a change is measured against the build before it in the same run.
#
# --scale F draws every map with each cell as F x F cells and scales its queries alike
# (target_maps.sh's scaled, scaled_scen): the same families at F times the side. --limit N
# runs N queries spread over each scenario file instead of all of them. --every-map runs
# every map of the maps folder (each family's, with its scenario) instead of the six.
#
# Usage: bash scripts/bench_public.sh [ROUNDS] [--rule tile|octile|any-angle] [--ours "ARGS"]
#          [--baseline LDDB] [--scale F] [--limit N] [--every-map] NAME=PATH...
# Example: bash scripts/bench_public.sh 2 ANYA=/tmp/anya/run_anya "per-map Block A*=/tmp/anya/run_bastar"
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
rounds=2
if [[ ${1:-} =~ ^[0-9]+$ ]]; then
  rounds=$1
  shift
fi
rule=any-angle ours_extra="" baseline="" scale=1 limit="" every_map=0
while [[ ${1:-} == --* ]]; do
  if [[ $1 == --every-map ]]; then
    every_map=1
    shift
    continue
  fi
  case $1 in
    --rule) rule=${2:-} ;;
    --ours) ours_extra=${2:-} ;;
    --baseline) baseline=${2:-} ;;
    --scale) scale=${2:-} ;;
    --limit) limit=${2:-} ;;
    *) echo "bench_public.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift 2 || { echo "bench_public.sh: $1 needs a value" >&2; exit 2; }
done
if (($# == 0)) || ((rounds < 1)) || [[ ! $rule =~ ^(tile|octile|any-angle)$ ]] || [[ ! $scale =~ ^[1-9][0-9]*$ ]] ||
  [[ -n $limit && ! $limit =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: bash scripts/bench_public.sh [ROUNDS] [--rule tile|octile|any-angle] [--ours \"ARGS\"] [--baseline LDDB] [--scale F] [--limit N] [--every-map] NAME=PATH..." >&2
  exit 2
fi
[[ -z $baseline || -x $baseline ]] || { echo "bench_public.sh: --baseline $baseline is not an executable lddb" >&2; exit 2; }
names=() paths=()
for spec in "$@"; do
  if [[ $spec != *=* || -z ${spec%%=*} || ! -x ${spec#*=} ]]; then
    echo "bench_public.sh: '$spec' is not NAME=PATH of an executable driver" >&2
    exit 2
  fi
  names+=("${spec%%=*}")
  paths+=("${spec#*=}")
done
source scripts/target_maps.sh
if ((every_map)); then
  target_maps=()
  for f in "$maps_dir"/*/*.map; do
    rel=${f#"$maps_dir"/}
    target_maps+=("${rel%.map}")
  done
  ((${#target_maps[@]})) || { echo "bench_public.sh: no maps in $maps_dir" >&2; exit 2; }
fi
lddb=build/tools/lddb
[[ -x $lddb ]] || { echo "bench_public.sh: $lddb is missing: build first (bash scripts/test.sh)" >&2; exit 2; }

# Any-angle: ANYA and per-map Block A* let a path pass between the sides of a double corner,
# so ours runs under their rule, any-angle:squeeze=allowed, with a database built for it
# (scripts/bench_rules.sh measures what the default rule costs).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ours_db=()
if [[ $rule == any-angle ]]; then
  "$lddb" gen --rule any-angle:squeeze=allowed --block 4 --out "$tmp/allowed.lddb" >/dev/null
  ours_db=(--lddb "$tmp/allowed.lddb")
fi
# ours MAP SCEN [LDDB [ARGS...]] -> "queries mean_length mean_us"
ours() {
  local rule_args=(--rule "$rule") program=${3:-$lddb}
  ((${#ours_db[@]})) && rule_args=("${ours_db[@]}")
  # A scaled map's optima can be shorter than the file's scaled ones: bench then exits 1 for
  # the mismatches, and its table still holds the figures.
  { "$program" bench --scen "$2" --map "$1" "${rule_args[@]}" "${@:4}" 2>/dev/null || true; } |
    awk '$1 == "all" { print $2, $4, $7 }'
}
read -r -a ours_args <<<"$ours_extra"
# The baseline build runs as one more driver.
if [[ -n $baseline ]]; then
  names=("baseline" "${names[@]}")
  paths=("baseline" "${paths[@]}")
fi
# theirs DRIVER MAP SCEN -> "queries mean_length mean_us"
theirs() {
  "$1" "$2" "$3" | awk '$1 == "queries" { q = $2 } $1 == "mean_length" { l = $2 } $1 == "mean_us" { t = $2 }
    END { if (q == "" || l == "" || t == "") exit 1; print q, l, t }'
}
# least LINE BEST -> the one of the two with the lesser mean time (field 3)
least() { if [[ -z $2 ]] || awk -v a="$(cut -d' ' -f3 <<<"$1")" -v b="$(cut -d' ' -f3 <<<"$2")" 'BEGIN { exit !(a < b) }'; then echo "$1"; else echo "$2"; fi; }

echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; $(date -u '+%Y-%m-%d %H:%M UTC'); $rule${ours_extra:+; ours with $ours_extra}; ${#target_maps[@]} maps scaled $scale times; ${limit:-all} queries a map; least of $rounds run(s) each, in turn"
echo
header="| map | queries | Block A* µs | Block A* length"
sep="|---|---|---|---"
for n in "${names[@]}"; do
  header+=" | $n µs | $n length | ours faster than $n by"
  sep+="|---|---|---"
done
echo "$header |"
echo "$sep|"
for m in "${target_maps[@]}"; do
  map="$maps_dir/$m.map" scen="$maps_dir/$m.map.scen"
  [[ -f $scen ]] || { echo "| ${m#*/} | missing |"; continue; }
  if [[ -n $limit ]]; then
    spread_queries "$scen" "$limit" >"$tmp/q.scen"
    scen=$tmp/q.scen
  fi
  if ((scale > 1)); then
    scaled "$map" "$tmp/m.map" "$scale"
    scaled_scen "$scen" "$tmp/s.scen" "$scale"
    map=$tmp/m.map scen=$tmp/s.scen
  fi
  best_ours=""
  declare -a best_theirs=()
  for ((i = 0; i < ${#names[@]}; ++i)); do best_theirs[i]=""; done
  for ((r = 0; r < rounds; ++r)); do
    line=$(ours "$map" "$scen" "$lddb" "${ours_args[@]}") || line=""
    [[ -n $line ]] || { echo "bench_public.sh: lddb bench printed no result on $m" >&2; exit 1; }
    best_ours=$(least "$line" "$best_ours")
    for ((i = 0; i < ${#names[@]}; ++i)); do
      if [[ ${paths[i]} == baseline ]]; then
        line=$(ours "$map" "$scen" "$baseline") || line=""
        [[ -n $line ]] || { echo "bench_public.sh: the baseline printed no result on $m" >&2; exit 1; }
      else
        line=$(theirs "${paths[i]}" "$map" "$scen") || { echo "bench_public.sh: ${names[i]} printed no result on $m" >&2; exit 1; }
      fi
      best_theirs[i]=$(least "$line" "${best_theirs[i]}")
    done
  done
  read -r q lo to <<<"$best_ours"
  row="| ${m#*/} | $q | $to | $lo"
  for ((i = 0; i < ${#names[@]}; ++i)); do
    read -r qt lt tt <<<"${best_theirs[i]}"
    [[ $qt == "$q" ]] || echo "bench_public.sh: ${names[i]} ran $qt queries on $m, we ran $q" >&2
    row+=" | $tt | $lt | $(awk -v a="$tt" -v b="$to" 'BEGIN { printf "%.2f×", a / b }')"
  done
  echo "$row |"
done
