// tests/cli_search_test.cpp: `lddb solve`, `bench`, `render` and `demo`, run as a user would.
//
// Each test runs the built binary (LDDB_CLI) through the shell in its own scratch folder.
// The databases the tests use (b = 3, plus octile-4 for the default-database path) are
// generated once into a shared folder under the build tree; `lddb gen` writes atomically,
// so parallel test processes may race to create them safely. Expected octile optima come
// from the independent oracle (tests/oracle.hpp), not from the searches under test.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "lddb/format.hpp"
#include "oracle.hpp"
#include "test_scenarios.hpp"

namespace {

namespace fs = std::filesystem;

using namespace cli_support;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) out.push_back(line);
  return out;
}

int count_of(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// A database kept from an earlier run is reused only when this build's format wrote it.
bool current(const fs::path& file) {
  const lddb::database::open_result r = lddb::database::open(file.string());
  return r && r.db->info().version == lddb::kFormatVersion;
}

// The databases shared by every test, generated on first use.
fs::path data_dir() {
  const fs::path dir = fs::path(LDDB_BINARY_DIR) / "cli_search_test_data";
  fs::create_directories(dir);
  const fs::path scratch = dir / ("gen-" + std::to_string(::getpid()));
  fs::create_directories(scratch);
  struct want {
    const char* rule;
    int block;
    const char* name;
  };
  for (const want& w : {want{"octile", 3, "octile-3.lddb"}, want{"tile", 3, "tile-3.lddb"},
                        want{"any-angle", 3, "any-angle-3.lddb"}, want{"octile", 4, "octile-4.lddb"}}) {
    if (current(dir / w.name)) continue;
    const run_result r = run_in(scratch, std::string("gen --rule ") + w.rule + " --block " + std::to_string(w.block) +
                                             " --zstd-level 1 --out " + quote(dir / w.name));
    EXPECT_EQ(r.status, 0) << r.all();
  }
  fs::remove_all(scratch);
  return dir;
}

// A 20x12 map: a wall with one gap, a few pillars, and a closed-off pocket at the right.
const char* const kMapText =
    "type octile\n"
    "height 12\n"
    "width 20\n"
    "map\n"
    "....................\n"
    "....@@..............\n"
    "....@@.......@@@@@@@\n"
    "....@@.......@.....@\n"
    "....@@.......@.....@\n"
    "....@@.......@@@@@@@\n"
    "....@@..............\n"
    "....@@....@.........\n"
    "....@@...@..........\n"
    ".........@...T......\n"
    "....@@..............\n"
    "....@@..........S...\n";

oracle::grid oracle_grid(const std::string& map_text) {
  std::vector<std::string> rows;
  const auto lines = lines_of(map_text);
  for (std::size_t k = 4; k < lines.size(); ++k) rows.push_back(lines[k]);
  return oracle::grid::from_rows(rows);
}

class cli_search : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fresh_scratch_dir("cli_search_test_scratch");
    data_ = data_dir();
    map_ = dir_ / "small.map";
    write_file(map_, kMapText);
  }

  run_result run(const std::string& args, const std::string& env = "",
                 const std::optional<fs::path>& cwd = std::nullopt) const {
    return run_in(dir_, args, env, cwd);
  }
  fs::path path(const std::string& name) const { return dir_ / name; }
  std::string db(const std::string& name) const { return quote(data_ / name); }
  std::string map_arg() const { return "--map " + quote(map_); }

  fs::path dir_, data_, map_;
};

nlohmann::json solve_json(const cli_search& t, const run_result& r) {
  (void)t;
  const nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << r.all();
  return j;
}

// ----------------------------------------------------------------------------- solve

TEST_F(cli_search, SolveTextReportsPathAndCheck) {
  const run_result r = run("solve " + map_arg() + " --from 0,0 --to 19,11 --lddb " + db("octile-3.lddb"));
  ASSERT_EQ(r.status, 0) << r.all();
  for (const char* s : {"algorithm  find-path, rule octile, heuristic octile", "database", "octile-3.lddb",
                        "query      cells (0,0) -> (19,11)", "status     found", "length     ", "waypoints  ",
                        "expanded   ", "heap ops   ", "time       ", "(median of 9 warm runs)\n", "check      valid"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s << "\n" << r.out;
  const double want = oracle::least_cost(lddb::rule::octile(), oracle_grid(kMapText), {0, 0}, {19, 11});
  char text[64];
  std::snprintf(text, sizeof text, "cost       %.6f (the rule's)\n", want);
  EXPECT_NE(r.out.find(text), std::string::npos) << "want " << want << "\n" << r.out;
}

// cost is the rule's (a diagonal at 1.5), length the Euclidean length of the waypoints:
// with diagonal 1.5 they differ, and each is what it says.
TEST_F(cli_search, SolveTellsCostFromLength) {
  const fs::path dir = data_dir();
  const fs::path db15 = dir / "octile-diagonal-1.5-3.lddb";
  if (!current(db15)) {
    const fs::path tmp = dir / ("octile-diagonal-1.5-3.lddb." + std::to_string(::getpid()));
    ASSERT_EQ(run("gen --rule octile:diagonal=1.5 --block 3 --zstd-level 1 --out " + quote(tmp)).status, 0);
    fs::rename(tmp, db15);
  }
  const lddb::rule r15 = *lddb::rule::parse("octile:diagonal=1.5");
  const run_result r = run("solve " + map_arg() + " --from 0,0 --to 19,11 --json --lddb " + quote(db15));
  ASSERT_EQ(r.status, 0) << r.all();
  const nlohmann::json j = nlohmann::json::parse(r.out);
  const double want_cost = oracle::least_cost(r15, oracle_grid(kMapText), {0, 0}, {19, 11});
  EXPECT_NEAR(j["cost"].get<double>(), want_cost, 1e-6) << r.out;
  double euclid = 0;
  for (std::size_t i = 1; i < j["path"].size(); ++i)
    euclid += std::hypot(j["path"][i][0].get<double>() - j["path"][i - 1][0].get<double>(),
                         j["path"][i][1].get<double>() - j["path"][i - 1][1].get<double>());
  EXPECT_NEAR(j["length"].get<double>(), euclid, 1e-9) << r.out;
  EXPECT_GT(j["cost"].get<double>(), j["length"].get<double>() + 0.5) << "a path with diagonals costs more at 1.5";
  // render draws the reference searches under --lddb's rule too, with both figures.
  const fs::path svg_path = path("diagonal-1.5.svg");
  const run_result v = run("render " + map_arg() + " --from 0,0 --to 19,11 --algo astar --algo block-astar --lddb " +
                           quote(db15) + " --out " + quote(svg_path));
  ASSERT_EQ(v.status, 0) << v.all();
  const std::string svg = read_file(svg_path);
  char want[96];
  std::snprintf(want, sizeof want, "astar (octile:diagonal=1.5): cost %.4f, length %.4f", want_cost,
                j["length"].get<double>());
  EXPECT_NE(svg.find(want), std::string::npos) << want << "\n" << svg;
  std::snprintf(want, sizeof want, "block-astar (octile:diagonal=1.5): cost %.4f", want_cost);
  EXPECT_NE(svg.find(want), std::string::npos) << want;
  const run_result t = run("solve " + map_arg() + " --from 0,0 --to 19,11 --lddb " + quote(db15));
  ASSERT_EQ(t.status, 0) << t.all();
  EXPECT_NE(t.out.find("cost       "), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("(Euclidean, of the waypoints)"), std::string::npos) << t.out;
}

TEST_F(cli_search, SolveEveryAlgorithmGivesACheckedOptimalOrValidPath) {
  const oracle::grid g = oracle_grid(kMapText);
  struct c {
    std::string args;
    lddb::rule rule;
    bool optimal;
    std::string searched;  // search_result::searched; "": Block A*, or the jumps it hands over to
  };
  const std::vector<c> cases{
      {"--algo astar", lddb::rule::octile(), true, "astar"},
      {"--algo astar --rule tile", lddb::rule::tile(), true, "astar"},
      {"--lddb " + db("octile-3.lddb"), lddb::rule::octile(), true, ""},
      {"--lddb " + db("tile-3.lddb"), lddb::rule::tile(), true, ""},
      {"--algo theta", lddb::rule::any_angle(), false, "theta_star"},
      {"--algo lazy-theta --heuristic zero", lddb::rule::any_angle(), false, "lazy_theta_star"},
      {"--lddb " + db("any-angle-3.lddb"), lddb::rule::any_angle(), false, ""},
      {"--lddb " + db("any-angle-3.lddb") + " --smooth", lddb::rule::any_angle(), false, ""},
      {"--lddb " + db("octile-3.lddb") + " --smooth", lddb::rule::octile(), true, ""},
      {"--algo jps", lddb::rule::octile(), true, "jump_point_search"},
  };
  for (const c& k : cases) {
    SCOPED_TRACE(k.args);
    const run_result r = run("solve " + map_arg() + " --from 2,11 --to 19,0 --json " + k.args);
    ASSERT_EQ(r.status, 0) << r.all();
    const nlohmann::json j = solve_json(*this, r);
    EXPECT_EQ(j["status"], "found");
    EXPECT_EQ(j["valid"], true);
    EXPECT_EQ(j["rule"], k.rule.name());
    ASSERT_GE(j["path"].size(), 2u);
    EXPECT_EQ(j["path"].front(), nlohmann::json({2, 11}));
    EXPECT_EQ(j["path"].back(), nlohmann::json({19, 0}));
    const double best = oracle::least_cost(k.rule, g, {2, 11}, {19, 0});
    const double got = j["length"].get<double>();
    if (k.optimal) {
      EXPECT_NEAR(got, best, 1e-6);
    } else {
      EXPECT_GE(got, best - 1e-6);  // any-angle: never shorter than the optimum
    }
    EXPECT_GT(j["expanded"].get<int>(), 0);
    EXPECT_EQ(j["searched"], k.searched.empty() ? (j["jump_point_search"].get<bool>() ? "jump_point_search" : "block_astar")
                                                : k.searched);
    EXPECT_GE(j["microseconds"].get<double>(), 0.0);
    EXPECT_EQ(j["timed_runs"], 9);  // the time is the median of 9 warm runs
  }
}

// The text and the JSON print the same cost and length (search_result's), the JSON at full
// precision, the text at 6 decimals; a smoothed any-angle path's cost is its length.
TEST_F(cli_search, SolveTextAndJsonAgreeOnCostAndLength) {
  const std::regex cost_line("\ncost +([0-9.]+) "), length_line("\nlength +([0-9.]+) ");
  for (const std::string& args :
       {"--lddb " + db("any-angle-3.lddb"), "--lddb " + db("any-angle-3.lddb") + " --raw", std::string("--algo theta"),
        "--lddb " + db("octile-3.lddb"), "--lddb " + db("octile-3.lddb") + " --smooth", std::string("--algo astar")}) {
    SCOPED_TRACE(args);
    const std::string solve = "solve " + map_arg() + " --from 0,0 --to 19,11 " + args;
    const run_result text = run(solve), json = run(solve + " --json");
    ASSERT_EQ(text.status, 0) << text.all();
    ASSERT_EQ(json.status, 0) << json.all();
    const nlohmann::json j = solve_json(*this, json);
    std::smatch c, l;
    ASSERT_TRUE(std::regex_search(text.out, c, cost_line)) << text.out;
    ASSERT_TRUE(std::regex_search(text.out, l, length_line)) << text.out;
    EXPECT_EQ(c[1].str().size() - c[1].str().find('.') - 1, 6u) << text.out;
    EXPECT_NEAR(std::stod(c[1].str()), j["cost"].get<double>(), 5.0000001e-7) << text.out << json.out;
    EXPECT_NEAR(std::stod(l[1].str()), j["length"].get<double>(), 5.0000001e-7) << text.out << json.out;
    const bool any_angle = args.find("octile") == std::string::npos && args.find("astar") == std::string::npos;
    const bool raw = args.find("--raw") != std::string::npos;
    EXPECT_EQ(j["smoothed"].get<bool>(), any_angle ? !raw : args.find("--smooth") != std::string::npos);
    // Smoothed any-angle: the cost is the segments' (to 2^-33 each); raw Block A*: the stored
    // lengths' sum, within 2^-12 a block; octile with the default diagonal: the length.
    EXPECT_NEAR(j["cost"].get<double>(), j["length"].get<double>(), raw ? 1e-2 : 1e-8) << json.out;
  }
  // The default any-angle path is the raw one smoothed: no more waypoints, no longer.
  const std::string any = "solve " + map_arg() + " --from 0,0 --to 19,11 --json --lddb " + db("any-angle-3.lddb");
  const nlohmann::json def = solve_json(*this, run(any)), raw = solve_json(*this, run(any + " --raw"));
  EXPECT_LE(def["path"].size(), raw["path"].size());
  EXPECT_LE(def["length"].get<double>(), raw["length"].get<double>() + 1e-9);
}

TEST_F(cli_search, SolveDefaultDatabaseComesFromTheDataDir) {
  const run_result r = run("solve " + map_arg() + " --from 0,0 --to 19,11", "LDDB_DATA_DIR=" + quote(data_));
  ASSERT_EQ(r.status, 0) << r.all();
  EXPECT_NE(r.out.find((data_ / "octile-4.lddb").string()), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(b=4)"), std::string::npos) << r.out;
  // An empty data folder: the missing database is named with the command that makes it.
  fs::create_directories(path("empty"));
  const run_result m = run("solve " + map_arg() + " --from 0,0 --to 19,11", "LDDB_DATA_DIR=" + quote(path("empty")));
  expect_clean_failure(m, (path("empty") / "octile-4.lddb").string(), 1);
  EXPECT_NE(m.err.find("lddb gen --rule octile --block 4"), std::string::npos) << m.err;
  const run_result a = run("solve " + map_arg() + " --from 0,0 --to 19,11 --rule any-angle",
                           "LDDB_DATA_DIR=" + quote(path("empty")));
  expect_clean_failure(a, "any-angle-4.lddb", 1);
}

// Any-angle Block A* uses open squares unless --fixed-blocks asks for the paper's blocks:
// on an empty map the squares expand fewer nodes, and neither path is longer than the
// other by more than rounding allows the fixed blocks' (the path checker passes both).
TEST_F(cli_search, SolveFixedBlocksAgainstOpenSquares) {
  std::string text = "type octile\nheight 30\nwidth 30\nmap\n";
  for (int y = 0; y < 30; ++y) text += std::string(30, '.') + "\n";
  write_file(path("empty.map"), text);
  const std::string args = "solve --map " + quote(path("empty.map")) + " --from 0,0 --to 29,17 --lddb " +
                           db("any-angle-3.lddb") + " --json --no-jumps";
  const run_result squares = run(args), fixed = run(args + " --fixed-blocks");
  ASSERT_EQ(squares.status, 0) << squares.all();
  ASSERT_EQ(fixed.status, 0) << fixed.all();
  const nlohmann::json a = solve_json(*this, squares), b = solve_json(*this, fixed);
  EXPECT_EQ(a["open_squares"], true) << squares.out;
  EXPECT_EQ(b["open_squares"], false) << fixed.out;
  EXPECT_EQ(a["valid"], true) << squares.out;
  EXPECT_EQ(b["valid"], true) << fixed.out;
  EXPECT_LT(a["expanded"].get<double>(), b["expanded"].get<double>()) << squares.out << fixed.out;
  EXPECT_LE(a["length"].get<double>(), b["length"].get<double>() + 1e-3) << squares.out << fixed.out;
  const run_result text_fixed = run("solve --map " + quote(path("empty.map")) + " --from 0,0 --to 29,17 --lddb " +
                                    db("any-angle-3.lddb") + " --fixed-blocks");
  ASSERT_EQ(text_fixed.status, 0) << text_fixed.all();
  EXPECT_NE(text_fixed.out.find("heuristic euclidean, smoothed, fixed blocks"), std::string::npos) << text_fixed.out;
}

// Without preparation tile and octile keep fixed blocks unless bench --open-squares asks for
// squares: the same lengths (the optima), fewer expansions on an empty map, and the label
// says which. Prepared (the default), a small map keeps fixed blocks too (squares pay on
// maps larger than 1024 x 1024).
TEST_F(cli_search, BenchOpenSquaresForTheCellRules) {
  std::string text = "type octile\nheight 40\nwidth 40\nmap\n";
  for (int y = 0; y < 40; ++y) text += std::string(40, '.') + "\n";
  write_file(path("empty.map"), text);
  write_file(path("empty.map.scen"), "version 1\n0\tempty.map\t40\t40\t0\t0\t39\t27\t0\n"
                                     "0\tempty.map\t40\t40\t3\t38\t36\t1\t0\n");
  for (const char* name : {"tile-3.lddb", "octile-3.lddb"}) {
    const std::string base = "bench --scen " + quote(path("empty.map.scen")) + " --lddb " + db(name);
    const run_result plain = run(base + " --no-prepare"), fixed = run(base + " --fixed-blocks --no-jumps"),
                     squares = run(base + " --open-squares"), prepared = run(base + " --no-jumps"),
                     jumped = run(base);
    // The file's optima are 0, so the octile rows count mismatches: exit 1, the same for all.
    EXPECT_EQ(plain.status, squares.status) << plain.all() << squares.all();
    EXPECT_EQ(fixed.status, squares.status) << fixed.all() << squares.all();
    EXPECT_EQ(squares.out.find("fixed blocks"), std::string::npos) << squares.out;
    EXPECT_NE(squares.out.find(", open squares)"), std::string::npos) << squares.out;
    EXPECT_EQ(plain.out.find("open squares"), std::string::npos) << plain.out;
    EXPECT_NE(prepared.out.find("open squares on 0 of them"), std::string::npos) << prepared.out;
    auto summary = [](const run_result& r) {  // mean length, mean expanded, invalid
      for (const std::string& line : lines_of(r.out)) {
        if (line.rfind("all ", 0) != 0) continue;
        std::istringstream in(line);
        std::string all, queries, found, len, opt, expanded, us, invalid;
        in >> all >> queries >> found >> len >> opt >> expanded >> us >> invalid;
        return std::vector<std::string>{len, expanded, invalid};
      }
      return std::vector<std::string>{};
    };
    const auto a = summary(plain), b = summary(fixed), c = summary(squares);
    ASSERT_EQ(a.size(), 3u) << plain.out;
    ASSERT_EQ(c.size(), 3u) << squares.out;
    EXPECT_EQ(a, b) << plain.out << fixed.out;  // fixed blocks are the default
    EXPECT_EQ(c[0], a[0]) << squares.out << plain.out;
    EXPECT_LT(std::stod(c[1]), std::stod(a[1])) << squares.out << plain.out;
    EXPECT_EQ(c[2], "0") << squares.out;
    EXPECT_EQ(summary(prepared), a) << prepared.out << plain.out;
    // By default the preparation hands the queries on this open map to jump point search:
    // the same lengths, fewer expansions.
    EXPECT_NE(jumped.out.find("jump point search on 1"), std::string::npos) << jumped.out;
    EXPECT_EQ(summary(jumped)[0], a[0]) << jumped.out;
    EXPECT_LT(std::stod(summary(jumped)[1]), std::stod(a[1])) << jumped.out;
    // --square-levels 2 keeps the 4 x 4-block squares: the same lengths, no fewer expansions
    // than the default's larger squares, and the label says so.
    const run_result small = run(base + " --open-squares --square-levels 2");
    EXPECT_NE(small.out.find(", open squares up to level 2)"), std::string::npos) << small.out;
    const auto d = summary(small);
    ASSERT_EQ(d.size(), 3u) << small.out;
    EXPECT_EQ(d[0], a[0]) << small.out;
    EXPECT_GE(std::stod(d[1]), std::stod(c[1])) << small.out << squares.out;
  }
  expect_clean_failure(run("bench --scen " + quote(path("empty.map.scen")) + " --lddb " + db("tile-3.lddb") +
                           " --open-squares --fixed-blocks"),
                       "exclude each other", 2);
  expect_clean_failure(run("bench --scen " + quote(path("empty.map.scen")) + " --lddb " + db("tile-3.lddb") +
                           " --open-squares --square-levels 5"),
                       "--square-levels", 2);
}

TEST_F(cli_search, SolveWithoutAPathExitsOne) {
  // (15,3) lies in the closed pocket
  const run_result r = run("solve " + map_arg() + " --from 0,0 --to 15,3 --lddb " + db("octile-3.lddb"));
  EXPECT_EQ(r.status, 1) << r.all();
  EXPECT_NE(r.out.find("status     no_path"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("no_path"), std::string::npos) << r.err;
  const run_result j = run("solve " + map_arg() + " --from 0,0 --to 15,3 --algo astar --json");
  EXPECT_EQ(j.status, 1) << j.all();
  EXPECT_EQ(solve_json(*this, j)["status"], "no_path");
}

TEST_F(cli_search, SolveStartEqualsGoal) {
  const run_result r = run("solve " + map_arg() + " --from 3,3 --to 3,3 --json --lddb " + db("octile-3.lddb"));
  ASSERT_EQ(r.status, 0) << r.all();
  const nlohmann::json j = solve_json(*this, r);
  EXPECT_EQ(j["valid"], true);
  EXPECT_EQ(j["length"].get<double>(), 0.0);
}

TEST_F(cli_search, SolveBadCoordinates) {
  const std::string base = "solve " + map_arg() + " --lddb " + db("octile-3.lddb");
  for (const char* bad : {"3;4", "a,b", "1,2,3", "", ",", "1,", " ,2", "0x1,2", "1.5,2", "99999999999,1"}) {
    SCOPED_TRACE(bad);
    expect_clean_failure(run(base + " --from " + quote(std::string(bad)) + " --to 1,1"), "--from", 2);
    expect_clean_failure(run(base + " --from 1,1 --to " + quote(std::string(bad))), "--to", 2);
  }
  expect_clean_failure(run(base + " --from 20,0 --to 1,1"), "off the 20x12 map", 2);
  expect_clean_failure(run(base + " --from -1,0 --to 1,1"), "--from", 2);
  expect_clean_failure(run(base + " --from 1,1 --to 4,1"), "cell (4,1) is blocked", 2);
  // any-angle: corners run 0..20 x 0..12; (20,12) is fine, (21,0) is not
  const std::string aa = "solve " + map_arg() + " --lddb " + db("any-angle-3.lddb");
  EXPECT_EQ(run(aa + " --from 0,0 --to 20,12").status, 0);
  expect_clean_failure(run(aa + " --from 0,0 --to 21,0"), "vertex (21,0) is off the 20x12 map", 2);
  // vertex (5,2) has blocked cells on all four sides
  expect_clean_failure(run(aa + " --from 5,2 --to 0,0"), "vertex (5,2) is surrounded by blocked cells", 2);
}

TEST_F(cli_search, SolveBadOptions) {
  const std::string q = " --from 0,0 --to 19,11";
  expect_clean_failure(run("solve " + map_arg() + q + " --algo dijkstra"), "dijkstra", 2);
  expect_clean_failure(run("solve " + map_arg() + q + " --algo astar --rule hexagonal"), "--rule", 2);
  expect_clean_failure(run("solve " + map_arg() + q + " --algo astar --heuristic wishful"), "--heuristic", 2);
  // A heuristic that overestimates the rule's costs gives longer paths: refused, also with a weight.
  for (const std::string& w : {std::string(""), std::string(" --weight 2")}) {
    expect_clean_failure(run("solve " + map_arg() + q + " --algo astar --heuristic manhattan" + w),
                         "--heuristic manhattan overestimates costs under rule octile", 2);
    expect_clean_failure(run("solve " + map_arg() + " --from 0,0 --to 19,11 --algo theta --heuristic octile" + w),
                         "the rule's own is euclidean", 2);
    expect_clean_failure(run("bench --scen x.scen --lddb " + db("any-angle-3.lddb") + " --heuristic manhattan" + w),
                         "rule any-angle", 2);
  }
  expect_clean_failure(run("solve " + map_arg() + q + " --smooth --raw"), "--smooth and --raw", 2);
  expect_clean_failure(run("solve " + map_arg() + q + " --rule tile --lddb " + db("octile-3.lddb")), "rule mismatch", 2);
  expect_clean_failure(run("solve " + map_arg() + q + " --algo astar --rule any-angle"), "rule mismatch", 2);
  expect_clean_failure(run("solve " + map_arg() + q + " --algo theta --rule octile"), "rule mismatch", 2);
  expect_clean_failure(run("solve " + map_arg() + q + " --algo lazy-theta --lddb " + db("tile-3.lddb")), "rule mismatch", 2);
  expect_clean_failure(run("solve --from 0,0 --to 1,1"), "--map", 2);
  expect_clean_failure(run("solve " + map_arg() + " --to 1,1 --algo astar"), "--from", 2);
}

TEST_F(cli_search, SolveBadFiles) {
  const std::string q = " --from 0,0 --to 1,1 --algo astar";
  const fs::path missing = path("nowhere.map");
  expect_clean_failure(run("solve --map " + quote(missing) + q), missing.string() + ": cannot open", 1);
  expect_clean_failure(run("solve --map " + quote(dir_) + q), dir_.string() + ": cannot open: is a directory", 1);
  const fs::path short_row = path("short.map");
  write_file(short_row, "type octile\nheight 2\nwidth 3\nmap\n...\n..\n");
  expect_clean_failure(run("solve --map " + quote(short_row) + q), short_row.string() + ":6: row 1 has 2 cells", 1);
  const fs::path huge = path("huge.map");
  write_file(huge, "type octile\nheight 1000000000\nwidth 1000000000\nmap\n");
  expect_clean_failure(run("solve --map " + quote(huge) + q), huge.string() + ":2: height 1000000000 is outside", 1);
  const fs::path no_db = path("none.lddb");
  expect_clean_failure(run("solve " + map_arg() + " --from 0,0 --to 1,1 --lddb " + quote(no_db)), no_db.string(), 1);
  const fs::path junk = path("junk.lddb");
  write_file(junk, "not a database");
  expect_clean_failure(run("solve " + map_arg() + " --from 0,0 --to 1,1 --lddb " + quote(junk)), junk.string(), 1);
}

// ----------------------------------------------------------------------------- bench

// Writes a scenario for the small map with octile optima from the oracle; returns the
// number of queries.
int write_scenario(const fs::path& scen, const std::string& map_field, bool old_format, double bias_on_line_3 = 0) {
  const oracle::grid g = oracle_grid(kMapText);
  const std::vector<std::pair<lddb::point, lddb::point>> queries{
      {{0, 0}, {19, 11}}, {{2, 11}, {19, 0}}, {{0, 11}, {12, 1}}, {{7, 9}, {8, 2}}, {{3, 3}, {3, 3}}, {{19, 6}, {0, 6}}};
  std::string text = old_format ? "version 1.0\n" : "version 1\n";
  int line = 1;
  for (const auto& [s, t] : queries) {
    ++line;
    double best = oracle::least_cost(lddb::rule::octile(), g, s, t);
    if (line == 3) best += bias_on_line_3;
    char buf[256];
    if (old_format)
      std::snprintf(buf, sizeof buf, "%d %s 20 12 %d %d %d %d %.2f\n", line, map_field.c_str(), s.x, s.y, t.x, t.y, best);
    else
      std::snprintf(buf, sizeof buf, "%d\t%s\t20\t12\t%d\t%d\t%d\t%d\t%.5f\r\n", line, map_field.c_str(), s.x, s.y, t.x,
                    t.y, best);
    text += buf;
  }
  write_file(scen, text);
  return static_cast<int>(queries.size());
}

TEST_F(cli_search, BenchWritesCsvPathsAndSummary) {
  const fs::path scen = path("small.map.scen");
  const int n = write_scenario(scen, "maps/somewhere/small.map", false);
  const fs::path csv = path("out.csv"), paths = path("paths.txt");
  const run_result r = run("bench --scen " + quote(scen) + " --lddb " + db("octile-3.lddb") + " --csv " + quote(csv) +
                           " --paths " + quote(paths));
  ASSERT_EQ(r.status, 0) << r.all();
  EXPECT_NE(r.out.find("find-path (octile)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("mean expanded"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("small.map"), std::string::npos) << r.out;
  // the summary: n queries, n found, 0 invalid, 0 mismatches
  bool saw_all = false;
  for (const std::string& line : lines_of(r.out)) {
    if (line.rfind("all ", 0) != 0) continue;
    saw_all = true;
    std::istringstream in(line);
    std::string name, queries, found, len, opt, exp, us, invalid, mism;
    in >> name >> queries >> found >> len >> opt >> exp >> us >> invalid >> mism;
    EXPECT_EQ(queries, std::to_string(n));
    EXPECT_EQ(found, std::to_string(n));
    EXPECT_NEAR(std::stod(len), std::stod(opt), 1.5e-3);
    EXPECT_EQ(invalid, "0");
    EXPECT_EQ(mism, "0");
  }
  EXPECT_TRUE(saw_all) << r.out;

  const auto rows = lines_of(read_file(csv));
  ASSERT_EQ(rows.size(), static_cast<std::size_t>(n + 1));
  EXPECT_EQ(rows[0],
            "id,scenario,line,map,bucket,start_x,start_y,goal_x,goal_y,status,length,optimal,expanded,heap_ops,"
            "nanoseconds,valid");
  for (int k = 1; k <= n; ++k) {
    const std::string& row = rows[static_cast<std::size_t>(k)];
    EXPECT_EQ(row.rfind(std::to_string(k - 1) + ",", 0), 0u) << row;
    EXPECT_EQ(std::count(row.begin(), row.end(), ','), 15) << row;
    EXPECT_EQ(row.substr(row.size() - 2), ",1") << row;
    EXPECT_NE(row.find(",found,"), std::string::npos) << row;
  }
  const auto p = lines_of(read_file(paths));
  ASSERT_EQ(p.size(), static_cast<std::size_t>(n));
  EXPECT_EQ(p[0].rfind("0 0,0 ", 0), 0u) << p[0];
  EXPECT_EQ(p[0].substr(p[0].size() - 6), " 19,11") << p[0];
  EXPECT_EQ(p[4], "4 3,3") << "start = goal: one point";
  // no temporary files left behind
  for (const auto& e : fs::directory_iterator(dir_))
    EXPECT_EQ(e.path().filename().string().find(".tmp-"), std::string::npos) << e.path();
}

TEST_F(cli_search, BenchOldFormatAndOtherAlgorithms) {
  const fs::path scen = path("bg") / "small.map.scen";
  fs::create_directories(scen.parent_path());
  fs::copy_file(map_, scen.parent_path() / "small.map");
  const int n = write_scenario(scen, "maps/bgmaps/small.map", true);  // 2 decimals
  for (const std::string& algo : {std::string("--algo astar"), "--lddb " + db("octile-3.lddb"),
                                  "--lddb " + db("octile-3.lddb") + " --smooth", std::string("--algo theta"),
                                  std::string("--algo lazy-theta"), "--lddb " + db("any-angle-3.lddb")}) {
    SCOPED_TRACE(algo);
    const fs::path csv = path("o.csv");
    const run_result r = run("bench --scen " + quote(scen) + " " + algo + " --csv " + quote(csv));
    ASSERT_EQ(r.status, 0) << r.all();
    EXPECT_EQ(lines_of(read_file(csv)).size(), static_cast<std::size_t>(n + 1));
    if (algo.find("theta") != std::string::npos || algo.find("any-angle") != std::string::npos) {
      EXPECT_NE(r.out.find("not checked against them"), std::string::npos) << r.out;
    }
    // The summary says whether the paths were smoothed: any-angle ones are by default.
    const bool smoothed = algo.find("--smooth") != std::string::npos || algo.find("theta") != std::string::npos ||
                          algo.find("any-angle") != std::string::npos;
    EXPECT_EQ(r.out.find("paths smoothed") != std::string::npos, smoothed) << r.out;
  }
}

TEST_F(cli_search, BenchCountsOctileMismatches) {
  const fs::path scen = path("small.map.scen");
  write_scenario(scen, "small.map", false, 0.5);  // line 3 claims an optimum 0.5 too long
  const run_result r = run("bench --scen " + quote(scen) + " --algo astar");
  expect_clean_failure(r, "1 octile mismatches", 1);
  EXPECT_NE(r.err.find(scen.string() + ":3: length"), std::string::npos) << r.err;
  // the same file under tile is not compared with octile optima
  EXPECT_EQ(run("bench --scen " + quote(scen) + " --algo astar --rule tile").status, 0);
}

TEST_F(cli_search, BenchFolderSortedWithLimit) {
  for (const char* sub : {"b", "a", "a/deeper"}) {
    const fs::path scen = path("suite") / sub / "small.map.scen";
    fs::create_directories(scen.parent_path());
    fs::copy_file(map_, scen.parent_path() / "small.map");
    write_scenario(scen, "maps/x/small.map", false);
  }
  write_file(path("suite") / "notes.txt", "not a scenario");
  const fs::path csv = path("all.csv");
  const run_result r =
      run("bench --scen " + quote(path("suite")) + " --algo astar --limit 2 --csv " + quote(csv));
  ASSERT_EQ(r.status, 0) << r.all();
  EXPECT_NE(r.out.find("3 scenario files, 6 queries"), std::string::npos) << r.out;
  const auto rows = lines_of(read_file(csv));
  ASSERT_EQ(rows.size(), 7u);
  // sorted: a/deeper, a, b (path order: "a/deeper/..." < "a/small..." < "b/...")
  EXPECT_NE(rows[1].find("/suite/a/deeper/small.map.scen"), std::string::npos) << rows[1];
  EXPECT_NE(rows[3].find("/suite/a/small.map.scen"), std::string::npos) << rows[3];
  EXPECT_NE(rows[5].find("/suite/b/small.map.scen"), std::string::npos) << rows[5];
  // one summary row per folder, named relative to --scen
  for (const char* f : {"\na/deeper ", "\na ", "\nb ", "\nall "})
    EXPECT_NE(r.out.find(f), std::string::npos) << f << "\n" << r.out;
}

TEST_F(cli_search, BenchExplicitMap) {
  const fs::path scen = path("q.scen");
  write_scenario(scen, "maps/elsewhere/other-name.map", false);
  const std::string base = "bench --scen " + quote(scen) + " --algo astar";
  expect_clean_failure(run(base), "other-name.map not found", 1);
  EXPECT_NE(run(base).err.find("--map"), std::string::npos);
  EXPECT_EQ(run(base + " --map " + quote(map_)).status, 0);
}

TEST_F(cli_search, BenchBadInputs) {
  const fs::path scen = path("small.map.scen");
  write_scenario(scen, "small.map", false);
  expect_clean_failure(run("bench --scen " + quote(path("none.scen")) + " --algo astar"), path("none.scen").string(), 1);
  fs::create_directories(path("emptydir"));
  expect_clean_failure(run("bench --scen " + quote(path("emptydir")) + " --algo astar"), "no .scen file", 1);
  const fs::path bad = path("bad.scen");
  write_file(bad, "version 1\n0\tsmall.map\t20\t12\t0\t0\t1\tx\t1\n");
  expect_clean_failure(run("bench --scen " + quote(bad) + " --algo astar"), bad.string() + ":2: goal y 'x'", 1);
  const fs::path wrong_size = path("size.scen");
  write_file(wrong_size, "version 1\n0\tsmall.map\t30\t12\t0\t0\t1\t1\t1.41421\n");
  expect_clean_failure(run("bench --scen " + quote(wrong_size) + " --algo astar"), "30x12", 1);
  const fs::path off_map = path("off.scen");
  write_file(off_map, "version 1\n0\tsmall.map\t20\t12\t20\t1\t0\t0\t1\n");
  expect_clean_failure(run("bench --scen " + quote(off_map) + " --algo astar"), off_map.string() + ":2: start (20,1) is off the", 1);
  expect_clean_failure(run("bench --scen " + quote(path("emptydir")) + " --map " + quote(map_) + " --algo astar"),
                       "--map", 2);
  expect_clean_failure(run("bench --scen " + quote(scen) + " --algo astar --limit 0"), "--limit", 2);
  expect_clean_failure(run("bench --scen " + quote(scen) + " --algo bfs"), "bfs", 2);
  expect_clean_failure(run("bench --scen " + quote(scen) + " --algo theta --rule tile"), "rule mismatch", 2);
  const fs::path nowhere = path("no/such/dir/out.csv");
  expect_clean_failure(run("bench --scen " + quote(scen) + " --algo astar --csv " + quote(nowhere)), nowhere.string(), 1);
  expect_clean_failure(run("bench --algo astar"), "--scen", 2);
}

// Scenario files hold a few queries from or to cells a ground unit cannot stand on (water,
// trees): they are counted as skipped, in order in the CSV, and are no failure.
TEST_F(cli_search, BenchSkipsQueriesWhoseStartOrGoalIsNotPassable) {
  const fs::path scen = path("small.map.scen");
  const oracle::grid g = oracle_grid(kMapText);
  ASSERT_TRUE(g.blocked(4, 1) && g.blocked(13, 9) && !g.blocked(16, 11));  // '@', 'T', 'S' in kMapText
  const double to_swamp = oracle::least_cost(lddb::rule::octile(), g, {0, 0}, {16, 11});
  char text[512];
  std::snprintf(text, sizeof text,
                "version 1\n0\tsmall.map\t20\t12\t4\t1\t0\t0\t5\n"  // start blocked
                "0\tsmall.map\t20\t12\t0\t0\t16\t11\t%.5f\n"         // goal on swamp: passable
                "0\tsmall.map\t20\t12\t0\t0\t13\t9\t15\n",           // goal on trees
                to_swamp);
  write_file(scen, text);
  const fs::path csv = path("skip.csv");
  for (const std::string& algo : {std::string("--algo astar"), "--lddb " + db("octile-3.lddb"), std::string("--algo theta")}) {
    SCOPED_TRACE(algo);
    const run_result r = run("bench --scen " + quote(scen) + " " + algo + " --csv " + quote(csv));
    ASSERT_EQ(r.status, 0) << r.all();
    EXPECT_NE(r.out.find("1 scenario file, 3 queries (2 skipped)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("skipped: start/goal not passable: 2 of 3 queries (first: " + scen.string() +
                         ":2: start (4,1) is blocked)"),
              std::string::npos)
        << r.out;
    bool saw_all = false;
    for (const std::string& line : lines_of(r.out)) {
      if (line.rfind("all ", 0) != 0) continue;
      saw_all = true;
      std::istringstream in(line);
      std::string name, queries, found, len, opt, exp, us, invalid, mism, skipped;
      in >> name >> queries >> found >> len >> opt >> exp >> us >> invalid >> mism >> skipped;
      EXPECT_EQ(queries, "1");
      EXPECT_EQ(found, "1");
      EXPECT_EQ(skipped, "2");
    }
    EXPECT_TRUE(saw_all) << r.out;
    const auto rows = lines_of(read_file(csv));
    ASSERT_EQ(rows.size(), 4u);
    EXPECT_NE(rows[1].find(",4,1,0,0,skipped,"), std::string::npos) << rows[1];
    EXPECT_NE(rows[2].find(",found,"), std::string::npos) << rows[2];
    EXPECT_NE(rows[3].find(",skipped,"), std::string::npos) << rows[3];
  }
}

// With stderr in a file, progress is a plain line every LDDB_PROGRESS_INTERVAL seconds
// (0: after every batch), so a long run redirected to a log is not silent.
TEST_F(cli_search, BenchPrintsPlainProgressWhenStderrIsNotATerminal) {
  const fs::path scen = path("small.map.scen");
  const int n = write_scenario(scen, "small.map", false);
  const std::string cmd = "bench --scen " + quote(scen) + " --algo astar";
  const run_result every = run(cmd, "LDDB_PROGRESS_INTERVAL=0");
  ASSERT_EQ(every.status, 0) << every.all();
  const std::string want = "lddb bench: " + std::to_string(n) + "/" + std::to_string(n) + " queries, ";
  EXPECT_NE(every.err.find(want), std::string::npos) << every.err;
  EXPECT_NE(every.err.find(" s elapsed\n"), std::string::npos) << every.err;
  EXPECT_EQ(every.err.find('\r'), std::string::npos) << "no terminal control in a file";
  const run_result rare = run(cmd, "LDDB_PROGRESS_INTERVAL=3600");
  ASSERT_EQ(rare.status, 0) << rare.all();
  EXPECT_EQ(rare.err, "") << "nothing before the interval has passed";
  expect_clean_failure(run(cmd, "LDDB_PROGRESS_INTERVAL=soon"), "LDDB_PROGRESS_INTERVAL 'soon'", 2);
  EXPECT_NE(run("bench --help").out.find("LDDB_PROGRESS_INTERVAL"), std::string::npos);
}

// A map cluttered with rock, trees, water and swamp, whose scenario's optima are the
// oracle's under one corner rule: bench under another rule names it.
TEST_F(cli_search, BenchNamesTheCornerRuleTheOptimaAssume) {
  const int w = 48, h = 36;
  std::mt19937 rng(11);
  std::string text = "type octile\nheight " + std::to_string(h) + "\nwidth " + std::to_string(w) + "\nmap\n";
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const unsigned v = rng() % 100;
      text += v < 16 ? '@' : v < 22 ? 'T' : v < 28 ? 'W' : v < 34 ? 'S' : '.';
    }
    text += '\n';
  }
  write_file(path("clutter.map"), text);
  const oracle::grid g = oracle_grid(text);
  const lddb::rule forbidden = lddb::rule::octile(), one_side = lddb::rule::octile(lddb::corner_cutting::one_side_free),
                   allowed = lddb::rule::octile(lddb::corner_cutting::allowed);
  std::string scen = "version 1\n";
  int queries = 0, differ_forbidden = 0, differ_allowed = 0;
  while (queries < 120) {
    const lddb::point s{static_cast<int>(rng() % w), static_cast<int>(rng() % h)};
    const lddb::point t{static_cast<int>(rng() % w), static_cast<int>(rng() % h)};
    if (g.blocked(s.x, s.y) || g.blocked(t.x, t.y)) continue;
    const double f = oracle::least_cost(forbidden, g, s, t);
    if (std::isinf(f)) continue;  // every rule reaches it
    const double o = oracle::least_cost(one_side, g, s, t), a = oracle::least_cost(allowed, g, s, t);
    differ_forbidden += std::abs(f - o) > 1e-3;
    differ_allowed += std::abs(a - o) > 1e-3;
    char line[160];
    std::snprintf(line, sizeof line, "0\tclutter.map\t%d\t%d\t%d\t%d\t%d\t%d\t%.5f\n", w, h, s.x, s.y, t.x, t.y, o);
    scen += line;
    ++queries;
  }
  // The premise: both neighbouring rules are off on well over 1% of the queries.
  ASSERT_GT(differ_forbidden, queries / 20);
  ASSERT_GT(differ_allowed, queries / 20);
  write_file(path("clutter.map.scen"), scen);
  const std::string base = "bench --scen " + quote(path("clutter.map.scen")) + " --algo astar";
  const std::string advice = "the scenario's optima look like octile:corners=one-side-free: rerun with --rule "
                             "octile:corners=one-side-free";
  const run_result strict = run(base);
  EXPECT_EQ(strict.status, 1) << strict.all();
  EXPECT_NE(strict.out.find(advice), std::string::npos) << strict.out;
  EXPECT_NE(strict.err.find(std::to_string(differ_forbidden) + " octile mismatches"), std::string::npos) << strict.err;
  const run_result loose = run(base + " --rule octile:corners=allowed");
  EXPECT_EQ(loose.status, 1) << loose.all();
  EXPECT_NE(loose.out.find(advice), std::string::npos) << loose.out;
  const run_result right = run(base + " --rule octile:corners=one-side-free");
  EXPECT_EQ(right.status, 0) << right.all();
  EXPECT_EQ(right.out.find("look like"), std::string::npos) << right.out;
  // Block A* also needs a database for the rule it is told to use.
  const run_result block = run("bench --scen " + quote(path("clutter.map.scen")) + " --lddb " + db("octile-3.lddb"));
  EXPECT_EQ(block.status, 1) << block.all();
  EXPECT_NE(block.out.find(advice + " (Block A* needs a database for it: lddb gen --rule octile:corners=one-side-free"),
            std::string::npos)
      << block.out;
}

// ----------------------------------------------------------------------------- render

TEST_F(cli_search, RenderMapOnly) {
  const fs::path out = path("map.svg");
  const run_result r = run("render " + map_arg() + " --out " + quote(out));
  ASSERT_EQ(r.status, 0) << r.all();
  const std::string svg = read_file(out);
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
  EXPECT_NE(svg.find("<svg xmlns=\"http://www.w3.org/2000/svg\""), std::string::npos);
  EXPECT_EQ(count_of(svg, "<polyline"), 0);
  EXPECT_EQ(count_of(svg, "<svg"), 1);
  EXPECT_EQ(count_of(svg, "<g"), count_of(svg, "</g>"));
}

TEST_F(cli_search, RenderSeveralSearches) {
  const fs::path out = path("paths.svg");
  // block-astar:any-angle takes --lddb (b = 3), block-astar:octile the shipped octile-4
  const run_result r = run("render " + map_arg() + " --from 2,11 --to 19,0 --algo block-astar:any-angle --algo theta "
                           "--algo astar --algo block-astar:octile --lddb " + db("any-angle-3.lddb") +
                           " --out " + quote(out), "LDDB_DATA_DIR=" + quote(data_));
  ASSERT_EQ(r.status, 0) << r.all();
  EXPECT_NE(r.out.find("wrote " + out.string()), std::string::npos) << r.out;
  const std::string svg = read_file(out);
  EXPECT_EQ(count_of(svg, "<polyline"), 4);
  for (const char* s : {"block-astar (any-angle): cost", "theta (any-angle): cost", "astar (octile): cost",
                        "block-astar (octile): cost", "valid", "start (2,11)", "goal (19,0)", "expanded"})
    EXPECT_NE(svg.find(s), std::string::npos) << s;
  EXPECT_EQ(svg.find("INVALID"), std::string::npos);
  EXPECT_EQ(count_of(svg, "<g"), count_of(svg, "</g>"));
  // Each search's time, on standard output and in the picture, is a warm one.
  EXPECT_EQ(count_of(r.out, "(median of 9 warm runs)"), 4) << r.out;
  EXPECT_EQ(count_of(svg, "(median of 9 warm runs)"), 4);
  // the any-angle path runs through corners, the octile one through cell centres
  EXPECT_NE(svg.find("points=\"2,11 "), std::string::npos);
  EXPECT_NE(svg.find("points=\"2.5,11.5 "), std::string::npos);
  for (const auto& e : fs::directory_iterator(dir_))
    EXPECT_EQ(e.path().filename().string().find(".tmp-"), std::string::npos) << e.path();
}

TEST_F(cli_search, RenderLargeMapStaysSmall) {
  const fs::path shared = lddb_test::benchmark_maps_dir() / "bg512" / "AR0500SR.map";
  if (!fs::exists(shared)) LDDB_MAPS_MISSING("missing benchmark map " << shared.string());
  const fs::path out = path("ar.svg");
  const run_result r = run("render --map " + quote(shared) + " --from 81,452 --to 246,138 --algo astar --algo theta "
                           "--out " + quote(out));
  ASSERT_EQ(r.status, 0) << r.all();
  EXPECT_LT(fs::file_size(out), 1'000'000u);
}

TEST_F(cli_search, RenderBadInputs) {
  const fs::path out = path("x.svg");
  const std::string o = " --out " + quote(out);
  expect_clean_failure(run("render " + map_arg() + " --from 0,0" + o), "--to", 2);
  expect_clean_failure(run("render " + map_arg() + " --to 0,0" + o), "--from", 2);
  expect_clean_failure(run("render " + map_arg() + " --from 0,0 --to 4,1 --algo astar" + o), "blocked", 2);
  expect_clean_failure(run("render " + map_arg() + " --from 0,0 --to 1,1 --algo astar:hexagonal" + o), "hexagonal", 2);
  expect_clean_failure(run("render " + map_arg() + " --from 0,0 --to 1,1 --algo warp" + o), "warp", 2);
  expect_clean_failure(run("render " + map_arg() + " --from 0,0 --to 1,1 --algo theta:octile" + o), "rule mismatch", 2);
  expect_clean_failure(run("render --map " + quote(path("none.map")) + o), path("none.map").string(), 1);
  EXPECT_FALSE(fs::exists(out));
  const fs::path nowhere = path("no/such/x.svg");
  expect_clean_failure(run("render " + map_arg() + " --out " + quote(nowhere)), nowhere.string(), 1);
  expect_clean_failure(run("render " + map_arg() + " --out " + quote(dir_)), dir_.string(), 1);
  expect_clean_failure(run("render " + map_arg()), "--out", 2);
}

// ----------------------------------------------------------------------------- demo

// Hue in degrees of "#rrggbb".
double hue_of(const std::string& hex) {
  const double r = std::stoi(hex.substr(1, 2), nullptr, 16) / 255.0, g = std::stoi(hex.substr(3, 2), nullptr, 16) / 255.0,
               b = std::stoi(hex.substr(5, 2), nullptr, 16) / 255.0;
  const double mx = std::max({r, g, b}), mn = std::min({r, g, b}), d = mx - mn;
  if (d == 0) return 0;
  const double h = mx == r ? std::fmod((g - b) / d, 6.0) : mx == g ? (b - r) / d + 2 : (r - g) / d + 4;
  return std::fmod(h * 60 + 360, 360);
}

// The picture tells the three searches apart: each path and its expanded area in one
// colour of distinct hue, each area hatched at its own angle (overlaps cross-hatch rather
// than blend), a legend entry for each, and start and goal markers in colours no path has.
void expect_searches_told_apart(const std::string& svg) {
  std::vector<std::string> paths;
  const std::regex polyline("<polyline[^>]* stroke=\"(#[0-9a-f]{6})\"");
  for (std::sregex_iterator it(svg.begin(), svg.end(), polyline), end; it != end; ++it) paths.push_back((*it)[1]);
  ASSERT_EQ(paths.size(), 3u) << svg.substr(0, 2000);
  std::set<int> angles;
  for (std::size_t k = 0; k < paths.size(); ++k) {
    SCOPED_TRACE("search " + std::to_string(k) + " " + paths[k]);
    for (std::size_t j = 0; j < k; ++j) {
      const double gap = std::abs(hue_of(paths[k]) - hue_of(paths[j]));
      EXPECT_GE(std::min(gap, 360 - gap), 30) << paths[j] << " and " << paths[k] << " are too alike";
    }
    const std::string id = "expanded-" + std::to_string(k);
    std::smatch m;
    const std::regex pattern("<pattern id=\"" + id + "\"[^>]*rotate\\((-?[0-9]+)\\)\"><line[^>]* stroke=\"(#[0-9a-f]{6})\"");
    ASSERT_TRUE(std::regex_search(svg, m, pattern)) << id;
    EXPECT_EQ(m[2].str(), paths[k]) << "the area's hatching has the path's colour";
    angles.insert(std::stoi(m[1].str()));
    EXPECT_GE(count_of(svg, "fill=\"url(#" + id + ")\""), 2) << "the area and its legend swatch";
  }
  EXPECT_EQ(angles.size(), 3u) << "each area hatched at its own angle";
  for (const char* label : {"Block A* (any-angle): cost", "Theta* (any-angle): cost", "A* (octile): cost", ">start<", ">goal<",
                            "what it expanded"})
    EXPECT_NE(svg.find(label), std::string::npos) << label;
  std::smatch start, goal;
  ASSERT_TRUE(std::regex_search(svg, start, std::regex("<circle[^>]* fill=\"(#[0-9a-f]{6})\"[^>]*><title>start ")));
  ASSERT_TRUE(std::regex_search(svg, goal, std::regex("<rect[^>]* fill=\"(#[0-9a-f]{6})\"[^>]*><title>goal ")));
  EXPECT_NE(start[1].str(), goal[1].str());
  for (const std::string& c : paths) {
    EXPECT_NE(start[1].str(), c) << "the start marker shares a path's colour";
    EXPECT_NE(goal[1].str(), c) << "the goal marker shares a path's colour";
  }
}

TEST_F(cli_search, DemoPrintsTheTableAndWritesThePicture) {
  // any-angle-4.lddb is missing from the data folder: the demo builds it in memory.
  const run_result r = run("demo --queries 4", "LDDB_DATA_DIR=" + quote(data_), dir_);
  ASSERT_EQ(r.status, 0) << r.all();
  for (const char* s : {"algorithm", "mean length", "mean expanded", "speed-up vs A*", "A*  ", "Block A*", "Theta*",
                        "Lazy Theta*", "Block A* + smoothing", "4/4", "generated in memory",
                        "lengths equal to A*'s (optimal): 4 of 4", "lddb-demo.svg"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s << "\n" << r.out;
  EXPECT_NE(r.out.find((data_ / "octile-4.lddb").string()), std::string::npos) << r.out;
  // Two lines say what the names in the table mean.
  const auto out_lines = lines_of(r.out);
  ASSERT_GE(out_lines.size(), 3u);
  EXPECT_EQ(out_lines[1].rfind("Block A*: A* over blocks of 4x4 cells", 0), 0u) << r.out;
  EXPECT_NE(out_lines[1].find("precomputed database"), std::string::npos) << r.out;
  EXPECT_EQ(out_lines[2].rfind("Octile: ", 0), 0u) << r.out;
  EXPECT_NE(out_lines[2].find("; any-angle: "), std::string::npos) << r.out;
  const std::string svg = read_file(path("lddb-demo.svg"));
  EXPECT_EQ(count_of(svg, "<polyline"), 3);
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
  expect_searches_told_apart(svg);
  // the same again is the same table apart from the times (the columns after expansions)
  const run_result again = run("demo --queries 4 --out " + quote(path("again.svg")), "LDDB_DATA_DIR=" + quote(data_));
  ASSERT_EQ(again.status, 0) << again.all();
  auto table = [](const std::string& out) {
    std::vector<std::string> rows;
    std::size_t end = std::string::npos;
    for (const std::string& line : lines_of(out)) {
      if (line.rfind("algorithm ", 0) == 0) end = line.find("mean expanded") + 13;
      else if (end != std::string::npos && line.empty()) break;
      if (end != std::string::npos) rows.push_back(line.substr(0, end));
    }
    return rows;
  };
  EXPECT_EQ(table(again.out).size(), 7u) << again.out;
  EXPECT_EQ(table(again.out), table(r.out));
}

TEST_F(cli_search, DemoBadOutput) {
  const fs::path nowhere = path("no/such/demo.svg");
  expect_clean_failure(run("demo --queries 1 --out " + quote(nowhere), "LDDB_DATA_DIR=" + quote(data_)),
                       nowhere.string(), 1);
  expect_clean_failure(run("demo --queries 0"), "--queries", 2);
}

// The help of every command that opens a database names each place it is looked for, in
// the order of lddb/data_dir.hpp.
TEST_F(cli_search, HelpNamesEveryPlaceADatabaseIsLookedFor) {
  for (const char* sub : {"solve", "bench", "render"}) {
    const run_result r = run(std::string(sub) + " --help");
    ASSERT_EQ(r.status, 0) << sub << "\n" << r.all();
    std::size_t at = 0;
    for (const char* place : {"--lddb names", "$LDDB_DATA_DIR", "share/lddb beside the program's folder",
                              "beside the folder of the shared library liblddb", "install prefix configured at build time",
                              "the source tree's lddb/, only for a program run from its build tree"}) {
      const std::size_t found = r.out.find(place, at);
      EXPECT_NE(found, std::string::npos) << sub << " --help lacks, or has out of order: " << place << "\n" << r.out;
      if (found != std::string::npos) at = found;
    }
  }
}

TEST_F(cli_search, HelpForEveryCommand) {
  for (const char* sub : {"solve", "bench", "render", "demo"}) {
    const run_result r = run(std::string(sub) + " --help");
    EXPECT_EQ(r.status, 0) << sub << "\n" << r.all();
    EXPECT_NE(r.out.find("Usage"), std::string::npos) << r.out;
  }
  expect_clean_failure(run("sovle"), "sovle", 2);
}

}  // namespace
