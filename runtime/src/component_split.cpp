// split_search (component_labels.hpp): which parts of a component split off when cells
// were blocked, found by searches from the free cells beside them, and relabelled.
#include <algorithm>
#include <bit>
#include <cstdlib>
#include <functional>

#include "component_labels.hpp"

namespace lddb::detail {

namespace {
constexpr std::int32_t kEmpty = -1;
}  // namespace

void split_search::reserve_slots(std::size_t cells) {
  const std::size_t want = std::bit_ceil(2 * cells + 16);
  if (keys_.size() >= want) return;
  keys_.assign(want, kEmpty);
  owners_.assign(want, 0);
  mask_ = want - 1;
  shift_ = 64 - std::countr_zero(want);
}

std::int32_t* split_search::slot(std::int32_t cell) {
  // Fibonacci hashing, from the product's high bits: the low bits of cells a row apart
  // differ only in few places.
  std::size_t i = static_cast<std::size_t>((static_cast<std::uint64_t>(cell) * 0x9E3779B97F4A7C15u) >> shift_);
  while (keys_[i] != kEmpty && keys_[i] != cell) i = (i + 1) & mask_;
  if (keys_[i] == kEmpty) {
    keys_[i] = cell;
    owners_[i] = kEmpty;
    used_.push_back(i);
  }
  return &owners_[i];
}

std::int32_t split_search::group_of(std::int32_t s) {
  std::int32_t g = searches_[static_cast<std::size_t>(s)].group;
  while (groups_[static_cast<std::size_t>(g)].up >= 0) g = groups_[static_cast<std::size_t>(g)].up;
  searches_[static_cast<std::size_t>(s)].group = g;
  return g;
}

bool split_search::run(const grid_map& m, connectivity c, std::span<const std::int32_t> seeds, label_table& cells,
                       id_forest& ids, std::size_t budget) {
  for (const std::size_t i : used_) keys_[i] = kEmpty;
  used_.clear();
  const std::size_t limit = budget + seeds.size();
  reserve_slots(limit);
  const int w = m.width(), h = m.height();

  // One search a seed, and seeds of one component (one root id) search towards each other.
  // The searches and groups of earlier runs are reused, with their vectors' room.
  std::int32_t n = 0;
  for (const std::int32_t cell : seeds) {
    std::int32_t* owner = slot(cell);
    if (*owner != kEmpty) continue;  // the same cell twice
    *owner = n;
    if (static_cast<std::size_t>(n) == searches_.size()) {
      searches_.emplace_back();
      groups_.emplace_back();
    }
    search& x = searches_[static_cast<std::size_t>(n++)];
    x.open.clear();
    x.cells.clear();
    x.seed = cell;
    x.root = ids.find(id_of_label(cells[static_cast<std::size_t>(cell)]));
    x.cells.push_back(cell);
    x.open.push_back({0, cell});
  }
  std::vector<std::int32_t>& order = order_;
  order.resize(static_cast<std::size_t>(n));
  for (std::int32_t s = 0; s < n; ++s) order[static_cast<std::size_t>(s)] = s;
  std::sort(order.begin(), order.end(), [&](std::int32_t a, std::int32_t b) {
    return std::pair(searches_[static_cast<std::size_t>(a)].root, a) < std::pair(searches_[static_cast<std::size_t>(b)].root, b);
  });
  // active[r]: groups of root slot r still searching; the work is done when none has two.
  std::vector<std::int32_t>& active = active_;
  active.clear();
  std::size_t pending = 0;
  for (std::size_t i = 0, j = 0; i < order.size(); i = j) {
    const std::int32_t root = searches_[static_cast<std::size_t>(order[i])].root;
    for (j = i; j < order.size() && searches_[static_cast<std::size_t>(order[j])].root == root; ++j) {}
    for (std::size_t k = i; k < j; ++k) {
      search& x = searches_[static_cast<std::size_t>(order[k])];
      x.target = searches_[static_cast<std::size_t>(order[k + 1 < j ? k + 1 : i])].seed;
      x.root = static_cast<std::int32_t>(active.size());
    }
    active.push_back(static_cast<std::int32_t>(j - i));
    if (j - i >= 2) ++pending;
  }
  for (std::int32_t s = 0; s < n; ++s) {
    searches_[static_cast<std::size_t>(s)].group = s;
    group& g = groups_[static_cast<std::size_t>(s)];
    g.up = -1;
    g.members.assign(1, s);
    g.live = 1;
    g.active = true;
  }

  const auto settle = [&](std::int32_t root) {
    if (--active[static_cast<std::size_t>(root)] == 1) --pending;
  };
  // A group with nothing left to expand has walked its whole component: a new id for it.
  const auto split_off = [&](std::int32_t g) {
    group& gr = groups_[static_cast<std::size_t>(g)];
    gr.active = false;
    const std::int32_t label = label_of_id(ids.make());
    for (const std::int32_t s : gr.members)
      for (const std::int32_t cell : searches_[static_cast<std::size_t>(s)].cells) cells[static_cast<std::size_t>(cell)] = label;
    settle(searches_[static_cast<std::size_t>(g)].root);
  };
  const auto join = [&](std::int32_t a, std::int32_t b) {
    if (groups_[static_cast<std::size_t>(a)].members.size() < groups_[static_cast<std::size_t>(b)].members.size()) std::swap(a, b);
    group &big = groups_[static_cast<std::size_t>(a)], &small = groups_[static_cast<std::size_t>(b)];
    small.up = a;
    big.members.insert(big.members.end(), small.members.begin(), small.members.end());
    big.live += small.live;
    small.members.clear();
    settle(searches_[static_cast<std::size_t>(a)].root);
  };

  const bool eight = c == connectivity::eight;
  const int steps = eight ? 8 : 4;
  constexpr int kDx[8] = {1, -1, 0, 0, 1, 1, -1, -1}, kDy[8] = {0, 0, 1, -1, 1, -1, 1, -1};
  std::vector<std::int32_t>&turn = turn_, &next = next_;  // searches with cells to expand, in turn
  turn.assign(order.begin(), order.end());
  while (pending > 0 && !turn.empty()) {
    next.clear();
    for (const std::int32_t s : turn) {
      search& x = searches_[static_cast<std::size_t>(s)];
      if (x.open.empty() || !groups_[static_cast<std::size_t>(group_of(s))].active ||
          active[static_cast<std::size_t>(x.root)] < 2)
        continue;
      std::pop_heap(x.open.begin(), x.open.end(), std::greater<>{});
      const std::int32_t u = x.open.back().second;
      x.open.pop_back();
      const int ux = u % w, uy = u / w, tx = x.target % w, ty = x.target / w;
      for (int d = 0; d < steps; ++d) {
        const int vx = ux + kDx[d], vy = uy + kDy[d];
        if (vx < 0 || vy < 0 || vx >= w || vy >= h || m.blocked(vx, vy)) continue;
        const std::int32_t v = vy * w + vx;
        std::int32_t* owner = slot(v);
        if (*owner == kEmpty) {
          if (used_.size() > limit) return false;
          *owner = s;
          x.cells.push_back(v);
          const int ax = std::abs(tx - vx), ay = std::abs(ty - vy);
          x.open.push_back({eight ? std::max(ax, ay) : ax + ay, v});
          std::push_heap(x.open.begin(), x.open.end(), std::greater<>{});
        } else {
          const std::int32_t g = group_of(s), other = group_of(*owner);
          // Free neighbours share a root; a search of a settled group met is one that
          // stopped, and joins all the same.
          if (g != other && searches_[static_cast<std::size_t>(*owner)].root == x.root &&
              groups_[static_cast<std::size_t>(other)].active)
            join(g, other);
        }
      }
      if (x.open.empty()) {
        const std::int32_t g = group_of(s);
        if (--groups_[static_cast<std::size_t>(g)].live == 0 && active[static_cast<std::size_t>(x.root)] >= 2) split_off(g);
      }
      if (pending == 0) return true;
      next.push_back(s);
    }
    std::swap(turn, next);
  }
  return true;
}

}  // namespace lddb::detail
