// cli_unit_test: units of other sizes and movement classes on the command line (--size,
// --class of `lddb solve`, `bench` and `render`), running the built program.
//
//   Bench         battleground.map's scenario (../shared/maps-wc3) for a 2 x 2 unit: no
//                 invalid path, queries skipped where the unit cannot stand, no comparison
//                 with the file's optima
//   Classes       on battleground.map, two water cells joined by water and two ground cells
//                 joined by ground (found here by reading the map): each pair is solved for
//                 its own class and refused as a start for the other
//   BadValues     --size 9, --size x, --class "" are errors naming the flag
//   Render        --size 2 draws the unit's square at each path point
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "test_scenarios.hpp"

namespace {

using cli_support::expect_clean_failure;
using cli_support::quote;
using cli_support::run_result;
namespace fs = std::filesystem;

// Beside the benchmark maps (../shared/maps, or $LDDB_MAPS_DIR): maps-wc3/battleground.map.
const fs::path kBattleground = lddb_test::benchmark_maps_dir().parent_path() / "maps-wc3" / "battleground.map";

class cli_unit : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = cli_support::fresh_scratch_dir("cli_unit_test"); }
  run_result run(const std::string& args) { return cli_support::run_in(dir_, args); }
  fs::path dir_;
};

// The rows of a Moving AI map (after the "map" line).
std::vector<std::string> map_rows(const fs::path& file) {
  std::istringstream in(cli_support::read_file(file));
  std::string line;
  while (std::getline(in, line) && line.rfind("map", 0) != 0) {
  }
  std::vector<std::string> rows;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) rows.push_back(line);
  }
  return rows;
}

// The two cells farthest apart (in breadth-first steps) of the largest 4-connected set of
// cells whose letters are in `letters`: joined by straight moves through those letters only.
std::pair<std::pair<int, int>, std::pair<int, int>> far_pair(const std::vector<std::string>& rows, const std::string& letters) {
  const int h = static_cast<int>(rows.size()), w = static_cast<int>(rows[0].size());
  const auto in = [&](int x, int y) {
    return x >= 0 && y >= 0 && x < w && y < h && letters.find(rows[static_cast<std::size_t>(y)][static_cast<std::size_t>(x)]) != std::string::npos;
  };
  std::vector<int> seen(static_cast<std::size_t>(w * h), 0);
  std::vector<std::pair<int, int>> best;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      if (!in(x, y) || seen[static_cast<std::size_t>(y * w + x)]) continue;
      std::vector<std::pair<int, int>> order{{x, y}};  // breadth-first from (x, y)
      seen[static_cast<std::size_t>(y * w + x)] = 1;
      for (std::size_t i = 0; i < order.size(); ++i) {
        const auto [cx, cy] = order[i];
        for (const auto& [dx, dy] : {std::pair{1, 0}, {-1, 0}, {0, 1}, {0, -1}}) {
          const int nx = cx + dx, ny = cy + dy;
          if (in(nx, ny) && !seen[static_cast<std::size_t>(ny * w + nx)]) {
            seen[static_cast<std::size_t>(ny * w + nx)] = 1;
            order.push_back({nx, ny});
          }
        }
      }
      if (order.size() > best.size()) best = std::move(order);
    }
  return {best.front(), best.back()};
}

std::string cell(std::pair<int, int> c) { return std::to_string(c.first) + "," + std::to_string(c.second); }

TEST_F(cli_unit, BenchSkipsWhereTheUnitCannotStandAndFindsNoInvalidPath) {
  const fs::path scen = fs::path(kBattleground.string() + ".scen");
  if (!fs::exists(scen)) LDDB_MAPS_MISSING("missing scenario file " << scen.string() << " (../shared/maps-wc3 beside the source, or beside $LDDB_MAPS_DIR)");
  const run_result r = run("bench --scen " + quote(scen) + " --size 2");
  ASSERT_EQ(r.status, 0) << r.all();
  EXPECT_NE(r.out.find("unit size 2, class .GS"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("not checked against them"), std::string::npos) << r.out;
  // The `all` row: queries, found, mean length, mean optimal, mean expanded, mean µs, invalid,
  // mismatches, skipped.
  const std::size_t at = r.out.find("\nall ");
  ASSERT_NE(at, std::string::npos) << r.out;
  std::istringstream row(r.out.substr(at + 1, r.out.find('\n', at + 1) - at - 1));
  std::vector<std::string> cols;
  for (std::string c; row >> c;) cols.push_back(c);
  ASSERT_EQ(cols.size(), 10u) << r.out;
  EXPECT_EQ(cols[7], "0") << "invalid paths:\n" << r.out;
  EXPECT_EQ(cols[8], "-") << "no comparison with the optima:\n" << r.out;
  const long skipped = std::stol(cols[9]);
  EXPECT_GT(skipped, 0) << r.out;
  EXPECT_GT(std::stol(cols[1]), 500) << r.out;
  EXPECT_NE(r.out.find("skipped " + std::to_string(skipped) + " queries the unit cannot stand at"), std::string::npos) << r.out;
  // The default unit skips fewer: a 2 x 2 square needs more room than its anchor cell.
  const run_result plain = run("bench --scen " + quote(scen) + " --algo astar");
  const std::size_t p = plain.out.find("\nall ");
  ASSERT_NE(p, std::string::npos) << plain.all();
  std::istringstream prow(plain.out.substr(p + 1, plain.out.find('\n', p + 1) - p - 1));
  std::vector<std::string> pcols;
  for (std::string c; prow >> c;) pcols.push_back(c);
  ASSERT_EQ(pcols.size(), 10u) << plain.out;
  EXPECT_LT(std::stol(pcols[9]), skipped) << plain.out;
}

TEST_F(cli_unit, WaterAndGroundReachDifferentCells) {
  if (!fs::exists(kBattleground)) LDDB_MAPS_MISSING("missing map " << kBattleground.string() << " (../shared/maps-wc3 beside the source, or beside $LDDB_MAPS_DIR)");
  const std::vector<std::string> rows = map_rows(kBattleground);
  ASSERT_EQ(rows.size(), 512u);
  const auto water = far_pair(rows, "W"), ground = far_pair(rows, ".GS");
  const std::string m = "solve --map " + quote(kBattleground);
  const std::string on_water = m + " --from " + cell(water.first) + " --to " + cell(water.second);
  const std::string on_ground = m + " --from " + cell(ground.first) + " --to " + cell(ground.second);

  const run_result boat = run(on_water + " --class W");
  ASSERT_EQ(boat.status, 0) << boat.all();
  EXPECT_NE(boat.out.find("unit       size 1, class W"), std::string::npos) << boat.out;
  EXPECT_NE(boat.out.find("check      valid"), std::string::npos) << boat.out;
  expect_clean_failure(run(on_water), "--from: cell " + ("(" + cell(water.first) + ") is blocked"), 2);
  for (const char* algo : {"astar", "jps", "block-astar"}) {
    const run_result j = run(on_water + " --class W --json --algo " + algo);
    ASSERT_EQ(j.status, 0) << algo << ": " << j.all();
    const nlohmann::json doc = nlohmann::json::parse(j.out);
    EXPECT_EQ(doc["unit"]["class"], "W") << algo;
    EXPECT_EQ(doc["unit"]["size"], 0) << algo;
    EXPECT_EQ(doc["valid"], true) << algo;
  }

  const run_result walker = run(on_ground);
  ASSERT_EQ(walker.status, 0) << walker.all();
  EXPECT_EQ(walker.out.find("unit "), std::string::npos) << "the default unit is not named:\n" << walker.out;
  const run_result json = run(on_ground + " --json");
  ASSERT_EQ(json.status, 0) << json.all();
  EXPECT_FALSE(nlohmann::json::parse(json.out).contains("unit"));
  expect_clean_failure(run(on_ground + " --class W"), "--from: cell (" + cell(ground.first) + ") is no place for a unit of size 1, class W", 2);
  expect_clean_failure(run(on_ground + " --class W --rule any-angle --algo theta"), "no place for a unit of size 0 (a point), class W", 2);
}

TEST_F(cli_unit, BadValuesNameTheFlag) {
  const fs::path map = dir_ / "open.map";
  cli_support::write_file(map, "type octile\nheight 4\nwidth 6\nmap\n......\n......\n......\n......\n");
  const fs::path scen = dir_ / "open.map.scen";
  cli_support::write_file(scen, "version 1\n0\topen.map\t6\t4\t0\t0\t4\t2\t4.82842712\n");
  const std::string out = " --out " + quote(dir_ / "x.svg");
  for (const std::string& cmd : {"solve --map " + quote(map) + " --from 0,0 --to 4,2", "bench --scen " + quote(scen),
                                 "render --map " + quote(map) + " --from 0,0 --to 4,2" + out}) {
    expect_clean_failure(run(cmd + " --size 9"), "--size", 2);
    expect_clean_failure(run(cmd + " --size 9"), "--size 9 is outside 0..8", 2);
    expect_clean_failure(run(cmd + " --size x"), "--size", 2);
    expect_clean_failure(run(cmd + " --size -1"), "--size", 2);
    expect_clean_failure(run(cmd + " --class ''"), "--class '' holds no terrain letter", 2);
    expect_clean_failure(run(cmd + " --class 'W G'"), "--class", 2);
  }
  // A unit too big for the map's room is refused as a start, naming the unit.
  expect_clean_failure(run("solve --map " + quote(map) + " --from 0,0 --to 4,2 --size 5"),
                       "--from: cell (0,0) is no place for a unit of size 5, class .GS", 2);
  const run_result fits = run("solve --map " + quote(map) + " --from 0,0 --to 3,2 --size 2");
  ASSERT_EQ(fits.status, 0) << fits.all();
  EXPECT_NE(fits.out.find("unit       size 2, class .GS"), std::string::npos) << fits.out;
  const run_result bench = run("bench --scen " + quote(scen) + " --size 3");
  EXPECT_EQ(bench.status, 0) << bench.all();
  EXPECT_NE(bench.out.find("skipped 1 queries the unit cannot stand at"), std::string::npos) << bench.out;
}

TEST_F(cli_unit, RenderDrawsTheUnitsSquareAtEachPathPoint) {
  const fs::path map = dir_ / "room.map";
  cli_support::write_file(map, "type octile\nheight 8\nwidth 10\nmap\n..........\n..........\n..........\n....@.....\n"
                               "....@.....\n..........\n..........\n..........\n");
  for (const std::string algo : {"astar", "theta"}) {
    const fs::path svg = dir_ / (algo + ".svg");
    const run_result r = run("render --map " + quote(map) + " --from 0,0 --to 7,3 --size 2 --algo " + algo +
                             " --raw --out " + quote(svg));
    ASSERT_EQ(r.status, 0) << r.all();
    EXPECT_NE(r.out.find("unit size 2, class .GS"), std::string::npos) << r.out;
    const std::string text = cli_support::read_file(svg);
    const std::size_t g = text.find("<g class=\"footprint\"");
    ASSERT_NE(g, std::string::npos) << text;
    const std::string group = text.substr(g, text.find("</g>", g) - g);
    // One 2 x 2 square a path point, its top-left at the point; the first at the start.
    EXPECT_NE(group.find("<rect x=\"0\" y=\"0\" width=\"2\" height=\"2\"/>"), std::string::npos) << group;
    EXPECT_NE(group.find("<rect x=\"7\" y=\"3\" width=\"2\" height=\"2\"/>"), std::string::npos) << group;
    std::size_t rects = 0;
    for (std::size_t at = group.find("<rect"); at != std::string::npos; at = group.find("<rect", at + 1)) ++rects;
    EXPECT_GE(rects, algo == "astar" ? 8u : 2u) << group;
  }
  // The default unit draws none.
  const fs::path plain = dir_ / "plain.svg";
  ASSERT_EQ(run("render --map " + quote(map) + " --from 0,0 --to 7,3 --algo astar --out " + quote(plain)).status, 0);
  EXPECT_EQ(cli_support::read_file(plain).find("footprint"), std::string::npos);
}

}  // namespace
