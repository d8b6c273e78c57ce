// checker_unit_test: the checker's paths of units of several sizes and movement classes
// (lddb/checker.hpp: checker::unit_path_ok, check_path with a unit).
//
//   CellSteps     sizes 1-4, each corner rule and tile: straight and diagonal steps in all
//                 four diagonal directions, with the cells a diagonal clips found here as
//                 the (k+1) x (k+1) box less the two squares (not by sweeping), open or
//                 closed; squares holding a closed cell or leaving the map; classes
//   Segments      any-angle squares of sizes 0-4 that touch walls, pass a gap exactly their
//                 width, clip a corner; and on random maps, a square found by sampling to
//                 overlap a closed cell is never accepted
//   Searches      ~100 random terrain maps: every path that Block A*, A*, jump point search,
//                 Theta* and Lazy Theta* return for a unit passes; many fail for the next
//                 size up; a size-1 path through a one-cell gap fails for size 2
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "lddb/checker.hpp"
#include "lddb/grid.hpp"
#include "lddb/search.hpp"
#include "lddb/find_path.hpp"
#include "lddb/unit.hpp"
#include "test_db.hpp"
#include "test_rng.hpp"

namespace {

using lddb::grid_map;
using lddb::movement_class;
using lddb::point;
using lddb::rule;

const movement_class kGround = movement_class::ground();
const movement_class kWater = movement_class::of("W");

// A map of terrain letters, one string a row.
grid_map draw(const std::vector<std::string>& rows) {
  grid_map g(static_cast<int>(rows[0].size()), static_cast<int>(rows.size()), 4);
  for (int y = 0; y < g.height(); ++y)
    for (int x = 0; x < g.width(); ++x)
      g.set_terrain(x, y, static_cast<lddb::terrain>(rows[static_cast<std::size_t>(y)][static_cast<std::size_t>(x)]));
  return g;
}

bool ok(const rule& r, const grid_map& g, int size, const movement_class& m, const std::vector<point>& path,
        std::string* why = nullptr) {
  std::string own;
  return lddb::checker::unit_path_ok(r, g, lddb::unit{size, m}, path, why ? why : &own);
}

const rule kCellRules[] = {rule::tile(), rule::octile(), rule::octile(lddb::corner_cutting::one_side_free),
                           rule::octile(lddb::corner_cutting::allowed)};

// ------------------------------------------------------------------ cell rules

TEST(CheckerUnit, CellSteps) {
  for (int k = 1; k <= 4; ++k) {
    const int n = k + 4;
    for (const rule& r : kCellRules) {
      for (int sx : {-1, 1})
        for (int sy : {-1, 1}) {
          const point a{2, 2}, b{a.x + sx, a.y + sy};
          const auto in_square = [k](point s, int x, int y) { return x >= s.x && x < s.x + k && y >= s.y && y < s.y + k; };
          std::vector<point> clipped;  // the box around both squares, less the squares
          for (int y = std::min(a.y, b.y); y <= std::max(a.y, b.y) + k - 1; ++y)
            for (int x = std::min(a.x, b.x); x <= std::max(a.x, b.x) + k - 1; ++x)
              if (!in_square(a, x, y) && !in_square(b, x, y)) clipped.push_back({x, y});
          ASSERT_EQ(clipped.size(), 2u);
          for (int closed = 0; closed < 4; ++closed) {  // bit i: clipped[i] closed
            grid_map g(n, n, 4);
            for (int i = 0; i < 2; ++i)
              if (closed >> i & 1) g.set_terrain(clipped[static_cast<std::size_t>(i)].x, clipped[static_cast<std::size_t>(i)].y, 'T');
            const int open = 2 - (closed & 1) - (closed >> 1 & 1);
            bool legal = false;
            if (r.kind == lddb::rule_kind::octile) {
              switch (r.corners) {
                case lddb::corner_cutting::forbidden: legal = open == 2; break;
                case lddb::corner_cutting::one_side_free: legal = open >= 1; break;
                case lddb::corner_cutting::allowed: legal = true; break;
              }
            }
            std::string why;
            EXPECT_EQ(ok(r, g, k, kGround, {a, b}, &why), legal)
                << r.name() << " size " << k << " step " << sx << "," << sy << " closed " << closed << ": " << why;
            if (!legal) {
              EXPECT_NE(why.find("(points 0-1)"), std::string::npos) << why;
            }
            // A straight step away from them stays legal: it crosses only its two squares.
            EXPECT_TRUE(ok(r, g, k, kGround, {a, {a.x - sx, a.y}}, &why)) << r.name() << " size " << k << ": " << why;
          }
        }
      // A square holding a closed cell, or leaving the map.
      grid_map g(n, n, 4);
      g.set_terrain(k, k - 1, 'W');
      std::string why;
      EXPECT_FALSE(ok(r, g, k, kGround, {{0, 0}, {1, 0}}, &why)) << r.name() << " size " << k;
      EXPECT_NE(why.find("point 1 (1,0)"), std::string::npos) << why;
      EXPECT_NE(why.find("cell (" + std::to_string(k) + "," + std::to_string(k - 1) + "), closed to class .GS"),
                std::string::npos) << why;
      // The water cell is the only one a boat may use: a size-1 boat stands on it alone.
      EXPECT_TRUE(ok(r, g, 1, kWater, {{k, k - 1}}, &why)) << why;
      EXPECT_FALSE(ok(r, g, 1, kWater, {{k, k - 1}, {k + 1, k - 1}}, &why));
      EXPECT_FALSE(ok(r, g, 2, kWater, {{k, k - 1}}, &why));
      const grid_map open(n, n, 4);
      EXPECT_TRUE(ok(r, open, k, kGround, {{n - k, 0}, {n - k, 1}}, &why)) << why;
      EXPECT_FALSE(ok(r, open, k, kGround, {{n - k, 0}, {n - k + 1, 0}}, &why));
      EXPECT_NE(why.find("off the map"), std::string::npos) << why;
    }
  }
}

TEST(CheckerUnit, CellPathShapes) {
  const grid_map g = draw({"......", "......", "......", "......"});
  const rule r = rule::octile();
  std::string why;
  EXPECT_FALSE(ok(r, g, 2, kGround, {}, &why));
  EXPECT_FALSE(ok(r, g, 2, kGround, {{0, 0}, {2, 0}}, &why));
  EXPECT_NE(why.find("not one unit move apart"), std::string::npos) << why;
  EXPECT_FALSE(ok(r, g, 2, kGround, {{0, 0}, {0, 0}}, &why));
  EXPECT_NE(why.find("repeated"), std::string::npos) << why;
  EXPECT_FALSE(ok(r, g, 9, kGround, {{0, 0}}, &why));
  EXPECT_NE(why.find("outside 0..8"), std::string::npos) << why;
  // Runs (smoothed cell paths): every cell of the run holds the square.
  const std::vector<point> run{{0, 0}, {2, 2}, {4, 2}};
  EXPECT_TRUE(lddb::checker::unit_path_ok(r, g, {2, kGround}, run, &why, lddb::cell_steps::runs)) << why;
  const grid_map wall = draw({"......", "......", "....@.", "......"});
  EXPECT_FALSE(lddb::checker::unit_path_ok(r, wall, {2, kGround}, run, &why, lddb::cell_steps::runs));
  // The first bad step is named: a 2 x 2 unit's diagonal (3,1)-(4,0) clips the tree at (3,0).
  const grid_map tree = draw({"...T....", "........", "........", "........"});
  EXPECT_TRUE(ok(r, tree, 2, kGround, {{0, 1}, {1, 1}, {2, 1}, {3, 1}, {4, 1}, {5, 1}}, &why)) << why;
  EXPECT_FALSE(ok(r, tree, 2, kGround, {{0, 1}, {1, 1}, {2, 1}, {3, 1}, {4, 0}, {5, 0}}, &why));
  EXPECT_NE(why.find("illegal move (3,1)-(4,0) (points 3-4): the unit's diagonal clips cell (3,0)"), std::string::npos)
      << why;
  EXPECT_TRUE(ok(rule::octile(lddb::corner_cutting::one_side_free), tree, 2, kGround, {{3, 1}, {4, 0}}, &why)) << why;
  // check_path with a unit: ends, the map's bounds, the rule's length.
  const lddb::check_result c = lddb::check_path(r, g, {2, kGround}, {0, 0}, {2, 2}, {{0, 0}, {1, 1}, {2, 2}});
  EXPECT_TRUE(c.valid) << c.error;
  EXPECT_NEAR(c.length, 2 * std::sqrt(2.0), 1e-6);
  EXPECT_FALSE(lddb::check_path(r, g, {2, kGround}, {0, 0}, {3, 2}, {{0, 0}, {1, 1}, {2, 2}}).valid);
  // The default unit is checked as before: the same answer and message as check_path.
  const std::vector<point> through{{3, 1}, {4, 2}, {5, 3}};
  const lddb::check_result plain = lddb::check_path(r, wall, {3, 1}, {5, 3}, through);
  const lddb::check_result unit1 = lddb::check_path(r, wall, lddb::unit{}, {3, 1}, {5, 3}, through);
  EXPECT_FALSE(plain.valid);
  EXPECT_EQ(unit1.error, plain.error);
}

// ------------------------------------------------------------------ any-angle

TEST(CheckerUnit, Segments) {
  const rule r = rule::any_angle();
  {  // a corridor 2 wide between walls: a 2 x 2 square slides along it touching both
    const grid_map g = draw({"@@@@@@", "......", "......", "@@@@@@"});
    std::string why;
    EXPECT_TRUE(ok(r, g, 2, kGround, {{0, 1}, {4, 1}}, &why)) << why;
    EXPECT_FALSE(ok(r, g, 2, kGround, {{0, 1}, {4, 2}}, &why));
    EXPECT_NE(why.find("point 1 (4,2): the unit's 2x2 square holds cell (4,3)"), std::string::npos) << why;
    EXPECT_FALSE(ok(r, g, 2, kGround, {{0, 1}, {2, 2}, {4, 1}}, &why));
    EXPECT_FALSE(ok(r, g, 3, kGround, {{0, 1}, {3, 1}}, &why));
    EXPECT_TRUE(ok(r, g, 1, kGround, {{0, 1}, {5, 2}}, &why)) << why;
    EXPECT_FALSE(ok(r, g, 1, kGround, {{0, 1}, {5, 3}}, &why));  // the goal square is in the wall
  }
  {  // a diagonal past one closed cell: the point passes its corner, a square clips it
    const grid_map g = draw({".@..", "....", "....", "...."});
    std::string why;
    EXPECT_TRUE(ok(r, g, 0, kGround, {{0, 0}, {2, 2}}, &why)) << why;
    EXPECT_FALSE(ok(r, g, 1, kGround, {{0, 0}, {2, 2}}, &why));
    EXPECT_NE(why.find("cell (1,0)"), std::string::npos) << why;
    EXPECT_TRUE(ok(r, g, 1, kGround, {{0, 1}, {2, 3}}, &why)) << why;  // one row lower: it touches the corner only
    EXPECT_TRUE(ok(r, g, 2, kGround, {{0, 1}, {2, 2}}, &why)) << why;  // y stays >= 1: below the closed cell
    EXPECT_FALSE(ok(r, g, 1, kGround, {{0, 2}, {0, 1}, {2, 0}}, &why));
    EXPECT_NE(why.find("illegal segment (0,1)-(2,0) (points 1-2): the unit's 1x1 square crosses cell (1,0)"),
              std::string::npos) << why;
  }
  {  // 3 x 3 squares on slopes that pass a closed cell's corner, or clip it
    const grid_map g = draw({"....@..", ".......", ".......", ".......", ".......", "......."});
    std::string why;
    // Square [2t*2, 2t*2+3] x [t*2, t*2+3]: its top-right corner (3 + 4t, 2t) meets cell (4,0)'s
    // interior (4,5) x (0,1) for t in (1/4, 1/2): illegal.
    EXPECT_FALSE(ok(r, g, 3, kGround, {{0, 0}, {4, 2}}, &why));
    // From (0,1) to (4,3): (3 + 4t, 1 + 2t) has y >= 1 throughout: it touches (4,0) at most.
    EXPECT_TRUE(ok(r, g, 3, kGround, {{0, 1}, {4, 3}}, &why)) << why;
    // From (0,0) to (1,3): x + 3 <= 4 throughout, touching the cell's left side.
    EXPECT_TRUE(ok(r, g, 3, kGround, {{0, 0}, {1, 3}}, &why)) << why;
  }
  {  // size 0: the point's own rule on the class's cells (a double corner under squeeze=forbidden)
    const grid_map g = draw({"W.", ".W"});
    std::string why;
    EXPECT_FALSE(ok(r, g, 0, kGround, {{0, 0}, {2, 2}}, &why));
    EXPECT_FALSE(ok(r, g, 0, kWater, {{0, 0}, {2, 2}}, &why));  // through the corner between two land cells
    EXPECT_TRUE(ok(rule::any_angle(lddb::squeezing::allowed), g, 0, kWater, {{0, 0}, {2, 2}}, &why)) << why;
  }
}

// Does the square of side k, corner moving from p to q, overlap a closed cell's interior
// at one of `samples` + 1 evenly spaced times? (Sampling can only miss overlaps.)
bool sampled_overlap(const grid_map& g, const movement_class& m, point p, point q, int k, int samples) {
  for (int i = 0; i <= samples; ++i) {
    const double t = static_cast<double>(i) / samples;
    const double x = p.x + t * (q.x - p.x), y = p.y + t * (q.y - p.y);
    for (int cy = static_cast<int>(std::floor(y)) - 1; cy <= static_cast<int>(std::floor(y)) + k; ++cy)
      for (int cx = static_cast<int>(std::floor(x)) - 1; cx <= static_cast<int>(std::floor(x)) + k; ++cx) {
        const bool closed = !g.in_bounds(cx, cy) || !m.contains(g.terrain_at(cx, cy));
        const double eps = 1e-9;
        if (closed && x < cx + 1 - eps && x + k > cx + eps && y < cy + 1 - eps && y + k > cy + eps) return true;
      }
  }
  return false;
}

TEST(CheckerUnit, SegmentsNeverAcceptASampledOverlap) {
  lddb_test::rng g{41};
  const rule r = rule::any_angle(lddb::squeezing::allowed);
  int legal = 0, caught = 0;
  for (int m = 0; m < 60; ++m) {
    grid_map map(8 + g.below(8), 8 + g.below(8), 4);
    for (int i = 0; i < map.width() * map.height() / 10; ++i) map.set_terrain(g.below(map.width()), g.below(map.height()), 'T');
    for (int q = 0; q < 200; ++q) {
      const int k = 1 + g.below(3);
      const point a{g.below(map.width() + 1), g.below(map.height() + 1)}, b{g.below(map.width() + 1), g.below(map.height() + 1)};
      if (a == b) continue;
      const bool accepted = ok(r, map, k, kGround, {a, b});
      if (sampled_overlap(map, kGround, a, b, k, 2000)) {
        EXPECT_FALSE(accepted) << "size " << k << " " << a.x << "," << a.y << " -> " << b.x << "," << b.y;
        ++caught;
      } else if (accepted) {
        ++legal;
      }
    }
  }
  EXPECT_GT(legal, 200);
  EXPECT_GT(caught, 2000);
}

// ------------------------------------------------------------------ the searches' paths

constexpr lddb::terrain kTypes[] = {'.', '.', '.', '.', '.', 'S', 'W', 'W', 'T', '@'};

// A random point whose max(size, 1) square of cells is open to the unit's class (else any).
point fitting(lddb_test::rng& g, const grid_map& map, const lddb::unit& u) {
  const int k = std::max(u.size, 1);
  point p{};
  for (int tries = 0; tries < 100; ++tries) {
    p = {g.below(map.width()), g.below(map.height())};
    bool open = true;
    for (int dy = 0; dy < k; ++dy)
      for (int dx = 0; dx < k; ++dx)
        open = open && map.in_bounds(p.x + dx, p.y + dy) && u.movement.contains(map.terrain_at(p.x + dx, p.y + dy));
    if (open) break;
  }
  return p;
}

TEST(CheckerUnit, SearchesPathsPass) {
  const std::vector<rule> rules = lddb_test::search_rules();
  const movement_class classes[] = {kGround, kWater, movement_class::of(".GSW")};
  lddb_test::rng g{51};
  lddb::search_context ctx;
  int checked = 0, fail_bigger = 0;
  for (int round = 0; round < 105; ++round) {
    const rule& r = rules[static_cast<std::size_t>(round) % rules.size()];
    const lddb::database& db = lddb_test::db_for(r);
    grid_map map(10 + g.below(20), 8 + g.below(20), db.shape().block());
    for (int i = 0; i < map.width() * map.height() / 3; ++i)
      map.set_terrain(g.below(map.width()), g.below(map.height()), kTypes[g.below(static_cast<int>(std::size(kTypes)))]);
    const int size = (r.on_vertices() ? 0 : 1) + (round / 7) % 4;
    const movement_class& m = classes[(round / 3) % 3];
    const lddb::unit u{size, m};
    lddb::search_options o;
    o.unit = u;
    for (int q = 0; q < 6; ++q) {
      const point s = fitting(g, map, u), t = fitting(g, map, u);
      std::vector<std::pair<const char*, lddb::search_result>> answers;
      answers.emplace_back("block_astar", lddb::find_path(db, map, s, t, o, ctx));
      if (r.on_vertices()) {
        answers.emplace_back("theta_star", lddb::theta_star(r, map, s, t, o, ctx));
        answers.emplace_back("lazy_theta_star", lddb::lazy_theta_star(r, map, s, t, o, ctx));
      } else {
        answers.emplace_back("astar", lddb::astar(r, map, s, t, o, ctx));
        if (lddb::jump_point_search_supports(r)) answers.emplace_back("jps", lddb::jump_point_search(r, map, s, t, o, ctx));
      }
      for (const auto& [name, res] : answers) {
        if (!res.found()) continue;
        const lddb::check_result c = lddb::check_path(r, map, u, s, t, res.path);
        ASSERT_TRUE(c.valid) << name << " " << r.name() << " size " << size << " class " << m.name() << " " << s.x
                             << "," << s.y << " -> " << t.x << "," << t.y << ": " << c.error;
        if (!r.on_vertices()) {
          EXPECT_NEAR(c.length, lddb::cost_to_double(res.cost), 1e-6) << name << " " << r.name();
        }
        ++checked;
        if (!lddb::check_path(r, map, lddb::unit{size + 1, m}, s, t, res.path).valid) ++fail_bigger;
      }
    }
  }
  std::printf("%d paths checked, %d of them fail for the next size up\n", checked, fail_bigger);
  EXPECT_GT(checked, 150);
  EXPECT_GT(fail_bigger, checked / 4);  // the check is no formality: a bigger unit often does not fit
}

// Cells: a one-cell unit's path through a one-cell gap fails for a 2 x 2 unit. Any-angle: a
// square may not pass a gap exactly its width (runtime/src/map/unit_views.cpp), so a 1 x 1
// square's path through a two-cell gap, which fails for a 3 x 3 square.
TEST(CheckerUnit, GapPathFailsForABiggerUnit) {
  const grid_map one = draw({"........", "........", "@@@.@@@@", "........", "........"});
  const grid_map two = draw({"........", "........", "........", "@@@..@@@", "........", "........", "........"});
  lddb::search_context ctx;
  for (const rule& r : {rule::tile(), rule::octile(), rule::any_angle()}) {
    const grid_map& map = r.on_vertices() ? two : one;
    const int bigger = r.on_vertices() ? 3 : 2;
    lddb::search_options o;
    o.unit = lddb::unit{1, kGround};
    const point goal{0, r.on_vertices() ? 4 : 3};
    const auto search = [&] {
      return r.on_vertices() ? lddb::theta_star(r, map, {0, 0}, goal, o, ctx) : lddb::astar(r, map, {0, 0}, goal, o, ctx);
    };
    const lddb::search_result res = search();
    ASSERT_TRUE(res.found()) << r.name() << ": " << res.message;
    const lddb::check_result fits = lddb::check_path(r, map, lddb::unit{1, kGround}, {0, 0}, goal, res.path);
    EXPECT_TRUE(fits.valid) << r.name() << ": " << fits.error;
    o.unit.size = bigger;
    EXPECT_FALSE(search().found()) << r.name();
    const lddb::check_result big = lddb::check_path(r, map, lddb::unit{bigger, kGround}, {0, 0}, goal, res.path);
    EXPECT_FALSE(big.valid) << r.name();
    EXPECT_NE(big.error.find("closed to class .GS"), std::string::npos) << r.name() << ": " << big.error;
  }
}

}  // namespace
