// layering_test: the folders are libraries and follow the data (docs/architecture.md).
//   core -> format -> generator;  core + format -> runtime -> checker, io -> tools, bench.
// A library includes only its own headers and the public headers (FOLDER/include/lddb/) of
// the libraries below it; a private header (FOLDER/src/...) is included only from its
// own folder. A library without an include/ folder (tools' lddb_cli, used by bench) offers
// the headers at its top to the libraries above it. Product sources stay small enough to read: none over kMaxLines lines.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

// Each library folder and the libraries it may include from.
const std::map<std::string, std::set<std::string>>& allowed() {
  static const std::map<std::string, std::set<std::string>> a{
      {"core", {}},
      {"format", {"core"}},
      {"generator", {"core", "format"}},
      {"runtime", {"core", "format"}},
      {"checker", {"core", "runtime"}},
      {"io", {"core", "runtime"}},
      {"capi", {"core", "format", "runtime", "checker", "io"}},
      {"tools", {"core", "format", "generator", "runtime", "checker", "io"}},
      // bench shares the command-line library of tools (lddb_cli: option parsing, search
      // runs, reports), whose headers sit at the top of tools/.
      {"bench", {"core", "format", "generator", "runtime", "checker", "io", "tools"}},
  };
  return a;
}

constexpr int kMaxLines = 560;  // "about 500"

fs::path source() { return fs::path(LDDB_SOURCE_DIR); }

bool is_source(const fs::path& p) {
  const std::string e = p.extension().string();
  return e == ".cpp" || e == ".hpp" || e == ".h";
}

// Which library's public include/ folder holds lddb/NAME.
std::map<std::string, std::string> public_headers() {
  std::map<std::string, std::string> owner;
  for (const auto& [lib, deps] : allowed()) {
    const fs::path inc = source() / lib / "include" / "lddb";
    if (!fs::exists(inc)) continue;
    for (const auto& f : fs::recursive_directory_iterator(inc))
      if (f.is_regular_file()) owner["lddb/" + fs::relative(f.path(), inc).generic_string()] = lib;
  }
  return owner;
}

// Calls fn(library, its root folder, file) for every source file of every library; returns
// how many.
template <class Fn>
int for_each_source(Fn fn) {
  int files = 0;
  for (const auto& [lib, deps] : allowed()) {
    const fs::path root = source() / lib;
    if (!fs::exists(root)) continue;
    for (const auto& f : fs::recursive_directory_iterator(root)) {
      if (!f.is_regular_file() || !is_source(f.path())) continue;
      ++files;
      fn(lib, root, f.path());
    }
  }
  return files;
}

TEST(layering, every_library_includes_only_itself_and_the_libraries_below_it) {
  const auto owner = public_headers();
  ASSERT_TRUE(owner.count("lddb/rule.hpp")) << "core's headers not found under " << source();
  const std::regex include_re(R"re(^\s*#\s*include\s*"([^"]+)")re");
  const int files = for_each_source([&](const std::string& lib, const fs::path& root, const fs::path& file) {
    const std::set<std::string>& deps = allowed().at(lib);
    std::ifstream in(file);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      std::smatch m;
      if (!std::regex_search(line, m, include_re)) continue;
      const std::string inc = m[1];
      const std::string where = fs::relative(file, source()).generic_string() + ":" + std::to_string(n);
      const auto it = owner.find(inc);
      if (it != owner.end()) {
        EXPECT_TRUE(it->second == lib || deps.count(it->second))
            << where << ": " << lib << " includes " << inc << " of " << it->second << ", a library above it";
        continue;
      }
      // A private header: it must lie in this library's own folder, beside the file or
      // on a path relative to the folder's src/.
      const bool beside = fs::exists(file.parent_path() / inc);
      const bool in_src = fs::exists(root / "src" / inc);
      // A library below without an include/ folder (tools' lddb_cli) offers the headers at
      // its top.
      bool in_dep = false;
      for (const std::string& d : deps)
        in_dep = in_dep || (!fs::exists(source() / d / "include") && fs::exists(source() / d / inc));
      const bool in_self = (beside && fs::weakly_canonical(file.parent_path() / inc).string().rfind(
                                          fs::weakly_canonical(root).string(), 0) == 0) ||
                           in_src || in_dep;
      EXPECT_TRUE(in_self) << where << ": " << lib << " includes \"" << inc
                           << "\", which is neither its own header nor a public header of a library below it";
    }
  });
  EXPECT_GT(files, 30);
}

// Inside runtime/src the rooms follow the data: a map's cells and what is kept of them
// (map/), the searches' finishing of a path (path/), what is prepared per map (prepare/),
// the searches (search/: what they share, then Block A*, the cell searches and jump point
// search, which do not include one another), and at the top the callers of several
// searches. A room includes only its own private headers and those of the rooms it
// builds on: no include runs back up.
const std::map<std::string, std::set<std::string>>& runtime_rooms() {
  static const std::map<std::string, std::set<std::string>> r{
      {"map", {}},
      {"path", {"map"}},
      {"prepare", {"map"}},
      {"search", {"map", "path", "prepare"}},
      {"search/block_astar", {"map", "path", "prepare", "search"}},
      {"search/cells", {"map", "path", "prepare", "search"}},
      {"search/jumps", {"map", "path", "prepare", "search"}},
      {"", {"map", "path", "prepare", "search", "search/block_astar", "search/cells", "search/jumps"}},
  };
  return r;
}

TEST(layering, runtime_rooms_include_only_the_rooms_below_them) {
  const fs::path src = source() / "runtime" / "src";
  const std::regex include_re(R"re(^\s*#\s*include\s*"([^"]+)")re");
  int files = 0, outside = 0;
  for (const auto& f : fs::recursive_directory_iterator(src)) {
    if (!f.is_regular_file() || !is_source(f.path())) continue;
    ++files;
    const std::string room = fs::relative(f.path().parent_path(), src).generic_string();
    const std::string own = room == "." ? "" : room;
    if (own.empty()) ++outside;
    ASSERT_TRUE(runtime_rooms().count(own)) << "runtime/src/" << own << " is no room of runtime_rooms(): add it there";
    const std::set<std::string>& below = runtime_rooms().at(own);
    std::ifstream in(f.path());
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      std::smatch m;
      if (!std::regex_search(line, m, include_re)) continue;
      const std::string inc = m[1];
      if (inc.rfind("lddb/", 0) == 0) continue;  // public headers: the libraries' test above
      const std::string where = fs::relative(f.path(), source()).generic_string() + ":" + std::to_string(n);
      EXPECT_TRUE(fs::exists(src / inc)) << where << ": \"" << inc << "\" is not named by its path from runtime/src";
      const std::string target = fs::path(inc).parent_path().generic_string();
      EXPECT_TRUE(target == own || below.count(target))
          << where << ": " << (own.empty() ? "runtime/src" : own) << " includes " << inc
          << ", of a room that is not below it";
    }
  }
  EXPECT_GT(files, 40);
  EXPECT_LE(outside, 5) << "runtime/src keeps its files in rooms";
}

TEST(layering, no_product_source_is_over_about_500_lines) {
  const int files = for_each_source([](const std::string&, const fs::path&, const fs::path& file) {
    std::ifstream in(file);
    int lines = 0;
    for (std::string line; std::getline(in, line);) ++lines;
    EXPECT_LE(lines, kMaxLines) << fs::relative(file, source()).generic_string() << " has " << lines << " lines";
  });
  EXPECT_GT(files, 30);
}

}  // namespace
