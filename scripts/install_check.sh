#!/usr/bin/env bash
# Installs build/ (scripts/test.sh builds it) and uses the install as a shipped game would:
#  - installs into a temporary prefix, then MOVES that prefix to another folder, and hides
#    the source tree's lddb/ (renamed, put back on exit), so that nothing can fall back on
#    the build's paths;
#  - compiles every installed runtime, core and format header with only -I PREFIX/include;
#  - builds tests/consumer through the CMake package with COMPONENTS runtime io lddb and
#    Boost hidden (-DCMAKE_DISABLE_FIND_PACKAGE_Boost=ON), and checks that asking for
#    generator then fails, naming Boost;
#  - builds the same program and tests/consumer/consumer.c with pkg-config and no rpath of
#    its own (lddb.pc gives it);
#  - runs each with a clean environment (env -i), no folder given: they open tile-4,
#    octile-4 and any-angle-4 through lddb::find_database / lddb_find_database and search
#    each (liblddb.so finds PREFIX/share/lddb beside itself; the static consumer copied into
#    PREFIX/bin finds it beside the program);
#  - checks that the installed `lddb` finds the databases beside it;
#  - builds and runs the three examples/ and the README's snippets (scripts/readme_snippets.sh).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
src=$PWD

if [[ ! -f build/CMakeCache.txt ]]; then
  echo "install_check.sh: no build/ folder; run scripts/test.sh first" >&2
  exit 1
fi
work=$(mktemp -d)
hidden=$src/lddb.hidden-by-install-check
restore() {
  if [[ -d $hidden && ! -e $src/lddb ]]; then mv "$hidden" "$src/lddb"; fi
  rm -rf "$work"
}
trap restore EXIT
if [[ -e $hidden ]]; then
  echo "install_check.sh: $hidden exists (an earlier run was killed?); move it back to lddb/ first" >&2
  exit 1
fi

step() { echo "install_check.sh: $*"; }
clean() { env -i PATH=/usr/bin:/bin "$@"; }  # no LDDB_DATA_DIR, LD_LIBRARY_PATH, ...

step "cmake --install build --prefix $work/staged, then moved to $work/moved/lddb"
cmake --install build --prefix "$work/staged" >"$work/install.log"
mkdir -p "$work/moved"
mv "$work/staged" "$work/moved/lddb"
prefix=$work/moved/lddb
step "installed $(find "$prefix" \( -type f -o -type l \) | wc -l) files and links:"
(cd "$prefix" && find . \( -type f -o -type l \) | sort | sed 's|^\./|  |')
for f in tile-4 octile-4 any-angle-4; do
  [[ -f $prefix/share/lddb/$f.lddb ]] || { echo "install_check.sh: share/lddb/$f.lddb not installed" >&2; exit 1; }
done

step "the source tree's lddb/ hidden while the install is used"
mv "$src/lddb" "$hidden"

step "one file including every installed core, format and runtime header, with only -I $prefix/include"
for h in core format runtime; do
  for f in "$src/$h"/include/lddb/*.hpp; do
    echo "#include \"lddb/$(basename "$f")\""
  done
done >"$work/all_headers.cpp"
echo 'int main() { return 0; }' >>"$work/all_headers.cpp"
c++ -std=c++20 -Wall -Wextra -Werror -fsyntax-only -I "$prefix/include" "$work/all_headers.cpp"
step "  $(grep -c '#include' "$work/all_headers.cpp") headers compile"

step "CMake consumer: find_package(lddb 2.0 CONFIG REQUIRED COMPONENTS runtime io lddb), Boost hidden"
cmake -S tests/consumer -B "$work/consumer-cmake" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_DISABLE_FIND_PACKAGE_Boost=ON --no-warn-unused-cli >"$work/consumer-cmake.log"
cmake --build "$work/consumer-cmake" >>"$work/consumer-cmake.log"
step "  liblddb.so through lddb::lddb, from its build folder: the databases beside the library"
clean "$work/consumer-cmake/consumer-shared"
step "  the static libraries, as a game installed in PREFIX/bin: the databases beside the program"
cp "$work/consumer-cmake/consumer" "$prefix/bin/consumer-static"
clean "$prefix/bin/consumer-static"
rm "$prefix/bin/consumer-static"
step "  the static libraries elsewhere, given the folder"
clean "$work/consumer-cmake/consumer" "$prefix/share/lddb/octile-4.lddb"

step "CMake consumer asking for generator with Boost hidden: refused, naming Boost"
if cmake -S tests/consumer -B "$work/consumer-generator" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_DISABLE_FIND_PACKAGE_Boost=ON -DLDDB_CONSUMER_COMPONENTS=generator >"$work/consumer-generator.log" 2>&1; then
  echo "install_check.sh: find_package(lddb COMPONENTS generator) succeeded without Boost" >&2
  exit 1
fi
why=$(tr -s ' \n' '  ' <"$work/consumer-generator.log")  # CMake wraps the message
grep -qo "lddb component generator: needs Boost.Serialization[^;]*not found" <<<"$why" ||
  { echo "install_check.sh: no clear message:" >&2; cat "$work/consumer-generator.log" >&2; exit 1; }
step "  $(grep -o "lddb component generator: needs Boost.Serialization[^;]*not found" <<<"$why")"

step "pkg-config consumer: c++ \$(pkg-config --cflags --libs lddb), links liblddb.so, no rpath of our own"
pc=$(find "$prefix" -name lddb.pc)
PKG_CONFIG_PATH=$(dirname "$pc")
export PKG_CONFIG_PATH
step "  pkg-config --modversion lddb: $(pkg-config --modversion lddb)"
# shellcheck disable=SC2046  # pkg-config prints several flags, split on purpose
c++ -std=c++20 -O2 tests/consumer/consumer.cpp -o "$work/consumer-pc" $(pkg-config --cflags --libs lddb)
step "  $(readelf -d "$work/consumer-pc" | grep -o 'liblddb[^]]*'), $(readelf -d "$work/consumer-pc" | grep -o 'R.*PATH.*')"
clean "$work/consumer-pc"

step "C consumer: cc -std=c99 \$(pkg-config --cflags --libs lddb), the C API of liblddb.so"
# shellcheck disable=SC2046  # as above
cc -std=c99 -Wall -Wextra -pedantic -Werror tests/consumer/consumer.c -o "$work/consumer-c" \
  $(pkg-config --cflags --libs lddb)
clean "$work/consumer-c"

step "the installed lddb finds the databases beside it (PREFIX/share/lddb), with no LDDB_DATA_DIR"
info=$(clean "$prefix/bin/lddb" info)
grep -qF "databases in $prefix/share/lddb (beside the program)" <<<"$info" ||
  { echo "install_check.sh: lddb info looked elsewhere:" >&2; echo "$info" >&2; exit 1; }
grep -q "3 of 3 databases intact" <<<"$info" || { echo "$info" >&2; exit 1; }
step "  $(head -1 <<<"$info")"

step "examples/game_loop: CMake, find_package(lddb), runs 60 frames on PREFIX/share/lddb"
cmake -S examples/game_loop -B "$work/game_loop" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" >"$work/game_loop.log"
cmake --build "$work/game_loop" >>"$work/game_loop.log"
clean "$work/game_loop/game_loop" "$prefix/share/lddb"

step "examples/c/first_path.c: cc -std=c99 \$(pkg-config --cflags --libs lddb)"
# shellcheck disable=SC2046  # as above
cc -std=c99 -Wall -Wextra -pedantic -Werror examples/c/first_path.c -o "$work/first_path" \
  $(pkg-config --cflags --libs lddb)
clean "$work/first_path" "$prefix/share/lddb/octile-4.lddb"

step "the Python package installed in PREFIX/share/lddb/python/lddb, without bytecode from the source tree"
pkg=$prefix/share/lddb/python/lddb
[[ -f $pkg/__init__.py && -f $pkg/_library.py && ! -e $pkg/__pycache__ ]] ||
  { echo "install_check.sh: $pkg holds:" >&2; ls -a "$pkg" >&2; exit 1; }

step "examples/python/first_path.py: the package lddb from PREFIX/share/lddb/python, finding PREFIX's liblddb by itself"
if command -v python3 >/dev/null; then
  clean PYTHONPATH="$prefix/share/lddb/python" python3 examples/python/first_path.py "$prefix/share/lddb/octile-4.lddb"
  step "  the package's find_database with no folder: the databases beside liblddb.so"
  found=$(clean PYTHONPATH="$prefix/share/lddb/python" \
    python3 -c 'import lddb; print(lddb.load().find_database("any-angle-4.lddb"))')
  [[ $(realpath "$found") == $(realpath "$prefix/share/lddb/any-angle-4.lddb") ]] ||
    { echo "install_check.sh: the Python binding found $found" >&2; exit 1; }
else
  step "  skipped: no python3"
fi

step "the README's snippets against the moved install (scripts/readme_snippets.sh)"
bash scripts/readme_snippets.sh "$prefix"

step "ok"
