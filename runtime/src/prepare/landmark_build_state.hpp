// Private: the state of a landmark_builder between slices (landmarks.cpp steps it): the
// copy of the map, the Dijkstra under way and its queues, the placement of the next
// landmark, and the tables as far as they are built. See lddb/landmarks.hpp.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "lddb/landmarks.hpp"
#include "lddb/splitmix.hpp"
#include "prepare/landmark_dial.hpp"
#include "prepare/landmark_units.hpp"
#include "prepare/page_vector.hpp"

namespace lddb {

namespace landmark_build {

// moves: the legal moves of every point, read in slices like the searches (at 2048 x 2048
// they take tens of milliseconds, too long for one frame), then what the constructor chose.
enum class phase : std::uint8_t { moves, probe, place, search, finished };

// Gives a vector's memory back (v = {} would keep its capacity).
template <class V>
void release(V& v) {
  V().swap(v);
}

}  // namespace landmark_build

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
  // Tile bounds' landmarks search at the 16-bit unit in 2 bytes a point (8 MiB at 2048 x
  // 2048, where 4 would raise the build's peak), and fold it into the ranges when done.
  detail::page_vector<std::uint16_t> dist16;
  landmark_dial::queues queues;
  // The legal moves of every point (landmark_dial::legal_moves), read once for the map
  // instead of once a point for every Dijkstra: 1 byte a point, while building.
  detail::page_vector<std::uint8_t> legal;
  std::size_t legal_done = 0;           // points whose moves are read
  landmark_build::phase after_moves = landmark_build::phase::probe;     // and then: probe from first_source, or place
  std::size_t first_source = SIZE_MAX;  // SIZE_MAX: a random start
  // Placement: the best probe so far, and for a 32-bit set the distance from each point to
  // its nearest landmark (a 16-bit set, on a large map, reads it from its tables instead:
  // slower to place, 4 bytes a point less while building).
  detail::page_vector<std::uint32_t> best_probe, nearest_array;
  std::size_t best_reached = 0, reached = 0;
  int probes = 0;
  landmark_build::phase at = landmark_build::phase::probe;
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
  // A Dijkstra from `source` in the array d, every other point unreached.
  template <class V>
  void start_in(V& d, typename V::value_type unreached, std::size_t source) {
    landmark_dial::clear(queues);
    d.assign(n, unreached);
    d[source] = 0;
    queues.queue[2].push_back(source);
    reached = 0;
  }
  void start_search(std::size_t source) { start_in(dist, landmark_set::kUnreached, source); }
  // A 16-bit set's landmark searches in its own column of the tables, whose entries start
  // unreached: a 4-byte-a-point array beside the tables would set the peak of a large
  // map's preparation (16 MiB at 2048 x 2048, a third more than the tables).
  bool in_table() const { return set.width_ == landmark_width::bits16 && at == landmark_build::phase::search; }
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
  bool in_tiles() const { return set.tile_bounds() && at == landmark_build::phase::search; }
  void start_tile_search(std::size_t source) { start_in(dist16, landmark_set::kUnreached16, source); }
  // Settles points until `budget` runs out; true when the search is over.
  bool run_search(std::uint64_t& budget) {
    const std::uint64_t before = reached;
    const auto moves = [this](std::size_t i) { return static_cast<unsigned>(legal[i]); };
    const bool over =
        in_table()   ? landmark_dial::run(
                         queues, budget, reached, [this](std::size_t i) -> std::uint16_t& { return column_entry(i); }, moves,
                         offset.data(), set.unit_, set.cap_)
        : in_tiles() ? landmark_dial::run(
                           queues, budget, reached, [this](std::size_t i) -> std::uint16_t& { return dist16[i]; }, moves,
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
      std::uint32_t m = dist16[i] == landmark_set::kUnreached16 ? landmark_set::kUnreached : dist16[i];
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
            if (dist16[i] == landmark_set::kUnreached16) continue;
            const std::uint32_t m = std::min<std::uint32_t>(dist16[i], tile_least);
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

  // Tile bounds: the landmark's distances (dist16) folded into its range in every tile, for
  // the points in reach: the first landmark's, less any a later one does not reach.
  void fold_into_ranges() {
    const std::size_t k = static_cast<std::size_t>(count);
    const std::size_t words = (static_cast<std::size_t>(set.stride_) + 63) >> 6;
    if (placed == 0) set.reach_.assign(words * static_cast<std::size_t>(set.rows_), 0);
    for (int y = 0, i = 0; y < set.rows_; ++y)
      for (int x = 0; x < set.stride_; ++x, ++i) {
        const std::uint32_t d = dist16[static_cast<std::size_t>(i)] == landmark_set::kUnreached16
                                    ? landmark_set::kUnreached
                                    : dist16[static_cast<std::size_t>(i)];
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
    const double unit = landmark_units::narrow_unit(landmark_units::costs_of(r), static_cast<double>(longest) * static_cast<double>(set.unit_cost_));
    use_narrow_unit(static_cast<cost_t>(unit));
  }
  void use_narrow_unit(cost_t unit) {
    set.unit_cost_ = unit;
    landmark_units::set_units(set.unit_, landmark_units::costs_of(r), static_cast<double>(unit));
    set.cap_ = static_cast<std::uint32_t>(landmark_units::kNarrowCap);
    units_chosen = true;
  }
};

}  // namespace lddb
