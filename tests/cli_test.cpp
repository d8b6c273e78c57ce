// tests/cli_test.cpp: the `lddb` program, run as a user would run it.
//
// Each test runs the built binary (LDDB_CLI) through the shell in its own scratch folder
// under the build tree, so tests can run in parallel, and checks exit statuses, messages
// and the files written. Databases are small (b = 2 or 3) to keep the suite fast.
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "lddb/generator.hpp"

#include "cli_support.hpp"
#include "test_scenarios.hpp"

namespace {

namespace fs = std::filesystem;

using namespace cli_support;

class cli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fresh_scratch_dir("cli_test_scratch");
  }

  // Runs `lddb <args>` with stdin closed; `env` is prepended (e.g. "LDDB_DATA_DIR=x").
  run_result run(const std::string& args, const std::string& env = "") const { return run_in(dir_, args, env); }

  // Generates a database and asserts success; returns its path.
  fs::path gen(const std::string& rule, int block, const std::string& name, const std::string& extra = "") const {
    const fs::path out = dir_ / name;
    const run_result r = run("gen --rule " + quote(rule) + " --block " + std::to_string(block) + " --out " +
                             quote(out.string()) + " " + extra);
    EXPECT_EQ(r.status, 0) << r.all();
    EXPECT_TRUE(fs::exists(out)) << out;
    return out;
  }

  fs::path path(const std::string& name) const { return dir_ / name; }

  fs::path dir_;
};

// The lines of the picture after the "pattern N ..." heading, up to the blank line.
std::vector<std::string> picture_rows(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  std::vector<std::string> rows;
  bool in_picture = false;
  while (std::getline(in, line)) {
    if (!in_picture) {
      in_picture = line.rfind("pattern ", 0) == 0;
      continue;
    }
    if (line.empty()) break;
    rows.push_back(line);
  }
  return rows;
}

// ----------------------------------------------------------------------------- gen + verify

struct rule_case {
  const char* rule;
  int block;
};

// How ctest and gtest show a parameter: "octile:diagonal=1.5 b=3", not the struct's bytes.
void PrintTo(const rule_case& c, std::ostream* os) { *os << c.rule << " b=" << c.block; }

class cli_rules : public cli, public ::testing::WithParamInterface<rule_case> {};

TEST_P(cli_rules, GenThenVerify) {
  const rule_case c = GetParam();
  const fs::path db = gen(c.rule, c.block, "db.lddb", "--threads 2");
  const run_result g = run("verify " + quote(db.string()));
  EXPECT_EQ(g.status, 0) << g.all();
  EXPECT_NE(g.out.find(db.string() + ": ok ("), std::string::npos) << g.out;
  EXPECT_NE(g.out.find(std::string(c.rule) + ", b=" + std::to_string(c.block)), std::string::npos) << g.out;
}

INSTANTIATE_TEST_SUITE_P(all, cli_rules,
                         ::testing::Values(rule_case{"tile", 2}, rule_case{"tile", 3}, rule_case{"octile", 2},
                                           rule_case{"octile", 3}, rule_case{"octile:corners=one-side-free", 3},
                                           rule_case{"octile:diagonal=1.5", 3}, rule_case{"any-angle", 2},
                                           rule_case{"any-angle", 3}, rule_case{"any-angle:squeeze=allowed", 3}),
                         [](const ::testing::TestParamInfo<rule_case>& info) {
                           std::string n = std::string(info.param.rule) + "_b" + std::to_string(info.param.block);
                           for (char& ch : n)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return n;
                         });

TEST_F(cli, GenPrintsSummaryLine) {
  const fs::path db = path("t.lddb");
  const run_result r = run("gen --rule tile --block 2 --out " + quote(db.string()));
  ASSERT_EQ(r.status, 0) << r.all();
  EXPECT_NE(r.out.find("rule tile, b=2"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("canonical patterns"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("bytes"), std::string::npos) << r.out;
  // stderr is not a terminal here: no progress bar.
  EXPECT_EQ(r.err.find('\r'), std::string::npos) << r.err;
}

TEST_F(cli, GenLikeIsByteIdentical) {
  for (const char* rule : {"tile", "octile:corners=one-side-free", "any-angle:squeeze=allowed"}) {
    const fs::path a = gen(rule, 3, "a.lddb", "--zstd-level 3");
    const fs::path b = path("b.lddb");
    const run_result r = run("gen --like " + quote(a.string()) + " --out " + quote(b.string()));
    ASSERT_EQ(r.status, 0) << r.all();
    EXPECT_EQ(read_file(a), read_file(b)) << rule;
  }
  const fs::path a = gen("octile", 2, "nosym.lddb", "--no-symmetry --zstd-level 0");
  const run_result r = run("gen --like " + quote(a.string()) + " --out " + quote(path("nosym2.lddb").string()));
  ASSERT_EQ(r.status, 0) << r.all();
  EXPECT_EQ(read_file(a), read_file(path("nosym2.lddb")));
}

TEST_F(cli, ThreadCountDoesNotChangeBytes) {
  for (const char* rule : {"octile", "any-angle"}) {
    const fs::path one = gen(rule, 3, "one.lddb", "--threads 1");
    const fs::path two = gen(rule, 3, "two.lddb", "--threads 2");
    EXPECT_EQ(read_file(one), read_file(two)) << rule;
  }
}

TEST_F(cli, RuleFlagsEqualInlineOptions) {
  const fs::path a = gen("octile:corners=one-side-free,diagonal=1.5", 3, "a.lddb");
  const fs::path b = gen("octile", 3, "b.lddb", "--corners one-side-free --diagonal 1.5");
  EXPECT_EQ(read_file(a), read_file(b));
  const fs::path c = gen("any-angle:squeeze=allowed", 2, "c.lddb");
  const fs::path d = gen("any-angle", 2, "d.lddb", "--squeeze allowed");
  EXPECT_EQ(read_file(c), read_file(d));
  const fs::path e = gen("octile:corners=allowed", 3, "e.lddb");
  const fs::path f = gen("octile", 3, "f.lddb", "--corners allowed");
  EXPECT_EQ(read_file(e), read_file(f));
  const run_result r = run("dump " + quote(e.string()));
  EXPECT_NE(r.out.find("rule            octile:corners=allowed"), std::string::npos) << r.all();
  EXPECT_NE(run("gen --help").out.find("allowed (neither need be free"), std::string::npos);
}

// ----------------------------------------------------------------------------- dump

TEST_F(cli, DumpTextShowsHeaderSectionsAndStats) {
  const fs::path db = gen("octile", 3, "o.lddb");
  const run_result r = run("dump " + quote(db.string()));
  ASSERT_EQ(r.status, 0) << r.all();
  for (const char* s : {"rule            octile", "format", "manifest", "sections", "MANI", "statistics",
                        "canonical patterns", "unreachable pairs", "mean cost", "mean inflections"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s << "\n" << r.out;
}

TEST_F(cli, DumpJsonParsesAndNamesTheRule) {
  const fs::path db = gen("any-angle", 3, "aa.lddb");
  const run_result r = run("dump --json " + quote(db.string()) + " --pattern 0x10");
  ASSERT_EQ(r.status, 0) << r.all();
  const nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  EXPECT_EQ(j["header"]["rule"], "any-angle");
  EXPECT_EQ(j["header"]["block"], 3);
  EXPECT_EQ(j["header"]["points"], "vertices");
  EXPECT_TRUE(j["sections"].is_array());
  EXPECT_GE(j["sections"].size(), 1u);
  EXPECT_EQ(j["recipe"]["rule"], "any-angle");
  EXPECT_GT(j["stats"]["canonical_patterns"].get<int>(), 0);
  const auto& p = j["pattern"];
  EXPECT_EQ(p["code"], 16);
  EXPECT_EQ(p["costs"].size(), 12u);  // 4 * 3 boundary vertices
  EXPECT_EQ(p["picture"].size(), 7u);
  // Symmetric costs; a free pattern point reaches itself at cost 0.
  for (std::size_t i = 0; i < 12; ++i)
    for (std::size_t k = 0; k < 12; ++k) EXPECT_EQ(p["costs"][i][k], p["costs"][k][i]);
}

TEST_F(cli, DumpPatternPictureHasOneRowPerBlockRow) {
  const fs::path tile = gen("tile", 3, "t.lddb");
  // 5 = cells (0,0) and (2,0) blocked.
  run_result r = run("dump --no-stats " + quote(tile.string()) + " --pattern 5");
  ASSERT_EQ(r.status, 0) << r.all();
  std::vector<std::string> rows = picture_rows(r.out);
  ASSERT_EQ(rows.size(), 3u) << r.out;
  EXPECT_NE(rows[0].find("# . #"), std::string::npos) << rows[0];
  EXPECT_NE(rows[1].find(". . ."), std::string::npos) << rows[1];
  EXPECT_NE(r.out.find("cost matrix"), std::string::npos) << r.out;
  // What was asked for comes first: the picture within the first few lines, no manifest.
  EXPECT_LT(std::count(r.out.begin(), r.out.begin() + static_cast<long>(r.out.find("pattern 5")), '\n'), 4) << r.out;
  EXPECT_EQ(r.out.find("manifest"), std::string::npos) << r.out;

  const fs::path aa = gen("any-angle", 3, "aa.lddb");
  r = run("dump --no-stats " + quote(aa.string()) + " --pattern 0x1ff");  // all blocked
  ASSERT_EQ(r.status, 0) << r.all();
  rows = picture_rows(r.out);
  ASSERT_EQ(rows.size(), 7u) << r.out;  // 4 vertex rows + 3 cell rows
  EXPECT_NE(r.out.find("no boundary point reaches another"), std::string::npos) << r.out;
}

TEST_F(cli, DumpPairShowsOnePath) {
  const fs::path db = gen("octile", 3, "o.lddb");
  // Empty block: corner 0 (0,0) to corner 4 (2,2) is two diagonal steps, no turn.
  const run_result r = run("dump --no-stats " + quote(db.string()) + " --pattern 0 --pair 0,4");
  ASSERT_EQ(r.status, 0) << r.all();
  EXPECT_NE(r.out.find("2.828"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("A = boundary 0, B = boundary 4"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("cost matrix"), std::string::npos) << r.out;
}

// ----------------------------------------------------------------------------- bad inputs

TEST_F(cli, MissingFileIsNamed) {
  const std::string missing = path("no-such.lddb").string();
  expect_clean_failure(run("verify " + quote(missing)), missing);
  expect_clean_failure(run("dump " + quote(missing)), missing);
  expect_clean_failure(run("gen --like " + quote(missing) + " --out " + quote(path("x.lddb").string())), missing);
}

TEST_F(cli, DirectoryIsNamed) {
  const std::string d = dir_.string();
  expect_clean_failure(run("verify " + quote(d)), d);
  expect_clean_failure(run("dump " + quote(d)), d);
}

TEST_F(cli, TextFileIsNamed) {
  const fs::path text = path("notes.txt");
  write_file(text, "this is not a database\nat all\n");
  expect_clean_failure(run("verify " + quote(text.string())), text.string());
  expect_clean_failure(run("dump " + quote(text.string())), text.string());
  const fs::path empty = path("empty.lddb");
  write_file(empty, "");
  expect_clean_failure(run("verify " + quote(empty.string())), empty.string());
}

TEST_F(cli, BadGenOptionsAreRejected) {
  const std::string out = " --out " + quote(path("x.lddb").string());
  expect_clean_failure(run("gen --rule hexagonal" + out), "hexagonal");
  expect_clean_failure(run("gen --rule octile:squeeze=allowed" + out), "squeeze");
  expect_clean_failure(run("gen --rule octile --squeeze allowed" + out), "--squeeze");
  expect_clean_failure(run("gen --rule tile --corners one-side-free" + out), "--corners");
  expect_clean_failure(run("gen --rule octile --corners always" + out), "--corners");
  expect_clean_failure(run("gen --rule octile:corners=always" + out), "forbidden, one-side-free or allowed");
  expect_clean_failure(run("gen --rule any-angle --diagonal 1.5" + out), "--diagonal");
  expect_clean_failure(run("gen --rule octile --diagonal 3" + out), "--diagonal");
  expect_clean_failure(run("gen --rule octile --block 7" + out), "--block");
  expect_clean_failure(run("gen --rule octile --block 1" + out), "--block");
  expect_clean_failure(run("gen --rule octile --threads -1" + out), "--threads");
  expect_clean_failure(run("gen --block 3" + out), "--rule");
  expect_clean_failure(run("gen --rule octile"), "--out");
  const std::string nowhere = path("no/such/folder/x.lddb").string();
  expect_clean_failure(run("gen --rule tile --block 2 --out " + quote(nowhere)), nowhere);
  expect_clean_failure(run("gen --rule tile --block 2 --out " + quote(dir_.string())), dir_.string());
  EXPECT_FALSE(fs::exists(path("x.lddb")));
}

TEST_F(cli, LikeExcludesRecipeOptions) {
  const fs::path db = gen("tile", 2, "t.lddb");
  const std::string like = "gen --like " + quote(db.string()) + " --out " + quote(path("u.lddb").string());
  expect_clean_failure(run(like + " --rule octile"), "--rule");
  expect_clean_failure(run(like + " --block 3"), "--block");
  expect_clean_failure(run(like + " --no-symmetry"), "--no-symmetry");
}

TEST_F(cli, PatternOutOfRangeNamesTheFile) {
  const fs::path db = gen("tile", 3, "t.lddb");
  expect_clean_failure(run("dump " + quote(db.string()) + " --pattern 512"), db.string());
  expect_clean_failure(run("dump " + quote(db.string()) + " --pattern 0x200"), "--pattern");
  expect_clean_failure(run("dump " + quote(db.string()) + " --pattern banana"), "--pattern");
  expect_clean_failure(run("dump " + quote(db.string()) + " --pattern -1"), "--pattern");
  expect_clean_failure(run("dump " + quote(db.string()) + " --pattern 3 --pair 0,8"), "--pair");
  expect_clean_failure(run("dump " + quote(db.string()) + " --pattern 3 --pair 2,2"), "--pair");
  expect_clean_failure(run("dump " + quote(db.string()) + " --pair 0,1"), "--pattern");
  EXPECT_EQ(run("dump --no-stats " + quote(db.string()) + " --pattern 511").status, 0);
}

TEST_F(cli, UsageErrors) {
  expect_clean_failure(run("frobnicate"), "frobnicate");
  expect_clean_failure(run("verify"), "FILE");
  expect_clean_failure(run("bench --suite paper"), "lddb-bench suite paper");
  for (const char* sub : {"gen", "verify", "dump", "info"}) {
    const run_result r = run(std::string(sub) + " --help");
    EXPECT_EQ(r.status, 0) << sub << "\n" << r.all();
    EXPECT_NE(r.out.find("Usage"), std::string::npos) << r.out;
  }
}

// ----------------------------------------------------------------------------- corruption

TEST_F(cli, CorruptedCopyFailsVerify) {
  const fs::path db = gen("any-angle", 3, "good.lddb");
  const std::string bytes = read_file(db);
  ASSERT_GT(bytes.size(), 200u);

  // Offsets to flip: one in the header, and the middle of every section (from dump --json).
  std::vector<std::size_t> offsets{8, 20};
  const run_result d = run("dump --json --no-stats " + quote(db.string()));
  ASSERT_EQ(d.status, 0) << d.all();
  const nlohmann::json j = nlohmann::json::parse(d.out);
  for (const auto& s : j["sections"]) {
    const auto off = s["offset"].get<std::size_t>(), size = s["stored_size"].get<std::size_t>();
    if (size > 0) offsets.push_back(off + size / 2);
  }
  ASSERT_GE(offsets.size(), 3u);
  for (std::size_t off : offsets) {
    ASSERT_LT(off, bytes.size());
    std::string bad = bytes;
    bad[off] = static_cast<char>(bad[off] ^ 0x10);
    const fs::path copy = path("bad-" + std::to_string(off) + ".lddb");
    write_file(copy, bad);
    const run_result r = run("verify " + quote(copy.string()));
    expect_clean_failure(r, copy.string());
    expect_clean_failure(run("dump " + quote(copy.string())), copy.string());
  }
  // Truncated.
  const fs::path cut = path("cut.lddb");
  write_file(cut, bytes.substr(0, bytes.size() / 2));
  expect_clean_failure(run("verify " + quote(cut.string())), cut.string());
  // A bad file among good ones: good ones still say ok, the exit status is non-zero.
  const run_result r = run("verify " + quote(db.string()) + " " + quote(cut.string()));
  expect_clean_failure(r, cut.string());
  EXPECT_NE(r.out.find(db.string() + ": ok"), std::string::npos) << r.out;
}

// ----------------------------------------------------------------------------- info

TEST_F(cli, InfoSummarisesAFolderAndExplainsMissingDatabases) {
  gen("tile", 2, "tile-2.lddb");
  write_file(path("broken.lddb"), "garbage");
  // A folder given with --dir is the user's: only what it holds is listed; broken.lddb is
  // corrupt, so: failure, and nothing reported missing.
  const run_result r = run("info --dir " + quote(dir_.string()));
  EXPECT_GT(r.status, 0) << r.all();
  EXPECT_LT(r.status, 128) << r.all();
  EXPECT_NE(r.out.find("tile-2.lddb"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("broken.lddb"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("MISSING"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 of 2 databases intact"), std::string::npos) << r.out;

  // $LDDB_DATA_DIR names the shipped databases' folder: tile-4, octile-4 and any-angle-4
  // are missing there, each with the command that makes it.
  const run_result e = run("info", "LDDB_DATA_DIR=" + quote(dir_.string()));
  EXPECT_GT(e.status, 0) << e.all();
  EXPECT_NE(e.out.find("tile-2.lddb"), std::string::npos) << e.all();
  EXPECT_NE(e.out.find("MISSING"), std::string::npos) << e.out;
  EXPECT_NE(e.out.find("gen --rule any-angle --block 4 --out"), std::string::npos) << e.out;

  // The user's folder of good databases only: success.
  fs::remove(path("broken.lddb"));
  const run_result own = run("info --dir " + quote(dir_.string()));
  EXPECT_EQ(own.status, 0) << own.all();
  EXPECT_NE(own.out.find("1 of 1 databases intact"), std::string::npos) << own.out;
  // An empty folder says so.
  fs::create_directories(path("empty"));
  expect_clean_failure(run("info --dir " + quote(path("empty").string())), "holds no .lddb file");

  expect_clean_failure(run("info --dir " + quote(path("nowhere").string())), path("nowhere").string());
}

TEST_F(cli, InfoAcceptsAFolderOfGoodDatabases) {
  const run_result tile = run("gen --rule tile --block 4 --out " + quote(path("tile-4.lddb").string()));
  const run_result octile = run("gen --rule octile --block 4 --out " + quote(path("octile-4.lddb").string()));
  const run_result aa = run("gen --rule any-angle --block 4 --out " + quote(path("any-angle-4.lddb").string()));
  ASSERT_EQ(tile.status + octile.status + aa.status, 0) << tile.all() << octile.all() << aa.all();
  const run_result r = run("info --dir " + quote(dir_.string()));
  EXPECT_EQ(r.status, 0) << r.all();
  EXPECT_NE(r.out.find("3 of 3 databases intact"), std::string::npos) << r.out;
}

// ----------------------------------------------------------------------------- hostile inputs, every command

// Files every command can be given: good ones, and each way a file can be bad.
class cli_inputs : public cli {
 protected:
  void SetUp() override {
    cli::SetUp();
    golden_ = fs::path(LDDB_SOURCE_DIR) / "tests" / "golden";
    write_file(path("good.map"), "type octile\nheight 4\nwidth 6\nmap\n......\n..@@..\n......\n......\n");
    write_file(path("bad-row.map"), "type octile\nheight 4\nwidth 6\nmap\n......\n.....\n......\n......\n");
    write_file(path("huge.map"), "type octile\nheight 1000000000\nwidth 1000000000\nmap\n......\n");
    write_file(path("notes.txt"), "this is not a map, a scenario or a database\n");
    write_file(path("empty.lddb"), "");
    const std::string octile3 = read_file(golden_ / "octile-3.lddb");
    write_file(path("cut.lddb"), octile3.substr(0, 100));
    std::string v2 = octile3;
    v2[8] = 2;   // version 2.0 ...
    v2[12] = 2;  // ... needing a 2.x reader (the checksum is not even reached)
    write_file(path("v2.lddb"), v2);
    fs::create_symlink(path("nowhere.lddb"), path("dangling.lddb"));
    const std::string q = "0\tgood.map\t6\t4\t0\t0\t5\t3\t6.82843\n";
    write_file(path("good.scen"), "version 1\n" + q + q);
    write_file(path("bad-line.scen"), "version 1\n" + q + "0\tgood.map\t6\t4\t0\t0\t5\n");
    write_file(path("v2.scen"), "version 2\n" + q);
    write_file(path("off.scen"), "version 1\n0\tgood.map\t6\t4\t0\t0\t5\t4\t5\n");
    write_file(path("size.scen"), "version 1\n0\tgood.map\t7\t4\t0\t0\t5\t3\t6.82843\n");
    write_file(path("nomap.scen"), "version 1\n0\tmaps/elsewhere/other.map\t6\t4\t0\t0\t5\t3\t6.82843\n");
  }
  std::string p(const std::string& name) const { return quote(path(name)); }
  std::string gold(const std::string& name) const { return quote(golden_ / name); }
  fs::path golden_;
};

struct bad_input {
  std::string args;
  int status;
  std::string mention;  // in the message: the file, line, option or problem
};

// Every command, every kind of bad input: a message naming what is wrong, exit status 1
// (a file) or 2 (the command line), below 128, no exception text; and no output file,
// not even a temporary one, left behind.
TEST_F(cli_inputs, EveryCommandRefusesBadInputCleanly) {
  const std::string x = p("x.lddb"), csv = p("o.csv"), svg = p("r.svg"), demo_svg = p("d.svg");
  const std::string missing = path("missing.lddb").string(), nowhere = path("no/such/out").string();
  const std::string solve = "solve --map " + p("good.map") + " ";
  const std::string bench = "bench --algo astar --scen ";
  const std::string render = "render --map " + p("good.map") + " --out " + svg + " ";
  const std::vector<bad_input> cases{
      // gen
      {"gen --like " + p("missing.lddb") + " --out " + x, 1, missing},
      {"gen --like " + p("notes.txt") + " --out " + x, 1, "not an .lddb file"},
      {"gen --like " + quote(dir_) + " --out " + x, 1, "is a directory"},
      {"gen --like " + p("v2.lddb") + " --out " + x, 1, "written by format 2.0; this reader reads 1.x"},
      {"gen --rule hexagonal --block 2 --out " + x, 2, "hexagonal"},
      {"gen --rule octile:foo=1 --block 2 --out " + x, 2, "foo"},
      {"gen --rule octile --block 2.5 --out " + x, 2, "--block: '2.5' is not a whole number"},
      {"gen --rule octile --block 6 --out " + x, 2, "--block: 6 is out of range"},
      {"gen --rule octile --threads -1 --out " + x, 2, "--threads"},
      {"gen --rule octile --zstd-level 99 --out " + x, 2, "--zstd-level"},
      {"gen --rule tile --squeeze allowed --block 2 --out " + x, 2, "--squeeze applies only to any-angle"},
      {"gen --rule octile --block 2 --out ''", 2, "--out: empty file name"},
      {"gen --rule octile --block 2 --out " + quote(nowhere), 1, nowhere},
      {"gen --rule octile --block 2 --frobnicate --out " + x, 2, "--frobnicate"},
      // verify
      {"verify " + p("missing.lddb"), 1, missing + ": io_error: cannot open"},
      {"verify " + p("dangling.lddb"), 1, "dangling.lddb: io_error"},
      {"verify " + quote(dir_), 1, "is a directory"},
      {"verify " + p("empty.lddb"), 1, "empty.lddb: truncated: is empty"},
      {"verify " + p("notes.txt"), 1, "notes.txt: wrong_magic"},
      {"verify " + p("cut.lddb"), 1, "cut.lddb: truncated"},
      {"verify " + p("v2.lddb"), 1, "v2.lddb: unsupported_version: written by format 2.0; this reader reads 1.x"},
      {"verify --frobnicate " + gold("tile-2.lddb"), 2, "--frobnicate"},
      // dump
      {"dump " + p("missing.lddb"), 1, missing},
      {"dump " + p("notes.txt"), 1, "notes.txt"},
      {"dump " + p("v2.lddb"), 1, "written by format 2.0"},
      {"dump " + gold("octile-3.lddb") + " --pattern banana", 2, "--pattern"},
      {"dump " + gold("octile-3.lddb") + " --pattern 512", 2, "codes are 0..511"},
      {"dump " + gold("octile-3.lddb") + " --pattern 0 --pair 1", 2, "--pair"},
      {"dump " + gold("octile-3.lddb") + " " + gold("tile-3.lddb"), 2, "not expected"},
      // info
      {"info --dir " + p("missing"), 1, path("missing").string()},
      {"info --dir " + p("notes.txt"), 1, "not a folder"},
      {"info --frobnicate", 2, "--frobnicate"},
      // solve
      {"solve --map " + p("missing.map") + " --from 0,0 --to 1,1 --algo astar", 1, "missing.map: cannot open"},
      {"solve --map " + quote(dir_) + " --from 0,0 --to 1,1 --algo astar", 1, "is a directory"},
      {"solve --map " + p("bad-row.map") + " --from 0,0 --to 1,1 --algo astar", 1,
       "bad-row.map:6: row 1 has 5 cells, but the header says width 6"},
      {"solve --map " + p("huge.map") + " --from 0,0 --to 1,1 --algo astar", 1, "huge.map:2: height 1000000000 is outside"},
      {"solve --map " + p("notes.txt") + " --from 0,0 --to 1,1 --algo astar", 1, "notes.txt:1: bad header line"},
      {solve + "--from 0,0 --to 1,1 --lddb " + p("missing.lddb"), 1, missing},
      {solve + "--from 0,0 --to 1,1 --lddb " + p("notes.txt"), 1, "notes.txt: not an .lddb file"},
      {solve + "--from '1;1' --to 1,1 --algo astar", 2, "--from: '1;1' is not a point"},
      {solve + "--from 0,0 --to a,b --algo astar", 2, "--to: 'a,b' is not a point"},
      {solve + "--from 6,0 --to 1,1 --algo astar", 2, "--from: cell (6,0) is off the 6x4 map"},
      {solve + "--from 0,0 --to 0,-1 --algo astar", 2, "--to: cell (0,-1) is off the 6x4 map"},
      {solve + "--from 0,0 --to 2,1 --algo astar", 2, "--to: cell (2,1) is blocked"},
      {solve + "--from 0,0 --to 7,0 --algo theta", 2, "--to: vertex (7,0) is off the 6x4 map"},
      {solve + "--from 0,0 --to 1,1 --algo astar --rule hexagonal", 2, "--rule"},
      {solve + "--from 0,0 --to 1,1 --algo dijkstra", 2, "dijkstra"},
      {solve + "--from 0,0 --to 1,1 --algo astar --heuristic wishful", 2, "--heuristic"},
      {solve + "--from 0,0 --to 1,1 --rule tile --lddb " + gold("octile-3.lddb"), 2, "rule mismatch"},
      {solve + "--from 0,0 --to 1,1 --algo astar --rule any-angle", 2, "rule mismatch"},
      {solve + "--from 0,0 --to 1,1 --algo theta --lddb " + gold("octile-3.lddb"), 2, "rule mismatch"},
      {"solve --from 0,0 --to 1,1", 2, "--map"},
      // bench
      {bench + p("missing.scen"), 1, "missing.scen: no such file or folder"},
      {bench + p("bad-line.scen"), 1, "bad-line.scen:3: expected 9 fields"},
      {bench + p("v2.scen"), 1, "v2.scen:1: unsupported scenario version 'version 2'"},
      {bench + p("off.scen"), 1, "off.scen:2: goal (5,4) is off the 6x4 map"},
      {bench + p("size.scen"), 1, "size.scen:2: the scenario says the map is 7x4"},
      {bench + p("nomap.scen"), 1, "nomap.scen:2: map maps/elsewhere/other.map not found"},
      {bench + p("notes.txt"), 1, "notes.txt:1: expected 'version 1' or 'version 1.0' first"},
      {bench + p("good.scen") + " --map " + p("bad-row.map"), 1, "bad-row.map:6"},
      {bench + p("good.scen") + " --limit -1", 2, "--limit: '-1' is not a whole number"},
      {bench + p("good.scen") + " --limit 0", 2, "--limit: 0 is out of range"},
      {bench + p("good.scen") + " --threads -1", 2, "--threads: '-1' is not a whole number"},
      {bench + p("good.scen") + " --threads 1.5", 2, "--threads: '1.5' is not a whole number"},
      {bench + p("good.scen") + " --threads two", 2, "--threads: 'two' is not a whole number"},
      {bench + p("good.scen") + " --threads 5000", 2, "--threads: 5000 is out of range"},
      {bench + p("good.scen") + " --threads", 2, "--threads"},
      {bench + p("good.scen") + " --rule hexagonal", 2, "--rule"},
      {bench + p("good.scen") + " --rule tile --lddb " + gold("octile-3.lddb"), 2, "rule mismatch"},
      {"bench --algo theta --rule tile --scen " + p("good.scen"), 2, "rule mismatch"},
      {bench + p("good.scen") + " --csv " + quote(nowhere), 1, nowhere},
      {bench + p("good.scen") + " --csv ''", 2, "--csv: empty file name"},
      {bench + p("bad-line.scen") + " --csv " + csv + " --paths " + p("paths.txt"), 1, "bad-line.scen:3"},
      // render
      {"render --map " + p("missing.map") + " --out " + svg, 1, "missing.map: cannot open"},
      {"render --map " + p("bad-row.map") + " --out " + svg, 1, "bad-row.map:6"},
      {render + "--from a,b --to 1,1 --algo astar", 2, "--from: 'a,b' is not a point"},
      {render + "--from 0,0 --to 9,9 --algo astar", 2, "--to: cell (9,9) is off the 6x4 map"},
      {render + "--from 0,0 --to 1,1 --algo warp", 2, "warp"},
      {render + "--from 0,0 --to 1,1 --algo astar:hexagonal", 2, "hexagonal"},
      {render + "--from 0,0 --to 1,1 --algo theta:octile", 2, "rule mismatch"},
      {render + "--from 0,0", 2, "--from needs --to"},
      {"render --map " + p("good.map") + " --out ''", 2, "--out: empty file name"},
      {"render --map " + p("good.map") + " --out " + quote(nowhere), 1, nowhere},
      // demo (every check comes before the searches, so these are quick)
      {"demo --queries 0 --out " + demo_svg, 2, "--queries: 0 is out of range"},
      {"demo --queries many --out " + demo_svg, 2, "--queries: 'many' is not a whole number"},
      {"demo --out ''", 2, "--out: empty file name"},
      {"demo --out " + quote(nowhere), 1, nowhere},
      {"demo --frobnicate", 2, "--frobnicate"},
  };
  for (const bad_input& c : cases) {
    SCOPED_TRACE("lddb " + c.args);
    const run_result r = run(c.args);
    expect_clean_failure(r, c.mention, c.status);
    // One line naming the command (CLI11's own errors add a hint line; verify prints its
    // per-file verdict on stdout).
    EXPECT_TRUE(r.err.rfind("lddb ", 0) == 0 || r.err.empty()) << r.err;
  }
  for (const char* out : {"x.lddb", "o.csv", "paths.txt", "r.svg", "d.svg"}) EXPECT_FALSE(fs::exists(path(out))) << out;
  EXPECT_EQ(leftover_temporaries(dir_), std::vector<std::string>{});
}

TEST_F(cli_inputs, HelpAndVersionForEveryCommand) {
  for (const char* sub : {"", "gen", "verify", "dump", "info", "solve", "bench", "render", "demo"}) {
    const run_result r = run(std::string(sub) + " --help");
    EXPECT_EQ(r.status, 0) << sub << "\n" << r.all();
    EXPECT_NE(r.out.find("Usage"), std::string::npos) << sub << "\n" << r.out;
    EXPECT_TRUE(r.err.empty()) << r.err;
  }
}

// ----------------------------------------------------------------------------- help and version

// Without a command, lddb prints its help (the same as --help) on stdout and succeeds.
TEST_F(cli, NoCommandPrintsTheHelp) {
  const run_result r = run("");
  EXPECT_EQ(r.status, 0) << r.all();
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_EQ(r.out, run("--help").out);
  for (const char* sub : {"gen", "verify", "dump", "info", "solve", "bench", "render", "demo"})
    EXPECT_NE(r.out.find(std::string("\n  ") + sub + " "), std::string::npos) << sub << "\n" << r.out;
  const run_result b = run_program_in(LDDB_BENCH, dir_, "");
  EXPECT_EQ(b.status, 0) << b.all();
  EXPECT_NE(b.out.find("suite"), std::string::npos) << b.out;
}

// --version gives the project's version (CMake's project(lddb VERSION ...)), not the
// generator's version that database manifests record.
TEST_F(cli, VersionIsTheProjectVersion) {
  const run_result v = run("--version");
  EXPECT_EQ(v.status, 0) << v.all();
  EXPECT_EQ(v.out, std::string("lddb ") + LDDB_VERSION + "\n");
  EXPECT_EQ(v.out.find(lddb::kGeneratorVersion), std::string::npos) << v.out;
  const run_result b = run_program_in(LDDB_BENCH, dir_, "--version");
  EXPECT_EQ(b.status, 0) << b.all();
  EXPECT_EQ(b.out, std::string("lddb-bench ") + LDDB_VERSION + "\n");
}

// dump --help says what the bits of --pattern mean, with 0x0660 drawn; and that drawing is
// what dump itself draws for that pattern.
TEST_F(cli, DumpHelpExplainsThePatternBits) {
  const run_result r = run("dump --help");
  ASSERT_EQ(r.status, 0) << r.all();
  for (const char* s : {"Bit y*b+x set means cell", "(x,y) of the b x b block is blocked", "decimal or 0x hex", "0x0660",
                        "y=0   . . . .\n", "y=1   . # # .\n", "y=2   . # # .\n", "y=3   . . . .\n"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s << "\n" << r.out;
  const run_result d = run("dump --no-stats " + quote((fs::path(LDDB_SOURCE_DIR) / "lddb" / "octile-4.lddb").string()) +
                           " --pattern 0x0660");
  ASSERT_EQ(d.status, 0) << d.all();
  for (const char* row : {"\n  . . . .     0", "\n  . # # .    11", "\n  . # # .    10", "\n  . . . .     9"})
    EXPECT_NE(d.out.find(row), std::string::npos) << row << "\n" << d.out;
}

// gen --help states the zstd level gen uses when --zstd-level is not given.
TEST_F(cli, GenHelpStatesTheRealZstdDefault) {
  const run_result r = run("gen --help");
  ASSERT_EQ(r.status, 0) << r.all();
  const std::string stated = "0 stores sections raw [" + std::to_string(lddb::recipe{}.zstd_level) + "]";
  EXPECT_NE(r.out.find(stated), std::string::npos) << r.out;
  // And the database gen writes records that level.
  const fs::path db = gen("tile", 2, "t.lddb");
  const run_result d = run("dump --json --no-stats " + quote(db.string()));
  ASSERT_EQ(d.status, 0) << d.all();
  EXPECT_EQ(nlohmann::json::parse(d.out)["recipe"]["zstd_level"], lddb::recipe{}.zstd_level) << d.out;
}

// The files the help examples name exist: the shipped databases in the source tree, and the
// benchmark maps beside it (../shared/maps, when that folder is there).
TEST_F(cli, HelpExamplesNameFilesThatExist) {
  const fs::path source(LDDB_SOURCE_DIR);
  const bool maps_here = fs::is_directory(source / ".." / "shared" / "maps");  // the path the examples name
  if (!maps_here && lddb_test::under_ci()) FAIL() << "CI is set and ../shared/maps is missing: the examples' maps are not checked";
  int checked = 0;
  for (const char* sub : {"gen", "dump", "solve", "bench", "render"}) {
    const run_result r = run(std::string(sub) + " --help");
    ASSERT_EQ(r.status, 0) << r.all();
    std::istringstream in(r.out.substr(r.out.find("Examples:")));
    std::string line;
    while (std::getline(in, line)) {
      std::istringstream words(line);
      std::vector<std::string> w;
      for (std::string x; words >> x;) w.push_back(x);
      for (std::size_t k = 0; k + 1 < w.size(); ++k) {
        const bool input =
            w[k] == "--map" || w[k] == "--scen" || w[k] == "--lddb" || w[k] == "--like" || w[k] == "dump";
        if (!input) continue;
        const std::string& file = w[k + 1];
        SCOPED_TRACE(std::string(sub) + ": " + line);
        EXPECT_TRUE(file.rfind("lddb/", 0) == 0 || file.rfind("../shared/maps/", 0) == 0) << file;
        if (file.rfind("../shared/", 0) == 0 && !maps_here) continue;
        EXPECT_TRUE(fs::exists(source / file)) << file;
        ++checked;
      }
    }
  }
  EXPECT_GE(checked, maps_here ? 12 : 5);
}

// What Block A* expands is called nodes (blocks, and open squares for any-angle) in every
// output.
TEST_F(cli, BlockAstarExpandsNodes) {
  const fs::path map = path("open.map");
  std::string rows;
  for (int y = 0; y < 8; ++y) rows += "........\n";
  write_file(map, "type octile\nheight 8\nwidth 8\nmap\n" + rows);
  const fs::path db = fs::path(LDDB_SOURCE_DIR) / "tests" / "golden" / "octile-3.lddb";
  const run_result r = run("solve --map " + quote(map) + " --from 0,0 --to 7,7 --no-jumps --lddb " + quote(db));
  ASSERT_EQ(r.status, 0) << r.all();
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\nexpanded   [0-9]+ nodes\n"))) << r.out;
  EXPECT_EQ(r.out.find("blocks"), std::string::npos) << r.out;
  const run_result a = run("solve --algo astar --map " + quote(map) + " --from 0,0 --to 7,7");
  ASSERT_EQ(a.status, 0) << a.all();
  EXPECT_TRUE(std::regex_search(a.out, std::regex("\nexpanded   [0-9]+ cells\n"))) << a.out;
  const fs::path svg = path("r.svg");
  const run_result d = run("render --map " + quote(map) + " --from 0,0 --to 7,7 --lddb " + quote(db) +
                           " --algo block-astar --no-jumps --out " + quote(svg));
  ASSERT_EQ(d.status, 0) << d.all();
  EXPECT_TRUE(std::regex_search(read_file(svg), std::regex("expanded [0-9]+ nodes"))) << read_file(svg);
  // --algo block-astar is Block A* alone, prepared map or not.
  const run_result b = run("render --map " + quote(map) + " --from 0,0 --to 7,7 --lddb " + quote(db) +
                           " --algo block-astar --out " + quote(svg));
  ASSERT_EQ(b.status, 0) << b.all();
  EXPECT_TRUE(std::regex_search(read_file(svg), std::regex("expanded [0-9]+ nodes"))) << read_file(svg);
  // find-path, the default, follows the preparation, which hands octile queries on open
  // ground to jump point search, and both commands say so.
  const run_result j = run("render --map " + quote(map) + " --from 0,0 --to 7,7 --lddb " + quote(db) +
                           " --algo find-path --out " + quote(svg));
  ASSERT_EQ(j.status, 0) << j.all();
  EXPECT_TRUE(std::regex_search(read_file(svg), std::regex("expanded [0-9]+ jump points"))) << read_file(svg);
  const run_result js = run("solve --map " + quote(map) + " --from 0,0 --to 7,7 --lddb " + quote(db));
  EXPECT_TRUE(std::regex_search(js.out, std::regex("\nexpanded   [0-9]+ jump points\n"))) << js.out;
}

// A failed command leaves an existing output file as it was.
TEST_F(cli_inputs, FailedCommandsLeaveExistingOutputsAlone) {
  for (const char* name : {"keep.lddb", "keep.csv", "keep.svg"}) write_file(path(name), "precious");
  expect_clean_failure(run("gen --like " + p("cut.lddb") + " --out " + p("keep.lddb")), "cut.lddb", 1);
  expect_clean_failure(run("bench --algo astar --scen " + p("bad-line.scen") + " --csv " + p("keep.csv")),
                       "bad-line.scen:3", 1);
  expect_clean_failure(run("render --map " + p("bad-row.map") + " --out " + p("keep.svg")), "bad-row.map:6", 1);
  for (const char* name : {"keep.lddb", "keep.csv", "keep.svg"}) EXPECT_EQ(read_file(path(name)), "precious") << name;
  EXPECT_EQ(leftover_temporaries(dir_), std::vector<std::string>{});
}

// Output lost to a full disk is a failure, not a success.
TEST_F(cli_inputs, OutputThatCannotBeWrittenIsAFailure) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full here";
  for (const std::string& args :
       {"verify " + gold("tile-2.lddb"), "dump " + gold("tile-2.lddb"), "dump --json " + gold("tile-2.lddb"),
        "solve --algo astar --map " + p("good.map") + " --from 0,0 --to 5,3"}) {
    SCOPED_TRACE(args);
    const fs::path err = path("full-stderr.txt");
    const int raw = std::system((quote(std::string(LDDB_CLI)) + " " + args + " >/dev/full 2>" + quote(err)).c_str());
    ASSERT_TRUE(WIFEXITED(raw));
    EXPECT_EQ(WEXITSTATUS(raw), 1);
    EXPECT_NE(read_file(err).find("error: cannot write the output"), std::string::npos) << read_file(err);
  }
}

TEST_F(cli_inputs, VerifyAcceptsEveryGoldenFile) {
  std::string files;
  int n = 0;
  for (const auto& e : fs::directory_iterator(golden_))
    if (e.path().extension() == ".lddb") files += " " + quote(e.path()), ++n;
  ASSERT_GE(n, 8);
  const run_result r = run("verify" + files);
  EXPECT_EQ(r.status, 0) << r.all();
  std::size_t ok = 0;
  for (std::size_t at = r.out.find(": ok ("); at != std::string::npos; at = r.out.find(": ok (", at + 1)) ++ok;
  EXPECT_EQ(ok, static_cast<std::size_t>(n)) << r.out;
}

// Real files vary: CRLF line ends, trailing blanks, no final newline. Each variant of a
// map and of a scenario gives the same answers as the plain file.
TEST_F(cli_inputs, LineEndVariantsAreAccepted) {
  const std::vector<std::string> rows{"......", "..@@..", "......", "......"};
  const std::string q1[] = {"0", "good.map", "6", "4", "0", "0", "5", "3", "6.82843"};
  const std::string q2[] = {"1", "good.map", "6", "4", "5", "0", "0", "3", "6.82843"};
  int k = 0;
  std::string first_csv;
  for (const char* eol : {"\n", "\r\n"})
    for (const char* trail : {"", " \t "})
      for (bool final_newline : {true, false}) {
        SCOPED_TRACE(std::string("eol ") + (eol[0] == '\r' ? "CRLF" : "LF") + ", trailing '" + trail + "', " +
                     (final_newline ? "final newline" : "no final newline"));
        const std::string name = "v" + std::to_string(k++);
        std::string map = std::string("type octile") + trail + eol + "height 4" + eol + "width 6" + trail + eol + "map" + eol;
        for (std::size_t y = 0; y < rows.size(); ++y) map += rows[y] + trail + (y + 1 < rows.size() || final_newline ? eol : "");
        write_file(path(name + ".map"), map);
        const run_result s = run("solve --algo astar --map " + p(name + ".map") + " --from 0,0 --to 5,3");
        EXPECT_EQ(s.status, 0) << s.all();
        EXPECT_NE(s.out.find("length     6.8284"), std::string::npos) << s.out;

        std::string scen = std::string("version 1") + trail + eol;
        for (const auto* q : {q1, q2}) {
          std::string line;
          for (int f = 0; f < 9; ++f) line += (f ? "\t" : "") + (f == 1 ? name + ".map" : q[f]);
          scen += line + trail + (q == q1 || final_newline ? eol : "");
        }
        write_file(path(name + ".scen"), scen);
        const fs::path out = path(name + ".csv");
        const run_result b = run("bench --algo astar --scen " + p(name + ".scen") + " --csv " + quote(out));
        EXPECT_EQ(b.status, 0) << b.all();
        // The rows, without the columns that name the files or time the search.
        std::string lengths;
        std::istringstream in(read_file(out));
        std::string line;
        while (std::getline(in, line)) {
          std::vector<std::string> cols;
          std::stringstream ls(line);
          for (std::string c; std::getline(ls, c, ',');) cols.push_back(c);
          ASSERT_GE(cols.size(), 16u) << line;
          lengths += cols[2] + " " + cols[5] + "," + cols[6] + "->" + cols[7] + "," + cols[8] + " " + cols[9] + " " +
                     cols[10] + "\n";
        }
        if (first_csv.empty()) first_csv = lengths;
        EXPECT_EQ(lengths, first_csv);
      }
  EXPECT_NE(first_csv.find("2 0,0->5,3 found 6.828427"), std::string::npos) << first_csv;
}

// ----------------------------------------------------------------------------- bench: bounded memory

// Writes a scenario of `n` queries on good.map, and optionally a malformed last line.
void write_big_scenario(const fs::path& f, std::size_t n, bool bad_last_line) {
  std::ofstream out(f, std::ios::binary);
  out << "version 1\n";
  const char* const kQueries[] = {"0\tgood.map\t6\t4\t0\t0\t5\t3\t6.82843\n", "1\tgood.map\t6\t4\t5\t0\t0\t3\t6.82843\n",
                                  "2\tgood.map\t6\t4\t0\t3\t5\t0\t6.82843\n"};
  for (std::size_t k = 0; k < n; ++k) out << kQueries[k % 3];
  if (bad_last_line) out << "9\tgood.map\t6\t4\t0\t0\n";
}

// A million-line scenario with --limit: the queries past the limit are not even read (a
// malformed last line goes unnoticed), so it takes no longer than a small one.
TEST_F(cli_inputs, BenchWithALimitReadsNoFurther) {
  write_big_scenario(path("big.scen"), 1'000'000, true);
  const auto t0 = std::chrono::steady_clock::now();
  const run_result r = run("bench --algo astar --scen " + p("big.scen") + " --limit 3 --csv " + p("big.csv"));
  EXPECT_EQ(r.status, 0) << r.all();
  EXPECT_NE(r.out.find("1 scenario file, 3 queries"), std::string::npos) << r.out;
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
  std::istringstream rows(read_file(path("big.csv")));
  std::string line;
  int n = 0;
  while (std::getline(rows, line)) ++n;
  EXPECT_EQ(n, 4);  // heading and 3 rows
  fs::remove(path("big.scen"));
}

// A malformed line after hundreds of good ones stops the run with the file and line named,
// and the CSV and path files it was writing are discarded.
TEST_F(cli_inputs, BenchStopsAtAMalformedLineAndDiscardsItsOutputs) {
  write_big_scenario(path("late.scen"), 500, true);
  const run_result r =
      run("bench --algo astar --scen " + p("late.scen") + " --csv " + p("late.csv") + " --paths " + p("late.txt"));
  expect_clean_failure(r, path("late.scen").string() + ":502: expected 9 fields", 1);
  EXPECT_FALSE(fs::exists(path("late.csv")));
  EXPECT_FALSE(fs::exists(path("late.txt")));
  EXPECT_EQ(leftover_temporaries(dir_), std::vector<std::string>{});
}

// bench keeps neither the queries nor the CSV rows in memory: 100 times the queries do not
// take more memory. (Holding them would take about 25 MB more here.)
TEST_F(cli_inputs, BenchMemoryDoesNotGrowWithTheScenario) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "a sanitizer's allocator keeps freed memory in quarantine: resident memory says nothing here";
#endif
  long small_kib = 0, large_kib = 0;
  write_big_scenario(path("small.scen"), 1'000, false);
  write_big_scenario(path("large.scen"), 100'000, false);
  const std::string outputs = " --csv " + p("m.csv") + " --paths " + p("m.txt");
  const run_result s = run_measured(dir_, "bench --algo astar --scen " + p("small.scen") + outputs, &small_kib);
  ASSERT_EQ(s.status, 0) << s.all();
  const run_result l = run_measured(dir_, "bench --algo astar --scen " + p("large.scen") + outputs, &large_kib);
  ASSERT_EQ(l.status, 0) << l.all();
  EXPECT_NE(l.out.find("100000 queries"), std::string::npos) << l.out;
  EXPECT_GT(fs::file_size(path("m.csv")), std::uintmax_t{5} << 20);  // what it did not keep
  EXPECT_LT(large_kib - small_kib, 4 * 1024) << "1,000 queries: " << small_kib << " KiB; 100,000: " << large_kib << " KiB";
}

}  // namespace
