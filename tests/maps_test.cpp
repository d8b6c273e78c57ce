// maps_test: Moving AI .map and .scen files (lddb_io: io/src/map_file.cpp, scenario.cpp).
//
//   MapText       what a map's characters mean and the line-end variants real files have
//   MapErrors     every way a map can be malformed, with the message checked
//   MapFiles      reading from disk: missing, a folder, over-long lines
//   Scenario*     scenario parsing, its errors, and resolving a query's map file
//   SharedMaps    every map and scenario in ../shared/maps (beside the source tree) loads
//                 and agrees
#include <gtest/gtest.h>
#include <malloc.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "lddb/grid.hpp"
#include "lddb/map_file.hpp"
#include "lddb/scenario.hpp"
#include "test_scenarios.hpp"

namespace {

namespace fs = std::filesystem;
using lddb::grid_map;
using lddb::point;

// A scratch folder per test under the build tree.
fs::path scratch() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = std::string(info->test_suite_name()) + "." + info->name();
  for (char& c : name)
    if (c == '/') c = '_';
  const fs::path dir = fs::path(LDDB_BINARY_DIR) / "maps_test_scratch" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void write_file(const fs::path& p, const std::string& bytes) {
  fs::create_directories(p.parent_path());
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << bytes;
}

// The rows of a map as '.' and '@'.
std::vector<std::string> picture(const grid_map& g) {
  std::vector<std::string> rows;
  for (int y = 0; y < g.height(); ++y) {
    std::string row;
    for (int x = 0; x < g.width(); ++x) row += g.blocked(x, y) ? '@' : '.';
    rows.push_back(row);
  }
  return rows;
}

// parse_map must fail with exactly this message.
void expect_map_error(const std::string& text, const std::string& message) {
  std::string error = "stale";
  const auto g = lddb::parse_map(text, "t.map", &error);
  EXPECT_FALSE(g.has_value()) << "parsed:\n" << text;
  EXPECT_EQ(error, message) << "for:\n" << text;
}

void expect_scen_error(const std::string& text, const std::string& message, std::size_t max_queries = 1000) {
  std::string error;
  const auto s = lddb::parse_scenario(text, "t.scen", &error, max_queries);
  EXPECT_FALSE(s.has_value()) << "parsed:\n" << text;
  EXPECT_EQ(error, message) << "for:\n" << text;
}

const std::string kHeader = "type octile\nheight 3\nwidth 4\nmap\n";

// ----------------------------------------------------------------------------- map text

TEST(MapText, CharactersAndCoordinates) {
  std::string error;
  const auto g = lddb::parse_map(kHeader + ".G@T\nS.OW\n....\n", "t.map", &error);
  ASSERT_TRUE(g) << error;
  EXPECT_TRUE(error.empty());
  EXPECT_EQ(g->width(), 4);
  EXPECT_EQ(g->height(), 3);
  EXPECT_EQ(g->block(), 4);
  EXPECT_EQ(picture(*g), (std::vector<std::string>{"..@@", "..@@", "...."}));
  // x is the column, y the row; outside is blocked
  EXPECT_TRUE(g->blocked(2, 0));
  EXPECT_FALSE(g->blocked(0, 2));
  EXPECT_TRUE(g->blocked(-1, 0));
  EXPECT_TRUE(g->blocked(4, 0));
  EXPECT_TRUE(g->blocked(0, 3));
  EXPECT_EQ(g->blocked_count(), 4u);
  // every character that is not '.', 'G' or 'S' is blocked, even unusual ones
  const auto odd = lddb::parse_map("type octile\nheight 1\nwidth 5\nmap\n.#x S\n", "t.map", &error);
  ASSERT_TRUE(odd) << error;
  EXPECT_EQ(picture(*odd)[0], ".@@@.");
  // The terrain of the Warcraft III maps, for a ground unit: swamp is passable, water is not
  // (nor trees, nor out of bounds).
  const auto terrain = lddb::parse_map("type octile\nheight 2\nwidth 5\nmap\n.SWT@\nWWSS.\n", "wc3.map", &error);
  ASSERT_TRUE(terrain) << error;
  EXPECT_EQ(picture(*terrain), (std::vector<std::string>{"..@@@", "@@..."}));
}

TEST(MapText, BlockSizeIsPassedOn) {
  std::string error;
  const auto g = lddb::parse_map(kHeader + "@...\n....\n....\n", "t.map", &error, 3);
  ASSERT_TRUE(g) << error;
  EXPECT_EQ(g->block(), 3);
  EXPECT_EQ(g->blocks_x(), 2);
  EXPECT_EQ(g->block_code(0, 0), 1u);
  std::string e2;
  EXPECT_FALSE(lddb::parse_map(kHeader + "....\n....\n....\n", "t.map", &e2, 7));
  EXPECT_EQ(e2, "t.map: block size must be 2..5, not 7");
}

TEST(MapText, LineEndVariantsGiveTheSameMap) {
  std::string error;
  const auto plain = lddb::parse_map(kHeader + ".@..\n..@.\n@...\n", "t.map", &error);
  ASSERT_TRUE(plain) << error;
  const std::vector<std::string> variants{
      "type octile\r\nheight 3\r\nwidth 4\r\nmap\r\n.@..\r\n..@.\r\n@...\r\n",   // CRLF
      "type octile  \nheight 3 \nwidth 4\t\nmap \n.@..  \n..@. \n@...\t \n",     // trailing blanks
      kHeader + ".@..\n..@.\n@...",                                              // no final newline
      kHeader + ".@..\r\n..@.\n@...\r",                                          // mixed, no final newline
      kHeader + ".@..\n..@.\n@...\n\n\n  \n",                                    // blank lines after the grid
      "\xEF\xBB\xBF" + kHeader + ".@..\n..@.\n@...\n",                           // UTF-8 byte-order mark
      "height 3\nwidth 4\ntype octile\nmap\n.@..\n..@.\n@...\n",                 // header in another order
      "\ntype octile\n\nheight   3\nwidth\t4\nmap\n.@..\n..@.\n@...\n",          // blank lines, odd spacing
  };
  for (const std::string& text : variants) {
    const auto g = lddb::parse_map(text, "t.map", &error);
    ASSERT_TRUE(g) << error << "\nfor:\n" << text;
    EXPECT_TRUE(*g == *plain) << text;
  }
}

// ----------------------------------------------------------------------------- map errors

TEST(MapErrors, Header) {
  expect_map_error("", "t.map:1: empty file: expected a Moving AI map header ('type octile')");
  expect_map_error("\n\n", "t.map:2: the header ends without a 'map' line");
  expect_map_error("type octile\nheight 3\nwidth 4\n", "t.map:3: the header ends without a 'map' line");
  expect_map_error("version 1\n",
                   "t.map:1: bad header line 'version 1' (expected 'type', 'height', 'width' or 'map'; is this a Moving AI "
                   ".map file?)");
  expect_map_error("type\n", "t.map:1: bad header line 'type': expected 'type VALUE'");
  expect_map_error("type octile\nheight 3 4\n", "t.map:2: bad header line 'height 3 4': expected 'height VALUE'");
  expect_map_error("type octile\nmap now\n", "t.map:2: bad header line 'map now': expected 'map' alone");
  expect_map_error("type octile\ntype tile\n", "t.map:2: 'type' given twice");
  expect_map_error("type octile\nheight 3\nheight 3\n", "t.map:3: 'height' given twice");
  expect_map_error("type octile\nwidth 4\nmap\n", "t.map:3: the header gives no height");
  expect_map_error("type octile\nheight 3\nmap\n", "t.map:3: the header gives no width");
}

TEST(MapErrors, HeaderNumbers) {
  expect_map_error("type octile\nheight 3x\nwidth 4\nmap\n", "t.map:2: height '3x' is not a whole number");
  expect_map_error("type octile\nheight 3\nwidth -4\nmap\n", "t.map:3: width '-4' is not a whole number");
  expect_map_error("type octile\nheight +3\nwidth 4\nmap\n", "t.map:2: height '+3' is not a whole number");
  expect_map_error("type octile\nheight 3.0\nwidth 4\nmap\n", "t.map:2: height '3.0' is not a whole number");
  expect_map_error("type octile\nheight 0x10\nwidth 4\nmap\n", "t.map:2: height '0x10' is not a whole number");
  expect_map_error("type octile\nheight \x01\x02\nwidth 4\nmap\n", "t.map:2: height '\\x01\\x02' is not a whole number");
  expect_map_error("type octile\nheight 0\nwidth 4\nmap\n", "t.map:2: height 0 is outside 1..16384");
  expect_map_error("type octile\nheight 3\nwidth 16385\nmap\n", "t.map:3: width 16385 is outside 1..16384");
  // A header claiming 10^9 x 10^9 is refused before anything is allocated.
  expect_map_error("type octile\nheight 1000000000\nwidth 1000000000\nmap\n",
                   "t.map:2: height 1000000000 is outside 1..16384");
  expect_map_error("type octile\nheight 3\nwidth 100000000000000000000000000000\nmap\n",
                   "t.map:3: width '100000000000000000000000000000' is larger than the largest map side, 16384");
}

TEST(MapErrors, GridShapeAndCharacters) {
  expect_map_error(kHeader + "....\n...\n....\n", "t.map:6: row 1 has 3 cells, but the header says width 4");
  expect_map_error(kHeader + "....\n.....\n....\n", "t.map:6: row 1 has 5 cells, but the header says width 4");
  expect_map_error(kHeader + "....\n\n....\n", "t.map:6: row 1 is empty, but the header says width 4");
  expect_map_error(kHeader + "....\n....\n", "t.map:7: the grid has 2 rows, but the header says height 3");
  expect_map_error(kHeader, "t.map:5: the grid has 0 rows, but the header says height 3");
  expect_map_error(kHeader + "....\n....\n....\n....\n",
                   "t.map:8: the grid has more than the 3 rows the header says (extra line '....')");
  expect_map_error(kHeader + "....\n....\n....\n\n@\n",
                   "t.map:9: the grid has more than the 3 rows the header says (extra line '@')");
  expect_map_error(kHeader + "....\n.\t..\n....\n", "t.map:6: row 1 column 1 holds a control character '\\x09'");
  // NUL inside a std::string literal needs the explicit length
  const std::string with_nul = kHeader + "....\n....\n..X.\n";
  std::string text = with_nul;
  text[text.size() - 3] = '\0';
  expect_map_error(text, "t.map:7: row 2 column 2 holds a control character '\\x00'");
}

TEST(MapErrors, OutputIsUntouchedWithoutErrorPointer) {
  // A null error pointer is allowed.
  EXPECT_FALSE(lddb::parse_map("junk", "t.map", nullptr));
  EXPECT_TRUE(lddb::parse_map(kHeader + "....\n....\n....\n", "t.map", nullptr));
}

// ----------------------------------------------------------------------------- map files

TEST(MapFiles, LoadsAndNamesTheFile) {
  const fs::path dir = scratch();
  const fs::path good = dir / "good.map";
  write_file(good, "type octile\r\nheight 2\r\nwidth 3\r\nmap\r\n.@.\r\n..T");
  std::string error;
  const auto g = lddb::load_map(good.string(), &error, 2);
  ASSERT_TRUE(g) << error;
  EXPECT_EQ(picture(*g), (std::vector<std::string>{".@.", "..@"}));
  EXPECT_EQ(g->block(), 2);

  const fs::path bad = dir / "bad.map";
  write_file(bad, "type octile\nheight 2\nwidth 3\nmap\n.@.\n..\n");
  EXPECT_FALSE(lddb::load_map(bad.string(), &error));
  EXPECT_EQ(error, bad.string() + ":6: row 1 has 2 cells, but the header says width 3");

  const fs::path missing = dir / "missing.map";
  EXPECT_FALSE(lddb::load_map(missing.string(), &error));
  EXPECT_EQ(error, missing.string() + ": cannot open: No such file or directory");
  EXPECT_FALSE(lddb::load_map(dir.string(), &error));
  EXPECT_EQ(error, dir.string() + ": cannot open: is a directory");
}

TEST(MapFiles, OverLongLineIsRefused) {
  const fs::path dir = scratch();
  const fs::path f = dir / "long.map";
  write_file(f, "type octile\nheight 1\nwidth 4\nmap\n" + std::string(100000, '.') + "\n");
  std::string error;
  EXPECT_FALSE(lddb::load_map(f.string(), &error));
  EXPECT_EQ(error, f.string() + ":5: line is longer than 20480 characters");
  // the same text in memory gives the row-width message
  std::string e2;
  EXPECT_FALSE(lddb::parse_map("type octile\nheight 1\nwidth 4\nmap\n" + std::string(100000, '.') + "\n", "m", &e2));
  EXPECT_EQ(e2, "m:5: row 0 has 100000 cells, but the header says width 4");
}

TEST(MapFiles, BinaryFileIsRefused) {
  const fs::path dir = scratch();
  const fs::path f = dir / "bin.map";
  std::string bytes(5000, '\0');
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 131 % 251);
  write_file(f, bytes);
  std::string error;
  EXPECT_FALSE(lddb::load_map(f.string(), &error));
  EXPECT_EQ(error.rfind(f.string() + ":1: bad header line", 0), 0u) << error;
}

TEST(MapFiles, LargestMapLoads) {
  // 16384 wide, a few rows: the width limit is inclusive and the line limit leaves room.
  const fs::path dir = scratch();
  const fs::path f = dir / "wide.map";
  std::string text = "type octile\nheight 2\nwidth 16384\nmap\n";
  text += std::string(16384, '.') + "   \r\n" + std::string(16383, '.') + "@";
  write_file(f, text);
  std::string error;
  const auto g = lddb::load_map(f.string(), &error);
  ASSERT_TRUE(g) << error;
  EXPECT_EQ(g->width(), 16384);
  EXPECT_TRUE(g->blocked(16383, 1));
  EXPECT_FALSE(g->blocked(16383, 0));
}

// ----------------------------------------------------------------------------- scenarios

TEST(ScenarioText, Version1WithTabs) {
  std::string error;
  const auto s = lddb::parse_scenario(
      "version 1\n0\tmaps/dao/arena.map\t49\t49\t1\t11\t1\t12\t1\n"
      "3\tmaps/dao/arena.map\t49\t49\t1\t13\t4\t12\t3.41421\r\n\n",
      "a.scen", &error);
  ASSERT_TRUE(s) << error;
  EXPECT_EQ(s->path, "a.scen");
  ASSERT_EQ(s->queries.size(), 2u);
  const auto& q = s->queries[1];
  EXPECT_EQ(q.bucket, 3);
  EXPECT_EQ(q.map, "maps/dao/arena.map");
  EXPECT_EQ(q.map_width, 49);
  EXPECT_EQ(q.map_height, 49);
  EXPECT_EQ(q.start, (point{1, 13}));
  EXPECT_EQ(q.goal, (point{4, 12}));
  EXPECT_DOUBLE_EQ(q.optimal, 3.41421);
  EXPECT_DOUBLE_EQ(q.optimal_tolerance, 1e-4);
  EXPECT_EQ(q.line, 3);
  EXPECT_EQ(s->queries[0].line, 2);
}

TEST(ScenarioText, Version10WithSpacesAndTwoDecimals) {
  std::string error;
  const auto s = lddb::parse_scenario("version 1.0\n40 maps/bgmaps/AR0012SR.map 512 512 322 410 314 266 160.53",
                                      "b.scen", &error);
  ASSERT_TRUE(s) << error;
  ASSERT_EQ(s->queries.size(), 1u);
  EXPECT_EQ(s->queries[0].start, (point{322, 410}));
  EXPECT_DOUBLE_EQ(s->queries[0].optimal, 160.53);
  EXPECT_NEAR(s->queries[0].optimal_tolerance, 0.01, 1e-8);  // 2 decimals
  // version 1 files print 6 significant digits
  const auto t = lddb::parse_scenario("version 1\n0 m 9 9 0 0 1 1 1122.86\n0 m 9 9 0 0 1 1 6230\n0 m 9 9 0 0 1 1 815.583\n"
                                      "0 m 9 9 0 0 1 1 1\n",
                                      "v1.scen", &error);
  ASSERT_TRUE(t) << error;
  EXPECT_NEAR(t->queries[0].optimal_tolerance, 0.01, 1e-8);
  EXPECT_NEAR(t->queries[1].optimal_tolerance, 0.01, 1e-8);
  EXPECT_NEAR(t->queries[2].optimal_tolerance, 0.001, 1e-8);
  EXPECT_NEAR(t->queries[3].optimal_tolerance, 1e-4, 1e-8);
}

TEST(ScenarioText, MapPathWithSpacesInATabbedFile) {
  std::string error;
  const auto s = lddb::parse_scenario("version 1\n0\tmy maps/a b.map\t4\t4\t0\t0\t3\t3\t4.24264\n", "c.scen", &error);
  ASSERT_TRUE(s) << error;
  EXPECT_EQ(s->queries[0].map, "my maps/a b.map");
  EXPECT_TRUE(lddb::parse_scenario("version 1\n", "empty.scen", &error)) << error;
}

TEST(ScenarioErrors, VersionAndShape) {
  expect_scen_error("", "t.scen:1: empty file: expected 'version 1' or 'version 1.0'");
  expect_scen_error("\n \n", "t.scen:1: empty file: expected 'version 1' or 'version 1.0'");
  expect_scen_error("version 2\n", "t.scen:1: unsupported scenario version 'version 2' (expected 'version 1' or 'version 1.0')");
  expect_scen_error("version\n", "t.scen:1: unsupported scenario version 'version' (expected 'version 1' or 'version 1.0')");
  expect_scen_error("0 a.map 4 4 0 0 1 1 1.41421\n",
                    "t.scen:1: expected 'version 1' or 'version 1.0' first, not '0 a.map 4 4 0 0 1 1 1.41421' (is this a "
                    "Moving AI .scen file?)");
  expect_scen_error("version 1\n0 a.map 4 4 0 0 1 1\n",
                    "t.scen:2: expected 9 fields (bucket, map, width, height, start x, start y, goal x, goal y, optimal "
                    "length), found 8");
  expect_scen_error("version 1\n0 a.map 4 4 0 0 1 1 1.4 9\n",
                    "t.scen:2: expected 9 fields (bucket, map, width, height, start x, start y, goal x, goal y, optimal "
                    "length), found 10");
}

TEST(ScenarioErrors, Numbers) {
  const std::string v = "version 1\n";
  expect_scen_error(v + "x a.map 4 4 0 0 1 1 1\n", "t.scen:2: bucket 'x' is not a whole number");
  expect_scen_error(v + "0 a.map 4a 4 0 0 1 1 1\n", "t.scen:2: map width '4a' is not a whole number");
  expect_scen_error(v + "0 a.map 4 0 0 0 1 1 1\n", "t.scen:2: map height 0 is outside 1..16384");
  expect_scen_error(v + "0 a.map 99999999999999999999 4 0 0 1 1 1\n",
                    "t.scen:2: map width 99999999999999999999 is outside 1..16384");
  expect_scen_error(v + "0 a.map 4 4 -1 0 1 1 1\n", "t.scen:2: start x '-1' is not a whole number");
  expect_scen_error(v + "0 a.map 4 4 0 0 1 1.5 1\n", "t.scen:2: goal y '1.5' is not a whole number");
  expect_scen_error(v + "0 a.map 4 4 4 0 1 1 1\n", "t.scen:2: start (4,0) is off the 4x4 map");
  expect_scen_error(v + "0 a.map 4 4 0 0 1 9 1\n", "t.scen:2: goal (1,9) is off the 4x4 map");
  expect_scen_error(v + "0 a.map 4 4 0 0 1 99999999 1\n", "t.scen:2: goal y 99999999 is too large");
  for (const char* bad : {"-1", "nan", "inf", "1e5", "1.", ".5", "1,5", "0x1p3", "1.2.3", "12345678901234567"})
    expect_scen_error(v + "0 a.map 4 4 0 0 1 1 " + bad + "\n",
                      "t.scen:2: optimal length '" + std::string(bad) + "' is not a non-negative decimal number");
}

TEST(ScenarioErrors, QueryLimit) {
  const std::string line = "0 a.map 4 4 0 0 1 1 1.41421\n";
  std::string error;
  EXPECT_TRUE(lddb::parse_scenario("version 1\n" + line + line, "t.scen", &error, 2)) << error;
  expect_scen_error("version 1\n" + line + line + "\n" + line, "t.scen:5: more than 2 queries (the limit for this file)", 2);
}

TEST(ScenarioFiles, LoadMissingAndFolder) {
  const fs::path dir = scratch();
  std::string error;
  EXPECT_FALSE(lddb::load_scenario((dir / "none.scen").string(), &error));
  EXPECT_EQ(error, (dir / "none.scen").string() + ": cannot open: No such file or directory");
  EXPECT_FALSE(lddb::load_scenario(dir.string(), &error));
  EXPECT_EQ(error, dir.string() + ": cannot open: is a directory");
  const fs::path f = dir / "x.scen";
  write_file(f, "version 1.0\n1 m.map 4 4 0 0 1 1 1.41\n1 m.map 4 4 0 0 1 1 one\n");
  EXPECT_FALSE(lddb::load_scenario(f.string(), &error));
  EXPECT_EQ(error, f.string() + ":3: optimal length 'one' is not a non-negative decimal number");
}

TEST(ScenarioFiles, ResolveMap) {
  const fs::path dir = scratch();
  const fs::path scen = dir / "bench" / "AR.map.scen";
  write_file(scen, "version 1.0\n1 maps/bgmaps/AR.map 4 4 0 0 1 1 1.41\n");
  std::string error;
  const auto s = lddb::load_scenario(scen.string(), &error);
  ASSERT_TRUE(s) << error;
  // maps/bgmaps/ does not exist beside the scenario: the base name beside it
  EXPECT_EQ(s->resolve_map(s->queries[0]), (dir / "bench" / "AR.map").string());
  // once the path as written exists relative to the scenario, it wins
  write_file(dir / "bench" / "maps" / "bgmaps" / "AR.map", "x");
  EXPECT_EQ(s->resolve_map(s->queries[0]), (dir / "bench" / "maps" / "bgmaps" / "AR.map").string());
  // an absolute path as written
  lddb::scenario_query q = s->queries[0];
  q.map = (dir / "bench" / "maps" / "bgmaps" / "AR.map").string();
  EXPECT_EQ(s->resolve_map(q), q.map);
  q.map = (dir / "elsewhere" / "AR.map").string();
  EXPECT_EQ(s->resolve_map(q), (dir / "bench" / "AR.map").string());
}

// ----------------------------------------------------------------------------- streamed scenarios

// Everything scenario_reader yields for a file, and its final message.
struct streamed {
  bool opened = false;
  std::vector<lddb::scenario_query> queries;
  std::string error;
};
streamed stream_all(const std::string& path) {
  streamed out;
  std::optional<lddb::scenario_reader> r = lddb::scenario_reader::open(path, &out.error);
  if (!r) return out;
  out.opened = true;
  lddb::scenario_query q;
  while (r->next(&q, &out.error)) out.queries.push_back(q);
  EXPECT_EQ(r->queries_read(), out.queries.size());
  // After the end or an error, it stays there.
  std::string again;
  EXPECT_FALSE(r->next(&q, &again));
  return out;
}

bool same_query(const lddb::scenario_query& a, const lddb::scenario_query& b) {
  return a.bucket == b.bucket && a.map == b.map && a.map_width == b.map_width && a.map_height == b.map_height &&
         a.start == b.start && a.goal == b.goal && a.optimal == b.optimal && a.optimal_tolerance == b.optimal_tolerance &&
         a.line == b.line;
}

struct scen_case {
  const char* what;
  std::string text;
  std::string error;  // after "FILE:", empty when the file is valid
  std::size_t queries;
};

// The streaming reader and load_scenario agree on every file: the same queries, or the
// same message naming the file and line. Valid files may have CRLF line ends, trailing
// blanks, blank lines and no final newline.
TEST(ScenarioStream, SameQueriesAndMessagesAsLoad) {
  const std::string q = "0\tm.map\t4\t4\t0\t0\t3\t3\t4.24264";
  const std::vector<scen_case> cases{
      {"plain", "version 1\n" + q + "\n" + q + "\n", "", 2},
      {"CRLF", "version 1\r\n" + q + "\r\n" + q + "\r\n", "", 2},
      {"trailing blanks", "version 1  \n" + q + " \t\n" + q + "   \n", "", 2},
      {"no final newline", "version 1.0\n0 m.map 4 4 0 0 3 3 4.24\n0 m.map 4 4 1 1 2 2 1.41", "", 2},
      {"CRLF, no final newline", "version 1\r\n" + q + "\r\n\r\n" + q, "", 2},
      {"version only", "version 1\n", "", 0},
      {"empty", "", "1: empty file: expected 'version 1' or 'version 1.0'", 0},
      {"unknown version", "version 2\n" + q + "\n",
       "1: unsupported scenario version 'version 2' (expected 'version 1' or 'version 1.0')", 0},
      {"not a scenario", "type octile\nheight 4\n",
       "1: expected 'version 1' or 'version 1.0' first, not 'type octile' (is this a Moving AI .scen file?)", 0},
      {"malformed third line", "version 1\n" + q + "\n" + q + "\n0\tm.map\t4\t4\t0\t0\t3\n",
       "4: expected 9 fields (bucket, map, width, height, start x, start y, goal x, goal y, optimal length), found 7", 2},
      {"start off its map", "version 1\n" + q + "\n0\tm.map\t4\t4\t4\t0\t3\t3\t4\n", "3: start (4,0) is off the 4x4 map", 1},
      {"goal off its map", "version 1\r\n0\tm.map\t4\t4\t0\t0\t3\t9\t4\r\n", "2: goal (3,9) is off the 4x4 map", 0},
      {"garbled number", "version 1\n0\tm.map\t4\t4\t0\tx\t3\t3\t4\n", "2: start y 'x' is not a whole number", 0},
      {"binary", std::string("version 1\n\x01\x02\x03", 13), "2: expected 9 fields (bucket, map, width, height, start x, "
                                                               "start y, goal x, goal y, optimal length), found 1", 0},
  };
  const fs::path dir = scratch();
  for (const scen_case& c : cases) {
    SCOPED_TRACE(c.what);
    const fs::path f = dir / (std::string(c.what) + ".scen");
    write_file(f, c.text);
    std::string load_error;
    const auto loaded = lddb::load_scenario(f.string(), &load_error);
    const streamed s = stream_all(f.string());
    ASSERT_TRUE(s.opened);
    if (c.error.empty()) {
      ASSERT_TRUE(loaded) << load_error;
      EXPECT_TRUE(s.error.empty()) << s.error;
      ASSERT_EQ(loaded->queries.size(), c.queries);
    } else {
      EXPECT_FALSE(loaded);
      EXPECT_EQ(load_error, f.string() + ":" + c.error);
      EXPECT_EQ(s.error, load_error);
    }
    // The stream yields the queries before the bad line, then stops.
    ASSERT_EQ(s.queries.size(), c.queries);
    for (std::size_t k = 0; loaded && k < c.queries; ++k) EXPECT_TRUE(same_query(s.queries[k], loaded->queries[k])) << k;
  }
  // A file that cannot be opened is refused by open(), named.
  std::string error;
  EXPECT_FALSE(lddb::scenario_reader::open((dir / "none.scen").string(), &error));
  EXPECT_EQ(error, (dir / "none.scen").string() + ": cannot open: No such file or directory");
  EXPECT_FALSE(lddb::scenario_reader::open(dir.string(), &error));
  EXPECT_EQ(error, dir.string() + ": cannot open: is a directory");
  // resolve_map is scenario::resolve_map.
  const fs::path scen = dir / "bench" / "AR.map.scen";
  write_file(scen, "version 1.0\n1 maps/bgmaps/AR.map 4 4 0 0 1 1 1.41\n");
  std::optional<lddb::scenario_reader> r = lddb::scenario_reader::open(scen.string(), &error);
  ASSERT_TRUE(r) << error;
  lddb::scenario_query first;
  ASSERT_TRUE(r->next(&first, &error)) << error;
  EXPECT_EQ(r->resolve_map(first), (dir / "bench" / "AR.map").string());
  EXPECT_EQ(r->path(), scen.string());
}

// Heap in use, from the allocator's own books (glibc's; a sanitizer's allocator keeps
// other books, and keeps freed memory in quarantine, so the measure is off there).
std::size_t heap_in_use() {
  const struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd;
}
bool heap_is_measurable() {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  return false;
#else
  const std::size_t before = heap_in_use();
  std::vector<char> probe(std::size_t{8} << 20, 1);
  return heap_in_use() - before >= probe.size();
#endif
}

// A scenario of a million queries (about 40 MB) streams through in the memory of one line;
// load_scenario, which keeps every query, refuses it past its limit at the right line,
// without reading further. The file is written once per run of the test.
TEST(ScenarioStream, MillionLineFileInBoundedMemory) {
  constexpr std::size_t kQueries = 1'000'000;
  const fs::path dir = scratch();
  const fs::path f = dir / "big.scen";
  {
    std::ofstream out(f, std::ios::binary);
    out << "version 1\n";
    char line[96];
    for (std::size_t k = 0; k < kQueries; ++k) {
      const int n = std::snprintf(line, sizeof line, "%zu\tmaps/somewhere/big.map\t512\t512\t%zu\t%zu\t%zu\t%zu\t%zu.5\n",
                                  k % 100, k % 512, k / 512 % 512, (k * 7) % 512, (k * 13) % 512, k % 700);
      out.write(line, n);
    }
  }
  const std::size_t before = heap_in_use();
  std::size_t peak = before;
  std::string error;
  std::optional<lddb::scenario_reader> r = lddb::scenario_reader::open(f.string(), &error);
  ASSERT_TRUE(r) << error;
  lddb::scenario_query q;
  std::size_t count = 0;
  std::uint64_t checksum = 0;
  while (r->next(&q, &error)) {
    ++count;
    checksum += static_cast<std::uint64_t>(q.start.x + q.goal.y + q.line);
    if (count % 4096 == 0) peak = std::max(peak, heap_in_use());
  }
  EXPECT_TRUE(error.empty()) << error;
  EXPECT_EQ(count, kQueries);
  EXPECT_EQ(q.line, static_cast<int>(kQueries) + 1);
  EXPECT_GT(checksum, 0u);
  const bool measurable = heap_is_measurable();
  if (measurable) {
    EXPECT_LT(peak - before, std::size_t{1} << 20) << "streaming grew the heap by " << (peak - before) << " bytes";
  }

  // load_scenario keeps everything, so it has a limit: refused at the first line past it.
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_FALSE(lddb::load_scenario(f.string(), &error, 1000));
  EXPECT_EQ(error, f.string() + ":1002: more than 1000 queries (the limit for this file)");
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(1)) << "it read past the limit";
  // The measure sees memory that is kept: the first 100,000 queries, held, take megabytes.
  const std::size_t base = heap_in_use();
  {
    std::vector<lddb::scenario_query> kept;
    std::optional<lddb::scenario_reader> again = lddb::scenario_reader::open(f.string(), &error);
    ASSERT_TRUE(again) << error;
    while (kept.size() < 100'000 && again->next(&q, &error)) kept.push_back(q);
    if (measurable) {
      EXPECT_GT(heap_in_use() - base, std::size_t{5} << 20);
    }
  }
  fs::remove(f);
  if (!measurable) GTEST_SKIP() << "the heap cannot be measured under this allocator; the memory bound was not checked";
}

// ----------------------------------------------------------------------------- map headers

// A header is checked line by line, before the grid is allocated: sizes beyond
// grid_map::kMaxSide, or a product that would overflow, never reach an allocation.
TEST(MapErrors, HugeHeadersAreRefusedBeforeAllocating) {
  const std::vector<std::pair<std::string, std::string>> cases{
      {"type octile\nheight 1000000000\nwidth 1000000000\nmap\n", "2: height 1000000000 is outside 1..16384"},
      {"type octile\nwidth 4294967297\nheight 4294967297\nmap\n", "2: width 4294967297 is outside 1..16384"},
      {"type octile\nheight 16384\nwidth 16385\nmap\n", "3: width 16385 is outside 1..16384"},
      {"type octile\r\nheight 99999999999999999999999\r\nwidth 4\r\nmap\r\n",
       "2: height '99999999999999999999999' is larger than the largest map side, 16384"},
  };
  const fs::path dir = scratch();
  for (const auto& [text, message] : cases) {
    const fs::path f = dir / "huge.map";
    write_file(f, text + std::string(64, '.') + "\n");
    std::string error;
    EXPECT_FALSE(lddb::load_map(f.string(), &error));
    EXPECT_EQ(error, f.string() + ":" + message);
  }
  // The largest legal header with a short grid: refused at the first short row.
  const fs::path f = dir / "short.map";
  write_file(f, "type octile\nheight 16384\nwidth 16384\nmap\n" + std::string(16384, '.') + "\n...\n");
  std::string error;
  EXPECT_FALSE(lddb::load_map(f.string(), &error));
  EXPECT_EQ(error, f.string() + ":6: row 1 has 3 cells, but the header says width 16384");
}

TEST(MapFiles, LineEndVariantsOnDiskGiveTheSameMap) {
  const fs::path dir = scratch();
  const std::string rows[] = {".@..", "..@.", "@..."};
  std::vector<std::string> texts;
  for (const char* eol : {"\n", "\r\n"})
    for (const char* trail : {"", "  ", " \t"})
      for (bool final_newline : {true, false}) {
        std::string t = std::string("type octile") + trail + eol + "height 3" + eol + "width 4" + trail + eol + "map" + eol;
        for (int y = 0; y < 3; ++y) t += rows[y] + trail + (y < 2 || final_newline ? eol : "");
        texts.push_back(t);
      }
  std::string error;
  const auto plain = lddb::parse_map(kHeader + ".@..\n..@.\n@...\n", "t.map", &error);
  ASSERT_TRUE(plain) << error;
  for (std::size_t k = 0; k < texts.size(); ++k) {
    const fs::path f = dir / ("v" + std::to_string(k) + ".map");
    write_file(f, texts[k]);
    const auto g = lddb::load_map(f.string(), &error);
    ASSERT_TRUE(g) << error << "\nfor:\n" << texts[k];
    EXPECT_TRUE(*g == *plain) << texts[k];
  }
}

// ----------------------------------------------------------------------------- the shared maps

TEST(SharedMaps, EveryMapAndScenarioLoads) {
  const fs::path root = lddb_test::benchmark_maps_dir();
  std::error_code ec;
  if (!fs::is_directory(root, ec)) LDDB_MAPS_MISSING("missing the benchmark maps folder " << root.string() << "; nothing to check");
  std::set<std::string> maps, scens;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    const std::string p = e.path().string();
    if (e.path().extension() == ".map") maps.insert(p);
    if (e.path().extension() == ".scen") scens.insert(p);
  }
  ASSERT_FALSE(maps.empty());
  std::map<std::string, grid_map> loaded;
  for (const std::string& p : maps) {
    std::string error;
    auto g = lddb::load_map(p, &error);
    ASSERT_TRUE(g) << error;
    EXPECT_GT(g->width(), 0);
    loaded.emplace(p, std::move(*g));
  }
  for (const std::string& p : scens) {
    std::string error;
    const auto s = lddb::load_scenario(p, &error);
    ASSERT_TRUE(s) << error;
    ASSERT_FALSE(s->queries.empty()) << p;
    for (const auto& q : s->queries) {
      const std::string m = s->resolve_map(q);
      const auto it = loaded.find(m);
      ASSERT_NE(it, loaded.end()) << p << ":" << q.line << ": map " << q.map << " resolves to " << m;
      const grid_map& g = it->second;
      ASSERT_EQ(g.width(), q.map_width) << p << ":" << q.line;
      ASSERT_EQ(g.height(), q.map_height) << p << ":" << q.line;
      EXPECT_FALSE(g.blocked(q.start.x, q.start.y)) << p << ":" << q.line;
      EXPECT_FALSE(g.blocked(q.goal.x, q.goal.y)) << p << ":" << q.line;
      EXPECT_GE(q.optimal, std::max(std::abs(q.goal.x - q.start.x), std::abs(q.goal.y - q.start.y)) - q.optimal_tolerance)
          << p << ":" << q.line;
    }
  }
}

}  // namespace
