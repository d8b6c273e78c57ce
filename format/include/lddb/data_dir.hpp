// lddb/data_dir.hpp: where the shipped databases (tile-4.lddb, octile-4.lddb,
// any-angle-4.lddb) are found, for the `lddb` program and for games, installed or shipping
// their own copies.
//
// The order, first match wins:
//   1. a folder the caller names (the program's --dir; a game's own setting, for example
//      beside_program("data") for copies shipped beside its executable);
//   2. $LDDB_DATA_DIR, when set and not empty (taken as given, even if it does not exist,
//      so that a wrong setting is reported rather than passed over);
//   3. share/lddb beside the running program's folder (PREFIX/bin/../share/lddb), so that
//      an installed tree works wherever it was moved;
//   4. share/lddb beside the library that holds this code (liblddb.so in PREFIX/lib, or
//      PREFIX/lib/<multiarch>: the install's datadir relative to its libdir), so that a
//      game elsewhere linking a moved install's liblddb.so finds that install's databases;
//   5. the install's share/lddb as configured at build time (CMAKE_INSTALL_PREFIX);
//   6. the source tree's lddb/, only for code in lddb's own build tree (its tests and
//      tools): an installed library never reaches into the tree it was built from.
// Folders 3 to 6 count only when they exist.
#pragma once

#include <string>
#include <vector>

namespace lddb {

struct data_dir_choice {
  std::string path;
  std::string source;  // which rule chose it: "given", "from LDDB_DATA_DIR", "beside the program", ...
};

// The folders of rules 3 to 6, in order, whether or not they exist; a folder already listed
// is left out (a program linking lddb statically is its own library).
std::vector<data_dir_choice> installed_data_dirs();

// The same for a program at `program` whose lddb code lies in the file `library` (the
// program itself when linked statically); either may be empty (unknown: its rule is
// skipped). Rule 6 applies when `library` lies in lddb's build tree.
std::vector<data_dir_choice> installed_data_dirs(const std::string& program, const std::string& library);

// The running program's file (/proc/self/exe) and the file holding this code (liblddb.so,
// or the program); "" where the system does not say.
std::string program_file();
std::string library_file();

// `relative` taken from the running program's folder: beside_program("data") is
// /games/foo/data for /games/foo/game. An absolute `relative` is returned as is; so is
// `relative` when the program's file is unknown.
std::string beside_program(const std::string& relative);

// The folder chosen by the order above. `given` empty: rule 1 does not apply. When no folder
// exists, the last candidate, with a source that says so, so that a message can name it.
data_dir_choice find_data_dir(const std::string& given = {});

// The path of `file_name` (e.g. "octile-4.lddb") in find_data_dir(given).
std::string find_database(const std::string& file_name, const std::string& given = {});

}  // namespace lddb
