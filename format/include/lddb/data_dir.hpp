// lddb/data_dir.hpp: where the shipped databases (tile-4.lddb, octile-4.lddb,
// any-angle-4.lddb) are found, for the `lddb` program and for games that ship them beside
// their own files.
//
// The order, first match wins:
//   1. a folder the caller names (the program's --dir; a game's own setting);
//   2. $LDDB_DATA_DIR, when set and not empty (taken as given, even if it does not exist,
//      so that a wrong setting is reported rather than passed over);
//   3. share/lddb beside the running program's folder (PREFIX/bin/../share/lddb), so that
//      an installed tree works wherever it was moved;
//   4. the install's share/lddb as configured at build time (CMAKE_INSTALL_PREFIX);
//   5. the source tree's lddb/ (a build that was never installed).
// Folders 3 to 5 count only when they exist.
#pragma once

#include <string>
#include <vector>

namespace lddb {

struct data_dir_choice {
  std::string path;
  std::string source;  // which rule chose it: "given", "from LDDB_DATA_DIR", ...
};

// The folders of rules 3 to 5, in order, whether or not they exist.
std::vector<data_dir_choice> installed_data_dirs();

// The folder chosen by the order above. `given` empty: rule 1 does not apply. When no folder
// exists, the last candidate, with a source that says so, so that a message can name it.
data_dir_choice find_data_dir(const std::string& given = {});

// The path of `file_name` (e.g. "octile-4.lddb") in find_data_dir(given).
std::string find_database(const std::string& file_name, const std::string& given = {});

}  // namespace lddb
