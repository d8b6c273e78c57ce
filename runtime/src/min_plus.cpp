#include "min_plus.hpp"

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

__attribute__((target("avx2"))) std::uint32_t improved_by_row_avx2(cost_t gy, const cost_t* row, const cost_t* g,
                                                                   int n) {
  // AVX2 compares 64-bit lanes as signed: flipping the top bit of both sides orders them
  // as unsigned, which costs need (kUnreachable is all ones).
  const __m256i flip = _mm256_set1_epi64x(INT64_MIN);
  const __m256i none = _mm256_set1_epi64x(-1);
  const __m256i from = _mm256_set1_epi64x(static_cast<long long>(gy));
  std::uint32_t bits = 0;
  for (int x = 0; x < n; x += 4) {
    const __m256i cost = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(row + x));
    const __m256i now = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(g + x));
    const __m256i total = _mm256_add_epi64(from, cost);
    __m256i better = _mm256_cmpgt_epi64(_mm256_xor_si256(now, flip), _mm256_xor_si256(total, flip));
    better = _mm256_andnot_si256(_mm256_cmpeq_epi64(cost, none), better);
    bits |= static_cast<std::uint32_t>(_mm256_movemask_pd(_mm256_castsi256_pd(better))) << x;
  }
  return bits;
}
#else
bool cpu_has_avx2() { return false; }
#endif

bool vector_kernels_available() { return cpu_has_avx2(); }

}  // namespace lddb
