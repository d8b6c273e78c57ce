// checker_test: the independent path checker (lddb/checker.hpp, library lddb_checker).
//
//   Differential   the checker and moves.hpp / segments.hpp decide every move and segment alike on random
//                  maps (two methods written apart: if one is wrong, they disagree), and
//                  the checker's sources use none of theirs
//   CheckPath      whole paths on a grid_map: each way a path can be wrong, with its message,
//                  and the recomputed length
//   CheckerDoubleCorner  hand-drawn double corners: passing through, visiting on one side,
//                  crossing sides at a waypoint, starts and goals on them, under both rules
//   CheckerSampled every path of one and two segments on small random maps, against the
//                  rule decided by sampling the segments (tests/sampled_rule.hpp)
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "lddb/checker.hpp"
#include "lddb/grid.hpp"
#include "lddb/rule.hpp"
#include "lddb/moves.hpp"
#include "lddb/segments.hpp"
#include "lddb/point.hpp"
#include "sampled_rule.hpp"

namespace {

using lddb::check_result;
using lddb::grid_map;
using lddb::point;

grid_map random_map(std::mt19937_64& rng, int w, int h, int percent) {
  grid_map g(w, h, 4);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      if (static_cast<int>(rng() % 100) < percent) g.set_blocked(x, y, true);
  return g;
}

// "........" rows, '@' blocked.
grid_map from_rows(const std::vector<std::string>& rows) {
  grid_map g(static_cast<int>(rows[0].size()), static_cast<int>(rows.size()), 4);
  for (int y = 0; y < g.height(); ++y)
    for (int x = 0; x < g.width(); ++x) g.set_blocked(x, y, rows[static_cast<std::size_t>(y)][static_cast<std::size_t>(x)] == '@');
  return g;
}

// ----------------------------------------------------------------------------- differential

TEST(Differential, SegmentsAgreeWithRules) {
  std::mt19937_64 rng(0xC4EC);
  for (int m = 0; m < 40; ++m) {
    const grid_map g = random_map(rng, 10 + m % 5, 9 + m % 4, 10 + 5 * (m % 7));
    for (const auto& r : {lddb::rule::any_angle(lddb::squeezing::forbidden), lddb::rule::any_angle(lddb::squeezing::allowed)}) {
      for (int k = 0; k < 2000; ++k) {
        const point a{static_cast<int>(rng() % (g.width() + 3)) - 1, static_cast<int>(rng() % (g.height() + 3)) - 1};
        const point b{static_cast<int>(rng() % (g.width() + 3)) - 1, static_cast<int>(rng() % (g.height() + 3)) - 1};
        const bool rules = lddb::segment_legal(r, g, a.x, a.y, b.x, b.y);
        const bool checker = lddb::checker::segment_ok(r, g, a, b);
        ASSERT_EQ(rules, checker) << r.name() << " map " << m << " segment " << lddb::checker::point_text(a) << "-"
                                  << lddb::checker::point_text(b);
        if (!(a == b)) {
          // the allocation-free form and the listed geometry agree too
          ASSERT_EQ(checker, lddb::checker::segment_ok(r, g, lddb::checker::segment_geometry_of(a, b)));
        }
      }
    }
  }
}

TEST(Differential, DoubleCornerSidesAgreeWithRules) {
  // turn_ok / endpoint_ok / endpoint_side_ok against segments.hpp's turn_legal and
  // endpoint_side, on dense maps full of double corners.
  std::mt19937_64 rng(0xD0C0);
  auto below = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint64_t>(n)); };
  for (int m = 0; m < 30; ++m) {
    const grid_map g = random_map(rng, 7, 6, 35 + m % 20);
    for (const auto& r : {lddb::rule::any_angle(), lddb::rule::any_angle(lddb::squeezing::allowed)})
      for (int y = 0; y <= g.height(); ++y)
        for (int x = 0; x <= g.width(); ++x) {
          const point v{x, y};
          const int own = lddb::endpoint_side(r, g, x, y);
          ASSERT_EQ(lddb::checker::endpoint_ok(r, g, v), own >= 0) << r.name() << " " << lddb::checker::point_text(v);
          for (int k = 0; k < 40; ++k) {
            const point a{below(g.width() + 1), below(g.height() + 1)};
            const point b{below(g.width() + 1), below(g.height() + 1)};
            if (a == v || b == v || !lddb::segment_legal(r, g, a.x, a.y, x, y) || !lddb::segment_legal(r, g, x, y, b.x, b.y))
              continue;
            ASSERT_EQ(lddb::checker::turn_ok(r, g, a, v, b), lddb::turn_legal(r, g, a.x, a.y, x, y, b.x, b.y))
                << r.name() << " " << lddb::checker::point_text(a) << "-" << lddb::checker::point_text(v) << "-"
                << lddb::checker::point_text(b);
            if (own >= 0) {
              ASSERT_EQ(lddb::checker::endpoint_side_ok(r, g, v, b), own == 0 || lddb::segment_side(g, x, y, b.x, b.y) == own)
                  << r.name() << " " << lddb::checker::point_text(v) << " toward " << lddb::checker::point_text(b);
            }
          }
        }
  }
}

TEST(Differential, MovesAgreeWithRules) {
  std::mt19937_64 rng(0x30E5);
  const auto d15 = lddb::parse_diagonal_cost("1.5");
  ASSERT_TRUE(d15);
  const std::vector<lddb::rule> rules{lddb::rule::tile(), lddb::rule::octile(),
                                      lddb::rule::octile(lddb::corner_cutting::one_side_free),
                                      lddb::rule::octile(lddb::corner_cutting::allowed),
                                      lddb::rule::octile(lddb::corner_cutting::forbidden, *d15)};
  for (int m = 0; m < 20; ++m) {
    const grid_map g = random_map(rng, 9, 8, 15 + 3 * m);
    for (const auto& r : rules)
      for (int y = -1; y <= g.height(); ++y)
        for (int x = -1; x <= g.width(); ++x)
          for (const auto& [dx, dy] : lddb::kSteps) {
            const bool want = !g.blocked(x, y) && lddb::step_legal(r, g, x, y, dx, dy);
            ASSERT_EQ(lddb::checker::move_ok(r, g, {x, y}, {x + dx, y + dy}), want)
                << r.name() << " (" << x << "," << y << ") by (" << dx << "," << dy << ")";
            if (want) {
              const double len = static_cast<double>(lddb::step_cost(r, dx, dy)) / 4294967296.0;
              EXPECT_EQ(lddb::checker::move_length(r, {x, y}, {x + dx, y + dy}), len);
            }
          }
  }
}

TEST(Differential, LongSegmentsAreFast) {
  // A check costs time in proportion to the segment's length, not its bounding box.
  grid_map g(4000, 3000, 4);
  const auto start = std::chrono::steady_clock::now();
  for (int k = 0; k < 20; ++k) EXPECT_TRUE(lddb::checker::segment_ok(lddb::rule::any_angle(), g, {0, k}, {3999, 2999 - k}));
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(ms, 2000.0);
  g.set_blocked(2000, 1500, true);
  EXPECT_FALSE(lddb::checker::segment_ok(lddb::rule::any_angle(), g, {0, 0}, {4000, 3000}));
}

TEST(Differential, CheckerIsWrittenApart) {
  // The checker can catch segments.hpp, moves.hpp and the unit views only while it uses none of their code.
  const std::filesystem::path root = std::filesystem::path(LDDB_SOURCE_DIR) / "checker";
  int files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    const std::string ext = entry.path().extension().string();
    if (ext != ".hpp" && ext != ".cpp") continue;
    ++files;
    std::ifstream in(entry.path());
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      const std::string code = line.substr(0, line.find("//"));
      for (const char* banned : {"lddb/segments.hpp", "lddb/moves.hpp", "segment_legal(", "step_legal(", "vertex_usable(",
                                 "segment_side(", "turn_legal(", "endpoint_side(", "euclid_cost(", "step_cost(",
                                 "unit_view(", ".view("})
        EXPECT_EQ(code.find(banned), std::string::npos) << entry.path().string() << ":" << n << " uses " << banned;
    }
  }
  EXPECT_GE(files, 3);
}

// ----------------------------------------------------------------------------- whole paths

class CheckPath : public ::testing::Test {
 protected:
  // x: 0123
  //    ....   y = 0
  //    .@..   y = 1
  //    ....   y = 2
  const grid_map g_ = from_rows({"....", ".@..", "...."});
  const lddb::rule octile_ = lddb::rule::octile();
  const lddb::rule any_ = lddb::rule::any_angle();

  check_result cells(std::vector<point> p, lddb::cell_steps steps = lddb::cell_steps::unit,
                     std::optional<lddb::rule> r = std::nullopt) const {
    return lddb::check_path(r.value_or(octile_), g_, p.front(), p.back(), p, steps);
  }
};

TEST_F(CheckPath, ValidCellPathsAndTheirLength) {
  check_result c = cells({{0, 0}, {1, 0}, {2, 0}, {3, 1}, {3, 2}});
  ASSERT_TRUE(c.valid) << c.error;
  EXPECT_TRUE(c.error.empty());
  EXPECT_NEAR(c.length, 3 + std::sqrt(2.0), 1e-9);
  c = cells({{0, 0}, {2, 0}, {3, 1}, {3, 2}}, lddb::cell_steps::runs);
  ASSERT_TRUE(c.valid) << c.error;
  EXPECT_NEAR(c.length, 3 + std::sqrt(2.0), 1e-9);
  c = cells({{2, 2}});
  EXPECT_TRUE(c.valid);
  EXPECT_EQ(c.length, 0);
  c = cells({{0, 0}, {1, 0}, {2, 0}, {2, 1}}, lddb::cell_steps::unit, lddb::rule::tile());
  EXPECT_TRUE(c.valid) << c.error;
  EXPECT_EQ(c.length, 3);
}

TEST_F(CheckPath, EachWayACellPathCanBeWrong) {
  EXPECT_EQ(lddb::check_path(octile_, g_, {0, 0}, {3, 2}, {}).error, "empty path");
  EXPECT_EQ(lddb::check_path(octile_, g_, {0, 0}, {1, 0}, {{1, 0}}).error,
            "the path starts at (1,0), not at the start (0,0)");
  EXPECT_EQ(lddb::check_path(octile_, g_, {0, 0}, {2, 0}, {{0, 0}, {1, 0}}).error,
            "the path ends at (1,0), not at the goal (2,0)");
  EXPECT_EQ(cells({{3, 2}, {4, 2}}).error, "cell 1 (4,2) is off the 4x3 map");
  EXPECT_EQ(cells({{0, -1}, {0, 0}}).error, "cell 0 (0,-1) is off the 4x3 map");
  EXPECT_EQ(cells({{0, 0}, {2, 0}}).error, "points 0-1 (0,0)-(2,0) are not one unit move apart");
  EXPECT_EQ(cells({{0, 0}, {2, 1}}, lddb::cell_steps::runs).error,
            "points 0-1 (0,0)-(2,1) are not joined by a straight run of unit moves");
  EXPECT_EQ(cells({{0, 0}, {0, 0}, {1, 0}}).error, "repeated point (0,0) at 1");
  EXPECT_EQ(cells({{0, 0}, {1, 1}}).error, "illegal move (0,0)-(1,1)");             // into a blocked cell
  EXPECT_EQ(cells({{1, 0}, {2, 1}}).error, "illegal move (1,0)-(2,1)");             // cuts the corner of (1,1)
  EXPECT_TRUE(cells({{1, 0}, {2, 1}}, lddb::cell_steps::unit,
                    lddb::rule::octile(lddb::corner_cutting::one_side_free)).valid);
  EXPECT_EQ(cells({{0, 0}, {1, 0}, {2, 1}}, lddb::cell_steps::unit, lddb::rule::tile()).error,
            "illegal move (1,0)-(2,1)");                                            // tile: no diagonals
  EXPECT_EQ(cells({{1, 1}}).error, "single point (1,1) is blocked");
  EXPECT_EQ(cells({{0, 0}, {3, 0}}, lddb::cell_steps::runs).length, 3);
  EXPECT_EQ(cells({{0, 1}, {3, 1}}, lddb::cell_steps::runs).error, "illegal move (0,1)-(1,1)");
}

TEST_F(CheckPath, VertexPaths) {
  auto corners = [&](std::vector<point> p, std::optional<lddb::rule> r = std::nullopt) {
    return lddb::check_path(r.value_or(any_), g_, p.front(), p.back(), p);
  };
  check_result c = corners({{0, 0}, {4, 3}});
  EXPECT_FALSE(c.valid);
  EXPECT_EQ(c.error, "illegal segment (0,0)-(4,3) (points 0-1)");  // through cell (1,1)
  c = corners({{0, 0}, {2, 1}, {4, 3}});
  ASSERT_TRUE(c.valid) << c.error;
  EXPECT_NEAR(c.length, std::sqrt(5.0) + std::sqrt(8.0), 1e-12);
  EXPECT_TRUE(corners({{4, 3}}).valid);  // the far corner of the map is a vertex
  EXPECT_EQ(corners({{0, 0}, {5, 0}}).error, "vertex 1 (5,0) is off the 4x3 map");
  // along the top edge of the map: outside counts as blocked, but the cells below are free
  EXPECT_TRUE(corners({{0, 0}, {4, 0}}).valid);
  // along the faces of a wall: fine while the cells on the other side are free
  const grid_map wall = from_rows({"....", "@@..", "...."});
  EXPECT_TRUE(lddb::check_path(any_, wall, {0, 1}, {2, 1}, {{0, 1}, {2, 1}}).valid);
  EXPECT_TRUE(lddb::check_path(any_, wall, {0, 2}, {2, 2}, {{0, 2}, {2, 2}}).valid);
  // along an edge shared by two blocked cells (the outside counts as blocked): illegal
  const grid_map two = from_rows({"@...", "@...", "...."});
  EXPECT_EQ(lddb::check_path(any_, two, {1, 0}, {1, 2}, {{1, 0}, {1, 2}}).error, "");
  EXPECT_EQ(lddb::check_path(any_, two, {0, 0}, {0, 2}, {{0, 0}, {0, 2}}).error, "illegal segment (0,0)-(0,2) (points 0-1)");
  // a double corner: passing through is illegal unless squeezing is allowed, and so is
  // crossing it at a waypoint (CheckerDoubleCorner below has every case)
  const grid_map dc = from_rows({"@...", ".@..", "...."});
  EXPECT_FALSE(lddb::check_path(any_, dc, {0, 2}, {2, 0}, {{0, 2}, {2, 0}}).valid);
  EXPECT_TRUE(lddb::check_path(lddb::rule::any_angle(lddb::squeezing::allowed), dc, {0, 2}, {2, 0}, {{0, 2}, {2, 0}}).valid);
  EXPECT_FALSE(lddb::check_path(any_, dc, {0, 2}, {2, 0}, {{0, 2}, {1, 1}, {2, 0}}).valid);
  EXPECT_TRUE(lddb::check_path(lddb::rule::any_angle(lddb::squeezing::allowed), dc, {0, 2}, {2, 0}, {{0, 2}, {1, 1}, {2, 0}}).valid);
}

TEST(CheckPolyline, FarPointsAreRefused) {
  const grid_map g(4, 4, 4);
  const std::vector<point> pts{{0, 0}, {1 << 29, 0}};
  const check_result c = lddb::checker::check_polyline(lddb::rule::any_angle(), g, pts);
  EXPECT_FALSE(c.valid);
  EXPECT_EQ(c.error, "point 1 (536870912,0) is far off any map");
}

// ----------------------------------------------------------------------------- double corners

// Two maps with a double corner at vertex v = (2,2), the top-left corner of cell (2,2):
//
//   down (own cell blocked)     up (own cell free)
//     x 0 1 2 3                   x 0 1 2 3
//   y 0 . . . .                 y 0 . . . .
//     1 . @ . .                   1 . . @ .
//     2 . . @ .    v = (2,2)      2 . @ . .
//     3 . . . .                   3 . . . .
//
// down's sides are its free cells (2,1) (north-east of v) and (1,2) (south-west); up's are
// (1,1) (north-west) and (2,2) (south-east, v's own cell).
class CheckerDoubleCorner : public ::testing::Test {
 protected:
  const grid_map down_ = from_rows({"....", ".@..", "..@.", "...."});
  const grid_map up_ = from_rows({"....", "..@.", ".@..", "...."});
  const lddb::rule strict_ = lddb::rule::any_angle();
  const lddb::rule squeeze_ = lddb::rule::any_angle(lddb::squeezing::allowed);

  static check_result run(const lddb::rule& r, const grid_map& g, const std::vector<point>& p) {
    return lddb::check_path(r, g, p.front(), p.back(), p);
  }
  // The default rule's verdict: "" for a valid path, else the error; squeeze=allowed must
  // accept every path this fixture draws, at the same length when both accept.
  std::string strict(const grid_map& g, const std::vector<point>& p) const {
    const check_result c = run(strict_, g, p), a = run(squeeze_, g, p);
    EXPECT_TRUE(a.valid) << "squeeze=allowed: " << a.error;
    if (c.valid) {
      EXPECT_EQ(c.length, a.length);
    }
    EXPECT_EQ(c.valid, c.error.empty());
    return c.error;
  }
};

TEST_F(CheckerDoubleCorner, PassingStraightThroughIsIllegal) {
  EXPECT_EQ(strict(down_, {{0, 4}, {4, 0}}), "illegal segment (0,4)-(4,0) (points 0-1)");
  EXPECT_EQ(strict(down_, {{1, 3}, {3, 1}}), "illegal segment (1,3)-(3,1) (points 0-1)");
  EXPECT_EQ(strict(up_, {{0, 0}, {4, 4}}), "illegal segment (0,0)-(4,4) (points 0-1)");
  // along the grid lines through v: each half runs beside one free and one blocked cell
  EXPECT_EQ(strict(down_, {{0, 2}, {4, 2}}), "illegal segment (0,2)-(4,2) (points 0-1)");
  EXPECT_EQ(strict(down_, {{2, 0}, {2, 4}}), "illegal segment (2,0)-(2,4) (points 0-1)");
  EXPECT_EQ(strict(up_, {{0, 2}, {4, 2}}), "illegal segment (0,2)-(4,2) (points 0-1)");
}

TEST_F(CheckerDoubleCorner, VisitingOnOneSideIsLegal) {
  // into v from the south-west quadrant and back out into it
  EXPECT_EQ(strict(down_, {{0, 4}, {2, 2}, {0, 3}}), "");
  EXPECT_EQ(run(strict_, down_, {{0, 4}, {2, 2}, {0, 3}}).length, std::sqrt(8.0) + std::sqrt(5.0));
  // the north-east side, through its quadrant and along its two edges
  EXPECT_EQ(strict(down_, {{4, 0}, {2, 2}, {3, 0}}), "");
  EXPECT_EQ(strict(down_, {{4, 2}, {2, 2}, {2, 0}}), "");
  EXPECT_EQ(strict(down_, {{2, 0}, {2, 2}, {4, 1}}), "");
  // the south-west side along its two edges
  EXPECT_EQ(strict(down_, {{2, 4}, {2, 2}, {0, 2}}), "");
  // up: the north-west side, neither end on v
  EXPECT_EQ(strict(up_, {{0, 2}, {2, 2}, {2, 0}}), "");
  EXPECT_EQ(strict(up_, {{0, 1}, {2, 2}, {1, 0}}), "");
  // the same visit inside a longer path
  EXPECT_EQ(strict(down_, {{1, 4}, {0, 4}, {2, 2}, {0, 3}, {0, 0}}), "");
}

TEST_F(CheckerDoubleCorner, CrossingSidesAtAWaypointIsIllegal) {
  EXPECT_EQ(strict(down_, {{0, 4}, {2, 2}, {4, 0}}),
            "the path crosses the double corner (2,2) at point 1: it arrives beside cell (1,2) and leaves beside cell (2,1)");
  EXPECT_EQ(strict(down_, {{4, 0}, {2, 2}, {0, 3}}),
            "the path crosses the double corner (2,2) at point 1: it arrives beside cell (2,1) and leaves beside cell (1,2)");
  // along the edges: south then east, west then north
  EXPECT_EQ(strict(down_, {{2, 4}, {2, 2}, {4, 2}}),
            "the path crosses the double corner (2,2) at point 1: it arrives beside cell (1,2) and leaves beside cell (2,1)");
  EXPECT_EQ(strict(down_, {{0, 2}, {2, 2}, {2, 0}}),
            "the path crosses the double corner (2,2) at point 1: it arrives beside cell (1,2) and leaves beside cell (2,1)");
  // an edge on one side, a quadrant on the other
  EXPECT_EQ(strict(down_, {{2, 4}, {2, 2}, {3, 0}}),
            "the path crosses the double corner (2,2) at point 1: it arrives beside cell (1,2) and leaves beside cell (2,1)");
  EXPECT_EQ(strict(up_, {{0, 0}, {2, 2}, {4, 3}}),
            "the path crosses the double corner (2,2) at point 1: it arrives beside cell (1,1) and leaves beside cell (2,2)");
  // later in a path, the point's index is named
  EXPECT_EQ(strict(down_, {{1, 4}, {0, 4}, {2, 2}, {4, 0}}),
            "the path crosses the double corner (2,2) at point 2: it arrives beside cell (1,2) and leaves beside cell (2,1)");
}

TEST_F(CheckerDoubleCorner, StartAndGoalBelongToTheirOwnCell) {
  // up: v's own cell (2,2) is free, so a path may start or end at v on that side only
  for (const point t : {point{4, 4}, point{4, 3}, point{3, 4}, point{4, 2}, point{2, 4}}) {
    EXPECT_EQ(strict(up_, {{2, 2}, t}), "") << lddb::checker::point_text(t);
    EXPECT_EQ(strict(up_, {t, {2, 2}}), "") << lddb::checker::point_text(t);
  }
  EXPECT_EQ(strict(up_, {{2, 2}}), "");
  EXPECT_EQ(strict(up_, {{2, 2}, {0, 0}}),
            "the path leaves the start (2,2), a double corner, beside cell (1,1), not beside its own cell (2,2)");
  EXPECT_EQ(strict(up_, {{2, 2}, {0, 2}}),
            "the path leaves the start (2,2), a double corner, beside cell (1,1), not beside its own cell (2,2)");
  EXPECT_EQ(strict(up_, {{2, 2}, {2, 0}}),
            "the path leaves the start (2,2), a double corner, beside cell (1,1), not beside its own cell (2,2)");
  EXPECT_EQ(strict(up_, {{0, 0}, {2, 2}}),
            "the path reaches the goal (2,2), a double corner, beside cell (1,1), not beside its own cell (2,2)");
  EXPECT_EQ(strict(up_, {{4, 4}, {4, 0}, {1, 0}, {2, 2}}),
            "the path reaches the goal (2,2), a double corner, beside cell (1,1), not beside its own cell (2,2)");
  // leaving on the own side and coming back to v on the other side as the goal
  EXPECT_EQ(strict(up_, {{2, 2}, {2, 4}, {0, 4}, {0, 2}, {2, 2}}),
            "the path reaches the goal (2,2), a double corner, beside cell (1,1), not beside its own cell (2,2)");
  EXPECT_EQ(strict(up_, {{2, 2}, {4, 4}, {4, 0}, {0, 0}, {0, 2}, {2, 2}}),
            "the path reaches the goal (2,2), a double corner, beside cell (1,1), not beside its own cell (2,2)");
}

TEST_F(CheckerDoubleCorner, NoStartOrGoalWhereTheOwnCellIsBlocked) {
  // down: v's own cell (2,2) is blocked: no path may start or end at v, whatever the side
  EXPECT_EQ(strict(down_, {{2, 2}}), "single point (2,2) is a double corner whose own cell (2,2) is blocked");
  EXPECT_EQ(strict(down_, {{2, 2}, {0, 4}}), "start (2,2) is a double corner whose own cell (2,2) is blocked");
  EXPECT_EQ(strict(down_, {{2, 2}, {4, 0}}), "start (2,2) is a double corner whose own cell (2,2) is blocked");
  EXPECT_EQ(strict(down_, {{0, 4}, {2, 2}}), "goal (2,2) is a double corner whose own cell (2,2) is blocked");
  EXPECT_EQ(strict(down_, {{4, 2}, {2, 2}}), "goal (2,2) is a double corner whose own cell (2,2) is blocked");
  // a blocked own cell alone does not matter: (1,1) has one blocked cell, (3,3) one too
  EXPECT_EQ(strict(down_, {{1, 1}, {0, 0}}), "");
  EXPECT_EQ(strict(down_, {{4, 4}, {3, 3}}), "");
}

TEST_F(CheckerDoubleCorner, OnlyDiagonalPairsMakeSides) {
  // Two blocked cells side by side: the free cells below them touch, a path turns freely.
  const grid_map pair = from_rows({"@@..", "....", "...."});
  EXPECT_EQ(strict(pair, {{0, 2}, {1, 1}, {2, 2}}), "");
  EXPECT_EQ(strict(pair, {{1, 1}, {0, 2}}), "");
  // Three blocked cells: one free cell is one side.
  const grid_map three = from_rows({"@@..", "@...", "...."});
  EXPECT_EQ(strict(three, {{1, 2}, {1, 1}, {3, 2}}), "");
}

// ----------------------------------------------------------------------------- sampled

// Every path of one or two segments between the vertices of small random maps: the
// checker's verdict is the one sampling the segments gives (tests/sampled_rule.hpp), under
// both rules, and it counts the same length.
TEST(CheckerSampled, ShortPathsAgreeWithSampling) {
  std::mt19937_64 rng(0x5A3D);
  int visits = 0, crossings = 0, own_side = 0, other_side = 0, no_endpoint = 0;
  for (int m = 0; m < 24; ++m) {
    const grid_map g = random_map(rng, 4 + m % 2, 4, 30 + 2 * m);
    const int w = g.width() + 1, h = g.height() + 1;
    for (const auto& r : {lddb::rule::any_angle(), lddb::rule::any_angle(lddb::squeezing::allowed)}) {
      const bool strict = r.squeeze == lddb::squeezing::forbidden;
      auto verdict = [&](const std::vector<point>& p) {
        const check_result c = lddb::check_path(r, g, p.front(), p.back(), p);
        const bool want = sampled::path_legal(r, g, p.data(), p.size());
        std::string text;
        for (const point& q : p) text += lddb::checker::point_text(q);
        EXPECT_EQ(c.valid, want) << r.name() << " map " << m << " path " << text << ": " << c.error;
        return c.valid;
      };
      for (int a = 0; a < w * h; ++a) {
        const point pa{a % w, a / w};
        verdict({pa});
        if (strict && sampled::two_sided(g, pa) && g.blocked(pa.x, pa.y)) ++no_endpoint;
        for (int v = 0; v < w * h; ++v) {
          const point pv{v % w, v / w};
          if (pv == pa) continue;
          const bool one = verdict({pa, pv});
          if (strict && sampled::two_sided(g, pa) && sampled::segment_legal(r, g, pa, pv) && !g.blocked(pa.x, pa.y))
            ++(one ? own_side : other_side);
          if (!sampled::segment_legal(r, g, pa, pv)) continue;  // then so is every a-v-b
          for (int b = 0; b < w * h; ++b) {
            const point pb{b % w, b / w};
            if (pb == pv) continue;
            const bool two = verdict({pa, pv, pb});
            if (strict && sampled::two_sided(g, pv) && sampled::segment_legal(r, g, pv, pb) &&
                sampled::path_legal(r, g, &pa, 1) && sampled::path_legal(r, g, &pb, 1))
              ++(two ? visits : crossings);
          }
        }
      }
    }
  }
  // the maps have double corners of every kind, visited and crossed
  EXPECT_GT(visits, 100);
  EXPECT_GT(crossings, 100);
  EXPECT_GT(own_side, 20);
  EXPECT_GT(other_side, 20);
  EXPECT_GT(no_endpoint, 5);
}

}  // namespace
