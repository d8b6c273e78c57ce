// Landmark tables: a Dijkstra per landmark over the rule's unit moves (landmark_dial.hpp).
// See lddb/landmarks.hpp.
#include "lddb/landmarks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <stdexcept>
#include <string>

#include "lddb/moves.hpp"
#include "lddb/splitmix.hpp"
#include "prepare/landmark_dial.hpp"
#include "prepare/landmark_reference.hpp"
#include "prepare/landmark_units.hpp"
#include "prepare/page_vector.hpp"

namespace lddb {

const char* landmark_placement_name(landmark_placement p) {
  return p == landmark_placement::farthest ? "farthest" : "random";
}

std::optional<landmark_placement> parse_landmark_placement(std::string_view text) {
  if (text == "farthest") return landmark_placement::farthest;
  if (text == "random") return landmark_placement::random;
  return std::nullopt;
}

cost_t landmark_set::lower_bound(point a, point b) const {
  if (count_ == 0 || !has_point(a) || !has_point(b)) return 0;
  std::uint32_t best = 0;
  if (tile_bounds()) {
    if (!in_reach(a) || !in_reach(b)) return 0;
    for (int i = 0; i < complete(); ++i) {
      const range ra = tile_range(a, i), rb = tile_range(b, i);
      if (ra.lo == kUnreached || rb.lo == kUnreached) continue;
      if (ra.lo > rb.hi) best = std::max(best, ra.lo - rb.hi);
      if (rb.lo > ra.hi) best = std::max(best, rb.lo - ra.hi);
    }
    return static_cast<cost_t>(best) * unit_cost_;
  }
  for (int i = 0; i < complete(); ++i) {
    const std::uint32_t da = distance(a, i), db = distance(b, i);
    if (da == kUnreached || db == kUnreached) continue;
    const std::uint32_t d = da > db ? da - db : db - da;
    if (d > best) best = d;
  }
  return static_cast<cost_t>(best) * unit_cost_;
}

namespace {

// moves: the legal moves of every point, read in slices like the searches (at 2048 x 2048
// they take tens of milliseconds, too long for one frame), then what the constructor chose.
enum class phase : std::uint8_t { moves, probe, place, search, finished };

// Gives a vector's memory back (v = {} would keep its capacity).
template <class V>
void release(V& v) {
  V().swap(v);
}

using namespace landmark_units;

}  // namespace

struct landmark_builder::state {
  grid_map map;
  rule r;
  int count;
  landmark_placement placement;
  std::uint64_t rng;
  landmark_set set;
  bool vertices = false;
  std::size_t n = 0;                  // points: cells or vertices
  std::array<std::ptrdiff_t, 8> offset{};
  // The Dijkstra under way: its distances, row-major (4 bytes a point, where the table's
  // column would touch a cache line of K values a point; copied into the table when done),
  // and its queues. The probes' and a 32-bit set's; a 16-bit set's landmarks search in
  // their table (in_table).
  detail::page_vector<std::uint32_t> dist;
  landmark_dial::queues queues;
  // The legal moves of every point (landmark_dial::legal_moves), read once for the map
  // instead of once a point for every Dijkstra: 1 byte a point, while building.
  detail::page_vector<std::uint8_t> legal;
  std::size_t legal_done = 0;           // points whose moves are read
  phase after_moves = phase::probe;     // and then: probe from first_source, or place
  std::size_t first_source = SIZE_MAX;  // SIZE_MAX: a random start
  // Placement: the best probe so far, and for a 32-bit set the distance from each point to
  // its nearest landmark (a 16-bit set, on a large map, reads it from its tables instead:
  // slower to place, 4 bytes a point less while building).
  detail::page_vector<std::uint32_t> best_probe, nearest_array;
  std::size_t best_reached = 0, reached = 0;
  int probes = 0;
  phase at = phase::probe;
  int placed = 0;  // landmarks whose search is over and whose table is filled
  std::size_t tiled = 0;  // table entries a landmark (the tables: at the first placement)
  std::size_t source = 0;  // the point of the landmark under way
  std::uint64_t stride_reciprocal = 0;  // ceil(2^64 / stride), for column_entry
  std::vector<point> given;  // landmarks placed by the caller
  bool units_chosen = true;  // false: a 16-bit set whose unit the probe decides
  bool sweeping = false;     // the search under way is the 16-bit set's sweep
  std::uint64_t total_work = 0, work_done = 0;

  state(const rule& rr, const grid_map& m, int k, landmark_placement p, std::uint64_t seed)
      : map(m), r(rr), count(k), placement(p), rng(seed) {}

  point at_index(std::size_t i) const {
    const std::size_t stride = static_cast<std::size_t>(set.stride_);
    return {static_cast<int>(i % stride), static_cast<int>(i / stride)};
  }
  std::size_t index_of(point p) const {
    return static_cast<std::size_t>(p.y) * static_cast<std::size_t>(set.stride_) + static_cast<std::size_t>(p.x);
  }
  void start_search(std::size_t source) {
    landmark_dial::clear(queues);
    dist.assign(n, landmark_set::kUnreached);
    dist[source] = 0;
    queues.queue[2].push_back(source);
    reached = 0;
  }
  // A 16-bit set's landmark searches in its own column of the tables, whose entries start
  // unreached: a 4-byte-a-point array beside the tables would set the peak of a large
  // map's preparation (16 MiB at 2048 x 2048, a third more than the tables).
  bool in_table() const { return set.width_ == landmark_width::bits16 && at == phase::search; }
  std::uint16_t& column_entry(std::size_t i) {
    // i / stride as a multiply by a reciprocal (exact while i x stride < 2^64): a multiply
    // rather than a 64-bit division, which takes tens of cycles, at every look.
    __extension__ using wide_product = unsigned __int128;
    const std::size_t y = stride_reciprocal == 0  // a stride of 1: 2^64 does not fit
                              ? i
                              : static_cast<std::size_t>((static_cast<wide_product>(i) * stride_reciprocal) >> 64);
    const point p{static_cast<int>(i - y * static_cast<std::size_t>(set.stride_)), static_cast<int>(y)};
    return set.narrow_[set.slot(p) * static_cast<std::size_t>(count) + static_cast<std::size_t>(placed)];
  }
  void start_column_search(std::size_t source) {
    landmark_dial::clear(queues);
    column_entry(source) = 0;
    queues.queue[2].push_back(source);
    reached = 0;
  }
  // Settles points until `budget` runs out; true when the search is over.
  bool run_search(std::uint64_t& budget) {
    const std::uint64_t before = reached;
    const auto moves = [this](std::size_t i) { return static_cast<unsigned>(legal[i]); };
    const bool over =
        in_table() ? landmark_dial::run(
                         queues, budget, reached, [this](std::size_t i) -> std::uint16_t& { return column_entry(i); }, moves,
                         offset.data(), set.unit_, set.cap_)
                   : landmark_dial::run(
                         queues, budget, reached, [this](std::size_t i) -> std::uint32_t& { return dist[i]; }, moves,
                         offset.data(), set.unit_, set.cap_);
    work_done += reached - before;
    return over;
  }

  // A seeded random start: a free cell, or for vertices the top-left corner of one (a
  // vertex whose own cell is free is an endpoint under every any-angle rule).
  std::size_t random_start() {
    const std::uint64_t cells = static_cast<std::uint64_t>(map.width()) * static_cast<std::uint64_t>(map.height());
    const std::uint64_t from = splitmix64(rng) % cells;
    for (std::uint64_t j = 0; j < cells; ++j) {
      const std::uint64_t c = (from + j) % cells;
      const int x = static_cast<int>(c % static_cast<std::uint64_t>(map.width()));
      const int y = static_cast<int>(c / static_cast<std::uint64_t>(map.width()));
      if (!map.blocked(x, y)) return index_of({x, y});
    }
    throw std::logic_error("no free cell");  // the constructor checked
  }

  // The distance from point p (row-major index i) to its nearest landmark so far
  // (kUnreached: not reached).
  std::uint32_t nearest(std::size_t i) const {
    if (!nearest_array.empty()) return nearest_array[i];
    if (set.tile_bounds()) {  // the last landmark's own distances, the ranges' least for the others
      std::uint32_t m = dist[i];
      for (int l = 0; l + 1 < placed; ++l) m = std::min(m, set.tile_range(at_index(i), l).lo);
      return m;
    }
    std::uint32_t m = landmark_set::kUnreached;
    for (int l = 0; l < placed; ++l) m = std::min(m, set.distance(at_index(i), l));
    return m;
  }
  // The next landmark: the reached point farthest from the probe or the landmarks so far
  // (least index on ties), or a random reached point. The points the first landmark
  // reaches are the probe's, so past it the tables say which are reached.
  // False while the walk over a 16-bit set's tables (farthest_from_landmarks) is not done.
  bool choose(std::uint64_t& work, std::size_t& out) {
    if (given.empty() && placement != landmark_placement::random && placed > 0 && set.tile_bounds()) {
      out = farthest_by_ranges();
      work -= std::min<std::uint64_t>(work, n / 8 + 1);
      return true;
    }
    if (given.empty() && placement != landmark_placement::random && placed > 0 && nearest_array.empty())
      return farthest_from_landmarks(work, out);
    out = choose_at_once();
    work -= std::min<std::uint64_t>(work, n / 8 + 1);  // the scan
    return true;
  }
  // The choices made in one scan: given points, random ones, and the farthest point of an
  // array of distances (the probe's, or a 32-bit set's nearest landmarks).
  std::size_t choose_at_once() {
    if (!given.empty()) return index_of(given[static_cast<std::size_t>(placed)]);
    if (placement == landmark_placement::random) {
      const std::size_t from = static_cast<std::size_t>(splitmix64(rng) % n);
      for (std::size_t j = 0; j < n; ++j) {
        const std::size_t i = (from + j) % n;
        const std::uint32_t d = placed == 0 ? best_probe[i] : nearest(i);
        if (d != landmark_set::kUnreached && (placed == 0 || d != 0)) return i;
      }
      return static_cast<std::size_t>(from);  // fewer points than landmarks: any reached one
    }
    return farthest(placed == 0 ? best_probe : nearest_array);
  }
  // farthest() over nearest(p), walking the table in its own order, tile by tile: the
  // `placed` entries of a point lie side by side. In slices of tile rows within `work` (a
  // unit per 8 points), as the searches go: at 2048 x 2048 the walk takes tens of
  // milliseconds. True when done, the point in `out`.
  struct farthest_walk {
    int row = 0;  // the next row of tiles
    std::size_t best = 0;
    std::uint32_t best_d = 0;
    bool any = false;
  } walk;
  bool farthest_from_landmarks(std::uint64_t& work, std::size_t& out) {
    const int tiles_y = (set.rows_ + 3) >> 2;
    const std::uint64_t row_work = static_cast<std::uint64_t>(set.tiles_x_) * 2 + 1;
    while (walk.row < tiles_y) {
      if (work == 0) return false;
      if (set.width_ == landmark_width::bits32) farthest_in_row(set.table_.data(), landmark_set::kUnreached, walk.row);
      else farthest_in_row(set.narrow_.data(), landmark_set::kUnreached16, walk.row);
      ++walk.row;
      work -= std::min(work, row_work);
    }
    out = walk.best;
    walk = farthest_walk{};
    return true;
  }
  // One row of tiles of the walk.
  template <class T>
  void farthest_in_row(const T* table, T unreached, int ty) {
    const std::size_t k = static_cast<std::size_t>(count);
    for (int tx = 0; tx < set.tiles_x_; ++tx) {
      const T* tile = table + (static_cast<std::size_t>(ty) * static_cast<std::size_t>(set.tiles_x_) + static_cast<std::size_t>(tx)) * 16 * k;
      for (int s = 0; s < 16; ++s) {
        const int x = tx * 4 + (s & 3), y = ty * 4 + (s >> 2);
        if (x >= set.stride_ || y >= set.rows_) continue;  // the tiles' padding
        const T* e = tile + static_cast<std::size_t>(s) * k;
        T m = unreached;
        for (int l = 0; l < placed; ++l) m = std::min(m, e[l]);
        if (m == unreached || (walk.any && m < walk.best_d)) continue;
        const std::size_t i = index_of({x, y});
        if (!walk.any || m > walk.best_d || i < walk.best) {
          walk.best = i;
          walk.best_d = m;
          walk.any = true;
        }
      }
    }
  }
  // Tile bounds: the point farthest from the landmarks by nearest(), a tile's least over
  // the landmarks before the last read once for its 16 points (least index on ties).
  std::size_t farthest_by_ranges() const {
    const std::size_t k = static_cast<std::size_t>(count);
    std::size_t best = 0;
    std::uint32_t best_d = 0;
    bool any = false;
    for (int ty = 0; ty * 4 < set.rows_; ++ty)
      for (int tx = 0; tx < set.tiles_x_; ++tx) {
        const std::uint16_t* r = set.narrow_.data() + (static_cast<std::size_t>(ty) * static_cast<std::size_t>(set.tiles_x_) + static_cast<std::size_t>(tx)) * k * 2;
        std::uint32_t tile_least = landmark_set::kUnreached;
        for (int l = 0; l + 1 < placed; ++l)
          if (r[2 * l] != landmark_set::kUnreached16) tile_least = std::min<std::uint32_t>(tile_least, r[2 * l]);
        for (int y = ty * 4; y < std::min(ty * 4 + 4, set.rows_); ++y)
          for (int x = tx * 4; x < std::min(tx * 4 + 4, set.stride_); ++x) {
            const std::size_t i = index_of({x, y});
            if (dist[i] == landmark_set::kUnreached) continue;
            const std::uint32_t m = std::min(dist[i], tile_least);
            if (!any || m > best_d || (m == best_d && i < best)) {
              best = i;
              best_d = m;
              any = true;
            }
          }
      }
    return best;
  }
  // The reached point of greatest distance in d (least index on ties).
  std::size_t farthest(const detail::page_vector<std::uint32_t>& d) const {
    std::size_t best = 0;
    std::uint32_t best_d = 0;
    bool any = false;
    for (std::size_t i = 0; i < n; ++i)
      if (d[i] != landmark_set::kUnreached && (!any || d[i] > best_d)) {
        best = i;
        best_d = d[i];
        any = true;
      }
    return best;
  }

  // Tile bounds: the landmark's distances (dist) folded into its range in every tile, for
  // the points in reach: the first landmark's, less any a later one does not reach.
  void fold_into_ranges() {
    const std::size_t k = static_cast<std::size_t>(count);
    const std::size_t words = (static_cast<std::size_t>(set.stride_) + 63) >> 6;
    if (placed == 0) set.reach_.assign(words * static_cast<std::size_t>(set.rows_), 0);
    for (int y = 0, i = 0; y < set.rows_; ++y)
      for (int x = 0; x < set.stride_; ++x, ++i) {
        const std::uint32_t d = dist[static_cast<std::size_t>(i)];
        std::uint64_t& bits = set.reach_[static_cast<std::size_t>(y) * words + (static_cast<std::size_t>(x) >> 6)];
        const std::uint64_t bit = std::uint64_t{1} << (x & 63);
        if (placed == 0 && d != landmark_set::kUnreached) bits |= bit;
        if (d == landmark_set::kUnreached || (bits & bit) == 0) {
          bits &= ~bit;
          continue;
        }  // below the cap: d fits 16 bits
        std::uint16_t* r = set.narrow_.data() + ((set.slot({x, y}) >> 4) * k + static_cast<std::size_t>(placed)) * 2;
        const auto v = static_cast<std::uint16_t>(d);
        if (r[0] == landmark_set::kUnreached16 || v < r[0]) r[0] = v;
        if (v > r[1]) r[1] = v;
      }
  }
  // A 16-bit set's unit, once the sweep is over: its longest distance fits.
  void choose_narrow_units() {
    std::uint32_t longest = 0;
    for (const std::uint32_t d : best_probe)
      if (d != landmark_set::kUnreached && d > longest) longest = d;
    const double unit = narrow_unit(costs_of(r), static_cast<double>(longest) * static_cast<double>(set.unit_cost_));
    use_narrow_unit(static_cast<cost_t>(unit));
  }
  void use_narrow_unit(cost_t unit) {
    set.unit_cost_ = unit;
    set_units(set.unit_, costs_of(r), static_cast<double>(unit));
    set.cap_ = static_cast<std::uint32_t>(kNarrowCap);
    units_chosen = true;
  }
};

landmark_builder::landmark_builder(const rule& r, const grid_map& map, int count, landmark_placement placement,
                                   std::uint64_t seed, landmark_width width) {
  if (count < 1 || count > landmark_set::kMaxLandmarks)
    throw std::invalid_argument("landmark count must be 1.." + std::to_string(landmark_set::kMaxLandmarks) +
                                ", not " + std::to_string(count));
  if (map.blocked_count() == static_cast<std::uint64_t>(map.width()) * static_cast<std::uint64_t>(map.height()))
    throw std::invalid_argument("landmarks need a free cell, and every cell of the map is blocked");
  if (width == landmark_width::tile_bounds && r.on_vertices())  // Theta* would read them, and it does not reopen
    throw std::invalid_argument("landmark tile bounds are for the cell rules (tile, octile), not " + r.name());
  s_ = std::make_unique<state>(r, map, count, placement, seed);
  state& s = *s_;
  landmark_set& set = s.set;
  set.rule_ = r;
  set.count_ = count;
  set.width_ = width;
  set.map_identity_ = map.identity();
  set.cells_freed_ = map.cells_freed();
  set.cells_blocked_ = map.cells_blocked();
  s.vertices = r.on_vertices();
  set.stride_ = map.width() + (s.vertices ? 1 : 0);
  set.rows_ = map.height() + (s.vertices ? 1 : 0);
  s.n = static_cast<std::size_t>(set.stride_) * static_cast<std::size_t>(set.rows_);
  set.tiles_x_ = (set.stride_ + 3) >> 2;
  const std::size_t tiled = static_cast<std::size_t>(set.tiles_x_) * static_cast<std::size_t>((set.rows_ + 3) >> 2) * 16;
  // The finest unit at which the longest possible distance (every point on the way, each
  // by the dearer move) still fits 32 bits below kUnreached.
  const move_costs costs = costs_of(r);
  for (int shift = 0; shift <= kCostShift; ++shift) {
    const double unit = std::ldexp(1.0, shift);
    if (static_cast<double>(s.n + 1) * std::floor(std::max(costs.straight, costs.diagonal) / unit) < 4294967295.0) {
      set.unit_cost_ = cost_t{1} << shift;
      set_units(set.unit_, costs, unit);
      break;
    }
  }
  for (int k = 0; k < 8; ++k)
    s.offset[static_cast<std::size_t>(k)] = static_cast<std::ptrdiff_t>(kSteps[static_cast<std::size_t>(k)][1]) * set.stride_ +
                                            kSteps[static_cast<std::size_t>(k)][0];
  move_tables tables;
  if (s.vertices) {
    rule relaxed = r;  // the moves of the relaxed rule: its distances bound the default rule's too
    relaxed.squeeze = squeezing::allowed;
    const auto& m = tables.vertices_for(relaxed);
    set.moves_.assign(m.begin(), m.end());
  } else {
    const auto& m = tables.cells_for(r);
    set.moves_.assign(m.begin(), m.end());
  }
  s.legal.resize(s.n);  // filled by step(), phase::moves
  // A 16-bit set probes at the 32-bit unit above, then takes its own (choose_narrow_units).
  // The tables are allocated when the first landmark is placed, once the probes' arrays
  // are gone (at 2048 x 2048 they would have added 32 MiB to the peak).
  s.tiled = tiled;
  s.stride_reciprocal = ~std::uint64_t{0} / static_cast<std::uint64_t>(set.stride_) + 1;
  s.units_chosen = width == landmark_width::bits32;
  s.at = phase::moves;
  s.total_work = static_cast<std::uint64_t>(count + (s.units_chosen ? 2 : 3)) * s.n;
}

landmark_builder::landmark_builder(const rule& r, const grid_map& map, const std::vector<point>& points,
                                   landmark_width width, cost_t unit)
    : landmark_builder(r, map, static_cast<int>(points.size()), landmark_placement::farthest, 1, width) {
  state& s = *s_;
  for (const point& p : points)
    if (!s.set.has_point(p))
      throw std::invalid_argument("landmark (" + std::to_string(p.x) + "," + std::to_string(p.y) + ") is off the " +
                                  std::to_string(s.set.stride_) + "x" + std::to_string(s.set.rows_) +
                                  (s.vertices ? " vertices" : " cells") + " of the map");
  s.given = points;
  if (width != landmark_width::bits32 && unit == 0) {  // probe from the first point and sweep for the unit
    s.first_source = s.index_of(points.front());
    s.total_work = static_cast<std::uint64_t>(s.count + 3) * s.n;
    return;
  }
  if (width != landmark_width::bits32) {
    const double straight = costs_of(r).straight;
    if (static_cast<double>(unit) > straight || static_cast<double>(unit) * kNarrowCap < straight)
      throw std::invalid_argument("landmark unit " + std::to_string(unit) +
                                  (static_cast<double>(unit) > straight ? " is coarser than a straight move"
                                                                        : " is too fine for a 16-bit table to hold a move"));
    s.use_narrow_unit(unit);
  }
  s.after_moves = phase::place;
  s.total_work = static_cast<std::uint64_t>(s.count + 1) * s.n;
}

landmark_builder::~landmark_builder() = default;
landmark_builder::landmark_builder(landmark_builder&&) noexcept = default;
landmark_builder& landmark_builder::operator=(landmark_builder&&) noexcept = default;

bool landmark_builder::done() const { return !s_ || s_->at == phase::finished; }

double landmark_builder::progress() const {
  if (done()) return 1.0;
  const double p = static_cast<double>(s_->work_done) / static_cast<double>(s_->total_work);
  return p < 1.0 ? p : 0.999;
}

bool landmark_builder::step(std::uint64_t work) {
  if (done()) return true;
  state& s = *s_;
  if (work == 0) work = 1;
  while (work > 0 && s.at != phase::finished) {
    switch (s.at) {
      case phase::moves: {
        const std::size_t k = static_cast<std::size_t>(std::min<std::uint64_t>(work, s.n - s.legal_done));
        point p = s.at_index(s.legal_done);
        for (std::size_t i = s.legal_done; i < s.legal_done + k; ++i) {
          s.legal[i] = static_cast<std::uint8_t>(landmark_dial::legal_moves(s.map, s.set.moves_.data(), s.vertices, p));
          if (++p.x == s.set.stride_) p = {0, p.y + 1};
        }
        s.legal_done += k;
        s.work_done += k;
        work -= k;
        if (s.legal_done < s.n) return false;
        s.at = s.after_moves;
        if (s.at == phase::probe) s.start_search(s.first_source == SIZE_MAX ? s.random_start() : s.first_source);
        break;
      }
      case phase::probe: {
        if (!s.run_search(work)) return false;
        ++s.probes;
        if (s.reached > s.best_reached) {
          s.best_reached = s.reached;
          s.best_probe.swap(s.dist);
        }
        // A start in a small pocket would put every landmark there: try again (at most 8
        // times) until a probe reaches half the free points.
        const std::uint64_t free_cells = static_cast<std::uint64_t>(s.map.width()) * static_cast<std::uint64_t>(s.map.height()) -
                                         s.map.blocked_count();
        if (s.sweeping) {  // the sweep's distances, for the unit and the first landmark
          s.best_probe.swap(s.dist);
          s.sweeping = false;
          s.choose_narrow_units();
        }
        if (s.given.empty() && s.probes < 8 && s.best_reached * 2 < free_cells) {
          s.start_search(s.random_start());
        } else if (!s.units_chosen) {
          // A 16-bit set searches once more from the point farthest from the probe, a point
          // on the rim: its longest distance is close to the map's diameter, which sets
          // the unit (a second sweep's estimate; twice the probe's would waste half the
          // range and so coarsen the unit).
          s.sweeping = true;
          const std::size_t from = s.farthest(s.best_probe);
          release(s.best_probe);  // the sweep's distances take its place
          s.start_search(from);
        } else {
          s.at = phase::place;
        }
        break;
      }
      case phase::place: {
        std::size_t l = 0;
        if (!s.choose(work, l)) return false;
        const bool wide = s.set.width_ == landmark_width::bits32;
        if (s.placed == 0) {  // the first landmark reaches the probe's points: from now on `nearest` says which
          if (wide && s.given.empty()) s.nearest_array.swap(s.best_probe);
          release(s.best_probe);
          if (wide) {
            s.set.table_.assign(s.tiled * static_cast<std::size_t>(s.count), landmark_set::kUnreached);
          } else if (s.set.tile_bounds()) {  // pairs (least, greatest): unreached, and 0 to raise
            s.set.narrow_.assign(s.tiled / 16 * static_cast<std::size_t>(s.count) * 2, 0);
            for (std::size_t i = 0; i < s.set.narrow_.size(); i += 2) s.set.narrow_[i] = landmark_set::kUnreached16;
          } else {
            release(s.dist);
            s.set.narrow_.assign(s.tiled * static_cast<std::size_t>(s.count), landmark_set::kUnreached16);
          }
        }
        s.source = l;  // a landmark joins points_ once its column is complete (partial())
        s.at = phase::search;
        if (wide || s.set.tile_bounds())
          s.start_search(l);
        else
          s.start_column_search(l);
        break;
      }
      case phase::search: {
        if (!s.run_search(work)) return false;
        s.set.points_.push_back(s.at_index(s.source));
        if (s.set.tile_bounds()) s.fold_into_ranges();
        if (s.set.width_ == landmark_width::bits32) {  // a 16-bit column is written already
          const std::size_t k = static_cast<std::size_t>(s.count);
          const bool first = s.placed == 0;
          std::uint32_t* column = s.set.table_.data() + s.placed;
          for (int y = 0, i = 0; y < s.set.rows_; ++y)
            for (int x = 0; x < s.set.stride_; ++x, ++i) {
              const std::uint32_t d = s.dist[static_cast<std::size_t>(i)];
              column[s.set.slot({x, y}) * k] = d;
              if (!s.nearest_array.empty()) {
                std::uint32_t& m = s.nearest_array[static_cast<std::size_t>(i)];
                m = first ? d : std::min(m, d);
              }
            }
        }
        ++s.placed;
        s.at = s.placed == s.count ? phase::finished : phase::place;
        break;
      }
      case phase::finished:
        break;
    }
  }
  if (s.at == phase::finished) {
    release(s.dist);
    release(s.legal);
    release(s.best_probe);
    release(s.nearest_array);
    s.queues = {};
#if defined(__GLIBC__)
    // The work arrays have pages of their own (page_vector.hpp), but the queues (a few
    // MiB at 2048 x 2048) may sit in the heap, which keeps what is freed: trim it, or they
    // stay resident (tests/memory_test.cpp).
    malloc_trim(0);
#endif
  }
  return s.at == phase::finished;
}

landmark_set landmark_builder::take() {
  if (!done() || !s_) throw std::logic_error("landmark_builder::take: the set is not built yet");
  release(s_->legal);  // first, so that the reference adds nothing to the build's peak
  release(s_->dist);
  s_->set.take_reference(s_->map);
  landmark_set out = std::move(s_->set);
  s_.reset();
  return out;
}

bool landmark_builder::frees_need_repair(const grid_map& map, std::uint64_t since) const {
  if (!s_) return false;
  const grid_map& copy = s_->map;
  return detail::freed_beyond(
      map, since, [&copy](int x, int y) { return copy.blocked(x, y); },
      [&copy](int y) { return copy.row_line(y); }, (copy.width() + 63) >> 6);
}

const landmark_set& landmark_builder::partial() const {
  if (!s_) throw std::logic_error("landmark_builder::partial: the set was taken");
  return s_->set;
}

const grid_map& landmark_builder::source() const {
  if (!s_) throw std::logic_error("landmark_builder::source: the set was taken");
  return s_->map;
}

int landmark_builder::built() const {
  if (!s_) return 0;
  return s_->at == phase::finished ? s_->count : s_->placed;
}

std::size_t landmark_builder::memory_bytes() const {
  if (!s_) return 0;
  const state& s = *s_;
  std::size_t n = s.set.memory_bytes() + s.legal.capacity() +
                  (s.dist.capacity() + s.best_probe.capacity() + s.nearest_array.capacity()) * sizeof(std::uint32_t);
  for (const auto& q : s.queues.queue) n += q.capacity() * sizeof(std::uint64_t);
  return n;
}

landmark_set landmark_set::build(const rule& r, const grid_map& map, int count, landmark_placement placement,
                                 std::uint64_t seed, landmark_width width) {
  landmark_builder b(r, map, count, placement, seed, width);
  while (!b.step(std::uint64_t{1} << 40)) {
  }
  return b.take();
}

landmark_set landmark_set::build(const rule& r, const grid_map& map, const std::vector<point>& points,
                                 landmark_width width, cost_t unit) {
  landmark_builder b(r, map, points, width, unit);
  while (!b.step(std::uint64_t{1} << 40)) {
  }
  return b.take();
}

}  // namespace lddb
