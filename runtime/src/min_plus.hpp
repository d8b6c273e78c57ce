// Private: the inner step of Block A*'s min-plus product (Algorithm 1, line 5) over a row of
// decoded costs, four points to an instruction where the CPU has AVX2. Block A* spends
// most of its time in this step, and the branchy scalar loop mispredicts on every row.
#pragma once

#include <cstdint>

#include "lddb/rules.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define LDDB_AVX2_KERNELS 1
#else
#define LDDB_AVX2_KERNELS 0
#endif

namespace lddb {

// True when this CPU (and its operating system) runs AVX2 code. Worked out once.
bool cpu_has_avx2();

#if LDDB_AVX2_KERNELS
// Bit x of the result, for x < n, is set when gy + row[x] < g[x] and row[x] is finite
// (not kUnreachable). n is a multiple of 4, at most 32; row and g hold n entries. Call
// only when cpu_has_avx2().
std::uint32_t improved_by_row_avx2(cost_t gy, const cost_t* row, const cost_t* g, int n);
#endif

}  // namespace lddb
