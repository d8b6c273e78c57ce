// Private: Block A*'s OPEN, a binary heap of nodes keyed (f, tie, slot).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "lddb/grid.hpp"
#include "search/reserve_written.hpp"
#include "lddb/search.hpp"
#include "search/block_astar/slots.hpp"

namespace lddb::block_astar_impl {

// The order among nodes of equal f, from the h of the point that gives a node its key: the
// less, the sooner. Tile and any-angle take the deeper node first (least h), as A*
// implementations commonly prefer the larger g. Octile takes the shallower first: a block
// popped ahead of the blocks behind it at the same f is popped again when their points
// reach it, and octile's f-values tie often.
class tie_order {
 public:
  explicit tie_order(bool shallow_first) : shallow_(shallow_first) {}
  cost_t operator()(cost_t h) const { return shallow_ ? kShallowTop - h : h; }

 private:
  // Above any h on a kMaxSide map, so that top - h keeps h's order reversed.
  static constexpr cost_t kShallowTop = (cost_t{1} << 48) - 1;
  static_assert(cost_t{grid_map::kMaxSide} * 2 * kCostOne < kShallowTop,
                "the octile h of a largest map must stay below kShallowTop");
  bool shallow_;
};

// Each node is in the heap at most once and knows where (block_slot::heap_pos), so an
// improved key moves its entry up in place: no stale entries to sift down past later. An
// entry is 16 bytes, four to a cache line, and is its own key: f, then the top of the tie
// (tie >> 16, saturated, so ordered as the tie), then the slot (the order the query met
// the nodes in, the same on every run). Comparing two entries reads nothing else and needs
// no branch, so sifting does not stall on mispredicted comparisons.
class open_list {
 public:
  struct entry {
    cost_t f;
    std::uint64_t rest;  // tie_high << 32 | slot
    int slot() const { return static_cast<int>(static_cast<std::uint32_t>(rest)); }
  };

  void clear() { heap_.clear(); }
  bool empty() const { return heap_.empty(); }
  const entry& top() const { return heap_.front(); }
  std::size_t bytes() const { return heap_.capacity() * sizeof(entry); }
  // Room for n nodes, written once when `write` so that the pages are in memory.
  void reserve(std::size_t n, bool write) { reserve_written(heap_, n, write); }

  // Algorithm 2, line 9 (and Algorithm 1, lines 8-16): node s enters OPEN with key (value,
  // value_tie), or moves up when that improves its key; an equal or worse key is ignored.
  void push_or_decrease(std::vector<block_slot>& slots, int s, cost_t value, cost_t value_tie, search_stats& stats) {
    block_slot& slot = slots[static_cast<std::size_t>(s)];
    if (value > slot.heap_value || (value == slot.heap_value && value_tie >= slot.heap_tie)) return;
    slot.heap_value = value;
    slot.heap_tie = value_tie;
    ++stats.heap_ops;
    // The key only ever decreases, so an entry already in the heap can only move up.
    std::size_t i = slot.heap_pos >= 0 ? static_cast<std::size_t>(slot.heap_pos) : heap_.size();
    if (i == heap_.size()) heap_.emplace_back();
    heap_[i] = {value, std::uint64_t{tie_high(value_tie)} << 32 | static_cast<std::uint32_t>(s)};
    up(slots, i);
  }

  // Removes the node with the least key and returns its slot.
  int pop(std::vector<block_slot>& slots, search_stats& stats) {
    ++stats.heap_ops;
    const int top = heap_.front().slot();
    block_slot& slot = slots[static_cast<std::size_t>(top)];
    slot.heap_value = kUnreachable;
    slot.heap_pos = -1;
    const entry last = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) {
      heap_.front() = last;
      down(slots, 0);
    }
    return top;
  }

 private:
  // Lexicographic (f, rest) without a branch: one 128-bit comparison (compare and subtract
  // with borrow) where the compiler has the type, else flag arithmetic.
  static bool less(const entry& x, const entry& y) {
#if defined(__SIZEOF_INT128__)
    __extension__ using wide = unsigned __int128;  // a GCC and Clang type: no -Wpedantic warning
    return (wide{x.f} << 64 | x.rest) < (wide{y.f} << 64 | y.rest);
#else
    return (x.f < y.f) | ((x.f == y.f) & (x.rest < y.rest));
#endif
  }
  static std::uint32_t tie_high(cost_t tie) {
    return static_cast<std::uint32_t>(std::min<cost_t>(tie >> 16, std::numeric_limits<std::uint32_t>::max()));
  }
  void place(std::vector<block_slot>& slots, std::size_t i, const entry& e) {
    heap_[i] = e;
    slots[static_cast<std::size_t>(e.slot())].heap_pos = static_cast<int>(i);
  }
  void up(std::vector<block_slot>& slots, std::size_t i) {
    const entry e = heap_[i];
    while (i > 0) {
      const std::size_t p = (i - 1) / 2;
      if (!less(e, heap_[p])) break;
      place(slots, i, heap_[p]);
      i = p;
    }
    place(slots, i, e);
  }
  void down(std::vector<block_slot>& slots, std::size_t i) {
    const entry e = heap_[i];
    const std::size_t n = heap_.size();
    while (true) {
      std::size_t c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n) c += less(heap_[c + 1], heap_[c]);  // no branch on the comparison
      if (!less(heap_[c], e)) break;
      place(slots, i, heap_[c]);
      i = c;
    }
    place(slots, i, e);
  }

  std::vector<entry> heap_;
};

}  // namespace lddb::block_astar_impl
