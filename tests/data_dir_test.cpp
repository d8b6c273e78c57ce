// data_dir_test: the order in which the shipped databases are looked for
// (lddb/data_dir.hpp): a folder given, $LDDB_DATA_DIR, share/lddb beside the running
// program, beside the library holding lddb, the install's, and the source tree's only for
// code in the build tree. (A moved install found from outside any build tree is checked by
// scripts/install_check.sh.)
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "lddb/data_dir.hpp"

namespace {

namespace fs = std::filesystem;

struct env_guard {  // unsets LDDB_DATA_DIR for the test, and puts it back
  std::string old;
  bool had = false;
  env_guard() {
    if (const char* v = std::getenv("LDDB_DATA_DIR")) had = true, old = v;
    ::unsetenv("LDDB_DATA_DIR");
  }
  ~env_guard() {
    if (had) ::setenv("LDDB_DATA_DIR", old.c_str(), 1);
    else ::unsetenv("LDDB_DATA_DIR");
  }
};

std::vector<std::string> paths(const std::vector<lddb::data_dir_choice>& dirs) {
  std::vector<std::string> out;
  for (const auto& d : dirs) out.push_back(d.path);
  return out;
}

std::vector<std::string> sources(const std::vector<lddb::data_dir_choice>& dirs) {
  std::vector<std::string> out;
  for (const auto& d : dirs) out.push_back(d.source);
  return out;
}

const fs::path kInstallData = fs::path(LDDB_INSTALL_PREFIX) / LDDB_INSTALL_DATADIR / "lddb";

TEST(DataDir, GivenThenEnvironment) {
  env_guard guard;
  EXPECT_EQ(lddb::find_data_dir("/some/where").path, "/some/where");
  EXPECT_EQ(lddb::find_data_dir("/some/where").source, "given");
  ::setenv("LDDB_DATA_DIR", "/from/env", 1);
  EXPECT_EQ(lddb::find_data_dir().path, "/from/env");  // taken as given, even if missing
  EXPECT_EQ(lddb::find_data_dir().source, "from LDDB_DATA_DIR");
  EXPECT_EQ(lddb::find_data_dir("/some/where").path, "/some/where");
  EXPECT_EQ(lddb::find_database("octile-4.lddb"), (fs::path("/from/env") / "octile-4.lddb").string());
  ::setenv("LDDB_DATA_DIR", "", 1);  // empty counts as unset
  EXPECT_NE(lddb::find_data_dir().source, "from LDDB_DATA_DIR");
}

TEST(DataDir, InstalledGameFindsItsProgramsThenItsLibrarysFolder) {
  // A game in /games/g/bin linking an install moved to /moved/lddb: its own share/lddb,
  // then the install's beside liblddb.so (libdir -> datadir, multiarch or not), then the
  // configured install's; never the source tree, since the library is not in the build tree.
  const fs::path lib = fs::path("/moved/lddb") / LDDB_INSTALL_LIBDIR / "liblddb.so.1";
  const auto dirs = lddb::installed_data_dirs("/games/g/bin/game", lib.string());
  const std::vector<std::string> want{"/games/g/share/lddb",
                                      (fs::path("/moved/lddb") / LDDB_INSTALL_DATADIR / "lddb").string(),
                                      kInstallData.lexically_normal().string()};
  EXPECT_EQ(paths(dirs), want);
  EXPECT_EQ(sources(dirs), (std::vector<std::string>{"beside the program", "beside the library", "the install's"}));
}

TEST(DataDir, StaticallyLinkedProgramIsItsOwnLibrary) {
  // lddb linked into /opt/p/bin/game: the library's share/lddb is the program's (with the
  // usual lib and share), listed once.
  const auto dirs = lddb::installed_data_dirs("/opt/p/bin/game", "/opt/p/bin/game");
  ASSERT_GE(dirs.size(), 2u);
  EXPECT_EQ(dirs[0].path, "/opt/p/share/lddb");
  for (std::size_t i = 1; i < dirs.size(); ++i) EXPECT_NE(dirs[i].path, dirs[0].path) << i;
  EXPECT_EQ(dirs.back().source, "the install's");
}

TEST(DataDir, SourceTreeOnlyForCodeInTheBuildTree) {
  const fs::path source_data = fs::path(LDDB_SOURCE_DIR) / "lddb";
  const auto in_tree = lddb::installed_data_dirs("/elsewhere/bin/x", (fs::path(LDDB_BINARY_DIR) / "liblddb.so.1").string());
  ASSERT_FALSE(in_tree.empty());
  EXPECT_EQ(in_tree.back().source, "the source tree's");
  EXPECT_EQ(fs::weakly_canonical(in_tree.back().path), fs::weakly_canonical(source_data));

  // Outside the build tree, a sibling folder whose name starts with the build folder's, or
  // with no library known: no source tree.
  for (const std::string& lib : {std::string("/usr/lib/liblddb.so.1"), std::string(LDDB_BINARY_DIR) + "-other/liblddb.so",
                                std::string()}) {
    for (const auto& d : lddb::installed_data_dirs("/elsewhere/bin/x", lib))
      EXPECT_NE(d.source, "the source tree's") << lib;
  }
}

TEST(DataDir, ThisTestProgram) {
  env_guard guard;
  // Linked statically: the code is in the program, which lies in the build tree.
  ASSERT_FALSE(lddb::program_file().empty());
  EXPECT_EQ(fs::weakly_canonical(lddb::library_file()), fs::weakly_canonical(lddb::program_file()));
  EXPECT_EQ(fs::weakly_canonical(lddb::program_file()), fs::weakly_canonical("/proc/self/exe"));
  const auto dirs = lddb::installed_data_dirs();
  ASSERT_GE(dirs.size(), 2u);
  EXPECT_EQ(dirs[0].source, "beside the program");
  EXPECT_EQ(fs::weakly_canonical(dirs[0].path), fs::weakly_canonical(fs::path(LDDB_BINARY_DIR) / "share" / "lddb"));
  EXPECT_EQ(dirs.back().source, "the source tree's");
  // With no share/lddb beside the program and none installed, the source tree's. (Creating
  // such a folder here would redirect the other tests' `lddb` runs.)
  bool other_exists = false;
  for (std::size_t i = 0; i + 1 < dirs.size(); ++i) other_exists |= fs::exists(dirs[i].path);
  if (!other_exists) {
    EXPECT_EQ(lddb::find_data_dir().source, "the source tree's");
  }
}

TEST(DataDir, BesideProgram) {
  const fs::path exe = lddb::program_file();
  ASSERT_FALSE(exe.empty());
  EXPECT_EQ(lddb::beside_program("data/lddb"), (exe.parent_path() / "data" / "lddb").string());
  EXPECT_EQ(lddb::beside_program("../share/x"), (exe.parent_path().parent_path() / "share" / "x").string());
  EXPECT_EQ(lddb::beside_program("/abs/dir"), "/abs/dir");
  // A game naming its own folder: find_database takes it as given.
  EXPECT_EQ(lddb::find_database("tile-4.lddb", lddb::beside_program("data")),
            (exe.parent_path() / "data" / "tile-4.lddb").string());
}

}  // namespace
