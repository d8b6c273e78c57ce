// c_api_misuse_test: every call of lddb/lddb.h with bad arguments: NULL for each pointer, a
// 0 handle, a freed handle, a handle of another kind, forged ids, zero and short buffers,
// off-map points, a map cut into other blocks than the database's, bad options. Each must
// return its documented status and leave a message naming the call and the argument.
#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "lddb/format.hpp"
#include "lddb/grid.hpp"
#include "lddb/lddb.h"
#include "lddb/search.hpp"
#include "lddb/find_path.hpp"
#include "test_rng.hpp"

namespace {

// Runs a call, checks its status, and that the message names the function and `needle`.
#define EXPECT_FAILS(call, status, needle)                                                        \
  do {                                                                                            \
    const lddb_status got_ = (call);                                                              \
    EXPECT_EQ(got_, status) << #call << ": " << lddb_status_name(got_) << ": " << lddb_last_error(); \
    const std::string msg_ = lddb_last_error();                                                   \
    EXPECT_NE(msg_.find("lddb_"), std::string::npos) << #call << ": " << msg_;                    \
    EXPECT_NE(msg_.find(needle), std::string::npos) << #call << ": '" << msg_ << "' lacks '" << needle << "'"; \
  } while (0)

std::string db_path(const char* name) { return std::string(LDDB_SOURCE_DIR) + "/lddb/" + name; }

struct c_api : ::testing::Test {
  lddb_database db = 0;
  lddb_map map = 0;
  lddb_context ctx = 0;
  lddb_batch batch = 0;
  lddb_point path[256];
  lddb_result result{};
  lddb_options opts{};
  void SetUp() override {
    ASSERT_EQ(lddb_database_open(db_path("octile-4.lddb").c_str(), &db), LDDB_OK) << lddb_last_error();
    ASSERT_EQ(lddb_map_create(16, 16, 4, &map), LDDB_OK);
    ASSERT_EQ(lddb_context_create(&ctx), LDDB_OK);
    ASSERT_EQ(lddb_batch_create(1, &batch), LDDB_OK);
    ASSERT_EQ(lddb_options_init(&opts), LDDB_OK);
  }
  void TearDown() override {
    lddb_batch_free(batch);
    lddb_context_free(ctx);
    lddb_map_free(map);
    lddb_database_close(db);
  }
};

// Every call that takes a handle, with `h` in place of the handle of `kind_index`
// (0 database, 1 map, 2 context, 3 batch); each must give `want`.
void every_handle_call(c_api& f, int kind_index, std::uint64_t h, lddb_status want) {
  const lddb_database db = kind_index == 0 ? h : f.db;
  const lddb_map map = kind_index == 1 ? h : f.map;
  const lddb_context ctx = kind_index == 2 ? h : f.ctx;
  const lddb_batch batch = kind_index == 3 ? h : f.batch;
  const char* arg = kind_index == 0 ? "'db'" : kind_index == 1 ? "'map'" : kind_index == 2 ? "'ctx'" : "'batch'";
  char buf[64];
  size_t n = 0;
  std::int32_t i = 0, j = 0;
  const lddb_query q{{1, 1}, {2, 2}};
  if (kind_index == 0) {
    EXPECT_FAILS(lddb_database_rule_name(db, buf, sizeof buf, &n), want, arg);
    EXPECT_FAILS(lddb_database_block_size(db, &i), want, arg);
  }
  if (kind_index == 1) {
    EXPECT_FAILS(lddb_map_size(map, &i, &j), want, arg);
    EXPECT_FAILS(lddb_map_set_blocked(map, 1, 1, 1), want, arg);
    EXPECT_FAILS(lddb_map_blocked(map, 1, 1, &i), want, arg);
    std::uint8_t t = 0;
    EXPECT_FAILS(lddb_map_set_terrain(map, 1, 1, 'W'), want, arg);
    EXPECT_FAILS(lddb_map_terrain(map, 1, 1, &t), want, arg);
    EXPECT_FAILS(lddb_map_set_rect(map, 1, 1, 2, 2, &t, 1, 0), want, arg);
    EXPECT_FAILS(lddb_map_fill_rect(map, 1, 1, 2, 2, 1), want, arg);
  }
  if (kind_index == 2) {
    EXPECT_FAILS(lddb_context_path(ctx, f.path, 256, &n), want, arg);
    EXPECT_FAILS(lddb_search_continue(ctx, 0, &f.result), want, arg);
    EXPECT_FAILS(lddb_context_message(ctx, buf, sizeof buf, &n), want, arg);
  }
  if (kind_index == 3) EXPECT_FAILS(lddb_batch_message(batch, 0, buf, sizeof buf, &n), want, arg);
  if (kind_index < 2) {
    lddb_preparation rep{};
    EXPECT_FAILS(lddb_preparation_get(db, map, &rep), want, arg);
    EXPECT_FAILS(lddb_preparation_plan(db, map, &i, buf, sizeof buf, &n), want, arg);
  }
  if (kind_index != 3) {
    EXPECT_FAILS(lddb_context_reserve(ctx, db, map, &f.opts), want, arg);
    EXPECT_FAILS(lddb_solve(ctx, db, map, {1, 1}, {2, 2}, &f.opts, &f.result, f.path, 256), want, arg);
    EXPECT_FAILS(lddb_search_begin(ctx, db, map, {1, 1}, {2, 2}, &f.opts, &f.result), want, arg);
  }
  if (kind_index != 2)
    EXPECT_FAILS(lddb_batch_solve(batch, db, map, &q, 1, &f.opts, &f.result, f.path, 256, &n), want, arg);
  // The free call of that kind last.
  switch (kind_index) {
    case 0: EXPECT_FAILS(lddb_database_close(h), want, arg); break;
    case 1: EXPECT_FAILS(lddb_map_free(h), want, arg); break;
    case 2: EXPECT_FAILS(lddb_context_free(h), want, arg); break;
    case 3: EXPECT_FAILS(lddb_batch_free(h), want, arg); break;
  }
}

TEST_F(c_api, zero_handles) {
  for (int k = 0; k < 4; ++k) every_handle_call(*this, k, 0, LDDB_NULL_ARGUMENT);
}

TEST_F(c_api, freed_handles) {
  lddb_database d = 0;
  lddb_map m = 0;
  lddb_context c = 0;
  lddb_batch b = 0;
  ASSERT_EQ(lddb_database_open(db_path("octile-4.lddb").c_str(), &d), LDDB_OK);
  ASSERT_EQ(lddb_map_create(8, 8, 4, &m), LDDB_OK);
  ASSERT_EQ(lddb_context_create(&c), LDDB_OK);
  ASSERT_EQ(lddb_batch_create(2, &b), LDDB_OK);
  ASSERT_EQ(lddb_database_close(d), LDDB_OK);
  ASSERT_EQ(lddb_map_free(m), LDDB_OK);
  ASSERT_EQ(lddb_context_free(c), LDDB_OK);
  ASSERT_EQ(lddb_batch_free(b), LDDB_OK);
  const std::uint64_t freed[4] = {d, m, c, b};
  for (int k = 0; k < 4; ++k) every_handle_call(*this, k, freed[k], LDDB_BAD_HANDLE);
  // A new object may reuse the slot, but not the id: the freed handle stays dead.
  lddb_map again = 0;
  ASSERT_EQ(lddb_map_create(8, 8, 4, &again), LDDB_OK);
  EXPECT_NE(again, m);
  every_handle_call(*this, 1, m, LDDB_BAD_HANDLE);
  EXPECT_EQ(lddb_map_free(again), LDDB_OK);
}

TEST_F(c_api, forged_handles) {
  for (std::uint64_t h : {std::uint64_t{1}, std::uint64_t{0xFFFFFFFFFFFFFFFFull}, std::uint64_t{0x12345678ull << 32},
                          (db ^ (std::uint64_t{1} << 40))})
    for (int k = 0; k < 4; ++k) every_handle_call(*this, k, h, LDDB_BAD_HANDLE);
}

TEST_F(c_api, handles_of_the_wrong_kind) {
  const std::uint64_t of_kind[4] = {db, map, ctx, batch};
  for (int k = 0; k < 4; ++k) every_handle_call(*this, k, of_kind[(k + 1) % 4], LDDB_WRONG_HANDLE_KIND);
  EXPECT_FAILS(lddb_map_free(db), LDDB_WRONG_HANDLE_KIND, "is a database handle, not a map");
  // Landmarks: handles of other kinds where a set belongs, and a set where others do.
  lddb_landmarks lm = 0;
  ASSERT_EQ(lddb_landmarks_build(db, map, 2, 0, &lm), LDDB_OK);
  std::int32_t current = 0;
  EXPECT_FAILS(lddb_landmarks_current(map, map, &current), LDDB_WRONG_HANDLE_KIND, "is a map handle, not a landmarks");
  EXPECT_FAILS(lddb_landmarks_current(lm, lm, &current), LDDB_WRONG_HANDLE_KIND, "is a landmarks handle, not a map");
  EXPECT_FAILS(lddb_landmarks_build(lm, map, 2, 0, &lm), LDDB_WRONG_HANDLE_KIND, "is a landmarks handle, not a database");
  EXPECT_FAILS(lddb_landmarks_free(ctx), LDDB_WRONG_HANDLE_KIND, "is a context handle, not a landmarks");
  EXPECT_FAILS(lddb_landmarks_current(lm, map, nullptr), LDDB_NULL_ARGUMENT, "'current'");
  lddb_options o;
  lddb_options_init(&o);
  lddb_result r;
  o.landmarks = map;
  EXPECT_FAILS(lddb_solve(ctx, db, map, {0, 0}, {1, 1}, &o, &r, nullptr, 0), LDDB_WRONG_HANDLE_KIND,
               "'options->landmarks' is a map handle");
  o.landmarks = 0xdead00000001ull;
  EXPECT_FAILS(lddb_solve(ctx, db, map, {0, 0}, {1, 1}, &o, &r, nullptr, 0), LDDB_BAD_HANDLE, "'options->landmarks'");
  ASSERT_EQ(lddb_landmarks_free(lm), LDDB_OK);
  o.landmarks = lm;  // freed: refused, never read
  EXPECT_FAILS(lddb_solve(ctx, db, map, {0, 0}, {1, 1}, &o, &r, nullptr, 0), LDDB_BAD_HANDLE, "not a live handle");
  // Still alive after the refused frees.
  std::int32_t b = 0;
  EXPECT_EQ(lddb_database_block_size(db, &b), LDDB_OK);
}

TEST_F(c_api, null_pointers) {
  size_t n = 0;
  std::int32_t i = 0;
  lddb_database d = 0;
  lddb_map m = 0;
  const std::string octile = db_path("octile-4.lddb");
  EXPECT_FAILS(lddb_database_open(nullptr, &d), LDDB_NULL_ARGUMENT, "'path'");
  EXPECT_FAILS(lddb_database_open(octile.c_str(), nullptr), LDDB_NULL_ARGUMENT, "'out'");
  EXPECT_FAILS(lddb_database_rule_name(db, nullptr, 8, &n), LDDB_NULL_ARGUMENT, "'buf'");
  EXPECT_FAILS(lddb_database_block_size(db, nullptr), LDDB_NULL_ARGUMENT, "'out'");
  EXPECT_FAILS(lddb_map_create(8, 8, 4, nullptr), LDDB_NULL_ARGUMENT, "'out'");
  EXPECT_FAILS(lddb_map_load(nullptr, 4, &m), LDDB_NULL_ARGUMENT, "'path'");
  EXPECT_FAILS(lddb_map_load("x.map", 4, nullptr), LDDB_NULL_ARGUMENT, "'out'");
  EXPECT_FAILS(lddb_map_size(map, nullptr, &i), LDDB_NULL_ARGUMENT, "'width'");
  EXPECT_FAILS(lddb_map_size(map, &i, nullptr), LDDB_NULL_ARGUMENT, "'height'");
  EXPECT_FAILS(lddb_map_blocked(map, 1, 1, nullptr), LDDB_NULL_ARGUMENT, "'blocked'");
  EXPECT_FAILS(lddb_context_create(nullptr), LDDB_NULL_ARGUMENT, "'out'");
  EXPECT_FAILS(lddb_batch_create(1, nullptr), LDDB_NULL_ARGUMENT, "'out'");
  EXPECT_FAILS((lddb_options_init)(nullptr), LDDB_NULL_ARGUMENT, "'options'");
  EXPECT_FAILS(lddb_solve(ctx, db, map, {1, 1}, {2, 2}, &opts, nullptr, path, 256), LDDB_NULL_ARGUMENT, "'result'");
  EXPECT_FAILS(lddb_solve(ctx, db, map, {1, 1}, {2, 2}, &opts, &result, nullptr, 256), LDDB_NULL_ARGUMENT, "'path'");
  EXPECT_FAILS(lddb_context_path(ctx, path, 256, nullptr), LDDB_NULL_ARGUMENT, "'count'");
  EXPECT_FAILS(lddb_context_path(ctx, nullptr, 256, &n), LDDB_NULL_ARGUMENT, "'path'");
  EXPECT_FAILS(lddb_search_begin(ctx, db, map, {1, 1}, {2, 2}, &opts, nullptr), LDDB_NULL_ARGUMENT, "'result'");
  EXPECT_FAILS(lddb_search_continue(ctx, 0, nullptr), LDDB_NULL_ARGUMENT, "'result'");
  EXPECT_FAILS(lddb_context_message(ctx, nullptr, 8, &n), LDDB_NULL_ARGUMENT, "'buf'");
  const lddb_query q{{1, 1}, {2, 2}};
  EXPECT_FAILS(lddb_batch_solve(batch, db, map, nullptr, 1, &opts, &result, path, 256, &n), LDDB_NULL_ARGUMENT,
               "'queries'");
  EXPECT_FAILS(lddb_batch_solve(batch, db, map, &q, 1, &opts, nullptr, path, 256, &n), LDDB_NULL_ARGUMENT,
               "'results'");
  EXPECT_FAILS(lddb_batch_solve(batch, db, map, &q, 1, &opts, &result, nullptr, 256, &n), LDDB_NULL_ARGUMENT,
               "'paths'");
  // NULL where it is allowed: options (defaults), needed counts, a size query.
  EXPECT_EQ(lddb_solve(ctx, db, map, {1, 1}, {2, 2}, nullptr, &result, nullptr, 0), LDDB_OK) << lddb_last_error();
  EXPECT_EQ(lddb_database_rule_name(db, nullptr, 0, nullptr), LDDB_OK);
  EXPECT_EQ(lddb_batch_solve(batch, db, map, &q, 1, nullptr, &result, nullptr, 0, nullptr), LDDB_OK);
}

TEST_F(c_api, short_buffers) {
  char buf[8];
  size_t n = 99;
  EXPECT_FAILS(lddb_database_rule_name(db, buf, 0, &n), LDDB_BUFFER_TOO_SMALL, "'buf'");
  EXPECT_FAILS(lddb_database_rule_name(db, buf, 6, &n), LDDB_BUFFER_TOO_SMALL, "needs 7");
  EXPECT_EQ(n, 7u);
  EXPECT_FAILS(lddb_solve(ctx, db, map, {0, 0}, {3, 0}, nullptr, &result, path, 0), LDDB_BUFFER_TOO_SMALL, "'path'");
  EXPECT_FAILS(lddb_solve(ctx, db, map, {0, 0}, {3, 0}, nullptr, &result, path, 3), LDDB_BUFFER_TOO_SMALL, "has 4");
  EXPECT_EQ(result.path_count, 4u);
  EXPECT_EQ(result.status, LDDB_OK);
  EXPECT_FAILS(lddb_context_path(ctx, path, 3, &n), LDDB_BUFFER_TOO_SMALL, "'path'");
  EXPECT_EQ(n, 4u);
  const lddb_query q[2] = {{{0, 0}, {3, 0}}, {{0, 0}, {0, 2}}};
  lddb_result rs[2];
  EXPECT_FAILS(lddb_batch_solve(batch, db, map, q, 2, nullptr, rs, path, 6, &n), LDDB_BUFFER_TOO_SMALL, "'paths'");
  EXPECT_EQ(n, 7u);
  EXPECT_EQ(rs[1].path_offset, 4u);
}

// lddb_find_database: the folder given, else lddb's order; a short buffer reports the size
// needed and copies nothing.
TEST_F(c_api, find_database) {
  char buf[256];
  size_t n = 0;
  ASSERT_EQ(lddb_find_database("octile-4.lddb", "/games/data", buf, sizeof buf, &n), LDDB_OK) << lddb_last_error();
  EXPECT_STREQ(buf, "/games/data/octile-4.lddb");
  EXPECT_EQ(n, std::strlen("/games/data/octile-4.lddb") + 1);
  std::memset(buf, 'x', sizeof buf);
  EXPECT_FAILS(lddb_find_database("octile-4.lddb", "/games/data", buf, 10, &n), LDDB_BUFFER_TOO_SMALL, "needs 26");
  EXPECT_EQ(n, 26u);
  EXPECT_EQ(buf[0], 'x');  // nothing copied
  EXPECT_EQ(lddb_find_database("octile-4.lddb", nullptr, nullptr, 0, &n), LDDB_OK);  // only the size
  EXPECT_FAILS(lddb_find_database(nullptr, nullptr, buf, sizeof buf, &n), LDDB_NULL_ARGUMENT, "'file_name'");
  EXPECT_FAILS(lddb_find_database("tile-4.lddb", nullptr, nullptr, 8, &n), LDDB_NULL_ARGUMENT, "'buf'");
  // No folder given: this build-tree test finds the shipped databases (here, or through
  // $LDDB_DATA_DIR), and the path found opens.
  ASSERT_EQ(lddb_find_database("any-angle-4.lddb", "", buf, sizeof buf, nullptr), LDDB_OK) << lddb_last_error();
  if (!std::ifstream(buf)) GTEST_SKIP() << buf << " is missing (lddb/ or $LDDB_DATA_DIR)";
  lddb_database found = 0;
  ASSERT_EQ(lddb_database_open(buf, &found), LDDB_OK) << lddb_last_error();
  char rule[32];
  ASSERT_EQ(lddb_database_rule_name(found, rule, sizeof rule, nullptr), LDDB_OK);
  EXPECT_STREQ(rule, "any-angle");
  lddb_database_close(found);
}

// Repair: a freed cell makes the set stale and a repair makes it current; handles of the
// wrong kind are refused; another map, or more frees than the map keeps a note of, give
// REBUILD_NEEDED and the set stays not current.
TEST_F(c_api, landmarks_repair) {
  lddb_map m = 0;
  ASSERT_EQ(lddb_map_create(48, 48, 4, &m), LDDB_OK);
  for (int y = 1; y < 48; ++y)
    for (int x = 0; x < 48; ++x) ASSERT_EQ(lddb_map_set_blocked(m, x, y, 1), LDDB_OK);
  lddb_landmarks lm = 0;
  ASSERT_EQ(lddb_landmarks_build(db, m, 3, 0, &lm), LDDB_OK);
  std::int32_t current = 0;
  ASSERT_EQ(lddb_map_set_blocked(m, 5, 1, 0), LDDB_OK);
  ASSERT_EQ(lddb_landmarks_current(lm, m, &current), LDDB_OK);
  EXPECT_EQ(current, 0);
  EXPECT_EQ(lddb_landmarks_repair(lm, m), LDDB_OK);
  ASSERT_EQ(lddb_landmarks_current(lm, m, &current), LDDB_OK);
  EXPECT_EQ(current, 1);
  EXPECT_FAILS(lddb_landmarks_repair(m, m), LDDB_WRONG_HANDLE_KIND, "is a map handle, not a landmarks");
  EXPECT_FAILS(lddb_landmarks_repair(lm, lm), LDDB_WRONG_HANDLE_KIND, "is a landmarks handle, not a map");
  EXPECT_FAILS(lddb_landmarks_repair(0, m), LDDB_NULL_ARGUMENT, "lddb_landmarks_repair");
  EXPECT_FAILS(lddb_landmarks_repair(lm, map), LDDB_REBUILD_NEEDED, "built on another map");
  // More frees than the map's journal keeps: caught up all the same.
  for (int y = 1; y < 48; ++y)
    for (int x = 0; x < 48; ++x) ASSERT_EQ(lddb_map_set_blocked(m, x, y, 0), LDDB_OK);
  ASSERT_EQ(lddb_landmarks_current(lm, m, &current), LDDB_OK);
  EXPECT_EQ(current, 0);
  EXPECT_EQ(lddb_landmarks_repair(lm, m), LDDB_OK);
  ASSERT_EQ(lddb_landmarks_current(lm, m, &current), LDDB_OK);
  EXPECT_EQ(current, 1);
  EXPECT_STREQ(lddb_status_name(LDDB_REBUILD_NEEDED), "rebuild_needed");
  ASSERT_EQ(lddb_landmarks_free(lm), LDDB_OK);
  ASSERT_EQ(lddb_map_free(m), LDDB_OK);
}

TEST_F(c_api, values_out_of_range) {
  lddb_map m = 0;
  lddb_batch b = 0;
  std::int32_t v = 0;
  EXPECT_FAILS(lddb_map_create(0, 8, 4, &m), LDDB_INVALID_ARGUMENT, "width 0");
  EXPECT_FAILS(lddb_map_create(8, -3, 4, &m), LDDB_INVALID_ARGUMENT, "height -3");
  EXPECT_FAILS(lddb_map_create(8, 8, 6, &m), LDDB_INVALID_ARGUMENT, "block 6");
  EXPECT_FAILS(lddb_map_create(20000, 8, 4, &m), LDDB_INVALID_ARGUMENT, "width 20000");
  EXPECT_FAILS(lddb_map_load("x.map", 1, &m), LDDB_INVALID_ARGUMENT, "block 1");
  EXPECT_FAILS(lddb_batch_create(100000, &b), LDDB_INVALID_ARGUMENT, "threads");
  EXPECT_FAILS(lddb_map_set_blocked(map, 16, 0, 1), LDDB_INVALID_ARGUMENT, "(16, 0)");
  EXPECT_FAILS(lddb_map_set_blocked(map, 0, -1, 1), LDDB_INVALID_ARGUMENT, "(0, -1)");
  EXPECT_FAILS(lddb_map_blocked(map, -2147483647 - 1, 0, &v), LDDB_INVALID_ARGUMENT, "off the map");
  // Off-map points: the search's outcome, in the result too.
  EXPECT_FAILS(lddb_solve(ctx, db, map, {16, 0}, {1, 1}, nullptr, &result, path, 256), LDDB_INVALID_START, "(16, 0)");
  EXPECT_EQ(result.status, LDDB_INVALID_START);
  EXPECT_FAILS(lddb_solve(ctx, db, map, {1, 1}, {1, 2147483647}, nullptr, &result, path, 256), LDDB_INVALID_GOAL,
               "goal");
  EXPECT_FAILS(lddb_search_begin(ctx, db, map, {-1, 0}, {1, 1}, nullptr, &result), LDDB_INVALID_START, "start");
  for (int alg : {LDDB_BLOCK_ASTAR, LDDB_ASTAR}) {
    opts.algorithm = alg;
    EXPECT_FAILS(lddb_solve(ctx, db, map, {1, 1}, {1, 16}, &opts, &result, path, 256), LDDB_INVALID_GOAL, "goal");
  }
  // Options: unknown values, an algorithm the rule does not have, an uninitialised struct.
  lddb_options o = opts;
  o.algorithm = 4;
  EXPECT_FAILS(lddb_solve(ctx, db, map, {1, 1}, {2, 2}, &o, &result, path, 256), LDDB_INVALID_ARGUMENT, "algorithm 4");
  o.algorithm = LDDB_THETA_STAR;
  EXPECT_FAILS(lddb_solve(ctx, db, map, {1, 1}, {2, 2}, &o, &result, path, 256), LDDB_INVALID_ARGUMENT, "octile");
  o = opts;
  o.heuristic = -1;
  EXPECT_FAILS(lddb_solve(ctx, db, map, {1, 1}, {2, 2}, &o, &result, path, 256), LDDB_INVALID_ARGUMENT, "heuristic -1");
  lddb_options zero{};
  EXPECT_FAILS(lddb_solve(ctx, db, map, {1, 1}, {2, 2}, &zero, &result, path, 256), LDDB_INVALID_ARGUMENT,
               "lddb_options_init");
  EXPECT_FAILS(lddb_context_reserve(ctx, db, map, &zero), LDDB_INVALID_ARGUMENT, "lddb_options_init");
  o = opts;
  o.algorithm = LDDB_THETA_STAR;
  EXPECT_FAILS(lddb_context_reserve(ctx, db, map, &o), LDDB_INVALID_ARGUMENT, "octile");
  o = opts;
  o.algorithm = LDDB_ASTAR;
  EXPECT_FAILS(lddb_search_begin(ctx, db, map, {1, 1}, {2, 2}, &o, &result), LDDB_INVALID_ARGUMENT, "Block A*");
  EXPECT_FAILS(lddb_search_continue(ctx, 5, &result), LDDB_INVALID_ARGUMENT, "no search in progress");
}

// Rectangles: each refusal names the call and what is wrong, and changes no cell.
TEST_F(c_api, rectangles) {
  const std::uint8_t bits[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
  EXPECT_FAILS(lddb_map_set_rect(map, 0, 0, 4, 4, nullptr, 2, 0), LDDB_NULL_ARGUMENT, "'bits'");
  EXPECT_FAILS(lddb_map_set_rect(map, 0, 0, 9, 7, bits, 7, 0), LDDB_INVALID_ARGUMENT, "'bits_size' is 7 bytes");
  EXPECT_FAILS(lddb_map_set_rect(map, 0, 0, 1, 1, bits, 0, 1), LDDB_INVALID_ARGUMENT, "need 1");
  EXPECT_FAILS(lddb_map_fill_rect(map, 14, 0, 4, 4, 1), LDDB_INVALID_ARGUMENT, "4 x 4 cells at (14, 0)");
  EXPECT_FAILS(lddb_map_fill_rect(map, 0, -1, 4, 4, 1), LDDB_INVALID_ARGUMENT, "16 x 16 map");
  EXPECT_FAILS(lddb_map_fill_rect(map, 2147483647, 0, 1, 1, 1), LDDB_INVALID_ARGUMENT, "not wholly on");
  EXPECT_FAILS(lddb_map_fill_rect(map, 0, 0, 0, 4, 1), LDDB_INVALID_ARGUMENT, "'width' is 0");
  EXPECT_FAILS(lddb_map_fill_rect(map, 0, 0, 4, -2147483647 - 1, 0), LDDB_INVALID_ARGUMENT, "'height'");
  EXPECT_FAILS(lddb_map_set_rect(map, 1, 15, 1, 2, bits, sizeof bits, 0), LDDB_INVALID_ARGUMENT, "lddb_map_set_rect");
  EXPECT_FAILS(lddb_map_set_rect(map, 1, 1, -1, 2, bits, sizeof bits, 0), LDDB_INVALID_ARGUMENT, "'width' is -1");
  for (int y = 0; y < 16; ++y)
    for (int x = 0; x < 16; ++x) {
      std::int32_t b = -1;
      ASSERT_EQ(lddb_map_blocked(map, x, y, &b), LDDB_OK);
      EXPECT_EQ(b, 0) << "cell (" << x << ", " << y << ") changed";
    }
  ASSERT_EQ(lddb_map_set_rect(map, 3, 2, 9, 7, bits, 8, 0), LDDB_OK);  // 63 cells: 8 bytes are enough
  std::int32_t b = 0;
  ASSERT_EQ(lddb_map_blocked(map, 11, 8, &b), LDDB_OK);
  EXPECT_EQ(b, 1);
  ASSERT_EQ(lddb_map_fill_rect(map, 0, 0, 16, 16, 0), LDDB_OK);
  ASSERT_EQ(lddb_map_blocked(map, 11, 8, &b), LDDB_OK);
  EXPECT_EQ(b, 0);
}

TEST_F(c_api, messages_before_any_search) {
  char buf[8] = "x";
  size_t n = 99;
  EXPECT_EQ(lddb_context_message(ctx, buf, sizeof buf, &n), LDDB_OK) << lddb_last_error();
  EXPECT_STREQ(buf, "");
  EXPECT_EQ(n, 1u);
  EXPECT_FAILS(lddb_batch_message(batch, 0, buf, sizeof buf, &n), LDDB_INVALID_ARGUMENT, "'index' 0");
  // An argument error runs no search: the context keeps the last search's text.
  ASSERT_EQ(lddb_solve(ctx, db, map, {1, 1}, {99, 1}, nullptr, &result, nullptr, 0), LDDB_INVALID_GOAL);
  opts.weight = 0;
  EXPECT_FAILS(lddb_solve(ctx, db, map, {1, 1}, {2, 2}, &opts, &result, nullptr, 0), LDDB_INVALID_ARGUMENT, "weight");
  char text[128];
  EXPECT_EQ(lddb_context_message(ctx, text, sizeof text, nullptr), LDDB_OK);
  EXPECT_NE(std::string(text).find("goal cell (99, 1) is off the 16 x 16 map"), std::string::npos) << text;
}

// A heuristic that overestimates the rule's costs is refused, with or without a weight, in
// every call that searches; LDDB_HEURISTIC_DEFAULT is the rule's own.
TEST_F(c_api, an_inadmissible_heuristic_is_refused) {
  lddb_options o = opts;
  o.heuristic = LDDB_HEURISTIC_MANHATTAN;  // octile: a diagonal costs sqrt 2, Manhattan says 2
  for (double w : {1.0, 2.0}) {
    o.weight = w;
    for (int alg : {LDDB_BLOCK_ASTAR, LDDB_ASTAR}) {
      o.algorithm = alg;
      EXPECT_FAILS(lddb_solve(ctx, db, map, {1, 1}, {9, 9}, &o, &result, path, 256), LDDB_INVALID_ARGUMENT,
                   "heuristic manhattan overestimates costs under rule octile");
      EXPECT_NE(std::string(lddb_last_error()).find("the rule's own is octile"), std::string::npos)
          << lddb_last_error();
    }
    o.algorithm = LDDB_BLOCK_ASTAR;
    EXPECT_FAILS(lddb_search_begin(ctx, db, map, {1, 1}, {9, 9}, &o, &result), LDDB_INVALID_ARGUMENT, "manhattan");
    const lddb_query q{{1, 1}, {9, 9}};
    EXPECT_FAILS(lddb_batch_solve(batch, db, map, &q, 1, &o, &result, path, 256, nullptr), LDDB_INVALID_ARGUMENT,
                 "manhattan");
  }
  lddb_result own{}, named{};
  o = opts;
  ASSERT_EQ(lddb_solve(ctx, db, map, {1, 1}, {9, 9}, &o, &own, path, 256), LDDB_OK) << lddb_last_error();
  o.heuristic = LDDB_HEURISTIC_OCTILE;
  ASSERT_EQ(lddb_solve(ctx, db, map, {1, 1}, {9, 9}, &o, &named, path, 256), LDDB_OK) << lddb_last_error();
  EXPECT_EQ(own.cost_fixed, named.cost_fixed);
  EXPECT_EQ(own.expansions, named.expansions);
}

// lddb_options_init asks for the rule's smoothing (any-angle smoothed); a struct of
// version 4 keeps the old meaning of smooth (0: raw).
TEST_F(c_api, smoothing_follows_the_rule_unless_asked) {
  lddb_database any = 0;
  lddb_map m = 0;
  ASSERT_EQ(lddb_database_open(db_path("any-angle-4.lddb").c_str(), &any), LDDB_OK) << lddb_last_error();
  ASSERT_EQ(lddb_map_create(40, 40, 4, &m), LDDB_OK);
  for (int i = 0; i < 30; ++i) ASSERT_EQ(lddb_map_set_blocked(m, 5 + i, 20 - i / 2, 1), LDDB_OK);
  lddb_options o;
  ASSERT_EQ(lddb_options_init(&o), LDDB_OK);
  EXPECT_EQ(o.version, 8u);
  EXPECT_EQ(o.jumps, LDDB_JUMPS_DEFAULT);
  EXPECT_EQ(o.smooth, LDDB_SMOOTH_DEFAULT);
  lddb_result def{}, on{}, off{}, old{};
  ASSERT_EQ(lddb_solve(ctx, any, m, {1, 39}, {39, 1}, &o, &def, path, 256), LDDB_OK) << lddb_last_error();
  o.smooth = LDDB_SMOOTH_ON;
  ASSERT_EQ(lddb_solve(ctx, any, m, {1, 39}, {39, 1}, &o, &on, path, 256), LDDB_OK) << lddb_last_error();
  o.smooth = LDDB_SMOOTH_OFF;
  ASSERT_EQ(lddb_solve(ctx, any, m, {1, 39}, {39, 1}, &o, &off, path, 256), LDDB_OK) << lddb_last_error();
  o.version = 4;
  o.smooth = 0;
  ASSERT_EQ(lddb_solve(ctx, any, m, {1, 39}, {39, 1}, &o, &old, path, 256), LDDB_OK) << lddb_last_error();
  EXPECT_EQ(def.path_count, on.path_count);
  EXPECT_EQ(def.cost_fixed, on.cost_fixed);
  EXPECT_LT(def.path_count, off.path_count);  // the raw Block A* path has needless waypoints
  EXPECT_LE(def.length, off.length + 1e-9);
  EXPECT_NEAR(def.cost, def.length, 1e-8);     // a smoothed path's cost is its segments'
  EXPECT_EQ(old.path_count, off.path_count);
  EXPECT_EQ(old.cost_fixed, off.cost_fixed);
  o.smooth = -1;  // version 4: nonzero smooths
  ASSERT_EQ(lddb_solve(ctx, any, m, {1, 39}, {39, 1}, &o, &old, path, 256), LDDB_OK) << lddb_last_error();
  EXPECT_EQ(old.path_count, on.path_count);
  EXPECT_EQ(lddb_map_free(m), LDDB_OK);
  EXPECT_EQ(lddb_database_close(any), LDDB_OK);
}

TEST_F(c_api, an_older_shorter_options_struct_keeps_the_defaults) {
  lddb_options o = opts;
  o.struct_size = offsetof(lddb_options, smooth);  // knows algorithm and heuristic only
  o.max_expansions = 1;                             // past its size: ignored
  EXPECT_EQ(lddb_solve(ctx, db, map, {0, 0}, {15, 15}, &o, &result, path, 256), LDDB_OK) << lddb_last_error();
}

TEST_F(c_api, a_map_in_other_blocks_than_the_database) {
  lddb_map m5 = 0;
  ASSERT_EQ(lddb_map_create(16, 16, 5, &m5), LDDB_OK);
  EXPECT_FAILS(lddb_solve(ctx, db, m5, {1, 1}, {2, 2}, nullptr, &result, path, 256), LDDB_RULE_MISMATCH, "block");
  EXPECT_EQ(result.status, LDDB_RULE_MISMATCH);
  EXPECT_FAILS(lddb_search_begin(ctx, db, m5, {1, 1}, {2, 2}, nullptr, &result), LDDB_RULE_MISMATCH, "block");
  const lddb_query q{{1, 1}, {2, 2}};
  size_t n = 0;
  EXPECT_EQ(lddb_batch_solve(batch, db, m5, &q, 1, nullptr, &result, path, 256, &n), LDDB_OK);
  EXPECT_EQ(result.status, LDDB_RULE_MISMATCH);
  EXPECT_FAILS(lddb_context_reserve(ctx, db, m5, nullptr), LDDB_RULE_MISMATCH, "5x5 blocks");
  // A* does not read the database's blocks.
  opts.algorithm = LDDB_ASTAR;
  EXPECT_EQ(lddb_context_reserve(ctx, db, m5, &opts), LDDB_OK) << lddb_last_error();
  EXPECT_EQ(lddb_solve(ctx, db, m5, {1, 1}, {2, 2}, &opts, &result, path, 256), LDDB_OK);
  EXPECT_EQ(lddb_map_free(m5), LDDB_OK);
}

TEST_F(c_api, bad_files) {
  lddb_database d = 0;
  lddb_map m = 0;
  EXPECT_FAILS(lddb_database_open("/nonexistent/none.lddb", &d), LDDB_IO_ERROR, "none.lddb");
  const std::string junk = std::string(LDDB_BINARY_DIR) + "/c_api_misuse_junk.lddb";
  std::ofstream(junk) << "not a database at all, but long enough to have a header maybe............";
  EXPECT_FAILS(lddb_database_open(junk.c_str(), &d), LDDB_CORRUPT_DATABASE, "c_api_misuse_junk.lddb");
  EXPECT_FAILS(lddb_map_load("/nonexistent/none.map", 4, &m), LDDB_IO_ERROR, "none.map");
  const std::string bad_map = std::string(LDDB_BINARY_DIR) + "/c_api_misuse_bad.map";
  std::ofstream(bad_map) << "type octile\nheight 2\nwidth 3\nmap\n...\n";
  EXPECT_FAILS(lddb_map_load(bad_map.c_str(), 4, &m), LDDB_INVALID_MAP, "c_api_misuse_bad.map");
  EXPECT_EQ(d, 0u);
  EXPECT_EQ(m, 0u);
}

TEST_F(c_api, success_clears_the_message_and_messages_are_per_thread) {
  EXPECT_NE(lddb_map_free(0), LDDB_OK);
  std::string other;
  std::thread([&] { other = lddb_last_error(); }).join();
  EXPECT_EQ(other, "");
  EXPECT_STRNE(lddb_last_error(), "");
  std::int32_t b = 0;
  EXPECT_EQ(lddb_database_block_size(db, &b), LDDB_OK);
  EXPECT_STREQ(lddb_last_error(), "");
  EXPECT_STREQ(lddb_status_name(static_cast<lddb_status>(999)), "unknown");
  EXPECT_STREQ(lddb_status_name(LDDB_WRONG_HANDLE_KIND), "wrong_handle_kind");
}

TEST_F(c_api, freeing_while_other_threads_use_the_handles) {
  // Threads solve while the main thread frees the map and database: each call either
  // finishes on objects kept alive or is refused with BAD_HANDLE.
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; ++t)
    threads.emplace_back([this] {
      lddb_context c = 0;
      ASSERT_EQ(lddb_context_create(&c), LDDB_OK);
      lddb_result r;
      for (int i = 0; i < 200; ++i) {
        const lddb_status s = lddb_solve(c, db, map, {0, 0}, {15, 15}, nullptr, &r, nullptr, 0);
        EXPECT_TRUE(s == LDDB_OK || s == LDDB_BAD_HANDLE) << lddb_status_name(s);
      }
      EXPECT_EQ(lddb_context_free(c), LDDB_OK);
    });
  std::this_thread::yield();
  EXPECT_EQ(lddb_map_free(map), LDDB_OK);
  EXPECT_EQ(lddb_database_close(db), LDDB_OK);
  for (auto& t : threads) t.join();
  map = db = 0;
}

// lddb_prepare and its companions: argument errors named, the report filled, the searches
// using what was prepared unless use_prepared is 0.
TEST_F(c_api, prepare) {
  lddb_preparation rep{};
  EXPECT_EQ(lddb_prepare(db, map, 3, &rep), LDDB_INVALID_ARGUMENT);
  EXPECT_NE(std::string(lddb_last_error()).find("mode 3"), std::string::npos) << lddb_last_error();
  EXPECT_EQ(lddb_preparation_get(db, map, &rep), LDDB_INVALID_ARGUMENT) << "not prepared yet";
  EXPECT_EQ(lddb_preparation_get(db, map, nullptr), LDDB_NULL_ARGUMENT);
  lddb_map other = 0;
  ASSERT_EQ(lddb_map_create(16, 16, 3, &other), LDDB_OK);
  EXPECT_EQ(lddb_prepare(db, other, LDDB_PREPARE_COMPLETE, &rep), LDDB_RULE_MISMATCH);
  lddb_map_free(other);
  EXPECT_EQ(lddb_prepare(map, map, LDDB_PREPARE_COMPLETE, &rep), LDDB_WRONG_HANDLE_KIND);
  EXPECT_EQ(lddb_prepare_step(db, 0, nullptr), LDDB_WRONG_HANDLE_KIND);
  // Before lddb_prepare there is nothing to continue: said, not answered "ready".
  int32_t never = -1;
  EXPECT_FAILS(lddb_prepare_step(map, 0, &never), LDDB_INVALID_ARGUMENT, "the map was never prepared");
  EXPECT_EQ(never, -1);

  lddb_map maze = 0;  // a wall open only at its south end, between start and goal
  ASSERT_EQ(lddb_map_create(80, 80, 4, &maze), LDDB_OK);
  for (int y = 0; y < 70; ++y) ASSERT_EQ(lddb_map_set_blocked(maze, 40, y, 1), LDDB_OK);
  lddb_result before{}, after{}, off{};
  ASSERT_EQ(lddb_solve(ctx, db, maze, {30, 10}, {50, 10}, &opts, &before, nullptr, 0), LDDB_OK) << lddb_last_error();
  ASSERT_EQ(lddb_prepare(db, maze, LDDB_PREPARE_SLICES, &rep), LDDB_OK) << lddb_last_error();
  EXPECT_EQ(rep.landmarks, 8);
  EXPECT_GE(rep.landmarks_built, 2);
  EXPECT_EQ(rep.open_squares, 0);
  int32_t ready = 0;
  for (int i = 0; i < 100000 && !ready; ++i) ASSERT_EQ(lddb_prepare_step(maze, 0, &ready), LDDB_OK);
  ASSERT_EQ(ready, 1);
  ASSERT_EQ(lddb_preparation_get(db, maze, &rep), LDDB_OK);
  // The plan beside the report: jump point search on this map of walls, as find_path says.
  int32_t jumps = -1;
  size_t needed = 0;
  ASSERT_EQ(lddb_preparation_plan(db, maze, &jumps, nullptr, 0, &needed), LDDB_OK) << lddb_last_error();
  lddb_result by{};
  ASSERT_EQ(lddb_find_path(ctx, db, maze, {30, 10}, {50, 10}, &opts, &by, nullptr, 0), LDDB_OK);
  EXPECT_EQ(jumps, 1);  // walls only: no scattered obstacles
  EXPECT_EQ(by.searched, LDDB_SEARCHED_JUMP_POINT_SEARCH);
  std::string why(needed, '\0');
  ASSERT_EQ(lddb_preparation_plan(db, maze, nullptr, why.data(), why.size(), nullptr), LDDB_OK);
  EXPECT_GT(needed, 1u);
  EXPECT_FAILS(lddb_preparation_plan(db, maze, nullptr, why.data(), needed - 1, nullptr), LDDB_BUFFER_TOO_SMALL, "'why'");
  EXPECT_FAILS(lddb_preparation_plan(db, maze, nullptr, nullptr, 4, nullptr), LDDB_NULL_ARGUMENT, "'why'");
  EXPECT_FAILS(lddb_preparation_plan(db, map, &jumps, nullptr, 0, nullptr), LDDB_INVALID_ARGUMENT, "not prepared");
  EXPECT_EQ(rep.state, LDDB_PREPARATION_READY);
  EXPECT_EQ(rep.landmarks_built, 8);
  EXPECT_GE(rep.total_ms, rep.prepare_ms);
  ASSERT_EQ(lddb_solve(ctx, db, maze, {30, 10}, {50, 10}, &opts, &after, nullptr, 0), LDDB_OK);
  EXPECT_EQ(after.cost_fixed, before.cost_fixed);
  EXPECT_LT(after.expansions, before.expansions);
  lddb_options o = opts;
  o.use_prepared = 0;
  ASSERT_EQ(lddb_solve(ctx, db, maze, {30, 10}, {50, 10}, &o, &off, nullptr, 0), LDDB_OK);
  EXPECT_EQ(off.expansions, before.expansions);
  lddb_options v5 = opts;  // a version-5 caller knows no use_prepared: it gets the default, 1
  v5.version = 5;
  v5.struct_size = offsetof(lddb_options, use_prepared);
  v5.use_prepared = 0;  // beyond its struct_size: not read
  ASSERT_EQ(lddb_solve(ctx, db, maze, {30, 10}, {50, 10}, &v5, &off, nullptr, 0), LDDB_OK);
  EXPECT_EQ(off.expansions, after.expansions);
  lddb_map_free(maze);
}

// Units (options version 8): sizes out of 0..LDDB_MAX_UNIT_SIZE refused by every search call
// with *result untouched; terrain calls off the map or with NULL; the movement helpers on
// NULL, and on a struct too old to hold a class (nothing written past it).
TEST_F(c_api, unit_sizes_terrain_and_movement_misuse) {
  const lddb_query q{{1, 1}, {2, 2}};
  for (std::int32_t size : {-1, LDDB_MAX_UNIT_SIZE + 1, INT32_MIN, INT32_MAX}) {
    lddb_options o = opts;
    o.unit_size = size;
    const std::string named = "unit_size " + std::to_string(size) + " is outside 0..8";
    result.status = -7;
    EXPECT_FAILS(lddb_solve(ctx, db, map, {1, 1}, {2, 2}, &o, &result, path, 256), LDDB_INVALID_ARGUMENT, named);
    EXPECT_EQ(result.status, -7);
    EXPECT_FAILS(lddb_search_begin(ctx, db, map, {1, 1}, {2, 2}, &o, &result), LDDB_INVALID_ARGUMENT, named);
    EXPECT_FAILS(lddb_batch_solve(batch, db, map, &q, 1, &o, &result, path, 256, nullptr), LDDB_INVALID_ARGUMENT,
                 named);
    EXPECT_FAILS(lddb_context_reserve(ctx, db, map, &o), LDDB_INVALID_ARGUMENT, named);
    EXPECT_EQ(result.status, -7);
  }
  for (const lddb_point p : std::vector<lddb_point>{{-1, 0}, {16, 0}, {0, 16}, {0, -1}, {INT32_MIN, INT32_MAX}}) {
    std::uint8_t t = 42;
    const std::string cell = "(" + std::to_string(p.x) + ", " + std::to_string(p.y) + ") is off the map";
    EXPECT_FAILS(lddb_map_set_terrain(map, p.x, p.y, 'W'), LDDB_INVALID_ARGUMENT, cell);
    EXPECT_FAILS(lddb_map_terrain(map, p.x, p.y, &t), LDDB_INVALID_ARGUMENT, cell);
    EXPECT_EQ(t, 42);
  }
  EXPECT_FAILS(lddb_map_terrain(map, 1, 1, nullptr), LDDB_NULL_ARGUMENT, "'type'");
  EXPECT_FAILS(lddb_movement_add(nullptr, 'W'), LDDB_NULL_ARGUMENT, "'options'");
  EXPECT_FAILS(lddb_movement_clear(nullptr), LDDB_NULL_ARGUMENT, "'options'");
  EXPECT_FAILS(lddb_movement_set_letters(nullptr, "W"), LDDB_NULL_ARGUMENT, "'options'");
  EXPECT_FAILS(lddb_movement_set_letters(&opts, nullptr), LDDB_NULL_ARGUMENT, "'letters'");
  // A version 7 caller's struct ends where movement begins: the helpers write nothing.
  lddb_options old = opts;
  old.version = 7;
  old.struct_size = offsetof(lddb_options, movement);
  std::memset(old.movement, 0xAB, sizeof old.movement);
  EXPECT_FAILS(lddb_movement_add(&old, 'W'), LDDB_INVALID_ARGUMENT, "version 7");
  EXPECT_FAILS(lddb_movement_set_letters(&old, "W"), LDDB_INVALID_ARGUMENT, "no movement class");
  EXPECT_FAILS(lddb_movement_clear(&old), LDDB_INVALID_ARGUMENT, "lddb_options_init");
  old.version = 8;  // a version but a struct_size short of the field: refused too
  EXPECT_FAILS(lddb_movement_clear(&old), LDDB_INVALID_ARGUMENT, "struct_size 64");
  for (std::uint8_t byte : old.movement) EXPECT_EQ(byte, 0xAB);
}

// lddb_options_init never writes past the caller's struct: the function a program built
// against version 7's header calls fills that version's 64 bytes, and the sized form fills
// the newest version that fits.
TEST(CApiMisuse, OptionsInitWritesOnlyTheCallersStruct) {
  struct guarded {
    alignas(lddb_options) unsigned char bytes[sizeof(lddb_options) + 16];
  };
  guarded g;
  std::memset(g.bytes, 0xCD, sizeof g.bytes);
  auto* o = reinterpret_cast<lddb_options*>(g.bytes);
  ASSERT_EQ((lddb_options_init)(o), LDDB_OK);  // the function, as an old program calls it
  EXPECT_EQ(o->version, 7u);
  EXPECT_EQ(o->struct_size, 64u);
  for (std::size_t i = 64; i < sizeof g.bytes; ++i) ASSERT_EQ(g.bytes[i], 0xCD) << "byte " << i << " written";
  std::memset(g.bytes, 0xCD, sizeof g.bytes);
  ASSERT_EQ(lddb_options_init_size(o, 80), LDDB_OK);  // between versions: the older one
  EXPECT_EQ(o->version, 7u);
  for (std::size_t i = 80; i < sizeof g.bytes; ++i) ASSERT_EQ(g.bytes[i], 0xCD) << "byte " << i << " written";
  std::memset(g.bytes, 0xCD, sizeof g.bytes);
  ASSERT_EQ(lddb_options_init(o), LDDB_OK);  // the macro: this header's size
  EXPECT_EQ(o->version, static_cast<std::uint32_t>(LDDB_OPTIONS_VERSION));
  EXPECT_EQ(o->struct_size, sizeof(lddb_options));
  for (std::size_t i = sizeof(lddb_options); i < sizeof g.bytes; ++i) ASSERT_EQ(g.bytes[i], 0xCD);
  EXPECT_FAILS(lddb_options_init_size(o, 63), LDDB_INVALID_ARGUMENT, "size 63");
  EXPECT_FAILS(lddb_options_init_size(nullptr, 96), LDDB_NULL_ARGUMENT, "'options'");
}

// The C API's unit searches answer as the library's own, called directly with the same
// unit: random terrain of letters and numbered types, classes built bit by bit through
// lddb_movement_add, sizes 0 to 3, Block A* and A*.
TEST_F(c_api, unit_searches_answer_as_the_library) {
  const lddb::database::open_result opened = lddb::database::open(db_path("octile-4.lddb"));
  ASSERT_TRUE(opened) << opened.message;
  const lddb::database& direct = *opened.db;
  constexpr std::uint8_t kTypes[] = {'.', '.', '.', '.', 'S', 'W', 'W', 'T', '@', 7, 200};
  lddb_test::rng g(20261128);
  lddb_map m = 0;
  ASSERT_EQ(lddb_map_create(40, 40, 4, &m), LDDB_OK);
  lddb::grid_map own(40, 40, 4);
  for (int i = 0; i < 1200; ++i) {
    const int x = g.below(40), y = g.below(40);
    const std::uint8_t t = kTypes[g.below(static_cast<int>(std::size(kTypes)))];
    ASSERT_EQ(lddb_map_set_terrain(m, x, y, t), LDDB_OK);
    own.set_terrain(x, y, t);
  }
  lddb::search_context direct_ctx;
  int found = 0;
  for (int i = 0; i < 300; ++i) {
    lddb_options o = opts;
    lddb::unit u;
    u.size = g.below(4);
    u.movement = lddb::movement_class();
    ASSERT_EQ(lddb_movement_clear(&o), LDDB_OK);
    for (int k = 0, n = 1 + g.below(4); k < n; ++k) {
      const std::uint8_t t = kTypes[g.below(static_cast<int>(std::size(kTypes)))];
      ASSERT_EQ(lddb_movement_add(&o, t), LDDB_OK);
      u.movement.add(t);
    }
    o.unit_size = u.size;
    o.algorithm = i % 2 ? LDDB_ASTAR : LDDB_BLOCK_ASTAR;
    lddb::search_options so;
    so.unit = u;
    const lddb::point a{g.below(40), g.below(40)}, b{g.below(40), g.below(40)};
    const lddb::search_result want = i % 2 ? lddb::astar(direct.movement(), own, a, b, so, direct_ctx)
                                           : lddb::find_path(direct, own, a, b, so, direct_ctx);
    lddb_result got{};
    lddb_solve(ctx, db, m, {a.x, a.y}, {b.x, b.y}, &o, &got, path, 256);
    const lddb_status status = want.status == lddb::search_status::found           ? LDDB_OK
                               : want.status == lddb::search_status::no_path       ? LDDB_NO_PATH
                               : want.status == lddb::search_status::invalid_start ? LDDB_INVALID_START
                                                                                   : LDDB_INVALID_GOAL;
    EXPECT_EQ(got.status, status) << i << ": " << want.message;
    if (!want.found()) continue;
    ++found;
    EXPECT_EQ(got.cost_fixed, want.cost) << i;
    EXPECT_EQ(got.expansions, want.stats.expanded) << i;
    ASSERT_EQ(got.path_count, want.path.size()) << i;
    for (std::size_t k = 0; k < want.path.size(); ++k)
      EXPECT_TRUE(path[k].x == want.path[k].x && path[k].y == want.path[k].y) << i << " point " << k;
  }
  EXPECT_GE(found, 30);  // the comparison saw paths, not only refusals
  lddb_map_free(m);
}

}  // namespace

// A search by find_path on a map never prepared is said, once a map, through the warning
// handler; a prepared map, or A* asked by name, says nothing.
namespace {
struct heard {
  int count = 0;
  std::string last;
};
void hear(const char* message, void* user) {
  auto* h = static_cast<heard*>(user);
  ++h->count;
  h->last = message;
}
}  // namespace

TEST_F(c_api, an_unprepared_map_is_said_once) {
  heard h;
  ASSERT_EQ(lddb_set_warning_handler(hear, &h), LDDB_OK);
  lddb_result r{};
  for (int k = 0; k < 3; ++k) ASSERT_EQ(lddb_find_path(ctx, db, map, {1, 1}, {9, 9}, &opts, &r, path, 256), LDDB_OK);
  EXPECT_EQ(h.count, 1);
  EXPECT_NE(h.last.find("lddb_find_path: the 16 x 16 map was never prepared (lddb_prepare)"), std::string::npos) << h.last;
  lddb_map other = 0;
  ASSERT_EQ(lddb_map_create(16, 16, 4, &other), LDDB_OK);
  lddb_options astar = opts;
  astar.algorithm = LDDB_ASTAR;
  ASSERT_EQ(lddb_solve(ctx, db, other, {1, 1}, {9, 9}, &astar, &r, path, 256), LDDB_OK);
  EXPECT_EQ(h.count, 1) << "A* by name reads no preparation";
  ASSERT_EQ(lddb_prepare(db, other, LDDB_PREPARE_COMPLETE, nullptr), LDDB_OK);
  const lddb_query q{{1, 1}, {9, 9}};
  ASSERT_EQ(lddb_batch_solve(batch, db, other, &q, 1, &opts, &r, path, 256, nullptr), LDDB_OK);
  EXPECT_EQ(h.count, 1) << "a prepared map";
  ASSERT_EQ(lddb_set_warning_handler(nullptr, nullptr), LDDB_OK);
  ASSERT_EQ(lddb_find_path(ctx, db, map, {1, 1}, {9, 9}, &opts, &r, path, 256), LDDB_OK);
  EXPECT_EQ(h.count, 1) << "no handler";
  lddb_map_free(other);
}
