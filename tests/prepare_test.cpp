// prepare_test: lddb::prepare and prepare_step (lddb/prepare.hpp).
//
//   Prepare.SearchesStayOptimalThroughChanges  220 generated maps x every rule, each mode
//                     (slices, complete, worker thread), landmarks and squares on or off:
//                     blocks and frees between queries, prepare_step now and then; tile and
//                     octile Block A* and A* cost the oracle's optimum, any-angle Block A*
//                     costs what it costs unprepared, Theta* paths pass the checker
//   Prepare.StaleTablesAreNeverRead  after a free and before prepare_step the searches
//                     expand exactly what they expand without landmarks; after it, what
//                     they expand with a fresh set from the same points
//   Prepare.SlicesServeAtOnce  prepare returns with the first landmarks built and in use;
//                     prepare_step finishes the set, equal to a whole build's
//   Prepare.SlicedQueryOutlivesPrepareStep  a sliced query keeps the set it began with
//                     through prepare_step calls that replace it
//   Prepare.Rebuilds  more frees than the journal keeps, or many cells blocked: prepare_step
//                     rebuilds, and the set equals a fresh build on the map as it is
//   Prepare.WorkerThread  the set is published by its thread and adopted by prepare_step
//   Prepare.Ownership  a copy has no preparation, a move keeps it, unprepare drops it;
//                     use_prepared = false and explicit options win; bad options throw
//   Plan.MeasuredRule  the plan's choice by free cells, open share and size
//   Plan.LandmarksStayWhereTheyPay  open ground drops them, a maze keeps them, in every
//                     mode; a count asked for stays
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <string>
#include <thread>

#include "lddb/checker.hpp"
#include "lddb/grid.hpp"
#include "lddb/landmarks.hpp"
#include "lddb/mapgen.hpp"
#include "lddb/prepare.hpp"
#include "lddb/search.hpp"
#include "lddb/find_path.hpp"
#include "oracle.hpp"
#include "test_db.hpp"
#include "test_map.hpp"
#include "test_rng.hpp"

namespace {

using lddb::grid_map;
using lddb::point;
using lddb::prepare_mode;
using lddb::prepare_options;
using lddb::rule;

grid_map generated_map(int i, int w, int h) {
  const std::uint64_t seed = static_cast<std::uint64_t>(i) * 7919 + 11;
  switch (i % 3) {
    case 0: return lddb::make_random_map(w, h, 10 + (i * 7) % 30, seed);
    case 1: return lddb::make_rooms_map(w, h, 3 + i % 6, seed);
    default: return lddb::make_maze_map(w, h, 1 + i % 3, seed);
  }
}

void change_some(lddb_test::rng& g, grid_map& map, int n) {
  for (int k = 0; k < n; ++k) {
    const int x = g.below(map.width()), y = g.below(map.height());
    map.set_blocked(x, y, g.below(3) == 0);  // two frees to a block
  }
}

// prepare_step until nothing is pending (a worker thread may need a moment).
void finish(grid_map& map) {
  for (int i = 0; i < 200000 && !lddb::prepare_step(map, 1000); ++i)
    if (i % 100 == 99) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ASSERT_TRUE(lddb::prepare_step(map));
}

point first_free(const grid_map& m) {
  for (int y = 0; y < m.height(); ++y)
    for (int x = 0; x < m.width(); ++x)
      if (!m.blocked(x, y)) return {x, y};
  return {0, 0};
}

point last_free(const grid_map& m) {
  for (int y = m.height() - 1; y >= 0; --y)
    for (int x = m.width() - 1; x >= 0; --x)
      if (!m.blocked(x, y)) return {x, y};
  return {0, 0};
}

lddb::search_options raw() {
  lddb::search_options o;
  o.smooth = false;
  return o;
}

TEST(Prepare, SearchesStayOptimalThroughChanges) {
  int checked = 0;
  for (int i = 0; i < 220; ++i) {
    const rule r = lddb_test::search_rules()[static_cast<std::size_t>(i) % lddb_test::search_rules().size()];
    const bool small = r.on_vertices();  // the any-angle oracle is slow: smaller maps
    grid_map map = generated_map(i, small ? 14 + i % 6 : 24 + i % 11, small ? 12 + i % 5 : 20 + i % 9);
    const lddb::database& db = lddb_test::db_for(r);
    map.set_block_size(db.info().block);
    if (map.blocked_count() + 4 > static_cast<std::uint64_t>(map.width()) * static_cast<std::uint64_t>(map.height()))
      continue;
    lddb_test::rng g{static_cast<std::uint64_t>(i) * 13 + 5};
    prepare_options o;
    o.mode = static_cast<prepare_mode>(i % 3);
    o.landmarks = 1 + i % 6;
    if (i % 4 == 1) o.open_squares = !r.on_vertices();  // the cell rules' squares too
    o.rebuild_after_blocked = i % 5 == 0 ? 6 : 1024;
    lddb::prepare(db, map, o);
    lddb::search_context ctx;
    for (int round = 0; round < 5; ++round) {
      change_some(g, map, g.below(6));
      if (round % 2 == 1) lddb::prepare_step(map, 1 + static_cast<std::uint64_t>(g.below(400)));
      const std::string where = r.name() + " map " + std::to_string(i) + " round " + std::to_string(round);
      const oracle::grid og = lddb_test::to_oracle(map);
      for (int q = 0; q < 3; ++q) {
        const point a = lddb_test::random_free_cell(g, map), b = lddb_test::random_free_cell(g, map);
        const point s = a, t = b;  // cells; for any-angle their top-left corners (usable: the cell is free)
        lddb::search_options plain = raw();
        plain.diagnostics.use_prepared = false;
        plain.diagnostics.open_squares = o.open_squares;
        lddb::search_options own = raw();
        own.diagnostics.search = lddb::search_kind::block_astar;  // any-angle by jumps has its own paths: checked below
        const lddb::search_result with = lddb::find_path(db, map, s, t, own, ctx);
        const lddb::search_result without = lddb::find_path(db, map, s, t, plain, ctx);
        ASSERT_EQ(with.status, without.status) << where << ": " << with.message;
        if (!with.found()) continue;
        ++checked;
        if (r.on_vertices()) {
          EXPECT_EQ(with.cost, without.cost) << where;  // consistent bounds: Block A*'s own least cost
          const lddb::search_result jumped = lddb::find_path(db, map, s, t, {}, ctx);
          ASSERT_TRUE(jumped.found()) << where;
          EXPECT_TRUE(oracle::check_path(r, og, jumped.path).ok) << where << " by jumps";
          const lddb::search_result th = lddb::theta_star(r, map, s, t, {}, ctx);
          ASSERT_TRUE(th.found()) << where;
          EXPECT_TRUE(oracle::check_path(r, og, th.path).ok) << where << " theta*";
        } else {
          const double optimum = oracle::least_cost(r, og, s, t);
          EXPECT_NEAR(lddb::cost_to_double(with.cost), optimum, 1e-6) << where << " block-astar";
          const lddb::search_result as = lddb::astar(r, map, s, t, raw(), ctx);
          EXPECT_NEAR(lddb::cost_to_double(as.cost), optimum, 1e-6) << where << " astar";
        }
      }
    }
  }
  EXPECT_GT(checked, 1500);
}

TEST(Prepare, StaleTablesAreNeverRead) {
  for (const rule& r : {rule::tile(), rule::octile(), rule::any_angle()}) {
    const lddb::database& db = lddb_test::db_for(r);
    grid_map map = lddb::make_rooms_map(96, 80, 12, 4);
    prepare_options o;
    o.mode = prepare_mode::complete;
    o.landmarks = 6;
    o.jumps = false;  // Block A* throughout: its expansions show which tables it read
    lddb::prepare(db, map, o);
    lddb::search_context ctx;
    lddb_test::rng g{77};
    int freed = 0;
    for (int round = 0; round < 12; ++round) {
      const point a = lddb_test::random_free_cell(g, map), b = lddb_test::random_free_cell(g, map);
      // Free a wall cell: the tables may now be too long.
      point c{g.below(map.width()), g.below(map.height())};
      for (int k = 0; k < 500 && !map.blocked(c.x, c.y); ++k) c = {g.below(map.width()), g.below(map.height())};
      if (!map.blocked(c.x, c.y)) continue;
      map.set_blocked(c.x, c.y, false);
      ++freed;
      ASSERT_EQ(lddb::preparation_of(map, r)->state, lddb::preparation_state::stale);
      ASSERT_EQ(lddb::prepared_landmarks(map, r), nullptr);
      lddb::search_options off = raw();
      off.diagnostics.use_prepared = false;
      off.diagnostics.open_squares = lddb::preparation_of(map, r)->plan.open_squares;
      const lddb::search_result stale = lddb::find_path(db, map, a, b, raw(), ctx);
      const lddb::search_result none = lddb::find_path(db, map, a, b, off, ctx);
      EXPECT_EQ(stale.stats.expanded, none.stats.expanded) << r.name() << " round " << round;
      EXPECT_EQ(stale.cost, none.cost);
      finish(map);
      const lddb::landmark_set* set = lddb::prepared_landmarks(map, r);
      ASSERT_NE(set, nullptr);
      const lddb::landmark_set fresh = lddb::landmark_set::build(r, map, set->points());
      lddb::search_options explicit_set = off;
      explicit_set.landmarks = &fresh;
      const lddb::search_result repaired = lddb::find_path(db, map, a, b, raw(), ctx);
      const lddb::search_result rebuilt = lddb::find_path(db, map, a, b, explicit_set, ctx);
      EXPECT_EQ(repaired.stats.expanded, rebuilt.stats.expanded) << r.name() << " round " << round;
      EXPECT_EQ(repaired.cost, rebuilt.cost);
    }
    EXPECT_GT(freed, 8);
  }
}

TEST(Prepare, SlicesServeAtOnce) {
  const rule r = rule::octile();
  const lddb::database& db = lddb_test::db_for(r);
  grid_map map = lddb::make_maze_map(320, 320, 2, 8);  // a landmark's Dijkstra is more than one slice
  prepare_options o;
  o.landmarks = 8;
  const lddb::preparation_report first = lddb::prepare(db, map, o);
  EXPECT_EQ(first.state, lddb::preparation_state::building);
  EXPECT_GE(first.landmarks_built, lddb::kFirstLandmarks);
  EXPECT_LT(first.landmarks_built, 8);
  EXPECT_EQ(first.plan.landmarks, 8);
  ASSERT_NE(lddb::prepared_landmarks(map, r), nullptr) << "the first landmarks serve at once";
  lddb::search_context ctx;
  lddb::search_options off;
  off.diagnostics.use_prepared = false;
  const point a = first_free(map), b = last_free(map);
  const lddb::search_result partial = lddb::find_path(db, map, a, b, {}, ctx);
  const lddb::search_result none = lddb::find_path(db, map, a, b, off, ctx);
  ASSERT_TRUE(partial.found());
  EXPECT_EQ(partial.cost, none.cost);
  EXPECT_LT(partial.stats.expanded, none.stats.expanded);
  finish(map);
  const lddb::preparation_report done = *lddb::preparation_of(map, r);
  EXPECT_EQ(done.state, lddb::preparation_state::ready);
  EXPECT_EQ(done.landmarks_built, 8);
  EXPECT_GE(done.total_ms, done.prepare_ms);
  EXPECT_GE(done.bytes, std::size_t{320} * 320 * 4 * 8);
  // The same set as a whole build, landmark for landmark.
  const lddb::landmark_set whole = lddb::landmark_set::build(r, map, 8);
  const lddb::landmark_set* set = lddb::prepared_landmarks(map, r);
  ASSERT_NE(set, nullptr);
  ASSERT_EQ(set->points().size(), whole.points().size());
  for (std::size_t k = 0; k < whole.points().size(); ++k) EXPECT_EQ(set->points()[k], whole.points()[k]);
  for (int y = 0; y < map.height(); y += 7)
    for (int x = 0; x < map.width(); x += 5)
      for (int l = 0; l < 8; ++l) ASSERT_EQ(set->distance({x, y}, l), whole.distance({x, y}, l));
}

// A sliced query goes on across prepare_step calls that finish the build and hand the set
// over (a builder's partial set is gone then): it begins with the complete set only, and
// keeps it alive. Under the sanitizers a dangling read would fail here.
TEST(Prepare, SlicedQueryOutlivesPrepareStep) {
  for (prepare_mode mode : {prepare_mode::slices, prepare_mode::worker_thread, prepare_mode::complete}) {
    const rule r = rule::octile();
    const lddb::database& db = lddb_test::db_for(r);
    grid_map map = lddb::make_maze_map(200, 200, 2, 12);
    prepare_options o;
    o.mode = mode;
    o.landmarks = 6;
    lddb::prepare(db, map, o);
    lddb::search_context ctx, one_shot;
    lddb::search_options off;
    off.diagnostics.use_prepared = false;
    const point a = first_free(map), b = last_free(map);
    const lddb::search_result want = lddb::find_path(db, map, a, b, off, one_shot);
    ASSERT_TRUE(want.found());
    for (int query = 0; query < 3; ++query) {
      lddb::search_result got = lddb::block_astar_begin(db, map, a, b, {}, ctx);
      int slices = 0;
      while (got.status == lddb::search_status::in_progress) {
        lddb::prepare_step(map, 3000);  // the frame's upkeep: may replace the set
        got = lddb::block_astar_continue(ctx, 7);
        ++slices;
      }
      ASSERT_TRUE(got.found()) << got.message;
      EXPECT_EQ(got.cost, want.cost) << "mode " << static_cast<int>(mode) << " query " << query;
      EXPECT_GT(slices, 0);
    }
    finish(map);
  }
}

TEST(Prepare, Rebuilds) {
  const rule r = rule::tile();
  const lddb::database& db = lddb_test::db_for(r);
  grid_map map = lddb::make_random_map(90, 90, 35, 3);
  prepare_options o;
  o.mode = prepare_mode::complete;
  o.landmarks = 3;
  o.rebuild_after_blocked = 40;
  lddb::prepare(db, map, o);
  // More frees than the journal keeps.
  std::uint64_t freed = 0;
  for (int y = 0; y < map.height() && freed <= grid_map::kFreedJournal; ++y)
    for (int x = 0; x < map.width() && freed <= grid_map::kFreedJournal; ++x)
      if (map.blocked(x, y)) {
        map.set_blocked(x, y, false);
        ++freed;
      }
  EXPECT_EQ(lddb::preparation_of(map, r)->state, lddb::preparation_state::stale);
  finish(map);
  // A fresh build's tables: from the set's own points (a repair keeps them), or placed anew.
  auto same_as_fresh = [&](const char* what, bool same_points = false) {
    const lddb::landmark_set* set = lddb::prepared_landmarks(map, r);
    ASSERT_NE(set, nullptr) << what;
    const lddb::landmark_set fresh =
        same_points ? lddb::landmark_set::build(r, map, set->points()) : lddb::landmark_set::build(r, map, 3);
    for (int y = 0; y < map.height(); ++y)
      for (int x = 0; x < map.width(); ++x)
        for (int l = 0; l < 3; ++l) ASSERT_EQ(set->distance({x, y}, l), fresh.distance({x, y}, l)) << what;
  };
  same_as_fresh("after the journal ran over", true);
  // Many cells blocked: still admissible, then rebuilt tight.
  int blocked = 0;
  for (int y = 0; y < map.height() && blocked < 45; y += 3)
    for (int x = 1; x < map.width() && blocked < 45; x += 4)
      if (!map.blocked(x, y)) {
        map.set_blocked(x, y, true);
        ++blocked;
      }
  EXPECT_NE(lddb::prepared_landmarks(map, r), nullptr) << "blocked cells keep the set usable";
  finish(map);
  same_as_fresh("after 45 cells were blocked");
}

TEST(Prepare, WorkerThread) {
  for (const rule& r : {rule::octile(), rule::any_angle()}) {
    const lddb::database& db = lddb_test::db_for(r);
    grid_map map = lddb::make_rooms_map(120, 100, 10, 6);
    prepare_options o;
    o.mode = prepare_mode::worker_thread;
    o.landmarks = 5;
    const lddb::preparation_report at_once = lddb::prepare(db, map, o);
    // Nothing yet, or (when the thread was quicker than the report) the whole set.
    EXPECT_TRUE(at_once.landmarks_built == 0 || at_once.landmarks_built == 5) << at_once.landmarks_built;
    lddb_test::rng g{3};
    lddb::search_context ctx;
    for (int k = 0; k < 30; ++k) {  // the game goes on: searches and changes while it builds
      change_some(g, map, 1);
      const point a = lddb_test::random_free_cell(g, map), b = lddb_test::random_free_cell(g, map);
      const lddb::search_result res = lddb::find_path(db, map, a, b, raw(), ctx);
      EXPECT_TRUE(res.found() || res.status == lddb::search_status::no_path) << res.message;
    }
    finish(map);
    const lddb::landmark_set* set = lddb::prepared_landmarks(map, r);
    ASSERT_NE(set, nullptr) << r.name();
    EXPECT_EQ(set->size(), 5);
    EXPECT_GT(lddb::preparation_of(map, r)->total_ms, 0.0);
  }
  // A map dropped while its worker runs stops it.
  grid_map big = lddb::make_rooms_map(400, 400, 20, 1);
  prepare_options o;
  o.mode = prepare_mode::worker_thread;
  o.landmarks = 16;
  lddb::prepare(rule::octile(), big, o);
}

TEST(Prepare, Ownership) {
  const rule r = rule::octile();
  const lddb::database& db = lddb_test::db_for(r);
  grid_map map = lddb::make_maze_map(80, 80, 2, 5);
  prepare_options o;
  o.mode = prepare_mode::complete;
  o.landmarks = 4;
  o.jumps = false;  // Block A* throughout: its expansions show which landmarks it read
  lddb::prepare(db, map, o);
  EXPECT_TRUE(lddb::preparation_of(map, r).has_value());
  EXPECT_FALSE(lddb::preparation_of(map, rule::tile()).has_value());
  const grid_map copy = map;
  EXPECT_FALSE(lddb::preparation_of(copy, r).has_value()) << "a copy starts unprepared";
  grid_map moved = std::move(map);
  ASSERT_TRUE(lddb::preparation_of(moved, r).has_value()) << "a move keeps it";
  lddb::search_context ctx;
  lddb::search_options off;
  off.diagnostics.use_prepared = false;
  const point a = first_free(moved), b = last_free(moved);
  const lddb::search_result prepared = lddb::find_path(db, moved, a, b, {}, ctx);
  const lddb::search_result unprepared = lddb::find_path(db, moved, a, b, off, ctx);
  const lddb::search_result on_copy = lddb::find_path(db, copy, a, b, {}, ctx);
  ASSERT_TRUE(prepared.found());
  EXPECT_LT(prepared.stats.expanded, unprepared.stats.expanded);
  EXPECT_EQ(on_copy.stats.expanded, unprepared.stats.expanded);
  // Explicit options win over the preparation.
  const lddb::landmark_set none_useful = lddb::landmark_set::build(r, moved, std::vector<point>{a});
  lddb::search_options own;
  own.landmarks = &none_useful;
  lddb::search_options with_own = off;
  with_own.landmarks = &none_useful;
  EXPECT_EQ(lddb::find_path(db, moved, a, b, own, ctx).stats.expanded,
            lddb::find_path(db, moved, a, b, with_own, ctx).stats.expanded);
  lddb::unprepare(moved);
  EXPECT_FALSE(lddb::preparation_of(moved, r).has_value());
  EXPECT_EQ(lddb::find_path(db, moved, a, b, {}, ctx).stats.expanded, unprepared.stats.expanded);
  // Bad options.
  prepare_options bad;
  bad.landmarks = lddb::landmark_set::kMaxLandmarks + 1;
  EXPECT_THROW(lddb::prepare(db, moved, bad), std::invalid_argument);
  grid_map other_blocks(40, 40, 3);
  EXPECT_THROW(lddb::prepare(db, other_blocks, {}), std::invalid_argument);
  grid_map walls(20, 20);
  for (int y = 0; y < 20; ++y)
    for (int x = 0; x < 20; ++x) walls.set_blocked(x, y, true);
  EXPECT_EQ(lddb::prepare(db, walls, o).plan.landmarks, 0) << "nothing to measure on a walled map";
}

TEST(Plan, MeasuredRule) {
  const grid_map open(200, 200);
  const lddb::preparation_plan a = lddb::plan_preparation(rule::octile(), open);
  EXPECT_EQ(a.landmarks, 8);
  EXPECT_FALSE(a.open_squares) << a.why;  // 512 x 512 and below: landmarks pay, squares do not
  const grid_map large(1100, 1100);
  EXPECT_TRUE(lddb::plan_preparation(rule::octile(), large).open_squares);
  EXPECT_TRUE(lddb::plan_preparation(rule::tile(), large).open_squares);
  const grid_map small(40, 40);
  EXPECT_EQ(lddb::plan_preparation(rule::tile(), small).landmarks, 0) << "1,600 free cells";
  const grid_map cluttered = lddb::make_random_map(300, 300, 25, 2);
  const lddb::preparation_plan c = lddb::plan_preparation(rule::tile(), cluttered);
  EXPECT_EQ(c.landmarks, 8);
  EXPECT_FALSE(c.open_squares) << c.why;
  EXPECT_TRUE(lddb::plan_preparation(rule::any_angle(), cluttered).open_squares);
}

// The second half of the rule: the first landmarks' gain over the rule's heuristic, checked
// against the bound itself, decides whether prepare keeps them.
TEST(Plan, LandmarksStayWhereTheyPay) {
  for (const rule& r : {rule::tile(), rule::octile(), rule::any_angle()}) {
    const lddb::database& db = lddb_test::db_for(r);
    grid_map open(120, 120);
    const lddb::landmark_set on_open = lddb::landmark_set::build(r, open, 2);
    EXPECT_LT(lddb::landmark_gain(r, open, on_open), 0.05) << r.name() << ": the straight line is exact there";
    lddb::prepare(db, open);
    EXPECT_EQ(lddb::preparation_of(open, r)->plan.landmarks, 0) << lddb::preparation_of(open, r)->plan.why;
    EXPECT_EQ(lddb::prepared_landmarks(open, r), nullptr);
    grid_map maze = lddb::make_maze_map(120, 120, 1, 3);
    const lddb::landmark_set in_maze = lddb::landmark_set::build(r, maze, 2);
    EXPECT_GT(lddb::landmark_gain(r, maze, in_maze), 0.8) << r.name();
    for (prepare_mode mode : {prepare_mode::slices, prepare_mode::worker_thread}) {
      prepare_options o;
      o.mode = mode;
      lddb::prepare(db, maze, o);
      finish(maze);
      EXPECT_EQ(lddb::preparation_of(maze, r)->plan.landmarks, 8) << r.name();
      EXPECT_NE(lddb::prepared_landmarks(maze, r), nullptr);
    }
    prepare_options asked;
    asked.landmarks = 3;  // a count asked for is kept, whatever the gain
    asked.mode = prepare_mode::worker_thread;
    lddb::prepare(db, open, asked);
    finish(open);
    EXPECT_EQ(lddb::preparation_of(open, r)->landmarks_built, 3);
    asked.landmarks = std::nullopt;  // and the worker thread's assessment drops them
    lddb::prepare(db, open, asked);
    finish(open);
    EXPECT_EQ(lddb::preparation_of(open, r)->plan.landmarks, 0);
  }
}

}  // namespace
