// data_dir_test: the order in which the shipped databases are looked for
// (lddb/data_dir.hpp): a folder given, $LDDB_DATA_DIR, share/lddb beside the running
// program, the install's, the source tree's.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

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

TEST(DataDir, GivenThenEnvironmentThenInstalledFolders) {
  env_guard guard;
  EXPECT_EQ(lddb::find_data_dir("/some/where").path, "/some/where");
  EXPECT_EQ(lddb::find_data_dir("/some/where").source, "given");
  ::setenv("LDDB_DATA_DIR", "/from/env", 1);
  EXPECT_EQ(lddb::find_data_dir().path, "/from/env");  // taken as given, even if missing
  EXPECT_EQ(lddb::find_data_dir("/some/where").path, "/some/where");
  EXPECT_EQ(lddb::find_database("octile-4.lddb"), (fs::path("/from/env") / "octile-4.lddb").string());
  ::setenv("LDDB_DATA_DIR", "", 1);  // empty counts as unset
  EXPECT_NE(lddb::find_data_dir().path, "");
  ::unsetenv("LDDB_DATA_DIR");

  // The installed folders, in order: beside the program (this test's build/tests/.. is
  // build/), the install's, the source tree's.
  const auto dirs = lddb::installed_data_dirs();
  ASSERT_EQ(dirs.size(), 3u);
  EXPECT_EQ(dirs[0].source, "beside the program");
  EXPECT_EQ(fs::weakly_canonical(dirs[0].path), fs::weakly_canonical(fs::path(LDDB_BINARY_DIR) / "share" / "lddb"));
  EXPECT_EQ(fs::weakly_canonical(dirs[2].path), fs::weakly_canonical(fs::path(LDDB_SOURCE_DIR) / "lddb"));

  // With no share/lddb beside the program and none installed, the source tree's. (The
  // installed program choosing its own ../share/lddb is checked by scripts/install_check.sh:
  // creating that folder here would redirect the other tests' `lddb` runs.)
  if (!fs::exists(dirs[0].path) && !fs::exists(dirs[1].path)) {
    EXPECT_EQ(lddb::find_data_dir().source, "the source tree's");
  }
}

}  // namespace
