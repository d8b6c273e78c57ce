// fingerprint_test: the searches answer the fixed queries of tests/fingerprint.hpp exactly
// as recorded in tests/fingerprint/expected.txt (every path point, cost, status and count,
// hashed per database, map and variant). The file is rewritten only by a change that
// alters paths on purpose (`fingerprint SOURCE_DIR > tests/fingerprint/expected.txt`,
// with ../shared/maps present), and that change says which lines moved and why.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <string>

#include "fingerprint.hpp"
#include "test_scenarios.hpp"

namespace {

std::string key_of(const std::string& line) {  // "DATABASE MAP VARIANT"
  std::size_t pos = 0;
  for (int i = 0; i < 3 && pos != std::string::npos; ++i) pos = line.find(' ', pos + (i ? 1 : 0));
  return line.substr(0, pos);
}

TEST(fingerprint, searches_answer_as_recorded) {
  const lddb_fingerprint::fs::path source = LDDB_SOURCE_DIR;
  std::ifstream in(source / "tests" / "fingerprint" / "expected.txt");
  ASSERT_TRUE(in) << "cannot read tests/fingerprint/expected.txt";
  std::map<std::string, std::string> expected;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) expected[key_of(line)] = line;
  ASSERT_GT(expected.size(), 500u);

  std::vector<std::string> missing;
  std::string error;
  const auto lines = lddb_fingerprint::fingerprint(source, lddb_test::benchmark_maps_dir(), &missing, &error);
  ASSERT_TRUE(error.empty()) << error;
  std::size_t compared = 0;
  for (const std::string& line : lines) {
    const auto it = expected.find(key_of(line));
    ASSERT_NE(it, expected.end()) << "a line the expected file does not have: " << line;
    EXPECT_EQ(line, it->second);
    ++compared;
  }
  // Every expected line must have been produced, unless its map is missing here.
  std::size_t left_out = 0;
  for (const auto& [key, line] : expected) {
    bool produced = false;
    for (const std::string& l : lines) produced = produced || key_of(l) == key;
    if (produced) continue;
    bool map_missing = false;
    for (const std::string& m : missing)
      map_missing = map_missing || m.find(line.substr(line.find(' ') + 1, line.find(' ', line.find(' ') + 1) -
                                                                              line.find(' ') - 1)) != std::string::npos;
    EXPECT_TRUE(map_missing) << "an expected line was not produced: " << line;
    ++left_out;
  }
  EXPECT_GT(compared, 200u);
  if (!missing.empty()) {
    std::string names;
    for (const auto& m : missing) names += " " + m;
    LDDB_MAPS_MISSING(compared << " lines matched; " << left_out << " left out, their maps are missing:" << names);
  }
}

}  // namespace
