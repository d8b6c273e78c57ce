#include "search/block_astar/slots.hpp"

#include <algorithm>

#include "search/block_astar/search.hpp"

namespace lddb::block_astar_impl {

void slot_pool::reset() {
  used_ = 0;
  entries_ = 0;
  if (table_.empty()) table_.assign(1024, {0, 0, 0});
  if (++generation_ == 0) {  // the stamp wrapped: really clear, once in 4 billion queries
    std::fill(table_.begin(), table_.end(), bucket_t{0, 0, 0});
    generation_ = 1;
  }
}

void slot_pool::place_node(std::vector<bucket_t>& into, const block_slot& node, std::uint32_t slot,
                           std::uint32_t blocks_x) const {
  const int side = 1 << node.level;
  const std::size_t mask = into.size() - 1;
  for (int y = node.by; y < node.by + side; ++y)
    for (int x = node.bx; x < node.bx + side; ++x) {
      const std::uint32_t key = static_cast<std::uint32_t>(y) * blocks_x + static_cast<std::uint32_t>(x);
      std::size_t j = (key * 0x9E3779B1u) & mask;
      while (into[j].stamp == generation_) j = (j + 1) & mask;
      into[j] = {key, slot, generation_};
    }
}

void slot_pool::grow(std::uint32_t blocks_x) {
  std::size_t size = table_.size() * 2;
  while (entries_ * 2 > size) size *= 2;
  std::vector<bucket_t> bigger(size, {0, 0, 0});
  for (std::size_t s = 0; s < used_; ++s) place_node(bigger, slots_[s], static_cast<std::uint32_t>(s), blocks_x);
  table_.swap(bigger);
}

void slot_pool::reserve(std::size_t blocks, std::uint32_t blocks_x, bool write) {
  if (write && slots_.size() < blocks) slots_.resize(blocks);  // value-initialised: written
  if (!write && slots_.capacity() < blocks) slots_.reserve(blocks);  // a query's emplace_back stays within it
  std::size_t size = std::max<std::size_t>(table_.size(), 1024);
  while (blocks * 2 > size) size *= 2;
  if (size == table_.size()) return;
  std::vector<bucket_t> bigger(size, {0, 0, 0});
  for (std::size_t s = 0; s < used_; ++s) place_node(bigger, slots_[s], static_cast<std::uint32_t>(s), blocks_x);
  table_.swap(bigger);
}

std::size_t slot_pool::bytes() const {
  return slots_.capacity() * sizeof(block_slot) + table_.capacity() * sizeof(bucket_t);
}

// The search's side of the pool: which node a block belongs to, and a new node's state.
int block_search::slot_of(int bx, int by) {
  const auto blocks_x = static_cast<std::uint32_t>(map_.blocks_x());
  const std::uint32_t plain = static_cast<std::uint32_t>(by) * blocks_x + static_cast<std::uint32_t>(bx);
  std::size_t bucket = 0;
  if (const int found = st_.pool.find(plain, bucket); found >= 0) return found;
  // New node: the block, or the square it belongs to.
  const int level = st_.squares ? square_level(map_, q_.start, q_.goal, bx, by, st_.top_level, !rule_.on_vertices()) : 0;
  const int k = 1 << level;  // blocks a side
  bx &= ~(k - 1);
  by &= ~(k - 1);
  const std::uint32_t id = (static_cast<std::uint32_t>(by) * blocks_x + static_cast<std::uint32_t>(bx)) |
                           static_cast<std::uint32_t>(level) << kSquareIdShift;
  const int s = st_.pool.add(plain, bucket, bx, by, level, id, blocks_x);
  block_slot& node = slot(s);
  node.code = level ? 0 : map_.block_code(bx, by);
  node.ingress = 0;
  node.closed = 0;
  node.heap_value = kUnreachable;
  node.heap_tie = kUnreachable;
  node.heap_pos = -1;
  node.goal_index = -1;
  node.prepared = false;
  if (level > kSquareLevels) {
    if (st_.large_used == st_.large_state.size()) st_.large_state.emplace_back();
    node.ext = static_cast<int>(st_.large_used++);
    large_of(node).reset(large_shape_of(node));
  } else if (level) {
    if (st_.squares_used == st_.square_state.size()) st_.square_state.emplace_back();
    node.ext = static_cast<int>(st_.squares_used++);
    square_nodes& sq = square_of(node);
    const node_shape& shape = shape_of(node);
    std::fill_n(sq.g.begin(), shape.count, kUnreachable);
    std::fill_n(sq.neighbour.begin(), (shape.blocks + 2) * (shape.blocks + 2), -1);
  } else {
    node.ext = -1;
    node.g.fill(kUnreachable);
    node.neighbour.fill(-1);
  }
  st_.candidate.push_back({kUnreachable, 0});
  return s;
}

}  // namespace lddb::block_astar_impl
