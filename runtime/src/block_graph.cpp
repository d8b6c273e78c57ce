// Least-cost paths inside one block pattern. See block_graph in lddb/rules.hpp.
// Fixed-size arrays only: the generator runs this millions of times at b = 5.
#include <algorithm>
#include <cstdlib>

#include "lddb/rules.hpp"

namespace lddb {

namespace {

constexpr int kMaxPoints = block_graph::kMaxPoints;
constexpr int kMaxStates = kMaxPoints * 9;  // 8 headings + the start's "none"

struct key {
  cost_t cost = kUnreachable;
  int extra = 0;  // turns (cells) or segments (vertices)
  friend bool operator<(const key& a, const key& b) {
    return a.cost != b.cost ? a.cost < b.cost : a.extra < b.extra;
  }
};

// A small binary min-heap of (key, state), ties to the lower state; stale entries are
// skipped by the caller. Items are a trivial type so the array costs nothing to set up.
class state_heap {
 public:
  bool empty() const { return size_ == 0; }
  void push(key k, int s) {
    int i = size_++;
    items_[static_cast<std::size_t>(i)] = {k.cost, k.extra, s};
    while (i > 0) {
      const int p = (i - 1) / 2;
      if (!less(i, p)) break;
      std::swap(items_[static_cast<std::size_t>(i)], items_[static_cast<std::size_t>(p)]);
      i = p;
    }
  }
  std::pair<key, int> pop() {
    const item top = items_[0];
    items_[0] = items_[static_cast<std::size_t>(--size_)];
    int i = 0;
    while (true) {
      const int l = 2 * i + 1, r = l + 1;
      int m = i;
      if (l < size_ && less(l, m)) m = l;
      if (r < size_ && less(r, m)) m = r;
      if (m == i) break;
      std::swap(items_[static_cast<std::size_t>(i)], items_[static_cast<std::size_t>(m)]);
      i = m;
    }
    return {key{top.cost, top.extra}, top.state};
  }

 private:
  struct item {
    cost_t cost;
    int extra, state;
  };
  bool less(int a, int b) const {
    const item& x = items_[static_cast<std::size_t>(a)];
    const item& y = items_[static_cast<std::size_t>(b)];
    if (x.cost != y.cost) return x.cost < y.cost;
    if (x.extra != y.extra) return x.extra < y.extra;
    return x.state < y.state;
  }
  // One push per improvement; a state improves at most once per incoming move.
  std::array<item, kMaxStates * 8> items_;  // only [0, size_) is ever read
  int size_ = 0;
};

// Euclidean lengths for every lattice vector of the largest block.
cost_t length(point a, point b) {
  static const auto table = [] {
    std::array<std::array<cost_t, block_shape::kMaxBlock + 1>, block_shape::kMaxBlock + 1> t{};
    for (int dx = 0; dx <= block_shape::kMaxBlock; ++dx)
      for (int dy = 0; dy <= block_shape::kMaxBlock; ++dy) t[dx][dy] = euclid_cost(dx, dy);
    return t;
  }();
  return table[static_cast<std::size_t>(std::abs(a.x - b.x))][static_cast<std::size_t>(std::abs(a.y - b.y))];
}

}  // namespace

block_graph::block_graph(const rule& r, const block_shape& shape, std::uint32_t code, visibility mode)
    : rule_(r), shape_(shape), code_(code), lazy_(mode == visibility::lazy) {
  const int np = shape.point_count();
  for (int v = 0; v < np; ++v) {
    usable_[static_cast<std::size_t>(v)] = shape.point_usable(code, shape.point_at(v));
    usable_mask_ |= std::uint64_t{usable_[static_cast<std::size_t>(v)]} << v;
  }
  if (!r.on_vertices() || lazy_) return;
  const pattern_grid grid{code, shape.block()};
  for (int u = 0; u < np; ++u) {
    if (!usable_[static_cast<std::size_t>(u)]) continue;
    const point pu = shape.point_at(u);
    for (int v = u + 1; v < np; ++v) {
      if (!usable_[static_cast<std::size_t>(v)]) continue;
      const point pv = shape.point_at(v);
      if (segment_legal(r, grid, pu.x, pu.y, pv.x, pv.y)) {
        visible_[static_cast<std::size_t>(u)] |= std::uint64_t{1} << v;
        visible_[static_cast<std::size_t>(v)] |= std::uint64_t{1} << u;
      }
    }
  }
}

bool block_graph::sees(int u, int v) const {
  const std::uint64_t bit = std::uint64_t{1} << v;
  if (lazy_ && !(tested_[static_cast<std::size_t>(u)] & bit)) {
    const point pu = shape_.point_at(u), pv = shape_.point_at(v);
    const bool legal = segment_legal(rule_, pattern_grid{code_, shape_.block()}, pu.x, pu.y, pv.x, pv.y);
    tested_[static_cast<std::size_t>(u)] |= bit;
    tested_[static_cast<std::size_t>(v)] |= std::uint64_t{1} << u;
    if (legal) {
      visible_[static_cast<std::size_t>(u)] |= bit;
      visible_[static_cast<std::size_t>(v)] |= std::uint64_t{1} << u;
    }
  }
  return (visible_[static_cast<std::size_t>(u)] & bit) != 0;
}

void block_graph::search(int source, paths& out) const {
  const int np = shape_.point_count();
  out.cost.fill(kUnreachable);
  out.best_state.fill(-1);
  if (!usable_[static_cast<std::size_t>(source)]) return;

  if (rule_.on_vertices()) {
    // Dense Dijkstra: at most 36 vertices, a scan beats a heap.
    out.stride = 1;
    std::array<int, kMaxPoints> segments{};
    std::uint64_t open = std::uint64_t{1} << source, closed = 0;
    out.cost[static_cast<std::size_t>(source)] = 0;
    out.parent[static_cast<std::size_t>(source)] = -1;
    while (open) {
      int u = -1;
      for (std::uint64_t m = open; m; m &= m - 1) {
        const int v = __builtin_ctzll(m);
        if (u < 0 || key{out.cost[static_cast<std::size_t>(v)], segments[static_cast<std::size_t>(v)]} <
                         key{out.cost[static_cast<std::size_t>(u)], segments[static_cast<std::size_t>(u)]})
          u = v;
      }
      open &= ~(std::uint64_t{1} << u);
      closed |= std::uint64_t{1} << u;
      out.best_state[static_cast<std::size_t>(u)] = u;
      const point pu = shape_.point_at(u);
      const key ku{out.cost[static_cast<std::size_t>(u)], segments[static_cast<std::size_t>(u)]};
      // Lazy: every usable vertex is a candidate, and the segment is tested only for a
      // relaxation that would improve, which changes nothing in the result.
      const std::uint64_t candidates = lazy_ ? usable_mask_ & ~(std::uint64_t{1} << u) : visible_[static_cast<std::size_t>(u)];
      for (std::uint64_t m = candidates & ~closed; m; m &= m - 1) {
        const int v = __builtin_ctzll(m);
        const key nk{ku.cost + length(pu, shape_.point_at(v)), ku.extra + 1};
        if (nk < key{out.cost[static_cast<std::size_t>(v)], segments[static_cast<std::size_t>(v)]} && sees(u, v)) {
          out.cost[static_cast<std::size_t>(v)] = nk.cost;
          segments[static_cast<std::size_t>(v)] = nk.extra;
          out.parent[static_cast<std::size_t>(v)] = u;
          open |= std::uint64_t{1} << v;
        }
      }
    }
    return;
  }

  const int headings = step_count(rule_);
  const int none = headings;  // the start state's heading slot
  const int stride = headings + 1;
  out.stride = stride;
  const pattern_grid grid{code_, shape_.block()};
  std::array<key, kMaxStates> best;
  std::array<bool, kMaxStates> done{};
  best.fill(key{});
  state_heap heap;
  // Each cell's legal moves, worked out once, on the first state settled there: a cell is
  // settled with up to 9 headings and the moves do not depend on the heading.
  std::array<std::uint8_t, kMaxPoints> moves;
  std::uint64_t moves_known = 0;
  const int start = source * stride + none;
  best[static_cast<std::size_t>(start)] = {0, 0};
  out.parent[static_cast<std::size_t>(start)] = -1;
  heap.push(best[static_cast<std::size_t>(start)], start);
  while (!heap.empty()) {
    const auto [k, s] = heap.pop();
    if (done[static_cast<std::size_t>(s)]) continue;
    done[static_cast<std::size_t>(s)] = true;
    const int cell = s / stride;
    // The first state settled at a cell is its best: it fixes cost and path.
    if (out.best_state[static_cast<std::size_t>(cell)] < 0) {
      out.best_state[static_cast<std::size_t>(cell)] = s;
      out.cost[static_cast<std::size_t>(cell)] = k.cost;
    }
    const point p = shape_.point_at(cell);
    const int heading = s % stride;
    if (!((moves_known >> cell) & 1u)) {
      std::uint8_t legal = 0;
      for (int m = 0; m < headings; ++m)
        if (step_legal(rule_, grid, p.x, p.y, kSteps[static_cast<std::size_t>(m)][0], kSteps[static_cast<std::size_t>(m)][1]))
          legal |= static_cast<std::uint8_t>(1u << m);
      moves[static_cast<std::size_t>(cell)] = legal;
      moves_known |= std::uint64_t{1} << cell;
    }
    for (unsigned left = moves[static_cast<std::size_t>(cell)]; left; left &= left - 1) {
      const int m = __builtin_ctz(left);
      const int dx = kSteps[static_cast<std::size_t>(m)][0], dy = kSteps[static_cast<std::size_t>(m)][1];
      const key nk{k.cost + step_cost(rule_, dx, dy), k.extra + (heading != none && heading != m ? 1 : 0)};
      const int ns = shape_.point_index({p.x + dx, p.y + dy}) * stride + m;
      if (nk < best[static_cast<std::size_t>(ns)]) {
        best[static_cast<std::size_t>(ns)] = nk;
        out.parent[static_cast<std::size_t>(ns)] = s;
        heap.push(nk, ns);
      }
    }
  }
  (void)np;
}

int block_graph::paths::path_to(int target, int* points) const {
  int s = best_state[static_cast<std::size_t>(target)];
  if (s < 0) return 0;
  int n = 0;
  for (; s >= 0; s = parent[static_cast<std::size_t>(s)]) points[n++] = s / stride;
  std::reverse(points, points + n);
  return n;
}

}  // namespace lddb
