// `lddb-bench suite paper` (bench/), run through the built program (LDDB_BENCH) on a tiny
// configuration that takes well under a second: two obstacle densities on 32x32 random
// maps, a 24x24 empty map for Table 2, and a maps folder written by the test (an open map
// whose queries have known lengths, and a walled map). Every run writes its document and
// chart into the test's scratch folder, or prints the tables, never into docs/.
//
//   ChunkingChangesNoResult  --chunk orders the searches but changes no length or expansion
//   TablesOnStdout           without --doc and --svg: summary and full tables on stdout, no file
//   FullTables               the full tables' rows, numeric cells and the relations that must
//                            hold (any-angle lengths <= octile A*'s), and the summary rows are
//                            the full tables' figures
//   TinySuite                the document holds the summary only: its rows, cells and checks
//   SummaryIsTheSameRun      --doc and stdout runs of one seed agree on every column but times
//   EvenlySpacedLimit        --limit N takes the middle of N equal slices of a file
//   SameSeedSameTables       the seed fixes maps, pairs, lengths and expansions
//   HandWrittenTextSurvives  only the region between the markers changes; appended when absent
//   SvgIsWellFormed          balanced tags, one <svg> root, bars and labels
//   MissingMapsFolder        reported on stderr and in the document, then skipped
//   BadOptions               each wrong command line: exit 2 (or 1) and a message naming it
//   FailedWrite              a write that fails leaves the old files and no temporary behind
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli_support.hpp"

namespace {

using namespace cli_support;

// ----------------------------------------------------------------------------- fixtures

std::string map_text(const std::vector<std::string>& rows) {
  std::string s =
      "type octile\nheight " + std::to_string(rows.size()) + "\nwidth " + std::to_string(rows[0].size()) + "\nmap\n";
  for (const std::string& r : rows) s += r + "\n";
  return s;
}

// folder/tiny: open.map (16x16, free) with 10 queries along the top row of lengths 1..10,
// and walls.map (24x24) with a wall crossed by one gap and a few queries around it.
void write_maps(const fs::path& root) {
  write_file(root / "tiny" / "open.map", map_text(std::vector<std::string>(16, std::string(16, '.'))));
  std::string scen = "version 1\n";
  for (int k = 1; k <= 10; ++k)
    scen += "0\topen.map\t16\t16\t0\t0\t" + std::to_string(k) + "\t0\t" + std::to_string(k) + "\n";
  write_file(root / "tiny" / "open.map.scen", scen);

  std::vector<std::string> rows(24, std::string(24, '.'));
  for (int y = 0; y < 24; ++y)
    if (y != 17) rows[static_cast<std::size_t>(y)][11] = '@';  // a wall at x = 11 with a gap at y = 17
  for (int x = 3; x < 9; ++x) rows[5][static_cast<std::size_t>(x)] = 'T';
  rows[20][20] = '@';
  rows[21][19] = '@';
  write_file(root / "tiny" / "walls.map", map_text(rows));
  write_file(root / "tiny" / "walls.map.scen",
             "version 1\n"
             "0\twalls.map\t24\t24\t1\t1\t22\t2\t30\n"
             "0\twalls.map\t24\t24\t4\t2\t5\t9\t7\n"
             "1\twalls.map\t24\t24\t0\t23\t23\t0\t40\n"
             "1\twalls.map\t24\t24\t18\t22\t22\t18\t6\n"
             "2\twalls.map\t24\t24\t10\t0\t12\t0\t40\n");
}

class SuiteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fresh_scratch_dir("suite_test");
    maps_ = dir_ / "maps";
    write_maps(maps_);
  }
  std::string p(const std::string& name) const { return quote(dir_ / name); }
  // The tiny configuration, its tables on stdout.
  std::string tiny_out(int seed = 7, const std::optional<fs::path>& maps = std::nullopt) const {
    return "suite paper --random-side 32 --densities 0,20 --maps-per-density 1 --pairs 4 --empty-side 24 "
           "--empty-pairs 3 --limit 3 --seed " +
           std::to_string(seed) + " --maps " + quote(maps ? *maps : maps_);
  }
  // The tiny configuration, writing `doc` and `svg` in the scratch folder.
  std::string tiny(const std::string& doc = "doc.md", const std::string& svg = "chart.svg", int seed = 7,
                   const std::optional<fs::path>& maps = std::nullopt) const {
    return tiny_out(seed, maps) + " --doc " + p(doc) + " --svg " + p(svg);
  }
  run_result run(const std::string& args, const std::string& env = "", const std::optional<fs::path>& cwd = std::nullopt) {
    return run_program_in(LDDB_BENCH, dir_, args, env, cwd);
  }
  fs::path dir_, maps_;
};

// ----------------------------------------------------------------------------- reading the document

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.pop_back();
  while (!s.empty() && s.front() == ' ') s.erase(s.begin());
  return s;
}

std::vector<std::string> cells_of(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream in(line.substr(1));
  std::string cell;
  while (std::getline(in, cell, '|')) cells.push_back(trim(cell));
  return cells;
}

// The rows (cells) of the first table after the line `heading`, heading row and rule skipped.
std::vector<std::vector<std::string>> table_after(const std::string& doc, const std::string& heading) {
  std::vector<std::vector<std::string>> rows;
  const std::size_t at = doc.find("\n" + heading + "\n");
  if (at == std::string::npos) return rows;
  std::stringstream in(doc.substr(at + heading.size() + 2));
  std::string line;
  bool in_table = false;
  int seen = 0;
  while (std::getline(in, line)) {
    if (line.rfind("|", 0) == 0) {
      in_table = true;
      if (++seen > 2) rows.push_back(cells_of(line));
    } else if (in_table) {
      break;
    } else if (line.rfind("#", 0) == 0) {
      break;  // the next section: this one has no table
    }
  }
  return rows;
}

bool is_number(const std::string& s) { return std::regex_match(s, std::regex(R"([0-9]+(\.[0-9]+)?)")); }

// The any-angle tables: data set rows of four algorithms. Returns data set -> algorithm -> cells.
std::map<std::string, std::map<std::string, std::vector<std::string>>> any_angle_rows(
    const std::vector<std::vector<std::string>>& rows) {
  std::map<std::string, std::map<std::string, std::vector<std::string>>> out;
  std::string current;
  for (const auto& r : rows) {
    if (r.size() < 8) continue;
    if (!r[0].empty()) current = r[0];
    out[current][r[1]] = r;
  }
  return out;
}

// The summary tables' headings (in the document and on stdout) and the full tables' (stdout only).
const std::string kAnySummary = "### Any-angle: Block A\\* against the others, and the paper's ratios";
const std::string kCellSummary = "### Tile and octile: Block A\\* against A\\*";
const std::string kTable1 = "#### Table 1: random maps";
const std::string kTable2 = "#### Table 2: a large empty map, zero heuristic";
const std::string kPerFolder = "#### Any-angle, per folder";
const std::string kPerMap = "#### Any-angle, per map";
const std::string kCellPerMap = "#### Tile and octile Block A\\* against A\\*, per map";

const std::regex kRatio(R"([0-9]+\.[0-9]{2}×)");
const std::regex kPercent(R"([+-][0-9]+\.[0-9]{2}%)");

// The summary row of data set `label`, or none.
std::vector<std::string> row_named(const std::vector<std::vector<std::string>>& rows, const std::string& label) {
  for (const auto& r : rows)
    if (!r.empty() && r[0] == label) return r;
  return {};
}

// The lines of `text` that are table rows (start with '|').
std::size_t table_lines(const std::string& text) {
  std::size_t n = 0;
  std::stringstream in(text);
  std::string line;
  while (std::getline(in, line)) n += line.rfind("|", 0) == 0;
  return n;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// ----------------------------------------------------------------------------- tests

// The chunking (--chunk) orders the searches, and so their caches, but not their results:
// lengths and expansions are the same whether each query is run by every algorithm in turn
// or each algorithm runs a few queries in turn.
TEST_F(SuiteTest, ChunkingChangesNoResult) {
  const run_result one = run(tiny_out() + " --chunk 1");
  ASSERT_EQ(one.status, 0) << one.all();
  const run_result two = run(tiny_out() + " --chunk 2");
  ASSERT_EQ(two.status, 0) << two.all();
  const std::string& a = one.out;
  const std::string& b = two.out;
  EXPECT_NE(a.find("chunks of 1 (`--chunk`)"), std::string::npos) << a;
  EXPECT_NE(b.find("chunks of 2 (`--chunk`)"), std::string::npos) << b;
  const auto map_a = table_after(a, kPerMap), map_b = table_after(b, kPerMap);
  ASSERT_EQ(map_a.size(), 2u) << a;
  ASSERT_EQ(map_b.size(), map_a.size()) << b;
  for (std::size_t i = 0; i < map_a.size(); ++i) {
    EXPECT_EQ(map_a[i][10], map_b[i][10]) << "Theta* length, " << map_a[i][1];
    EXPECT_EQ(map_a[i][11], map_b[i][11]) << "Block A* length, " << map_a[i][1];
  }
  const auto cells_a = table_after(a, kCellPerMap), cells_b = table_after(b, kCellPerMap);
  ASSERT_EQ(cells_a.size(), 4u) << a;
  ASSERT_EQ(cells_b.size(), cells_a.size()) << b;
  for (std::size_t i = 0; i < cells_a.size(); ++i) {
    EXPECT_EQ(cells_a[i][7], cells_b[i][7]) << "A* expanded, row " << i;
    EXPECT_EQ(cells_a[i][8], cells_b[i][8]) << "Block A* expanded, row " << i;
    EXPECT_EQ(cells_a[i][9], "0") << "mismatches";
  }
}

// Without --doc and --svg the region goes to stdout, the summary followed by the full tables,
// and nothing is written: not in the current folder, not in the source tree's docs/.
TEST_F(SuiteTest, TablesOnStdout) {
  const fs::path docs = fs::path(LDDB_SOURCE_DIR) / "docs";
  auto stamp = [&](const char* name) {
    std::error_code ec;
    return fs::exists(docs / name, ec) ? fs::last_write_time(docs / name, ec) : fs::file_time_type{};
  };
  const auto doc_before = stamp("benchmarks.md"), svg_before = stamp("suite.svg");
  const std::string args = tiny_out();
  const run_result r = run(args, "", dir_);
  ASSERT_EQ(r.status, 0) << r.all();
  EXPECT_EQ(r.out.rfind("<!-- suite:begin -->\n## The paper's benchmark: `lddb-bench suite paper`", 0), 0u) << r.out;
  EXPECT_EQ(r.out.substr(r.out.size() - 19), "<!-- suite:end -->\n");
  EXPECT_EQ(r.out.find("wrote "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("![Mean time per query"), std::string::npos) << "no chart, no link";
  EXPECT_NE(r.err.find("lddb-bench suite: done in "), std::string::npos) << r.err;
  // The summary first, then the full tables, then the checks.
  const std::size_t summary = r.out.find(kAnySummary), full = r.out.find("\n### Full tables\n"),
                    checks = r.out.find("\n### Checks\n");
  ASSERT_NE(summary, std::string::npos) << r.out;
  ASSERT_NE(full, std::string::npos) << r.out;
  ASSERT_NE(checks, std::string::npos) << r.out;
  EXPECT_LT(summary, full);
  EXPECT_LT(full, checks);
  EXPECT_EQ(table_after(r.out, kAnySummary).size(), 4u) << r.out;
  EXPECT_EQ(table_after(r.out, kCellSummary).size(), 1u) << r.out;
  EXPECT_EQ(table_after(r.out, kTable1).size(), 8u) << r.out;
  EXPECT_EQ(table_after(r.out, kTable2).size(), 4u) << r.out;
  EXPECT_EQ(table_after(r.out, kPerFolder).size(), 4u) << r.out;
  EXPECT_EQ(table_after(r.out, kPerMap).size(), 2u) << r.out;
  EXPECT_EQ(table_after(r.out, kCellPerMap).size(), 4u) << r.out;
  std::vector<std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(dir_))
    if (e.is_regular_file()) files.push_back(e.path().filename().string());
  std::sort(files.begin(), files.end());
  EXPECT_EQ(files, (std::vector<std::string>{"open.map", "open.map.scen", "stderr.txt", "stdout.txt", "walls.map",
                                             "walls.map.scen"}));
  EXPECT_TRUE(stamp("benchmarks.md") == doc_before && stamp("suite.svg") == svg_before) << "docs/ untouched";

  // --svg alone: the chart, linked from the tables relative to the current folder.
  const run_result c = run(args + " --svg " + p("chart.svg"), "", dir_);
  ASSERT_EQ(c.status, 0) << c.all();
  EXPECT_NE(c.out.find("![Mean time per query, log scale](chart.svg)"), std::string::npos) << c.out;
  EXPECT_TRUE(fs::exists(dir_ / "chart.svg"));
}

// The full tables on stdout: every algorithm's figures per data set, map and rule, the
// relations that must hold between them, and the summary rows taken from them.
TEST_F(SuiteTest, FullTables) {
  const run_result r = run(tiny_out());
  ASSERT_EQ(r.status, 0) << r.all();
  const std::string& out = r.out;

  const std::vector<std::string> algorithms{"A* (octile)", "Theta*", "Lazy Theta*", "Block A*"};
  const auto summary = table_after(out, kAnySummary);
  auto check_any_angle = [&](const std::string& heading, const std::vector<std::string>& sets,
                             const std::vector<std::string>& summary_labels, const std::string& valid) {
    SCOPED_TRACE(heading);
    const auto rows = table_after(out, heading);
    ASSERT_EQ(rows.size(), sets.size() * 4) << out;
    const auto by_set = any_angle_rows(rows);
    for (std::size_t i = 0; i < sets.size(); ++i) {
      const std::string& set = sets[i];
      SCOPED_TRACE(set);
      ASSERT_EQ(by_set.count(set), 1u) << out;
      const auto& algos = by_set.at(set);
      for (const std::string& a : algorithms) {
        ASSERT_EQ(algos.count(a), 1u) << a;
        const auto& c = algos.at(a);
        EXPECT_TRUE(is_number(c[2]) && is_number(c[3]) && is_number(c[4]))
            << a << ": " << c[2] << " " << c[3] << " " << c[4];
        EXPECT_TRUE(a == "Block A*" ? c[5].empty() : std::regex_match(c[5], kRatio)) << c[5];
        EXPECT_TRUE(std::regex_match(c[6], kPercent)) << c[6];
        EXPECT_EQ(c[7], valid) << a;
      }
      // Every octile path is an any-angle path: Block A* (exact over its database) and, on
      // these maps, Theta* and Lazy Theta* are never longer than octile A*.
      const double astar = std::stod(algos.at("A* (octile)")[2]);
      for (const char* a : {"Block A*", "Theta*", "Lazy Theta*"}) EXPECT_LE(std::stod(algos.at(a)[2]), astar) << a;
      EXPECT_EQ(algos.at("Theta*")[6], "+0.00%");

      // The summary row of this data set repeats these figures.
      const std::vector<std::string> s = row_named(summary, summary_labels[i]);
      ASSERT_EQ(s.size(), 11u) << summary_labels[i] << "\n" << out;
      EXPECT_EQ(s[1], valid.substr(valid.find('/') + 1)) << "queries";
      EXPECT_EQ(s[2], algos.at("Block A*")[4]) << "Block A* ms";
      EXPECT_EQ(s[3], algos.at("A* (octile)")[5]) << "vs A*";
      EXPECT_EQ(s[4], algos.at("Theta*")[5]) << "vs Theta*";
      EXPECT_EQ(s[5], algos.at("Lazy Theta*")[5]) << "vs Lazy Theta*";
      EXPECT_EQ(s[6], algos.at("Block A*")[6]) << "length vs Theta*";
    }
  };
  check_any_angle(kTable1, {"random 0%", "random 20%"}, {"random 0%", "random 20%"}, "4/4");
  check_any_angle(kTable2, {"24×24"}, {"24×24, zero h"}, "3/3");
  check_any_angle(kPerFolder, {"tiny (6)"}, {"tiny"}, "6/6");

  const auto per_map = table_after(out, kPerMap);
  ASSERT_EQ(per_map.size(), 2u) << out;
  EXPECT_EQ(per_map[0][1], "open");
  EXPECT_EQ(per_map[0][2], "3 of 10");
  EXPECT_EQ(per_map[1][1], "walls");
  EXPECT_EQ(per_map[1][2], "3 of 5");
  for (const auto& row : per_map) {
    for (std::size_t k = 3; k <= 6; ++k) EXPECT_TRUE(is_number(row[k])) << row[k];  // times
    EXPECT_TRUE(is_number(row[10]) && is_number(row[11])) << "lengths";
    EXPECT_EQ(row[13], "0") << "invalid paths";
  }

  // Tile and octile Block A* return A*'s lengths: no mismatch, nothing invalid; the folder's
  // summary row counts the maps' queries and mismatches.
  const auto cells = table_after(out, kCellPerMap);
  ASSERT_EQ(cells.size(), 4u) << out;  // open, walls; tile and octile each
  int tile_queries = 0, octile_queries = 0;
  for (const auto& row : cells) {
    EXPECT_TRUE(row[2] == "tile" || row[2] == "octile") << row[2];
    EXPECT_TRUE(is_number(row[4]) && is_number(row[5]) && is_number(row[7]) && is_number(row[8]));
    EXPECT_TRUE(std::regex_match(row[6], kRatio)) << row[6];
    EXPECT_EQ(row[9], "0") << "mismatches";
    EXPECT_EQ(row[10], "0") << "invalid";
    (row[2] == "tile" ? tile_queries : octile_queries) += std::stoi(row[3]);
  }
  EXPECT_EQ(cells[0][1], "open");
  EXPECT_EQ(cells[0][2], "tile");
  EXPECT_EQ(cells[3][1], "walls");
  EXPECT_EQ(cells[3][2], "octile");
  EXPECT_EQ(tile_queries, 6);
  EXPECT_EQ(octile_queries, 6);
  const auto cell_summary = table_after(out, kCellSummary);
  ASSERT_EQ(cell_summary.size(), 1u) << out;
  EXPECT_EQ(cell_summary[0][0], "tiny");
  EXPECT_EQ(cell_summary[0][1], std::to_string(tile_queries));
  EXPECT_EQ(cell_summary[0][8], "0 / 0");
}

// The document holds the summary only: one row per data set (any-angle) and one per folder
// (tile and octile), the run's facts and the checks; the full tables stay on stdout.
TEST_F(SuiteTest, TinySuite) {
  const run_result r = run(tiny());
  ASSERT_EQ(r.status, 0) << r.all();
  EXPECT_NE(r.out.find("wrote " + (dir_ / "doc.md").string()), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("<!-- suite:begin -->"), std::string::npos) << "no tables on stdout with --doc";
  EXPECT_NE(r.err.find("suite: Table 1: 20% obstacles, map 1/1: 4 pairs"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("suite: Table 2: 3 of 3 pairs, "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("suite: maps [2/2] tiny/walls: 3 of 5 queries"), std::string::npos) << r.err;

  const std::string doc = read_file(dir_ / "doc.md");
  EXPECT_EQ(count(doc, "<!-- suite:begin -->\n"), 1u);
  EXPECT_EQ(count(doc, "<!-- suite:end -->\n"), 1u);
  for (const char* line : {"| seed | 7 (`--seed`) |", "| machine | ", "| date | ", "| command | `"})
    EXPECT_NE(doc.find(line), std::string::npos) << line << "\n" << doc;
  EXPECT_NE(doc.find("--densities 0,20"), std::string::npos) << "the exact command is recorded";
  EXPECT_NE(doc.find("![Mean time per query, log scale](chart.svg)"), std::string::npos) << doc;
  for (const char* text :
       {"*random N%* (the paper's Table 1): 32×32 maps (`make_random_map`), each cell blocked with probability N%; "
        "1 map per density × 4 connected random start/goal pairs each",
        "*24×24, zero h* (its Table 2): one map without obstacles, 3 random start/goal pairs",
        "At most 3 queries per scenario file (`--limit`)"})
    EXPECT_NE(doc.find(text), std::string::npos) << text << "\n" << doc;

  // No full table: the facts (2 + 6 lines), the any-angle summary (2 + 4) and the tile and
  // octile summary (2 + 1) are the document's only table lines.
  const std::string full = "### Full tables";
  for (const std::string& heading : {kTable1, kTable2, kPerFolder, kPerMap, kCellPerMap, full})
    EXPECT_EQ(doc.find(heading), std::string::npos) << heading;
  EXPECT_EQ(count(doc, "\n#### "), 0u) << doc;
  EXPECT_EQ(table_lines(doc), 17u) << doc;

  // The any-angle summary: one row per data set, the paper's ratios where the paper has it.
  const auto summary = table_after(doc, kAnySummary);
  ASSERT_EQ(summary.size(), 4u) << doc;
  const std::vector<std::string> labels{"random 0%", "random 20%", "24×24, zero h", "tiny"};
  const std::vector<std::string> queries{"4", "4", "3", "6"};
  for (std::size_t i = 0; i < summary.size(); ++i) {
    const auto& row = summary[i];
    SCOPED_TRACE(labels[i]);
    ASSERT_EQ(row.size(), 11u);
    EXPECT_EQ(row[0], labels[i]);
    EXPECT_EQ(row[1], queries[i]);
    EXPECT_TRUE(is_number(row[2])) << "Block A* ms: " << row[2];
    for (std::size_t k = 3; k <= 5; ++k) EXPECT_TRUE(std::regex_match(row[k], kRatio)) << row[k];
    for (std::size_t k = 6; k <= 7; ++k) EXPECT_TRUE(std::regex_match(row[k], kPercent)) << row[k];
  }
  EXPECT_EQ(summary[0][8], "4.67×");  // 0.00481 / 0.00103 from the paper's Table 1
  EXPECT_EQ(summary[0][9], "6.31×");  // 0.00650 / 0.00103
  EXPECT_EQ(summary[0][10], "+0.38%");  // 261.8 / 260.8
  EXPECT_EQ(summary[1][8], "2.70×");  // 0.00499 / 0.00185
  for (std::size_t k = 8; k <= 10; ++k) {
    EXPECT_EQ(summary[2][k], "") << "the paper has no 24x24 row";
    EXPECT_EQ(summary[3][k], "") << "nor a folder named tiny";
  }

  // The tile and octile summary: one row per folder, both rules, no mismatch.
  const auto cells = table_after(doc, kCellSummary);
  ASSERT_EQ(cells.size(), 1u) << doc;
  ASSERT_EQ(cells[0].size(), 9u);
  EXPECT_EQ(cells[0][0], "tiny");
  EXPECT_EQ(cells[0][1], "6");
  for (std::size_t k : {2u, 3u, 5u, 6u}) EXPECT_TRUE(is_number(cells[0][k])) << cells[0][k];
  for (std::size_t k : {4u, 7u}) EXPECT_TRUE(std::regex_match(cells[0][k], kRatio)) << cells[0][k];
  EXPECT_EQ(cells[0][8], "0 / 0");

  EXPECT_NE(doc.find("- paths missing: 0; paths the checker rejected: 0\n"), std::string::npos) << doc;
  EXPECT_NE(doc.find("- any-angle Block A\\* longer than octile A\\*: 0 of 17 queries"), std::string::npos) << doc;
  EXPECT_NE(doc.find("- tile Block A\\* length different from A\\*'s: 0 of 6; octile: 0 of 6\n"), std::string::npos)
      << doc;
  EXPECT_TRUE(leftover_temporaries(dir_).empty());
}

// A --doc run and a stdout run of the same seed have the same summary but for the times:
// the document's rows are the figures the full tables of that run would show.
TEST_F(SuiteTest, SummaryIsTheSameRun) {
  ASSERT_EQ(run(tiny()).status, 0);
  const std::string doc = read_file(dir_ / "doc.md");
  const run_result r = run(tiny_out());
  ASSERT_EQ(r.status, 0) << r.all();
  const auto in_doc = table_after(doc, kAnySummary), on_stdout = table_after(r.out, kAnySummary);
  ASSERT_EQ(in_doc.size(), 4u) << doc;
  ASSERT_EQ(on_stdout.size(), in_doc.size()) << r.out;
  for (std::size_t i = 0; i < in_doc.size(); ++i)
    for (std::size_t k : {0u, 1u, 6u, 7u, 8u, 9u, 10u})  // not the times (2-5)
      EXPECT_EQ(in_doc[i][k], on_stdout[i][k]) << in_doc[i][0] << ", column " << k;
  const auto cells_doc = table_after(doc, kCellSummary), cells_out = table_after(r.out, kCellSummary);
  ASSERT_EQ(cells_doc.size(), 1u) << doc;
  ASSERT_EQ(cells_out.size(), 1u) << r.out;
  for (std::size_t k : {0u, 1u, 8u}) EXPECT_EQ(cells_doc[0][k], cells_out[0][k]) << "column " << k;
  // The text before the tables is the same but for the run's facts.
  auto prose = [](const std::string& text) {
    const std::size_t from = text.find("**How it was run.**"), to = text.find(kAnySummary);
    return from == std::string::npos || to == std::string::npos ? std::string() : text.substr(from, to - from);
  };
  EXPECT_FALSE(prose(doc).empty()) << doc;
  EXPECT_EQ(prose(doc), prose(r.out));
}

TEST_F(SuiteTest, EvenlySpacedLimit) {
  // open.map's queries have lengths 1..10 in file order. --limit 3 takes the middle of three
  // equal slices (queries 2, 6 and 9: mean 17/3), not the first three (mean 2).
  const std::string only_maps = " --pairs 0 --empty-pairs 0 --maps " + quote(maps_);
  run_result r = run("suite paper --limit 3" + only_maps);
  ASSERT_EQ(r.status, 0) << r.all();
  auto open_row = [&](const std::string& out) {
    const auto rows = table_after(out, kPerMap);
    return rows.empty() ? std::vector<std::string>{} : rows[0];
  };
  std::vector<std::string> row = open_row(r.out);
  ASSERT_GE(row.size(), 12u) << r.out;
  EXPECT_EQ(row[2], "3 of 10");
  EXPECT_EQ(row[10], "5.667") << "Theta* length";
  EXPECT_EQ(row[11], "5.667") << "Block A* length";

  r = run("suite paper --limit 0" + only_maps);
  ASSERT_EQ(r.status, 0) << r.all();
  row = open_row(r.out);
  ASSERT_GE(row.size(), 12u) << r.out;
  EXPECT_EQ(row[2], "10 of 10");
  EXPECT_EQ(row[11], "5.500");
  EXPECT_NE(r.out.find("Every query of every file (`--limit 0`)."), std::string::npos);
}

TEST_F(SuiteTest, SameSeedSameTables) {
  // Distances and expansions (not times) depend only on the seed.
  auto measures = [&](int seed) {
    const run_result r = run(tiny_out(seed));
    EXPECT_EQ(r.status, 0) << r.all();
    std::vector<std::string> out;
    for (const auto& row : table_after(r.out, kTable1)) out.push_back(row[0] + row[1] + "|" + row[2] + "|" + row[3]);
    return out;
  };
  const auto a = measures(7), b = measures(7), c = measures(8);
  EXPECT_EQ(a.size(), 8u);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
}

TEST_F(SuiteTest, HandWrittenTextSurvives) {
  const std::string before = "# Benchmarks\n\nHand-written introduction.\n\n";
  const std::string after = "\n## Later section\n\nKept as it is, *with* | pipes | and `code`.\n";
  write_file(dir_ / "doc.md", before + "<!-- suite:begin -->\nstale generated text\n<!-- suite:end -->\n" + after);
  ASSERT_EQ(run(tiny()).status, 0);
  const std::string first = read_file(dir_ / "doc.md");
  EXPECT_EQ(first.rfind(before + "<!-- suite:begin -->\n## The paper's benchmark", 0), 0u) << first;
  EXPECT_EQ(first.substr(first.size() - after.size() - 19), "<!-- suite:end -->\n" + after) << first;
  EXPECT_EQ(first.find("stale generated text"), std::string::npos);

  // Again: still one region, the text around it unchanged.
  ASSERT_EQ(run(tiny()).status, 0);
  const std::string second = read_file(dir_ / "doc.md");
  EXPECT_EQ(count(second, "<!-- suite:begin -->"), 1u);
  EXPECT_EQ(count(second, "<!-- suite:end -->"), 1u);
  EXPECT_EQ(second.rfind(before + "<!-- suite:begin -->\n", 0), 0u);
  EXPECT_EQ(second.substr(second.size() - after.size()), after);

  // A document without markers gets the region appended after its own text.
  const std::string plain = "# Notes\n\nNo markers here.";
  write_file(dir_ / "plain.md", plain);
  ASSERT_EQ(run(tiny("plain.md")).status, 0);
  const std::string appended = read_file(dir_ / "plain.md");
  EXPECT_EQ(appended.rfind(plain + "\n\n<!-- suite:begin -->\n", 0), 0u) << appended;
  EXPECT_EQ(appended.substr(appended.size() - 19), "<!-- suite:end -->\n");

  // A missing document is created with the region alone.
  ASSERT_EQ(run(tiny("new.md")).status, 0);
  EXPECT_EQ(read_file(dir_ / "new.md").rfind("<!-- suite:begin -->\n", 0), 0u);
}

// Minimal well-formedness: an XML declaration, one <svg> root, every element closed in order,
// attribute values quoted, no stray '<' or '&' in text.
std::string xml_problem(const std::string& x) {
  if (x.rfind("<?xml ", 0) != 0) return "no XML declaration";
  std::vector<std::string> open;
  bool root_seen = false;
  std::size_t i = x.find("?>") + 2;
  while (i < x.size()) {
    const std::size_t lt = x.find('<', i);
    const std::string text = x.substr(i, lt == std::string::npos ? std::string::npos : lt - i);
    for (std::size_t a = text.find('&'); a != std::string::npos; a = text.find('&', a + 1))
      if (!std::regex_search(text.substr(a), std::regex("^&(amp|lt|gt|quot|apos|#[0-9]+);"))) return "bare & in text";
    if (text.find('>') != std::string::npos && open.empty() && root_seen) return "text after the root";
    if (lt == std::string::npos) break;
    const std::size_t gt = x.find('>', lt);
    if (gt == std::string::npos) return "unterminated tag";
    std::string tag = x.substr(lt + 1, gt - lt - 1);
    if (tag.find('<') != std::string::npos) return "'<' inside a tag";
    i = gt + 1;
    if (tag[0] == '/') {
      if (open.empty() || open.back() != tag.substr(1)) return "</" + tag.substr(1) + "> closes the wrong element";
      open.pop_back();
      continue;
    }
    const bool self_closing = tag.back() == '/';
    if (self_closing) tag.pop_back();
    const std::string name = tag.substr(0, tag.find_first_of(" \n"));
    if (!std::regex_match(name, std::regex("[a-zA-Z][a-zA-Z0-9:-]*"))) return "bad element name '" + name + "'";
    const std::string attrs = tag.substr(name.size());
    if (!std::regex_match(attrs, std::regex(R"((\s+[a-zA-Z][a-zA-Z0-9:-]*="[^"<]*")*\s*)")))
      return "bad attributes in <" + name + ">";
    if (open.empty()) {
      if (root_seen) return "a second root element";
      if (name != "svg") return "the root is <" + name + ">";
      root_seen = true;
    }
    if (!self_closing) open.push_back(name);
  }
  if (!open.empty()) return "<" + open.back() + "> is never closed";
  return root_seen ? "" : "no root element";
}

TEST_F(SuiteTest, SvgIsWellFormed) {
  ASSERT_EQ(xml_problem("<?xml version=\"1.0\"?>\n<svg><g></svg>"),
            "</svg> closes the wrong element");  // the checker checks
  ASSERT_EQ(run(tiny()).status, 0);
  const std::string svg = read_file(dir_ / "chart.svg");
  EXPECT_EQ(xml_problem(svg), "") << svg;
  EXPECT_NE(svg.find("xmlns=\"http://www.w3.org/2000/svg\""), std::string::npos);
  for (const char* label : {">A* (octile)<", ">Theta*<", ">Lazy Theta*<", ">Block A*<", ">tile Block A*<",
                            ">ms per query (log scale)<", ">20%<", ">tiny<"})
    EXPECT_NE(svg.find(label), std::string::npos) << label;
  // A bar per algorithm and data set: 4 x (2 densities + Table 2 + 1 folder), 4 x 1 folder.
  EXPECT_EQ(count(svg, "</title></rect>"), 20u);
}

TEST_F(SuiteTest, MissingMapsFolder) {
  const fs::path nowhere = dir_ / "no-such-maps";
  const run_result r = run(tiny("doc.md", "chart.svg", 7, nowhere));
  ASSERT_EQ(r.status, 0) << r.all();
  EXPECT_NE(r.err.find("maps folder " + nowhere.string() + " not found; the benchmark maps are skipped"),
            std::string::npos)
      << r.err;
  const std::string doc = read_file(dir_ / "doc.md");
  EXPECT_NE(doc.find("Skipped: the maps folder `" + nowhere.string() + "` does not exist"), std::string::npos) << doc;
  // The random maps and the empty map still run: their summary rows, and no folder's.
  const auto summary = table_after(doc, kAnySummary);
  ASSERT_EQ(summary.size(), 3u) << doc;
  EXPECT_EQ(summary[2][0], "24×24, zero h");
  EXPECT_EQ(doc.find(kCellSummary), std::string::npos) << doc;
  EXPECT_NE(doc.find("- paths missing: 0; paths the checker rejected: 0\n"), std::string::npos) << doc;
}

TEST_F(SuiteTest, BadOptions) {
  write_file(dir_ / "broken.md", "intro\n<!-- suite:begin -->\nno end marker\n");
  const std::string out = " --doc " + p("d.md") + " --svg " + p("s.svg");
  struct bad {
    std::string args;
    int status;
    std::string message;
  };
  const std::vector<bad> cases = {
      {"suite fast" + out, 2, "unknown suite 'fast' (expected paper)"},
      {"suite" + out, 2, "SUITE is required"},
      {"suite paper --scen x.scen" + out, 2, "--scen"},
      {"suite paper --algo theta --csv x.csv" + out, 2, "--algo"},
      {"paper" + out, 2, "paper"},
      {"suite paper --densities 0,x" + out, 2, "--densities: '0,x' is not a list of obstacle percentages"},
      {"suite paper --densities 95" + out, 2, "--densities"},
      {"suite paper --pairs -1" + out, 2, "--pairs: '-1' is not a whole number"},
      {"suite paper --seed 1e3" + out, 2, "--seed: '1e3' is not a whole number"},
      {"suite paper --random-side 4" + out, 2, "--random-side: 4 is out of range"},
      {"suite paper --astar-heuristic manhattan" + out, 2, "--astar-heuristic: 'manhattan'"},
      {"suite paper --doc " + p("missing/d.md") + " --svg " + p("s.svg"), 1, "does not exist"},
      {"suite paper --svg ''" + std::string(" --doc ") + p("d.md"), 2, "--svg: empty file name"},
      {"suite paper --doc " + p("broken.md") + " --svg " + p("s.svg"), 1,
       "broken.md:2: <!-- suite:begin --> has no <!-- suite:end --> after it"},
      {"suite paper --random-side 8 --densities 90 --pairs 3 --empty-pairs 0 --seed 1 --maps " +
           quote(dir_ / "none") + out,
       1, "random map 90% #0: too few of its free cells are connected"},
  };
  for (const bad& c : cases) {
    SCOPED_TRACE(c.args);
    expect_clean_failure(run(c.args), c.message, c.status);
  }
  // Nothing was written: the bad runs stopped before any search.
  EXPECT_FALSE(fs::exists(dir_ / "d.md"));
  EXPECT_FALSE(fs::exists(dir_ / "s.svg"));
  EXPECT_EQ(read_file(dir_ / "broken.md"), "intro\n<!-- suite:begin -->\nno end marker\n");
  EXPECT_TRUE(leftover_temporaries(dir_).empty());
}

TEST_F(SuiteTest, FailedWrite) {
  // Files may not grow past 1 KiB (SIGXFSZ ignored, so the write fails with EFBIG): the
  // chart and the document are each larger, so both writes fail. The old files stay whole.
  write_file(dir_ / "doc.md", "old document\n");
  write_file(dir_ / "chart.svg", "old chart\n");
  const std::string args =
      "suite paper --random-side 32 --densities 0 --maps-per-density 1 --pairs 2 "
      "--empty-pairs 0 --maps " +
      quote(dir_ / "none") + " --doc " + p("doc.md") + " --svg " + p("chart.svg");
  const run_result r = run(args, "trap '' XFSZ; ulimit -f 2;");
  expect_clean_failure(r, "cannot write", 1);
  EXPECT_EQ(read_file(dir_ / "doc.md"), "old document\n");
  EXPECT_EQ(read_file(dir_ / "chart.svg"), "old chart\n");
  EXPECT_TRUE(leftover_temporaries(dir_).empty());

  // The same run without the limit succeeds.
  ASSERT_EQ(run(args).status, 0);
  EXPECT_NE(read_file(dir_ / "doc.md").find("<!-- suite:begin -->"), std::string::npos);
}

}  // namespace
