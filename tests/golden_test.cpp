// golden_test: the compatibility contract of the .lddb format, version 1.0.
//
// tests/golden/ holds small databases written by the 1.0 writer (lddb-gen 1.0, see
// tests/golden/README.md) and frozen: never regenerate or edit them; a later format adds
// files beside them. Every reader of format major 1, now and later, must
//   - find each file's bytes unchanged (a guard against regenerating them by mistake);
//   - open each one and report the header facts recorded below;
//   - answer every lookup in agreement with an independent computation of the block
//     distances (tests/oracle.hpp: plain Dijkstra written from docs/rules.md, not the
//     generator), with legal stored paths whose length is the stored cost;
//   - still read them with the minor version raised (minors only add what old readers can
//     ignore), and refuse them with the major version raised: status unsupported_version,
//     "written by format 2.0; this reader reads 1.x" (docs/format.md, section 7);
//   - notice every single-bit flip of them: open fails with a status and a message that
//     names the file, and never crashes.
// Only the public API is used (lddb/format.hpp), plus XXH3 to re-seal a header checksum
// as docs/format.md specifies it.
#define XXH_INLINE_ALL
#include <xxhash.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "byte_patch.hpp"
#include "lddb/format.hpp"
#include "lddb/generator.hpp"
#include "oracle.hpp"

namespace {

namespace fs = std::filesystem;
using bytes = std::vector<std::uint8_t>;
using lddb::database;
using lddb::point;
using lddb::rule;
using lddb::status;

// ----------------------------------------------------------------------------- the files

struct golden {
  const char* file;
  std::uint64_t xxh3;  // of the whole file: these bytes are frozen
  std::uint64_t size;
  rule movement;
  int block;
  lddb::cost_encoding encoding;
  int scale_log2;
  std::uint8_t symmetry_mask;
  std::uint32_t canonical, cost_tables, path_tables;
  const char* sections;  // tag:codec in table order
};

// How ctest and gtest show a parameter: the file's name, not the struct's bytes.
void PrintTo(const golden& g, std::ostream* os) { *os << g.file; }

rule octile_cut_15() {
  return rule::octile(lddb::corner_cutting::one_side_free, std::uint64_t{3} << 31);  // diagonal 1.5 exactly
}

const std::vector<golden>& goldens() {
  using enc = lddb::cost_encoding;
  static const std::vector<golden> g{
      {"tile-2.lddb", 0x4b36c63743e37bfe, 777, rule::tile(), 2, enc::fixed_point, 0, 0xFF, 6, 4, 3,
       "MANI:stored ENTR:stored COST:zstd PATH:stored"},
      {"tile-3.lddb", 0x7e3784687ed47369, 1423, rule::tile(), 3, enc::fixed_point, 0, 0xFF, 102, 46, 38,
       "MANI:stored ENTR:zstd COST:zstd PATH:zstd"},
      {"octile-2-nosym-stored.lddb", 0x3b29de2eeb09e719, 845, rule::octile(), 2, enc::octile_pair, 0, 0x01, 16, 10, 5,
       "MANI:stored ENTR:stored COST:stored PATH:stored"},
      {"octile-3.lddb", 0x75f63790303f346a, 1414, rule::octile(), 3, enc::octile_pair, 0, 0xFF, 102, 49, 38,
       "MANI:stored ENTR:zstd COST:zstd PATH:zstd"},
      {"octile-3-corners-diagonal-1.5.lddb", 0x943114307d1622a1, 1403, octile_cut_15(), 3, enc::octile_pair, 0, 0xFF, 102,
       47, 30, "MANI:stored ENTR:zstd COST:zstd PATH:zstd"},
      {"octile-4.lddb", 0x181523de06272977, 31427, rule::octile(), 4, enc::octile_pair, 0, 0xFF, 8548, 2077, 1578,
       "MANI:stored ENTR:zstd COST:zstd PATH:zstd"},
      // Written as "any-angle" by format 1.0, whose rule let a path turn at a double corner:
      // read as the rule whose least costs it holds (docs/format.md, section 7).
      {"any-angle-3.lddb", 0x8ed441863fbbce2e, 2718, rule::any_angle(lddb::squeezing::allowed), 3, enc::fixed_point,
       11, 0xFF, 102, 95, 65,
       "MANI:stored ENTR:zstd COST:zstd PATH:zstd"},
      {"any-angle-3-squeeze.lddb", 0x4e56d69e6685811d, 2679, rule::any_angle(lddb::squeezing::allowed), 3,
       enc::fixed_point, 11, 0xFF, 102, 95, 64, "MANI:stored ENTR:zstd COST:zstd PATH:zstd"},
  };
  return g;
}

fs::path golden_path(const golden& g) { return fs::path(LDDB_SOURCE_DIR) / "tests" / "golden" / g.file; }

bytes read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

using byte_patch::get;
using byte_patch::put;

// Header checksum (docs/format.md, section 2): XXH3-64 of bytes [0, 56) followed by the
// section table (48 bytes per section, count at byte 52).
void reseal_header(bytes& f) {
  bytes covered(f.begin(), f.begin() + 56);
  const std::size_t table = 48 * get<std::uint32_t>(f, 52);
  covered.insert(covered.end(), f.begin() + 64, f.begin() + 64 + static_cast<std::ptrdiff_t>(table));
  put<std::uint64_t>(f, 56, XXH3_64bits(covered.data(), covered.size()));
}

std::string hex(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(v));
  return buf;
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

class Golden : public ::testing::TestWithParam<golden> {};

std::string golden_name(const ::testing::TestParamInfo<golden>& info) {
  std::string n = info.param.file;
  n = n.substr(0, n.size() - 5);
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

// ----------------------------------------------------------------------------- bytes and header

TEST_P(Golden, BytesAreFrozen) {
  const golden& g = GetParam();
  const bytes f = read_bytes(golden_path(g));
  ASSERT_EQ(f.size(), g.size) << golden_path(g) << ": golden files are frozen; add a new file instead of changing one";
  EXPECT_EQ(hex(XXH3_64bits(f.data(), f.size())), hex(g.xxh3))
      << golden_path(g) << ": golden files are frozen; add a new file instead of changing one";
}

TEST_P(Golden, HeaderFacts) {
  const golden& g = GetParam();
  const std::string path = golden_path(g).string();
  const database::open_result r = database::open(path);
  ASSERT_TRUE(r) << r.message;
  const lddb::header_info& h = r.db->info();
  EXPECT_EQ(h.version, (lddb::format_version{1, 0}));
  EXPECT_EQ(h.min_reader, (lddb::format_version{1, 0}));
  EXPECT_TRUE(h.movement == g.movement) << h.movement.name() << " vs " << g.movement.name();
  EXPECT_EQ(h.block, g.block);
  EXPECT_EQ(h.vertices, g.movement.kind == lddb::rule_kind::any_angle);
  EXPECT_EQ(h.encoding, g.encoding);
  EXPECT_EQ(h.scale_log2, g.scale_log2);
  EXPECT_EQ(h.symmetry_mask, g.symmetry_mask);
  EXPECT_EQ(h.canonical_patterns, g.canonical);
  EXPECT_EQ(h.cost_tables, g.cost_tables);
  EXPECT_EQ(h.path_tables, g.path_tables);
  EXPECT_EQ(h.file_size, g.size);
  std::string sections;
  for (const lddb::section_info& s : h.sections)
    sections += (sections.empty() ? "" : " ") + s.name() + ":" + (s.codec == lddb::section_codec::zstd ? "zstd" : "stored");
  EXPECT_EQ(sections, g.sections);
  EXPECT_EQ(r.db->shape().block(), g.block);
  EXPECT_EQ(r.db->path(), path);

  // The same facts straight from the bytes, as docs/format.md lays them out.
  const bytes f = read_bytes(path);
  const std::uint8_t magic[8] = {0x89, 'L', 'D', 'D', 'B', '\r', '\n', 0x1A};
  EXPECT_TRUE(std::equal(std::begin(magic), std::end(magic), f.begin()));
  EXPECT_EQ(get<std::uint16_t>(f, 8), 1);    // version major
  EXPECT_EQ(get<std::uint16_t>(f, 10), 0);   // version minor
  EXPECT_EQ(get<std::uint32_t>(f, 16), 0x01020304u);
  EXPECT_EQ(f.at(24), g.block);
  EXPECT_EQ(get<std::uint64_t>(f, 32), g.movement.diagonal);
  EXPECT_EQ(get<std::uint32_t>(f, 40), g.canonical);

  // The recipe in the manifest still reads: `lddb gen --like` works on every 1.0 file.
  const lddb::recipe rc = lddb::recipe_from_manifest(r.db->manifest());
  EXPECT_TRUE(lddb::rule_as_written(rc.movement, r.db->info().version) == g.movement);
  EXPECT_EQ(rc.block, g.block);
  EXPECT_EQ(rc.use_symmetry, g.symmetry_mask == 0xFF);
  EXPECT_EQ(rc.generator_version, "lddb-gen 1.0");

  // A query for another rule is refused, naming the file and both rules.
  const rule other = g.movement == rule::tile() ? rule::octile() : rule::tile();
  std::string why;
  EXPECT_EQ(r.db->check_rule(other, &why), status::rule_mismatch);
  EXPECT_TRUE(contains(why, path) && contains(why, other.name()) && contains(why, g.movement.name())) << why;
  EXPECT_EQ(r.db->check_rule(g.movement, &why), status::ok);
}

// ----------------------------------------------------------------------------- lookups

// How far a decoded cost may be from the true least cost: exact for tile; octile-pair
// costs are exact in fixed point (1e-9 covers the oracle's doubles); any-angle costs are
// rounded to 2^-scale_log2.
double cost_tolerance(const golden& g) {
  switch (g.movement.kind) {
    case lddb::rule_kind::tile:
      return 0;
    case lddb::rule_kind::octile:
      return 1e-9;
    case lddb::rule_kind::any_angle:
      return std::ldexp(0.5, -g.scale_log2) + 1e-9;
  }
  return 0;
}

double length_of(lddb::cost_t c) {
  return c == lddb::kUnreachable ? oracle::kInf : static_cast<double>(c) / 4294967296.0;
}

bool close(double want, double got, double tol) {
  if (std::isinf(want) || std::isinf(got)) return std::isinf(want) && std::isinf(got);
  return std::abs(want - got) <= tol;
}

// Every pattern, every ordered pair of boundary points (b = 4: every third pattern).
TEST_P(Golden, EveryLookupAgreesWithTheOracle) {
  const golden& g = GetParam();
  const database::open_result r = database::open(golden_path(g).string());
  ASSERT_TRUE(r) << r.message;
  const database& db = *r.db;
  const oracle::block_oracle orc(g.movement, g.block);
  const int n = orc.boundary_count();
  ASSERT_EQ(db.shape().boundary_count(), n);
  const double tol = cost_tolerance(g);
  const std::uint32_t stride = g.block >= 4 ? 3 : 1;
  const std::uint64_t patterns = std::uint64_t{1} << (g.block * g.block);
  int failures = 0;
  std::uint64_t checked = 0;
  for (std::uint64_t c = 0; c < patterns && failures < 10; c += stride) {
    const auto code = static_cast<std::uint32_t>(c);
    const std::vector<double> want = orc.all_pairs(code);
    const database::cost_view view = db.view(code);
    for (int i = 0; i < n; ++i) {
      const bool usable = orc.point_usable(code, orc.boundary_point(i));
      if (db.cost(code, i, i) != (usable ? 0 : lddb::kUnreachable)) {
        ADD_FAILURE() << g.file << " pattern " << code << ": cost(" << i << "," << i << ") with the point "
                      << (usable ? "usable" : "not usable");
        ++failures;
      }
      for (int j = 0; j < n; ++j) {
        if (i == j) continue;
        ++checked;
        const double w = want[static_cast<std::size_t>(i * n + j)];
        const lddb::cost_t c_ij = db.cost(code, i, j);
        const double got = length_of(c_ij);
        if (!close(w, got, tol) || view.cost(i, j) != c_ij || db.cost(code, j, i) != c_ij) {
          ADD_FAILURE() << g.file << " pattern " << code << " pair " << i << "," << j << ": cost " << got << ", view "
                        << length_of(view.cost(i, j)) << ", reverse " << length_of(db.cost(code, j, i)) << ", oracle " << w;
          ++failures;
          continue;
        }
        lddb::inflections fwd, back;
        const bool has = db.path(code, i, j, &fwd);
        if (has != !std::isinf(w) || has != db.path(code, j, i, &back)) {
          ADD_FAILURE() << g.file << " pattern " << code << " pair " << i << "," << j << ": path() " << has
                        << " with oracle cost " << w;
          ++failures;
          continue;
        }
        if (!has) continue;
        const std::vector<point> pts(fwd.points.begin(), fwd.points.begin() + fwd.count);
        std::vector<point> rev(back.points.begin(), back.points.begin() + back.count);
        std::reverse(rev.begin(), rev.end());
        const oracle::path_report rep = orc.check_path(code, i, j, pts);
        // The stored path's exact length is the stored cost, up to the cost's rounding.
        if (!rep.ok || !close(got, rep.length, tol) || rev != pts) {
          ADD_FAILURE() << g.file << " pattern " << code << " pair " << i << "," << j << ": stored path "
                        << (rep.ok ? "of length " + std::to_string(rep.length) : "illegal: " + rep.why) << ", cost " << got
                        << (rev != pts ? ", and the path back is not its reverse" : "");
          ++failures;
        }
      }
    }
  }
  EXPECT_EQ(failures, 0);
  EXPECT_GT(checked, 0u);
}

// ----------------------------------------------------------------------------- versions

TEST_P(Golden, NewerMinorStillReads) {
  const golden& g = GetParam();
  bytes f = read_bytes(golden_path(g));
  put<std::uint16_t>(f, 10, 9);  // written by 1.9, readable by 1.0 readers (min reader unchanged)
  reseal_header(f);
  const database::open_result r = database::open_bytes(f, g.file);
  ASSERT_TRUE(r) << r.message;
  EXPECT_EQ(r.db->info().version, (lddb::format_version{1, 9}));
  const database::open_result original = database::open(golden_path(g).string());
  ASSERT_TRUE(original) << original.message;
  for (std::uint64_t c = 0; c < (std::uint64_t{1} << (g.block * g.block)); c += 5)
    for (int i = 0; i < original.db->shape().boundary_count(); ++i)
      for (int j = 0; j < original.db->shape().boundary_count(); ++j)
        ASSERT_EQ(r.db->cost(static_cast<std::uint32_t>(c), i, j), original.db->cost(static_cast<std::uint32_t>(c), i, j));
}

TEST_P(Golden, NewerMajorIsRefusedWithTheDocumentedError) {
  const golden& g = GetParam();
  const std::uint16_t major = lddb::kFormatVersion.major;
  ASSERT_EQ(major, 1) << "these golden files are format 1.0; a reader of another major refuses them";
  bytes f = read_bytes(golden_path(g));
  put<std::uint16_t>(f, 8, static_cast<std::uint16_t>(major + 1));   // version 2.0
  put<std::uint16_t>(f, 12, static_cast<std::uint16_t>(major + 1));  // min reader 2.0
  reseal_header(f);
  const database::open_result r = database::open_bytes(f, g.file);
  EXPECT_FALSE(r);
  EXPECT_EQ(std::string(lddb::status_name(r.code)), "unsupported_version") << r.message;
  EXPECT_EQ(r.message, std::string(g.file) + ": written by format 2.0; this reader reads 1.x");
  // The same without re-sealing: the version is checked before the checksum, so the
  // reader still says why rather than "checksum mismatch".
  bytes unsealed = read_bytes(golden_path(g));
  put<std::uint16_t>(unsealed, 8, 2);
  put<std::uint16_t>(unsealed, 12, 2);
  EXPECT_EQ(database::open_bytes(unsealed, g.file).code, status::unsupported_version);
}

INSTANTIATE_TEST_SUITE_P(Files, Golden, ::testing::ValuesIn(goldens()), golden_name);

// ----------------------------------------------------------------------------- bit flips

// Flips one bit of a golden file and opens it: it must be refused, with a status and a
// message naming the file. Returns the status.
status flip_and_open(const bytes& original, const std::string& name, std::size_t bit) {
  bytes f = original;
  f[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
  const database::open_result r = database::open_bytes(f, name);
  EXPECT_FALSE(r) << name << ": flipping bit " << bit % 8 << " of byte " << bit / 8 << " went unnoticed";
  EXPECT_NE(r.code, status::ok);
  EXPECT_TRUE(contains(r.message, name)) << r.message;
  return r.code;
}

// Every bit of every golden file up to 4 KB, and 4,000 random bits of the larger one.
TEST(GoldenFlips, EveryBitFlipIsDetected) {
  std::map<std::string, std::uint64_t> by_status;
  std::uint64_t tested = 0, detected = 0, files = 0;
  std::mt19937_64 rng(1);
  for (const golden& g : goldens()) {
    const bytes f = read_bytes(golden_path(g));
    ASSERT_EQ(f.size(), g.size) << g.file;
    ++files;
    std::vector<std::size_t> bits;
    if (f.size() <= 4096) {
      for (std::size_t bit = 0; bit < f.size() * 8; ++bit) bits.push_back(bit);
    } else {
      std::uniform_int_distribution<std::size_t> pick(0, f.size() * 8 - 1);
      for (int k = 0; k < 4000; ++k) bits.push_back(pick(rng));
    }
    for (std::size_t bit : bits) {
      const status s = flip_and_open(f, g.file, bit);
      ++tested;
      if (s != status::ok) ++detected;
      ++by_status[lddb::status_name(s)];
    }
  }
  EXPECT_EQ(detected, tested);
  std::string summary;
  for (const auto& [name, count] : by_status) summary += " " + name + "=" + std::to_string(count);
  std::printf("[ flips    ] %llu single-bit flips over %llu golden files, %llu detected;%s\n",
              static_cast<unsigned long long>(tested), static_cast<unsigned long long>(files),
              static_cast<unsigned long long>(detected), summary.c_str());
  ::testing::Test::RecordProperty("flips_tested", std::to_string(tested));
  ::testing::Test::RecordProperty("flips_detected", std::to_string(detected));
}

// Truncating a golden file anywhere is noticed too.
TEST(GoldenFlips, EveryTruncationIsDetected) {
  for (const golden& g : goldens()) {
    const bytes f = read_bytes(golden_path(g));
    const std::size_t step = f.size() > 4096 ? 97 : 1;
    for (std::size_t cut = 0; cut < f.size(); cut += step) {
      const database::open_result r = database::open_bytes(std::span(f).first(cut), g.file);
      ASSERT_FALSE(r) << g.file << " cut to " << cut << " bytes";
      ASSERT_TRUE(r.code == status::truncated || r.code == status::wrong_magic) << g.file << " cut to " << cut << ": "
                                                                                << lddb::status_name(r.code);
    }
  }
}

}  // namespace
