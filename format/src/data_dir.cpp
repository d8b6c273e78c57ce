// Where the shipped databases are found. See lddb/data_dir.hpp.
#include "lddb/data_dir.hpp"

#include <cstdlib>
#include <filesystem>
#include <system_error>

#if defined(__unix__) || defined(__APPLE__)
#include <dlfcn.h>
#if defined(__GLIBC__)
#include <link.h>
#endif
#endif

// Compiled in by format/CMakeLists.txt.
#ifndef LDDB_INSTALL_DATA_DIR  // the configured install's share/lddb
#define LDDB_INSTALL_DATA_DIR ""
#endif
#ifndef LDDB_LIBDIR_TO_DATA_DIR  // share/lddb relative to the installed libdir, e.g. ../share/lddb
#define LDDB_LIBDIR_TO_DATA_DIR ""
#endif
#ifndef LDDB_SOURCE_DATA_DIR  // the source tree's lddb/
#define LDDB_SOURCE_DATA_DIR ""
#endif
#ifndef LDDB_BUILD_DIR  // the build tree (PROJECT_BINARY_DIR)
#define LDDB_BUILD_DIR ""
#endif

namespace lddb {

namespace fs = std::filesystem;

namespace {

// Whether `file` lies in the folder `dir`, both resolved (symbolic links, "..").
bool lies_under(const fs::path& file, const fs::path& dir) {
  std::error_code ec1, ec2;
  const fs::path f = fs::weakly_canonical(file, ec1), d = fs::weakly_canonical(dir, ec2);
  if (ec1 || ec2 || d.empty()) return false;
  auto fi = f.begin();
  for (auto di = d.begin(); di != d.end(); ++di, ++fi) {
    if (di->empty()) continue;  // a trailing separator
    if (fi == f.end() || *fi != *di) return false;
  }
  return true;
}

}  // namespace

std::string program_file() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);  // Linux
  return ec ? std::string() : exe.string();
}

std::string library_file() {
#if defined(__unix__) || defined(__APPLE__)
  Dl_info info{};
#if defined(__GLIBC__)
  // The link map tells the program (an empty name) from a shared library, whose name
  // dladdr would otherwise replace with argv[0].
  link_map* map = nullptr;
  if (::dladdr1(reinterpret_cast<void*>(&library_file), &info, reinterpret_cast<void**>(&map), RTLD_DL_LINKMAP) != 0 &&
      map && map->l_name && *map->l_name) {
    std::error_code ec;
    const fs::path p = fs::absolute(map->l_name, ec);
    if (!ec) return p.string();
  }
#else
  if (::dladdr(reinterpret_cast<void*>(&library_file), &info) != 0 && info.dli_fname &&
      fs::path(info.dli_fname).is_absolute())
    return info.dli_fname;
#endif
#endif
  return program_file();  // linked into the program itself
}

std::string beside_program(const std::string& relative) {
  const fs::path rel(relative);
  const std::string exe = program_file();
  if (rel.is_absolute() || exe.empty()) return relative;
  return (fs::path(exe).parent_path() / rel).lexically_normal().string();
}

std::vector<data_dir_choice> installed_data_dirs(const std::string& program, const std::string& library) {
  std::vector<data_dir_choice> dirs;
  auto add = [&dirs](const fs::path& p, const char* source) {
    const std::string path = p.lexically_normal().string();
    for (const data_dir_choice& d : dirs)
      if (d.path == path) return;
    dirs.push_back({path, source});
  };
  if (!program.empty() && fs::path(program).has_parent_path())
    add(fs::path(program).parent_path().parent_path() / "share" / "lddb", "beside the program");
  if (!library.empty() && *LDDB_LIBDIR_TO_DATA_DIR)
    add(fs::path(library).parent_path() / LDDB_LIBDIR_TO_DATA_DIR, "beside the library");
  if (*LDDB_INSTALL_DATA_DIR) add(LDDB_INSTALL_DATA_DIR, "the install's");
  if (*LDDB_SOURCE_DATA_DIR && *LDDB_BUILD_DIR && !library.empty() && lies_under(library, LDDB_BUILD_DIR))
    add(LDDB_SOURCE_DATA_DIR, "the source tree's");
  return dirs;
}

std::vector<data_dir_choice> installed_data_dirs() { return installed_data_dirs(program_file(), library_file()); }

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
