#include "carry.hpp"

#include <cstdlib>

#include "lddb/stored_cost.hpp"

namespace lddb::block_astar_impl {

cost_t carry_metric::cost(int dx, int dy) const {
  const cost_t ax = std::abs(dx), ay = std::abs(dy);
  switch (kind) {
    case ring_metric::manhattan:
      return (ax + ay) * straight;
    case ring_metric::octile: {
      const cost_t lo = ax < ay ? ax : ay, hi = ax < ay ? ay : ax;
      return lo * diagonal + (hi - lo) * straight;
    }
    case ring_metric::euclid:
      break;
  }
  return as_stored_length(euclid_cost(dx, dy), scale_log2);
}

void carry_ring_brute(const carry_metric& m, int last, const cost_t* g, cost_t* out, std::int32_t* from) {
  const int n = 4 * last;
  for (int t = 0; t < n; ++t) {
    int tx = 0, ty = 0;
    ring_point(last, t, tx, ty);
    cost_t best = kUnreachable;
    std::int32_t arg = -1;
    for (int s = 0; s < n; ++s) {
      if (g[s] == kUnreachable) continue;
      int sx = 0, sy = 0;
      ring_point(last, s, sx, sy);
      const cost_t v = g[s] + m.cost(tx - sx, ty - sy);
      if (v < best) {
        best = v;
        arg = s;
      }
    }
    out[t] = best;
    from[t] = arg;
  }
}

void carry_ring(const carry_metric& m, int last, const cost_t* g, cost_t* out, std::int32_t* from, carry_scratch&) {
  carry_ring_brute(m, last, g, out, from);
}

}  // namespace lddb::block_astar_impl
