// split_search (component_labels.hpp): which parts of a component split off when cells
// were blocked, found by searches from the free cells beside them, and relabelled.
#include <algorithm>

#include "map/component_labels.hpp"

namespace lddb::detail {

namespace {
constexpr int kBurst = 8;  // cells a search expands a turn
}  // namespace

std::int32_t split_search::group_of(std::int32_t s) {
  std::int32_t g = searches_[static_cast<std::size_t>(s)].group;
  while (groups_[static_cast<std::size_t>(g)].up >= 0) g = groups_[static_cast<std::size_t>(g)].up;
  searches_[static_cast<std::size_t>(s)].group = g;
  return g;
}

bool split_search::run(const grid_map& m, connectivity c, std::span<const std::int32_t> seeds, label_table& cells,
                       id_forest& ids, std::size_t budget) {
  // A visited cell holds the search that found it in its label (labels are negative, so
  // the two are told apart), and the search keeps the label to put back: each look at a
  // neighbour is one read of the table, which says blocked, unvisited or whose.
  const std::size_t limit = budget + seeds.size();
  visited_ = 0;
  const int w = m.width(), h = m.height();

  // One search a seed, and seeds of one component (one root id) search apart from the
  // others. The searches and groups of earlier runs are reused, with their vectors' room.
  std::int32_t n = 0;
  for (const std::int32_t cell : seeds) {
    std::int32_t& label = cells[static_cast<std::size_t>(cell)];
    if (label >= 0 || label == kNoLabel) continue;  // the same cell twice (a seed is free: never kNoLabel)
    if (static_cast<std::size_t>(n) == searches_.size()) {
      searches_.emplace_back();
      groups_.emplace_back();
    }
    search& x = searches_[static_cast<std::size_t>(n)];
    x.cells.clear();
    x.was.clear();
    x.head = 0;
    x.root = ids.find(id_of_label(label));
    x.cells.push_back(cell);
    x.was.push_back(label);
    label = n++;
    ++visited_;
  }
  // Every visited cell takes back its label, or a new one where its group split off.
  const auto put_back = [&](std::int32_t upto) {
    for (std::int32_t s = 0; s < upto; ++s) {
      const search& x = searches_[static_cast<std::size_t>(s)];
      for (std::size_t i = 0; i < x.cells.size(); ++i) {
        std::int32_t& label = cells[static_cast<std::size_t>(x.cells[i])];
        if (label >= 0) label = x.was[i];
      }
    }
  };
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
    for (std::size_t k = i; k < j; ++k) searches_[static_cast<std::size_t>(order[k])].root = static_cast<std::int32_t>(active.size());
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
  std::vector<std::int32_t>&turn = turn_, &next = next_;  // searches with cells to expand, in turn
  turn.assign(order.begin(), order.end());
  const auto expand = [&](std::int32_t s, search& x) {
    const std::int32_t u = x.cells[x.head++];
    const int ux = u % w, uy = u / w;
    for (int d = 0; d < steps; ++d) {
      const int vx = ux + kNeighbourSteps[d][0], vy = uy + kNeighbourSteps[d][1];
      if (vx < 0 || vy < 0 || vx >= w || vy >= h) continue;
      const std::int32_t v = vy * w + vx;
      std::int32_t& label = cells[static_cast<std::size_t>(v)];
      if (label == kNoLabel || label == s) continue;  // blocked, or this search's
      if (label < 0) {
        if (++visited_ > limit) return false;
        x.cells.push_back(v);
        x.was.push_back(label);
        label = s;
      } else {
        // Free neighbours share a root; a group that split off has no free neighbour left
        // outside it.
        const std::int32_t g = group_of(s), other = group_of(label);
        if (g != other && searches_[static_cast<std::size_t>(label)].root == x.root) join(g, other);
      }
    }
    return true;
  };
  while (pending > 0 && !turn.empty()) {
    next.clear();
    for (const std::int32_t s : turn) {
      search& x = searches_[static_cast<std::size_t>(s)];
      if (x.head == x.cells.size() || !groups_[static_cast<std::size_t>(group_of(s))].active ||
          active[static_cast<std::size_t>(x.root)] < 2)
        continue;
      // A few cells a turn: the order of the searches matters little, the turn's checks do.
      for (int burst = 0; burst < kBurst && x.head < x.cells.size(); ++burst)
        if (!expand(s, x)) {  // over budget: what split off so far keeps its new id
          put_back(n);
          return false;
        }
      if (x.head == x.cells.size()) {
        const std::int32_t g = group_of(s);
        if (--groups_[static_cast<std::size_t>(g)].live == 0 && active[static_cast<std::size_t>(x.root)] >= 2) split_off(g);
      }
      if (pending == 0) {
        put_back(n);
        return true;
      }
      next.push_back(s);
    }
    std::swap(turn, next);
  }
  put_back(n);
  return true;
}

}  // namespace lddb::detail
