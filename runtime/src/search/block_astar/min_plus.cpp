#include "search/block_astar/min_plus.hpp"

#include "lddb/search.hpp"

#if LDDB_AVX2_KERNELS
#include <immintrin.h>
#endif

namespace lddb {

#if LDDB_AVX2_KERNELS
bool cpu_has_avx2() {
  static const bool has = __builtin_cpu_supports("avx2");
  return has;
}

namespace {
// One row: the points x < n with gy + row[x] < g[x] and row[x] finite.
__attribute__((target("avx2"), always_inline)) inline std::uint64_t improved_by(cost_t gy, const cost_t* row, const cost_t* g,
                                                                              int n) {
  // AVX2 compares 64-bit lanes as signed: flipping the top bit of both sides orders them
  // as unsigned, which costs need (kUnreachable is all ones).
  const __m256i flip = _mm256_set1_epi64x(INT64_MIN);
  const __m256i none = _mm256_set1_epi64x(-1);
  const __m256i from = _mm256_set1_epi64x(static_cast<long long>(gy));
  std::uint64_t bits = 0;
  for (int x = 0; x < n; x += 4) {
    const __m256i cost = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(row + x));
    const __m256i now = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(g + x));
    const __m256i total = _mm256_add_epi64(from, cost);
    __m256i better = _mm256_cmpgt_epi64(_mm256_xor_si256(now, flip), _mm256_xor_si256(total, flip));
    better = _mm256_andnot_si256(_mm256_cmpeq_epi64(cost, none), better);
    bits |= static_cast<std::uint64_t>(_mm256_movemask_pd(_mm256_castsi256_pd(better))) << x;
  }
  return bits;
}
}  // namespace

__attribute__((target("avx2"))) std::uint64_t relax_rows_avx2(cost_t* g, parent_ref* parent, const cost_t* table,
                                                              std::size_t stride, int n, std::uint64_t ingress,
                                                              std::uint64_t egress) {
  std::uint64_t changed = 0;
  for (std::uint64_t m = ingress; m; m &= m - 1) {
    const int y = __builtin_ctzll(m);
    if ((changed >> y) & 1u) continue;  // improved through another ingress point: dominated
    const cost_t gy = g[y];
    const cost_t* row = table + static_cast<std::size_t>(y) * stride;
    std::uint64_t better = improved_by(gy, row, g, n) & egress;
    changed |= better;
    for (; better; better &= better - 1) {
      const int x = __builtin_ctzll(better);
      g[x] = gy + row[x];
      parent[x] = {via::block, static_cast<std::uint8_t>(y), 0};
    }
  }
  return changed;
}

__attribute__((target("avx2"))) std::uint64_t improved_by_row_avx2(cost_t gy, const cost_t* row, const cost_t* g,
                                                                   int n) {
  return improved_by(gy, row, g, n);
}
#else
bool cpu_has_avx2() { return false; }
#endif

bool vector_kernels_available() { return cpu_has_avx2(); }

}  // namespace lddb
