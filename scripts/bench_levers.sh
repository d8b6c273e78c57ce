#!/usr/bin/env bash
# Block A* under several configurations, side by side: each configuration is a build of
# lddb with its options (landmarks, open squares, a weight, ...), and they run in turn on the
# same queries, ROUNDS times, each keeping its least mean time. For the six target maps
# (target_maps.sh), LIMIT queries spread evenly over each scenario file (a file lists its
# queries shortest first). Prints, per map and configuration: mean nodes expanded, mean µs,
# mean length, and the time and nodes as ratios to the first configuration.
#
# With --scale F every map is drawn with each cell as F x F cells, and its queries scaled
# alike (target_maps.sh's scaled, scaled_scen): larger maps of the same families.
#
# --maps all runs every map of ../shared/maps instead (every family, not only the targets);
# --maps "FOLDER/NAME ..." runs those.
#
# Usage: bash scripts/bench_levers.sh [--rule RULE] [--limit N] [--rounds N] [--scale F] [--maps all|LIST] NAME="LDDB ARGS..."...
# Example (the ablation of docs/benchmarks.md):
#   bash scripts/bench_levers.sh --rule octile --limit 1000 \
#     "before=/tmp/old/build/tools/lddb" "blocks=build/tools/lddb --fixed-blocks" \
#     "landmarks=build/tools/lddb --fixed-blocks --landmarks 8" "all=build/tools/lddb --landmarks 8"
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
target_maps=()  # set by target_maps.sh
# shellcheck source=scripts/target_maps.sh disable=SC1091
source scripts/target_maps.sh
rule=octile limit=1000 rounds=2 scale=1
while [[ ${1:-} == --* ]]; do
  case $1 in
    --rule) rule=$2 ;;
    --limit) limit=$2 ;;
    --rounds) rounds=$2 ;;
    --scale) scale=$2 ;;
    --maps)
      if [[ $2 == all ]]; then
        mapfile -t target_maps < <(cd "$maps_dir" && find . -name '*.map' | sed 's|^\./||; s|\.map$||' | sort)
      else
        read -r -a target_maps <<<"$2"
      fi ;;
    *) echo "bench_levers.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift 2
done
if (($# == 0)); then
  echo "usage: bash scripts/bench_levers.sh [--rule RULE] [--limit N] [--rounds N] [--scale F] [--maps all|LIST] NAME=\"LDDB ARGS...\"..." >&2
  exit 2
fi
names=() commands=()
for spec in "$@"; do
  [[ $spec == *=* ]] || { echo "bench_levers.sh: '$spec' is not NAME=\"LDDB ARGS\"" >&2; exit 2; }
  read -r -a words <<<"${spec#*=}"
  [[ -x ${words[0]:-} ]] || { echo "bench_levers.sh: ${words[0]:-?} is not an executable lddb" >&2; exit 2; }
  names+=("${spec%%=*}")
  commands+=("${spec#*=}")
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "rule $rule; maps scaled $scale times; up to $limit queries a map, spread over its scenario file; least mean of $rounds round(s), configurations in turn"
for ((i = 0; i < ${#names[@]}; ++i)); do echo "  ${names[i]}: lddb bench ${commands[i]#* } (${commands[i]%% *})"; done
echo
echo "| map | configuration | mean expanded | mean µs | mean length | time / ${names[0]} | expanded / ${names[0]} |"
echo "|---|---|---|---|---|---|---|"
for m in "${target_maps[@]}"; do
  scen=$maps_dir/$m.map.scen
  [[ -f $scen ]] || { echo "| ${m#*/} | missing | | | | | |"; continue; }
  map=$maps_dir/$m.map
  spread_queries "$scen" "$limit" >"$work/q.scen"
  if ((scale > 1)); then
    scaled "$map" "$work/m.map" "$scale"
    scaled_scen "$work/q.scen" "$work/s.scen" "$scale"
    mv "$work/s.scen" "$work/q.scen"
    map=$work/m.map
  fi
  declare -a best=()
  for ((r = 0; r < rounds; ++r)); do
    for ((i = 0; i < ${#names[@]}; ++i)); do
      read -r -a words <<<"${commands[i]}"
      line=$("${words[0]}" bench --scen "$work/q.scen" --map "$map" --rule "$rule" "${words[@]:1}" 2>/dev/null |
        awk '$1 == "all" { print $6, $7, $4 }') || true
      [[ -n $line ]] || { echo "bench_levers.sh: ${names[i]} printed no result on $m" >&2; exit 1; }
      if [[ -z ${best[i]:-} ]] || awk -v a="$(cut -d' ' -f2 <<<"$line")" -v b="$(cut -d' ' -f2 <<<"${best[i]}")" 'BEGIN { exit !(a < b) }'; then
        best[i]=$line
      fi
    done
  done
  read -r e0 t0 _ <<<"${best[0]}"
  for ((i = 0; i < ${#names[@]}; ++i)); do
    read -r e t l <<<"${best[i]}"
    echo "| ${m#*/} | ${names[i]} | $e | $t | $l | $(awk -v a="$t" -v b="$t0" 'BEGIN { printf "%.3f", a / b }') | $(awk -v a="$e" -v b="$e0" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }') |"
  done
  unset best
done
