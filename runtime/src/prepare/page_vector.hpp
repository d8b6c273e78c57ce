// Private: vectors whose large buffers are pages of their own, given back to the system
// when freed. The landmark builder's work arrays (4 bytes a point, 16 MiB each at 2048 x
// 2048) come and go while a map is prepared; from the heap, glibc keeps a freed one
// resident (it raises its threshold for separate blocks as large blocks are freed), and
// the next array stacks on top of it: the preparation's peak grew by one array.
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <vector>

#if defined(__unix__)
#include <sys/mman.h>
#endif

namespace lddb::detail {

template <class T>
struct page_allocator {
  using value_type = T;
  static constexpr std::size_t kOwnPages = std::size_t{1} << 20;  // bytes from which a buffer gets its own pages

  page_allocator() = default;
  template <class U>
  page_allocator(const page_allocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
#if defined(__unix__)
    if (n * sizeof(T) >= kOwnPages) {
      void* p = mmap(nullptr, n * sizeof(T), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (p == MAP_FAILED) throw std::bad_alloc();
      return static_cast<T*>(p);
    }
#endif
    return std::allocator<T>().allocate(n);
  }
  void deallocate(T* p, std::size_t n) noexcept {
#if defined(__unix__)
    if (n * sizeof(T) >= kOwnPages) {
      munmap(p, n * sizeof(T));
      return;
    }
#endif
    std::allocator<T>().deallocate(p, n);
  }
  template <class U>
  bool operator==(const page_allocator<U>&) const noexcept {
    return true;
  }
};

template <class T>
using page_vector = std::vector<T, page_allocator<T>>;

}  // namespace lddb::detail
