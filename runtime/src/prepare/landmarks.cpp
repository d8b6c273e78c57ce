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
#include "prepare/landmark_build_state.hpp"
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
      best = std::max(best, gap(ra, rb));
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

using landmark_build::phase;
using landmark_build::release;
using namespace landmark_units;

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
            release(s.dist);
            s.set.narrow_.assign(s.tiled / 16 * static_cast<std::size_t>(s.count) * 2, 0);
            for (std::size_t i = 0; i < s.set.narrow_.size(); i += 2) s.set.narrow_[i] = landmark_set::kUnreached16;
          } else {
            release(s.dist);
            s.set.narrow_.assign(s.tiled * static_cast<std::size_t>(s.count), landmark_set::kUnreached16);
          }
        }
        s.source = l;  // a landmark joins points_ once its column is complete (partial())
        s.at = phase::search;
        if (wide)
          s.start_search(l);
        else if (s.set.tile_bounds())
          s.start_tile_search(l);
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
    release(s.dist16);
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
                  (s.dist.capacity() + s.best_probe.capacity() + s.nearest_array.capacity()) * sizeof(std::uint32_t) +
                  s.dist16.capacity() * sizeof(std::uint16_t);
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
