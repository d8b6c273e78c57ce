// jump_tables_test: jump point search reading the map's jump tables (made by lddb::prepare,
// runtime/src/map/jump_tables.hpp) answers exactly as jump point search scanning the bits:
// the same status, cost, path and expansions, on maps that change cell by cell and by
// rectangles, small and whole, between queries. The scanning search is itself checked
// against A* (jump_search_test.cpp).
//
//   JumpTables.SameAnswersAsTheScans   every rule jump point search takes, maps 1 to 3 words wide
//   JumpTables.OpenGroundReadsOn       lines longer than an entry's reach (kFar = 127 cells),
//                                      changed cell by cell, near and far from the stops
//   JumpTables.AMapCopyHasNone         a copy searches by the scans, with the same answers
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lddb/grid.hpp"
#include "lddb/prepare.hpp"
#include "lddb/search.hpp"
#include "test_rng.hpp"

namespace {

using namespace lddb;
using lddb_test::rng;

grid_map random_map(rng& g, int w, int h, int percent) {
  grid_map m(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      if (g.below(100) < percent) m.set_blocked(x, y, true);
  return m;
}

void prepare_with_jumps(const rule& r, grid_map& m) {
  prepare_options o;
  o.mode = prepare_mode::complete;
  o.landmarks = 0;  // the scans' answers are compared, not the heuristic's
  o.jumps = true;
  prepare(r, m, o);
}

// `tabled` has the tables (prepared); a copy of it searches by the scans.
void expect_same_answers(const rule& r, const grid_map& tabled, rng& g, int queries, const std::string& where) {
  const grid_map scanned = tabled;  // a copy: no preparation, no tables
  search_context a, b;
  search_result ra, rb;
  for (int q = 0; q < queries; ++q) {
    const point s = lddb_test::random_free_cell(g, tabled), t = lddb_test::random_free_cell(g, tabled);
    jump_point_search(r, tabled, s, t, search_options(), a, ra);
    jump_point_search(r, scanned, s, t, search_options(), b, rb);
    ASSERT_EQ(ra.status, rb.status) << where << " query " << q;
    ASSERT_EQ(ra.cost, rb.cost) << where << " query " << q;
    ASSERT_EQ(ra.path, rb.path) << where << " query " << q;
    // Without a path the component labels may answer at once on one map and not on the
    // other (the copy builds its own, exact; the changed map's may be coarse).
    if (!ra.found()) continue;
    ASSERT_EQ(ra.stats.expanded, rb.stats.expanded) << where << " query " << q;
    ASSERT_EQ(ra.stats.generated, rb.stats.generated) << where << " query " << q;
  }
}

TEST(JumpTables, SameAnswersAsTheScans) {
  const rule rules[] = {rule::octile(), rule::tile(), rule::any_angle(), *rule::parse("octile:diagonal=1.5")};
  rng g{42};
  for (const rule& r : rules)
    for (const int w : {23, 64, 130, 200})
      for (const int percent : {8, 25, 40}) {
        const int h = 40 + g.below(60);
        grid_map m = random_map(g, w, h, percent);
        prepare_with_jumps(r, m);
        const std::string where = r.name() + " " + std::to_string(w) + "x" + std::to_string(h) + " at " +
                                  std::to_string(percent) + "%";
        expect_same_answers(r, m, g, 30, where);
        for (int round = 0; round < 6; ++round) {
          // Single cells, blocked and freed, at the edges too.
          for (int k = 0; k < 20; ++k) {
            const int x = k % 5 == 0 ? (g.below(2) ? 0 : w - 1) : g.below(w), y = g.below(h);
            m.set_blocked(x, y, !m.blocked(x, y));
          }
          // A rectangle of random bits, and one filled.
          const int rw = 1 + g.below(std::min(w, 20)), rh = 1 + g.below(std::min(h, 20));
          std::vector<std::uint8_t> bits(static_cast<std::size_t>((rw * rh + 7) / 8));
          for (std::uint8_t& b : bits) b = static_cast<std::uint8_t>(g.next() & g.next());
          m.set_blocked_rect(g.below(w - rw + 1), g.below(h - rh + 1), rw, rh, bits);
          m.fill_blocked_rect(g.below(w - 2), g.below(h - 2), 2, 2, g.below(2) == 0);
          // Now and then the whole map at once (the tables are then made again).
          if (round == 3) {
            std::vector<std::uint8_t> all(static_cast<std::size_t>((w * h + 7) / 8));
            for (std::uint8_t& b : all) b = static_cast<std::uint8_t>(g.next() & g.next() & g.next());
            m.set_blocked_rect(0, 0, w, h, all);
          }
          if (m.blocked_count() == static_cast<std::uint64_t>(w) * static_cast<std::uint64_t>(h)) m.set_blocked(0, 0, false);
          expect_same_answers(r, m, g, 20, where + " round " + std::to_string(round));
        }
      }
}

// Open ground: stops further than an entry reaches (it then reads 0 and the search reads on),
// and changes that move a stop within and beyond that reach of the entries behind it.
TEST(JumpTables, OpenGroundReadsOn) {
  const rule rules[] = {rule::octile(), rule::tile(), rule::any_angle()};
  rng g{2027};
  for (const rule& r : rules)
    for (const int w : {300, 700}) {
      const int h = 260 + g.below(200);
      grid_map m(w, h);
      for (int k = 0; k < w * h / 1500; ++k) m.set_blocked(g.below(w), g.below(h), true);  // a cell in 1,500
      prepare_with_jumps(r, m);
      const std::string where = r.name() + " " + std::to_string(w) + "x" + std::to_string(h);
      expect_same_answers(r, m, g, 30, where);
      for (int round = 0; round < 5; ++round) {
        for (int k = 0; k < 12; ++k) {
          const int x = g.below(w), y = g.below(h);
          m.set_blocked(x, y, !m.blocked(x, y));
        }
        // A wall across most of a row and of a column, then gone: every entry of the line
        // behind it changes, as far as they reach.
        const int y = g.below(h), x = g.below(w);
        m.fill_blocked_rect(0, y, w - 1 - g.below(3), 1, round % 2 == 0);
        m.fill_blocked_rect(x, 1 + g.below(3), 1, h - 4, round % 2 == 0);
        expect_same_answers(r, m, g, 20, where + " round " + std::to_string(round));
      }
    }
}

// A copy of a prepared map keeps no tables; what it searches is still the map.
TEST(JumpTables, AMapCopyHasNone) {
  rng g{7};
  grid_map m = random_map(g, 100, 70, 20);
  prepare_with_jumps(rule::octile(), m);
  grid_map copy = m;
  copy.set_blocked(50, 35, !copy.blocked(50, 35));
  m.set_blocked(50, 35, !m.blocked(50, 35));
  expect_same_answers(rule::octile(), m, g, 50, "after the copy");
  search_context ctx;
  for (int q = 0; q < 50; ++q) {
    const point s = lddb_test::random_free_cell(g, m), t = lddb_test::random_free_cell(g, m);
    EXPECT_EQ(jump_point_search(rule::octile(), m, s, t, search_options(), ctx).cost,
              jump_point_search(rule::octile(), copy, s, t, search_options(), ctx).cost);
  }
}

}  // namespace
