// Component labels (grid_map::same_component, lddb::same_component) and the instant no_path
// they give every search (search_diagnostics::component_check).
//
// The oracle is a flood fill written here over the path checker's moves (lddb/checker.hpp:
// move_ok for cells, segment_ok on unit segments for vertices, with the (vertex, side)
// states of lddb/checker_corners.hpp under the default any-angle rule), never the library's
// step_legal or segment_legal. On 200+ generated maps whose cells change between rounds,
// for every rule: the labels' verdict equals the oracle's for every goal, every search says
// no_path exactly when the oracle does (with nothing expanded when the labels are on), and
// the answers are otherwise the same with the labels on and off.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "lddb/checker.hpp"
#include "lddb/format.hpp"
#include "lddb/generator.hpp"
#include "lddb/grid.hpp"
#include "lddb/mapgen.hpp"
#include "lddb/point.hpp"
#include "lddb/rule.hpp"
#include "lddb/search.hpp"
#include "lddb/find_path.hpp"
#include "test_rng.hpp"

namespace {

using lddb::grid_map;
using lddb::point;
using lddb::rule;
using lddb::search_result;
using lddb::search_status;
using lddb_test::rng;
namespace checker = lddb::checker;

constexpr int kBlock = 3;  // small databases, generated in memory

std::vector<rule> every_rule() {
  std::vector<rule> rules{rule::tile(), rule::octile(), rule::octile(lddb::corner_cutting::one_side_free),
                          rule::any_angle(), rule::any_angle(lddb::squeezing::allowed)};
  if (auto allowed = rule::parse("octile:corners=allowed")) rules.push_back(*allowed);  // where the rule exists
  return rules;
}

const lddb::database& db_for(const rule& r) {
  static std::map<std::string, std::shared_ptr<const lddb::database>> cache;
  auto it = cache.find(r.name());
  if (it != cache.end()) return *it->second;
  lddb::recipe rc;
  rc.movement = r;
  rc.block = kBlock;
  rc.zstd_level = 1;
  const std::vector<std::uint8_t> bytes = lddb::encode_database(lddb::generate(rc, {}));
  auto opened = lddb::database::open_bytes(bytes, "generated " + r.name());
  if (!opened) throw std::runtime_error(opened.message);
  return *cache.emplace(r.name(), opened.db).first->second;
}

// ------------------------------------------------------------------------------ the oracle

// Component ids of every search state under the rule, by flood fill over the checker's unit
// moves: a state is a cell (tile, octile), or a vertex with, at a two-sided double corner
// under the default any-angle rule, the free cell it is beside (checker::cell_beside).
class oracle {
 public:
  oracle(const rule& r, const grid_map& m) : r_(r), m_(m), w_(r.on_vertices() ? m.width() + 1 : m.width()) {
    const int h = r.on_vertices() ? m.height() + 1 : m.height();
    id_.assign(static_cast<std::size_t>(w_ * h * 2), -1);
    int next = 0;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w_; ++x)
        for (int side = 0; side < 2; ++side)
          if (exists({x, y}, side) && id_[key({x, y}, side)] < 0) flood({x, y}, side, next++);
  }

  // Does a path join the two endpoints (false when either is no valid endpoint)?
  bool connected(point s, point g) const {
    const int a = endpoint(s), b = endpoint(g);
    return a >= 0 && b >= 0 && (s == g || a == b);
  }

 private:
  std::size_t key(point p, int side) const { return static_cast<std::size_t>((p.y * w_ + p.x) * 2 + side); }
  bool sided(point v) const { return checker::sides_matter(r_, m_, v); }
  // Side 0 of a two-sided vertex is its free cell in the row above, side 1 the one below.
  int side_of_cell(point v, point cell) const { return sided(v) && cell.y == v.y ? 1 : 0; }
  bool exists(point p, int side) const {
    if (!r_.on_vertices()) return side == 0 && !m_.blocked(p.x, p.y);
    return checker::vertex_ok(m_, p) && (side == 0 || sided(p));
  }
  int endpoint(point p) const {
    if (!r_.on_vertices()) return m_.in_bounds(p.x, p.y) && !m_.blocked(p.x, p.y) ? id_[key(p, 0)] : -1;
    if (p.x < 0 || p.y < 0 || p.x > m_.width() || p.y > m_.height() || !checker::vertex_ok(m_, p)) return -1;
    if (!checker::endpoint_ok(r_, m_, p)) return -1;
    return id_[key(p, side_of_cell(p, p))];
  }
  void flood(point p0, int side0, int id) {
    std::vector<std::pair<point, int>> todo{{p0, side0}};
    id_[key(p0, side0)] = id;
    while (!todo.empty()) {
      const auto [p, side] = todo.back();
      todo.pop_back();
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const point q{p.x + dx, p.y + dy};
          if (dx == 0 && dy == 0) continue;
          int qside = 0;
          if (!r_.on_vertices()) {
            if (!checker::move_ok(r_, m_, p, q)) continue;
          } else {
            if (q.x < 0 || q.y < 0 || q.x > m_.width() || q.y > m_.height() || !checker::segment_ok(r_, m_, p, q)) continue;
            if (sided(p) && side_of_cell(p, checker::cell_beside(m_, p, q)) != side) continue;  // leaves on its side
            if (sided(q)) qside = side_of_cell(q, checker::cell_beside(m_, q, p));
          }
          int& slot = id_[key(q, qside)];
          if (slot >= 0) continue;
          slot = id;
          todo.push_back({q, qside});
        }
    }
  }

  rule r_;
  const grid_map& m_;
  int w_;
  std::vector<int> id_;
};

// ------------------------------------------------------------------------------ helpers

grid_map random_generated_map(rng& g, int index) {
  // Every tenth map is wider than a 64-bit word of cells, so rows span several words.
  const int w = index % 10 == 9 ? 65 + g.below(80) : 6 + g.below(24), h = 6 + g.below(24);
  const auto seed = static_cast<std::uint64_t>(index) * 7919 + 3;
  switch (index % 3) {
    case 0:
      return lddb::make_random_map(w, h, 15 + g.below(35), seed, kBlock);
    case 1:
      return lddb::make_rooms_map(w, h, 3 + g.below(4), seed, kBlock);
    default:
      return lddb::make_maze_map(w, h, 1 + g.below(2), seed, kBlock);
  }
}

point random_endpoint(rng& g, const rule& r, const grid_map& m) {
  const int ex = r.on_vertices() ? 1 : 0;
  return {g.below(m.width() + ex), g.below(m.height() + ex)};
}

search_result run(const std::string& algo, const rule& r, const grid_map& m, point s, point t, bool labels,
                  lddb::search_context& ctx) {
  lddb::search_options o(lddb::default_heuristic(r));
  o.diagnostics.component_check = labels;
  if (algo == "block-astar") return lddb::find_path(db_for(r), m, s, t, o, ctx);
  if (algo == "astar") return lddb::astar(r, m, s, t, o, ctx);
  if (algo == "theta") return lddb::theta_star(r, m, s, t, o, ctx);
  return lddb::lazy_theta_star(r, m, s, t, o, ctx);
}

std::vector<std::string> searches_for(const rule& r) {
  if (r.on_vertices()) return {"block-astar", "theta", "lazy-theta"};
  return {"block-astar", "astar"};
}

std::string describe(const rule& r, const grid_map& m, point s, point t) {
  std::string out = r.name() + " from (" + std::to_string(s.x) + "," + std::to_string(s.y) + ") to (" +
                    std::to_string(t.x) + "," + std::to_string(t.y) + ") on\n";
  for (int y = 0; y < m.height(); ++y) {
    for (int x = 0; x < m.width(); ++x) out += m.blocked(x, y) ? '#' : '.';
    out += '\n';
  }
  return out;
}

// ------------------------------------------------------------------------------ tests

TEST(Components, ConnectivityOfEachRule) {
  EXPECT_EQ(lddb::connectivity_of(rule::tile()), lddb::connectivity::four);
  EXPECT_EQ(lddb::connectivity_of(rule::octile()), lddb::connectivity::four);
  // A legal diagonal has a free side cell, which joins its two cells by edges.
  EXPECT_EQ(lddb::connectivity_of(rule::octile(lddb::corner_cutting::one_side_free)), lddb::connectivity::four);
  EXPECT_EQ(lddb::connectivity_of(rule::any_angle()), lddb::connectivity::four);
  EXPECT_EQ(lddb::connectivity_of(rule::any_angle(lddb::squeezing::allowed)), lddb::connectivity::eight);
  if (auto allowed = rule::parse("octile:corners=allowed")) {
    EXPECT_EQ(lddb::connectivity_of(*allowed), lddb::connectivity::eight);
  }
}

// The any-angle reduction to cells: at a vertex that is not a two-sided double corner, the
// free cells around it are joined by edges among themselves, so any one stands for all.
TEST(Components, FreeCellsAroundAVertexShareEdgesUnlessDoubleCorner) {
  for (int pattern = 0; pattern < 16; ++pattern) {
    grid_map m(2, 2, 2);
    for (int i = 0; i < 4; ++i) m.set_blocked(i % 2, i / 2, (pattern >> i) & 1);
    if (checker::two_sided(m, point{1, 1})) continue;
    std::vector<point> free;
    for (int i = 0; i < 4; ++i)
      if (!m.blocked(i % 2, i / 2)) free.push_back({i % 2, i / 2});
    // Within the 2 x 2, by the checker's tile moves.
    std::vector<point> reached = free.empty() ? std::vector<point>{} : std::vector<point>{free[0]};
    for (std::size_t k = 0; k < reached.size(); ++k)
      for (const point q : free)
        if (std::find(reached.begin(), reached.end(), q) == reached.end() && checker::move_ok(rule::tile(), m, reached[k], q))
          reached.push_back(q);
    EXPECT_EQ(reached.size(), free.size()) << "pattern " << pattern;
  }
}

TEST(Components, VerdictAndSearchesMatchTheCheckerOnChangingMaps) {
  const std::vector<rule> rules = every_rule();
  rng g{20260};
  int maps = 0, apart = 0, joined = 0, instant = 0;
  for (int index = 0; index < 210; ++index, ++maps) {
    grid_map m = random_generated_map(g, index);
    lddb::search_context ctx;
    for (int round = 0; round < 4; ++round) {
      if (round > 0)  // cells change between queries; the labels must follow
        for (int k = g.below(10); k >= 0; --k) {
          const int x = g.below(m.width()), y = g.below(m.height());
          m.set_blocked(x, y, !m.blocked(x, y));
        }
      for (const rule& r : rules) {
        const oracle truth(r, m);
        for (int starts = 0; starts < 2; ++starts) {
          const point s = random_endpoint(g, r, m);
          const int ex = r.on_vertices() ? 1 : 0;
          // The verdict for every goal on the map.
          for (int y = 0; y < m.height() + ex; ++y)
            for (int x = 0; x < m.width() + ex; ++x) {
              const point t{x, y};
              const std::optional<bool> verdict = lddb::same_component(r, m, s, t);
              const bool want = truth.connected(s, t);
              if (verdict) {
                ASSERT_EQ(*verdict || s == t, want) << describe(r, m, s, t);
              } else {
                ASSERT_FALSE(want) << "no verdict for a connected pair: " << describe(r, m, s, t);
              }
            }
          // The searches, labels on and off, for a few goals.
          for (int k = 0; k < 3; ++k) {
            const point t = random_endpoint(g, r, m);
            for (const std::string& algo : searches_for(r)) {
              const search_result on = run(algo, r, m, s, t, true, ctx);
              const search_result off = run(algo, r, m, s, t, false, ctx);
              const std::string what = algo + " " + describe(r, m, s, t);
              ASSERT_EQ(on.status, off.status) << what;
              ASSERT_EQ(on.message, off.message) << what;
              ASSERT_EQ(on.path, off.path) << what;
              ASSERT_EQ(on.cost, off.cost) << what;
              // Endpoints with no verdict (on a double corner whose own cell is blocked) are
              // the searches' own business.
              const std::optional<bool> verdict = lddb::same_component(r, m, s, t);
              if (verdict && (on.status == search_status::found || on.status == search_status::no_path)) {
                ASSERT_EQ(on.found(), truth.connected(s, t)) << what;
              }
              if (on.status == search_status::found) {
                ASSERT_EQ(on.stats.expanded, off.stats.expanded) << what;
                ASSERT_EQ(on.stats.heap_ops, off.stats.heap_ops) << what;
                ++joined;
              }
              if (on.status == search_status::no_path) {
                ++apart;
                if (verdict) {  // labels that know: nothing expanded
                  ASSERT_FALSE(*verdict) << what;
                  ASSERT_EQ(on.stats.expanded, 0u) << what;
                  ASSERT_EQ(on.stats.heap_ops, 0u) << what;
                  ASSERT_EQ(on.stats.generated, 0u) << what;
                  ++instant;
                }
              }
            }
          }
        }
      }
    }
  }
  EXPECT_GE(maps, 200);
  // The draw must hold both answers in numbers, and most no_paths must be instant.
  EXPECT_GT(apart, 500);
  EXPECT_GT(joined, 500);
  EXPECT_GT(instant, apart * 9 / 10);
}

// Blocking a door splits a map, freeing it joins it again, with no query in between.
TEST(Components, FollowsSplitsAndJoins) {
  grid_map m(9, 5, kBlock);
  for (int y = 0; y < 5; ++y) m.set_blocked(4, y, true);
  m.set_blocked(4, 2, false);  // the door
  const rule r = rule::octile();
  EXPECT_EQ(lddb::same_component(r, m, {0, 0}, {8, 4}), true);
  m.set_blocked(4, 2, true);
  EXPECT_EQ(lddb::same_component(r, m, {0, 0}, {8, 4}), false);
  lddb::search_context ctx;
  const search_result closed = lddb::astar(r, m, {0, 0}, {8, 4}, lddb::search_options(lddb::heuristic_kind::octile), ctx);
  EXPECT_EQ(closed.status, search_status::no_path);
  EXPECT_EQ(closed.stats.expanded, 0u);
  // A budget does not hide it: the answer is known before any expansion.
  lddb::search_options capped(lddb::heuristic_kind::octile);
  capped.max_expansions = 1;
  EXPECT_EQ(lddb::astar(r, m, {0, 0}, {8, 4}, capped, ctx).status, search_status::no_path);
  const search_result sliced = lddb::block_astar_begin(db_for(r), m, {0, 0}, {8, 4}, capped, ctx);
  EXPECT_EQ(sliced.status, search_status::no_path);
  // A copy keeps its own labels.
  grid_map copy = m;
  m.set_blocked(4, 2, false);
  EXPECT_EQ(lddb::same_component(r, m, {0, 0}, {8, 4}), true);
  EXPECT_EQ(lddb::same_component(r, copy, {0, 0}, {8, 4}), false);
  copy.set_blocked(4, 0, false);
  EXPECT_EQ(lddb::same_component(r, copy, {0, 0}, {8, 4}), true);
  // Splits and joins along a row keep the labels current, each answer as a fresh build's.
  grid_map row(7, 1, kBlock);
  EXPECT_FALSE(row.components_current(lddb::connectivity::four));  // never asked
  EXPECT_TRUE(row.same_component(lddb::connectivity::four, 0, 0, 6, 0));
  row.set_blocked(3, 0, true);  // . . . # . . .: split, found by the search round it
  EXPECT_TRUE(row.components_current(lddb::connectivity::four));
  EXPECT_FALSE(row.same_component(lddb::connectivity::four, 0, 0, 6, 0));
  EXPECT_TRUE(row.same_component(lddb::connectivity::four, 0, 0, 2, 0));
  row.set_blocked(2, 0, true);
  row.set_blocked(1, 0, true);  // . # # # . . .
  EXPECT_TRUE(row.components_current(lddb::connectivity::four));  // nothing split
  row.set_blocked(3, 0, false);
  EXPECT_TRUE(row.components_current(lddb::connectivity::four));  // joined
  row.set_blocked(2, 0, false);  // . # . . . . .: freed beside one component, apart from the other
  EXPECT_TRUE(row.components_current(lddb::connectivity::four));
  EXPECT_FALSE(row.same_component(lddb::connectivity::four, 0, 0, 6, 0));
  EXPECT_TRUE(row.same_component(lddb::connectivity::four, 2, 0, 6, 0));
  row.set_blocked(1, 0, false);
  EXPECT_TRUE(row.same_component(lddb::connectivity::four, 0, 0, 6, 0));
  // Squeezing through the wall's one diagonal gap joins under eight only.
  grid_map squeeze(4, 4, kBlock);
  for (const point p : {point{0, 2}, point{1, 2}, point{2, 1}, point{3, 1}}) squeeze.set_blocked(p.x, p.y, true);
  EXPECT_EQ(squeeze.same_component(lddb::connectivity::four, 0, 0, 3, 3), false);
  EXPECT_EQ(squeeze.same_component(lddb::connectivity::eight, 0, 0, 3, 3), true);
  EXPECT_GT(squeeze.component_bytes(), 0u);
}

// The labels are built from each row's 64-cell words: runs that start at a word's first
// cell, or end at the map's right edge at, before or past a word's end, join the rows
// they touch and no others. Each copy below builds its labels afresh.
TEST(Components, RunsAtWordEdgesAndTheRightEdge) {
  for (const int w : {63, 64, 65, 127, 128, 129}) {
    grid_map m(w, 3, kBlock);
    for (int x = 0; x + 1 < w; ++x) m.set_blocked(x, 1, true);  // the middle row's one gap: its last cell
    const grid_map open = m;
    EXPECT_TRUE(open.same_component(lddb::connectivity::four, 0, 0, 0, 2)) << w;
    EXPECT_TRUE(open.same_component(lddb::connectivity::four, w - 1, 1, 0, 2)) << w;
    if (w > 64) {
      m.set_blocked(63, 2, true);  // the bottom row: runs [0, 63) and [64, w)
      const grid_map split = m;
      EXPECT_FALSE(split.same_component(lddb::connectivity::four, 0, 0, 0, 2)) << w;
      EXPECT_FALSE(split.same_component(lddb::connectivity::eight, 0, 0, 0, 2)) << w;
      EXPECT_TRUE(split.same_component(lddb::connectivity::four, 0, 0, 64, 2)) << w;
    }
    m.set_blocked(w - 1, 1, true);
    const grid_map shut = m;
    EXPECT_FALSE(shut.same_component(lddb::connectivity::four, w - 1, 0, w - 1, 2)) << w;
    EXPECT_FALSE(shut.same_component(lddb::connectivity::eight, 0, 0, w - 1, 2)) << w;
    EXPECT_TRUE(shut.same_component(lddb::connectivity::eight, 0, 0, w - 1, 0)) << w;
  }
}

// Several threads ask about one const map whose labels are stale: each answer is the
// single-threaded one (the first asker rebuilds under the lock).
TEST(Components, ThreadsShareOneConstMap) {
  grid_map m = lddb::make_maze_map(120, 120, 1, 5, kBlock);
  rng g{77};
  std::vector<std::pair<point, point>> pairs;
  for (int i = 0; i < 400; ++i) pairs.push_back({lddb_test::random_free_cell(g, m), lddb_test::random_free_cell(g, m)});
  const rule r = rule::tile();
  for (int round = 0; round < 3; ++round) {
    // Close corridors: splits the labels follow, or leave stale when too large. Either way
    // the threads' first asks of round 0 build the labels under the lock, and later rounds
    // read them, or rebuild them, while the other threads ask.
    for (int k = 0; k < 40; ++k) {
      const int x = g.below(m.width()), y = g.below(m.height());
      m.set_blocked(x, y, true);
    }
    std::vector<int> want;
    {
      const grid_map fresh = m;  // its own labels, built here on one thread
      for (const auto& [a, b] : pairs) want.push_back(lddb::same_component(r, fresh, a, b).value_or(false) ? 1 : 0);
    }
    std::vector<std::vector<int>> got(4);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
      threads.emplace_back([&, t] {
        for (const auto& [a, b] : pairs) got[static_cast<std::size_t>(t)].push_back(lddb::same_component(r, m, a, b).value_or(false) ? 1 : 0);
      });
    for (std::thread& t : threads) t.join();
    for (const std::vector<int>& answers : got) EXPECT_EQ(answers, want);
  }
}

}  // namespace
