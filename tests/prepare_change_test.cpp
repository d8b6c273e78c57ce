// prepare_change_test: the preparation on a map that changes (lddb/prepare.hpp, "Maps that
// change"): prepare_step sets the plan's landmarks aside while the map changes often (in
// ways they must pay for: walls opened) and
// builds them again once it holds still, plans again after a large redraw, and keeps
// landmarks asked for by count current; searches stay optimal throughout (against the
// same search with nothing prepared, and against A*).
//
//   PrepareChange.SetAsideAndBack  walls opened in two steps of the window: set aside (tables
//                    freed, none read); kQuietSteps quiet steps: built again, then ready
//   PrepareChange.ChangeDuringBuild  a cell shut and opened again before the build is done
//                    keeps it going; a wall opened sets them aside at once
//   PrepareChange.DoorsThatComeAndGoCostNothing  cells shut and opened again at every step:
//                    the landmarks stay ready and read, searches equal A*'s
//   PrepareChange.RareDoorsAreRepaired  one changed step now and then keeps them, repaired
//   PrepareChange.KeptWhenAsked  a count asked for, or adapt_to_change false: never set aside
//   PrepareChange.RedrawPlansAgain  a map redrawn from open ground to a random one: the new
//                    plan's choice of jumps, as plan_preparation gives it for the map now
//   PrepareChange.SearchesStayOptimal  many rounds of changes and steps on generated maps:
//                    every Block A* cost equals A*'s on the same map
#include <gtest/gtest.h>

#include <vector>

#include "lddb/grid.hpp"
#include "lddb/mapgen.hpp"
#include "lddb/prepare.hpp"
#include "lddb/search.hpp"
#include "lddb/find_path.hpp"
#include "test_db.hpp"
#include "test_rng.hpp"

namespace {

using lddb::grid_map;
using lddb::preparation_state;
using lddb::rule;

lddb::preparation_state state_of(const grid_map& map, const rule& r) { return lddb::preparation_of(map, r)->state; }

// prepare_step until nothing is pending, without changing the map.
void settle(grid_map& map) {
  for (int i = 0; i < 100000 && !lddb::prepare_step(map); ++i) {
  }
}

// A maze prepared whole: its landmarks pay (lddb/prepare.hpp), so the plan keeps 8.
grid_map prepared_maze(const rule& r, lddb::prepare_options o = {}) {
  grid_map map = lddb::make_maze_map(96, 96, 2, 5);
  o.mode = lddb::prepare_mode::complete;
  const lddb::preparation_report rep = lddb::prepare(r, map, o);
  EXPECT_GT(rep.plan.landmarks, 0) << rep.text();
  EXPECT_EQ(rep.state, preparation_state::ready) << rep.text();
  return map;
}

void toggle(grid_map& map, int x, int y) { map.set_blocked(x, y, !map.blocked(x, y)); }

// The n-th cell of the map (row by row) that is blocked (or free).
lddb::point nth_cell(const grid_map& map, int n, bool blocked) {
  for (int y = 0; y < map.height(); ++y)
    for (int x = 0; x < map.width(); ++x)
      if (map.blocked(x, y) == blocked && n-- == 0) return {x, y};
  ADD_FAILURE() << "not that many cells";
  return {0, 0};
}

TEST(PrepareChange, SetAsideAndBack) {
  const rule r = rule::octile();
  grid_map map = prepared_maze(r);
  // Walls opened: cells the landmarks' map has blocked, a repair each.
  const lddb::point wall1 = nth_cell(map, 40, true), wall2 = nth_cell(map, 90, true);
  map.set_blocked(wall1.x, wall1.y, false);
  lddb::prepare_step(map);
  EXPECT_NE(state_of(map, r), preparation_state::set_aside);  // one change: repaired
  map.set_blocked(wall2.x, wall2.y, false);
  lddb::prepare_step(map);
  const lddb::preparation_report aside = *lddb::preparation_of(map, r);
  EXPECT_EQ(aside.state, preparation_state::set_aside) << aside.text();
  // The landmark tables are given back; what is left are the jump tables, if any.
  const std::uint64_t cells = static_cast<std::uint64_t>(map.width()) * static_cast<std::uint64_t>(map.height());
  EXPECT_EQ(aside.bytes, aside.plan.jumps ? 4 * cells : 0u) << aside.text();
  EXPECT_EQ(lddb::prepared_landmarks(map, r), nullptr);
  EXPECT_NE(aside.plan.why.find("set aside"), std::string::npos) << aside.plan.why;
  for (std::uint64_t i = 1; i < lddb::kQuietSteps; ++i) {
    lddb::prepare_step(map);
    ASSERT_EQ(state_of(map, r), preparation_state::set_aside) << "quiet step " << i;
  }
  lddb::prepare_step(map);
  EXPECT_EQ(state_of(map, r), preparation_state::building);
  settle(map);
  EXPECT_EQ(state_of(map, r), preparation_state::ready);
  ASSERT_NE(lddb::prepared_landmarks(map, r), nullptr);
  EXPECT_EQ(lddb::preparation_of(map, r)->landmarks_built, 8);
}

TEST(PrepareChange, ChangeDuringBuild) {
  const rule r = rule::octile();
  grid_map map = lddb::make_maze_map(96, 96, 2, 5);
  const lddb::preparation_report first = lddb::prepare(r, map);  // slices: the first landmarks only
  ASSERT_EQ(first.state, preparation_state::building) << first.text();
  const lddb::point open = nth_cell(map, 10, false), wall = nth_cell(map, 10, true);
  map.set_blocked(open.x, open.y, true);  // shut and opened again: nothing for the landmarks to pay
  lddb::prepare_step(map, 1);              // (slices too small to finish the build)
  map.set_blocked(open.x, open.y, false);
  lddb::prepare_step(map, 1);
  EXPECT_EQ(state_of(map, r), preparation_state::building);
  map.set_blocked(wall.x, wall.y, false);  // a wall opened: the tables would need a repair
  lddb::prepare_step(map, 1);
  EXPECT_EQ(state_of(map, r), preparation_state::set_aside);
}

// Doors shut and opened again at every step, around the map the landmarks were built on:
// they stay, ready and read by the searches, which stay optimal.
TEST(PrepareChange, DoorsThatComeAndGoCostNothing) {
  const rule r = rule::octile();
  const lddb::database& db = lddb_test::db_for(r);
  grid_map map = prepared_maze(r);
  lddb_test::rng g{9};
  lddb::search_context ctx, plain_ctx;
  lddb::search_options plain;
  plain.diagnostics.use_prepared = false;
  std::vector<lddb::point> shut;
  for (int step = 0; step < 3 * lddb::kChangeWindow; ++step) {
    if (shut.empty() || g.below(2) == 0) {
      const lddb::point door = nth_cell(map, g.below(500), false);
      map.set_blocked(door.x, door.y, true);
      shut.push_back(door);
    } else {
      map.set_blocked(shut.back().x, shut.back().y, false);
      shut.pop_back();
    }
    lddb::prepare_step(map);
    ASSERT_EQ(state_of(map, r), preparation_state::ready) << "step " << step;
    ASSERT_NE(lddb::prepared_landmarks(map, r), nullptr) << "step " << step;
    const lddb::point a = lddb_test::random_free_cell(g, map), b = lddb_test::random_free_cell(g, map);
    const lddb::search_result got = lddb::find_path(db, map, a, b, {}, ctx);
    const lddb::search_result want = lddb::astar(r, map, a, b, plain, plain_ctx);
    ASSERT_EQ(got.status, want.status) << "step " << step;
    ASSERT_EQ(got.cost, want.cost) << "step " << step;
  }
}

TEST(PrepareChange, RareDoorsAreRepaired) {
  const rule r = rule::octile();
  grid_map map = prepared_maze(r);
  for (int door = 0; door < 5; ++door) {
    toggle(map, 7 + door, 9);
    lddb::prepare_step(map);
    for (int i = 0; i < lddb::kChangeWindow; ++i) lddb::prepare_step(map);
    ASSERT_EQ(state_of(map, r), preparation_state::ready) << "door " << door;
    ASSERT_NE(lddb::prepared_landmarks(map, r), nullptr);
  }
}

TEST(PrepareChange, KeptWhenAsked) {
  const rule r = rule::octile();
  lddb::prepare_options counted, kept;
  counted.landmarks = 4;
  kept.adapt_to_change = false;
  for (const lddb::prepare_options& o : {counted, kept}) {
    grid_map map = prepared_maze(r, o);
    lddb_test::rng g{42};
    for (int step = 0; step < 40; ++step) {
      toggle(map, g.below(96), g.below(96));
      settle(map);
      ASSERT_EQ(state_of(map, r), preparation_state::ready) << "step " << step;
    }
    EXPECT_NE(lddb::prepared_landmarks(map, r), nullptr);
  }
}

TEST(PrepareChange, RedrawPlansAgain) {
  const rule r = rule::any_angle();  // the cell rules jump on any map this size (jump tables)
  grid_map map(128, 128, 4);  // open ground: no corners, jumps chosen
  lddb::prepare(r, map);
  ASSERT_TRUE(lddb::preparation_of(map, r)->plan.jumps);
  const grid_map random = lddb::make_random_map(128, 128, 35, 9);
  ASSERT_FALSE(lddb::plan_preparation(r, random).jumps);
  for (int y = 0; y < 128; ++y)
    for (int x = 0; x < 128; ++x) map.set_blocked(x, y, random.blocked(x, y));
  lddb::prepare_step(map);
  EXPECT_FALSE(lddb::preparation_of(map, r)->plan.jumps) << lddb::preparation_of(map, r)->text();
  for (int y = 0; y < 128; ++y)
    for (int x = 0; x < 128; ++x) map.set_blocked(x, y, false);
  lddb::prepare_step(map);
  EXPECT_TRUE(lddb::preparation_of(map, r)->plan.jumps);
}

TEST(PrepareChange, SearchesStayOptimal) {
  for (const rule& r : {rule::tile(), rule::octile()}) {
    const lddb::database& db = lddb_test::db_for(r);
    for (int m = 0; m < 3; ++m) {
      grid_map map = m == 0 ? lddb::make_maze_map(120, 100, 2, 3 + static_cast<std::uint64_t>(m))
                            : lddb::make_rooms_map(120, 100, 4 + m, 3 + static_cast<std::uint64_t>(m));
      lddb::prepare(db, map);
      lddb::search_context ctx, plain_ctx;
      lddb::search_options plain;
      plain.diagnostics.use_prepared = false;
      lddb_test::rng g{static_cast<std::uint64_t>(m) + 77};
      for (int round = 0; round < 40; ++round) {
        const int changes = round % 7 == 0 ? 0 : g.below(12);
        for (int k = 0; k < changes; ++k) toggle(map, g.below(map.width()), g.below(map.height()));
        lddb::prepare_step(map);
        for (int q = 0; q < 5; ++q) {
          const lddb::point a = lddb_test::random_free_cell(g, map), b = lddb_test::random_free_cell(g, map);
          const lddb::search_result got = lddb::find_path(db, map, a, b, {}, ctx);
          const lddb::search_result want = lddb::astar(r, map, a, b, plain, plain_ctx);
          ASSERT_EQ(got.status, want.status) << r.name() << " map " << m << " round " << round;
          ASSERT_EQ(got.cost, want.cost) << r.name() << " map " << m << " round " << round;
        }
      }
    }
  }
}

}  // namespace
