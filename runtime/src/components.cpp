// Component labels of a grid_map's free cells (lddb/grid.hpp) and what they say about a
// query under a rule (lddb/search.hpp).
//
// Each connectivity has a union-find over the map's cells (parent index, or -(set size)
// at a root), built on first use by a two-pass scan and kept exact by set_blocked:
//   - freeing a cell joins it to its free neighbours. Its own set may hold free cells of
//     another component when it was blocked without a rebuild since (blocking leaves a cell
//     in its set); then, unless one of its neighbours shares that set or the set is the
//     cell alone, the labels are marked stale;
//   - blocking a cell splits nothing when its free neighbours stay joined through the 8
//     cells around it (a path through it can go round it); otherwise the labels are marked
//     stale. A blocked cell's set membership means nothing.
// A stale or missing connectivity is rebuilt by the next query that asks, under the lock.
// So for two free cells, one set means one component, always when a query reads them.
#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "context.hpp"
#include "lddb/grid.hpp"
#include "lddb/moves.hpp"
#include "lddb/search.hpp"
#include "lddb/segments.hpp"

namespace lddb {

namespace {

// The 8 cells around a cell, clockwise from north-west; bit i of a ring pattern is set
// when ring cell i is free.
constexpr std::array<std::array<int, 2>, 8> kRing{{{-1, -1}, {0, -1}, {1, -1}, {1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}}};

constexpr bool adjacent(connectivity c, int dx, int dy) {
  const int ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
  return c == connectivity::four ? ax + ay == 1 : ax <= 1 && ay <= 1 && ax + ay > 0;
}

// safe[p]: with ring pattern p around a blocked cell, are all free ring cells that touch
// the centre joined by paths through free ring cells? Then blocking the centre splits no
// component.
constexpr std::array<bool, 256> safe_table(connectivity c) {
  std::array<bool, 256> safe{};
  for (int p = 0; p < 256; ++p) {
    int touching = 0, first = -1;
    for (int i = 0; i < 8; ++i)
      if (((p >> i) & 1) && adjacent(c, kRing[i][0], kRing[i][1])) {
        touching |= 1 << i;
        if (first < 0) first = i;
      }
    int reached = first < 0 ? 0 : 1 << first;
    for (bool grew = true; grew;) {
      grew = false;
      for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j)
          if (((reached >> i) & 1) && !((reached >> j) & 1) && ((p >> j) & 1) &&
              adjacent(c, kRing[j][0] - kRing[i][0], kRing[j][1] - kRing[i][1])) {
            reached |= 1 << j;
            grew = true;
          }
    }
    safe[static_cast<std::size_t>(p)] = (touching & ~reached) == 0;
  }
  return safe;
}
constexpr std::array<std::array<bool, 256>, 2> kSafe{safe_table(connectivity::four), safe_table(connectivity::eight)};

// Leaves the elements a vector grows by unwritten: the labels' rebuild writes every cell
// itself, and clearing them first would write the whole table twice.
template <class T>
struct unwritten_allocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = unwritten_allocator<U>;
  };
  unwritten_allocator() = default;
  template <class U>
  unwritten_allocator(const unwritten_allocator<U>&) noexcept {}
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};
using label_table = std::vector<std::int32_t, unwritten_allocator<std::int32_t>>;

// std::fill of [p, e) with v, eight at a time and the rest by stores of four, the last
// ending at e (over cells already written): -O2 leaves a fill of unknown length a loop of
// single stores, and the labels' rebuild fills every row of the map, mostly in short runs.
inline void fill_label(std::int32_t* p, std::int32_t* e, std::int32_t v) {
  using four = std::int32_t __attribute__((vector_size(16)));
  const four vs = {v, v, v, v};
  if (e - p < 4) {  // one store each, not a loop the compiler would make a call of
    if (e - p > 0) p[0] = v;
    if (e - p > 1) p[1] = v;
    if (e - p > 2) p[2] = v;
    return;
  }
  for (; e - p > 8; p += 8) {
    std::memcpy(p, &vs, sizeof vs);
    std::memcpy(p + 4, &vs, sizeof vs);
  }
  // 1 to 8 cells left, at least 4 written or to write from p: one or two stores, the last
  // ending at e.
  if (e - p > 4) std::memcpy(p, &vs, sizeof vs);
  std::memcpy(e - 4, &vs, sizeof vs);
}

}  // namespace

struct grid_map::components {
  struct labels {
    label_table parent;  // empty: never built
    bool stale = false;
  };
  std::mutex lock;  // queries on a const map, from any thread
  std::array<labels, 2> of;

  static std::int32_t find(label_table& parent, std::int32_t i) {
    while (parent[static_cast<std::size_t>(i)] >= 0) {
      const std::int32_t up = parent[static_cast<std::size_t>(i)];
      if (parent[static_cast<std::size_t>(up)] >= 0) parent[static_cast<std::size_t>(i)] = parent[static_cast<std::size_t>(up)];
      i = up;
    }
    return i;
  }
  static void unite(label_table& parent, std::int32_t a, std::int32_t b) {
    a = find(parent, a);
    b = find(parent, b);
    if (a == b) return;
    if (parent[static_cast<std::size_t>(a)] > parent[static_cast<std::size_t>(b)]) std::swap(a, b);  // a: the larger set
    parent[static_cast<std::size_t>(a)] += parent[static_cast<std::size_t>(b)];
    parent[static_cast<std::size_t>(b)] = a;
  }

  // By runs of free cells: each cell of a run points at the run's first cell, and a run is
  // united with each run of the row above that it touches, found by walking the two rows'
  // runs side by side. Every cell is written once (a blocked one as a set of its own, so
  // that freeing it later finds a valid set): the table is not cleared first.
  struct run {
    int x, end;         // columns [x, end)
    std::int32_t head;  // index of its first cell
  };
  // The runs of free cells of row y, left to right, from the row's words: a run starts at
  // a free cell after a blocked one and ends at a blocked cell after a free one. The word
  // holding column width() ends the last run (the cells past the map are blocked).
  static void row_runs(const grid_map& m, int y, std::vector<run>& out) {
    out.clear();
    const std::uint64_t* const line = m.row_line(y);
    const std::int32_t base = y * m.width_;
    std::uint64_t before = 0;  // bit 0: the last cell of the word before is free
    int x = 0;
    for (int k = 0; k <= m.width_ >> 6; ++k) {
      const std::uint64_t free = ~line[k], shifted = free << 1 | before;
      before = free >> 63;
      for (std::uint64_t edges = free ^ shifted; edges; edges &= edges - 1) {
        const int at = k * 64 + std::countr_zero(edges);
        if ((free >> (at & 63)) & 1u) {
          x = at;
        } else {
          out.push_back({x, at, base + x});
        }
      }
    }
  }
  static void rebuild(const grid_map& m, connectivity c, labels& l) {
    const int w = m.width(), h = m.height();
    l.parent.resize(static_cast<std::size_t>(w) * static_cast<std::size_t>(h));
    l.stale = false;
    const int reach = c == connectivity::eight ? 1 : 0;  // how far past its ends a run touches
    std::vector<run> above, here;
    for (int y = 0; y < h; ++y) {
      std::int32_t* const row = l.parent.data() + static_cast<std::ptrdiff_t>(y) * w;
      row_runs(m, y, here);
      int done = 0;  // cells of the row written so far
      for (const run& r : here) {
        fill_label(row + done, row + r.x, -1);
        row[r.x] = -(r.end - r.x);
        fill_label(row + r.x + 1, row + r.end, r.head);
        done = r.end;
      }
      fill_label(row + done, row + w, -1);
      // Runs of both rows come left to right: the first run above that can touch a run here
      // can touch no earlier run here.
      const run* first = above.data();
      const run* const last = first + above.size();
      for (const run& r : here) {
        while (first != last && first->end + reach <= r.x) ++first;
        for (const run* a = first; a != last && a->x < r.end + reach; ++a) unite(l.parent, r.head, a->head);
      }
      std::swap(above, here);
    }
  }

  // set_blocked has just changed cell (x, y): keep each built connectivity exact or mark
  // it stale. `around`: its 3 x 3 neighbourhood then, bit 3 * row + column set when blocked.
  void update(int w, int x, int y, bool is_blocked, std::uint32_t around) {
    if ((of[0].parent.empty() || of[0].stale) && (of[1].parent.empty() || of[1].stale)) return;
    unsigned ring = 0;  // bit i: ring cell i free
    for (int i = 0; i < 8; ++i) {
      const auto& d = kRing[static_cast<std::size_t>(i)];
      if (!((around >> (3 * (d[1] + 1) + d[0] + 1)) & 1u)) ring |= 1u << i;
    }
    for (int k = 0; k < 2; ++k) {
      labels& l = of[static_cast<std::size_t>(k)];
      if (l.parent.empty() || l.stale) continue;
      const auto c = static_cast<connectivity>(k);
      if (is_blocked) {
        if (!kSafe[static_cast<std::size_t>(k)][ring]) l.stale = true;
        continue;
      }
      const std::int32_t me = y * w + x, own = find(l.parent, me);
      // A ring cell joins when it is free and touches the centre under `c`.
      const auto joins = [&](int i) {
        const auto& d = kRing[static_cast<std::size_t>(i)];
        return ((ring >> i) & 1u) && adjacent(c, d[0], d[1]);
      };
      const auto neighbour = [&](int i) {
        const auto& d = kRing[static_cast<std::size_t>(i)];
        return me + d[1] * w + d[0];
      };
      bool shares = l.parent[static_cast<std::size_t>(own)] == -1;  // alone in its set
      for (int i = 0; i < 8; ++i)
        if (joins(i) && find(l.parent, neighbour(i)) == own) shares = true;
      if (!shares) {
        l.stale = true;
        continue;
      }
      for (int i = 0; i < 8; ++i)
        if (joins(i)) unite(l.parent, me, neighbour(i));
    }
  }
};

void grid_map::components_deleter::operator()(components* c) const { delete c; }

grid_map::components_handle::components_handle() : p_(new components) {}

grid_map::components_handle& grid_map::components_handle::operator=(const components_handle&) {
  p_.reset(new components);
  return *this;
}

void grid_map::update_components(int x, int y, bool is_blocked, std::uint32_t around) {
  if (components* c = components_.get()) c->update(width_, x, y, is_blocked, around);
}

bool grid_map::components_kept() const {
  const components* cs = components_.get();
  if (!cs) return false;
  for (const auto& l : cs->of)
    if (!l.parent.empty() && !l.stale) return true;
  return false;
}

bool grid_map::same_component(connectivity c, int ax, int ay, int bx, int by) const {
  if (blocked(ax, ay) || blocked(bx, by)) return false;
  components* cs = components_.get();
  if (!cs) return false;  // a moved-from map
  const std::lock_guard<std::mutex> guard(cs->lock);
  components::labels& l = cs->of[static_cast<std::size_t>(c)];
  if (l.parent.empty() || l.stale) components::rebuild(*this, c, l);
  return components::find(l.parent, ay * width_ + ax) == components::find(l.parent, by * width_ + bx);
}

bool grid_map::components_current(connectivity c) const {
  components* cs = components_.get();
  if (!cs) return false;
  const std::lock_guard<std::mutex> guard(cs->lock);
  const components::labels& l = cs->of[static_cast<std::size_t>(c)];
  return !l.parent.empty() && !l.stale;
}

std::size_t grid_map::component_bytes() const {
  components* cs = components_.get();
  if (!cs) return 0;
  const std::lock_guard<std::mutex> guard(cs->lock);
  std::size_t n = sizeof(components);
  for (const auto& l : cs->of) n += l.parent.capacity() * sizeof(std::int32_t);
  return n;
}

// ------------------------------------------------------------------ a rule's components

namespace {

// A 2 x 2 grid of cells for asking a rule about one pattern.
struct probe {
  unsigned blocked_bits;  // bit y * 2 + x
  bool blocked(int x, int y) const {
    if (x < 0 || y < 0 || x > 1 || y > 1) return true;
    return (blocked_bits >> (y * 2 + x)) & 1u;
  }
};

}  // namespace

connectivity connectivity_of(const rule& r) {
  // Two free cells that share only a corner, both other cells of the 2 x 2 blocked. Where a
  // rule joins two cells diagonally otherwise, a side cell is free and joins them by edges.
  const probe crossing{0b1001};  // "#." / ".#": cells (1,0) and (0,1) free
  if (r.on_vertices()) return segment_legal(r, crossing, 0, 2, 2, 0) ? connectivity::eight : connectivity::four;
  return step_legal(r, crossing, 1, 0, -1, 1) ? connectivity::eight : connectivity::four;
}

std::optional<point> component_cell(const rule& r, const grid_map& map, point p) {
  if (!r.on_vertices()) {
    if (!map.in_bounds(p.x, p.y) || map.blocked(p.x, p.y)) return std::nullopt;
    return p;
  }
  if (p.x < 0 || p.y < 0 || p.x > map.width() || p.y > map.height()) return std::nullopt;
  // At a double corner a start or goal keeps to its own cell's side (endpoint_side). Any
  // other vertex's free cells share an edge with one another.
  if (endpoint_side(r, map, p.x, p.y) < 0) return std::nullopt;
  for (const point c : {p, point{p.x - 1, p.y}, point{p.x, p.y - 1}, point{p.x - 1, p.y - 1}})
    if (!map.blocked(c.x, c.y)) return c;
  return std::nullopt;
}

std::optional<bool> same_component(const rule& r, const grid_map& map, point start, point goal) {
  const std::optional<point> a = component_cell(r, map, start), b = component_cell(r, map, goal);
  if (!a || !b) return std::nullopt;
  return map.same_component(connectivity_of(r), a->x, a->y, b->x, b->y);
}

bool components_apart(const rule& r, const grid_map& map, point start, point goal, const search_options& options) {
  if (!options.component_check) return false;
  const std::optional<bool> same = same_component(r, map, start, goal);
  return same && !*same;
}

}  // namespace lddb
