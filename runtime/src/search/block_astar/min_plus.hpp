// Private: the inner step of Block A*'s min-plus product (Algorithm 1, line 5) over a row of
// decoded costs, four points to an instruction where the CPU has AVX2. Block A* spends
// most of its time in this step, and the branchy scalar loop mispredicts on every row.
#pragma once

#include <cstddef>
#include <cstdint>

#include "lddb/cost.hpp"
#include "lddb/point.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define LDDB_AVX2_KERNELS 1
#else
#define LDDB_AVX2_KERNELS 0
#endif

namespace lddb {

// True when this CPU (and its operating system) runs AVX2 code. Worked out once.
bool cpu_has_avx2();

// Parent of a boundary point: where its g-value came from. Three bytes, so that a block
// slot stays small: the search touches thousands of them.
enum class via : std::uint8_t {
  block,      // the database path from another boundary point `index` of the same block
  neighbour,  // one step (cells) or the same vertex (corners) in the neighbouring block
              // `around` (block_slot::neighbour), point `index`
  start,      // the local search from the start, in start block `index`
};
struct parent_ref {
  via kind;
  std::uint8_t index;
  std::uint8_t around;
};

#if LDDB_AVX2_KERNELS
// Algorithm 1, line 5, over rows of decoded, finite costs (row y at table + y * stride):
// each ingress point y in turn, unless an earlier one already improved it, lowers g[x] to
// g[y] + row[x] for the egress points x it improves, with parent {block, y}. Returns the
// points improved. n is a multiple of 4, at most 64. Call only when cpu_has_avx2().
std::uint64_t relax_rows_avx2(cost_t* g, parent_ref* parent, const cost_t* table, std::size_t stride, int n,
                              std::uint64_t ingress, std::uint64_t egress);

// Bit x of the result, for x < n, is set when gy + row[x] < g[x] and row[x] is finite
// (not kUnreachable). n is a multiple of 4, at most 64; row and g hold n entries. Call
// only when cpu_has_avx2().
std::uint64_t improved_by_row_avx2(cost_t gy, const cost_t* row, const cost_t* g, int n);
#endif

// The row kernels Block A*'s expansion is compiled for, one chosen per query:
//   improved(gy, row, g, n): a superset of the points x < n with gy + row[x] < g[x];
//   relax(g, parent, table, stride, n, ingress, egress): relax_rows_avx2's contract.
struct scalar_rows {
  static std::uint64_t improved(cost_t, const cost_t*, const cost_t*, int) { return ~std::uint64_t{0}; }
  static std::uint64_t relax(cost_t* g, parent_ref* parent, const cost_t* table, std::size_t stride, int,
                             std::uint64_t ingress, std::uint64_t egress) {
    std::uint64_t changed = 0;
    for (std::uint64_t m = ingress; m; m &= m - 1) {
      const int y = __builtin_ctzll(m);
      if ((changed >> y) & 1u) continue;  // improved through another ingress point: dominated
      const cost_t gy = g[y];
      const cost_t* row = table + static_cast<std::size_t>(y) * stride;
      for (std::uint64_t e = egress & ~(std::uint64_t{1} << y); e; e &= e - 1) {
        const int x = __builtin_ctzll(e);
        const cost_t total = gy + row[x];
        if (total < g[x]) {
          g[x] = total;
          parent[x] = {via::block, static_cast<std::uint8_t>(y), 0};
          changed |= std::uint64_t{1} << x;
        }
      }
    }
    return changed;
  }
};
#if LDDB_AVX2_KERNELS
struct avx2_rows {
  static std::uint64_t improved(cost_t gy, const cost_t* row, const cost_t* g, int n) {
    return improved_by_row_avx2(gy, row, g, n);
  }
  static std::uint64_t relax(cost_t* g, parent_ref* parent, const cost_t* table, std::size_t stride, int n,
                             std::uint64_t ingress, std::uint64_t egress) {
    return relax_rows_avx2(g, parent, table, stride, n, ingress, egress);
  }
};
#endif

}  // namespace lddb
