// carry_test: carrying g-values across a free square's ring (runtime/src/search/block_astar/
// carry.cpp), per pair of sides, against the side-by-side product carry_ring_brute.
// Every metric must match it exactly, euclid too, though its rounding to stored units can
// break the Monge property its fast path starts from; and from[t] must give out[t].
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "../runtime/src/search/block_astar/carry.hpp"
#include "lddb/cost.hpp"
#include "test_rng.hpp"

namespace {

using lddb::cost_t;
using lddb::kCostOne;
using lddb::kUnreachable;
using lddb::block_astar_impl::carry_metric;
using lddb::block_astar_impl::ring_metric;
namespace ba = lddb::block_astar_impl;

carry_metric manhattan() { return {ring_metric::manhattan, kCostOne, 0, 0}; }
carry_metric octile(cost_t diagonal) { return {ring_metric::octile, kCostOne, diagonal, 0}; }
carry_metric euclid(int scale_log2) { return {ring_metric::euclid, kCostOne, 0, scale_log2}; }

// One stored unit of a euclid metric, in cost units.
cost_t unit_of(const carry_metric& m) { return cost_t{1} << (lddb::kCostShift - m.scale_log2); }

// A g vector of kind k (0 .. kKinds - 1): all unreachable, one finite entry, random
// entries with some unreachable at several densities and spreads (small, up to twice the
// perimeter, with or without an offset), on a grid of `grain` or not, or the costs from one
// lattice point (the usual shape of g: a front coming from one place) with some holes, or
// almost level for one target.
constexpr int kKinds = 7;
std::vector<cost_t> draw_g(lddb_test::rng& r, const carry_metric& m, int last, int kind, cost_t grain) {
  const int n = 4 * last;
  std::vector<cost_t> g(n, kUnreachable);
  const cost_t offset = r.below(2) ? 1000 * kCostOne : 0;
  if (kind == 0) return g;
  if (kind == 1) {
    g[r.below(n)] = offset + (r.next() % (cost_t(8 * last) * kCostOne)) / grain * grain;
    return g;
  }
  const int holes = std::vector<int>{0, 30, 70, 95}[r.below(4)];
  if (kind == 5) {
    // From a point anywhere within a few squares of this one.
    const int px = r.below(5 * last + 1) - 2 * last, py = r.below(5 * last + 1) - 2 * last;
    for (int s = 0; s < n; ++s) {
      if (r.below(100) < holes) continue;
      int x = 0, y = 0;
      ba::ring_point(last, s, x, y);
      g[s] = offset + m.cost(x - px, y - py);
    }
    return g;
  }
  if (kind == 6) {
    // Almost level for one target: every route to it within a few units of the same
    // cost, so rounding decides between them.
    const int t = r.below(n);
    int tx = 0, ty = 0;
    ba::ring_point(last, t, tx, ty);
    for (int s = 0; s < n; ++s) {
      if (r.below(100) < holes) continue;
      int x = 0, y = 0;
      ba::ring_point(last, s, x, y);
      g[s] = 2000 * kCostOne - m.cost(x - tx, y - ty) + (r.next() % (kCostOne >> 10)) / grain * grain;
    }
    return g;
  }
  const cost_t spread = kind == 2 ? 3 * kCostOne : kind == 3 ? cost_t(8 * last) * kCostOne : kCostOne / 7;
  for (int s = 0; s < n; ++s)
    if (r.below(100) >= holes) g[s] = offset + (r.next() % spread) / grain * grain;
  return g;
}

// Runs carry_ring against carry_ring_brute on `rounds` g vectors of every kind.
void check(const carry_metric& m, int last, int rounds, cost_t grain, lddb_test::rng& r, ba::carry_scratch& scratch) {
  const int n = 4 * last;
  std::vector<cost_t> out(n), want(n);
  std::vector<std::int32_t> from(n), want_from(n);
  for (int round = 0; round < rounds; ++round)
    for (int kind = 0; kind < kKinds; ++kind) {
      const std::vector<cost_t> g = draw_g(r, m, last, kind, grain);
      ba::carry_ring(m, last, g.data(), out.data(), from.data(), scratch);
      ba::carry_ring_brute(m, last, g.data(), want.data(), want_from.data());
      for (int i = 0; i < n; ++i) {
        const std::string where = "last " + std::to_string(last) + " kind " + std::to_string(kind) + " t " +
                                  std::to_string(i);
        ASSERT_EQ(from[i] == -1, out[i] == kUnreachable) << where;
        ASSERT_EQ(want[i] == kUnreachable, out[i] == kUnreachable) << where;
        if (out[i] == kUnreachable) continue;
        ASSERT_GE(from[i], 0) << where;
        ASSERT_LT(from[i], n) << where;
        int sx = 0, sy = 0, tx = 0, ty = 0;
        ba::ring_point(last, from[i], sx, sy);
        ba::ring_point(last, i, tx, ty);
        ASSERT_NE(g[from[i]], kUnreachable) << where;
        ASSERT_EQ(out[i], g[from[i]] + m.cost(tx - sx, ty - sy)) << where;
        ASSERT_EQ(out[i], want[i]) << where;
      }
    }
}

// Sizes of square: every side up to 20 and a few large ones, with fewer rounds for the
// large, so that the suite stays quick under sanitizers too.
const std::vector<int>& lasts() {
  static const std::vector<int> v = [] {
    std::vector<int> l;
    for (int i = 1; i <= 20; ++i) l.push_back(i);
    for (int i : {31, 32, 63, 64, 127, 128, 255, 256}) l.push_back(i);
    return l;
  }();
  return v;
}
int rounds_for(int last) { return last <= 20 ? 40 : last <= 64 ? 6 : 1; }

void check_exact(const carry_metric& m, std::uint64_t seed, cost_t coarse = kCostOne) {
  lddb_test::rng r{seed};
  ba::carry_scratch scratch;
  for (int last : lasts()) {
    for (cost_t grain : {cost_t{1}, coarse}) check(m, last, rounds_for(last), grain, r, scratch);
    if (testing::Test::HasFatalFailure()) return;
  }
}

TEST(carry_ring, manhattan_matches_the_product) { check_exact(manhattan(), 1); }
TEST(carry_ring, octile_matches_the_product) { check_exact(octile(lddb::kSqrt2Cost), 2); }
TEST(carry_ring, octile_of_another_diagonal_matches_the_product) {
  check_exact(octile(kCostOne + kCostOne / 2), 3);  // 1.5
  check_exact(octile(kCostOne), 4);                 // diagonal as cheap as straight
  check_exact(octile(2 * kCostOne), 5);             // Manhattan by another name
}
TEST(carry_ring, octile_of_a_diagonal_below_straight_matches_the_product) {
  check_exact(octile(kCostOne / 2), 6);
}
TEST(carry_ring, manhattan_of_another_straight_matches_the_product) {
  carry_metric m = manhattan();
  m.straight = 3 * kCostOne + 5;
  check_exact(m, 7);
}

// Euclid: g on any grain, and made of stored lengths (multiples of the unit, as a
// search's g is).
TEST(carry_ring, euclid_matches_the_product) {
  check_exact(euclid(11), 8, unit_of(euclid(11)));
  check_exact(euclid(8), 9, unit_of(euclid(8)));
}

}  // namespace
