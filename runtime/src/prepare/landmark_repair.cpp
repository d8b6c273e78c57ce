// landmark_set::repair: lowering the tables after cells were freed. See lddb/landmarks.hpp.
//
// The tables are exact or lower bounds for the reference map (the map built from, less
// the cells repairs freed), whose free cells include every free cell of the map: cells
// freed that the reference has free change nothing and are only counted. Freeing a
// cell of the reference only adds moves, and only moves from points whose pattern of
// cells around them holds the freed cell: the 3 x 3 cells around it under tile and
// octile, its 4 corners under any-angle (a vertex's moves read its 4 cells). So, per
// landmark, the points around those cells are settled again at the distances they have
// (they are the seeds of the Dijkstra, sorted into its third queue), and every point a
// move of the reference from a settled point shortens is pushed and settled in turn: the
// standard Dijkstra with the old distances as upper bounds, which ends at the least costs
// over the reference when they were exact before. The moves are the reference's, not the
// map's: a cell blocked now but free on the reference may open again without a repair,
// and the distances through it must already be counted. Cells blocked on the reference
// are not seeds: a path does not pass through one, and their old entries could lower
// their neighbours' below a useful bound.
#include <algorithm>
#include <memory>
#include <array>

#include "prepare/landmark_dial.hpp"
#include "prepare/landmark_reference.hpp"
#include "lddb/landmarks.hpp"
#include "lddb/moves.hpp"

namespace lddb {

namespace {

// A point as the repair's queues hold it: y << kRowShift | x, so that a move is an added
// offset and a point's x and y come back by a mask and a shift (the map's own row-major
// index would cost two divisions at every table read; a side is at most 16,385 points).
constexpr int kRowShift = 15;
constexpr std::uint64_t kRowMask = (std::uint64_t{1} << kRowShift) - 1;
static_assert(grid_map::kMaxSide + 1 <= (1 << kRowShift), "a vertex row must fit the x field");

point decode(std::size_t i) {
  return {static_cast<int>(i & kRowMask), static_cast<int>(i >> kRowShift)};
}

}  // namespace

// Queues the seeds of landmark `l` for the pass's cells; returns how many.
std::size_t landmark_set::seed(int l, std::vector<std::uint64_t>& seeds) const {
  const bool vertices = rule_.on_vertices();
  const int lo = vertices ? 0 : -1;
  for (const point c : repair_cells_) {
    for (int dy = lo; dy <= 1; ++dy)
      for (int dx = lo; dx <= 1; ++dx) {
        const point p{c.x + dx, c.y + dy};
        if (!has_point(p) || (!vertices && reference_blocked(p.x, p.y))) continue;
        const std::uint32_t d = distance(p, l);
        if (d == kUnreached) continue;
        seeds.push_back(std::uint64_t{d} << 32 | (static_cast<std::uint64_t>(p.y) << kRowShift | static_cast<std::uint64_t>(p.x)));
      }
  }
  std::sort(seeds.begin(), seeds.end());
  seeds.erase(std::unique(seeds.begin(), seeds.end()), seeds.end());
  return seeds.size();
}

void landmark_set::take_reference(const grid_map& map) {
  reference_words_ = (map.width() + 63) >> 6;
  reference_.resize(static_cast<std::size_t>(reference_words_) * static_cast<std::size_t>(map.height()));
  for (int y = 0; y < map.height(); ++y)  // cells past the map's width read as blocked
    std::copy_n(map.row_line(y), reference_words_, reference_row(y));
}

bool landmark_set::frees_need_repair(const grid_map& map, std::uint64_t since) const {
  return detail::freed_beyond(
      map, since, [this](int x, int y) { return reference_blocked(x, y); },
      [this](int y) { return reference_row(y); }, reference_words_);
}

landmark_repair landmark_set::repair(const grid_map& map, std::uint64_t work) {
  if (count_ == 0 || map.identity() != map_identity_) return landmark_repair::rebuild_needed;
  const bool vertices = rule_.on_vertices();
  std::array<std::ptrdiff_t, 8> offset{};
  for (std::size_t k = 0; k < 8; ++k)
    offset[k] = static_cast<std::ptrdiff_t>(kSteps[k][1]) * (std::ptrdiff_t{1} << kRowShift) + kSteps[k][0];
  const std::size_t k_count = static_cast<std::size_t>(count_);
  for (;;) {
    if (repair_at_ < 0) {  // a new pass, over every landmark, up to the cells freed by now
      if (cells_freed_ == map.cells_freed()) return landmark_repair::current;
      repair_to_ = map.cells_freed();
      repair_cells_.clear();
      if (map.freed_kept_since(cells_freed_)) {
        std::uint64_t restored = 0;
        for (std::uint64_t n = cells_freed_; n < repair_to_; ++n) {
          const grid_map::cell c = map.freed_cell(n);
          if (reference_blocked(c.x, c.y)) repair_cells_.push_back({c.x, c.y});
          else ++restored;
        }
        restored_ += restored;
        work -= std::min<std::uint64_t>(work, repair_to_ - cells_freed_);
      } else {  // more than the journal keeps: the map against the reference, a word at a time
        // The count of blocked cells starts again from the map as it is.
        blocked_base_ = detail::compare_with_reference(
            map, [this](int y) { return reference_row(y); }, reference_words_, [this](int x, int y) {
              repair_cells_.push_back({x, y});
              return true;
            });
        restored_ = 0;
        cells_blocked_ = map.cells_blocked();
        work -= std::min<std::uint64_t>(work, static_cast<std::uint64_t>(map.height()) * static_cast<std::uint64_t>(reference_words_));
      }
      if (tile_bounds() && !repair_cells_.empty()) {  // landmark_tiles.cpp: ranges lowered through the cells
        if (!take_freed_into_tiles()) return landmark_repair::rebuild_needed;
      }
      for (const point c : repair_cells_) reference_row(c.y)[c.x >> 6] &= ~(std::uint64_t{1} << (c.x & 63));
      if (repair_cells_.empty()) {  // only restored cells: nothing to lower
        cells_freed_ = repair_to_;
        continue;
      }
      repair_at_ = 0;
      repair_seeded_ = false;
    }
    if (tile_bounds()) {
      work -= std::min(work, lower_tiles(repair_at_));
      if (++repair_at_ == count_) {
        cells_freed_ = repair_to_;
        repair_at_ = -1;
        lowered_ += repair_cells_.size();
      }
      if (work == 0) return current_for(map) ? landmark_repair::current : landmark_repair::unfinished;
      continue;
    }
    if (!repair_seeded_) {
      landmark_dial::clear(repair_queues_.get());
      const std::size_t n = seed(repair_at_, repair_queues_.get().queue[2]);
      work -= std::min<std::uint64_t>(work, n);
      repair_seeded_ = true;
    }
    std::uint64_t settled = 0;
    const std::size_t l = static_cast<std::size_t>(repair_at_);
    const auto moves = [&](std::size_t i) {
      const point p = decode(i);
      return unsigned{moves_[gather_cells_by([this](int x, int y) { return reference_blocked(x, y); }, p.x - 1,
                                             p.y - 1, vertices ? 2 : 3)]};
    };
    const bool over =
        width_ == landmark_width::bits32
            ? landmark_dial::run(
                  repair_queues_.get(), work, settled,
                  [&](std::size_t i) -> std::uint32_t& { return table_[slot(decode(i)) * k_count + l]; }, moves,
                  offset.data(), unit_, cap_)
            : landmark_dial::run(
                  repair_queues_.get(), work, settled,
                  [&](std::size_t i) -> std::uint16_t& { return narrow_[slot(decode(i)) * k_count + l]; }, moves,
                  offset.data(), unit_, cap_);
    if (!over) return landmark_repair::unfinished;
    repair_seeded_ = false;
    if (++repair_at_ == count_) {
      cells_freed_ = repair_to_;
      repair_at_ = -1;
      landmark_dial::clear(repair_queues_.get());
    }
    if (work == 0) return current_for(map) ? landmark_repair::current : landmark_repair::unfinished;
  }
}

namespace detail {

landmark_queues_box::landmark_queues_box() = default;
landmark_queues_box::~landmark_queues_box() = default;
landmark_queues_box::landmark_queues_box(const landmark_queues_box& o)
    : p_(o.p_ ? std::make_unique<landmark_queues>(*o.p_) : nullptr) {}
landmark_queues_box& landmark_queues_box::operator=(const landmark_queues_box& o) {
  if (this != &o) p_ = o.p_ ? std::make_unique<landmark_queues>(*o.p_) : nullptr;
  return *this;
}
landmark_queues_box::landmark_queues_box(landmark_queues_box&&) noexcept = default;
landmark_queues_box& landmark_queues_box::operator=(landmark_queues_box&&) noexcept = default;
landmark_queues& landmark_queues_box::get() {
  if (!p_) p_ = std::make_unique<landmark_queues>();
  return *p_;
}
void landmark_queues_box::reset() { p_.reset(); }

}  // namespace detail

}  // namespace lddb
