#!/usr/bin/env bash
# Installs build/ (scripts/test.sh builds it) into a temporary prefix and uses it as a new
# user would: compiles every installed runtime, core and format header with only
# -I PREFIX/include (in one file), builds tests/consumer against the CMake package
# (find_package(lddb 1.0 CONFIG), lddb::runtime) and the same program with pkg-config
# against liblddb.so, and tests/consumer/consumer.c (C99, the C API) with pkg-config; runs
# each on a shipped database from PREFIX/share/lddb; checks that the installed `lddb`
# finds those databases with no LDDB_DATA_DIR; and builds and runs the three examples/
# (the game loop through CMake, the C one through pkg-config, the Python one with python3
# when present).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
src=$PWD

if [[ ! -f build/CMakeCache.txt ]]; then
  echo "install_check.sh: no build/ folder; run scripts/test.sh first" >&2
  exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
db=$prefix/share/lddb/octile-4.lddb

step() { echo "install_check.sh: $*"; }

step "cmake --install build --prefix $prefix"
cmake --install build --prefix "$prefix" >"$work/install.log"
step "installed $(find "$prefix" \( -type f -o -type l \) | wc -l) files and links:"
(cd "$prefix" && find . \( -type f -o -type l \) | sort | sed 's|^\./|  |')

step "one file including every installed core, format and runtime header, with only -I $prefix/include"
headers=(core format runtime)
for h in "${headers[@]}"; do
  for f in "$src/$h"/include/lddb/*.hpp; do
    echo "#include \"lddb/$(basename "$f")\""
  done
done >"$work/all_headers.cpp"
echo 'int main() { return 0; }' >>"$work/all_headers.cpp"
c++ -std=c++20 -Wall -Wextra -Werror -fsyntax-only -I "$prefix/include" "$work/all_headers.cpp"
step "  $(grep -c '#include' "$work/all_headers.cpp") headers compile"

step "CMake consumer: find_package(lddb 1.0 CONFIG REQUIRED), links lddb::runtime"
cmake -S tests/consumer -B "$work/consumer-cmake" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" >"$work/consumer-cmake.log"
cmake --build "$work/consumer-cmake" >>"$work/consumer-cmake.log"
"$work/consumer-cmake/consumer" "$db"

step "pkg-config consumer: c++ \$(pkg-config --cflags --libs lddb), links liblddb.so"
pc=$(find "$prefix" -name lddb.pc)
PKG_CONFIG_PATH=$(dirname "$pc")
export PKG_CONFIG_PATH
libdir=$(pkg-config --variable=libdir lddb)
step "  pkg-config --modversion lddb: $(pkg-config --modversion lddb)"
# shellcheck disable=SC2046  # pkg-config prints several flags, split on purpose
c++ -std=c++20 -O2 tests/consumer/consumer.cpp -o "$work/consumer-pc" $(pkg-config --cflags --libs lddb) \
  -Wl,-rpath,"$libdir"
step "  $(readelf -d "$work/consumer-pc" | grep -o 'liblddb[^]]*')"
"$work/consumer-pc" "$db"

step "C consumer: cc -std=c99 \$(pkg-config --cflags --libs lddb), the C API of liblddb.so"
# shellcheck disable=SC2046  # as above
cc -std=c99 -Wall -Wextra -pedantic -Werror tests/consumer/consumer.c -o "$work/consumer-c" \
  $(pkg-config --cflags --libs lddb) -Wl,-rpath,"$libdir"
"$work/consumer-c" "$db"

step "the installed lddb finds the databases beside it (PREFIX/share/lddb), with no LDDB_DATA_DIR"
info=$(env -u LDDB_DATA_DIR "$prefix/bin/lddb" info)
grep -qF "databases in $prefix/share/lddb (beside the program)" <<<"$info" ||
  { echo "install_check.sh: lddb info looked elsewhere:" >&2; echo "$info" >&2; exit 1; }
grep -q "3 of 3 databases intact" <<<"$info" || { echo "$info" >&2; exit 1; }
step "  $(head -1 <<<"$info")"

step "examples/game_loop: CMake, find_package(lddb), runs 60 frames on PREFIX/share/lddb"
cmake -S examples/game_loop -B "$work/game_loop" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" >"$work/game_loop.log"
cmake --build "$work/game_loop" >>"$work/game_loop.log"
env -u LDDB_DATA_DIR "$work/game_loop/game_loop" "$prefix/share/lddb"

step "examples/c/first_path.c: cc -std=c99 \$(pkg-config --cflags --libs lddb)"
# shellcheck disable=SC2046  # as above
cc -std=c99 -Wall -Wextra -pedantic -Werror examples/c/first_path.c -o "$work/first_path" \
  $(pkg-config --cflags --libs lddb) -Wl,-rpath,"$libdir"
"$work/first_path" "$db"

step "examples/python/first_path.py: lddb.py from PREFIX/share/lddb/python, finding PREFIX's liblddb by itself"
if command -v python3 >/dev/null; then
  env -u LDDB_LIBRARY PYTHONPATH="$prefix/share/lddb/python" python3 examples/python/first_path.py "$db"
else
  step "  skipped: no python3"
fi

step "ok"
