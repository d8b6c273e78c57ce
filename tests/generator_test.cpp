// The generator: reproducibility (threads, --like, the shipped files) and the manifest.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "lddb/format.hpp"
#include "lddb/generator.hpp"

namespace {

using lddb::recipe;
using lddb::rule;

std::vector<rule> all_rules() {
  return {rule::tile(),
          rule::octile(),
          rule::octile(lddb::corner_cutting::one_side_free),
          rule::octile(lddb::corner_cutting::forbidden, *lddb::parse_diagonal_cost("1.5")),
          rule::any_angle(),
          rule::any_angle(lddb::squeezing::allowed)};
}

std::vector<std::uint8_t> build(const recipe& r, int threads) {
  lddb::generate_options o;
  o.threads = threads;
  return lddb::encode_database(lddb::generate(r, o));
}

std::vector<std::uint8_t> read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(Generator, ThreadCountDoesNotChangeABit) {
  for (const rule& r : all_rules()) {
    for (int b : {3, 4}) {
      recipe rc;
      rc.movement = r;
      rc.block = b;
      const auto one = build(rc, 1);
      EXPECT_EQ(one, build(rc, 2)) << r.name() << " b=" << b;
      EXPECT_EQ(one, build(rc, 3)) << r.name() << " b=" << b;
    }
  }
}

TEST(Generator, ManifestRoundTrips) {
  for (const rule& r : all_rules()) {
    recipe rc;
    rc.movement = r;
    rc.block = 3;
    rc.zstd_level = 7;
    rc.use_symmetry = false;
    const recipe back = lddb::recipe_from_manifest(lddb::recipe_to_manifest(rc));
    EXPECT_EQ(back, rc) << r.name();
  }
  EXPECT_THROW(lddb::recipe_from_manifest("not a recipe"), std::runtime_error);
  EXPECT_THROW(lddb::recipe_from_manifest("lddb-recipe 1\n<recipe>"), std::runtime_error);
}

// The manifest's rule fields go through the same check as the header's (rule_fields_error).
TEST(Generator, ManifestRuleFieldsAreChecked) {
  recipe rc;
  rc.movement = rule::tile();
  std::string text = lddb::recipe_to_manifest(rc);
  const std::string field = "<corner_cutting>0</corner_cutting>";
  const std::size_t at = text.find(field);
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at, field.size(), "<corner_cutting>1</corner_cutting>");
  try {
    lddb::recipe_from_manifest(text);
    ADD_FAILURE() << "a tile rule with corner cutting was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("corner cutting is set for a rule that is not octile"), std::string::npos)
        << e.what();
  }
}

TEST(Generator, WithoutSymmetryEveryPatternIsItsOwnEntry) {
  recipe rc;
  rc.movement = rule::octile();
  rc.block = 3;
  rc.use_symmetry = false;
  const auto img = lddb::generate(rc, {});
  EXPECT_EQ(img.cost_id.size(), 512u);
  EXPECT_EQ(img.symmetry_mask, 1);
  rc.use_symmetry = true;
  EXPECT_EQ(lddb::generate(rc, {}).cost_id.size(), 102u);
}

TEST(Generator, ProgressReachesTheTotal) {
  recipe rc;
  rc.movement = rule::tile();
  rc.block = 4;
  std::uint64_t last = 0, total = 0;
  lddb::generate_options o;
  o.progress = [&](std::uint64_t done, std::uint64_t all) {
    EXPECT_GE(done, last);
    last = done;
    total = all;
  };
  lddb::generate(rc, o);
  EXPECT_EQ(total, 65536u);
  EXPECT_EQ(last, total);
}

TEST(Generator, RejectsBadRecipes) {
  recipe rc;
  rc.block = 6;
  EXPECT_THROW(lddb::generate(rc, {}), std::invalid_argument);
  rc.block = 1;
  EXPECT_THROW(lddb::generate(rc, {}), std::invalid_argument);
}

// The databases we ship must be exactly what today's generator writes for their recipe, so
// that `lddb gen --rule R` reproduces them: the manifest gives the rule, block size,
// symmetry and zstd level, and the generator's own version replaces the recorded one (a
// file built by an older generator fails here until it is rebuilt).
TEST(Generator, ShippedDatabasesAreTodaysGeneratorOutput) {
  const std::filesystem::path dir = std::filesystem::path(LDDB_SOURCE_DIR) / "lddb";
  const std::vector<std::string> expected = {"tile-4.lddb", "octile-4.lddb", "any-angle-4.lddb"};
  for (const std::string& name : expected) {
    const auto path = dir / name;
    ASSERT_TRUE(std::filesystem::exists(path)) << path << " is missing";
    const auto opened = lddb::database::open(path.string());
    ASSERT_TRUE(opened) << opened.message;
    recipe rc = lddb::recipe_from_manifest(opened.db->manifest());
    EXPECT_EQ(rc.block, 4);
    EXPECT_EQ(rc.generator_version, lddb::kGeneratorVersion) << name << " was built by an older generator";
    rc.generator_version = lddb::kGeneratorVersion;
    EXPECT_EQ(build(rc, 2), read_file(path))
        << name << " differs from a fresh generation: rebuild it with lddb gen --like " << path;
  }
}

}  // namespace
