// Jump point search's straight jumps per cell, made and repaired. See jump_tables.hpp.
#include "map/jump_tables.hpp"

#include <algorithm>
#include <bit>

namespace lddb {

void grid_map::jump_tables_deleter::operator()(detail::derived_structure* t) const {
  delete static_cast<detail::jump_tables*>(t);
}

namespace detail {

namespace {

// The stops of one line (a row or a column) for scans forwards (east, south) and
// backwards, a bit a cell, worked out 64 cells at a time from the line's words and its two
// neighbours' (jump_scan.hpp's forced neighbours) where a repair reads them. Past the ends
// the line counts as blocked.
struct line_stops {
  int n = 0;  // cells in the line
  const std::uint64_t *cells = nullptr, *before = nullptr, *after = nullptr;

  line_stops(const std::uint64_t* here, const std::uint64_t* b, const std::uint64_t* a, int length)
      : n(length), cells(here), before(b), after(a) {}
  std::uint64_t forward_word(std::ptrdiff_t k) const {
    const std::uint64_t b = before[k], a = after[k];
    const std::uint64_t fb = (b << 1) | (before[k - 1] >> 63), fa = (a << 1) | (after[k - 1] >> 63);
    return cells[k] | (fb & ~b) | (fa & ~a);
  }
  std::uint64_t backward_word(std::ptrdiff_t k) const {
    const std::uint64_t b = before[k], a = after[k];
    const std::uint64_t bb = (b >> 1) | (before[k + 1] << 63), ba = (a >> 1) | (after[k + 1] << 63);
    return cells[k] | (bb & ~b) | (ba & ~a);
  }
  bool blocked(int i) const { return i < 0 || i >= n || ((cells[i >> 6] >> (i & 63)) & 1u) != 0; }
  // The first forward stop at or after i (n when none: the edge).
  int forward_from(int i) const {
    if (i >= n) return n;
    const std::ptrdiff_t last = (n - 1) >> 6;
    std::ptrdiff_t k = i >> 6;
    std::uint64_t w = forward_word(k) & (~std::uint64_t{0} << (i & 63));
    while (w == 0) {
      if (++k > last) return n;
      w = forward_word(k);
    }
    return std::min(n, static_cast<int>(k * 64) + std::countr_zero(w));
  }
  // The last backward stop at or before i (-1 when none).
  int backward_from(int i) const {
    if (i < 0) return -1;
    std::ptrdiff_t k = i >> 6;
    std::uint64_t w = backward_word(k) & (~std::uint64_t{0} >> (63 - (i & 63)));
    while (w == 0) {
      if (--k < 0) return -1;
      w = backward_word(k);
    }
    return static_cast<int>(k * 64) + 63 - std::countl_zero(w);
  }
};

// An entry's byte: +d for a jump point d cells ahead, -d for a blocked cell, 0 past kFar.
std::int8_t entry_value(int distance, bool blocked) {
  if (distance > jump_tables::kFar) return 0;
  return static_cast<std::int8_t>(blocked ? -distance : distance);
}

// Writes the forward entries of cells [lo', hi - 1] of the line, where lo' is the later of
// the last forward stop before lo (0 when none) and lo - kFar: those whose stop ahead may
// lie in [lo, hi] within kFar cells (an entry further back reads 0 before and after).
// `set` writes one entry (position, value).
template <class Set>
void sweep_forward(const line_stops& l, int lo, int hi, Set&& set) {
  int next = l.forward_from(hi);
  bool next_blocked = l.blocked(next);
  std::ptrdiff_t k = -1;
  std::uint64_t stops = 0;
  const int last = std::max(0, lo - jump_tables::kFar);
  for (int c = std::min(hi, l.n) - 1; c >= last; --c) {
    set(c, entry_value(next - c, next_blocked));
    if ((c >> 6) != k) stops = l.forward_word(k = c >> 6);
    if ((stops >> (c & 63)) & 1u) {
      if (c < lo) return;
      next = c;
      next_blocked = l.blocked(c);
    }
  }
}

// The same backwards: cells [lo + 1, hi'] where hi' is the earlier of the first backward
// stop after hi and hi + kFar.
template <class Set>
void sweep_backward(const line_stops& l, int lo, int hi, Set&& set) {
  int next = l.backward_from(lo);
  bool next_blocked = l.blocked(next);
  std::ptrdiff_t k = -1;
  std::uint64_t stops = 0;
  const int last = std::min(l.n - 1, hi + jump_tables::kFar);
  for (int c = std::max(lo, -1) + 1; c <= last; ++c) {
    set(c, entry_value(c - next, next_blocked));
    if ((c >> 6) != k) stops = l.backward_word(k = c >> 6);
    if ((stops >> (c & 63)) & 1u) {
      if (c > hi) return;
      next = c;
      next_blocked = l.blocked(c);
    }
  }
}

}  // namespace

jump_tables::jump_tables(const grid_map& m)
    : derived_structure(true), width_(m.width()), height_(m.height()),
      cells_(static_cast<std::size_t>(m.width()) * static_cast<std::size_t>(m.height())),
      rows_(static_cast<std::size_t>(m.height())), columns_(static_cast<std::size_t>(m.width())),
      wide_(static_cast<std::size_t>(std::max(m.width(), m.height()))) {
  rebuild(m);
}

void jump_tables::rebuild(const grid_map& m) {
  // lo = -1: every entry, the backward ones from the line's first cell.
  for (int y = 0; y < height_; ++y) repair_row(m, y, -1, width_);
  rebuild_columns(m);
}

// The columns' entries row by row, so that the writes run along memory (column by column,
// each write would touch a cache line of its own): rows from the last up for the south
// entries, each column's next stop below kept in `next`; from the first down for north.
// A column scan's stop at (x, y) reads row y and the row behind it, at x - 1, x and x + 1
// (jump_scan.hpp), which shifts of the row words give 64 cells at a time.
void jump_tables::rebuild_columns(const grid_map& m) {
  const int words = (width_ + 63) >> 6;
  std::vector<int> next(static_cast<std::size_t>(width_));
  std::vector<std::uint64_t> next_blocked(static_cast<std::size_t>(words));
  for (const bool down : {true, false}) {
    std::fill(next.begin(), next.end(), down ? height_ : -1);  // the edge, blocked
    std::fill(next_blocked.begin(), next_blocked.end(), ~std::uint64_t{0});
    const int dir = down ? south : north;
    for (int i = 0; i < height_; ++i) {
      const int y = down ? height_ - 1 - i : i;
      const std::uint64_t* r = m.row_line(y);
      const std::uint64_t* behind = m.row_line(down ? y - 1 : y + 1);
      entry* row = cells_.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(width_);
      for (int k = 0; k < words; ++k) {
        const std::uint64_t west_here = (r[k] << 1) | (r[k - 1] >> 63), east_here = (r[k] >> 1) | (r[k + 1] << 63);
        const std::uint64_t west_behind = (behind[k] << 1) | (behind[k - 1] >> 63);
        const std::uint64_t east_behind = (behind[k] >> 1) | (behind[k + 1] << 63);
        const std::uint64_t stops = r[k] | (west_behind & ~west_here) | (east_behind & ~east_here);
        std::uint64_t& blocked_next = next_blocked[static_cast<std::size_t>(k)];
        for (int x = k * 64; x < std::min(width_, k * 64 + 64); ++x) {
          const std::uint64_t bit = std::uint64_t{1} << (x & 63);
          const int d = down ? next[static_cast<std::size_t>(x)] - y : y - next[static_cast<std::size_t>(x)];
          row[x][dir] = entry_value(d, (blocked_next & bit) != 0);
          if ((stops & bit) == 0) continue;
          next[static_cast<std::size_t>(x)] = y;
          blocked_next = (r[k] & bit) != 0 ? (blocked_next | bit) : (blocked_next & ~bit);
        }
      }
    }
  }
}

void jump_tables::repair_row(const grid_map& m, int y, int lo, int hi) {
  if (y < 0 || y >= height_) return;
  const line_stops l(m.row_line(y), m.row_line(y - 1), m.row_line(y + 1), width_);
  entry* row = cells_.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(width_);
  sweep_forward(l, lo, hi, [row](int x, std::int8_t v) { row[x][east] = v; });
  sweep_backward(l, lo, hi, [row](int x, std::int8_t v) { row[x][west] = v; });
}

void jump_tables::repair_column(const grid_map& m, int x, int lo, int hi) {
  if (x < 0 || x >= width_) return;
  const line_stops l(m.column_line(x), m.column_line(x - 1), m.column_line(x + 1), height_);
  entry* column = cells_.data() + static_cast<std::size_t>(x);
  const std::size_t stride = static_cast<std::size_t>(width_);
  sweep_forward(l, lo, hi, [column, stride](int y, std::int8_t v) { column[static_cast<std::size_t>(y) * stride][south] = v; });
  sweep_backward(l, lo, hi, [column, stride](int y, std::int8_t v) { column[static_cast<std::size_t>(y) * stride][north] = v; });
}

void jump_tables::repair_around(const grid_map& m, int x, int y) {
  for (int r = y - 1; r <= y + 1; ++r) repair_row(m, r, x - 1, x + 1);
  for (int c = x - 1; c <= x + 1; ++c) repair_column(m, c, y - 1, y + 1);
}

void jump_tables::cell_changed(grid_map& m, const cell_change& c) {
  if (!c.in_batch) return repair_around(m, c.x, c.y);
  // A rectangle's bits are not all written yet: note the cell's row and column spans, and
  // repair each line once at batch_done (a rectangle of w x h cells: h + 2 rows and
  // w + 2 columns).
  ++pending_cells_;
  note(rows_, dirty_rows_, c.y, c.x);
  note(columns_, dirty_columns_, c.x, c.y);
}

void jump_tables::note(std::vector<span>& spans, std::vector<int>& dirty, int line, int at) {
  span& s = spans[static_cast<std::size_t>(line)];
  if (s.lo > s.hi) dirty.push_back(line);
  s.lo = std::min(s.lo, at - 1);
  s.hi = std::max(s.hi, at + 1);
}

// The lines noted, and the lines beside them, each with the union of the spans of the
// noted lines it is beside (a cell's change moves stops of the lines on either side too),
// into wide_ and wide_lines_; the notes are cleared.
void jump_tables::widen(std::vector<span>& spans, std::vector<int>& dirty, int count) {
  for (const int line : dirty) {
    const span s = spans[static_cast<std::size_t>(line)];
    for (int l = std::max(line - 1, 0); l <= std::min(line + 1, count - 1); ++l) note_span(l, s);
  }
  for (const int line : dirty) spans[static_cast<std::size_t>(line)] = span{};
  dirty.clear();
}

void jump_tables::note_span(int line, span s) {
  span& w = wide_[static_cast<std::size_t>(line)];
  if (w.lo > w.hi) wide_lines_.push_back(line);
  w.lo = std::min(w.lo, s.lo);
  w.hi = std::max(w.hi, s.hi);
}

void jump_tables::batch_done(grid_map& m) {
  // A rectangle of many cells (a map switched whole): one pass over the map costs less.
  const bool whole = pending_cells_ * 16 > cells_.size();
  pending_cells_ = 0;
  for (const bool rows : {true, false}) {
    widen(rows ? rows_ : columns_, rows ? dirty_rows_ : dirty_columns_, rows ? height_ : width_);
    for (const int line : wide_lines_) {
      span& s = wide_[static_cast<std::size_t>(line)];
      if (!whole && rows) repair_row(m, line, s.lo, s.hi);
      if (!whole && !rows) repair_column(m, line, s.lo, s.hi);
      s = span{};
    }
    wide_lines_.clear();
  }
  if (whole) rebuild(m);
}

const jump_tables* jump_table_access::of(const grid_map& m) {
  return static_cast<const jump_tables*>(m.jump_tables_.p.get());
}

void jump_table_access::make(grid_map& m) {
  const std::uint64_t cells = static_cast<std::uint64_t>(m.width()) * static_cast<std::uint64_t>(m.height());
  if (m.jump_tables_.p || cells > jump_tables::kMaxCells) return;
  m.jump_tables_.p.reset(new jump_tables(m));
}

void jump_table_access::drop(grid_map& m) { m.jump_tables_.p.reset(); }

}  // namespace detail
}  // namespace lddb
