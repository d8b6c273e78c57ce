// One pattern's entry: least costs between all boundary pairs and one path per pair.
//
// Cells (tile, octile): Dijkstra over (cell, heading) states, keyed (cost, turns), so of all
// least-cost paths the one with fewest turns is kept: fewer inflection points, a smaller
// file and straighter paths. Vertices (any-angle): Dijkstra on the visibility graph of the
// block's (b+1)^2 corners, keyed (cost, segments). Ties beyond that fall to the lowest
// state index, which makes the choice deterministic.
//
// Everything lives in fixed-size arrays: this runs for millions of patterns at b = 5.
#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "lddb/generator.hpp"

namespace lddb {

namespace {

constexpr int kMaxPoints = (block_shape::kMaxBlock + 1) * (block_shape::kMaxBlock + 1);
constexpr int kMaxHeadings = 8;
constexpr int kMaxStates = kMaxPoints * (kMaxHeadings + 1);
constexpr std::uint8_t kAnyAngleScaleLog2 = 11;

struct key {
  cost_t cost = kUnreachable;
  int extra = 0;  // turns (cells) or segments (vertices)
  friend bool operator<(const key& a, const key& b) {
    return a.cost != b.cost ? a.cost < b.cost : a.extra < b.extra;
  }
};

// A small binary min-heap of (key, state); stale entries are skipped by the caller.
class state_heap {
 public:
  void clear() { size_ = 0; }
  bool empty() const { return size_ == 0; }
  void push(key k, int s) {
    int i = size_++;
    items_[static_cast<std::size_t>(i)] = {k, s};
    while (i > 0) {
      const int p = (i - 1) / 2;
      if (!less(i, p)) break;
      std::swap(items_[static_cast<std::size_t>(i)], items_[static_cast<std::size_t>(p)]);
      i = p;
    }
  }
  std::pair<key, int> pop() {
    const auto top = items_[0];
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
    return top;
  }

 private:
  bool less(int a, int b) const {
    const auto& x = items_[static_cast<std::size_t>(a)];
    const auto& y = items_[static_cast<std::size_t>(b)];
    if (x.first < y.first) return true;
    if (y.first < x.first) return false;
    return x.second < y.second;
  }
  // Each state is pushed at most once per improvement; the bound below is generous.
  std::array<std::pair<key, int>, kMaxStates * kMaxHeadings> items_{};
  int size_ = 0;
};

// Appends one path (inflection point indices, in order from i to j) to an entry.
struct path_writer {
  std::vector<std::uint8_t>& out;
  std::size_t bitmap_at;
  void add(int pair, const int* points, int count) {
    if (count == 0) return;
    out[bitmap_at + static_cast<std::size_t>(pair / 8)] |= static_cast<std::uint8_t>(1u << (pair % 8));
    out.push_back(static_cast<std::uint8_t>(count));
    for (int k = 0; k < count; ++k) out.push_back(static_cast<std::uint8_t>(points[k]));
  }
};

std::uint16_t checked_store(std::uint64_t value, const rule& r) {
  if (value >= kStoredUnreachable)
    throw std::runtime_error("a cost of rule " + r.name() + " does not fit in 16 bits");
  return static_cast<std::uint16_t>(value);
}

// ----------------------------------------------------------------------------- cells

void solve_cells(const rule& r, const block_shape& shape, std::uint32_t code, pattern_entry& e,
                 path_writer& paths) {
  const int b = shape.block();
  const int n = shape.boundary_count();
  const int headings = step_count(r);
  const int none = headings;  // the start state's heading slot
  const int stride = headings + 1;
  const pattern_grid grid{code, b};
  const cost_format fmt = cost_format_for(r);

  std::array<key, kMaxStates> best;
  std::array<int, kMaxStates> parent;
  std::array<bool, kMaxStates> done;
  state_heap heap;

  for (int i = 0; i < n; ++i) {
    const point src = shape.boundary_point(i);
    if (grid.blocked(src.x, src.y)) continue;  // every pair with i stays unreachable
    best.fill(key{});
    done.fill(false);
    heap.clear();
    const int start = shape.point_index(src) * stride + none;
    best[static_cast<std::size_t>(start)] = {0, 0};
    parent[static_cast<std::size_t>(start)] = -1;
    heap.push(best[static_cast<std::size_t>(start)], start);
    while (!heap.empty()) {
      const auto [k, s] = heap.pop();
      if (done[static_cast<std::size_t>(s)]) continue;
      done[static_cast<std::size_t>(s)] = true;
      const point p = shape.point_at(s / stride);
      const int heading = s % stride;
      for (int m = 0; m < headings; ++m) {
        const int dx = kSteps[static_cast<std::size_t>(m)][0], dy = kSteps[static_cast<std::size_t>(m)][1];
        if (!step_legal(r, grid, p.x, p.y, dx, dy)) continue;
        const key nk{k.cost + step_cost(r, dx, dy), k.extra + (heading != none && heading != m ? 1 : 0)};
        const int ns = shape.point_index({p.x + dx, p.y + dy}) * stride + m;
        if (nk < best[static_cast<std::size_t>(ns)]) {
          best[static_cast<std::size_t>(ns)] = nk;
          parent[static_cast<std::size_t>(ns)] = s;
          heap.push(nk, ns);
        }
      }
    }
    for (int j = i + 1; j < n; ++j) {
      const int cell = shape.point_index(shape.boundary_point(j));
      int end = -1;
      for (int m = 0; m < headings; ++m) {
        const int s = cell * stride + m;
        if (best[static_cast<std::size_t>(s)].cost != kUnreachable &&
            (end < 0 || best[static_cast<std::size_t>(s)] < best[static_cast<std::size_t>(end)]))
          end = s;
      }
      if (end < 0) continue;
      // Walk back from j to i: count moves and collect the cells where the heading changes.
      int turns[kMaxPoints];
      int count = 0, straight = 0, diagonal = 0;
      for (int s = end; parent[static_cast<std::size_t>(s)] >= 0; s = parent[static_cast<std::size_t>(s)]) {
        const int m = s % stride;
        (kSteps[static_cast<std::size_t>(m)][0] != 0 && kSteps[static_cast<std::size_t>(m)][1] != 0 ? diagonal : straight)++;
        const int prev = parent[static_cast<std::size_t>(s)];
        const int prev_heading = prev % stride;
        if (prev_heading != none && prev_heading != m) turns[count++] = prev / stride;
      }
      std::reverse(turns, turns + count);
      const int pair = shape.pair_index(i, j);
      if (fmt.encoding == cost_encoding::octile_pair) {
        if (straight > 255 || diagonal > 255) throw std::runtime_error("octile path too long for its encoding");
        e.costs[static_cast<std::size_t>(pair)] = checked_store(static_cast<std::uint64_t>(straight | (diagonal << 8)), r);
      } else {
        e.costs[static_cast<std::size_t>(pair)] = checked_store(best[static_cast<std::size_t>(end)].cost >> kCostShift, r);
      }
      paths.add(pair, turns, count);
    }
  }
}

// ----------------------------------------------------------------------------- vertices

// Euclidean lengths between all vertices of the largest block, indexed by |dx|, |dy|.
const std::array<std::array<cost_t, block_shape::kMaxBlock + 1>, block_shape::kMaxBlock + 1>& lengths() {
  static const auto table = [] {
    std::array<std::array<cost_t, block_shape::kMaxBlock + 1>, block_shape::kMaxBlock + 1> t{};
    for (int dx = 0; dx <= block_shape::kMaxBlock; ++dx)
      for (int dy = 0; dy <= block_shape::kMaxBlock; ++dy) t[dx][dy] = euclid_cost(dx, dy);
    return t;
  }();
  return table;
}

cost_t length(point a, point b) {
  return lengths()[static_cast<std::size_t>(std::abs(a.x - b.x))][static_cast<std::size_t>(std::abs(a.y - b.y))];
}

void solve_vertices(const rule& r, const block_shape& shape, std::uint32_t code, pattern_entry& e,
                    path_writer& paths) {
  const int np = shape.point_count();
  const int n = shape.boundary_count();
  const pattern_grid grid{code, shape.block()};
  const int shift = kCostShift - cost_format_for(r).scale_log2;

  std::array<bool, kMaxPoints> usable{};
  for (int v = 0; v < np; ++v) usable[static_cast<std::size_t>(v)] = shape.point_usable(code, shape.point_at(v));
  // visible[u] is a bit set of the vertices u sees along a legal segment.
  std::array<std::uint64_t, kMaxPoints> visible{};
  for (int u = 0; u < np; ++u) {
    if (!usable[static_cast<std::size_t>(u)]) continue;
    const point pu = shape.point_at(u);
    for (int v = u + 1; v < np; ++v) {
      if (!usable[static_cast<std::size_t>(v)]) continue;
      const point pv = shape.point_at(v);
      if (segment_legal(r, grid, pu.x, pu.y, pv.x, pv.y)) {
        visible[static_cast<std::size_t>(u)] |= std::uint64_t{1} << v;
        visible[static_cast<std::size_t>(v)] |= std::uint64_t{1} << u;
      }
    }
  }

  std::array<key, kMaxPoints> best;
  std::array<int, kMaxPoints> parent;
  for (int i = 0; i < n; ++i) {
    const int src = shape.point_index(shape.boundary_point(i));
    if (!usable[static_cast<std::size_t>(src)]) continue;
    best.fill(key{});
    parent.fill(-1);
    std::uint64_t open = 0, closed = 0;
    best[static_cast<std::size_t>(src)] = {0, 0};
    open |= std::uint64_t{1} << src;
    while (open) {
      int u = -1;  // dense Dijkstra: at most 36 vertices, a scan beats a heap
      for (std::uint64_t m = open; m; m &= m - 1) {
        const int v = __builtin_ctzll(m);
        if (u < 0 || best[static_cast<std::size_t>(v)] < best[static_cast<std::size_t>(u)]) u = v;
      }
      open &= ~(std::uint64_t{1} << u);
      closed |= std::uint64_t{1} << u;
      const point pu = shape.point_at(u);
      for (std::uint64_t m = visible[static_cast<std::size_t>(u)] & ~closed; m; m &= m - 1) {
        const int v = __builtin_ctzll(m);
        const key nk{best[static_cast<std::size_t>(u)].cost + length(pu, shape.point_at(v)),
                     best[static_cast<std::size_t>(u)].extra + 1};
        if (nk < best[static_cast<std::size_t>(v)]) {
          best[static_cast<std::size_t>(v)] = nk;
          parent[static_cast<std::size_t>(v)] = u;
          open |= std::uint64_t{1} << v;
        }
      }
    }
    for (int j = i + 1; j < n; ++j) {
      const int dst = shape.point_index(shape.boundary_point(j));
      if (best[static_cast<std::size_t>(dst)].cost == kUnreachable) continue;
      // The path from i to j; drop a vertex that lies on the segment joining its
      // neighbours (rounding can make such a split look a hair cheaper), then cost the
      // path that is stored, so the stored cost is exactly that path's length.
      int chain[kMaxPoints];
      int len = 0;
      for (int v = dst; v >= 0; v = parent[static_cast<std::size_t>(v)]) chain[len++] = v;
      std::reverse(chain, chain + len);
      int kept[kMaxPoints];
      int nk = 0;
      for (int k = 0; k < len; ++k) {
        if (nk >= 2) {
          const point a = shape.point_at(kept[nk - 2]), m = shape.point_at(kept[nk - 1]), c = shape.point_at(chain[k]);
          const long cross = static_cast<long>(m.x - a.x) * (c.y - a.y) - static_cast<long>(m.y - a.y) * (c.x - a.x);
          const long dot = static_cast<long>(m.x - a.x) * (c.x - m.x) + static_cast<long>(m.y - a.y) * (c.y - m.y);
          // Only when the merged segment is itself legal: under the default rule a path
          // may stop at a double corner and go on in the same direction, but a single
          // segment may not pass through it.
          if (cross == 0 && dot > 0 && segment_legal(r, grid, a.x, a.y, c.x, c.y)) --nk;
        }
        kept[nk++] = chain[k];
      }
      cost_t total = 0;
      for (int k = 1; k < nk; ++k) total += length(shape.point_at(kept[k - 1]), shape.point_at(kept[k]));
      const int pair = shape.pair_index(i, j);
      e.costs[static_cast<std::size_t>(pair)] =
          checked_store((total + (cost_t{1} << (shift - 1))) >> shift, r);
      paths.add(pair, kept + 1, nk - 2);
    }
  }
}

}  // namespace

cost_format cost_format_for(const rule& r) {
  switch (r.kind) {
    case rule_kind::tile:
      return {cost_encoding::fixed_point, 0};
    case rule_kind::octile:
      return {cost_encoding::octile_pair, 0};
    case rule_kind::any_angle:
      return {cost_encoding::fixed_point, kAnyAngleScaleLog2};
  }
  throw std::logic_error("unknown rule kind");
}

pattern_entry solve_pattern(const rule& r, const block_shape& shape, std::uint32_t code) {
  pattern_entry e;
  e.costs.assign(static_cast<std::size_t>(shape.pair_count()), kStoredUnreachable);
  e.paths.assign(static_cast<std::size_t>((shape.pair_count() + 7) / 8), 0);
  path_writer paths{e.paths, 0};
  if (r.on_vertices())
    solve_vertices(r, shape, code, e, paths);
  else
    solve_cells(r, shape, code, e, paths);
  return e;
}

}  // namespace lddb
