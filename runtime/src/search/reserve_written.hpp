// Room in a vector for search_context::reserve (lddb/search.hpp, reserve_options): the
// capacity a query may grow to, with the pages written once or left to the queries.
#pragma once

#include <cstddef>
#include <vector>

namespace lddb {

// Room for n elements, each written once when `write` so that its page is in memory (else
// a large allocation's pages stay unmapped until a query writes them); the size stays.
// reserve calls it twice, first without writing (every table allocated), then writing
// within its budget: the second call writes pages the first only allocated.
template <class T, class A>
void reserve_written(std::vector<T, A>& v, std::size_t n, bool write) {
  const std::size_t keep = v.size();
  if (v.capacity() >= n && keep >= n) return;
  if (!write) {
    v.reserve(n);
    return;
  }
  if (v.size() < n) v.resize(n);
  v.resize(keep);
}

}  // namespace lddb
