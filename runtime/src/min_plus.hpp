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

}  // namespace lddb
