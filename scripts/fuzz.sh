#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz with clang++ (ASan + UBSan) into build-fuzz/
# and runs each for a while, starting from the seed corpus in tests/fuzz/corpus/.
#
# Usage: bash scripts/fuzz.sh [SECONDS-PER-TARGET] [TARGET...]
#   SECONDS-PER-TARGET  default 30
#   TARGET              fuzz_db fuzz_map fuzz_scen fuzz_query (default: all four)
#
# New interesting inputs go to build-fuzz/corpus-work/TARGET (the seed corpus in the source
# tree is only read); a crashing input is saved as build-fuzz/artifacts/TARGET/crash-*.
# Prints the executions per target and exits non-zero when any target crashed, leaked,
# timed out or broke a property. Needs clang-14 and libclang-rt-14-dev (libFuzzer).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

seconds=${1:-30}
shift || true
if ! [[ $seconds =~ ^[0-9]+$ ]] || ((seconds < 1)); then
  echo "usage: bash scripts/fuzz.sh [SECONDS-PER-TARGET] [TARGET...]" >&2
  exit 2
fi
targets=("$@")
if ((${#targets[@]} == 0)); then targets=(fuzz_db fuzz_map fuzz_scen fuzz_query); fi

cxx=${LDDB_FUZZ_CXX:-}
if [[ -z $cxx ]]; then
  for c in clang++-14 clang++; do
    if command -v "$c" >/dev/null 2>&1; then
      cxx=$c
      break
    fi
  done
fi
if [[ -z $cxx ]]; then
  echo "fuzz.sh: clang++ not found (apt-get install clang-14 libclang-rt-14-dev)" >&2
  exit 1
fi

build=build-fuzz
t0=$(date +%s)
cmake -S . -B "$build" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g" \
  -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" -DLDDB_FUZZ=ON >/dev/null
nice -n 10 cmake --build "$build" -j "$(nproc)" --target "${targets[@]}"
t1=$(date +%s)
echo "fuzz.sh: build took $((t1 - t0)) s"

export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

failed=()
summary=()
for t in "${targets[@]}"; do
  case $t in
    fuzz_db) opts=(-max_len=262144 -timeout=30) ;;
    fuzz_map) opts=(-max_len=8192 -timeout=30 -dict=tests/fuzz/map.dict) ;;
    fuzz_scen) opts=(-max_len=4096 -timeout=30 -dict=tests/fuzz/scen.dict) ;;
    fuzz_query) opts=(-max_len=512 -timeout=30) ;;
    *)
      echo "fuzz.sh: unknown target $t" >&2
      exit 2
      ;;
  esac
  work=$build/corpus-work/$t
  artifacts=$build/artifacts/$t/
  mkdir -p "$work" "$artifacts"
  log=$build/fuzz-$t.log
  echo "fuzz.sh: $t for ${seconds} s (log: $log)"
  set +e
  nice -n 10 "$build/tests/fuzz/$t" "${opts[@]}" -max_total_time="$seconds" -rss_limit_mb=2560 \
    -print_final_stats=1 -artifact_prefix="$artifacts" "$work" "tests/fuzz/corpus/$t" >"$log" 2>&1
  rc=$?
  set -e
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  cov=$(grep -Eo 'cov: [0-9]+' "$log" | tail -1 || true)
  line="$t: ${execs:-?} executions in ${seconds} s, ${cov:-cov: ?}, corpus $(find "$work" -type f | wc -l) files, exit $rc"
  summary+=("$line")
  if ((rc != 0)); then
    failed+=("$t")
    echo "fuzz.sh: $t FAILED (exit $rc); the end of its log:" >&2
    tail -40 "$log" >&2
  fi
done

echo "fuzz.sh: summary"
for line in "${summary[@]}"; do echo "  $line"; done
if ((${#failed[@]})); then
  echo "fuzz.sh: FAILED: ${failed[*]} (inputs in $build/artifacts/)" >&2
  exit 1
fi
echo "fuzz.sh: all targets ran without a finding"
