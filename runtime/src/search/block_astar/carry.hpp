// Private: carrying g-values across a free square in about linear time. Inside an open
// square every move is legal, so the cost between two of its boundary points is closed
// form (ring_metric) and an expansion is
//   out[t] = min over s of g[s] + d(s, t)
// over the ring of boundary points. With up to 256 points a side-by-side min-plus product
// costs 65,536 additions; carry_ring works per pair of sides, in time about linear in the
// perimeter, so that a large square costs what its boundary costs.
#pragma once

#include <cstdint>
#include <vector>

#include "lddb/cost.hpp"

namespace lddb::block_astar_impl {

// The cost between two boundary points of a free square, as the square's node_shape
// stores it for the small squares (regions.cpp): Manhattan (straight per step), octile
// (straight per step, diagonal per diagonal step), or the straight line rounded as a
// database stores a length (as_stored_length(euclid_cost(dx, dy), scale_log2)).
enum class ring_metric : std::uint8_t { manhattan, octile, euclid };
struct carry_metric {
  ring_metric kind = ring_metric::manhattan;
  cost_t straight = kCostOne;
  cost_t diagonal = 0;  // octile
  int scale_log2 = 0;   // euclid
  cost_t cost(int dx, int dy) const;  // d between points dx, dy apart
};

// Reused buffers, so that a warm expansion allocates nothing.
struct carry_scratch {
  std::vector<cost_t> h;          // one source side's g, in the target side's frame
  std::vector<std::int32_t> arg;  // and their ring indices
  std::vector<double> hd;         // euclid: the finite ones as doubles
  std::vector<std::int32_t> pos;  // euclid: their places on the side
  std::vector<std::int32_t> col;  // euclid: each target's monotone argmin among them
  std::vector<std::int32_t> col2;     // euclid: the same outside a window around it,
  std::vector<double> before, after;  // and the exact least there, before and after
};

// The ring of a square whose points lie on the lattice 0..last a side, numbered clockwise
// from (0, 0) as lay_ring numbers them: the top row x = 0..last-1 at y = 0, the right
// column y = 0..last-1 at x = last, the bottom row x = last..1 at y = last, the left
// column y = last..1 at x = 0; 4 * last points (last >= 1).
//
// Sets out[t] to min over s of g[s] + m.cost(s, t) and from[t] to an s that reaches it
// (out[t] == g[from[t]] + m.cost(from[t], t) always), or kUnreachable and -1 when no g is
// finite. g entries may be kUnreachable; a finite g plus any cost across the square must
// not overflow. Exact for every metric. Manhattan and octile take O(last) per pair of
// sides (octile with diagonal < straight falls back to the product); euclid
// O(last log last), plus O(last) for each target whose least the rounding leaves in doubt.
void carry_ring(const carry_metric& m, int last, const cost_t* g, cost_t* out, std::int32_t* from,
                carry_scratch& scratch);

// The same by the side-by-side product, for tests and measurement.
void carry_ring_brute(const carry_metric& m, int last, const cost_t* g, cost_t* out, std::int32_t* from);

// Point i of the ring (0 <= i < 4 * last) as x, y.
inline void ring_point(int last, int i, int& x, int& y) {
  const int side = i / last, t = i % last;
  switch (side) {
    case 0: x = t; y = 0; break;
    case 1: x = last; y = t; break;
    case 2: x = last - t; y = last; break;
    default: x = 0; y = last - t; break;
  }
}

}  // namespace lddb::block_astar_impl
