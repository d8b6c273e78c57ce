// Where the shipped databases are found. See lddb/data_dir.hpp.
#include "lddb/data_dir.hpp"

#include <cstdlib>
#include <filesystem>
#include <system_error>

#ifndef LDDB_INSTALL_DATA_DIR
#define LDDB_INSTALL_DATA_DIR ""
#endif
#ifndef LDDB_SOURCE_DATA_DIR
#define LDDB_SOURCE_DATA_DIR ""
#endif

namespace lddb {

namespace fs = std::filesystem;

std::vector<data_dir_choice> installed_data_dirs() {
  std::vector<data_dir_choice> dirs;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);  // Linux; elsewhere rule 3 is skipped
  if (!ec && exe.has_parent_path())
    dirs.push_back({(exe.parent_path().parent_path() / "share" / "lddb").string(), "beside the program"});
  if (*LDDB_INSTALL_DATA_DIR) dirs.push_back({LDDB_INSTALL_DATA_DIR, "the install's"});
  if (*LDDB_SOURCE_DATA_DIR) dirs.push_back({LDDB_SOURCE_DATA_DIR, "the source tree's"});
  return dirs;
}

data_dir_choice find_data_dir(const std::string& given) {
  if (!given.empty()) return {given, "given"};
  if (const char* env = std::getenv("LDDB_DATA_DIR"); env && *env) return {env, "from LDDB_DATA_DIR"};
  const std::vector<data_dir_choice> dirs = installed_data_dirs();
  for (const data_dir_choice& d : dirs) {
    std::error_code ec;
    if (fs::is_directory(d.path, ec)) return d;
  }
  if (dirs.empty()) return {"lddb", "no database folder found; --dir or LDDB_DATA_DIR choose one"};
  return {dirs.back().path, "no database folder found; --dir or LDDB_DATA_DIR choose one"};
}

std::string find_database(const std::string& file_name, const std::string& given) {
  return (fs::path(find_data_dir(given).path) / file_name).string();
}

}  // namespace lddb
