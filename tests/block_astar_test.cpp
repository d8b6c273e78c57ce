// Block A*: correctness against independent oracles.
//
// Databases are generated in memory once per test process (b = 2, 3, 4, and octile at
// b = 5, which takes about a minute). Oracles:
//  * cell rules: a heap Dijkstra written here over oracle::move_ok / move_length (the
//    independent rule implementation of tests/oracle.hpp), and A* (a second algorithm);
//  * any-angle: a visibility graph written here over the convex corners and pinch points of
//    the blocked cells plus start and goal, with oracle::segment_ok edges; it is itself
//    checked against oracle::least_cost (every vertex) on tiny maps;
//  * paths: oracle::check_path, plus the stricter promises of search.hpp (cells: one unit
//    move a step; any-angle: no repeated waypoint);
//  * the Moving AI scenario files' optimal lengths, when ../shared/maps (beside the source
//    tree) is present.
//
// Failure messages name the map (its generator call, so it can be rebuilt), the query and
// every length involved; after kShownFailures failures in one test the rest are counted.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <queue>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "lddb/format.hpp"
#include "lddb/generator.hpp"
#include "lddb/grid.hpp"
#include "lddb/map_file.hpp"
#include "lddb/mapgen.hpp"
#include "lddb/scenario.hpp"
#include "lddb/cost.hpp"
#include "lddb/rule.hpp"
#include "lddb/moves.hpp"
#include "lddb/point.hpp"
#include "lddb/search.hpp"
#include "oracle.hpp"
#include "test_map.hpp"
#include "test_rng.hpp"
#include "test_scenarios.hpp"

namespace {

using lddb::grid_map;
using lddb::point;
using lddb::rule;
using lddb::search_result;
using lddb::search_status;
namespace fs = std::filesystem;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int kShownFailures = 12;

// ----------------------------------------------------------------------------- small tools

// The test's PRNG (query choice, dynamic changes): the shared splitmix64, its seed
// spread as this test always has.
struct test_rng : lddb_test::rng {
  explicit test_rng(std::uint64_t seed) : lddb_test::rng{seed * 0x2545F4914F6CDD1Dull + 0x1234567ull} {}
};
using lddb_test::random_free_cell;

const auto pt = lddb::checker::point_text;  // "(x,y)" in messages

std::string path_text(const std::vector<point>& path) {
  std::string s = std::to_string(path.size()) + " points:";
  const std::size_t show = 120;
  for (std::size_t i = 0; i < path.size() && i < show; ++i) s += " " + pt(path[i]);
  if (path.size() > show) s += " ...";
  return s;
}

std::string num(double v) {
  if (v == kInf) return "inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9f", v);
  return buf;
}

std::string result_text(const search_result& r) {
  std::string s = std::string(lddb::search_status_name(r.status));
  if (r.found()) s += " length " + num(r.length) + " cost " + num(lddb::cost_to_double(r.cost));
  if (!r.message.empty()) s += " (\"" + r.message + "\")";
  return s;
}

// Collects failures: the first kShownFailures are reported in full, the rest counted.
class failures {
 public:
  void add(const std::string& msg) {
    if (count_++ < kShownFailures) ADD_FAILURE() << msg;
  }
  int count() const { return count_; }
  ~failures() {
    if (count_ > kShownFailures) ADD_FAILURE() << count_ << " failures in total; the first " << kShownFailures << " are shown";
  }

 private:
  int count_ = 0;
};

bool close(double a, double b, double tol = 1e-9) { return std::abs(a - b) <= tol * std::max(1.0, std::abs(b)); }

// ----------------------------------------------------------------------------- databases

// One database per (rule, b) per process, generated in memory on first use.
const lddb::database& db_for(const rule& r, int b) {
  static std::map<std::string, std::shared_ptr<const lddb::database>> cache;
  const std::string key = r.name() + " b=" + std::to_string(b);
  auto it = cache.find(key);
  if (it != cache.end()) return *it->second;
  lddb::recipe rc;
  rc.movement = r;
  rc.block = b;
  rc.zstd_level = 3;
  const std::vector<std::uint8_t> bytes = lddb::encode_database(lddb::generate(rc, {}));
  auto opened = lddb::database::open_bytes(bytes, "generated " + key);
  if (!opened) throw std::runtime_error("cannot open the generated database " + key + ": " + opened.message);
  return *cache.emplace(key, opened.db).first->second;
}

std::string rule_text(const rule& r) { return r.name(); }

// ----------------------------------------------------------------------------- maps

struct named_map {
  std::string name;  // how to rebuild it
  grid_map map;
};

using lddb_test::to_oracle;

// A fresh map with the same cells (and the given block size).
grid_map copy_cells(const grid_map& m, int block) {
  grid_map out(m.width(), m.height(), block);
  for (int y = 0; y < m.height(); ++y)
    for (int x = 0; x < m.width(); ++x)
      if (m.blocked(x, y)) out.set_blocked(x, y, true);
  return out;
}

// Sizes that are not multiples of 2, 3 or 4, so the last row and column of blocks are cut.
constexpr int kOddSizes[] = {37, 53, 101, 67, 25, 43, 59, 71, 79, 47, 31, 61, 85, 97, 19, 13,
                             113, 7,  11,  23, 29, 35, 41, 49, 55, 65, 73, 77, 83, 89, 91, 95};

// Generated map number i: random (0..50% obstacles), rooms or maze, by i % 3. One in ten
// has sides that are multiples of 12 (blocks flush with the edge); the rest have odd sides.
named_map generated_map(int i, int b) {
  test_rng rng(static_cast<std::uint64_t>(i) + 1000);
  const int n = static_cast<int>(std::size(kOddSizes));
  int w = kOddSizes[rng.below(n)], h = kOddSizes[rng.below(n)];
  if (i % 10 == 9) {
    w = 12 * (2 + rng.below(6));
    h = 12 * (2 + rng.below(6));
  }
  const std::uint64_t seed = static_cast<std::uint64_t>(i) * 7919 + 17;
  const std::string dims = std::to_string(w) + "," + std::to_string(h);
  switch (i % 3) {
    case 0: {
      const int percent = rng.below(51);
      return {"make_random_map(" + dims + "," + std::to_string(percent) + "," + std::to_string(seed) + ",b=" +
                  std::to_string(b) + ")",
              lddb::make_random_map(w, h, percent, seed, b)};
    }
    case 1: {
      const int room = 2 + rng.below(8);
      return {"make_rooms_map(" + dims + "," + std::to_string(room) + "," + std::to_string(seed) + ",b=" +
                  std::to_string(b) + ")",
              lddb::make_rooms_map(w, h, room, seed, b)};
    }
    default: {
      const int corridor = 1 + rng.below(4);
      return {"make_maze_map(" + dims + "," + std::to_string(corridor) + "," + std::to_string(seed) + ",b=" +
                  std::to_string(b) + ")",
              lddb::make_maze_map(w, h, corridor, seed, b)};
    }
  }
}

// A map whose optimal paths run diagonally through block corners: a band of free cells
// along a diagonal, `thick` cells thick, in one of 8 orientations, shifted by `offset`.
// With thick = 1 the band is a staircase (cells (i,i) and (i+1,i)): under octile with
// corner cutting forbidden only straight moves work; with one side free the diagonals do.
named_map diagonal_band_map(int w, int h, int offset, int thick, int orientation, int b) {
  grid_map m(w, h, b);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      int u = x, v = y;
      if (orientation & 1) u = w - 1 - u;
      if (orientation & 2) v = h - 1 - v;
      if (orientation & 4) std::swap(u, v);
      const int d = u - v - offset;  // 0 on the diagonal
      const bool free = thick == 1 ? (d == 0 || d == 1) : (d >= -thick / 2 && d <= thick / 2);
      if (!free) m.set_blocked(x, y, true);
    }
  return {"diagonal_band(" + std::to_string(w) + "," + std::to_string(h) + ",offset=" + std::to_string(offset) +
              ",thick=" + std::to_string(thick) + ",orient=" + std::to_string(orientation) + ",b=" + std::to_string(b) + ")",
          std::move(m)};
}

// ----------------------------------------------------------------------------- cell oracle

// Single-source least costs over cells (tile, octile) with a binary heap, from the
// independent move rules of oracle.hpp. +inf where unreachable.
std::vector<double> cell_dijkstra(const rule& r, const oracle::grid& g, point src) {
  const int w = g.width(), h = g.height();
  std::vector<double> dist(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), kInf);
  if (g.blocked(src.x, src.y)) return dist;
  using item = std::pair<double, int>;
  std::priority_queue<item, std::vector<item>, std::greater<item>> open;
  dist[static_cast<std::size_t>(src.y * w + src.x)] = 0;
  open.push({0.0, src.y * w + src.x});
  while (!open.empty()) {
    const auto [d, u] = open.top();
    open.pop();
    if (d > dist[static_cast<std::size_t>(u)]) continue;
    const point p{u % w, u / w};
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const point q{p.x + dx, p.y + dy};
        if (q.x < 0 || q.y < 0 || q.x >= w || q.y >= h || !oracle::move_ok(r, g, p, q)) continue;
        const double nd = d + oracle::move_length(r, p, q);
        double& dq = dist[static_cast<std::size_t>(q.y * w + q.x)];
        if (nd < dq) {
          dq = nd;
          open.push({nd, q.y * w + q.x});
        }
      }
  }
  return dist;
}

// ----------------------------------------------------------------------------- any-angle oracle

// Optimal any-angle lengths on a small map: shortest paths between vertices turn only at
// convex corners of the blocked region (a vertex with exactly one blocked cell, the outside
// counting as blocked) or at pinch points (two diagonally opposite blocked cells), so a
// visibility graph over those vertices plus start and goal, with oracle::segment_ok edges,
// gives the optimum. Visibility between corners is cached for the map's lifetime.
class visibility_oracle {
 public:
  visibility_oracle(const rule& r, const oracle::grid& g) : rule_(r), g_(g) {
    for (int y = 0; y <= g.height(); ++y)
      for (int x = 0; x <= g.width(); ++x) {
        const bool nw = g.blocked(x - 1, y - 1), ne = g.blocked(x, y - 1), sw = g.blocked(x - 1, y), se = g.blocked(x, y);
        const int n = nw + ne + sw + se;
        if (n == 1 || (n == 2 && ((nw && se) || (ne && sw)))) corners_.push_back({x, y});
      }
    const std::size_t c = corners_.size();
    seen_.assign(c * c, -1);
  }

  std::size_t corner_count() const { return corners_.size(); }

  // Under the default rule a double corner is a node per free side (tests/oracle.hpp's
  // side_toward), and the start and goal stand on their own cell's side.
  double distance(point s, point t) {
    if (!oracle::vertex_ok(g_, s) || !oracle::vertex_ok(g_, t)) return kInf;
    if (!oracle::endpoint_ok(rule_, g_, s) || !oracle::endpoint_ok(rule_, g_, t)) return kInf;
    if (s == t) return 0;
    const int c = static_cast<int>(corners_.size());
    const int S = 2 * c, T = 2 * c + 1, n = 2 * c + 2;  // corner i on side 1 is node c + i
    auto at = [&](int i) { return i < 2 * c ? corners_[static_cast<std::size_t>(i % c)] : (i == S ? s : t); };
    auto side = [&](int i) { return i < 2 * c ? i / c : oracle::own_side(rule_, g_, at(i)); };
    auto euclid = [&](point a, point b) {
      const double dx = a.x - b.x, dy = a.y - b.y;
      return std::sqrt(dx * dx + dy * dy);
    };
    auto visible = [&](int i, int j) -> bool {
      if (i < 2 * c && j < 2 * c) {
        const std::size_t a = static_cast<std::size_t>(std::min(i % c, j % c)), b = static_cast<std::size_t>(std::max(i % c, j % c));
        std::int8_t& v = seen_[a * corners_.size() + b];
        if (v < 0) v = oracle::segment_ok(rule_, g_, at(i), at(j)) ? 1 : 0;
        return v == 1;
      }
      return oracle::segment_ok(rule_, g_, at(i), at(j));
    };
    std::vector<double> dist(static_cast<std::size_t>(n), kInf);
    std::vector<char> done(static_cast<std::size_t>(n), 0);
    using item = std::pair<double, int>;  // (f, node)
    std::priority_queue<item, std::vector<item>, std::greater<item>> open;
    dist[static_cast<std::size_t>(S)] = 0;
    open.push({euclid(s, t), S});
    while (!open.empty()) {
      const int u = open.top().second;
      open.pop();
      if (done[static_cast<std::size_t>(u)]) continue;
      done[static_cast<std::size_t>(u)] = 1;
      if (u == T) return dist[static_cast<std::size_t>(T)];
      const double du = dist[static_cast<std::size_t>(u)];
      const point pu = at(u);
      for (int v = 0; v < n; ++v) {
        if (v == S || done[static_cast<std::size_t>(v)]) continue;
        const point pv = at(v);
        if (pv == pu) continue;
        // Leave u on its own side; arrive at v on the side the segment reaches it by.
        if (oracle::side_toward(rule_, g_, pu, pv) != side(u) || oracle::side_toward(rule_, g_, pv, pu) != side(v)) continue;
        const double nd = du + euclid(pu, pv);
        if (nd >= dist[static_cast<std::size_t>(v)] || !visible(u, v)) continue;
        dist[static_cast<std::size_t>(v)] = nd;
        open.push({nd + euclid(pv, t), v});
      }
    }
    return kInf;
  }

 private:
  rule rule_;
  const oracle::grid& g_;
  std::vector<point> corners_;
  std::vector<std::int8_t> seen_;
};

// ----------------------------------------------------------------------------- checks

// Does a found result keep every promise of search.hpp? Returns "" or what is wrong.
// Cells: the path starts at start, ends at goal, and each step is one legal unit move;
// any-angle: waypoints from start to goal, each segment legal, none repeated. The path's
// recomputed length must equal result.length, and the fixed-point cost must agree.
std::string path_problem(const rule& r, const oracle::grid& g, point start, point goal, const search_result& res) {
  if (!res.found()) return "not found";
  if (res.path.empty()) return "empty path";
  if (res.path.front() != start) return "path starts at " + pt(res.path.front()) + ", not at the start";
  if (res.path.back() != goal) return "path ends at " + pt(res.path.back()) + ", not at the goal";
  if (!r.on_vertices())
    for (std::size_t k = 0; k + 1 < res.path.size(); ++k) {
      const int dx = res.path[k + 1].x - res.path[k].x, dy = res.path[k + 1].y - res.path[k].y;
      if (std::abs(dx) > 1 || std::abs(dy) > 1 || (dx == 0 && dy == 0))
        return "step " + std::to_string(k) + " " + pt(res.path[k]) + "->" + pt(res.path[k + 1]) + " is not a unit move";
    }
  const oracle::path_report rep = oracle::check_path(r, g, std::span<const point>(res.path));
  if (!rep.ok) return "path checker: " + rep.why;
  if (!close(rep.length, res.length, 1e-9))
    return "recomputed length " + num(rep.length) + " != result.length " + num(res.length);
  if (!close(lddb::path_length(res.path), res.length, 1e-9))
    return "lddb::path_length " + num(lddb::path_length(res.path)) + " != result.length " + num(res.length);
  // The search's fixed-point cost: exact sums for cells; the any-angle tables store
  // rounded segment lengths, so allow a little per waypoint.
  const double cost = lddb::cost_to_double(res.cost);
  const double tol = r.on_vertices() ? 1e-3 * static_cast<double>(res.path.size() + 1) : 1e-6;
  if (std::abs(cost - res.length) > tol * std::max(1.0, res.length))
    return "fixed-point cost " + num(cost) + " disagrees with the length " + num(res.length);
  return "";
}

// The context of one query, for messages.
std::string where(const std::string& map_name, const rule& r, point s, point t) {
  return map_name + " rule " + rule_text(r) + " query " + pt(s) + " -> " + pt(t);
}

// Runs Block A* and A* on one cell query and checks both against the oracle's least cost
// (kInf when unreachable). Returns true when all agree.
bool check_cell_query(const lddb::database& db, const grid_map& map, const oracle::grid& og, const std::string& name,
                      point s, point t, double expected, lddb::search_context& ctx, failures& fails, bool run_astar = true,
                      search_result* out = nullptr) {
  const rule& r = db.movement();
  const lddb::search_options opt(lddb::default_heuristic(r));
  const search_result ba = lddb::block_astar(db, map, s, t, opt, ctx);
  if (out) *out = ba;
  search_result as;
  if (run_astar) as = lddb::astar(r, map, s, t, opt, ctx);
  std::string problem;
  if (expected == kInf) {
    if (ba.status != search_status::no_path) problem = "expected no_path";
    else if (ba.message.empty()) problem = "no_path without a message";
    if (run_astar && as.status != search_status::no_path) problem += " A* says " + result_text(as);
  } else {
    problem = path_problem(r, og, s, t, ba);
    if (problem.empty() && !close(ba.length, expected, 1e-9)) problem = "length differs from the oracle";
    if (problem.empty() && run_astar) {
      if (!as.found() || !close(ba.length, as.length, 1e-9)) problem = "length differs from A*";
      else if (ba.cost != as.cost) problem = "fixed-point cost differs from A*'s";
    }
  }
  if (problem.empty()) return true;
  std::string msg = where(name, r, s, t) + ": " + problem + "\n  block_astar: " + result_text(ba) +
                    "\n  oracle: " + num(expected);
  if (run_astar) msg += "\n  astar: " + result_text(as);
  msg += "\n  block_astar path: " + path_text(ba.path);
  if (run_astar) msg += "\n  astar path: " + path_text(as.path);
  fails.add(msg);
  return false;
}

// Picks queries on a map: `sources` free cells, each with `per_source` goals (mostly cells
// reachable from it, the farthest among them, one uniformly random free cell), and runs
// check_cell_query on each. Returns the number of queries; *corner_paths counts the
// found paths with a diagonal step from one block to a block touching it only at a corner.
int check_cell_map(const lddb::database& db, const named_map& nm, int sources, int per_source, std::uint64_t seed,
                   failures& fails, lddb::search_context& ctx, int* corner_paths = nullptr) {
  const rule& r = db.movement();
  const oracle::grid og = to_oracle(nm.map);
  const int w = nm.map.width(), h = nm.map.height();
  std::vector<point> free_cells;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      if (!nm.map.blocked(x, y)) free_cells.push_back({x, y});
  if (free_cells.empty()) return 0;
  test_rng rng(seed);
  int queries = 0;
  for (int s = 0; s < sources; ++s) {
    const point src = free_cells[static_cast<std::size_t>(rng.below(static_cast<int>(free_cells.size())))];
    const std::vector<double> dist = cell_dijkstra(r, og, src);
    std::vector<point> reach;
    point far = src;
    for (const point& p : free_cells) {
      const double d = dist[static_cast<std::size_t>(p.y * w + p.x)];
      if (d < kInf) {
        reach.push_back(p);
        if (d > dist[static_cast<std::size_t>(far.y * w + far.x)]) far = p;
      }
    }
    for (int k = 0; k < per_source; ++k) {
      point goal;
      if (k == 0) goal = far;
      else if (k == per_source - 1) goal = free_cells[static_cast<std::size_t>(rng.below(static_cast<int>(free_cells.size())))];
      else goal = reach[static_cast<std::size_t>(rng.below(static_cast<int>(reach.size())))];
      search_result ba;
      check_cell_query(db, nm.map, og, nm.name, src, goal, dist[static_cast<std::size_t>(goal.y * w + goal.x)], ctx, fails,
                       true, &ba);
      ++queries;
      if (corner_paths && ba.found()) {
        const int b = nm.map.block();
        for (std::size_t k = 0; k + 1 < ba.path.size(); ++k) {
          const point p = ba.path[k], q = ba.path[k + 1];
          if (p.x / b != q.x / b && p.y / b != q.y / b) {
            ++*corner_paths;
            break;
          }
        }
      }
    }
  }
  return queries;
}

// ----------------------------------------------------------------------------- generated maps, cells

struct cell_case {
  rule movement;
  int block;
  int maps;
  std::string label;
};

void PrintTo(const cell_case& c, std::ostream* os) { *os << c.label; }

class GeneratedCells : public ::testing::TestWithParam<cell_case> {};

TEST_P(GeneratedCells, BlockAStarIsOptimalAndLegal) {
  const cell_case& c = GetParam();
  const lddb::database& db = db_for(c.movement, c.block);
  failures fails;
  lddb::search_context ctx;
  int queries = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < c.maps; ++i) {
    const named_map nm = generated_map(i, c.block);
    queries += check_cell_map(db, nm, 5, 5, static_cast<std::uint64_t>(i) * 31 + 7, fails, ctx);
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("[ info     ] %s b=%d: %d maps, %d queries, %.2f s\n", rule_text(c.movement).c_str(), c.block, c.maps,
              queries, secs);
  EXPECT_GE(queries, 20 * c.maps);
  EXPECT_EQ(fails.count(), 0);
}

TEST_P(GeneratedCells, DiagonalsThroughBlockCorners) {
  const cell_case& c = GetParam();
  const lddb::database& db = db_for(c.movement, c.block);
  failures fails;
  lddb::search_context ctx;
  int queries = 0, corner_paths = 0;
  for (int orientation = 0; orientation < 8; ++orientation)
    for (int thick : {1, 2, 3})
      for (int offset = 0; offset < c.block; ++offset) {
        const int w = 6 * c.block + 1 + offset, h = 6 * c.block + 3;
        const named_map nm = diagonal_band_map(w, h, offset, thick, orientation, c.block);
        queries += check_cell_map(db, nm, 3, 4, static_cast<std::uint64_t>(orientation * 100 + thick * 10 + offset), fails, ctx,
                                  &corner_paths);
      }
  // Corner squeezes in random clutter: dense random maps where many optimal paths must
  // take a diagonal between two blocks that only touch at a corner.
  for (int i = 0; i < 20; ++i) {
    const int w = 4 * c.block + 3 + i % 5, h = 5 * c.block + 1 + i % 3;
    const int percent = 30 + i;
    const named_map nm{"make_random_map(" + std::to_string(w) + "," + std::to_string(h) + "," + std::to_string(percent) +
                           "," + std::to_string(500 + i) + ",b=" + std::to_string(c.block) + ")",
                       lddb::make_random_map(w, h, percent, 500 + static_cast<std::uint64_t>(i), c.block)};
    queries += check_cell_map(db, nm, 6, 6, static_cast<std::uint64_t>(i), fails, ctx, &corner_paths);
  }
  std::printf("[ info     ] %s b=%d: %d queries, %d optimal paths step diagonally across a block corner\n",
              rule_text(c.movement).c_str(), c.block, queries, corner_paths);
  EXPECT_GT(queries, 0);
  // The test is only worth its name if many optimal paths cross block corners (fewer at
  // b = 5, whose blocks have fewer corners on the same maps).
  if (c.movement.kind == lddb::rule_kind::octile) {
    EXPECT_GT(corner_paths, queries / (c.block <= 4 ? 10 : 12));
  }
  EXPECT_EQ(fails.count(), 0);
}

std::vector<cell_case> cell_cases() {
  const rule osf = rule::octile(lddb::corner_cutting::one_side_free);
  const rule all = rule::octile(lddb::corner_cutting::allowed);
  return {
      {rule::tile(), 4, 210, "tile_b4"},       {rule::octile(), 4, 210, "octile_b4"},
      {osf, 4, 210, "octile_one_side_free_b4"}, {all, 4, 210, "octile_corners_allowed_b4"},
      {rule::tile(), 3, 60, "tile_b3"},         {rule::octile(), 3, 60, "octile_b3"},
      {osf, 3, 60, "octile_one_side_free_b3"},  {all, 3, 60, "octile_corners_allowed_b3"},
      {rule::tile(), 2, 60, "tile_b2"},         {rule::octile(), 2, 60, "octile_b2"},
      {osf, 2, 60, "octile_one_side_free_b2"},  {all, 2, 60, "octile_corners_allowed_b2"},
      // b = 5, the size worth generating for octile (docs/block-size.md): about a minute to
      // generate, once per process.
      {rule::octile(), 5, 60, "octile_b5"},
  };
}

INSTANTIATE_TEST_SUITE_P(Rules, GeneratedCells, ::testing::ValuesIn(cell_cases()),
                         [](const ::testing::TestParamInfo<cell_case>& i) { return i.param.label; });

// Thin diagonal walls (cells with (x + y) % period == phase) split the map for every rule
// but corners=allowed, whose diagonals squeeze between the wall's cells, at every offset
// against the block grid. Block A* and A* must match the oracle on both sides of that line.
TEST(BlockAStar, CornersAllowedSqueezesThroughDiagonalWalls) {
  failures fails;
  lddb::search_context ctx;
  int crossed = 0;
  for (int b : {2, 3, 4})
    for (int phase = 0; phase < b; ++phase) {
      const int period = 2 * b + 1, w = 5 * b + 2, h = 4 * b + 3;
      const std::string name = "diagonal_walls(" + std::to_string(w) + "," + std::to_string(h) + ",period=" +
                               std::to_string(period) + ",phase=" + std::to_string(phase) + ",b=" + std::to_string(b) + ")";
      for (const rule& r : {rule::octile(lddb::corner_cutting::allowed), rule::octile(lddb::corner_cutting::one_side_free)}) {
        grid_map map(w, h, b);
        for (int y = 0; y < h; ++y)
          for (int x = 0; x < w; ++x)
            if ((x + y) % period == phase + 1) map.set_blocked(x, y, true);
        const oracle::grid og = to_oracle(map);
        // Neighbouring cells have sums one apart, so one of the last two is off the walls.
        const point s{0, 0}, t{map.blocked(w - 1, h - 1) ? w - 2 : w - 1, h - 1};
        ASSERT_FALSE(map.blocked(s.x, s.y) || map.blocked(t.x, t.y)) << name;
        const double want = cell_dijkstra(r, og, s)[static_cast<std::size_t>(t.y * w + t.x)];
        if (r.corners == lddb::corner_cutting::allowed) {
          EXPECT_LT(want, kInf) << name << ": the oracle finds no way through the walls";
          crossed += want < kInf;
        } else {
          EXPECT_EQ(want, kInf) << name << ": the walls should hold for " << r.name();
        }
        check_cell_query(db_for(r, b), map, og, name, s, t, want, ctx, fails);
      }
    }
  EXPECT_EQ(crossed, 2 + 3 + 4);
  EXPECT_EQ(fails.count(), 0);
}

// ----------------------------------------------------------------------------- any-angle

struct vertex_case {
  rule movement;
  int block;
  int maps;
  double max_mean_excess;  // bound on mean(Block A*) / mean(optimum) - 1
  std::string label;
};

void PrintTo(const vertex_case& c, std::ostream* os) { *os << c.label; }

class GeneratedVertices : public ::testing::TestWithParam<vertex_case> {};

// Small maps (at most 40 x 40) for the visibility-graph oracle.
named_map small_map(int i, int b) {
  test_rng rng(static_cast<std::uint64_t>(i) + 77);
  constexpr int kSides[] = {13, 17, 19, 23, 25, 29, 31, 35, 37, 11, 7, 39};
  const int w = kSides[rng.below(static_cast<int>(std::size(kSides)))];
  const int h = kSides[rng.below(static_cast<int>(std::size(kSides)))];
  const std::uint64_t seed = static_cast<std::uint64_t>(i) * 104729 + 3;
  const std::string dims = std::to_string(w) + "," + std::to_string(h);
  switch (i % 3) {
    case 0: {
      const int percent = rng.below(41);
      return {"make_random_map(" + dims + "," + std::to_string(percent) + "," + std::to_string(seed) + ",b=" +
                  std::to_string(b) + ")",
              lddb::make_random_map(w, h, percent, seed, b)};
    }
    case 1: {
      const int room = 2 + rng.below(5);
      return {"make_rooms_map(" + dims + "," + std::to_string(room) + "," + std::to_string(seed) + ",b=" +
                  std::to_string(b) + ")",
              lddb::make_rooms_map(w, h, room, seed, b)};
    }
    default: {
      const int corridor = 1 + rng.below(3);
      return {"make_maze_map(" + dims + "," + std::to_string(corridor) + "," + std::to_string(seed) + ",b=" +
                  std::to_string(b) + ")",
              lddb::make_maze_map(w, h, corridor, seed, b)};
    }
  }
}

TEST_P(GeneratedVertices, NearOptimalLegalPaths) {
  const vertex_case& c = GetParam();
  const lddb::database& db = db_for(c.movement, c.block);
  const rule& r = db.movement();
  const rule octile = rule::octile();
  const lddb::search_options opt(lddb::default_heuristic(r));
  failures fails;
  lddb::search_context ctx;
  double sum_ba = 0, sum_opt = 0, worst_ratio = 1;
  std::string worst;
  int found = 0, queries = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < c.maps; ++i) {
    const named_map nm = small_map(i, c.block);
    const oracle::grid og = to_oracle(nm.map);
    visibility_oracle vis(r, og);
    const int w = nm.map.width(), h = nm.map.height();
    std::vector<point> free_cells, usable;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        if (!nm.map.blocked(x, y)) free_cells.push_back({x, y});
    for (int y = 0; y <= h; ++y)
      for (int x = 0; x <= w; ++x)
        if (oracle::vertex_ok(og, point{x, y})) usable.push_back({x, y});
    if (free_cells.empty()) continue;
    test_rng rng(static_cast<std::uint64_t>(i) * 13 + 5);
    for (int q = 0; q < 12; ++q) {
      // Mostly top-left corners of free cells (so the octile optimum bounds the length);
      // every fourth query between any usable vertices (the map's right and bottom edges too).
      const bool cells = q % 4 != 3;
      point s, t;
      if (cells) {
        s = free_cells[static_cast<std::size_t>(rng.below(static_cast<int>(free_cells.size())))];
        t = free_cells[static_cast<std::size_t>(rng.below(static_cast<int>(free_cells.size())))];
      } else {
        s = usable[static_cast<std::size_t>(rng.below(static_cast<int>(usable.size())))];
        t = usable[static_cast<std::size_t>(rng.below(static_cast<int>(usable.size())))];
      }
      ++queries;
      const double best = vis.distance(s, t);
      const double oct = cells ? cell_dijkstra(octile, og, s)[static_cast<std::size_t>(t.y * w + t.x)] : kInf;
      const search_result ba = lddb::block_astar(db, nm.map, s, t, opt, ctx);
      std::string problem;
      if (!oracle::endpoint_ok(r, og, s) || !oracle::endpoint_ok(r, og, t)) {
        // A double corner whose own cell is blocked is no start or goal (docs/rules.md).
        const search_status want = !oracle::endpoint_ok(r, og, s) ? search_status::invalid_start : search_status::invalid_goal;
        if (ba.status != want) problem = std::string("expected ") + lddb::search_status_name(want);
      } else if (best == kInf) {
        if (ba.status != search_status::no_path) problem = "expected no_path";
      } else {
        problem = path_problem(r, og, s, t, ba);
        if (problem.empty() && ba.length < best - 1e-9) problem = "shorter than the any-angle optimum";
        if (problem.empty() && cells && ba.length > oct + 1e-9) problem = "longer than the octile optimum";
        if (cells && best > oct + 1e-9) problem += " (oracles disagree: visibility > octile)";
      }
      if (!problem.empty()) {
        fails.add(where(nm.name, r, s, t) + ": " + problem + "\n  block_astar: " + result_text(ba) +
                  "\n  any-angle optimum (visibility graph): " + num(best) + "\n  octile optimum: " + num(oct) +
                  "\n  block_astar path: " + path_text(ba.path));
        continue;
      }
      if (best < kInf) {
        ++found;
        sum_ba += ba.length;
        sum_opt += best;
        if (best > 0 && ba.length / best > worst_ratio) {
          worst_ratio = ba.length / best;
          worst = where(nm.name, r, s, t) + " " + num(ba.length) + " vs " + num(best);
        }
      }
    }
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double excess = sum_opt > 0 ? sum_ba / sum_opt - 1 : 0;
  std::printf("[ info     ] %s b=%d: %d maps, %d queries (%d connected), mean length %.4f%% above the optimum; "
              "worst %.4f (%s); %.2f s\n",
              rule_text(r).c_str(), c.block, c.maps, queries, found, 100 * excess, worst_ratio, worst.c_str(), secs);
  EXPECT_EQ(fails.count(), 0);
  EXPECT_GT(found, c.maps * 5);
  EXPECT_LE(excess, c.max_mean_excess) << "Block A*'s mean any-angle length " << sum_ba / found << " is more than "
                                       << 100 * c.max_mean_excess << "% above the optimal mean " << sum_opt / found
                                       << "; worst query: " << worst;
}

std::vector<vertex_case> vertex_cases() {
  return {
      // Block A* crosses block sides only at vertices: under 1% longer on average with 4x4
      // and 3x3 blocks; 2x2 blocks put a boundary on every other grid line (for example
      // (13,3)->(15,2) must bend at x = 14: 1+sqrt(2) against sqrt(5)), so they get 2%.
      {rule::any_angle(), 4, 120, 0.01, "any_angle_b4"},
      {rule::any_angle(), 3, 60, 0.01, "any_angle_b3"},
      {rule::any_angle(), 2, 60, 0.02, "any_angle_b2"},
      {rule::any_angle(lddb::squeezing::allowed), 4, 60, 0.01, "any_angle_squeeze_b4"},
  };
}

INSTANTIATE_TEST_SUITE_P(Rules, GeneratedVertices, ::testing::ValuesIn(vertex_cases()),
                         [](const ::testing::TestParamInfo<vertex_case>& i) { return i.param.label; });

// Open squares (search_diagnostics::open_squares, on by default) against the paper's fixed
// blocks on the same queries. A square only adds straight segments and drops the vertices
// inside it, so its paths are never longer (up to the rounding of stored lengths), always
// legal by the independent checker, and open ground takes fewer expansions.
TEST(OpenSquares, NeverLongerThanFixedBlocksAndFewerExpansionsOnOpenGround) {
  struct map_case {
    std::string name;
    std::function<grid_map(int)> make;
    bool open;  // mostly open ground: squares must cut the expansions
  };
  const std::vector<map_case> maps = {
      {"empty 61x47", [](int b) { return grid_map(61, 47, b); }, true},
      {"make_rooms_map(70,54,16,3)", [](int b) { return lddb::make_rooms_map(70, 54, 16, 3, b); }, true},
      {"make_random_map(53,41,10,8)", [](int b) { return lddb::make_random_map(53, 41, 10, 8, b); }, false},
      {"make_maze_map(45,45,5,2)", [](int b) { return lddb::make_maze_map(45, 45, 5, 2, b); }, false},
  };
  const std::vector<std::pair<rule, int>> rules = {
      {rule::any_angle(), 4}, {rule::any_angle(), 3}, {rule::any_angle(), 2}, {rule::any_angle(lddb::squeezing::allowed), 4}};
  for (const auto& [movement, b] : rules) {
    const lddb::database& db = db_for(movement, b);
    // The searches' own paths: smoothing either one could make it the shorter.
    lddb::search_options squares(lddb::default_heuristic(movement));
    squares.smooth = false;
    lddb::search_options fixed = squares;
    fixed.diagnostics.open_squares = false;
    lddb::search_context ctx;
    for (const map_case& mc : maps) {
      const grid_map map = mc.make(b);
      const oracle::grid og = to_oracle(map);
      lddb_test::rng rng{static_cast<std::uint64_t>(b) * 101 + mc.name.size()};
      std::uint64_t expanded_fixed = 0, expanded_squares = 0;
      double length_fixed = 0, length_squares = 0;
      for (int q = 0; q < 40; ++q) {
        const point s = lddb_test::random_free_cell(rng, map), t = lddb_test::random_free_cell(rng, map);
        const search_result a = lddb::block_astar(db, map, s, t, fixed, ctx);
        const search_result c = lddb::block_astar(db, map, s, t, squares, ctx);
        const std::string at = where(mc.name + " b=" + std::to_string(b), movement, s, t);
        ASSERT_EQ(a.status, c.status) << at;
        if (!c.found()) continue;
        const std::string problem = path_problem(movement, og, s, t, c);
        EXPECT_EQ(problem, "") << at << "\n  open squares: " << result_text(c) << "\n  path: " << path_text(c.path);
        EXPECT_LE(c.length, a.length + 1e-3 * static_cast<double>(a.path.size() + 2))
            << at << "\n  open squares: " << result_text(c) << "\n  fixed blocks: " << result_text(a);
        expanded_fixed += a.stats.expanded;
        expanded_squares += c.stats.expanded;
        length_fixed += a.length;
        length_squares += c.length;
      }
      const std::string label = mc.name + " " + rule_text(movement) + " b=" + std::to_string(b);
      EXPECT_LE(length_squares, length_fixed + 1e-6) << label;
      if (mc.open) {
        EXPECT_LT(expanded_squares, expanded_fixed) << label;
        EXPECT_LT(length_squares, length_fixed) << label;
      }
    }
  }
}

// The AVX2 min-plus rows against the portable loops: the same answers, to the path point
// and the expansion count, for every block size whose rows they take (any-angle), and no
// change for the cell rules, which always run the portable loops.
TEST(VectorKernels, SameAnswersAsThePortableLoops) {
  if (!lddb::vector_kernels_available()) GTEST_SKIP() << "this CPU has no AVX2: only the portable loops run here";
  const std::vector<std::function<grid_map(int)>> maps = {
      [](int b) { return grid_map(61, 47, b); },
      [](int b) { return lddb::make_rooms_map(70, 54, 16, 3, b); },
      [](int b) { return lddb::make_random_map(53, 41, 25, 8, b); },
      [](int b) { return lddb::make_maze_map(45, 45, 5, 2, b); },
  };
  const std::vector<std::pair<rule, int>> rules = {
      {rule::tile(), 4},      {rule::octile(), 4},    {rule::octile(), 3}, {rule::tile(), 2},
      {rule::any_angle(), 4}, {rule::any_angle(), 3}, {rule::any_angle(), 2}, {rule::any_angle(lddb::squeezing::allowed), 4}};
  int compared = 0;
  for (const auto& [movement, b] : rules) {
    const lddb::database& db = db_for(movement, b);
    const lddb::search_options vector(lddb::default_heuristic(movement));
    lddb::search_options portable(lddb::default_heuristic(movement));
    portable.diagnostics.vector_kernels = false;
    lddb::search_context ctx;
    for (std::size_t i = 0; i < maps.size(); ++i) {
      const grid_map map = maps[i](b);
      lddb_test::rng rng{static_cast<std::uint64_t>(b) * 31 + i};
      for (int q = 0; q < 30; ++q) {
        const point s = lddb_test::random_free_cell(rng, map), t = lddb_test::random_free_cell(rng, map);
        const search_result a = lddb::block_astar(db, map, s, t, vector, ctx);
        const search_result c = lddb::block_astar(db, map, s, t, portable, ctx);
        const std::string at = where("map " + std::to_string(i) + " b=" + std::to_string(b), movement, s, t);
        ASSERT_EQ(a.status, c.status) << at;
        EXPECT_EQ(a.cost, c.cost) << at;
        EXPECT_EQ(a.stats.expanded, c.stats.expanded) << at;
        EXPECT_EQ(a.stats.generated, c.stats.generated) << at;
        EXPECT_EQ(path_text(a.path), path_text(c.path)) << at;
        ++compared;
      }
    }
  }
  EXPECT_EQ(compared, 8 * 4 * 30);
}

// The visibility-graph oracle itself, against oracle::least_cost over every vertex.
TEST(VisibilityOracle, AgreesWithTheFullVertexOracle) {
  failures fails;
  int compared = 0;
  for (const rule& r : {rule::any_angle(), rule::any_angle(lddb::squeezing::allowed)})
    for (int i = 0; i < 40; ++i) {
      test_rng rng(static_cast<std::uint64_t>(i) + 4242);
      const int w = 3 + rng.below(9), h = 3 + rng.below(9);
      const int percent = rng.below(45);
      const grid_map m = lddb::make_random_map(w, h, percent, static_cast<std::uint64_t>(i), 4);
      const oracle::grid og = to_oracle(m);
      visibility_oracle vis(r, og);
      for (int q = 0; q < 12; ++q) {
        const point s{rng.below(w + 1), rng.below(h + 1)}, t{rng.below(w + 1), rng.below(h + 1)};
        const double a = vis.distance(s, t), b = oracle::least_cost(r, og, s, t);
        ++compared;
        if (!(a == b || close(a, b, 1e-12)))
          fails.add("make_random_map(" + std::to_string(w) + "," + std::to_string(h) + "," + std::to_string(percent) +
                    "," + std::to_string(i) + ") " + rule_text(r) + " " + pt(s) + "->" + pt(t) + ": visibility oracle " +
                    num(a) + ", full oracle " + num(b));
      }
    }
  EXPECT_GT(compared, 900);
  EXPECT_EQ(fails.count(), 0);
}

// ----------------------------------------------------------------------------- dynamic maps

TEST(BlockAStar, DynamicMapsMatchFreshMaps) {
  failures fails;
  int found = 0, not_found = 0;
  const std::vector<rule> rules = {rule::tile(), rule::octile(), rule::octile(lddb::corner_cutting::one_side_free),
                                   rule::octile(lddb::corner_cutting::allowed), rule::any_angle()};
  for (const rule& r : rules)
    for (int b : {2, 3, 4}) {
      const lddb::database& db = db_for(r, b);
      const lddb::search_options opt(lddb::default_heuristic(r));
      const std::uint64_t seed = 90 + static_cast<std::uint64_t>(b);
      grid_map map = lddb::make_random_map(61, 47, 22, seed, b);
      const std::string base = "make_random_map(61,47,22," + std::to_string(seed) + ",b=" + std::to_string(b) + ")";
      lddb::search_context warm;
      test_rng rng(seed * 3 + static_cast<std::uint64_t>(r.kind));
      std::vector<point> last_path;
      int changes = 0;
      for (int round = 0; round < 40; ++round) {
        // Change the map: random cells, and one on the last path (to cut it).
        const int k = 1 + rng.below(12);
        for (int j = 0; j < k; ++j) {
          map.set_blocked(rng.below(61), rng.below(47), rng.below(100) < 55);
          ++changes;
        }
        if (!last_path.empty()) {
          const point p = last_path[last_path.size() / 2];
          if (map.in_bounds(p.x, p.y)) map.set_blocked(p.x, p.y, true);
        }
        const grid_map fresh = copy_cells(map, b);
        if (!(fresh == map)) fails.add(base + ": after set_blocked the map differs from one built from its cells");
        const oracle::grid og = to_oracle(map);
        for (int q = 0; q < 3; ++q) {
          const int ex = r.on_vertices() ? 1 : 0;
          point s{rng.below(61 + ex), rng.below(47 + ex)}, t{rng.below(61 + ex), rng.below(47 + ex)};
          // Prefer usable points, so most queries find paths.
          for (int tries = 0; tries < 20 && (r.on_vertices() ? !oracle::vertex_ok(og, s) : og.blocked(s.x, s.y)); ++tries)
            s = {rng.below(61 + ex), rng.below(47 + ex)};
          for (int tries = 0; tries < 20 && (r.on_vertices() ? !oracle::vertex_ok(og, t) : og.blocked(t.x, t.y)); ++tries)
            t = {rng.below(61 + ex), rng.below(47 + ex)};
          const search_result a = lddb::block_astar(db, map, s, t, opt, warm);
          lddb::search_context cold;
          const search_result f = lddb::block_astar(db, fresh, s, t, opt, cold);
          const std::string w = base + " after " + std::to_string(changes) + " changes, " + where("", r, s, t);
          if (a.status != f.status || a.path != f.path || a.cost != f.cost || a.length != f.length) {
            fails.add(w + ": the changed map and a fresh map disagree\n  changed: " + result_text(a) +
                      "\n  fresh: " + result_text(f) + "\n  changed path: " + path_text(a.path) +
                      "\n  fresh path: " + path_text(f.path));
            continue;
          }
          ++(a.found() ? found : not_found);
          if (!oracle::endpoint_ok(r, og, s) || !oracle::endpoint_ok(r, og, t)) {
            if (a.status != (!oracle::endpoint_ok(r, og, s) ? search_status::invalid_start : search_status::invalid_goal))
              fails.add(w + ": an endpoint on a double corner whose own cell is blocked, not refused: " + result_text(a));
          } else if (a.found()) {
            last_path = a.path;
            const std::string problem = path_problem(r, og, s, t, a);
            if (!problem.empty()) fails.add(w + ": " + problem + "\n  " + result_text(a) + "\n  path: " + path_text(a.path));
            if (!r.on_vertices()) {
              const double best = cell_dijkstra(r, og, s)[static_cast<std::size_t>(t.y * 61 + t.x)];
              if (!close(a.length, best, 1e-9)) fails.add(w + ": length " + num(a.length) + ", oracle " + num(best));
            }
          } else if (!r.on_vertices() && a.status == search_status::no_path) {
            const double best = cell_dijkstra(r, og, s)[static_cast<std::size_t>(t.y * 61 + t.x)];
            if (best < kInf) fails.add(w + ": no_path but the oracle finds " + num(best));
          }
        }
      }
    }
  std::printf("[ info     ] %d queries on changing maps: %d found, %d not\n", found + not_found, found, not_found);
  EXPECT_GT(found, 300);
  EXPECT_EQ(fails.count(), 0);
}

// ----------------------------------------------------------------------------- invalid queries

// Every status other than found comes with a message, and nothing crashes.
void expect_status(const lddb::database& db, const grid_map& map, point s, point t, search_status want,
                   const std::string& what) {
  lddb::search_context ctx;
  search_result r;
  try {
    r = lddb::block_astar(db, map, s, t, lddb::search_options(lddb::default_heuristic(db.movement())), ctx);
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << ": block_astar threw " << e.what();
    return;
  }
  EXPECT_EQ(r.status, want) << what << " (" << rule_text(db.movement()) << " b=" << db.info().block << ", query " << pt(s)
                            << " -> " << pt(t) << "): got " << result_text(r) << ", wanted "
                            << lddb::search_status_name(want);
  if (want != search_status::found) {
    EXPECT_FALSE(r.message.empty()) << what << ": status " << lddb::search_status_name(r.status) << " without a message";
    EXPECT_TRUE(r.path.empty()) << what << ": a path with status " << lddb::search_status_name(r.status);
  }
}

TEST(BlockAStar, InvalidAndDegenerateQueries) {
  for (const rule& r : {rule::tile(), rule::octile(), rule::octile(lddb::corner_cutting::one_side_free), rule::any_angle()})
    for (int b : {2, 3, 4}) {
      const lddb::database& db = db_for(r, b);
      const bool v = r.on_vertices();
      // A 23 x 17 map: free, with a closed box around (18..20, 12..14) and a blocked cell.
      grid_map map(23, 17, b);
      for (int x = 17; x <= 21; ++x)
        for (int y = 11; y <= 15; ++y)
          if (x == 17 || x == 21 || y == 11 || y == 15) map.set_blocked(x, y, true);
      map.set_blocked(5, 5, true);
      const point inside_box{19, 13};  // cell inside the box; for vertices, vertex (19,13) is inside too
      // Start == goal.
      {
        lddb::search_context ctx;
        const search_result res = lddb::block_astar(db, map, {3, 4}, {3, 4}, lddb::search_options(lddb::default_heuristic(r)), ctx);
        EXPECT_EQ(res.status, search_status::found) << rule_text(r) << " b=" << b << " start == goal: " << result_text(res);
        EXPECT_EQ(res.path, (std::vector<point>{point{3, 4}})) << rule_text(r) << " b=" << b << " start == goal: " << path_text(res.path);
        EXPECT_EQ(res.length, 0.0);
        EXPECT_EQ(res.cost, 0u);
      }
      // Blocked start / goal (cells), an unusable vertex (vertices): surround vertex (9,9).
      if (!v) {
        expect_status(db, map, {5, 5}, {1, 1}, search_status::invalid_start, "blocked start");
        expect_status(db, map, {1, 1}, {5, 5}, search_status::invalid_goal, "blocked goal");
        expect_status(db, map, {17, 11}, {17, 11}, search_status::invalid_start, "blocked start == goal");
      } else {
        grid_map m2 = map;
        for (int x = 8; x <= 9; ++x)
          for (int y = 8; y <= 9; ++y) m2.set_blocked(x, y, true);
        expect_status(db, m2, {9, 9}, {1, 1}, search_status::invalid_start, "unusable start vertex");
        expect_status(db, m2, {1, 1}, {9, 9}, search_status::invalid_goal, "unusable goal vertex");
        expect_status(db, map, {5, 5}, {1, 1}, search_status::found, "vertex at a blocked cell's corner");
        expect_status(db, map, {23, 17}, {0, 0}, search_status::found, "map corner vertices");
      }
      // Off the map (vertices run to width and height inclusive).
      const int ow = v ? 24 : 23, oh = v ? 18 : 17;
      for (const point off : {point{-1, 3}, point{3, -1}, point{ow, 3}, point{3, oh}, point{-100000, 7},
                              point{1 << 30, 2}, point{2, -(1 << 30)}}) {
        expect_status(db, map, off, {1, 1}, search_status::invalid_start, "off-map start " + pt(off));
        expect_status(db, map, {1, 1}, off, search_status::invalid_goal, "off-map goal " + pt(off));
      }
      // Unreachable goal (inside the closed box), both ways.
      expect_status(db, map, {1, 1}, inside_box, search_status::no_path, "goal inside a closed box");
      expect_status(db, map, inside_box, {1, 1}, search_status::no_path, "start inside a closed box");
      // A map whose block size is not the database's.
      for (int other : {2, 3, 4, 5}) {
        if (other == b) continue;
        const grid_map wrong = copy_cells(map, other);
        expect_status(db, wrong, {1, 1}, {3, 3}, search_status::rule_mismatch,
                      "map block size " + std::to_string(other) + " with a b=" + std::to_string(b) + " database");
        // The message says how to fix it, and the fix works.
        lddb::search_context ctx;
        const lddb::search_options opt(lddb::default_heuristic(db.movement()));
        const search_result r = lddb::block_astar(db, wrong, {1, 1}, {3, 3}, opt, ctx);
        const std::string side = std::to_string(b) + "x" + std::to_string(b);
        EXPECT_NE(r.message.find("cut the map into " + side + " blocks"), std::string::npos) << r.message;
        grid_map fixed = wrong;
        fixed.set_block_size(b);
        EXPECT_NE(lddb::block_astar(db, fixed, {1, 1}, {3, 3}, opt, ctx).status, search_status::rule_mismatch);
      }
    }
}

// A database answers for its own rule: a tile database on a map gives tile paths (no
// diagonal), an octile database octile paths, whatever the map file's header says.
TEST(BlockAStar, TheDatabaseRuleDecides) {
  const grid_map map = lddb::make_random_map(37, 29, 15, 5, 4);
  const oracle::grid og = to_oracle(map);
  failures fails;
  lddb::search_context ctx;
  const lddb::database& tile = db_for(rule::tile(), 4);
  const lddb::database& oct = db_for(rule::octile(), 4);
  EXPECT_EQ(tile.movement(), rule::tile());
  std::string msg;
  EXPECT_EQ(tile.check_rule(rule::octile(), &msg), lddb::status::rule_mismatch);
  EXPECT_FALSE(msg.empty());
  point s{0, 0}, t{36, 28};
  while (map.blocked(s.x, s.y)) ++s.x;
  while (map.blocked(t.x, t.y)) --t.x;
  const std::size_t ti = static_cast<std::size_t>(t.y * 37 + t.x);
  const double tile_best = cell_dijkstra(rule::tile(), og, s)[ti], oct_best = cell_dijkstra(rule::octile(), og, s)[ti];
  ASSERT_LT(tile_best, kInf);
  EXPECT_GT(tile_best, oct_best + 1) << "the query should tell the two rules apart";
  check_cell_query(tile, map, og, "make_random_map(37,29,15,5)", s, t, tile_best, ctx, fails);
  check_cell_query(oct, map, og, "make_random_map(37,29,15,5)", s, t, oct_best, ctx, fails);
  EXPECT_EQ(fails.count(), 0);
}

// ----------------------------------------------------------------------------- determinism

TEST(BlockAStar, DeterministicAndWarmContextsDoNotGrow) {
  for (const rule& r : {rule::tile(), rule::octile(), rule::any_angle()})
    for (int b : {2, 3, 4}) {
      const lddb::database& db = db_for(r, b);
      // The searches' own paths: two raw paths of one cost may smooth to different ones.
      lddb::search_options opt(lddb::default_heuristic(r)), zero(lddb::heuristic_kind::zero);
      opt.smooth = zero.smooth = false;
      const grid_map map = lddb::make_rooms_map(83, 71, 6, 11, b);
      const std::string name = "make_rooms_map(83,71,6,11,b=" + std::to_string(b) + ") " + rule_text(r);
      test_rng rng(static_cast<std::uint64_t>(b) * 10 + static_cast<std::uint64_t>(r.kind));
      lddb::search_context one, two;
      for (int q = 0; q < 10; ++q) {
        const point s = random_free_cell(rng, map), t = random_free_cell(rng, map);
        const search_result a = lddb::block_astar(db, map, s, t, opt, one);
        const std::size_t bytes = one.memory_bytes();
        EXPECT_GT(bytes, 0u);
        for (int rep = 0; rep < 4; ++rep) {
          const search_result again = lddb::block_astar(db, map, s, t, opt, one);
          EXPECT_EQ(again.status, a.status) << name << " " << pt(s) << "->" << pt(t);
          EXPECT_EQ(again.path, a.path) << name << " " << pt(s) << "->" << pt(t) << ": repeated query, another path";
          EXPECT_EQ(again.cost, a.cost) << name << " " << pt(s) << "->" << pt(t);
          EXPECT_EQ(again.length, a.length) << name << " " << pt(s) << "->" << pt(t);
          EXPECT_EQ(again.stats.expanded, a.stats.expanded) << name << " " << pt(s) << "->" << pt(t);
          EXPECT_EQ(one.memory_bytes(), bytes) << name << " " << pt(s) << "->" << pt(t)
                                               << ": a warm context grew on a repeated query";
        }
        const search_result b2 = lddb::block_astar(db, map, s, t, opt, two);
        EXPECT_EQ(b2.path, a.path) << name << " " << pt(s) << "->" << pt(t) << ": another context, another path";
        EXPECT_EQ(b2.cost, a.cost) << name << " " << pt(s) << "->" << pt(t);
        lddb::search_context fresh;
        const search_result c = lddb::block_astar(db, map, s, t, opt, fresh);
        EXPECT_EQ(c.path, a.path) << name << " " << pt(s) << "->" << pt(t) << ": a fresh context, another path";
        // The zero heuristic explores more but must find the same optimal cost.
        const search_result z = lddb::block_astar(db, map, s, t, zero, fresh);
        EXPECT_EQ(z.status, a.status) << name << " " << pt(s) << "->" << pt(t) << " zero heuristic";
        // Cells: exact. Any-angle tables store costs rounded to 2^-11, against which the
        // Euclidean heuristic can be inadmissible by a rounding step a block, so the costs
        // may differ by that much (the lengths agree).
        const double slack = r.on_vertices() ? std::ldexp(1.0, -11) * static_cast<double>(a.path.size() + 2) : 0.0;
        EXPECT_LE(std::abs(lddb::cost_to_double(z.cost) - lddb::cost_to_double(a.cost)), slack)
            << name << " " << pt(s) << "->" << pt(t) << " zero heuristic: " << result_text(z) << " vs " << result_text(a);
        if (!r.on_vertices()) {
          EXPECT_EQ(z.cost, a.cost) << name << " " << pt(s) << "->" << pt(t);
        }
        // record_expanded fills the list and changes nothing else.
        lddb::search_options rec = opt;
        rec.diagnostics.record_expanded = true;
        const search_result e = lddb::block_astar(db, map, s, t, rec, fresh);
        EXPECT_EQ(e.path, a.path) << name << " " << pt(s) << "->" << pt(t) << " with record_expanded";
        EXPECT_EQ(e.expanded.empty(), e.stats.expanded == 0) << name << " " << pt(s) << "->" << pt(t) << ": "
                                                             << e.expanded.size() << " recorded, " << e.stats.expanded
                                                             << " expanded";
      }
    }
}

// ----------------------------------------------------------------------------- budgets and slices

// A query run in slices of 1, 3 or 17 expansions ends exactly as the one-shot query
// (status, path, cost, expansions), whatever the slice.
TEST(BlockAStar, SlicedQueriesEqualOneShot) {
  for (const rule& r : {rule::tile(), rule::octile(), rule::any_angle()}) {
    const lddb::database& db = db_for(r, 4);
    const lddb::search_options opt(lddb::default_heuristic(r));
    const grid_map map = lddb::make_rooms_map(77, 59, 7, 21, 4);
    const std::string name = "make_rooms_map(77,59,7,21,b=4) " + rule_text(r);
    test_rng rng(static_cast<std::uint64_t>(r.kind) + 99);
    lddb::search_context whole, sliced;
    int multi_slice = 0;
    for (int q = 0; q < 12; ++q) {
      const point s = random_free_cell(rng, map), t = random_free_cell(rng, map);
      const search_result a = lddb::block_astar(db, map, s, t, opt, whole);
      for (std::uint64_t slice : {1u, 3u, 17u}) {
        search_result b = lddb::block_astar_begin(db, map, s, t, opt, sliced);
        int calls = 0;
        while (b.status == search_status::in_progress) {
          b = lddb::block_astar_continue(sliced, slice);
          ASSERT_LE(b.stats.expanded, (++calls) * slice) << name << " " << pt(s) << "->" << pt(t) << ": a slice overran";
          ASSERT_LT(calls, 1000000) << name;
        }
        multi_slice += calls > 1;
        EXPECT_EQ(b.status, a.status) << name << " " << pt(s) << "->" << pt(t) << " slice " << slice;
        EXPECT_EQ(b.path, a.path) << name << " " << pt(s) << "->" << pt(t) << " slice " << slice;
        EXPECT_EQ(b.cost, a.cost) << name << " " << pt(s) << "->" << pt(t) << " slice " << slice;
        EXPECT_EQ(b.stats.expanded, a.stats.expanded) << name << " " << pt(s) << "->" << pt(t) << " slice " << slice;
        // The query is over: continuing it is refused, not a crash.
        const search_result after = lddb::block_astar_continue(sliced, slice);
        EXPECT_EQ(after.status, search_status::no_path) << name;
        EXPECT_NE(after.message.find("no query in progress"), std::string::npos) << after.message;
      }
    }
    EXPECT_GT(multi_slice, 10) << name << ": the queries were too short to test slicing";
  }
  lddb::search_context never_begun;
  EXPECT_EQ(lddb::block_astar_continue(never_begun, 5).status, search_status::no_path);
}

// Checks a result stopped by its budget: it expanded exactly the budget; its path is a
// legal path from the start (checked independently) whose cost is `cost`; and its least
// open g + h is at least that cost and, for cells, at most the optimum.
void check_budget_result(const rule& r, const grid_map& map, const oracle::grid& og, const std::string& name,
                         point s, const search_result& cut, const search_result& full, std::uint64_t budget) {
  ASSERT_EQ(cut.status, search_status::budget_exhausted) << name << " budget " << budget << ": " << result_text(cut);
  EXPECT_EQ(cut.stats.expanded, budget) << name;
  EXPECT_NE(cut.message.find("budget"), std::string::npos) << cut.message;
  ASSERT_FALSE(cut.path.empty()) << name;
  EXPECT_EQ(cut.path.front(), s) << name;
  // Cells: searches exact under an admissible heuristic, so the least open f bounds the
  // optimum. Any-angle: no such promise (Theta* and Block A* are not exact).
  if (!r.on_vertices()) {
    EXPECT_LE(cut.lower_bound, full.cost) << name << ": the bound is above the optimum";
  }
  EXPECT_GE(cut.lower_bound, cut.cost) << name << ": g + h below g";
  if (cut.path.size() > 1) {
    const oracle::path_report rep = oracle::check_path(r, og, std::span<const point>(cut.path));
    EXPECT_TRUE(rep.ok) << name << " budget " << budget << ": partial path " << rep.why << " " << path_text(cut.path);
    EXPECT_NEAR(rep.length, lddb::cost_to_double(cut.cost), r.on_vertices() ? 1e-3 * (1.0 + rep.length) : 1e-6)
        << name << " budget " << budget << ": the partial path's cost";
  }
  (void)map;
}

TEST(Budgets, EverySearchStopsAtItsBudgetWithALegalPartialPath) {
  for (const rule& r : {rule::tile(), rule::octile(), rule::any_angle()}) {
    const lddb::database& db = db_for(r, 4);
    const grid_map map = lddb::make_random_map(71, 53, 20, 31, 4);
    const oracle::grid og = to_oracle(map);
    const std::string name = "make_random_map(71,53,20,31,b=4) " + rule_text(r);
    test_rng rng(static_cast<std::uint64_t>(r.kind) + 7);
    lddb::search_context ctx;
    int cut_queries = 0;
    for (int q = 0; q < 15; ++q) {
      const point s = random_free_cell(rng, map), t = random_free_cell(rng, map);
      using search_fn = std::function<search_result(const lddb::search_options&)>;
      std::vector<std::pair<std::string, search_fn>> searches = {
          {"block_astar", [&](const lddb::search_options& o) { return lddb::block_astar(db, map, s, t, o, ctx); }}};
      if (r.on_vertices()) {
        searches.push_back({"theta_star", [&](const lddb::search_options& o) { return lddb::theta_star(r, map, s, t, o, ctx); }});
        searches.push_back({"lazy_theta_star", [&](const lddb::search_options& o) { return lddb::lazy_theta_star(r, map, s, t, o, ctx); }});
      } else {
        searches.push_back({"astar", [&](const lddb::search_options& o) { return lddb::astar(r, map, s, t, o, ctx); }});
      }
      for (const auto& [algo, run] : searches) {
        lddb::search_options opt(lddb::default_heuristic(r));
        const search_result full = run(opt);
        if (full.status != search_status::found || full.stats.expanded < 4) continue;
        const std::string what = name + " " + algo + " " + pt(s) + "->" + pt(t);
        // A budget the search needs all of is no cut; one short of it is.
        opt.max_expansions = full.stats.expanded;
        const search_result enough = run(opt);
        EXPECT_EQ(enough.status, search_status::found) << what;
        EXPECT_EQ(enough.path, full.path) << what;
        for (std::uint64_t budget : {std::uint64_t{1}, full.stats.expanded / 2, full.stats.expanded - 1}) {
          opt.max_expansions = budget;
          const search_result cut = run(opt);
          // Block A* may end before its last expansion when the goal's cost is known.
          if (cut.status == search_status::found && algo == "block_astar") continue;
          check_budget_result(r, map, og, what, s, cut, full, budget);
          ++cut_queries;
        }
      }
    }
    EXPECT_GT(cut_queries, 30) << name;
  }
}

// A budget caps a sliced query as a whole, however it is sliced.
TEST(Budgets, ABudgetCapsAllSlicesTogether) {
  const rule r = rule::octile();
  const lddb::database& db = db_for(r, 4);
  const grid_map map = lddb::make_rooms_map(90, 90, 9, 3, 4);
  const point s{1, 1}, t{88, 87};
  ASSERT_FALSE(map.blocked(s.x, s.y));
  ASSERT_FALSE(map.blocked(t.x, t.y));
  lddb::search_context ctx;
  lddb::search_options opt(lddb::default_heuristic(r));
  const search_result full = lddb::block_astar(db, map, s, t, opt, ctx);
  ASSERT_EQ(full.status, search_status::found);
  ASSERT_GT(full.stats.expanded, 40u);
  opt.max_expansions = 25;
  search_result b = lddb::block_astar_begin(db, map, s, t, opt, ctx);
  int calls = 0;
  while (b.status == search_status::in_progress) {
    b = lddb::block_astar_continue(ctx, 4);
    ++calls;
  }
  EXPECT_EQ(calls, 7);  // 6 slices of 4, then the 25th expansion and the end
  check_budget_result(r, map, to_oracle(map), "make_rooms_map(90,90,9,3,b=4) octile", s, b, full, 25);
}

// ----------------------------------------------------------------------------- shipped databases

// The databases shipped in lddb/ answer every query exactly as freshly generated ones do
// (same status, path, cost), so the checks above, made with generated databases, hold for
// the shipped files too.
TEST(BlockAStar, ShippedDatabasesAgreeWithGenerated) {
  const fs::path dir = fs::path(LDDB_SOURCE_DIR) / "lddb";
  std::string missing;
  failures fails;
  for (const rule& r : {rule::tile(), rule::octile(), rule::any_angle()}) {
    const fs::path file = dir / (r.name() + "-4.lddb");
    std::error_code ec;
    if (!fs::exists(file, ec)) {
      missing += " " + file.string();
      continue;
    }
    auto shipped = lddb::database::open(file.string());
    ASSERT_TRUE(shipped) << file.string() << ": " << shipped.message;
    ASSERT_EQ(shipped.db->movement(), r) << file.string();
    ASSERT_EQ(shipped.db->info().block, 4) << file.string();
    const lddb::database& fresh = db_for(r, 4);
    const lddb::search_options opt(lddb::default_heuristic(r));
    lddb::search_context c1, c2;
    for (int i = 0; i < 30; ++i) {
      const named_map nm = generated_map(i, 4);
      test_rng rng(static_cast<std::uint64_t>(i) + 99);
      const int ex = r.on_vertices() ? 1 : 0;
      for (int q = 0; q < 10; ++q) {
        const point s{rng.below(nm.map.width() + ex), rng.below(nm.map.height() + ex)};
        const point t{rng.below(nm.map.width() + ex), rng.below(nm.map.height() + ex)};
        const search_result a = lddb::block_astar(*shipped.db, nm.map, s, t, opt, c1);
        const search_result b = lddb::block_astar(fresh, nm.map, s, t, opt, c2);
        if (a.status != b.status || a.path != b.path || a.cost != b.cost)
          fails.add(where(nm.name, r, s, t) + ": " + file.string() + " gives " + result_text(a) +
                    ", a generated database " + result_text(b) + "\n  shipped path: " + path_text(a.path) +
                    "\n  generated path: " + path_text(b.path));
      }
    }
  }
  EXPECT_EQ(fails.count(), 0);
  if (!missing.empty()) GTEST_SKIP() << "missing shipped databases, not checked:" << missing;
}

// ----------------------------------------------------------------------------- map generators

// FNV-1a over the cells, row by row (1 = blocked), with the size.
std::uint64_t cell_hash(const grid_map& m) {
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&](std::uint64_t v) {
    h ^= v;
    h *= 1099511628211ull;
  };
  mix(static_cast<std::uint64_t>(m.width()));
  mix(static_cast<std::uint64_t>(m.height()));
  for (int y = 0; y < m.height(); ++y)
    for (int x = 0; x < m.width(); ++x) mix(m.blocked(x, y) ? 1 : 0);
  return h;
}

// Free cells reachable from the first free cell with 4-way moves, and all free cells.
std::pair<int, int> tile_components(const grid_map& m) {
  const int w = m.width(), h = m.height();
  std::vector<char> seen(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), 0);
  int total = 0, reached = 0;
  std::vector<point> stack;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      if (!m.blocked(x, y)) {
        ++total;
        if (stack.empty() && reached == 0) {
          stack.push_back({x, y});
          seen[static_cast<std::size_t>(y * w + x)] = 1;
          while (!stack.empty()) {
            const point p = stack.back();
            stack.pop_back();
            ++reached;
            for (const auto& d : lddb::kSteps) {
              if (d[0] != 0 && d[1] != 0) continue;
              const int nx = p.x + d[0], ny = p.y + d[1];
              if (m.blocked(nx, ny) || seen[static_cast<std::size_t>(ny * w + nx)]) continue;
              seen[static_cast<std::size_t>(ny * w + nx)] = 1;
              stack.push_back({nx, ny});
            }
          }
        }
      }
  return {reached, total};
}

TEST(MapGenerators, SameSeedSameMapEverywhere) {
  // Golden hashes: the generators use their own integer PRNG, so these hold on every
  // platform; a change here changes every generated map (and the benchmarks built on them).
  EXPECT_EQ(cell_hash(lddb::make_random_map(37, 53, 25, 1)), 0x684C9AC67A821D3Bull) << "make_random_map(37,53,25,1)";
  EXPECT_EQ(cell_hash(lddb::make_rooms_map(101, 67, 8, 2)), 0x867E887075B5B6D2ull) << "make_rooms_map(101,67,8,2)";
  EXPECT_EQ(cell_hash(lddb::make_maze_map(101, 67, 3, 3)), 0x814A1E6A4A3E1D9Bull) << "make_maze_map(101,67,3,3)";
  for (int b : {2, 3, 4, 5}) {
    const grid_map a = lddb::make_maze_map(45, 31, 2, 9, b), c = lddb::make_maze_map(45, 31, 2, 9, b);
    EXPECT_TRUE(a == c);
    EXPECT_EQ(a.block(), b);
    EXPECT_EQ(cell_hash(a), cell_hash(lddb::make_maze_map(45, 31, 2, 9, 4))) << "the block size must not change the cells";
  }
  EXPECT_NE(cell_hash(lddb::make_random_map(37, 53, 25, 1)), cell_hash(lddb::make_random_map(37, 53, 25, 2)));
  EXPECT_THROW(lddb::make_random_map(10, 10, 101, 1), std::invalid_argument);
  EXPECT_THROW(lddb::make_random_map(10, 10, -1, 1), std::invalid_argument);
  EXPECT_THROW(lddb::make_rooms_map(10, 10, 0, 1), std::invalid_argument);
  EXPECT_THROW(lddb::make_maze_map(10, 10, 0, 1), std::invalid_argument);
  EXPECT_THROW(lddb::make_maze_map(0, 10, 1, 1), std::invalid_argument);
  EXPECT_THROW(lddb::make_random_map(10, 10, 10, 1, 6), std::invalid_argument);
}

TEST(MapGenerators, RandomMapsHaveTheirObstacleRatio) {
  for (int percent : {0, 1, 10, 25, 40, 50, 99, 100}) {
    const grid_map m = lddb::make_random_map(301, 299, percent, static_cast<std::uint64_t>(percent) + 5);
    const double ratio = static_cast<double>(m.blocked_count()) / (301.0 * 299.0);
    EXPECT_NEAR(ratio, percent / 100.0, 0.01) << "make_random_map(301,299," << percent << ")";
  }
}

TEST(MapGenerators, RoomsAndMazesAreConnected) {
  for (int i = 0; i < 60; ++i) {
    test_rng rng(static_cast<std::uint64_t>(i) + 31337);
    const int w = 1 + rng.below(90), h = 1 + rng.below(90), size = 1 + rng.below(9);
    const grid_map rooms = lddb::make_rooms_map(w, h, size, static_cast<std::uint64_t>(i));
    const auto [rr, rt] = tile_components(rooms);
    EXPECT_EQ(rr, rt) << "make_rooms_map(" << w << "," << h << "," << size << "," << i << ") is not connected";
    EXPECT_GT(rt, 0);
    const grid_map maze = lddb::make_maze_map(w, h, size, static_cast<std::uint64_t>(i));
    const auto [mr, mt] = tile_components(maze);
    EXPECT_EQ(mr, mt) << "make_maze_map(" << w << "," << h << "," << size << "," << i << ") is not connected";
    // A perfect maze: the lattice cells and the openings between them form a tree. Count
    // the lattice cells and the opened wall segments (runs of free cells on wall lines).
    const int period = size + 1;
    const int nx = (w + size) / period, ny = (h + size) / period;
    int openings = 0;
    for (int j = 0; j < ny; ++j)
      for (int k = 0; k < nx; ++k) {
        const int x0 = k * period, y0 = j * period;
        if (k + 1 < nx && !maze.blocked(x0 + size, y0)) ++openings;  // east wall, first row of the cell
        if (j + 1 < ny && !maze.blocked(x0, y0 + size)) ++openings;  // south wall, first column
      }
    EXPECT_EQ(openings, nx * ny - 1) << "make_maze_map(" << w << "," << h << "," << size << "," << i
                                     << ") is not a spanning tree of its " << nx << "x" << ny << " lattice";
    // Corridors are `size` wide: every wall line cell is blocked unless it is in an opening.
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        if (x % period == size && y % period == size) {
          EXPECT_TRUE(maze.blocked(x, y)) << "wall crossing (" << x << "," << y << ") open in make_maze_map(" << w
                                          << "," << h << "," << size << "," << i << ")";
        }
  }
}

// ----------------------------------------------------------------------------- benchmark scenarios

// Every query of every scenario file, under both rules, is about 30 CPU-minutes (the
// 512x512 mazes alone have 30,000 queries, the longest near 40 ms each for the two
// searches), far over the suite's budget. So by default each file is one test that runs a
// stride sample spread over all its buckets (short and long queries alike): about
// kSampledOctile queries a file for octile, kSampledTile for tile. With the environment
// variable LDDB_ALL_SCENARIO_QUERIES=1 set when the tests are listed and run, every query
// runs, in shards of kShardQueries queries, each its own test so ctest -j spreads them.
// Unoptimised (Debug) builds search about 6 times slower, so they sample 4 times fewer.
constexpr int kShardQueries = 2000;
#if defined(__OPTIMIZE__)
constexpr int kSampledOctile = 400;
constexpr int kSampledTile = 200;
#else
constexpr int kSampledOctile = 100;
constexpr int kSampledTile = 50;
#endif

bool all_scenario_queries() {
  const char* v = std::getenv("LDDB_ALL_SCENARIO_QUERIES");
  return v != nullptr && *v != '\0' && std::string(v) != "0";
}

struct scen_shard {
  std::string file;  // empty: the maps folder is absent
  rule movement;
  int first = 0, last = 0;  // query indices [first, last)
  std::string label;
};

fs::path maps_dir() { return lddb_test::benchmark_maps_dir(); }

std::vector<scen_shard> scenario_shards() {
  std::vector<scen_shard> out;
  std::vector<fs::path> files;
  std::error_code ec;
  if (fs::is_directory(maps_dir(), ec))
    for (const auto& e : fs::recursive_directory_iterator(maps_dir(), ec)) {
      const std::string name = e.path().filename().string();
      if (e.is_regular_file() && name.size() > 5 && name.substr(name.size() - 5) == ".scen") files.push_back(e.path());
    }
  std::sort(files.begin(), files.end());
  for (const rule& r : {rule::octile(), rule::tile()}) {
    if (files.empty()) {
      out.push_back({"", r, 0, 0, (r.kind == lddb::rule_kind::tile ? std::string("tile") : std::string("octile")) + "_maps_absent"});
      continue;
    }
    for (const fs::path& f : files) {
      std::ifstream in(f);
      std::string line;
      int lines = 0;
      while (std::getline(in, line))
        if (line.find_first_not_of(" \t\r") != std::string::npos) ++lines;
      const int queries = std::max(0, lines - 1);
      std::string stem = f.filename().string();
      stem = stem.substr(0, stem.find('.'));
      for (char& ch : stem)
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
      const int shards = all_scenario_queries() ? std::max(1, (queries + kShardQueries - 1) / kShardQueries) : 1;
      for (int k = 0; k < shards; ++k) {
        const int first = static_cast<int>(static_cast<long long>(queries) * k / shards);
        const int last = static_cast<int>(static_cast<long long>(queries) * (k + 1) / shards);
        out.push_back({f.string(), r, first, last,
                       (r.kind == lddb::rule_kind::tile ? std::string("tile_") : std::string("octile_")) +
                           f.parent_path().filename().string() + "_" + stem + "_" + std::to_string(k)});
      }
    }
  }
  return out;
}

// How far the written optimum may be from the exact one. Version 1.0 files round to 2
// decimals; version 1 files print 6 significant digits with %g (which drops trailing
// zeros: 106.740115 is written "106.74"), so v is within half a unit of its 6th
// significant digit. On top of that the files' lengths were held in single precision:
// 176.7645020 (exact) is written "176.764", not "176.765", because the nearest float lies
// below the half. So allow 1e-6 of the length more (a float is good to 6e-8). Never
// tighter than 1e-4. Exactness itself is checked against A*, to 1e-9.
double written_tolerance(double written, bool version_1_0) {
  const double float_error = 1e-6 * std::abs(written);
  if (version_1_0) return 0.005 + float_error;
  if (written <= 0) return 1e-4;
  const double e = std::floor(std::log10(written));
  return std::max(1e-4, 0.5 * std::pow(10.0, e - 5)) + float_error;
}

void PrintTo(const scen_shard& s, std::ostream* os) { *os << s.label; }

class Scenarios : public ::testing::TestWithParam<scen_shard> {};

TEST_P(Scenarios, BlockAStarMatchesAStarAndTheFile) {
  const scen_shard& sh = GetParam();
  if (sh.file.empty()) LDDB_MAPS_MISSING("missing the benchmark maps folder " << maps_dir().string() << "; nothing to check");
  std::string error;
  const auto scen = lddb::load_scenario(sh.file, &error);
  ASSERT_TRUE(scen) << "cannot load " << sh.file << ": " << error;
  ASSERT_LE(static_cast<std::size_t>(sh.last), scen->queries.size()) << sh.file;
  std::string version_line;
  {
    std::ifstream in(sh.file);
    std::getline(in, version_line);
  }
  const bool v10 = version_line.find("1.0") != std::string::npos;
  const lddb::database& db = db_for(sh.movement, 4);
  const rule& r = db.movement();
  const lddb::search_options opt(lddb::default_heuristic(r));
  std::map<std::string, std::pair<grid_map, oracle::grid>> maps;
  failures fails;
  lddb::search_context ctx;
  double ba_secs = 0, as_secs = 0;
  std::uint64_t ba_expanded = 0, as_expanded = 0;
  const int total = static_cast<int>(scen->queries.size());
  const int sample = r.kind == lddb::rule_kind::tile ? kSampledTile : kSampledOctile;
  const int stride = all_scenario_queries() ? 1 : std::max(1, total / sample);
  int n = 0;
  for (int i = sh.first; i < sh.last; ++i) {
    if (i % stride != 0) continue;
    ++n;
    const lddb::scenario_query& q = scen->queries[static_cast<std::size_t>(i)];
    const std::string map_path = scen->resolve_map(q);
    auto it = maps.find(map_path);
    if (it == maps.end()) {
      auto m = lddb::load_map(map_path, &error, 4);
      ASSERT_TRUE(m) << "cannot load " << map_path << " (from " << sh.file << " line " << q.line << "): " << error;
      oracle::grid og = to_oracle(*m);
      it = maps.emplace(map_path, std::make_pair(std::move(*m), std::move(og))).first;
    }
    const grid_map& map = it->second.first;
    const oracle::grid& og = it->second.second;
    const auto t0 = std::chrono::steady_clock::now();
    const search_result ba = lddb::block_astar(db, map, q.start, q.goal, opt, ctx);
    const auto t1 = std::chrono::steady_clock::now();
    const search_result as = lddb::astar(r, map, q.start, q.goal, opt, ctx);
    const auto t2 = std::chrono::steady_clock::now();
    ba_secs += std::chrono::duration<double>(t1 - t0).count();
    as_secs += std::chrono::duration<double>(t2 - t1).count();
    ba_expanded += ba.stats.expanded;
    as_expanded += as.stats.expanded;
    std::string problem = path_problem(r, og, q.start, q.goal, ba);
    if (problem.empty() && (!as.found() || !close(ba.length, as.length, 1e-9))) problem = "length differs from A*";
    if (problem.empty() && ba.cost != as.cost) problem = "fixed-point cost differs from A*'s";
    double tol = 0;
    if (problem.empty() && r.kind == lddb::rule_kind::octile) {
      tol = written_tolerance(q.optimal, v10);
      if (std::abs(ba.length - q.optimal) > tol) problem = "length differs from the file's optimum";
    }
    if (!problem.empty())
      fails.add(sh.file + " line " + std::to_string(q.line) + " (" + map_path + ") rule " + rule_text(r) + " query " +
                pt(q.start) + " -> " + pt(q.goal) + ": " + problem + "\n  block_astar: " + result_text(ba) +
                "\n  astar: " + result_text(as) + "\n  file: " + num(q.optimal) + " (tolerance " + num(tol) + ")" +
                "\n  block_astar path: " + path_text(ba.path) + "\n  astar path: " + path_text(as.path));
  }
  std::printf("[ info     ] %s: %d of %d queries (stride %d); Block A* %.3f ms/query (%.1f expanded), A* %.3f ms/query (%.1f expanded)\n",
              sh.label.c_str(), n, sh.last - sh.first, stride, 1000 * ba_secs / std::max(1, n), static_cast<double>(ba_expanded) / std::max(1, n),
              1000 * as_secs / std::max(1, n), static_cast<double>(as_expanded) / std::max(1, n));
  EXPECT_EQ(fails.count(), 0);
}

INSTANTIATE_TEST_SUITE_P(Maps, Scenarios, ::testing::ValuesIn(scenario_shards()),
                         [](const ::testing::TestParamInfo<scen_shard>& i) { return i.param.label; });

}  // namespace
