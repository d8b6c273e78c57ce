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
#include <mutex>
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

}  // namespace

struct grid_map::components {
  struct labels {
    std::vector<std::int32_t> parent;  // empty: never built
    bool stale = false;
  };
  std::mutex lock;  // queries on a const map, from any thread
  std::array<labels, 2> of;

  static std::int32_t find(std::vector<std::int32_t>& parent, std::int32_t i) {
    while (parent[static_cast<std::size_t>(i)] >= 0) {
      const std::int32_t up = parent[static_cast<std::size_t>(i)];
      if (parent[static_cast<std::size_t>(up)] >= 0) parent[static_cast<std::size_t>(i)] = parent[static_cast<std::size_t>(up)];
      i = up;
    }
    return i;
  }
  static void unite(std::vector<std::int32_t>& parent, std::int32_t a, std::int32_t b) {
    a = find(parent, a);
    b = find(parent, b);
    if (a == b) return;
    if (parent[static_cast<std::size_t>(a)] > parent[static_cast<std::size_t>(b)]) std::swap(a, b);  // a: the larger set
    parent[static_cast<std::size_t>(a)] += parent[static_cast<std::size_t>(b)];
    parent[static_cast<std::size_t>(b)] = a;
  }

  // The first column >= x of row y whose cell is blocked (want_blocked) or free; width if
  // none. Reads the row's bits a word at a time (bits past the width read as blocked).
  static int next_cell(const grid_map& m, int y, int x, bool want_blocked) {
    const std::uint64_t* row = m.row_line(y);
    while (x < m.width_) {
      std::uint64_t word = row[x >> 6];
      if (!want_blocked) word = ~word;
      word &= ~std::uint64_t{0} << (x & 63);
      if (word != 0) return std::min(m.width_, (x & ~63) + std::countr_zero(word));
      x = (x & ~63) + 64;
    }
    return m.width_;
  }

  // By runs of free cells: each cell of a run points at the run's first cell, and a run is
  // united with each run of the row above that it touches.
  static void rebuild(const grid_map& m, connectivity c, labels& l) {
    const int w = m.width(), h = m.height();
    l.parent.assign(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), -1);
    l.stale = false;
    std::vector<std::int32_t>& parent = l.parent;
    const int reach = c == connectivity::eight ? 1 : 0;  // how far past its ends a run touches
    for (int y = 0; y < h; ++y)
      for (int x = next_cell(m, y, 0, false); x < w; x = next_cell(m, y, x, false)) {
        const int end = next_cell(m, y, x, true);
        const std::int32_t head = y * w + x;
        parent[static_cast<std::size_t>(head)] = -(end - x);
        std::fill(parent.begin() + head + 1, parent.begin() + (head + end - x), head);
        if (y > 0) {
          const int hi = std::min(w, end + reach);
          for (int px = next_cell(m, y - 1, std::max(0, x - reach), false); px < hi;
               px = next_cell(m, y - 1, next_cell(m, y - 1, px, true), false))
            unite(parent, head, head - w + (px - x));
        }
        x = end;
      }
  }

  // set_blocked has just changed cell (x, y): keep each built connectivity exact or mark
  // it stale.
  void update(const grid_map& m, int x, int y, bool is_blocked) {
    for (int k = 0; k < 2; ++k) {
      labels& l = of[static_cast<std::size_t>(k)];
      if (l.parent.empty() || l.stale) continue;
      const auto c = static_cast<connectivity>(k);
      if (is_blocked) {
        unsigned ring = 0;
        for (int i = 0; i < 8; ++i)
          if (!m.blocked(x + kRing[static_cast<std::size_t>(i)][0], y + kRing[static_cast<std::size_t>(i)][1])) ring |= 1u << i;
        if (!kSafe[static_cast<std::size_t>(k)][ring]) l.stale = true;
        continue;
      }
      const int w = m.width();
      const std::int32_t me = y * w + x, own = find(l.parent, me);
      bool shares = l.parent[static_cast<std::size_t>(own)] == -1;  // alone in its set
      for (const auto& d : kRing)
        if (adjacent(c, d[0], d[1]) && !m.blocked(x + d[0], y + d[1]) && find(l.parent, me + d[1] * w + d[0]) == own)
          shares = true;
      if (!shares) {
        l.stale = true;
        continue;
      }
      for (const auto& d : kRing)
        if (adjacent(c, d[0], d[1]) && !m.blocked(x + d[0], y + d[1])) unite(l.parent, me, me + d[1] * w + d[0]);
    }
  }
};

void grid_map::components_deleter::operator()(components* c) const { delete c; }

grid_map::components_handle::components_handle() : p_(new components) {}

grid_map::components_handle& grid_map::components_handle::operator=(const components_handle&) {
  p_.reset(new components);
  return *this;
}

void grid_map::update_components(int x, int y, bool is_blocked) {
  if (components* c = components_.get()) c->update(*this, x, y, is_blocked);
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
