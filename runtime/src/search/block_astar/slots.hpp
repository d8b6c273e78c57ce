// Private: Block A*'s nodes for one query: a pool of slots, one per block (or open square)
// the query touches, found through a small open-addressing table, so that a context grows
// with the blocks a query touches, not with the map, and is reused between queries.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "search/block_astar/min_plus.hpp"
#include "lddb/block_shape.hpp"
#include "lddb/cost.hpp"

namespace lddb::block_astar_impl {

constexpr int kMaxBoundary = 4 * block_shape::kMaxBlock;
// A set of a node's boundary points: bit i for point i.
using point_set = std::uint64_t;

// The points in a set. Baseline x86-64 has no popcnt instruction (__builtin_popcountll
// calls libgcc), so the bits are summed in place, in a dozen instructions.
inline int count_points(point_set m) {
  m -= (m >> 1) & 0x5555555555555555u;
  m = (m & 0x3333333333333333u) + ((m >> 2) & 0x3333333333333333u);
  m = (m + (m >> 4)) & 0x0f0f0f0f0f0f0f0fu;
  return static_cast<int>((m * 0x0101010101010101u) >> 56);
}

// Aligned to a cache line (384 bytes with b <= 5), so that the fields every visit reads, up
// to heap_tie, share one line.
struct alignas(64) block_slot {
  std::uint32_t block_id;
  int bx, by;  // the block, or a square's top-left block
  std::uint32_t code;
  int ext;             // a square's points: block_search_state::square_state[ext]
  int heap_pos;        // the node's index in OPEN, -1 when not in it
  int goal_index;      // >= 0 for a block that contains the goal
  std::uint8_t level;  // 0: a block; else an open square of 2^level x 2^level blocks (regions.hpp)
  // Set on first expansion (the map cannot change during a query): which links are
  // legal moves out of this block, and the boundary points with at least one. A point
  // without one cannot hand a g-value on, so the min-plus product skips it.
  bool prepared;
  point_set exitable;
  point_set ingress;  // boundary points improved since the last expansion
  cost_t heap_value;  // kUnreachable when not in OPEN
  cost_t heap_tie;    // tie order (open_list.hpp) of the point that gave heap_value
  // Cells: bit k of link_ok is set when links[k] is a legal move out of this block, worked
  // out once in prepare_block so that handing on does not branch on it (such branches
  // mispredict on cluttered maps). Vertices: link_ok has every link, and free_ring is the
  // ring mask of free cells: a link is legal when one of its target's cells in the
  // neighbour is free (its source is usable, having a g-value).
  std::uint64_t link_ok;
  std::uint64_t free_ring;
  // Slots of the blocks around (-1: not known yet), by ring position (geometry.hpp). A
  // block of a square maps to the square's slot.
  std::array<int, 9> neighbour;
  std::array<cost_t, kMaxBoundary> g;
  std::array<parent_ref, kMaxBoundary> parent;
  // Weighted search: points closed for good (block_search::close, query.cpp); after
  // parent, in the padding, so that the fields before keep their place.
  point_set closed;
};

// The slots and the table from block id to slot. Slots are reused between queries without
// clearing; a new one sets what it needs (g to infinity; parents are only read behind a
// finite g). Each block of a square has an entry for the square's slot, so that finding a
// block's node does not work out again which square it belongs to.
class slot_pool {
 public:
  // A new query: no slots, an empty table.
  void reset();

  block_slot& operator[](int s) { return slots_[static_cast<std::size_t>(s)]; }
  const block_slot& operator[](int s) const { return slots_[static_cast<std::size_t>(s)]; }
  std::vector<block_slot>& slots() { return slots_; }
  std::size_t used() const { return used_; }
  // Keeps slot references valid while up to `more` slots are added; `most` is the map's
  // block count, which no query's slots exceed (a block belongs to one node).
  void reserve_more(std::size_t more, std::size_t most) {
    const std::size_t need = std::min(used_ + more, most);
    if (slots_.capacity() < need) slots_.reserve(std::min(2 * need, most));
  }

  // The slot of the node holding block `id`, or -1; then `bucket` is where the block would go.
  int find(std::uint32_t id, std::size_t& bucket) const {
    const std::size_t mask = table_.size() - 1;
    std::size_t i = (id * 0x9E3779B1u) & mask;
    while (table_[i].stamp == generation_) {
      if (table_[i].block_id == id) return static_cast<int>(table_[i].slot);
      i = (i + 1) & mask;
    }
    bucket = i;
    return -1;
  }
  // A new slot for the node whose top-left block is (bx, by), `side` blocks a side, with an
  // entry for each of its blocks (blocks_x: the map's width in blocks). `bucket` is what
  // find answered for block `probed`, the block asked for. Sets block_id, bx, by and level.
  int add(std::uint32_t probed, std::size_t bucket, int bx, int by, int level, std::uint32_t id,
          std::uint32_t blocks_x) {
    const int side = 1 << level;
    entries_ += static_cast<std::size_t>(side * side);
    const bool bucket_valid = entries_ * 2 <= table_.size();
    if (!bucket_valid) grow(blocks_x);  // past half full
    const int s = static_cast<int>(used_);
    if (used_ == slots_.size()) slots_.emplace_back();
    block_slot& slot = slots_[used_++];
    slot.block_id = id;
    slot.bx = bx;
    slot.by = by;
    slot.level = static_cast<std::uint8_t>(level);
    if (level == 0 && bucket_valid)
      table_[bucket] = {probed, static_cast<std::uint32_t>(s), generation_};
    else
      place_node(table_, slot, static_cast<std::uint32_t>(s), blocks_x);
    return s;
  }

  std::size_t bytes() const;
  // Room for a query that touches up to `blocks` blocks of a map `blocks_x` blocks wide
  // with no growth: that many slots and a table that stays at most half full. The slots
  // (most of the bytes) are written once when `write`, so that their pages are in memory;
  // else a query brings in the pages it uses. Keeps the query in progress.
  void reserve(std::size_t blocks, std::uint32_t blocks_x, bool write);

 private:
  struct bucket_t {
    std::uint32_t block_id, slot, stamp;  // valid when stamp == generation_
  };
  void grow(std::uint32_t blocks_x);  // to at most half full, with entries_ entries
  void place_node(std::vector<bucket_t>& into, const block_slot& node, std::uint32_t slot, std::uint32_t blocks_x) const;

  std::vector<block_slot> slots_;  // the first used_ belong to this query
  std::size_t used_ = 0;
  std::vector<bucket_t> table_;
  std::size_t entries_ = 0;  // buckets in use this query
  std::uint32_t generation_ = 0;
};

}  // namespace lddb::block_astar_impl
