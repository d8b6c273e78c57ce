// search_result::searched: each call says which search answered it, so that a caller
// knows what the stats count. Checked against what the calls are documented to do:
// block_astar answers itself on a map nothing was prepared for and hands the query to jump
// point search where the preparation chose jumps (find_path_search, asked
// separately); jump point search answers an any-angle query under squeeze=allowed itself,
// through a double corner too; the other searches answer themselves, also for a unit's
// view, and a reused result takes the new call's answer.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "lddb/format.hpp"
#include "lddb/grid.hpp"
#include "lddb/mapgen.hpp"
#include "lddb/prepare.hpp"
#include "lddb/rule.hpp"
#include "lddb/search.hpp"
#include "lddb/find_path.hpp"
#include "test_db.hpp"

namespace {

using lddb::point;
using lddb::search_kind;

std::shared_ptr<const lddb::database> shipped(const std::string& name) {
  auto opened = lddb::database::open(std::string(LDDB_SOURCE_DIR) + "/lddb/" + name);
  EXPECT_TRUE(opened) << opened.message;
  return opened.db;
}

TEST(Searched, BlockAStarSaysWhenJumpsAnswered) {
  const auto db = shipped("octile-4.lddb");
  ASSERT_TRUE(db);
  lddb::grid_map map = lddb::make_rooms_map(256, 256, 16, 3);
  lddb::search_context ctx;
  lddb::search_result r;
  const point s{1, 1}, g{250, 250};
  lddb::find_path(*db, map, s, g, {}, ctx, r);
  ASSERT_EQ(r.status, lddb::search_status::found);
  EXPECT_EQ(r.searched, search_kind::block_astar);

  lddb::prepare(*db, map);
  const bool jumps = lddb::find_path_search(*db, map, {}) == lddb::search_kind::jump_point_search;
  lddb::find_path(*db, map, s, g, {}, ctx, r);
  ASSERT_EQ(r.status, lddb::search_status::found);
  EXPECT_EQ(r.searched, jumps ? search_kind::jump_point_search : search_kind::block_astar);
  EXPECT_TRUE(jumps) << "rooms are where the preparation chooses jumps";

  lddb::search_options no_jumps;
  no_jumps.diagnostics.search = lddb::search_kind::block_astar;
  lddb::find_path(*db, map, s, g, no_jumps, ctx, r);
  EXPECT_EQ(r.searched, search_kind::block_astar);
  EXPECT_EQ(lddb::block_astar_begin(*db, map, s, g, {}, ctx).searched, search_kind::block_astar);
  EXPECT_EQ(lddb::block_astar_continue(ctx, 0).searched, search_kind::block_astar);

  lddb::search_options unit;
  unit.unit.size = 2;
  lddb::find_path(*db, map, {2, 2}, {200, 200}, unit, ctx, r);
  EXPECT_TRUE(r.status == lddb::search_status::found || r.status == lddb::search_status::no_path)
      << lddb::search_status_name(r.status) << ": " << r.message;
  EXPECT_EQ(r.searched, search_kind::jump_point_search) << "a unit's view keeps the map's choice of jumps";
}

TEST(Searched, EachSearchAnswersItself) {
  const lddb::grid_map map = lddb::make_rooms_map(128, 128, 16, 5);
  lddb::search_context ctx;
  const point s{1, 1}, g{120, 120};
  const lddb::rule octile = lddb::rule::octile(), any = lddb::rule::any_angle();
  EXPECT_EQ(lddb::astar(octile, map, s, g, {}, ctx).searched, search_kind::astar);
  EXPECT_EQ(lddb::jump_point_search(octile, map, s, g, {}, ctx).searched, search_kind::jump_point_search);
  EXPECT_EQ(lddb::jump_point_search(any, map, s, g, {}, ctx).searched, search_kind::jump_point_search);
  EXPECT_EQ(lddb::theta_star(any, map, s, g, {}, ctx).searched, search_kind::theta_star);
  EXPECT_EQ(lddb::lazy_theta_star(any, map, s, g, {}, ctx).searched, search_kind::lazy_theta_star);
  // A refused call still says which was asked.
  EXPECT_EQ(lddb::astar(any, map, s, g, {}, ctx).searched, search_kind::astar);
  EXPECT_EQ(lddb::theta_star(octile, map, s, g, {}, ctx).searched, search_kind::theta_star);
}

TEST(Searched, JumpsPassADoubleCorner) {
  lddb::grid_map map(32, 32, 4);
  map.set_blocked(10, 10, true);
  map.set_blocked(11, 11, true);  // a double corner at vertex (11, 11)
  ASSERT_GT(map.double_corner_count(), 0u);
  const lddb::rule squeeze = lddb::rule::any_angle(lddb::squeezing::allowed);
  lddb::search_context ctx;
  lddb::search_result r;
  lddb::jump_point_search(squeeze, map, {0, 0}, {30, 30}, {}, ctx, r);
  EXPECT_EQ(r.status, lddb::search_status::found) << r.message;
  EXPECT_EQ(r.searched, search_kind::jump_point_search);
  const lddb::cost_t jumped = r.cost;
  // Forced by name, find_path runs jump point search; unprepared, Block A*.
  const lddb::database& db = lddb_test::db_for(squeeze);
  map.set_block_size(db.info().block);
  lddb::search_options forced;
  forced.diagnostics.search = search_kind::jump_point_search;
  lddb::find_path(db, map, {0, 0}, {30, 30}, forced, ctx, r);
  EXPECT_EQ(r.status, lddb::search_status::found);
  EXPECT_EQ(r.searched, search_kind::jump_point_search);
  EXPECT_EQ(r.cost, jumped);
  lddb::find_path(db, map, {0, 0}, {30, 30}, {}, ctx, r);  // the same result reused
  EXPECT_EQ(r.status, lddb::search_status::found) << r.message;
  EXPECT_EQ(r.searched, search_kind::block_astar);
}

TEST(Searched, Names) {
  EXPECT_STREQ(lddb::search_kind_name(search_kind::block_astar), "block_astar");
  EXPECT_STREQ(lddb::search_kind_name(search_kind::jump_point_search), "jump_point_search");
  EXPECT_STREQ(lddb::search_kind_name(search_kind::astar), "astar");
  EXPECT_STREQ(lddb::search_kind_name(search_kind::theta_star), "theta_star");
  EXPECT_STREQ(lddb::search_kind_name(search_kind::lazy_theta_star), "lazy_theta_star");
}

}  // namespace
