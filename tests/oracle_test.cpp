// oracle_test: the test oracle's any-angle searches (tests/oracle.hpp) against brute force.
//
//   OracleDense    oracle::least_cost on tiny random maps equals Floyd-Warshall over
//                  (vertex, free cell) states built from the sampled rule
//                  (tests/sampled_rule.hpp), under both any-angle rules
//   OracleHand     a double corner worked out by hand
//   OracleBlock    block_oracle's path check agrees with the path checker inside a block
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "lddb/checker.hpp"
#include "lddb/point.hpp"
#include "lddb/rule.hpp"
#include "oracle.hpp"
#include "sampled_rule.hpp"

namespace {

using lddb::point;
using oracle::kInf;

std::string pt(point p) { return lddb::checker::point_text(p); }

oracle::grid random_grid(std::mt19937_64& rng, int w, int h, int percent) {
  oracle::grid g(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) g.set_blocked(x, y, static_cast<int>(rng() % 100) < percent);
  return g;
}

// Least costs between all vertices of a small grid, by Floyd-Warshall over states (v, c):
// vertex v with the path beside free cell c around it. A segment joins the cells it is
// beside at its two ends (found by sampling); at a vertex the path may move between two
// free cells that share an edge, and under squeeze=allowed between any two. A start or
// goal stands beside its own cell (south-east of it) when that is free, and may not stand
// on a double corner whose own cell is blocked under the default rule.
class dense_costs {
 public:
  dense_costs(const lddb::rule& r, const oracle::grid& g) : g_(g), w_(g.width() + 1), h_(g.height() + 1) {
    const bool squeeze = r.squeeze == lddb::squeezing::allowed;
    n_ = 4 * w_ * h_;
    d_.assign(static_cast<std::size_t>(n_) * static_cast<std::size_t>(n_), kInf);
    for (int s = 0; s < n_; ++s) at(s, s) = 0;
    for (int v = 0; v < w_ * h_; ++v) {
      const point p{v % w_, v / w_};
      for (int c1 = 0; c1 < 4; ++c1)
        for (int c2 = 0; c2 < 4; ++c2) {
          const bool share_edge = (c1 ^ c2) == 1 || (c1 ^ c2) == 2;  // same row or same column
          if (c1 != c2 && free(p, c1) && free(p, c2) && (squeeze || share_edge)) at(4 * v + c1, 4 * v + c2) = 0;
        }
      for (int u = 0; u < w_ * h_; ++u) {
        const point q{u % w_, u / w_};
        if (u == v || !sampled::segment_legal(r, g, p, q)) continue;
        const double dx = q.x - p.x, dy = q.y - p.y;
        at(4 * v + corner(p, *sampled::side_cell(g, p, q)), 4 * u + corner(q, *sampled::side_cell(g, q, p))) =
            std::sqrt(dx * dx + dy * dy);
      }
    }
    for (int k = 0; k < n_; ++k)
      for (int i = 0; i < n_; ++i) {
        if (at(i, k) == kInf) continue;
        for (int j = 0; j < n_; ++j)
          if (at(i, k) + at(k, j) < at(i, j)) at(i, j) = at(i, k) + at(k, j);
      }
    strict_ = !squeeze;
  }

  double cost(point s, point t) const {
    const std::optional<int> a = endpoint(s), b = endpoint(t);
    if (!a || !b) return kInf;
    return d_[static_cast<std::size_t>(*a) * static_cast<std::size_t>(n_) + static_cast<std::size_t>(*b)];
  }

 private:
  // The cells around p: 0 north-west, 1 north-east, 2 south-west, 3 south-east.
  static point cell(point p, int c) { return {p.x - 1 + (c & 1), p.y - 1 + (c >> 1)}; }
  static int corner(point p, point c) { return (c.x - p.x + 1) + 2 * (c.y - p.y + 1); }
  bool free(point p, int c) const { return !g_.blocked(cell(p, c).x, cell(p, c).y); }
  double& at(int i, int j) { return d_[static_cast<std::size_t>(i) * static_cast<std::size_t>(n_) + static_cast<std::size_t>(j)]; }

  std::optional<int> endpoint(point p) const {
    const int v = p.y * w_ + p.x;
    if (free(p, 3)) return 4 * v + 3;
    if (strict_ && sampled::two_sided(g_, p)) return std::nullopt;
    for (int c = 0; c < 3; ++c)
      if (free(p, c)) return 4 * v + c;
    return std::nullopt;
  }

  const oracle::grid& g_;
  int w_, h_, n_ = 0;
  bool strict_ = true;
  std::vector<double> d_;
};

TEST(OracleDense, LeastCostsAgreeWithFloydWarshall) {
  std::mt19937_64 rng(0xF10D);
  int differ = 0, strict_only_unreachable = 0, compared = 0;
  for (int m = 0; m < 40; ++m) {
    const oracle::grid g = random_grid(rng, 3 + m % 3, 3 + (m / 3) % 2, 20 + m);
    const int w = g.width() + 1, h = g.height() + 1;
    std::vector<double> strict_costs;
    for (const auto& r : {lddb::rule::any_angle(), lddb::rule::any_angle(lddb::squeezing::allowed)}) {
      const dense_costs dense(r, g);
      for (int a = 0; a < w * h; ++a)
        for (int b = 0; b < w * h; ++b) {
          const point s{a % w, a / w}, t{b % w, b / w};
          const double want = dense.cost(s, t), got = oracle::least_cost(r, g, s, t);
          ASSERT_EQ(want == kInf, got == kInf) << oracle::rule_label(r) << " map " << m << " " << pt(s) << "->" << pt(t);
          if (want != kInf) {
            ASSERT_NEAR(want, got, 1e-9) << oracle::rule_label(r) << " map " << m << " " << pt(s) << "->" << pt(t);
          }
          ++compared;
          if (r.squeeze == lddb::squeezing::forbidden) {
            strict_costs.push_back(got);
          } else {
            const double strict = strict_costs[static_cast<std::size_t>(a * w * h + b)];
            EXPECT_GE(strict, got - 1e-9);  // the default rule only takes paths away
            if (strict != got) ++differ;
            if (strict == kInf && got != kInf) ++strict_only_unreachable;
          }
        }
    }
  }
  EXPECT_GT(compared, 1000);
  EXPECT_GT(differ, 20) << "the maps must have double corners that change least costs";
  EXPECT_GT(strict_only_unreachable, 5);
}

// x 0 1 2 3
//   @ . . .   y = 0
//   . @ . .   y = 1     vertex (1,1): a double corner, sides (1,0) and (0,1)
//   . . . .   y = 2
TEST(OracleHand, AroundADoubleCorner) {
  const oracle::grid g = oracle::grid::from_rows({"@...", ".@..", "...."});
  const auto strict = lddb::rule::any_angle(), squeeze = lddb::rule::any_angle(lddb::squeezing::allowed);
  // (0,2) -> (2,0): past the double corner under squeeze=allowed; under the default rule
  // around cell (1,1) by its corner (2,2)
  EXPECT_NEAR(oracle::least_cost(squeeze, g, {0, 2}, {2, 0}), 2 * std::sqrt(2.0), 1e-12);
  EXPECT_NEAR(oracle::least_cost(strict, g, {0, 2}, {2, 0}), 4.0, 1e-12);
  // (1,1)'s own cell is blocked: no query starts or ends there under the default rule
  EXPECT_EQ(oracle::least_cost(strict, g, {1, 1}, {3, 1}), kInf);
  EXPECT_EQ(oracle::least_cost(strict, g, {3, 1}, {1, 1}), kInf);
  EXPECT_EQ(oracle::least_cost(strict, g, {1, 1}, {1, 1}), kInf);
  EXPECT_EQ(oracle::least_cost(squeeze, g, {1, 1}, {3, 1}), 2);
  // A double corner with its own cell free: a start there leaves by the south-east side.
  //   . . @ .
  //   . @ . .     vertex (2,1): sides (1,0) and (2,1)
  //   . . . .
  // To (0,0): straight through cell (1,0) under squeeze=allowed; under the default rule
  // down the edge to (2,2), along to (1,2), then straight to (0,0) beside cells (0,0), (0,1)
  // (round cell (2,0) the top row is shut by the map's border).
  const oracle::grid up = oracle::grid::from_rows({"..@.", ".@..", "...."});
  EXPECT_NEAR(oracle::least_cost(squeeze, up, {2, 1}, {0, 0}), std::sqrt(5.0), 1e-12);
  EXPECT_NEAR(oracle::least_cost(strict, up, {2, 1}, {0, 0}), 2 + std::sqrt(5.0), 1e-12);
  EXPECT_NEAR(oracle::least_cost(strict, up, {0, 0}, {2, 1}), 2 + std::sqrt(5.0), 1e-12);
  EXPECT_NEAR(oracle::least_cost(strict, up, {2, 1}, {4, 3}), std::sqrt(8.0), 1e-12);
  EXPECT_EQ(oracle::least_cost(strict, up, {2, 1}, {2, 1}), 0);
}

// Inside a block the oracle's own path check refuses a crossing at an inflection point as
// the checker does, on random patterns and random paths between boundary points.
TEST(OracleBlock, PathChecksAgreeWithTheChecker) {
  std::mt19937_64 rng(0xB10C);
  for (const auto& r : {lddb::rule::any_angle(), lddb::rule::any_angle(lddb::squeezing::allowed)}) {
    const int b = 4;
    const oracle::block_oracle orc(r, b);
    int legal = 0, crossings = 0;
    for (int k = 0; k < 20000; ++k) {
      std::uint32_t code = 0;
      for (int c = 0; c < b * b; ++c)
        if (rng() % 100 < 30) code |= 1u << c;
      const int i = static_cast<int>(rng() % static_cast<std::uint64_t>(orc.boundary_count()));
      const int j = static_cast<int>(rng() % static_cast<std::uint64_t>(orc.boundary_count()));
      std::vector<point> inner(1 + rng() % 2);
      for (point& p : inner) p = {static_cast<int>(rng() % (b + 1)), static_cast<int>(rng() % (b + 1))};
      std::vector<point> all{orc.boundary_point(i)};
      all.insert(all.end(), inner.begin(), inner.end());
      all.push_back(orc.boundary_point(j));
      const oracle::path_report got = orc.check_path(code, i, j, inner);
      const lddb::check_result want =
          lddb::checker::check_polyline(r, oracle::pattern_view{code, b}, std::span<const point>(all));
      ASSERT_EQ(got.ok, want.valid) << oracle::rule_label(r) << " code " << code << ": " << got.why << " / " << want.error;
      if (got.ok) {
        EXPECT_NEAR(got.length, want.length, 1e-12);
        ++legal;
      }
      if (want.error.find("crosses the double corner") != std::string::npos) ++crossings;
    }
    EXPECT_GT(legal, 100);
    if (r.squeeze == lddb::squeezing::forbidden) {
      EXPECT_GT(crossings, 10);
    }
  }
}

}  // namespace
