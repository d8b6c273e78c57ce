// Movement rules and block geometry, against hand-worked cases.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "lddb/cost.hpp"
#include "lddb/rule.hpp"
#include "lddb/moves.hpp"
#include "lddb/segments.hpp"
#include "lddb/point.hpp"
#include "lddb/block_shape.hpp"
#include "lddb/block_graph.hpp"

namespace {

using lddb::block_shape;
using lddb::point;
using lddb::rule;

// A small grid from text rows; '#' is blocked, everything outside is blocked.
struct text_grid {
  std::vector<std::string> rows;
  bool blocked(int x, int y) const {
    if (y < 0 || y >= static_cast<int>(rows.size()) || x < 0 || x >= static_cast<int>(rows[0].size())) return true;
    return rows[static_cast<std::size_t>(y)][static_cast<std::size_t>(x)] == '#';
  }
};

TEST(Rule, NamesRoundTrip) {
  const std::vector<rule> rules = {
      rule::tile(),
      rule::octile(),
      rule::octile(lddb::corner_cutting::one_side_free),
      rule::octile(lddb::corner_cutting::allowed),
      rule::octile(lddb::corner_cutting::allowed, *lddb::parse_diagonal_cost("1.5")),
      rule::octile(lddb::corner_cutting::forbidden, *lddb::parse_diagonal_cost("1.5")),
      rule::any_angle(),
      rule::any_angle(lddb::squeezing::allowed)};
  std::set<std::string> names;
  for (const rule& r : rules) {
    const auto back = rule::parse(r.name());
    ASSERT_TRUE(back) << r.name();
    EXPECT_EQ(*back, r) << r.name();
    names.insert(r.name());
  }
  EXPECT_EQ(names.size(), rules.size());
  EXPECT_EQ(rule::octile().name(), "octile");
  EXPECT_EQ(rule::octile(lddb::corner_cutting::allowed).name(), "octile:corners=allowed");
  EXPECT_EQ(rule::any_angle(lddb::squeezing::allowed).name(), "any-angle:squeeze=allowed");
}

// One check of a rule's fields serves the text form, the file header and the manifest.
TEST(Rule, FieldsErrorIsTheOneCheck) {
  using lddb::kCostOne;
  using lddb::kSqrt2Cost;
  using lddb::rule_fields_error;
  EXPECT_FALSE(rule_fields_error(0, 0, 0, kSqrt2Cost));
  EXPECT_FALSE(rule_fields_error(1, 1, 0, kCostOne));
  EXPECT_FALSE(rule_fields_error(1, 2, 0, kSqrt2Cost));
  EXPECT_FALSE(rule_fields_error(1, 0, 0, 2 * kCostOne));
  EXPECT_FALSE(rule_fields_error(2, 0, 1, kSqrt2Cost));
  EXPECT_EQ(rule_fields_error(3, 0, 0, kSqrt2Cost), "rule kind 3 is unknown");
  EXPECT_EQ(rule_fields_error(1, 3, 0, kSqrt2Cost), "corner cutting 3 is unknown");
  EXPECT_EQ(rule_fields_error(0, 2, 0, kSqrt2Cost), "corner cutting is set for a rule that is not octile");
  EXPECT_EQ(rule_fields_error(2, 0, 2, kSqrt2Cost), "squeezing 2 is unknown");
  EXPECT_EQ(rule_fields_error(0, 1, 0, kSqrt2Cost), "corner cutting is set for a rule that is not octile");
  EXPECT_EQ(rule_fields_error(1, 0, 1, kSqrt2Cost), "squeezing is set for a rule that is not any-angle");
  EXPECT_EQ(rule_fields_error(1, 0, 0, kCostOne - 1), "diagonal cost " + std::to_string(kCostOne - 1) + " is outside its range");
  EXPECT_TRUE(rule_fields_error(1, 0, 0, 2 * kCostOne + 1));
  EXPECT_TRUE(rule_fields_error(2, 0, 0, kCostOne));  // not octile: the diagonal keeps its default
  for (const rule& r : {rule::tile(), rule::octile(lddb::corner_cutting::one_side_free, 3 * kCostOne / 2),
                        rule::octile(lddb::corner_cutting::allowed), rule::any_angle(lddb::squeezing::allowed)}) {
    EXPECT_FALSE(r.fields_error()) << r.name();
    EXPECT_EQ(lddb::rule_from_fields(static_cast<unsigned>(r.kind), static_cast<unsigned>(r.corners),
                                     static_cast<unsigned>(r.squeeze), r.diagonal),
              r);
  }
}

TEST(Rule, ParseErrorsSayWhy) {
  std::string why;
  EXPECT_FALSE(rule::parse("hex", &why));
  EXPECT_NE(why.find("unknown rule"), std::string::npos);
  EXPECT_FALSE(rule::parse("tile:squeeze=allowed", &why));
  EXPECT_NE(why.find("no option"), std::string::npos);
  EXPECT_FALSE(rule::parse("octile:diagonal=3", &why));
  EXPECT_FALSE(rule::parse("octile:corners", &why));
  EXPECT_FALSE(rule::parse("any-angle:squeeze=sometimes", &why));
  EXPECT_TRUE(rule::parse("octile:diagonal=1.5,corners=one-side-free"));
  EXPECT_EQ(rule::parse("octile:corners=allowed"), rule::octile(lddb::corner_cutting::allowed));
  EXPECT_FALSE(rule::parse("octile:corners=always", &why));
  EXPECT_NE(why.find("forbidden, one-side-free or allowed"), std::string::npos) << why;
  EXPECT_FALSE(rule::parse("tile:corners=allowed", &why));
}

TEST(Rule, Sqrt2Constant) {
  EXPECT_EQ(lddb::kSqrt2Cost, lddb::euclid_cost(1, 1));
  EXPECT_EQ(lddb::euclid_cost(3, 4), 5 * lddb::kCostOne);
}

TEST(StepLegal, CornerCutting) {
  const text_grid g{{"..", "#."}};  // (0,1) blocked
  const rule strict = rule::octile();
  const rule loose = rule::octile(lddb::corner_cutting::one_side_free);
  // (0,0) -> (1,1) passes beside (1,0) free and (0,1) blocked.
  EXPECT_FALSE(lddb::step_legal(strict, g, 0, 0, 1, 1));
  EXPECT_TRUE(lddb::step_legal(loose, g, 0, 0, 1, 1));
  EXPECT_FALSE(lddb::step_legal(rule::tile(), g, 0, 0, 1, 1));
  EXPECT_TRUE(lddb::step_legal(rule::tile(), g, 0, 0, 1, 0));
  EXPECT_FALSE(lddb::step_legal(rule::tile(), g, 0, 0, 0, 1));  // into a blocked cell
  EXPECT_FALSE(lddb::step_legal(rule::tile(), g, 1, 1, 1, 0));  // off the grid
  const text_grid both{{".#", "#."}};
  EXPECT_FALSE(lddb::step_legal(loose, both, 0, 0, 1, 1));
  // corners=allowed squeezes between two blocked side cells, but never into a blocked cell.
  const rule squeeze = rule::octile(lddb::corner_cutting::allowed);
  EXPECT_TRUE(lddb::step_legal(squeeze, both, 0, 0, 1, 1));
  EXPECT_TRUE(lddb::step_legal(squeeze, g, 0, 0, 1, 1));
  EXPECT_FALSE(lddb::step_legal(squeeze, text_grid{{"..", ".#"}}, 0, 0, 1, 1));
  EXPECT_FALSE(lddb::step_legal(squeeze, both, 0, 0, 0, 1));  // straight moves are unchanged
}

// The bit-parallel form must agree with step_legal for every move from the centre of
// every 3 x 3 neighbourhood, under every cell rule, wherever the centre sits in the mask.
TEST(StepLegal, MaskFormAgreesOnEveryNeighbourhood) {
  const std::vector<rule> rules = {rule::tile(), rule::octile(), rule::octile(lddb::corner_cutting::one_side_free),
                                   rule::octile(lddb::corner_cutting::allowed)};
  struct bits_grid {
    std::uint32_t blocked_bits;  // 3 x 3, bit y * 3 + x
    bool blocked(int x, int y) const { return (blocked_bits >> (y * 3 + x)) & 1u; }
  };
  int legal_moves = 0;
  for (const rule& r : rules)
    for (std::uint32_t code = 0; code < 512; ++code)
      for (const auto& step : lddb::kSteps)
        for (int stride : {3, 7}) {
          // Place the 3 x 3 grid at an offset inside a wider mask, all else blocked.
          const int ox = stride == 3 ? 0 : 2, oy = stride == 3 ? 0 : 3;
          std::uint64_t free = 0;
          for (int y = 0; y < 3; ++y)
            for (int x = 0; x < 3; ++x)
              if (!((code >> (y * 3 + x)) & 1u)) free |= std::uint64_t{1} << ((y + oy) * stride + (x + ox));
          const bool expected = lddb::step_legal(r, bits_grid{code}, 1, 1, step[0], step[1]);
          const std::uint64_t mask = lddb::step_legal_mask(r, free, stride, step[0], step[1]);
          const bool got = (mask >> ((1 + oy) * stride + (1 + ox))) & 1u;
          ASSERT_EQ(got, expected) << r.name() << " code " << code << " step " << step[0] << "," << step[1];
          legal_moves += expected;
        }
  EXPECT_GT(legal_moves, 1000);  // the loop really exercised legal moves too
}

// The bit-parallel form must agree with double_corner for the vertex of every 2 x 2 group
// of cells, wherever the group sits in the mask.
TEST(DoubleCorner, MaskFormAgreesOnEveryNeighbourhood) {
  struct bits_grid {
    std::uint32_t blocked_bits;  // 2 x 2, bit y * 2 + x
    bool blocked(int x, int y) const { return (blocked_bits >> (y * 2 + x)) & 1u; }
  };
  int corners = 0;
  for (std::uint32_t code = 0; code < 16; ++code)
    for (int stride : {2, 6, 7})
      for (int oy = 0; oy + 2 <= 64 / stride && oy < 5; ++oy)
        for (int ox = 0; ox + 2 <= stride; ++ox) {
          std::uint64_t free = 0;
          for (int y = 0; y < 2; ++y)
            for (int x = 0; x < 2; ++x)
              if (!((code >> (y * 2 + x)) & 1u)) free |= std::uint64_t{1} << ((y + oy) * stride + (x + ox));
          const bool expected = lddb::double_corner(bits_grid{code}, 1, 1);
          const bool got = (lddb::double_corner_mask(free, stride) >> (oy * stride + ox)) & 1u;
          ASSERT_EQ(got, expected) << "code " << code << " stride " << stride << " at " << ox << "," << oy;
          corners += expected;
        }
  EXPECT_GT(corners, 0);
}

TEST(SegmentLegal, InteriorEdgesAndCorners) {
  const rule strict = rule::any_angle();
  const rule squeeze = rule::any_angle(lddb::squeezing::allowed);
  // A single blocked cell in the middle of a 3x3 grid: vertices 0..3.
  const text_grid mid{{"...", ".#.", "..."}};
  EXPECT_FALSE(lddb::segment_legal(strict, mid, 0, 0, 3, 3));  // through (1,1)'s interior
  EXPECT_TRUE(lddb::segment_legal(strict, mid, 0, 1, 3, 1));   // along its top edge
  EXPECT_TRUE(lddb::segment_legal(strict, mid, 1, 0, 1, 3));   // along its left edge
  EXPECT_TRUE(lddb::segment_legal(strict, mid, 0, 0, 3, 1));   // shallow line above it
  EXPECT_FALSE(lddb::segment_legal(strict, mid, 0, 1, 3, 2));  // shallow line through it
  // Two blocked cells side by side: the edge between them is shared by two blocked cells.
  const text_grid pair{{"##", ".."}};
  EXPECT_FALSE(lddb::segment_legal(strict, pair, 1, 0, 1, 1));
  // Along the outer edge of the map: the outside counts as blocked.
  EXPECT_FALSE(lddb::segment_legal(strict, pair, 0, 0, 2, 0));
  EXPECT_TRUE(lddb::segment_legal(strict, pair, 0, 2, 2, 2));  // bottom row is free
  // A double corner at vertex (1,1): cells (0,0) and (1,1) blocked.
  const text_grid dc{{"#.", ".#"}};
  EXPECT_FALSE(lddb::segment_legal(strict, dc, 0, 2, 2, 0));  // squeezes through (1,1)
  EXPECT_TRUE(lddb::segment_legal(squeeze, dc, 0, 2, 2, 0));
  EXPECT_TRUE(lddb::segment_legal(strict, dc, 0, 2, 1, 1));   // ending there is fine
  EXPECT_TRUE(lddb::segment_legal(strict, dc, 1, 1, 2, 0));   // and starting there
  // A horizontal line through the double corner passes between the two blocked cells.
  const text_grid wide{{"#..", ".#.", "..."}};
  EXPECT_FALSE(lddb::segment_legal(strict, wide, 0, 1, 2, 1));
  EXPECT_TRUE(lddb::segment_legal(squeeze, wide, 0, 1, 2, 1));
}

TEST(BlockShape, BoundaryOrderIsClockwise) {
  const block_shape cells(4, false);
  ASSERT_EQ(cells.boundary_count(), 12);
  EXPECT_EQ(cells.boundary_point(0), (point{0, 0}));
  EXPECT_EQ(cells.boundary_point(3), (point{3, 0}));
  EXPECT_EQ(cells.boundary_point(6), (point{3, 3}));
  EXPECT_EQ(cells.boundary_point(9), (point{0, 3}));
  EXPECT_EQ(cells.boundary_point(11), (point{0, 1}));
  EXPECT_EQ(cells.boundary_index({1, 1}), -1);
  const block_shape verts(4, true);
  EXPECT_EQ(verts.boundary_count(), 16);
  EXPECT_EQ(verts.point_count(), 25);
  for (int i = 0; i < verts.boundary_count(); ++i) EXPECT_EQ(verts.boundary_index(verts.boundary_point(i)), i);
}

TEST(BlockShape, PairIndexIsDense) {
  for (int b = 2; b <= 5; ++b) {
    for (bool v : {false, true}) {
      const block_shape s(b, v);
      std::set<int> seen;
      for (int i = 0; i < s.boundary_count(); ++i)
        for (int j = i + 1; j < s.boundary_count(); ++j) {
          EXPECT_EQ(s.pair_index(i, j), s.pair_index(j, i));
          seen.insert(s.pair_index(i, j));
        }
      EXPECT_EQ(static_cast<int>(seen.size()), s.pair_count());
      EXPECT_EQ(*seen.begin(), 0);
      EXPECT_EQ(*seen.rbegin(), s.pair_count() - 1);
    }
  }
}

TEST(BlockShape, TransformsFormTheSquaresGroup) {
  for (int b = 2; b <= 5; ++b) {
    for (bool v : {false, true}) {
      const block_shape s(b, v);
      std::set<std::vector<int>> images;
      for (int t = 0; t < block_shape::kTransforms; ++t) {
        std::vector<int> image;
        for (int p = 0; p < s.point_count(); ++p) {
          const point q = s.transform_point(t, s.point_at(p));
          image.push_back(s.point_index(q));
          EXPECT_EQ(s.transform_point(block_shape::inverse(t), q), s.point_at(p));
        }
        images.insert(image);
        for (int i = 0; i < s.boundary_count(); ++i)
          EXPECT_EQ(s.boundary_point(s.transform_boundary(t, i)), s.transform_point(t, s.boundary_point(i)));
      }
      EXPECT_EQ(images.size(), 8u) << "b=" << b;
    }
  }
}

TEST(BlockShape, PatternTransformMovesCellsLikePoints) {
  const block_shape cells(5, false), verts(5, true);
  for (int t = 0; t < block_shape::kTransforms; ++t) {
    for (int c = 0; c < 25; ++c) {
      const std::uint32_t code = 1u << c;
      const point p = cells.point_at(c);
      const point q = cells.transform_point(t, p);
      EXPECT_EQ(cells.transform_pattern(t, code), 1u << cells.point_index(q));
      // The cell's top-left and bottom-right vertices land on the moved cell's corners.
      const point a = verts.transform_point(t, p), b = verts.transform_point(t, {p.x + 1, p.y + 1});
      EXPECT_EQ(std::min(a.x, b.x), q.x);
      EXPECT_EQ(std::min(a.y, b.y), q.y);
    }
  }
}

TEST(BlockShape, CanonicalCountsMatchBurnside) {
  // Distinct b x b patterns under the 8 symmetries (OEIS A054247): 6, 102, 8548.
  const std::vector<std::pair<int, int>> expected = {{2, 6}, {3, 102}, {4, 8548}};
  for (auto [b, count] : expected) {
    const block_shape s(b, false);
    int canonical = 0;
    for (std::uint32_t c = 0; c < s.pattern_count(); ++c) {
      const auto f = s.canonical(c, 0xFF);
      EXPECT_EQ(s.transform_pattern(f.transform, c), f.code);
      canonical += f.code == c;
    }
    EXPECT_EQ(canonical, count) << "b=" << b;
  }
}

}  // namespace

// Block A* builds its start and goal graphs lazily (a segment is tested only when it
// could improve a cost); the generator builds them eagerly. Every source of every b = 3
// pattern and of 3,000 random b = 4 patterns must give the same costs and paths both ways.
TEST(BlockGraph, LazyVisibilityGivesTheEagerPaths) {
  std::uint64_t seed = 0x9E3779B97F4A7C15ull;
  auto next = [&seed] {
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return seed;
  };
  for (const char* name : {"any-angle", "any-angle:squeeze=allowed"}) {
    const rule r = *rule::parse(name);
    for (int b : {3, 4}) {
      const block_shape shape(b, true);
      const int patterns = b == 3 ? 512 : 3000;
      for (int k = 0; k < patterns; ++k) {
        const auto code = static_cast<std::uint32_t>(b == 3 ? k : next() & 0xFFFFu);
        const lddb::block_graph eager(r, shape, code), lazy(r, shape, code, lddb::block_graph::visibility::lazy);
        for (int src = 0; src < shape.point_count(); ++src) {
          lddb::block_graph::paths pe, pl;
          eager.search(src, pe);
          lazy.search(src, pl);
          ASSERT_EQ(pe.cost, pl.cost) << name << " b=" << b << " code " << code << " source " << src;
          for (int t = 0; t < shape.point_count(); ++t) {
            int a[lddb::block_graph::kMaxPoints], c[lddb::block_graph::kMaxPoints];
            const int na = pe.path_to(t, a), nc = pl.path_to(t, c);
            ASSERT_EQ(std::vector<int>(a, a + na), std::vector<int>(c, c + nc)) << name << " code " << code << " " << src << "->" << t;
          }
        }
      }
    }
  }
}
