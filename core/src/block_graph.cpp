// Least-cost paths inside one block pattern. See lddb/block_graph.hpp.
// Fixed-size arrays only: the generator runs this millions of times at b = 5.
#include <algorithm>
#include <cstdlib>

#include "lddb/block_graph.hpp"
#include "lddb/segments.hpp"
#include "lddb/moves.hpp"

namespace lddb {

namespace {

constexpr int kMaxPoints = block_graph::kMaxPoints;

struct key {
  cost_t cost = kUnreachable;
  int extra = 0;  // segments
  friend bool operator<(const key& a, const key& b) {
    return a.cost != b.cost ? a.cost < b.cost : a.extra < b.extra;
  }
};

// Euclidean lengths for every lattice vector of the largest block, by |dx| and |dy|.
using length_table = std::array<std::array<cost_t, block_shape::kMaxBlock + 1>, block_shape::kMaxBlock + 1>;
const length_table& lengths() {
  static const length_table table = [] {
    length_table t{};
    for (int dx = 0; dx <= block_shape::kMaxBlock; ++dx)
      for (int dy = 0; dy <= block_shape::kMaxBlock; ++dy) t[dx][dy] = euclid_cost(dx, dy);
    return t;
  }();
  return table;
}
cost_t length(const length_table& t, point a, point b) {
  return t[static_cast<std::size_t>(std::abs(a.x - b.x))][static_cast<std::size_t>(std::abs(a.y - b.y))];
}

}  // namespace

block_graph::block_graph(const rule& r, const block_shape& shape, std::uint32_t code, visibility mode)
    : rule_(r), shape_(shape), code_(code), lazy_(mode == visibility::lazy) {
  const int np = shape.point_count();
  for (int v = 0; v < np; ++v) {
    usable_[static_cast<std::size_t>(v)] = shape.point_usable(code, shape.point_at(v));
    usable_mask_ |= std::uint64_t{usable_[static_cast<std::size_t>(v)]} << v;
  }
  if (!r.on_vertices()) return;
  const pattern_grid grid{code, shape.block()};
  second_.fill(-1);
  if (r.squeeze == squeezing::forbidden && code != 0) {
    const int b = shape.block();
    for (int y = 1; y < b; ++y)
      for (int x = 1; x < b; ++x)
        if (double_corner(grid, x, y)) {
          const int v = shape.point_index({x, y});
          double_corners_ |= std::uint64_t{1} << v;
          second_[static_cast<std::size_t>(v)] = static_cast<std::int8_t>(np + inner_count_);
          inner_[static_cast<std::size_t>(inner_count_++)] = static_cast<std::int8_t>(v);
        }
  }
  if (lazy_) return;
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

int block_graph::endpoint_state(int index) const {
  if (!((double_corners_ >> index) & 1u)) return index;
  const point p = shape_.point_at(index);
  return pattern_grid{code_, shape_.block()}.blocked(p.x, p.y) ? -1 : second_[static_cast<std::size_t>(index)];
}

void block_graph::search(int source, paths& out) const {
  out.cost.fill(kUnreachable);
  out.best_state.fill(-1);
  const int np = shape_.point_count();
  if (source < 0 || !usable_[static_cast<std::size_t>(source < np ? source : inner_[static_cast<std::size_t>(source - np)])])
    return;

  if (rule_.on_vertices()) {
    out.stride = 1;
    out.points = np;
    out.inner = inner_;
    const length_table& table = lengths();  // once: the search reads it for every pair
    if (code_ == 0) {
      // An open block is convex: every vertex sees every other, and the straight segment
      // is the one least-cost path with the fewest segments.
      const point ps = shape_.point_at(source);
      for (int v = 0; v < shape_.point_count(); ++v) {
        out.cost[static_cast<std::size_t>(v)] = length(table, ps, shape_.point_at(v));
        out.parent[static_cast<std::size_t>(v)] = source;
        out.best_state[static_cast<std::size_t>(v)] = v;
      }
      out.parent[static_cast<std::size_t>(source)] = -1;
      return;
    }
    // Dense Dijkstra over the states: at most 52, a scan beats a heap.
    const pattern_grid grid{code_, shape_.block()};
    std::array<int, kMaxStates> segments{};
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
      const int up = u < np ? u : inner_[static_cast<std::size_t>(u - np)];  // the state's point
      const point pu = shape_.point_at(up);
      const bool u_corner = (double_corners_ >> up) & 1u;
      const int u_side = u < np ? 0 : 1;
      const key ku{out.cost[static_cast<std::size_t>(u)], segments[static_cast<std::size_t>(u)]};
      // Lazy: every usable vertex is a candidate, and the segment is tested only for a
      // relaxation that would improve, which changes nothing in the result. A double
      // corner's side-0 state being closed says nothing of its side-1 state.
      const std::uint64_t candidates = lazy_ ? usable_mask_ & ~(std::uint64_t{1} << up) : visible_[static_cast<std::size_t>(up)];
      for (std::uint64_t m = candidates & ~(closed & ~double_corners_); m; m &= m - 1) {
        const int vp = __builtin_ctzll(m);
        const point pv = shape_.point_at(vp);
        // A segment leaves u on one side and reaches v on one side (lddb/segments.hpp):
        // only from u's own side, into the state of the side it arrives on.
        if (u_corner && segment_side(grid, pu.x, pu.y, pv.x, pv.y) != u_side) continue;
        int v = vp;
        if (((double_corners_ >> vp) & 1u) && segment_side(grid, pv.x, pv.y, pu.x, pu.y) == 1)
          v = second_[static_cast<std::size_t>(vp)];
        if ((closed >> v) & 1u) continue;
        const key nk{ku.cost + length(table, pu, pv), ku.extra + 1};
        if (nk < key{out.cost[static_cast<std::size_t>(v)], segments[static_cast<std::size_t>(v)]} && sees(up, vp)) {
          out.cost[static_cast<std::size_t>(v)] = nk.cost;
          segments[static_cast<std::size_t>(v)] = nk.extra;
          out.parent[static_cast<std::size_t>(v)] = u;
          open |= std::uint64_t{1} << v;
        }
      }
    }
    return;
  }

  // Cells. The least cost of every cell first (at most 25 cells: a scan beats a heap),
  // then, over the moves that lie on least-cost paths only, the fewest turns: each state
  // (cell, heading of the move that entered it) takes its turns from the states of the
  // cell the move came from, cells taken in order of cost. This gives exactly the result
  // of Dijkstra over the states keyed (cost, turns, state index) (the parent of a state
  // is the first of its best predecessors that such a search would settle), at less cost:
  // Block A* runs this twice a query.
  const int headings = step_count(rule_);
  const int none = headings;  // the start state's heading slot
  const int stride = headings + 1;
  out.stride = stride;
  const pattern_grid grid{code_, shape_.block()};
  const int side = shape_.side();
  std::array<std::uint8_t, kMaxPoints> moves{};  // legal moves of each settled cell
  std::array<int, kMaxPoints> order;           // settled cells in order of cost
  int settled = 0;
  std::uint64_t open = std::uint64_t{1} << source, closed = 0;
  out.cost[static_cast<std::size_t>(source)] = 0;
  while (open) {
    int u = __builtin_ctzll(open);
    for (std::uint64_t m = open & (open - 1); m; m &= m - 1) {
      const int v = __builtin_ctzll(m);
      if (out.cost[static_cast<std::size_t>(v)] < out.cost[static_cast<std::size_t>(u)]) u = v;
    }
    open &= ~(std::uint64_t{1} << u);
    closed |= std::uint64_t{1} << u;
    order[static_cast<std::size_t>(settled++)] = u;
    const point p = shape_.point_at(u);
    std::uint8_t legal = 0;
    for (int m = 0; m < headings; ++m) {
      const int dx = kSteps[static_cast<std::size_t>(m)][0], dy = kSteps[static_cast<std::size_t>(m)][1];
      if (!step_legal(rule_, grid, p.x, p.y, dx, dy)) continue;
      legal |= static_cast<std::uint8_t>(1u << m);
      const int v = u + dy * side + dx;
      if ((closed >> v) & 1u) continue;
      const cost_t c = out.cost[static_cast<std::size_t>(u)] + step_cost(rule_, dx, dy);
      if (c < out.cost[static_cast<std::size_t>(v)]) {
        out.cost[static_cast<std::size_t>(v)] = c;
        open |= std::uint64_t{1} << v;
      }
    }
    moves[static_cast<std::size_t>(u)] = legal;
  }

  constexpr int kNone = 1 << 20;  // no least-cost path ends in this state
  std::array<std::array<int, 9>, kMaxPoints> turns;
  turns[static_cast<std::size_t>(source)].fill(kNone);
  turns[static_cast<std::size_t>(source)][static_cast<std::size_t>(none)] = 0;
  out.best_state[static_cast<std::size_t>(source)] = source * stride + none;
  out.parent[static_cast<std::size_t>(source * stride + none)] = -1;
  for (int k = 1; k < settled; ++k) {
    const int c = order[static_cast<std::size_t>(k)];
    const point pc = shape_.point_at(c);
    auto& tc = turns[static_cast<std::size_t>(c)];
    tc.fill(kNone);
    int best_turns = kNone;
    for (int m = 0; m < headings; ++m) {
      const int dx = kSteps[static_cast<std::size_t>(m)][0], dy = kSteps[static_cast<std::size_t>(m)][1];
      const int px = pc.x - dx, py = pc.y - dy;
      if (px < 0 || py < 0 || px >= side || py >= side) continue;
      const int pi = py * side + px;
      if (!((closed >> pi) & 1u) || !((moves[static_cast<std::size_t>(pi)] >> m) & 1u)) continue;
      if (out.cost[static_cast<std::size_t>(pi)] + step_cost(rule_, dx, dy) != out.cost[static_cast<std::size_t>(c)]) continue;
      // The predecessor state giving the fewest turns; among equals the one settled first:
      // fewer turns of its own, then the lower heading.
      const auto& tp = turns[static_cast<std::size_t>(pi)];
      int best = kNone, best_own = kNone, best_h = -1;
      for (int h = 0; h <= none; ++h) {
        const int own = tp[static_cast<std::size_t>(h)];
        if (own == kNone) continue;
        const int t = own + (h != m && h != none ? 1 : 0);
        if (t < best || (t == best && own < best_own)) {
          best = t;
          best_own = own;
          best_h = h;
        }
      }
      tc[static_cast<std::size_t>(m)] = best;
      out.parent[static_cast<std::size_t>(c * stride + m)] = pi * stride + best_h;
      if (best < best_turns) {  // the cell's first settled state: fewest turns, lowest heading
        best_turns = best;
        out.best_state[static_cast<std::size_t>(c)] = c * stride + m;
      }
    }
  }
}

int block_graph::paths::path_to(int target, int* points) const {
  int s = best_state[static_cast<std::size_t>(target)];
  if (s < 0) return 0;
  int n = 0;
  for (; s >= 0; s = parent[static_cast<std::size_t>(s)]) {
    const int p = s / stride;  // vertices: stride 1, and a side-1 state names its point
    points[n++] = stride == 1 && p >= this->points ? inner[static_cast<std::size_t>(p - this->points)] : p;
  }
  std::reverse(points, points + n);
  return n;
}

}  // namespace lddb
