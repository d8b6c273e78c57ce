// unit_test: units of several sizes and movement classes (lddb/unit.hpp,
// runtime/src/map/unit_views.cpp), against an oracle written apart that moves the unit's
// square itself: it never builds a view.
//
//   Views        every cell of every view = a direct check of the unit's square, and the
//                view's codes and open groups = a fresh map's, after random type changes
//   CellRules    tile and octile (every corner rule, diagonal sqrt 2 and 1.5), sizes 1-4,
//                three classes: Block A* (also on a map prepared to hand its queries to
//                jump point search), A* and jump point search cost = Dijkstra over
//                placements whose moves are checked by sweeping the square (the cells it
//                crosses, found by exact interval arithmetic), and every step of the path
//                legal by that sweep; 240 maps changed between queries
//   AnyAngle     240 maps, sizes 0-4, both squeeze rules: every segment of Block A*'s, Theta*'s and
//                Lazy Theta*'s paths moves the square over no closed cell (exact), and the
//                three agree on whether a path exists
//   HandMade     a 2 x 2 unit and a one-cell gap, a 2-wide corridor, diagonal squeezes
//                under each corner rule, squares in any-angle gaps
//   Terrain      set_blocked and set_terrain agree with the documented types; load_map
//                keeps letters; the default unit searches the map itself
//   Interface    bad sizes, messages naming the unit, batches with a unit per query
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "lddb/batch.hpp"
#include "lddb/grid.hpp"
#include "lddb/map_file.hpp"
#include "lddb/prepare.hpp"
#include "lddb/search.hpp"
#include "lddb/find_path.hpp"
#include "lddb/unit.hpp"
#include "cell_dijkstra.hpp"
#include "test_db.hpp"
#include "test_rng.hpp"

namespace {

using lddb::grid_map;
using lddb::movement_class;
using lddb::point;
using lddb::rule;
using lddb::search_options;
using lddb::search_result;
using lddb::search_status;

constexpr lddb::terrain kTypes[] = {'.', '.', '.', '.', 'S', 'W', 'W', 'T', '@'};
const movement_class kGround = movement_class::ground();
const movement_class kWater = movement_class::of("W");
const movement_class kAmphibious = movement_class::of(".GSW");

// The oracle's map: a type per cell, changed by the documented rules of set_blocked.
struct cells {
  int w, h;
  std::vector<lddb::terrain> type;
  cells(int w_, int h_) : w(w_), h(h_), type(static_cast<std::size_t>(w_ * h_), '.') {}
  bool open(const movement_class& m, int x, int y) const {
    return x >= 0 && y >= 0 && x < w && y < h && m.contains(type[static_cast<std::size_t>(y * w + x)]);
  }
  void set(grid_map& map, int x, int y, lddb::terrain t) {
    type[static_cast<std::size_t>(y * w + x)] = t;
    map.set_terrain(x, y, t);
  }
  void block(grid_map& map, int x, int y, bool b) {
    lddb::terrain& t = type[static_cast<std::size_t>(y * w + x)];
    if (kGround.contains(t) == b) t = b ? '@' : '.';  // only a change of passability writes a type
    map.set_blocked(x, y, b);
  }
  // Is the k x k square of cells from (x, y) open?
  bool square_open(const movement_class& m, int x, int y, int k) const {
    for (int dy = 0; dy < k; ++dy)
      for (int dx = 0; dx < k; ++dx)
        if (!open(m, x + dx, y + dy)) return false;
    return true;
  }
};

// A random change: a type, or set_blocked.
void change(lddb_test::rng& g, cells& c, grid_map& map) {
  const int x = g.below(c.w), y = g.below(c.h);
  if (g.below(3) == 0) c.block(map, x, y, g.below(2) == 0);
  else c.set(map, x, y, kTypes[g.below(static_cast<int>(std::size(kTypes)))]);
}

cells random_cells(lddb_test::rng& g, grid_map& map) {
  cells c(map.width(), map.height());
  const int changes = map.width() * map.height() / 3;
  for (int i = 0; i < changes; ++i) change(g, c, map);
  return c;
}

// ------------------------------------------------------------------ the square's sweep

// a/b with b > 0, compared exactly.
struct frac {
  long long n, d;
};
bool less(frac a, frac b) { return a.n * b.d < b.n * a.d; }

// Does the open interval of t where lo + t * v < bound hold meet the others? Each bound
// narrows (lo, hi), an open interval of t, starting from all t.
struct interval {
  bool some_t = true;  // false: no t at all
  bool has_lo = false, has_hi = false;
  frac lo{0, 1}, hi{0, 1};
  // a + t * v < c
  void below(long long a, long long v, long long c) {
    if (v == 0) {
      if (!(a < c)) some_t = false;
      return;
    }
    if (v > 0) {  // t < (c - a) / v
      const frac f{c - a, v};
      if (!has_hi || less(f, hi)) hi = f;
      has_hi = true;
    } else {  // t > (c - a) / v = (a - c) / -v
      const frac f{a - c, -v};
      if (!has_lo || less(lo, f)) lo = f;
      has_lo = true;
    }
  }
  // Is there a t in [0, 1] inside? (lo, hi) is open and [0, 1] closed.
  bool meets_unit() const {
    if (!some_t) return false;
    if (has_lo && has_hi && !less(lo, hi)) return false;
    if (has_lo && !less(lo, frac{1, 1})) return false;
    return !has_hi || less(frac{0, 1}, hi);
  }
};

// Does the square [px + t dx, + k] x [py + t dy, + k], t in [0, 1], overlap the interior of
// cell c? (k = 0: the point itself, which overlaps an interior only by lying in it.)
bool sweep_hits(point p, int dx, int dy, int k, int cx, int cy) {
  interval t;
  t.below(p.x, dx, cx + 1);        // left side left of the cell's right side
  t.below(-p.x - k, -dx, -cx);     // right side right of the cell's left side
  t.below(p.y, dy, cy + 1);
  t.below(-p.y - k, -dy, -cy);
  return t.meets_unit();
}

// Does moving the square from p to q cross a closed cell (or leave the map)?
bool sweep_blocked(const cells& c, const movement_class& m, point p, point q, int k) {
  const int x0 = std::min(p.x, q.x) - 1, x1 = std::max(p.x, q.x) + k, y0 = std::min(p.y, q.y) - 1,
            y1 = std::max(p.y, q.y) + k;
  for (int cy = y0; cy <= y1; ++cy)
    for (int cx = x0; cx <= x1; ++cx)
      if (!c.open(m, cx, cy) && sweep_hits(p, q.x - p.x, q.y - p.y, k, cx, cy)) return true;
  return false;
}

// A cell unit's step by (dx, dy) under rule r, from the sweep: both squares open, and of
// the cells the sweep crosses beyond them (the clipped cells), all open (forbidden), one
// open (one_side_free), or any (allowed).
bool step_ok(const cells& c, const rule& r, const movement_class& m, int k, point a, int dx, int dy) {
  if (dx != 0 && dy != 0 && r.kind == lddb::rule_kind::tile) return false;
  const point b{a.x + dx, a.y + dy};
  if (!c.square_open(m, a.x, a.y, k) || !c.square_open(m, b.x, b.y, k)) return false;
  const auto inside = [k](point s, int x, int y) { return x >= s.x && x < s.x + k && y >= s.y && y < s.y + k; };
  int clipped = 0, clipped_open = 0;
  for (int cy = std::min(a.y, b.y); cy < std::max(a.y, b.y) + k; ++cy)
    for (int cx = std::min(a.x, b.x); cx < std::max(a.x, b.x) + k; ++cx)
      if (!inside(a, cx, cy) && !inside(b, cx, cy) && sweep_hits(a, dx, dy, k, cx, cy)) {
        ++clipped;
        clipped_open += c.open(m, cx, cy) ? 1 : 0;
      }
  switch (r.corners) {
    case lddb::corner_cutting::forbidden:
      return clipped_open == clipped;
    case lddb::corner_cutting::one_side_free:
      return clipped == 0 || clipped_open > 0;
    case lddb::corner_cutting::allowed:
      return true;
  }
  return false;
}

// Dijkstra over the unit's placements; kUnreachable when none.
lddb::cost_t least_cost(const cells& c, const rule& r, const movement_class& m, int k, point s, point t) {
  return lddb_test::least_cell_cost(r, c.w, c.h, s, t, [&](point p, int dx, int dy) { return step_ok(c, r, m, k, p, dx, dy); });
}

std::string describe(const cells& c) {
  std::string s;
  for (int y = 0; y < c.h; ++y) {
    for (int x = 0; x < c.w; ++x) s += static_cast<char>(c.type[static_cast<std::size_t>(y * c.w + x)]);
    s += '\n';
  }
  return s;
}

// ------------------------------------------------------------------ tests

TEST(Unit, Views) {
  lddb_test::rng g{11};
  for (int round = 0; round < 40; ++round) {
    grid_map map(7 + g.below(30), 5 + g.below(30), 2 + g.below(4));
    cells c = random_cells(g, map);
    const movement_class classes[] = {kGround, kWater, kAmphibious};
    for (int step = 0; step < 4; ++step) {
      for (int f = 1; f <= grid_map::kMaxFootprint; f += (f < 5 ? 1 : 4))
        for (const movement_class& m : classes) {
          const grid_map& v = map.view(f, m);
          grid_map fresh(map.width(), map.height(), map.block());
          for (int y = 0; y < map.height(); ++y)
            for (int x = 0; x < map.width(); ++x) {
              const bool closed = !c.square_open(m, x, y, f);
              ASSERT_EQ(v.blocked(x, y), closed) << "footprint " << f << " class " << m.name() << " cell " << x << ","
                                                 << y << " round " << round << "\n" << describe(c);
              if (closed) fresh.set_blocked(x, y, true);
            }
          for (int by = 0; by < map.blocks_y(); ++by)
            for (int bx = 0; bx < map.blocks_x(); ++bx) {
              ASSERT_EQ(v.block_code(bx, by), fresh.block_code(bx, by)) << "footprint " << f << " class " << m.name();
              ASSERT_EQ(v.open_group_level(bx, by, 8), fresh.open_group_level(bx, by, 8));
            }
        }
      for (int i = 0; i < 12; ++i) change(g, c, map);
    }
    EXPECT_EQ(map.view_count(), 17u);  // footprints 1-5 and 9, three classes, less the map itself
    EXPECT_GT(map.view_bytes(), 0u);
    EXPECT_EQ(&map.view(1, kGround), &map);
  }
}

// A random anchor whose k x k square is open, or (-1, -1).
point open_anchor(lddb_test::rng& g, const cells& c, const movement_class& m, int k) {
  for (int tries = 0; tries < 400; ++tries) {
    const point p{g.below(c.w), g.below(c.h)};
    if (c.square_open(m, p.x, p.y, k)) return p;
  }
  return {-1, -1};
}

std::string query_text(const std::string& search, const rule& r, int k, const movement_class& m, point s, point t,
                       int round) {
  return search + " " + r.name() + " size " + std::to_string(k) + " class " + m.name() + " " + std::to_string(s.x) +
         "," + std::to_string(s.y) + " -> " + std::to_string(t.x) + "," + std::to_string(t.y) + " round " +
         std::to_string(round);
}

search_options for_unit(int size, const movement_class& m) {
  search_options o;
  o.unit = lddb::unit{size, m};
  return o;
}

// A found cell path: from s to t, each step legal for the unit by the sweep, costing `cost`.
void expect_cell_path(const cells& c, const rule& r, const movement_class& m, int k, point s, point t,
                      const search_result& res, lddb::cost_t cost, const std::string& what) {
  ASSERT_FALSE(res.path.empty()) << what;
  EXPECT_EQ(res.path.front(), s) << what;
  EXPECT_EQ(res.path.back(), t) << what;
  lddb::cost_t sum = 0;
  for (std::size_t i = 1; i < res.path.size(); ++i) {
    const int dx = res.path[i].x - res.path[i - 1].x, dy = res.path[i].y - res.path[i - 1].y;
    ASSERT_TRUE(std::abs(dx) <= 1 && std::abs(dy) <= 1 && step_ok(c, r, m, k, res.path[i - 1], dx, dy))
        << what << ": step " << i << " is no legal move of the unit\n" << describe(c);
    sum += dx != 0 && dy != 0 ? r.diagonal : lddb::kCostOne;
  }
  EXPECT_EQ(sum, cost) << what;
}

TEST(Unit, CellRules) {
  const rule rules[] = {rule::tile(), rule::octile(), rule::octile(lddb::corner_cutting::one_side_free),
                        rule::octile(lddb::corner_cutting::allowed),
                        rule::octile(lddb::corner_cutting::forbidden, *lddb::parse_diagonal_cost("1.5"))};
  lddb_test::rng g{21};
  int found = 0, none = 0;
  lddb::search_context ctx;
  for (int round = 0; round < 240; ++round) {
    const rule& r = rules[round % 5];
    const lddb::database& db = lddb_test::db_for(r);
    grid_map map(10 + g.below(22), 8 + g.below(22), db.shape().block());
    cells c = random_cells(g, map);
    const int k = 1 + (round / 5) % 4;
    const movement_class m = round % 7 == 0 ? kWater : round % 3 == 0 ? kAmphibious : kGround;
    for (int q = 0; q < 4; ++q) {
      const point s = open_anchor(g, c, m, k), t = open_anchor(g, c, m, k);
      if (s.x < 0 || t.x < 0) break;
      const lddb::cost_t expected = least_cost(c, r, m, k, s, t);
      const search_options o = for_unit(k, m);
      std::vector<std::pair<std::string, search_result>> answers;
      answers.emplace_back("block_astar", lddb::find_path(db, map, s, t, o, ctx));
      answers.emplace_back("astar", lddb::astar(r, map, s, t, o, ctx));
      if (lddb::jump_point_search_supports(r)) {
        answers.emplace_back("jps", lddb::jump_point_search(r, map, s, t, o, ctx));
        // The map as lddb::prepare leaves it when it hands Block A*'s queries to jump point
        // search: the unit's query goes there too.
        grid_map prepared = map;
        lddb::prepare_options po;
        po.jumps = true;
        po.landmarks = 0;
        ASSERT_TRUE(lddb::prepare(db, prepared, po).plan.jumps) << r.name();
        answers.emplace_back("block_astar prepared", lddb::find_path(db, prepared, s, t, o, ctx));
      }
      for (const auto& [name, res] : answers) {
        const std::string what = query_text(name, r, k, m, s, t, round);
        if (expected == lddb::kUnreachable) {
          EXPECT_EQ(res.status, search_status::no_path) << what << ": " << res.message << "\n" << describe(c);
          continue;
        }
        ASSERT_EQ(res.status, search_status::found) << what << ": " << res.message << "\n" << describe(c);
        EXPECT_EQ(res.cost, expected) << what << "\n" << describe(c);
        expect_cell_path(c, r, m, k, s, t, res, expected, what);
      }
      ++(expected == lddb::kUnreachable ? none : found);
      for (int i = 0; i < 3; ++i) change(g, c, map);
    }
  }
  EXPECT_GT(found, 300);
  EXPECT_GT(none, 20);
}

TEST(Unit, AnyAngle) {
  const rule rules[] = {rule::any_angle(), rule::any_angle(lddb::squeezing::allowed)};
  lddb_test::rng g{31};
  int found = 0, none = 0;
  lddb::search_context ctx;
  for (int round = 0; round < 240; ++round) {
    const rule& r = rules[round % 2];
    const lddb::database& db = lddb_test::db_for(r);
    grid_map map(10 + g.below(20), 8 + g.below(20), db.shape().block());
    cells c = random_cells(g, map);
    const int k = (round / 2) % 5;
    const movement_class m = round % 3 == 0 ? kAmphibious : kGround;
    for (int q = 0; q < 4; ++q) {
      const point s = open_anchor(g, c, m, std::max(k, 1)), t = open_anchor(g, c, m, std::max(k, 1));
      if (s.x < 0 || t.x < 0) break;
      search_options o = for_unit(k, m);
      std::vector<std::pair<std::string, search_result>> answers;
      answers.emplace_back("block_astar", lddb::find_path(db, map, s, t, o, ctx));
      answers.emplace_back("theta_star", lddb::theta_star(r, map, s, t, o, ctx));
      answers.emplace_back("lazy_theta_star", lddb::lazy_theta_star(r, map, s, t, o, ctx));
      o.smooth = false;
      answers.emplace_back("block_astar raw", lddb::find_path(db, map, s, t, o, ctx));
      for (const auto& [name, res] : answers) {
        const std::string what = query_text(name, r, k, m, s, t, round);
        EXPECT_EQ(res.status, answers[0].second.status) << what << ": " << res.message;
        if (!res.found()) continue;
        ASSERT_FALSE(res.path.empty());
        EXPECT_EQ(res.path.front(), s) << what;
        EXPECT_EQ(res.path.back(), t) << what;
        for (std::size_t i = 0; i + 1 < res.path.size(); ++i)
          ASSERT_FALSE(sweep_blocked(c, m, res.path[i], res.path[i + 1], k))
              << what << ": the square crosses a closed cell on segment " << i << "\n" << describe(c);
      }
      const search_status st = answers[0].second.status;
      if (st == search_status::found) ++found;
      if (st == search_status::no_path) ++none;
      for (int i = 0; i < 3; ++i) change(g, c, map);
    }
  }
  EXPECT_GT(found, 200);
  EXPECT_GT(none, 10);
}

// A map from rows of terrain letters.
cells draw(grid_map& map, const std::vector<std::string>& rows) {
  cells c(map.width(), map.height());
  for (int y = 0; y < c.h; ++y)
    for (int x = 0; x < c.w; ++x) c.set(map, x, y, static_cast<lddb::terrain>(rows[static_cast<std::size_t>(y)][static_cast<std::size_t>(x)]));
  return c;
}

TEST(Unit, HandMade) {
  lddb::search_context ctx;
  {  // a wall with a one-cell gap, then a two-cell one
    const rule r = rule::octile();
    const lddb::database& db = lddb_test::db_for(r);
    grid_map map(10, 5);
    cells c = draw(map, {"..........", "..........", "#####.####", "..........", ".........."});
    EXPECT_TRUE(lddb::find_path(db, map, {0, 0}, {0, 3}, for_unit(1, kGround), ctx).found());
    EXPECT_EQ(lddb::find_path(db, map, {0, 0}, {0, 3}, for_unit(2, kGround), ctx).status, search_status::no_path);
    c.set(map, 6, 2, '.');
    const search_result two = lddb::find_path(db, map, {0, 0}, {0, 3}, for_unit(2, kGround), ctx);
    ASSERT_TRUE(two.found()) << two.message;
    EXPECT_EQ(two.cost, least_cost(c, r, kGround, 2, {0, 0}, {0, 3}));
    // A 3 x 3 unit at (0,0) would stand in the wall.
    EXPECT_EQ(lddb::find_path(db, map, {0, 0}, {0, 3}, for_unit(3, kGround), ctx).status, search_status::invalid_start);
  }
  {  // a 2 x 2 unit's diagonal step from (0,0) to (1,1) clips cells (2,0) and (0,2)
    const std::vector<std::string> both = {"..#", "...", "#.."}, one = {"..#", "...", "..."};
    struct expect {
      lddb::corner_cutting corners;
      bool both_found;            // with both clipped cells closed
      lddb::cost_t one_cost;      // with one closed: a diagonal, or two straight steps
    };
    const expect cases[] = {{lddb::corner_cutting::forbidden, false, 2 * lddb::kCostOne},
                            {lddb::corner_cutting::one_side_free, false, lddb::kSqrt2Cost},
                            {lddb::corner_cutting::allowed, true, lddb::kSqrt2Cost}};
    for (const expect& e : cases) {
      const rule r = rule::octile(e.corners);
      const lddb::database& db = lddb_test::db_for(r);
      grid_map map(3, 3, db.shape().block());
      draw(map, both);
      const search_result a = lddb::find_path(db, map, {0, 0}, {1, 1}, for_unit(2, kGround), ctx);
      EXPECT_EQ(a.found(), e.both_found) << r.name() << ": " << a.message;
      if (e.both_found) {
        EXPECT_EQ(a.cost, lddb::kSqrt2Cost) << r.name();
      }
      draw(map, one);
      const search_result b = lddb::astar(r, map, {0, 0}, {1, 1}, for_unit(2, kGround), ctx);
      ASSERT_TRUE(b.found()) << r.name() << ": " << b.message;
      EXPECT_EQ(b.cost, e.one_cost) << r.name();
    }
  }
  {  // any-angle: a square may touch walls, not pass a gap exactly its width
    const rule r = rule::any_angle();
    const lddb::database& db = lddb_test::db_for(r);
    grid_map map(8, 6);
    draw(map, {"........", "........", "###..###", "........", "........", "........"});
    for (int k = 0; k <= 3; ++k) {
      const search_result res = lddb::find_path(db, map, {0, 0}, {0, 3}, for_unit(k, kGround), ctx);
      EXPECT_EQ(res.found(), k <= 1) << "size " << k << ": " << res.message;
      const search_result theta = lddb::theta_star(r, map, {0, 0}, {0, 3}, for_unit(k, kGround), ctx);
      EXPECT_EQ(theta.found(), k <= 1) << "size " << k << ": " << theta.message;
    }
  }
}

TEST(Unit, Terrain) {
  grid_map map(5, 2);
  EXPECT_FALSE(map.has_terrain());
  map.set_blocked(0, 0, true);
  EXPECT_EQ(map.terrain_at(0, 0), '@');
  EXPECT_EQ(map.terrain_at(1, 0), '.');
  EXPECT_FALSE(map.has_terrain());  // '.' and '@' take no memory
  map.set_terrain(1, 0, 'W');
  EXPECT_TRUE(map.has_terrain());
  EXPECT_TRUE(map.blocked(1, 0));
  EXPECT_EQ(map.terrain_at(0, 0), '@');
  map.set_terrain(2, 0, 'S');
  EXPECT_FALSE(map.blocked(2, 0));
  map.set_blocked(2, 0, true);  // a change of passability writes '@'
  EXPECT_EQ(map.terrain_at(2, 0), '@');
  map.set_blocked(1, 0, true);  // none: the water stays
  EXPECT_EQ(map.terrain_at(1, 0), 'W');
  map.set_blocked(1, 0, false);
  EXPECT_EQ(map.terrain_at(1, 0), '.');
  EXPECT_EQ(map.terrain_at(-1, 0), '@');
  EXPECT_THROW(map.set_terrain(5, 0, '.'), std::out_of_range);
  const grid_map copy = map;
  EXPECT_TRUE(copy == map);
  grid_map other = map;
  other.set_terrain(4, 1, 'G');  // free either way, but another type
  EXPECT_FALSE(other == map);

  std::string error;
  const auto loaded = lddb::parse_map("type octile\nheight 1\nwidth 7\nmap\n.GSWT@O\n", "letters", &error);
  ASSERT_TRUE(loaded) << error;
  const std::string letters = ".GSWT@O";
  for (int x = 0; x < 7; ++x) {
    EXPECT_EQ(loaded->terrain_at(x, 0), letters[static_cast<std::size_t>(x)]);
    EXPECT_EQ(loaded->blocked(x, 0), x >= 3) << letters[static_cast<std::size_t>(x)];
  }
  EXPECT_EQ(movement_class::of("W.").name(), ".W");
  EXPECT_EQ(movement_class().add(3).name(), "\\x03");
}

TEST(Unit, Interface) {
  const rule r = rule::octile();
  const lddb::database& db = lddb_test::db_for(r);
  grid_map map(20, 20);
  map.set_terrain(10, 10, 'W');
  lddb::search_context ctx;
  for (int size : {-1, lddb::unit::kMaxSize + 1}) {
    const search_result res = lddb::find_path(db, map, {0, 0}, {5, 5}, for_unit(size, kGround), ctx);
    EXPECT_EQ(res.status, search_status::invalid_option) << size;
    EXPECT_NE(res.message.find("outside 0.."), std::string::npos) << res.message;
    EXPECT_THROW(lddb::unit_view(r, map, lddb::unit{size, kGround}), std::invalid_argument);
  }
  const search_result bad = lddb::find_path(db, map, {9, 9}, {0, 0}, for_unit(2, kGround), ctx);
  EXPECT_EQ(bad.status, search_status::invalid_start);
  EXPECT_NE(bad.message.find("for a unit of size 2"), std::string::npos) << bad.message;
  EXPECT_EQ(lddb::find_path(db, map, {19, 0}, {0, 0}, for_unit(2, kGround), ctx).status,
            search_status::invalid_start);  // the square leaves the map
  EXPECT_EQ(lddb::astar(r, map, {10, 10}, {0, 0}, for_unit(1, kGround), ctx).status, search_status::invalid_start);
  EXPECT_EQ(lddb::astar(r, map, {0, 0}, {10, 10}, for_unit(1, kWater), ctx).status, search_status::invalid_start);
  EXPECT_EQ(lddb::astar(r, map, {10, 10}, {10, 10}, for_unit(1, kWater), ctx).status, search_status::found);
  EXPECT_EQ(&lddb::unit_view(r, map, lddb::unit{}), &map);
  EXPECT_EQ(&lddb::unit_view(lddb::rule::any_angle(), map, lddb::unit{}), &map);
  EXPECT_NE(&lddb::unit_view(lddb::rule::any_angle(), map, lddb::unit{1, kGround}), &map);

  // Reserving for a unit's view after loading builds the view and its labels off the clock.
  {
    grid_map fresh(40, 40);
    lddb::search_context reserved;
    const grid_map& v = lddb::unit_view(r, fresh, lddb::unit{2, kGround});
    EXPECT_EQ(fresh.view_count(), 1u);
    EXPECT_FALSE(v.components_current(lddb::connectivity_of(r)));
    reserved.reserve(db, v);
    EXPECT_TRUE(v.components_current(lddb::connectivity_of(r)));
    EXPECT_TRUE(lddb::find_path(db, fresh, {0, 0}, {30, 30}, for_unit(2, kGround), reserved).found());
    EXPECT_EQ(fresh.view_count(), 1u);  // the same view
  }

  // A batch with a unit per query answers as block_astar with that unit.
  std::vector<lddb::query> queries;
  for (int i = 0; i < 12; ++i) {
    lddb::query q{{i, 0}, {18 - i, 18}};
    if (i % 3 != 0) q.unit = lddb::unit{1 + i % 3, kGround};
    queries.push_back(q);
  }
  std::vector<search_result> results(queries.size());
  lddb::batch_solver solver(2);
  solver.solve(db, map, queries, search_options{}, results);
  for (std::size_t i = 0; i < queries.size(); ++i) {
    search_options o;
    if (queries[i].unit) o.unit = *queries[i].unit;
    const search_result alone = lddb::find_path(db, map, queries[i].start, queries[i].goal, o, ctx);
    EXPECT_EQ(results[i].status, alone.status) << i;
    EXPECT_EQ(results[i].cost, alone.cost) << i;
  }
}

}  // namespace
