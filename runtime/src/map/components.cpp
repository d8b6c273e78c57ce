// Component labels of a grid_map's free cells (lddb/grid.hpp); what they say about a query
// under a rule is rule_components.cpp's.
//
// Each connectivity has a label a cell (component_labels.hpp: an id, and a union-find over
// ids), built on first use by a scan of runs and kept by set_blocked:
//   - freeing a cell joins its id to those of its free neighbours;
//   - blocking a cell splits nothing when its free neighbours stay joined through the 8
//     cells around it (a path through it can go round it); otherwise searches from those
//     neighbours find any part that split off and give it a new id (split_search);
//   - a rectangle's change joins as it goes and, once it is written, floods the box round
//     the cells it blocked (joined_in_box), searching round them only where that box does
//     not join all their free neighbours.
// A search that grows past its budget puts back what it wrote and leaves the labels
// coarse: cells of one component still share a root, but one root may now hold parts that
// split apart. Coarse labels search round no further blocked cell (those searches could
// not make them exact, and seeds of parts already apart would each walk to the budget: a
// whole-map switch's later patches cost 5 times as much); frees still join. Coarse labels
// still prove two cells apart, which is all a query's check needs; same_component, which
// answers exactly, rebuilds them first. A search that ran out
// of cells on them (it has just paid a whole component) has the next prepare_step rebuild
// them, at a fraction of that, so that later queries to an unreachable goal are answered at
// once; not the next query, so that what a query finds never depends on the order of the
// queries before it (a batch's threads). A rebuild at every query after such a change cost
// 0.3 ms at 776 x 776 and 3-5 ms at 2048 x 2048 where a building closed a passage: the
// spikes of the GPPC dynamic track (docs/decisions.md).
// Missing labels, or ids past their limit, are rebuilt by the next query that asks.
#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "map/component_labels.hpp"
#include "map/derived.hpp"
#include "lddb/grid.hpp"
#include "lddb/point.hpp"

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

struct grid_map::components final : detail::derived_structure {
  struct labels {
    detail::label_table cells;  // empty: never built
    detail::id_forest ids;
    std::size_t id_limit = 0;  // ids (made by frees and splits since the rebuild) past which the next query rebuilds
    std::size_t budget = 0;    // cells a split's search may visit (split_budget)
    bool stale = false;   // must be rebuilt before they are read (ids past id_limit)
    bool coarse = false;  // a split not followed: apart answers exact, same answers maybe not
    bool ran_out = false; // a search ran out of cells on coarse labels: component_access::settle rebuilds
    bool kept() const { return !cells.empty() && !stale; }
    bool exact() const { return kept() && !coarse; }
  };
  std::mutex lock;  // queries on a const map, from any thread
  std::array<labels, 2> of;
  // A rectangle's change: the cells it blocked, searched round once it is written.
  std::vector<std::int32_t> batch_blocked;
  bool batch_overflow = false;
  detail::split_search split;
  std::vector<std::int32_t> seeds;

  // How many cells a split's search may visit before it leaves the labels to the next
  // query's rebuild: about a sixteenth of the rebuild's cost (measured at the last rebuild),
  // so that a split too large to follow costs little more than the rebuild alone. A search
  // costs some 25-50 ns a cell; the rebuild about 1 ns a cell and 50 ns a run of free cells
  // (at 2048 x 2048: 3 ms for a battleground, 5 ms for rooms, 13 ms with 5% of the cells
  // blocked at random).
  static std::size_t split_budget(std::size_t cells, std::size_t runs) { return std::max<std::size_t>(1024, (cells + 50 * runs) / 600); }
  // The most cells a rectangle's change may block and still be followed by a search.
  static std::size_t batch_limit(const grid_map& m) {
    return std::max<std::size_t>(1024, static_cast<std::size_t>(m.width()) * static_cast<std::size_t>(m.height()) / 256);
  }

  // The rebuild's union-find over runs: parent run, or -(runs in the set) at a root.
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

  // By runs of free cells, numbered in row-major order: a first pass unites each run with
  // each run of the row above that it touches (found by walking the two rows' runs side by
  // side) in a union-find over runs, which is far smaller than the map; each set then takes
  // an id, and a second pass writes every cell once, its run's label or kNoLabel. The table
  // is not cleared first.
  struct run {
    int x, end;  // columns [x, end)
  };
  // The runs of free cells of row y, left to right, from the row's words: a run starts at
  // a free cell after a blocked one and ends at a blocked cell after a free one. The word
  // holding column width() ends the last run (the cells past the map are blocked).
  static void row_runs(const grid_map& m, int y, std::vector<run>& out) {
    out.clear();
    const std::uint64_t* const line = m.row_line(y);
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
          out.push_back({x, at});
        }
      }
    }
  }
  static void rebuild(const grid_map& m, connectivity c, labels& l) {
    const int w = m.width(), h = m.height();
    const int reach = c == connectivity::eight ? 1 : 0;  // how far past its ends a run touches
    std::vector<std::int32_t> parent;
    std::vector<run> above, here;
    for (int y = 0; y < h; ++y) {
      const auto first_here = static_cast<std::int32_t>(parent.size()), first_above = first_here - static_cast<std::int32_t>(above.size());
      row_runs(m, y, here);
      parent.resize(parent.size() + here.size(), -1);
      // Runs of both rows come left to right: the first run above that can touch a run here
      // can touch no earlier run here.
      std::size_t a = 0;
      for (std::size_t i = 0; i < here.size(); ++i) {
        while (a < above.size() && above[a].end + reach <= here[i].x) ++a;
        for (std::size_t j = a; j < above.size() && above[j].x < here[i].end + reach; ++j)
          unite(parent, first_here + static_cast<std::int32_t>(i), first_above + static_cast<std::int32_t>(j));
      }
      std::swap(above, here);
    }
    // Each root takes an id, as its label (negative, so told from a parent run); then each
    // run takes the label its walk ends at.
    std::int32_t ids = 0;
    for (std::int32_t& p : parent)
      if (p < 0) p = detail::label_of_id(ids++);
    l.cells.resize(static_cast<std::size_t>(w) * static_cast<std::size_t>(h));
    l.stale = false;
    l.coarse = false;
    l.ran_out = false;
    std::int32_t r = 0;
    for (int y = 0; y < h; ++y) {
      std::int32_t* const row = l.cells.data() + static_cast<std::ptrdiff_t>(y) * w;
      row_runs(m, y, here);
      int done = 0;  // cells of the row written so far
      for (const run& x : here) {
        std::int32_t v = parent[static_cast<std::size_t>(r)];
        while (v >= 0) v = parent[static_cast<std::size_t>(v)];
        parent[static_cast<std::size_t>(r++)] = v;
        fill_label(row + done, row + x.x, detail::kNoLabel);
        fill_label(row + x.x, row + x.end, v);
        done = x.end;
      }
      fill_label(row + done, row + w, detail::kNoLabel);
    }
    l.ids.parent.assign(static_cast<std::size_t>(ids), -1);
    l.id_limit = static_cast<std::size_t>(ids) + l.cells.size() / 8 + 1024;
    l.budget = split_budget(l.cells.size(), parent.size());
  }

  // Do the free cells a and b have one root under `c`, under the lock? Labels missing or
  // stale are rebuilt first, and coarse ones too where `exact` (same_component) asks.
  bool same_root(const grid_map& m, connectivity c, point a, point b, bool exact) {
    const std::lock_guard<std::mutex> guard(lock);
    labels& l = of[static_cast<std::size_t>(c)];
    if (exact ? !l.exact() : !l.kept()) rebuild(m, c, l);
    const auto root = [&](point p) {
      const std::size_t cell = static_cast<std::size_t>(p.y) * static_cast<std::size_t>(m.width()) + static_cast<std::size_t>(p.x);
      return l.ids.find(detail::id_of_label(l.cells[cell]));
    };
    return root(a) == root(b);
  }

  // Cells of the searches' seeds, free and beside (x, y) under `c`, in `seeds`.
  static void add_seeds(const grid_map& m, connectivity c, std::int32_t cell, std::vector<std::int32_t>& seeds) {
    const int w = m.width(), x = cell % w, y = cell / w;
    for (const auto& d : kRing)
      if (adjacent(c, d[0], d[1]) && m.in_bounds(x + d[0], y + d[1]) && !m.blocked(x + d[0], y + d[1]))
        seeds.push_back(cell + d[1] * w + d[0]);
  }

  // set_blocked has just changed cell (x, y): keep each built connectivity exact, or mark it
  // coarse (or stale). `around`: its 3 x 3 neighbourhood then, bit 3 * row + column set when blocked.
  // In a batch (a rectangle, whose cells are written after their labels), a blocked cell is
  // kept for finish_batch instead of searched round at once.
  void update(const grid_map& m, int x, int y, bool is_blocked, std::uint32_t around, bool in_batch) {
    if (!of[0].kept() && !of[1].kept()) return;
    const std::int32_t w = m.width(), me = y * w + x;
    if (is_blocked && in_batch) {
      if (batch_blocked.size() < batch_limit(m))
        batch_blocked.push_back(me);
      else
        batch_overflow = true;
    }
    unsigned ring = 0;  // bit i: ring cell i free
    for (int i = 0; i < 8; ++i) {
      const auto& d = kRing[static_cast<std::size_t>(i)];
      if (!((around >> (3 * (d[1] + 1) + d[0] + 1)) & 1u)) ring |= 1u << i;
    }
    for (int k = 0; k < 2; ++k) {
      labels& l = of[static_cast<std::size_t>(k)];
      if (!l.kept()) continue;
      const auto c = static_cast<connectivity>(k);
      if (is_blocked) {
        l.cells[static_cast<std::size_t>(me)] = detail::kNoLabel;
        if (in_batch || l.coarse || kSafe[static_cast<std::size_t>(k)][ring]) continue;
        seeds.clear();
        add_seeds(m, c, me, seeds);
        if (!split.run(m, c, seeds, l.cells, l.ids, l.budget)) l.coarse = true;
        if (l.ids.parent.size() > l.id_limit) l.stale = true;
        continue;
      }
      // Freed: its id joins those of the free cells it touches, or is new.
      std::int32_t id = -1;
      for (int i = 0; i < 8; ++i) {
        const auto& d = kRing[static_cast<std::size_t>(i)];
        if (!((ring >> i) & 1u) || !adjacent(c, d[0], d[1])) continue;
        const std::int32_t other = l.ids.find(detail::id_of_label(l.cells[static_cast<std::size_t>(me + d[1] * w + d[0])]));
        id = id < 0 ? other : l.ids.unite(id, other);
      }
      if (id < 0) {
        id = l.ids.make();
        if (l.ids.parent.size() > l.id_limit) l.stale = true;  // the rebuild numbers them afresh
      }
      l.cells[static_cast<std::size_t>(me)] = detail::label_of_id(id);
    }
  }

  // The end of a batch: any part split off is beside a cell the batch blocked (a path of
  // cells that were once joined crosses one), so searches from those cells' free
  // neighbours find every split.
  void finish_batch(const grid_map& m) {
    for (int k = 0; k < 2; ++k) {
      labels& l = of[static_cast<std::size_t>(k)];
      if (!l.kept() || l.coarse || batch_blocked.empty()) continue;
      if (batch_overflow) {  // blocked cells only split: the labels stay a coarse cover
        l.coarse = true;
        continue;
      }
      const auto c = static_cast<connectivity>(k);
      seeds.clear();
      for (const std::int32_t cell : batch_blocked) add_seeds(m, c, cell, seeds);
      if (seeds.empty() || joined_in_box(m, c, 4 * l.budget)) continue;
      if (!split.run(m, c, seeds, l.cells, l.ids, l.budget)) l.coarse = true;
      if (l.ids.parent.size() > l.id_limit) l.stale = true;
    }
    batch_blocked.clear();
    batch_overflow = false;
  }

  // As a derived structure of the map (map/derived.hpp).
  bool follows_cells() const override { return of[0].kept() || of[1].kept(); }
  void cell_changed(grid_map& m, const detail::cell_change& c) override {
    update(m, c.x, c.y, c.blocked, c.around, c.in_batch);
  }
  void batch_done(grid_map& m) override { finish_batch(m); }
  components() : detail::derived_structure(true) {}  // passability is all they read

  // Are all `seeds` joined through free cells of the box round the batch's blocked cells,
  // one cell wider each way (at most `limit` cells)? Then nothing split off, for each part
  // that did would hold a seed: a flood of the box instead of searches round it (a
  // building on open ground, the common patch, where those searches visited a thousand
  // cells or more, one at a time each).
  bool joined_in_box(const grid_map& m, connectivity c, std::size_t limit) {
    const int w = m.width(), h = m.height();
    int x0 = w, y0 = h, x1 = -1, y1 = -1;
    for (const std::int32_t cell : batch_blocked) {
      const int x = cell % w, y = cell / w;
      x0 = std::min(x0, x);
      y0 = std::min(y0, y);
      x1 = std::max(x1, x);
      y1 = std::max(y1, y);
    }
    x0 = std::max(0, x0 - 1);
    y0 = std::max(0, y0 - 1);
    x1 = std::min(w - 1, x1 + 1);
    y1 = std::min(h - 1, y1 + 1);
    const int bw = x1 - x0 + 1, bh = y1 - y0 + 1;
    if (static_cast<std::size_t>(bw) * static_cast<std::size_t>(bh) > limit) return false;
    enum : std::uint8_t { unseen, seed, reached };
    box.assign(static_cast<std::size_t>(bw) * static_cast<std::size_t>(bh), unseen);
    const auto at = [&](int x, int y) -> std::uint8_t& {
      return box[static_cast<std::size_t>(y - y0) * static_cast<std::size_t>(bw) + static_cast<std::size_t>(x - x0)];
    };
    std::size_t left = 0;  // seeds not reached yet
    for (const std::int32_t cell : seeds) {
      std::uint8_t& b = at(cell % w, cell / w);
      if (b == unseen) {
        b = seed;
        ++left;
      }
    }
    flood.clear();
    flood.push_back(seeds.front());
    at(seeds.front() % w, seeds.front() / w) = reached;
    --left;
    const int steps = c == connectivity::eight ? 8 : 4;
    for (std::size_t head = 0; head < flood.size() && left > 0; ++head) {
      const int x = flood[head] % w, y = flood[head] / w;
      for (int d = 0; d < steps; ++d) {
        const int nx = x + detail::kNeighbourSteps[d][0], ny = y + detail::kNeighbourSteps[d][1];
        if (nx < x0 || ny < y0 || nx > x1 || ny > y1 || m.blocked(nx, ny)) continue;
        std::uint8_t& b = at(nx, ny);
        if (b == reached) continue;
        if (b == seed) --left;
        b = reached;
        flood.push_back(ny * w + nx);
      }
    }
    return left == 0;
  }
  std::vector<std::uint8_t> box;
  std::vector<std::int32_t> flood;
};

void grid_map::components_deleter::operator()(components* c) const { delete c; }

grid_map::components_handle::components_handle() : p_(new components) { derived_ = p_.get(); }

grid_map::components_handle& grid_map::components_handle::operator=(const components_handle&) {
  p_.reset(new components);
  derived_ = p_.get();
  return *this;
}

bool grid_map::same_component(connectivity c, int ax, int ay, int bx, int by) const {
  if (blocked(ax, ay) || blocked(bx, by)) return false;
  components* cs = components_.get();
  return cs != nullptr && cs->same_root(*this, c, {ax, ay}, {bx, by}, true);  // null: a moved-from map
}

bool grid_map::components_current(connectivity c) const {
  components* cs = components_.get();
  if (!cs) return false;
  const std::lock_guard<std::mutex> guard(cs->lock);
  return cs->of[static_cast<std::size_t>(c)].exact();
}

// The searches' side of the labels (component_labels.hpp): coarse labels serve them as
// they are.
bool detail::component_access::apart(const grid_map& m, connectivity c, point a, point b) {
  grid_map::components* cs = m.components_.get();
  return cs != nullptr && !cs->same_root(m, c, a, b, false);  // null: a moved-from map
}

void detail::component_access::exhausted(const grid_map& m, connectivity c) {
  grid_map::components* cs = m.components_.get();
  if (!cs) return;
  const std::lock_guard<std::mutex> guard(cs->lock);
  grid_map::components::labels& l = cs->of[static_cast<std::size_t>(c)];
  if (l.kept() && l.coarse) l.ran_out = true;
}

void detail::component_access::settle(const grid_map& m) {
  if (grid_map::components* cs = m.components_.get()) {
    const std::lock_guard<std::mutex> guard(cs->lock);
    for (int k = 0; k < 2; ++k) {
      grid_map::components::labels& l = cs->of[static_cast<std::size_t>(k)];
      if (l.ran_out && l.kept() && l.coarse) grid_map::components::rebuild(m, static_cast<connectivity>(k), l);
      l.ran_out = false;
    }
  }
  m.settle_view_labels();  // a unit's searches read its view's labels
}

std::size_t grid_map::component_bytes() const {
  components* cs = components_.get();
  if (!cs) return 0;
  const std::lock_guard<std::mutex> guard(cs->lock);
  std::size_t n = sizeof(components);
  for (const auto& l : cs->of) n += (l.cells.capacity() + l.ids.parent.capacity()) * sizeof(std::int32_t);
  return n;
}

}  // namespace lddb
