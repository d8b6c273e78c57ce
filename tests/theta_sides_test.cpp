// theta_sides_test: Theta*, Lazy Theta* and any-angle smoothing (runtime/src/search/cells/theta.cpp,
// smooth.cpp) under both any-angle rules, against oracles written here.
//
// The default rule (squeeze forbidden) lets a path visit a double corner (a vertex with
// two diagonally opposite cells blocked, the other two free) but never pass there from one
// free cell's side to the other, and puts a start or goal on a double corner on the side of
// its own (south-east) cell (docs/rules.md). The sides are decided here apart from
// lddb/segments.hpp, by another method: a segment from vertex v toward q is on the side of
// the free cell around v whose closed quadrant at v holds the direction q - v. On top of
// the path checker (lddb/checker.hpp, via tests/oracle.hpp) every path's sides are checked
// with that, and the least costs are Dijkstra over (vertex, side) states:
//   visibility   the exact any-angle optimum: nodes are the corners of blocked cells and
//                the query points (where shortest polylines bend)
//   eight        the optimum over unit segments between vertices, a bound Basic Theta*
//                never exceeds
// Under squeeze=allowed every vertex has one side and both are the plain optima.
//
//   ThetaSides.OraclesAgree     the optima here are oracle::least_cost's
//   ThetaSides.RandomMaps       legal, side-keeping, >= the optimum, found iff reachable
//   ThetaSides.HandDrawn        double corners drawn by hand, lengths worked by hand
//   ThetaSides.Endpoints        a start or goal on a double corner whose own cell is blocked
//   ThetaSides.EveryHeuristic   every heuristic, a map that changes under a warm context
//   ThetaSides.Smoothing        dense side-keeping inputs stay side-keeping and get no longer
//   ThetaSides.Budget           a search cut short returns a side-keeping partial path
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <queue>
#include <span>
#include <string>
#include <vector>

#include "lddb/cost.hpp"
#include "lddb/grid.hpp"
#include "lddb/point.hpp"
#include "lddb/rule.hpp"
#include "lddb/search.hpp"
#include "oracle.hpp"
#include "test_map.hpp"
#include "test_rng.hpp"

namespace {

using lddb::heuristic_kind;
using lddb::point;
using lddb::rule;
using lddb::search_context;
using lddb::search_options;
using lddb::search_result;
using lddb::search_status;

constexpr double kEps = 1e-6;  // fixed-point costs (2^-32 a unit) against double lengths
const auto pt = lddb::checker::point_text;
const rule kStrict = rule::any_angle(), kSqueeze = rule::any_angle(lddb::squeezing::allowed);

using lddb_test::from_rows;
using lddb_test::test_map;

// A w x h map, each side from lo to hi, each cell blocked with a chance of pct_lo to pct_hi
// percent (one draw per map).
test_map random_map(lddb_test::rng& rng, int lo, int hi, int pct_lo, int pct_hi) {
  const int w = lo + rng.below(hi - lo + 1), h = lo + rng.below(hi - lo + 1), pct = pct_lo + rng.below(pct_hi - pct_lo + 1);
  test_map t = lddb_test::empty_map(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      if (rng.below(100) < pct) t.set_blocked(x, y, true);
  return t;
}

point random_vertex(lddb_test::rng& rng, const test_map& t) {
  point p;
  do p = {rng.below(t.grid.width() + 1), rng.below(t.grid.height() + 1)};
  while (!oracle::vertex_ok(t.grid, p));
  return p;
}

// ----------------------------------------------------------------------------- sides

constexpr point kNoCell{-1 << 30, -1 << 30};

bool double_corner(const oracle::grid& g, point v) {
  const bool nw = g.blocked(v.x - 1, v.y - 1), ne = g.blocked(v.x, v.y - 1);
  const bool sw = g.blocked(v.x - 1, v.y), se = g.blocked(v.x, v.y);
  return nw + ne + sw + se == 2 && nw == se;
}

// The free cell around double corner v whose closed quadrant at v holds the direction of
// the segment toward q; kNoCell when none does (the segment is not legal).
point side_cell(const oracle::grid& g, point v, point q) {
  const int dx = q.x - v.x, dy = q.y - v.y;
  for (const point c : {point{v.x - 1, v.y - 1}, point{v.x, v.y - 1}, point{v.x - 1, v.y}, point{v.x, v.y}}) {
    const bool east = c.x == v.x, south = c.y == v.y;
    if (!g.blocked(c.x, c.y) && (east ? dx >= 0 : dx <= 0) && (south ? dy >= 0 : dy <= 0)) return c;
  }
  return kNoCell;
}

// Why a polyline breaks the sides of the default rule ("" when it keeps them): it must
// leave its start and reach its goal beside their own cells where they are double
// corners, and keep to one side at every double corner it turns at.
std::string side_error(const rule& r, const oracle::grid& g, const std::vector<point>& path) {
  if (r.squeeze == lddb::squeezing::allowed || path.size() < 2) return "";
  const std::size_t n = path.size();
  if (double_corner(g, path[0]) && !(side_cell(g, path[0], path[1]) == path[0]))
    return "leaves start " + pt(path[0]) + " beside " + pt(side_cell(g, path[0], path[1]));
  if (double_corner(g, path[n - 1]) && !(side_cell(g, path[n - 1], path[n - 2]) == path[n - 1]))
    return "reaches goal " + pt(path[n - 1]) + " beside " + pt(side_cell(g, path[n - 1], path[n - 2]));
  for (std::size_t i = 1; i + 1 < n; ++i)
    if (double_corner(g, path[i]) && !(side_cell(g, path[i], path[i - 1]) == side_cell(g, path[i], path[i + 1])))
      return "crosses double corner " + pt(path[i]) + " (waypoint " + std::to_string(i) + ")";
  return "";
}

// Least costs over (vertex, side) states: node i of `nodes` joined to the nodes that
// `sees(i)` lists by legal segments. Under the default rule a double corner has a state per
// free cell, a segment leaves a state only beside its cell and reaches the state beside the
// cell it arrives in; the start and goal are the states of their own cells. NaN when a start
// or goal may not stand where it is, +inf when the goal is unreachable.
struct sided_dijkstra {
  rule r;
  const oracle::grid* g;
  std::vector<point> nodes;

  int side(point v, point toward) const {
    if (r.squeeze == lddb::squeezing::allowed || !double_corner(*g, v)) return 0;
    return side_cell(*g, v, toward).y == v.y ? 1 : 0;  // the cell below the vertex, or above
  }
  double least(std::size_t si, std::size_t gi, const std::function<std::vector<std::size_t>(std::size_t)>& sees,
               std::vector<point>* path = nullptr) const {
    const point s = nodes[si], t = nodes[gi];
    const bool strict = r.squeeze != lddb::squeezing::allowed;
    for (const point e : {s, t})
      if (strict && double_corner(*g, e) && g->blocked(e.x, e.y)) return std::nan("");
    const int s_side = strict && double_corner(*g, s) ? 1 : 0, t_side = strict && double_corner(*g, t) ? 1 : 0;
    std::vector<double> dist(nodes.size() * 2, oracle::kInf);
    std::vector<std::size_t> parent(nodes.size() * 2, SIZE_MAX);
    using item = std::pair<double, std::size_t>;
    std::priority_queue<item, std::vector<item>, std::greater<>> open;
    dist[si * 2 + s_side] = 0;
    open.push({0, si * 2 + s_side});
    while (!open.empty()) {
      const auto [d, u] = open.top();
      open.pop();
      if (d > dist[u]) continue;
      const std::size_t ui = u / 2;
      const point p = nodes[ui];
      if (u == gi * 2 + t_side) {
        if (path) {
          path->clear();
          for (std::size_t k = u; k != SIZE_MAX; k = parent[k]) path->insert(path->begin(), nodes[k / 2]);
        }
        return d;
      }
      for (const std::size_t j : sees(ui)) {
        const point q = nodes[j];
        if (side(p, q) != static_cast<int>(u % 2)) continue;
        const std::size_t v = j * 2 + static_cast<std::size_t>(side(q, p));
        const double nd = d + std::hypot(q.x - p.x, q.y - p.y);
        if (nd < dist[v]) {
          dist[v] = nd;
          parent[v] = u;
          open.push({nd, v});
        }
      }
    }
    return oracle::kInf;
  }
};

// The optimum over unit segments between the vertices of the whole map; `path` gets it.
double eight_neighbour(const rule& r, const oracle::grid& g, point s, point t, std::vector<point>* path = nullptr) {
  const int vw = g.width() + 1, vh = g.height() + 1;
  sided_dijkstra d{r, &g, {}};
  for (int y = 0; y < vh; ++y)
    for (int x = 0; x < vw; ++x) d.nodes.push_back({x, y});
  const auto id = [vw](point p) { return static_cast<std::size_t>(p.y * vw + p.x); };
  return d.least(id(s), id(t), [&](std::size_t i) {
    std::vector<std::size_t> out;
    const point p = d.nodes[i];
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const point q{p.x + dx, p.y + dy};
        if ((dx || dy) && q.x >= 0 && q.y >= 0 && q.x < vw && q.y < vh && oracle::segment_ok(r, g, p, q)) out.push_back(id(q));
      }
    return out;
  }, path);
}

// The exact optimum between any of `queries`' points, the visibility built once per map.
struct visibility {
  sided_dijkstra d;
  std::vector<std::vector<std::size_t>> sees;

  visibility(const rule& r, const oracle::grid& g, const std::vector<point>& queries) : d{r, &g, {}} {
    auto add = [&](point p) {
      if (oracle::vertex_ok(g, p) && std::find(d.nodes.begin(), d.nodes.end(), p) == d.nodes.end()) d.nodes.push_back(p);
    };
    for (const point& p : queries) add(p);
    for (int y = 0; y < g.height(); ++y)
      for (int x = 0; x < g.width(); ++x)
        if (g.blocked(x, y))
          for (int k = 0; k < 4; ++k) add(point{x + (k & 1), y + (k >> 1)});
    sees.resize(d.nodes.size());
    for (std::size_t i = 0; i < d.nodes.size(); ++i)
      for (std::size_t j = i + 1; j < d.nodes.size(); ++j)
        if (oracle::segment_ok(r, g, d.nodes[i], d.nodes[j])) {
          sees[i].push_back(j);
          sees[j].push_back(i);
        }
  }
  double least(point s, point t) const {
    const auto at = [&](point p) { return static_cast<std::size_t>(std::find(d.nodes.begin(), d.nodes.end(), p) - d.nodes.begin()); };
    return d.least(at(s), at(t), [&](std::size_t i) { return sees[i]; });
  }
};

// The searches' own paths (smooth = false), not the smoothed ones a game gets by default.
search_result run(bool lazy, const rule& r, const test_map& t, point s, point g, search_context& ctx,
                  heuristic_kind h = heuristic_kind::euclidean) {
  search_options o(h);
  o.smooth = false;
  return lazy ? lddb::lazy_theta_star(r, t.map, s, g, o, ctx) : lddb::theta_star(r, t.map, s, g, o, ctx);
}

// A found path: from s to g, legal, side-keeping, its cost and length its own, >= opt.
void expect_good_path(const rule& r, const test_map& t, point s, point g, const search_result& res, double opt,
                      const std::string& what) {
  ASSERT_EQ(res.status, search_status::found) << what << res.message;
  ASSERT_FALSE(res.path.empty()) << what;
  EXPECT_EQ(res.path.front(), s) << what;
  EXPECT_EQ(res.path.back(), g) << what;
  const oracle::path_report rep = oracle::check_path(r, t.grid, std::span<const point>(res.path));
  ASSERT_TRUE(rep.ok) << what << rep.why;
  EXPECT_EQ(side_error(r, t.grid, res.path), "") << what;
  EXPECT_NEAR(res.length, rep.length, 1e-9) << what;
  EXPECT_NEAR(lddb::cost_to_double(res.cost), res.length, kEps) << what;
  EXPECT_GE(res.length, opt - 1e-9) << what;
}

// A smoothed path: legal, side-keeping, same ends, no longer than its input, >= opt.
void expect_good_smoothing(const rule& r, const test_map& t, const std::vector<point>& in, double opt,
                           const std::string& what) {
  const std::vector<point> sm = lddb::smooth_path(r, t.map, in);
  const oracle::path_report rep = oracle::check_path(r, t.grid, std::span<const point>(sm));
  ASSERT_TRUE(rep.ok) << what << rep.why;
  EXPECT_EQ(side_error(r, t.grid, sm), "") << what;
  EXPECT_EQ(sm.front(), in.front()) << what;
  EXPECT_EQ(sm.back(), in.back()) << what;
  EXPECT_LE(rep.length, lddb::path_length(in) + 1e-9) << what;
  EXPECT_GE(rep.length, opt - 1e-9) << what;
  EXPECT_EQ(lddb::smooth_path(r, t.map, sm), sm) << what;  // idempotent
}

// ----------------------------------------------------------------------------- tests

// The oracles here agree with the test oracle's own least cost (oracle::least_cost, the
// visibility graph on every vertex, its sides from the path checker) on small maps.
TEST(ThetaSides, OraclesAgree) {
  lddb_test::rng rng{7};
  int compared = 0;
  for (int m = 0; m < 40; ++m) {
    const test_map t = random_map(rng, 3, 8, 20, 45);
    const point s = random_vertex(rng, t), g = random_vertex(rng, t);
    for (const rule& r : {kStrict, kSqueeze}) {
      const double want = oracle::least_cost(r, t.grid, s, g), vis = visibility(r, t.grid, {s, g}).least(s, g);
      const std::string what = oracle::rule_label(r) + " " + pt(s) + "->" + pt(g) + "\n" + t.describe();
      if (std::isnan(vis)) {
        EXPECT_EQ(want, oracle::kInf) << what;
        continue;
      }
      if (want == oracle::kInf) {
        EXPECT_EQ(vis, oracle::kInf) << what;
      } else {
        EXPECT_NEAR(vis, want, 1e-9) << what;
      }
      EXPECT_EQ(eight_neighbour(r, t.grid, s, g) == oracle::kInf, want == oracle::kInf) << what;
      ++compared;
    }
  }
  EXPECT_GT(compared, 60);
}

TEST(ThetaSides, RandomMaps) {
  lddb_test::rng rng{0x51de5};
  search_context ctx;
  int found = 0, unreachable = 0, refused = 0, corner_ends = 0, longer_than_eight[2] = {0, 0}, strict_only_cut = 0;
  double sum_len[2] = {0, 0}, sum_opt[2] = {0, 0};
  for (int m = 0; m < 60; ++m) {
    const test_map t = random_map(rng, 12, 24, 20, 40);
    std::vector<std::pair<point, point>> qs;
    std::vector<point> ends;
    for (int q = 0; q < 5; ++q) {
      qs.push_back({random_vertex(rng, t), random_vertex(rng, t)});
      ends.push_back(qs.back().first);
      ends.push_back(qs.back().second);
    }
    for (const rule& r : {kStrict, kSqueeze}) {
      const bool strict = r.squeeze == lddb::squeezing::forbidden;
      const visibility vis(r, t.grid, ends);
      for (const auto& [s, g] : qs) {
        const double opt = vis.least(s, g), eight = eight_neighbour(r, t.grid, s, g);
        const std::string what = oracle::rule_label(r) + " " + pt(s) + "->" + pt(g) + "\n" + t.describe();
        if (std::isnan(opt)) {  // a start or goal on a double corner whose own cell is blocked
          ASSERT_TRUE(strict) << what;
          for (bool lazy : {false, true}) {
            const search_result res = run(lazy, r, t, s, g, ctx);
            EXPECT_TRUE(res.status == search_status::invalid_start || res.status == search_status::invalid_goal) << what;
            EXPECT_NE(res.message.find("double corner"), std::string::npos) << what << res.message;
          }
          ++refused;
          continue;
        }
        ASSERT_EQ(opt == oracle::kInf, eight == oracle::kInf) << what;
        if (strict && opt == oracle::kInf && visibility(kSqueeze, t.grid, {s, g}).least(s, g) != oracle::kInf)
          ++strict_only_cut;
        for (bool lazy : {false, true}) {
          const std::string which = what + (lazy ? "lazy theta" : "theta");
          const search_result res = run(lazy, r, t, s, g, ctx);
          if (opt == oracle::kInf) {
            EXPECT_EQ(res.status, search_status::no_path) << which;
            ++unreachable;
            continue;
          }
          expect_good_path(r, t, s, g, res, opt, which);
          if (res.length > eight + 1e-7) ++longer_than_eight[lazy];
          if (strict && (double_corner(t.grid, s) || double_corner(t.grid, g))) ++corner_ends;
          sum_len[strict] += res.length;
          sum_opt[strict] += opt;
          ++found;
          expect_good_smoothing(r, t, res.path, opt, which + " smoothed");
        }
      }
    }
  }
  // Both outcomes, refused endpoints, paths from or to double corners, and goals that only
  // the default rule cuts off must all have been seen.
  EXPECT_GT(found, 400);
  EXPECT_GT(unreachable, 20);
  EXPECT_GT(refused, 2);
  EXPECT_GT(corner_ends, 5);
  EXPECT_GT(strict_only_cut, 5);
  EXPECT_EQ(longer_than_eight[0], 0);  // Basic Theta* never loses to the unit segments
  EXPECT_LE(longer_than_eight[1], found / 100);
  std::printf("%d found, %d unreachable (%d cut off only by the sides), %d refused, %d strict paths from or to double corners; "
              "mean length / optimum: strict %.5f, squeeze %.5f\n",
              found, unreachable, strict_only_cut, refused, corner_ends, sum_len[1] / sum_opt[1], sum_len[0] / sum_opt[0]);
}

// Vertex (2,1) of the first map is a double corner: cells (1,0) and (2,1) are blocked.
// Shortest paths never bend at a double corner (the side rule joins its two blocked cells
// into one obstacle, and the corner is a hollow of it), but they may start or end there.
TEST(ThetaSides, HandDrawn) {
  search_context ctx;
  const test_map d = from_rows({
      ".@..",
      "..@.",
      "....",
  });
  const test_map e = from_rows({
      "....",
      "..@.",
      ".@..",
      "....",
  });
  for (bool lazy : {false, true}) {
    // squeeze=allowed passes straight through it; the default rule may not even turn there
    // (from the south-west cell's side to the north-east one's): it goes round cell (2,1).
    const search_result a = run(lazy, kSqueeze, d, {1, 2}, {3, 0}, ctx);
    ASSERT_TRUE(a.found());
    EXPECT_EQ(a.path, (std::vector<point>{{1, 2}, {3, 0}}));
    const search_result f = run(lazy, kStrict, d, {1, 2}, {3, 0}, ctx);
    expect_good_path(kStrict, d, {1, 2}, {3, 0}, f, 4.0, "round");
    EXPECT_NEAR(f.length, 4.0, 1e-12);  // (1,2) -> (3,2) -> (3,0)
    expect_good_smoothing(kStrict, d, f.path, 4.0, "round smoothed");
    // Vertex (2,2) of the second map is a double corner whose own cell (2,2) is free: a
    // start there is on that cell's side and may not set off through cell (1,1) north-west
    // of it; it goes round a blocked cell, (2,2) -> (3,2) -> (3,1) -> (1,1) or its mirror.
    const search_result sq = run(lazy, kSqueeze, e, {2, 2}, {1, 1}, ctx);
    ASSERT_TRUE(sq.found());
    EXPECT_NEAR(sq.length, std::sqrt(2.0), 1e-12);
    EXPECT_NEAR(visibility(kStrict, e.grid, {{2, 2}, {1, 1}}).least({2, 2}, {1, 1}), 4.0, 1e-12);
    const search_result st = run(lazy, kStrict, e, {2, 2}, {1, 1}, ctx);
    expect_good_path(kStrict, e, {2, 2}, {1, 1}, st, 4.0, "start side");
    EXPECT_NEAR(st.length, 4.0, 1e-12);
    // A goal there is reached only from its own side: the same way back.
    const search_result back = run(lazy, kStrict, e, {1, 1}, {2, 2}, ctx);
    expect_good_path(kStrict, e, {1, 1}, {2, 2}, back, 4.0, "goal side");
    EXPECT_NEAR(back.length, 4.0, 1e-12);
    expect_good_smoothing(kStrict, e, st.path, 4.0, "start side smoothed");
    expect_good_smoothing(kStrict, e, back.path, 4.0, "goal side smoothed");
    // From its own side it is one step.
    const search_result near = run(lazy, kStrict, e, {3, 3}, {2, 2}, ctx);
    ASSERT_TRUE(near.found());
    EXPECT_EQ(near.path, (std::vector<point>{{3, 3}, {2, 2}}));
  }
}

// A start or goal on a double corner whose own (south-east) cell is blocked is refused
// under the default rule, like a blocked point; squeeze=allowed takes it.
TEST(ThetaSides, Endpoints) {
  search_context ctx;
  const test_map d = from_rows({
      ".@..",
      "..@.",
      "....",
  });
  for (bool lazy : {false, true}) {
    const search_result s = run(lazy, kStrict, d, {2, 1}, {0, 3}, ctx);
    EXPECT_EQ(s.status, search_status::invalid_start) << s.message;
    EXPECT_NE(s.message.find("(2,1)"), std::string::npos) << s.message;
    EXPECT_NE(s.message.find("double corner"), std::string::npos) << s.message;
    EXPECT_NE(s.message.find("blocked"), std::string::npos) << s.message;
    EXPECT_TRUE(s.path.empty());
    const search_result g = run(lazy, kStrict, d, {0, 3}, {2, 1}, ctx);
    EXPECT_EQ(g.status, search_status::invalid_goal) << g.message;
    EXPECT_NE(g.message.find("double corner"), std::string::npos) << g.message;
    const search_result same = run(lazy, kStrict, d, {2, 1}, {2, 1}, ctx);
    EXPECT_EQ(same.status, search_status::invalid_start) << same.message;
    for (const point other : {point{0, 3}, point{4, 0}}) {
      const search_result ok = run(lazy, kSqueeze, d, {2, 1}, other, ctx);
      expect_good_path(kSqueeze, d, {2, 1}, other, ok, visibility(kSqueeze, d.grid, {{2, 1}, other}).least({2, 1}, other),
                       "squeeze start");
    }
  }
}

// Every heuristic, admissible or not, finds what is reachable with a legal, side-keeping
// path; and a warm context forgets a map that changed under it.
TEST(ThetaSides, EveryHeuristic) {
  lddb_test::rng rng{2718};
  search_context ctx;
  test_map t = random_map(rng, 20, 20, 30, 30);
  int found = 0;
  for (int step = 0; step < 80; ++step) {
    for (int k = 0; k < 3; ++k) {
      const int x = rng.below(20), y = rng.below(20);
      t.set_blocked(x, y, !t.grid.blocked(x, y));
    }
    const point s = random_vertex(rng, t), g = random_vertex(rng, t);
    for (const rule& r : {kStrict, kSqueeze}) {
      const double eight = eight_neighbour(r, t.grid, s, g);
      for (heuristic_kind h : {heuristic_kind::zero, heuristic_kind::manhattan, heuristic_kind::octile, heuristic_kind::euclidean})
        for (bool lazy : {false, true}) {
          const std::string what = oracle::rule_label(r) + " " + pt(s) + "->" + pt(g) + " heuristic " +
                                   lddb::heuristic_name(h) + (lazy ? " lazy" : "") + "\n" + t.describe();
          const search_result res = run(lazy, r, t, s, g, ctx, h);
          if (!lddb::heuristic_admissible(h, r)) {  // Manhattan and octile overestimate segments
            EXPECT_EQ(res.status, search_status::invalid_option) << what;
            continue;
          }
          if (std::isnan(eight)) {
            EXPECT_TRUE(res.status == search_status::invalid_start || res.status == search_status::invalid_goal) << what;
            continue;
          }
          ASSERT_EQ(res.found(), eight != oracle::kInf) << what << res.message;
          if (!res.found()) continue;
          expect_good_path(r, t, s, g, res, 0, what);
          ++found;
        }
    }
  }
  EXPECT_GT(found, 300);
}

// Smoothing dense side-keeping paths (the unit-segment optimum's own, through every vertex
// it passes) keeps them side-keeping, never makes them longer, and keeps the ends.
TEST(ThetaSides, Smoothing) {
  lddb_test::rng rng{99};
  int smoothed = 0, shortened = 0;
  for (int m = 0; m < 50; ++m) {
    const test_map t = random_map(rng, 12, 24, 20, 40);
    for (int q = 0; q < 3; ++q) {
      const point s = random_vertex(rng, t), g = random_vertex(rng, t);
      for (const rule& r : {kStrict, kSqueeze}) {
        std::vector<point> dense;
        const double eight = eight_neighbour(r, t.grid, s, g, &dense);
        if (std::isnan(eight) || eight == oracle::kInf || s == g) continue;
        ASSERT_TRUE(oracle::check_path(r, t.grid, std::span<const point>(dense)).ok);
        ASSERT_EQ(side_error(r, t.grid, dense), "") << t.describe();
        const double opt = visibility(r, t.grid, {s, g}).least(s, g);
        expect_good_smoothing(r, t, dense, opt, oracle::rule_label(r) + " " + pt(s) + "->" + pt(g) + "\n" + t.describe());
        shortened += lddb::path_length(lddb::smooth_path(r, t.map, dense)) < eight - 1e-9;
        ++smoothed;
      }
    }
  }
  EXPECT_GT(smoothed, 120);
  EXPECT_GT(shortened, smoothed / 2);
}

// A search cut short by its expansion budget returns a partial path that is itself a
// legal path: it keeps the sides and ends where a new search could start from (a point on a
// double corner only on its own cell's side).
TEST(ThetaSides, Budget) {
  lddb_test::rng rng{77};
  search_context ctx;
  int partial = 0, corner_ends = 0;
  for (int m = 0; m < 300; ++m) {
    const test_map t = random_map(rng, 16, 24, 25, 40);
    const point s = random_vertex(rng, t), g = random_vertex(rng, t);
    for (bool lazy : {false, true}) {
      search_options o(heuristic_kind::euclidean);
      o.max_expansions = 1 + static_cast<std::uint64_t>(m % 8);
      const search_result res = lazy ? lddb::lazy_theta_star(kStrict, t.map, s, g, o, ctx)
                                     : lddb::theta_star(kStrict, t.map, s, g, o, ctx);
      if (res.status != search_status::budget_exhausted) continue;
      ASSERT_FALSE(res.path.empty());
      EXPECT_EQ(res.path.front(), s);
      const oracle::path_report rep = oracle::check_path(kStrict, t.grid, std::span<const point>(res.path));
      EXPECT_TRUE(rep.ok) << rep.why << t.describe();
      EXPECT_EQ(side_error(kStrict, t.grid, res.path), "") << t.describe();
      EXPECT_NEAR(lddb::cost_to_double(res.cost), rep.length, kEps) << t.describe();
      const point end = res.path.back();
      corner_ends += double_corner(t.grid, end) && !(end == s);
      ++partial;
    }
  }
  EXPECT_GT(partial, 200);
  EXPECT_GT(corner_ends, 0);  // some end on a double corner, on its own side
}

}  // namespace
