// tests/cli_test.cpp: the `lddb` program, run as a user would run it.
//
// Each test runs the built binary (LDDB_CLI) through the shell in its own scratch folder
// under the build tree, so tests can run in parallel, and checks exit statuses, messages
// and the files written. Databases are small (b = 2 or 3) to keep the suite fast.
#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_support.hpp"

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
  expect_clean_failure(run(""), "subcommand");
  expect_clean_failure(run("frobnicate"), "frobnicate");
  expect_clean_failure(run("verify"), "FILE");
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
  const run_result r = run("info --dir " + quote(dir_.string()));
  // tile-4, octile-4 and any-angle-4 are missing and broken.lddb is corrupt: failure.
  EXPECT_GT(r.status, 0) << r.all();
  EXPECT_LT(r.status, 128) << r.all();
  EXPECT_NE(r.out.find("tile-2.lddb"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("MISSING"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("gen --rule any-angle --block 4 --out"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("broken.lddb"), std::string::npos) << r.out;

  // The environment variable is honoured too.
  const run_result e = run("info", "LDDB_DATA_DIR=" + quote(dir_.string()));
  EXPECT_NE(e.out.find("tile-2.lddb"), std::string::npos) << e.all();

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

}  // namespace
