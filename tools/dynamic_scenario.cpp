// tools/dynamic_scenario.cpp: the changes, the queries and the reference costs of a dynamic
// scenario (dynamic_scenario.hpp), and the text of its two files.
//
// The changes are drawn on the map's own resolution from one splitmix64 stream, the order of
// the queries from another, so that a seed gives the same files on every platform. A placed
// door, building or region never overlaps another one still in place, so lifting it (a patch
// of the map's own cells under it) restores exactly what was there before it.
#include "dynamic_scenario.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numbers>
#include <stdexcept>
#include <unordered_map>

#include "lddb/grid.hpp"
#include "lddb/mapgen.hpp"
#include "lddb/splitmix.hpp"

namespace lddb::cli {

namespace {

// Costs a + d sqrt(2) are kept as their counts of straight and diagonal steps, packed
// a << 32 | d, so that no sum of rounded numbers decides what is least.
constexpr std::uint64_t kStraight = std::uint64_t{1} << 32;  // one straight step

std::uint64_t straight_of(std::uint64_t steps) { return steps >> 32; }
std::uint64_t diagonal_of(std::uint64_t steps) { return steps & 0xFFFFFFFFu; }

__extension__ using wide = unsigned __int128;  // a GCC and Clang type: no -Wpedantic warning
// floor(sqrt(2) * 2^96): (d * this) >> 64 is d sqrt(2) in units of 2^-32, short by under 2^-38.
constexpr wide kSqrt2Shifted = (wide{0x16A09E667u} << 64) | 0xF3BCC908B2FB1366u;

// A cost in units of 2^-32, rounded down and at most one unit short. Exact as an order: a
// path visits each cell of an 8000 x 8000 grid once at most, so counts stay below 2^26, and
// then distinct costs differ by x + y sqrt(2) with |x|, |y| < 2^26, at least
// 1 / (|x| + |y| sqrt(2)) > 2^-28 in size (x^2 - 2 y^2 is a non-zero integer): far more than
// two units. Equal costs have equal counts (sqrt(2) is irrational), so equal keys.
std::uint64_t cost_key(std::uint64_t steps) {
  return (straight_of(steps) << 32) + static_cast<std::uint64_t>((diagonal_of(steps) * kSqrt2Shifted) >> 64);
}

// Components of free cells joined by straight steps. Under no corner cutting a diagonal step
// needs both side cells free, so these are exactly the cells a path joins; and drawing each
// cell n x n keeps them, so the map's own resolution answers for every scale.
std::vector<int> components(const cell_grid& g) {
  std::vector<int> label(g.blocked.size(), -1);
  std::vector<std::size_t> stack;
  int next = 0;
  for (std::size_t start = 0; start < label.size(); ++start) {
    if (g.blocked[start] || label[start] >= 0) continue;
    label[start] = next;
    stack.push_back(start);
    while (!stack.empty()) {
      const std::size_t i = stack.back();
      stack.pop_back();
      const int x = static_cast<int>(i % static_cast<std::size_t>(g.width));
      const int y = static_cast<int>(i / static_cast<std::size_t>(g.width));
      const int nx[4] = {x - 1, x + 1, x, x}, ny[4] = {y, y, y - 1, y + 1};
      for (int k = 0; k < 4; ++k) {
        if (nx[k] < 0 || ny[k] < 0 || nx[k] >= g.width || ny[k] >= g.height || g.at(nx[k], ny[k])) continue;
        const std::size_t j = g.index(nx[k], ny[k]);
        if (label[j] < 0) {
          label[j] = next;
          stack.push_back(j);
        }
      }
    }
    ++next;
  }
  return label;
}

struct rect {
  int x, y, w, h;
};
bool overlaps(const rect& a, const rect& b) {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

enum class kind { door, building, region };
constexpr int kAttempts = 64;  // places tried for one change before it gives way to a lift

class builder {
 public:
  builder(const cell_grid& map, const cell_grid* other, const std::vector<std::pair<point, point>>& queries,
          const dynamic_settings& s)
      : map_(map), other_(other), queries_(queries), s_(s), now_(map), base_(&map) {
    rng_ = s.seed ^ 0x6368616E676573ull;  // "changes"
    std::uint64_t order_rng = s.seed ^ 0x71756572696573ull;  // "queries"
    order_.resize(queries.size());
    for (std::size_t i = 0; i < order_.size(); ++i) order_[i] = i;
    for (std::size_t i = order_.size(); i > 1; --i) std::swap(order_[i - 1], order_[splitmix64(order_rng) % i]);
    if (s.doors) kinds_.push_back(kind::door);
    if (s.buildings) kinds_.push_back(kind::building);
    if (s.regions) kinds_.push_back(kind::region);
    out_.width = map.width;
    out_.height = map.height;
    out_.scale = s.scale;
  }

  dynamic_scenario run() {
    put(map_, 0, 0);
    ask_queries();
    for (state_ = 1; state_ <= s_.rounds; ++state_) {
      for (int c = 0; c < s_.changes; ++c) {
        if (s_.switches && c == 0 && state_ % s_.switch_every == 0) {
          switch_map();
        } else if (!active_.empty() && (kinds_.empty() || draw(5) < 2)) {
          lift();  // two changes in five, as long as something is in place
        } else if (!kinds_.empty() && !place(kinds_[draw(kinds_.size())])) {
          if (!active_.empty()) lift();
          else ++out_.unplaced;
        }
      }
      ask_queries();
    }
    return std::move(out_);
  }

 private:
  std::uint64_t draw(std::uint64_t n) { return splitmix64(rng_) % n; }  // 0 .. n-1
  int between(int lo, int hi) { return lo + static_cast<int>(draw(static_cast<std::uint64_t>(hi - lo + 1))); }

  // A P command; a patch equal to an earlier one is written once.
  void put(const cell_grid& p, int x, int y) {
    std::string key(p.blocked.begin(), p.blocked.end());
    key += ":" + std::to_string(p.width);
    const auto [it, fresh] = known_.try_emplace(std::move(key), static_cast<int>(out_.patches.size()));
    if (fresh) out_.patches.push_back(p);
    now_.place(p, x, y);
    dynamic_command c;
    c.state = state_;
    c.patch = it->second;
    c.at = {x, y};
    out_.commands.push_back(c);
  }

  bool clear_of_changes(const rect& r) const {
    return std::none_of(active_.begin(), active_.end(), [&](const rect& a) { return overlaps(a, r); });
  }
  bool all_free(const rect& r) const {
    for (int y = r.y; y < r.y + r.h; ++y)
      for (int x = r.x; x < r.x + r.w; ++x)
        if (now_.at(x, y)) return false;
    return true;
  }
  void put_change(const cell_grid& p, const rect& r) {
    put(p, r.x, r.y);
    active_.push_back(r);
  }

  bool place(kind k) {
    if (k == kind::door) return place_door();
    if (k == kind::building) return place_building();
    return place_region();
  }

  // A wall across a gap: the whole run of free cells through a cell, along a row or a column,
  // when walls (or the map's edge) bound it within door_max cells; failing that, door_min
  // to door_max cells of a longer run.
  bool place_door() {
    bool have_fallback = false;
    rect fallback{};
    for (int attempt = 0; attempt < kAttempts; ++attempt) {
      const int x = static_cast<int>(draw(static_cast<std::uint64_t>(now_.width)));
      const int y = static_cast<int>(draw(static_cast<std::uint64_t>(now_.height)));
      if (now_.at(x, y)) continue;
      const bool along_row = draw(2) == 0;
      const int end = along_row ? now_.width : now_.height;
      const auto free_at = [&](int k) { return along_row ? !now_.at(k, y) : !now_.at(x, k); };
      const auto line = [&](int from, int n) { return along_row ? rect{from, y, n, 1} : rect{x, from, 1, n}; };
      int a = along_row ? x : y, b = a;  // looked at up to door_max + 1 cells
      while (a > 0 && free_at(a - 1) && b - a < s_.door_max) --a;
      while (b + 1 < end && free_at(b + 1) && b - a < s_.door_max) ++b;
      const int run = b - a + 1;
      if (run < s_.door_min) continue;
      if (run <= s_.door_max) {
        if (const rect r = line(a, run); clear_of_changes(r)) {
          put_change(cell_grid(r.w, r.h, true), r);
          ++out_.doors;
          return true;
        }
        continue;
      }
      if (!have_fallback) {
        const int n = between(s_.door_min, s_.door_max);
        const rect r = line(a + static_cast<int>(draw(static_cast<std::uint64_t>(run - n + 1))), n);
        if (clear_of_changes(r)) {
          fallback = r;
          have_fallback = true;
        }
      }
    }
    if (!have_fallback) return false;
    put_change(cell_grid(fallback.w, fallback.h, true), fallback);
    ++out_.doors;
    return true;
  }

  // A random size within [lo, hi] clipped to the map, and a place for it; false when it
  // cannot fit.
  bool pick_rect(int lo, int hi, rect* r) {
    const int w_hi = std::min(hi, now_.width), h_hi = std::min(hi, now_.height);
    if (w_hi < lo || h_hi < lo) return false;
    r->w = between(lo, w_hi);
    r->h = between(lo, h_hi);
    r->x = static_cast<int>(draw(static_cast<std::uint64_t>(now_.width - r->w + 1)));
    r->y = static_cast<int>(draw(static_cast<std::uint64_t>(now_.height - r->h + 1)));
    return true;
  }

  bool place_building() {
    for (int attempt = 0; attempt < kAttempts; ++attempt) {
      rect r{};
      if (!pick_rect(s_.building_min, s_.building_max, &r)) return false;
      if (!clear_of_changes(r) || !all_free(r)) continue;
      put_change(cell_grid(r.w, r.h, true), r);
      ++out_.buildings;
      return true;
    }
    return false;
  }

  // A rectangle redrawn with another pattern: scattered cells, rooms, a maze, or cleared.
  bool place_region() {
    for (int attempt = 0; attempt < kAttempts; ++attempt) {
      rect r{};
      if (!pick_rect(s_.region_min, s_.region_max, &r)) return false;
      if (!clear_of_changes(r)) continue;
      const std::uint64_t seed = splitmix64(rng_);
      cell_grid cells(r.w, r.h);
      const auto copy = [&](const grid_map& g) {
        for (int y = 0; y < r.h; ++y)
          for (int x = 0; x < r.w; ++x) cells.set(x, y, g.blocked(x, y));
      };
      switch (draw(4)) {
        case 0: copy(make_random_map(r.w, r.h, between(10, 40), seed)); break;
        case 1: copy(make_rooms_map(r.w, r.h, between(3, 8), seed)); break;
        case 2: copy(make_maze_map(r.w, r.h, between(1, 3), seed)); break;
        default: break;  // cleared
      }
      put_change(cells, r);
      ++out_.regions;
      return true;
    }
    return false;
  }

  void lift() {
    const std::size_t k = static_cast<std::size_t>(draw(active_.size()));
    const rect r = active_[k];
    active_.erase(active_.begin() + static_cast<std::ptrdiff_t>(k));
    put(base_->part(r.x, r.y, r.w, r.h), r.x, r.y);
    ++out_.lifts;
  }

  // The whole map, alternately the other one and back; it covers every change in place.
  void switch_map() {
    base_ = base_ == &map_ ? other_ : &map_;
    put(*base_, 0, 0);
    active_.clear();
    ++out_.switches;
  }

  // The round's queries: the next ones of the seeded order whose ends are free now, until
  // --queries are found or every query has been passed over once in a row.
  void ask_queries() {
    bool ready = false;
    int found = 0;
    std::size_t misses = 0;
    while (found < s_.queries && misses < order_.size()) {
      const auto& [a, b] = queries_[order_[cursor_]];
      cursor_ = (cursor_ + 1) % order_.size();
      if (now_.at(a.x, a.y) || now_.at(b.x, b.y)) {
        ++misses;
        continue;
      }
      misses = 0;
      ++found;
      if (!ready) {
        labels_ = components(now_);
        if (s_.scale == 1) reference_.set_grid(now_);
        else reference_.set_grid(now_.magnified(s_.scale));
        ready = true;
      }
      dynamic_command q;
      q.query = true;
      q.state = state_;
      q.at = a;
      q.goal = b;
      if (labels_[now_.index(a.x, a.y)] != labels_[now_.index(b.x, b.y)]) {
        q.no_path = true;
        ++out_.no_path;
      } else if (!reference_.least_steps({a.x * s_.scale, a.y * s_.scale}, {b.x * s_.scale, b.y * s_.scale},
                                         &q.straight, &q.diagonal)) {
        throw std::logic_error("the reference search found no path between cells of one component");
      }
      out_.commands.push_back(q);
      ++out_.queries;
    }
  }

  const cell_grid& map_;
  const cell_grid* other_;
  const std::vector<std::pair<point, point>>& queries_;
  const dynamic_settings& s_;
  cell_grid now_;
  const cell_grid* base_;  // the map in force: its cells are what a lift restores
  std::vector<rect> active_;
  std::vector<kind> kinds_;
  std::uint64_t rng_ = 0;
  std::vector<std::size_t> order_;
  std::size_t cursor_ = 0;
  int state_ = 0;
  std::vector<int> labels_;
  octile_reference reference_;
  std::unordered_map<std::string, int> known_;
  dynamic_scenario out_;
};

}  // namespace

cell_grid cell_grid::part(int x, int y, int w, int h) const {
  cell_grid p(w, h);
  for (int r = 0; r < h; ++r)
    std::copy_n(blocked.begin() + static_cast<std::ptrdiff_t>(index(x, y + r)), w,
                p.blocked.begin() + static_cast<std::ptrdiff_t>(p.index(0, r)));
  return p;
}

void cell_grid::place(const cell_grid& p, int x, int y) {
  for (int r = 0; r < p.height; ++r)
    std::copy_n(p.blocked.begin() + static_cast<std::ptrdiff_t>(p.index(0, r)), p.width,
                blocked.begin() + static_cast<std::ptrdiff_t>(index(x, y + r)));
}

cell_grid cell_grid::magnified(int n) const {
  cell_grid m(width * n, height * n);
  const auto row = static_cast<std::ptrdiff_t>(m.width);
  for (int y = 0; y < height; ++y) {
    const auto first = m.blocked.begin() + static_cast<std::ptrdiff_t>(m.index(0, y * n));
    for (int x = 0; x < width; ++x)
      std::fill_n(first + static_cast<std::ptrdiff_t>(x) * n, n, blocked[index(x, y)]);
    for (int k = 1; k < n; ++k) std::copy_n(first, row, first + k * row);
  }
  return m;
}

void octile_reference::set_grid(const cell_grid& grid) {
  pitch_ = grid.width + 2;
  const std::size_t cells = static_cast<std::size_t>(pitch_) * static_cast<std::size_t>(grid.height + 2);
  free_.assign(cells, 0);
  for (int y = 0; y < grid.height; ++y)
    for (int x = 0; x < grid.width; ++x)
      free_[static_cast<std::size_t>(y + 1) * static_cast<std::size_t>(pitch_) + static_cast<std::size_t>(x + 1)] =
          grid.at(x, y) ? 0 : 1;
  if (stamp_.size() != cells) {
    stamp_.assign(cells, 0);
    steps_.assign(cells, 0);
    search_ = 0;
  }
}

bool octile_reference::least_steps(point s, point g, std::uint32_t* straight, std::uint32_t* diagonal) {
  const auto node = [&](point p) { return static_cast<std::uint32_t>((p.y + 1) * pitch_ + p.x + 1); };
  const std::uint32_t from = node(s), to = node(g);
  if (!free_[from] || !free_[to]) return false;
  if (search_ >= 0x7FFFFFF0u) {  // the stamps would wrap: start them afresh
    std::fill(stamp_.begin(), stamp_.end(), 0u);
    search_ = 0;
  }
  ++search_;
  const std::uint32_t reached = 2 * search_, settled = reached + 1;
  const int gx = g.x + 1, gy = g.y + 1;
  // Smaller f first; among equal f the smaller h (nearer the goal), so that ties on open
  // ground do not spread the search. That choice only saves work: 2 h with sqrt(2) as 1.5.
  const auto after = [](const entry& a, const entry& b) { return a.f > b.f || (a.f == b.f && a.h > b.h); };
  const auto push = [&](std::uint32_t n, std::uint64_t steps, int x, int y) {
    const int dx = std::abs(x - gx), dy = std::abs(y - gy);
    const int d = std::min(dx, dy), a = std::max(dx, dy) - d;
    // f: plus the octile distance, as counts.
    const std::uint64_t f = steps + (static_cast<std::uint64_t>(a) << 32) + static_cast<std::uint64_t>(d);
    open_.push_back({cost_key(f), static_cast<std::uint32_t>(2 * a + 3 * d), n});
    std::push_heap(open_.begin(), open_.end(), after);
  };
  open_.clear();
  stamp_[from] = reached;
  steps_[from] = 0;
  push(from, 0, s.x + 1, s.y + 1);
  const int p = pitch_;
  const int step_x[8] = {1, -1, 0, 0, 1, -1, 1, -1}, step_y[8] = {0, 0, 1, -1, 1, 1, -1, -1};
  while (!open_.empty()) {
    std::pop_heap(open_.begin(), open_.end(), after);
    const std::uint32_t n = open_.back().node;
    open_.pop_back();
    if (stamp_[n] == settled) continue;
    stamp_[n] = settled;
    const std::uint64_t steps = steps_[n];
    const int x = static_cast<int>(n % static_cast<std::uint32_t>(p));
    const int y = static_cast<int>(n / static_cast<std::uint32_t>(p));
    if (n == to) {
      *straight = static_cast<std::uint32_t>(straight_of(steps));
      *diagonal = static_cast<std::uint32_t>(diagonal_of(steps));
      return true;
    }
    for (int k = 0; k < 8; ++k) {
      const std::uint32_t m = n + static_cast<std::uint32_t>(step_y[k] * p + step_x[k]);
      if (!free_[m] || stamp_[m] == settled) continue;
      // A diagonal step needs both side cells free: the row step and the column step it joins.
      if (k >= 4 && (!free_[n + static_cast<std::uint32_t>(k == 4 || k == 6 ? 1 : -1)] ||
                     !free_[n + static_cast<std::uint32_t>(k < 6 ? p : -p)]))
        continue;
      const std::uint64_t next = steps + (k < 4 ? kStraight : 1);
      if (stamp_[m] == reached && cost_key(next) >= cost_key(steps_[m])) continue;
      stamp_[m] = reached;
      steps_[m] = next;
      push(m, next, x + step_x[k], y + step_y[k]);
    }
  }
  return false;
}

dynamic_scenario make_dynamic_scenario(const cell_grid& map, const cell_grid* other,
                                       const std::vector<std::pair<point, point>>& queries, const dynamic_settings& s) {
  if (queries.empty()) throw std::invalid_argument("make_dynamic_scenario: no queries");
  if (s.switches && (!other || other->width != map.width || other->height != map.height))
    throw std::invalid_argument("make_dynamic_scenario: the map to switch to must have the map's size");
  return builder(map, other, queries, s).run();
}

std::string dynamic_cost_text(const dynamic_command& q) {
  if (q.no_path) return "-1";
  const double cost = static_cast<double>(q.straight) + static_cast<double>(q.diagonal) * std::numbers::sqrt2;
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.15g", cost);
  return buf;
}

std::string dynamic_scen_text(const dynamic_scenario& d, const std::string& patch_file) {
  const int n = d.scale;
  std::string out = "version 2\nheight " + std::to_string(d.height * n) + "\nwidth " + std::to_string(d.width * n) +
                    "\ncost 1 octile\npatch " + patch_file + "\ncommands\n";
  const auto xy = [n](point p) { return std::to_string(p.x * n) + " " + std::to_string(p.y * n); };
  for (const dynamic_command& c : d.commands) {
    if (c.query)
      out += "Q " + std::to_string(c.state) + " " + xy(c.at) + " " + xy(c.goal) + " " + dynamic_cost_text(c) + "\n";
    else
      out += "P " + std::to_string(c.state) + " " + std::to_string(c.patch) + " " + xy(c.at) + "\n";
  }
  return out;
}

std::string dynamic_patch_text(const dynamic_scenario& d) {
  const auto n = static_cast<std::size_t>(d.scale);
  std::size_t bytes = 64;
  for (const cell_grid& p : d.patches)
    bytes += 64 + (static_cast<std::size_t>(p.width) * n + 1) * static_cast<std::size_t>(p.height) * n;
  std::string out;
  out.reserve(bytes);
  out += "type patch\npatches " + std::to_string(d.patches.size()) + "\n";
  std::string row;
  for (std::size_t i = 0; i < d.patches.size(); ++i) {
    const cell_grid& p = d.patches[i];
    out += "patch " + std::to_string(i) + "\nheight " + std::to_string(static_cast<std::size_t>(p.height) * n) +
           "\nwidth " + std::to_string(static_cast<std::size_t>(p.width) * n) + "\nmap\n";
    for (int y = 0; y < p.height; ++y) {
      row.clear();
      for (int x = 0; x < p.width; ++x) row.append(n, p.at(x, y) ? '@' : '.');
      row += '\n';
      for (std::size_t k = 0; k < n; ++k) out += row;
    }
  }
  return out;
}

}  // namespace lddb::cli
