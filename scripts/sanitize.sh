#!/usr/bin/env bash
# Builds lddb and its test suite under sanitizers and runs them (docs/reliability.md).
#
#   1. AddressSanitizer + UndefinedBehaviorSanitizer (g++, -O1 -g, every UB report fatal)
#      into build-asan/: the whole project, every test suite, and the fuzz targets' corpus
#      replayed by a plain driver (LDDB_FUZZ=ON without libFuzzer); then the full ctest run.
#   2. ThreadSanitizer (g++, -O1 -g) into build-tsan/: the concurrency and batch tests, the
#      component labels shared by threads, a landmark set rebuilt on a worker thread, the
#      preparation's worker thread, and the
#      C API's tests.
#
# Usage: bash scripts/sanitize.sh [asan|tsan|all]   (default all)
# Extra ctest arguments for the ASan run can be given in LDDB_SANITIZE_CTEST_ARGS, e.g.
# LDDB_SANITIZE_CTEST_ARGS="-R format" bash scripts/sanitize.sh asan
# Build folders are reused (reconfigured) when they exist. Builds run under `nice`, as the machine is shared.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

what=${1:-all}
case "$what" in asan | tsan | all) ;; *)
  echo "usage: bash scripts/sanitize.sh [asan|tsan|all]" >&2
  exit 2
  ;;
esac
jobs=$(nproc)
cxx=${LDDB_SANITIZE_CXX:-g++}

# Every ASan/UBSan/TSan finding stops the process with a non-zero status.
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}

configure() {  # folder, sanitizer list, extra cmake args...
  local dir=$1 san=$2
  shift 2
  cmake -S . -B "$dir" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" \
    -DCMAKE_CXX_FLAGS="-fsanitize=$san -fno-sanitize-recover=all -fno-omit-frame-pointer" \
    -DCMAKE_C_FLAGS="-fsanitize=$san -fno-sanitize-recover=all -fno-omit-frame-pointer" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=$san" "$@" >/dev/null
}

seconds() { date +%s; }

if [[ $what == asan || $what == all ]]; then
  t0=$(seconds)
  configure build-asan address,undefined -DLDDB_FUZZ=ON
  nice -n 10 cmake --build build-asan -j "$jobs"
  t1=$(seconds)
  echo "sanitize.sh: ASan+UBSan build took $((t1 - t0)) s"
  # shellcheck disable=SC2086
  nice -n 10 ctest --test-dir build-asan --output-on-failure -j "$jobs" ${LDDB_SANITIZE_CTEST_ARGS:-}
  t2=$(seconds)
  echo "sanitize.sh: ASan+UBSan test suite took $((t2 - t1)) s"
fi

if [[ $what == tsan || $what == all ]]; then
  t0=$(seconds)
  configure build-tsan thread
  nice -n 10 cmake --build build-tsan -j "$jobs" --target concurrency_test batch_test components_test landmarks_test prepare_test c_api_test c_api_misuse_test
  t1=$(seconds)
  echo "sanitize.sh: TSan build took $((t1 - t0)) s"
  # Under TSan the test sizes its map down by itself; the thread and query counts stay.
  nice -n 10 build-tsan/tests/concurrency_test
  nice -n 10 build-tsan/tests/batch_test
  # Threads asking one const map whose component labels are built, or rebuilt, under its lock.
  nice -n 10 build-tsan/tests/components_test --gtest_filter=Components.ThreadsShareOneConstMap
  # A landmark set rebuilt on a worker thread while the game's thread searches with the old one.
  nice -n 10 build-tsan/tests/landmarks_test --gtest_filter=Builder.WorkerThread
  # lddb::prepare's worker thread publishing its set while the game searches and changes the map.
  nice -n 10 build-tsan/tests/prepare_test --gtest_filter='Prepare.WorkerThread:Prepare.SlicedQueryOutlivesPrepareStep:Plan.LandmarksStayWhereTheyPay'
  # The C API: batches on worker threads, handles freed while other threads use them.
  (cd build-tsan/tests && nice -n 10 ./c_api_test && nice -n 10 ./c_api_misuse_test)
  t2=$(seconds)
  echo "sanitize.sh: TSan concurrency and batch tests took $((t2 - t1)) s"
fi
echo "sanitize.sh: all sanitizer runs passed"
