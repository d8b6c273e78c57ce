// lddb/grid.hpp: grid maps. Reading Moving AI files and generating maps are in lddb_io
// (lddb/map_file.hpp, lddb/scenario.hpp, lddb/mapgen.hpp).
//
// A grid_map holds one bit per cell (and two copies of it, by rows and by columns with
// blocked margins, for the line scans of jump_point_search) and, for Block A*, one
// pattern_code per block of b x b cells (bit y*b+x set when that cell is blocked).
// set_blocked updates them all in O(1)
// (and, when a block turns open or not, one open-group count per level),
// so a map can change between queries with no other preprocessing. Cells beyond the map's
// width and height (the padding of the last row and column of blocks) are blocked, as is
// everything outside the map.
//
// A grid_map may also hold a terrain type per cell and keeps the views of the units that
// queries have asked about (lddb/unit.hpp), current through set_blocked and set_terrain.
//
// A grid_map also keeps component labels of its free cells, for each connectivity a query
// has asked about, so that a search between two components answers no_path at once (see
// same_component).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "lddb/unit.hpp"

namespace lddb {

namespace detail {
struct preparations;  // runtime/src/prepare/prepared.hpp: what lddb::prepare made (lddb/prepare.hpp)
struct component_access;  // runtime/src/map/component_labels.hpp: the searches' reading of the labels
class derived_structure;  // runtime/src/map/derived.hpp: what the map derives from its cells
struct cell_change;
class jump_tables;        // runtime/src/map/jump_tables.hpp: jump point search's straight jumps
struct jump_table_access;
}

// Which free cells touch: four (sharing an edge) or eight (also sharing only a corner).
// lddb::connectivity_of (lddb/search.hpp) gives a rule's.
enum class connectivity : std::uint8_t { four = 0, eight = 1 };

// What a set bit of a patch of cells means (grid_map::set_blocked_rect).
enum class bit_meaning : std::uint8_t { blocked, free };

class grid_map {
 public:
  static constexpr int kMaxSide = 1 << 14;  // 16384 cells a side

  // An all-free map. Throws std::invalid_argument for sizes outside 1..kMaxSide or a
  // block size outside 2..5.
  grid_map(int width, int height, int block = 4);

  int width() const { return width_; }
  int height() const { return height_; }
  int block() const { return block_; }
  int blocks_x() const { return blocks_x_; }
  int blocks_y() const { return blocks_y_; }

  bool in_bounds(int x, int y) const { return x >= 0 && y >= 0 && x < width_ && y < height_; }
  bool blocked(int x, int y) const {
    if (!in_bounds(x, y)) return true;
    return (row_bits_[static_cast<std::size_t>(y) * words_ + static_cast<std::size_t>(x >> 6)] >> (x & 63)) & 1u;
  }
  // O(1): one bit of the cell row and one bit of its block's pattern_code (and one count per
  // level, O(log of the map's side), when the block turns open or not); where component
  // labels are built, blocking also reads the 8 cells around (a cell whose free
  // neighbours stay joined around it splits nothing; otherwise the labels are rebuilt by
  // the next query that needs them) and freeing joins the labels of its free neighbours
  // (union-find: amortised near O(1), O(log cells) at worst). Allocates nothing.
  // Throws std::out_of_range, naming the cell and the map's size, for a cell off the map
  // (unlike blocked(), which answers true there), and changes nothing then.
  // With terrain types (see set_terrain) or unit views (see view), blocking a cell writes
  // the type '@' and freeing one '.', and each view changes as set_terrain says.
  void set_blocked(int x, int y, bool is_blocked);

  // A rectangle of cells at once (a door, a building, a whole new map): the w x h cells
  // from (x, y), cell (x + i, y + j) taking bit k = j * w + i of `bits` (bits[k >> 3] >>
  // (k & 7) & 1: least significant bit first, rows packed with no padding, as the GPPC
  // dynamic track's patches are); a set bit means blocked or free as `meaning` says. The map
  // ends exactly where set_blocked on each cell, row by row, would leave it (journal order,
  // labels, terrain and views included), but the rows, codes, open groups and double
  // corners change a word or a block at a time, so a cell that keeps its state costs a bit
  // of a word read and only the changed cells go one by one (copy by columns, journal,
  // labels, terrain, views): far less than that loop, most of all for large rectangles
  // (docs/benchmarks.md, "What a change costs: a rectangle at once"). Allocates nothing up
  // to about 1000 cells wide. Throws
  // std::out_of_range (naming the rectangle and the map's size) for a rectangle not wholly
  // on the map, std::invalid_argument for w or h below 1 or `bits` shorter than
  // (w * h + 7) / 8 bytes, and changes nothing then.
  void set_blocked_rect(int x, int y, int w, int h, std::span<const std::uint8_t> bits,
                        bit_meaning meaning = bit_meaning::blocked);
  // Every cell of the rectangle blocked or free, as set_blocked_rect; the same errors.
  void fill_blocked_rect(int x, int y, int w, int h, bool is_blocked);

  // Terrain types (lddb/unit.hpp). A map without any holds '.' in its free cells and '@' in
  // its blocked ones, in no memory; the first other type written makes it keep one byte a
  // cell. set_terrain blocks the cell when the type is not ground (movement_class::ground)
  // and frees it when it is, so blocked() keeps meaning "closed to the default unit"; it
  // costs what set_blocked does, plus, for each view, O(footprint^2) counts and at most that
  // many cells of the view set_blocked. Off the map: std::out_of_range, as set_blocked.
  void set_terrain(int x, int y, terrain type);
  // The cell's type; off the map kBlockedTerrain.
  terrain terrain_at(int x, int y) const;
  bool has_terrain() const { return !terrain_.empty(); }

  // The map as a unit whose `footprint` x `footprint` square of cells from its anchor must
  // all hold types of `movement` sees it: cell (x, y) of the view is blocked when any cell
  // of that square is not open to the class or lies off the map (lddb::unit_view picks the
  // footprint for a rule and a unit size). A footprint of 1 with the ground class is the
  // map itself. Built on first use, O(cells), and then kept current by set_blocked and
  // set_terrain; it is a grid_map of its own, with its own block codes, open groups and
  // component labels, and no preparation. Memory: one count byte a cell plus the view's
  // bits and codes, about 1.85 bytes a cell (view_bytes), and 4 bytes a cell more for each
  // connectivity a query asks components of. The reference lives until the map is
  // destroyed or assigned to (a copy does not take the views). A const map may be asked
  // from several threads at once (a lock guards the list of views). Throws
  // std::invalid_argument for a footprint outside 1..kMaxFootprint.
  static constexpr int kMaxFootprint = unit::kMaxSize + 1;
  const grid_map& view(int footprint, const movement_class& movement) const;
  // How many views are built, and the bytes they hold (their counts, bits, codes and labels).
  std::size_t view_count() const;
  std::size_t view_bytes() const;

  // Are the free cells a and b in one component of free cells under `c`? False when
  // either is blocked or off the map. The labels of `c` are built on the first call
  // (O(width x height), width x height x 4 bytes); set_blocked and the rectangles keep them
  // exact by a local search round the cells they block, whose cost follows the smaller side
  // of a split. Where that search would cost more than about a sixteenth of the rebuild
  // they leave them coarse: still proof that two cells are apart, which is all a search's
  // check reads (after a search that ran out of cells on them, the next lddb::prepare_step
  // rebuilds them), while this call rebuilds them first. A const map may be asked from several threads at once (a lock
  // guards the labels).
  bool same_component(connectivity c, int ax, int ay, int bx, int by) const;
  // Are the labels of `c` built and current, so that the next same_component for it
  // rebuilds nothing? (A game may call same_component once after loading, off the clock.)
  bool components_current(connectivity c) const;
  // Bytes the component labels hold.
  std::size_t component_bytes() const;

  // The pattern_code of block (bx, by); blocks outside the map are fully blocked.
  std::uint32_t block_code(int bx, int by) const {
    if (bx < 0 || by < 0 || bx >= blocks_x_ || by >= blocks_y_) return full_code_;
    return codes_[static_cast<std::size_t>(by) * static_cast<std::size_t>(blocks_x_) + static_cast<std::size_t>(bx)];
  }

  // Rebuilds the block codes for another block size (a database with another b).
  void set_block_size(int block);

  // Open groups: the largest level L <= max_level such that the aligned group of
  // 2^L x 2^L blocks holding block (bx, by) lies wholly inside the map's blocks and every
  // block of it is open (pattern_code 0); 0 when none (level 0 is the block itself). Read
  // from a count of the blocks that are not open in each group of each level, which
  // set_blocked keeps current in O(levels) when a block turns open or not: O(levels), no
  // preprocessing, never stale. Levels above open_group_levels() are never open.
  int open_group_level(int bx, int by, int max_level) const;
  // The highest level a group fits in the map's blocks (0 when even 2 x 2 blocks do not).
  int open_group_levels() const { return static_cast<int>(group_counts_.size()); }

  // Changes, for caches of the map kept outside it (lddb/landmarks.hpp): identity() is
  // unique to this object (a copy gets its own), and the counters count the cells
  // set_blocked has freed or blocked since the map was made. A cache built when
  // cells_freed() was n stays a lower bound on every distance while it is n.
  std::uint64_t identity() const { return identity_.value; }
  std::uint64_t cells_freed() const { return cells_freed_; }
  std::uint64_t cells_blocked() const { return cells_blocked_; }

  // The journal of freed cells, so that a cache can catch up with what was freed instead of
  // being thrown away (landmark_set::repair): a ring of the last kFreedJournal cells
  // set_blocked freed (4 bytes each, 4 KiB a map, allocated with the map; set_blocked
  // writes one entry and allocates nothing). The n-th freed cell (counting from 0, so n <
  // cells_freed()) is kept while cells_freed() - n <= kFreedJournal. A cell in it may have
  // been blocked again since. A copy has the same journal (and another identity).
  static constexpr std::uint64_t kFreedJournal = 1024;
  // Are all the cells freed since the count was `since` still kept? False when more than
  // kFreedJournal have been freed since (the cache must find them another way: landmark
  // sets compare the map with their own) or `since` is ahead.
  bool freed_kept_since(std::uint64_t since) const {
    return since <= cells_freed_ && cells_freed_ - since <= kFreedJournal;
  }
  struct cell {
    int x, y;
  };
  // The n-th freed cell; n must be kept (see freed_kept_since): otherwise std::out_of_range.
  cell freed_cell(std::uint64_t n) const;

  // Number of blocked cells (for reports).
  std::uint64_t blocked_count() const;
  // Double corners: vertices whose two diagonally opposite cells are blocked and the other
  // two free (lddb/segments.hpp), kept by set_blocked in O(1). A point passes one only under
  // any-angle squeeze=allowed; jump point search's cells then step across it.
  std::uint64_t double_corner_count() const { return double_corners_; }

  // 64 cells of a row or a column at once, for searches that scan lines of cells a word at
  // a time (jump_point_search): bit i is set when cell (x + i, y) (row_bits) or (x, y + i)
  // (column_bits) is blocked; cells off the map count as blocked. The bits are kept with a
  // margin of blocked cells around the map, so these read two words and branch on
  // nothing; they answer for -128 <= x <= width() + 63 and -1 <= y <= height() (row_bits),
  // the same with x and y, width and height swapped (column_bits). set_blocked keeps two
  // more copies of the cells for this, by rows and by columns with their margins (two
  // more bits a cell; blocked() reads its own copy, without margins, which costs one
  // addition less on every read).
  std::uint64_t row_bits(int x, int y) const { return line_bits(row_line(y), x); }
  std::uint64_t column_bits(int x, int y) const { return line_bits(column_line(x), y); }
  // The words themselves, for scans that read them directly: each line (row, or column)
  // of words has kMargin words of blocked cells before and after it and its cells past
  // the map's edge blocked, and one line of blocked cells lies before the first line and
  // after the last. row_line(y) points at the word holding cells (0..63, y), for
  // -1 <= y <= height(); column_line(x) at the word holding cells (x, 0..63).
  static constexpr std::size_t kMargin = 2;
  const std::uint64_t* row_line(int y) const {
    return scan_rows_.data() + static_cast<std::size_t>(y + 1) * row_stride_ + kMargin;
  }
  const std::uint64_t* column_line(int x) const {
    return scan_columns_.data() + static_cast<std::size_t>(x + 1) * column_stride_ + kMargin;
  }

  // What lddb::prepare made for this map (lddb/prepare.hpp), for the searches; null when
  // nothing. A cache of the map, like the component labels: a copy starts without it, a
  // move takes it along.
  const detail::preparations* preparations() const { return prepared_.p.get(); }
  detail::preparations& preparations_to_change();  // made on first use

  friend bool operator==(const grid_map& a, const grid_map& b) {
    return a.width_ == b.width_ && a.height_ == b.height_ && a.block_ == b.block_ && a.row_bits_ == b.row_bits_ &&
           a.codes_ == b.codes_ && same_terrain(a, b);
  }

 private:
  // Bits `from`..`from + 63` of a line (see row_bits for the range of `from`).
  static std::uint64_t line_bits(const std::uint64_t* line, int from) {
    const std::ptrdiff_t i = from >> 6;  // floor, also for a negative `from`
    const int s = from & 63;
    return (line[i] >> s) | (line[i + 1] << 1 << (63 - s));  // two shifts: s = 0 takes nothing of the next word
  }
  // Lines of `words` words of `length` cells, `lines` of them, margins included, blocked
  // everywhere but the cells of the map.
  static std::vector<std::uint64_t> blank_lines(std::size_t lines, std::size_t words, int length);
  static bool same_terrain(const grid_map& a, const grid_map& b);
  // The bits, codes, open-group counts, journal and labels of one cell (set_blocked's work
  // without the terrain and the views).
  void set_cell_bits(int x, int y, bool is_blocked);
  // set_blocked_rect's work (runtime/src/map/grid_rect.cpp), the new cells read from `source`.
  struct rect_source;
  void change_rect(int x, int y, int w, int h, const rect_source& source);
  void rebuild_codes();
  void rebuild_group_counts();
  void count_open_change(int bx, int by, int delta);
  int width_, height_, block_;
  int blocks_x_ = 0, blocks_y_ = 0;
  std::size_t words_;  // 64-bit words of cells per row
  std::uint32_t full_code_ = 0;
  std::vector<std::uint64_t> row_bits_;     // one bit a cell, set when blocked, words_ a row
  std::size_t row_stride_, column_stride_;  // words from one line to the next, margins included
  std::vector<std::uint64_t> scan_rows_;     // the same bits with margins (row_line)
  std::vector<std::uint64_t> scan_columns_;  // and by columns (column_line)
  std::vector<std::uint32_t> codes_;
  // group_counts_[L - 1]: for each aligned group of 2^L x 2^L blocks (row-major, groups
  // that do not fit the map left out), how many of its blocks are not open.
  std::vector<std::vector<std::uint32_t>> group_counts_;
  std::uint64_t cells_freed_ = 0, cells_blocked_ = 0;
  std::uint64_t double_corners_ = 0;
  std::vector<std::uint32_t> freed_journal_;  // y << 16 | x, the n-th freed cell at n % kFreedJournal
  // A copy is another map, so it gets a new identity; a move keeps it (the map moved,
  // e.g. into a container) and leaves the moved-from object a new one.
  struct identity_token {
    identity_token();
    identity_token(const identity_token&) : identity_token() {}
    identity_token& operator=(const identity_token&) {
      value = identity_token().value;
      return *this;
    }
    identity_token(identity_token&& o) noexcept : value(o.value) { o.value = identity_token().value; }
    identity_token& operator=(identity_token&& o) noexcept {
      value = o.value;
      o.value = identity_token().value;
      return *this;
    }
    std::uint64_t value;
  };
  identity_token identity_;
  // The labels (runtime/src/map/components.cpp): a cache of the cells, so a copy starts
  // without them and builds its own when asked.
  struct components;
  struct components_deleter {
    void operator()(components* c) const;
  };
  class components_handle {
   public:
    components_handle();
    components_handle(const components_handle&) : components_handle() {}
    components_handle& operator=(const components_handle&);
    components_handle(components_handle&& o) noexcept
        : p_(std::move(o.p_)), derived_(std::exchange(o.derived_, nullptr)) {}
    components_handle& operator=(components_handle&& o) noexcept {
      p_ = std::move(o.p_);
      derived_ = std::exchange(o.derived_, nullptr);
      return *this;
    }
    components* get() const { return p_.get(); }
    detail::derived_structure* derived() const { return derived_; }  // the same object, as a derived structure

   private:
    std::unique_ptr<components, components_deleter> p_;
    detail::derived_structure* derived_ = nullptr;  // p_, set where components is complete
  };
  components_handle components_;
  // What the map holds beside its cells and a copy starts without: its preparations and
  // its jump tables.
  template <class T, class Deleter>
  struct dropped_by_copy {
    std::unique_ptr<T, Deleter> p;
    dropped_by_copy() = default;
    dropped_by_copy(const dropped_by_copy&) {}
    dropped_by_copy& operator=(const dropped_by_copy&) {
      p.reset();
      return *this;
    }
    dropped_by_copy(dropped_by_copy&&) noexcept = default;
    dropped_by_copy& operator=(dropped_by_copy&&) noexcept = default;
  };
  struct preparations_deleter {
    void operator()(detail::preparations* p) const;
  };
  dropped_by_copy<detail::preparations, preparations_deleter> prepared_;
  friend struct detail::component_access;  // the searches' check, on labels that may be coarse
  std::vector<terrain> terrain_;  // empty: '.' free and '@' blocked
  // The unit views (runtime/src/map/unit_views.cpp): a cache of the cells, so a copy starts
  // without them, as with the labels.
  struct unit_views;
  struct unit_views_deleter {
    void operator()(unit_views* v) const;
  };
  struct unit_views_handle {
    std::unique_ptr<unit_views, unit_views_deleter> p;
    unit_views_handle();
    unit_views_handle(const unit_views_handle&) : unit_views_handle() {}
    unit_views_handle& operator=(const unit_views_handle&);
    unit_views_handle(unit_views_handle&& o) noexcept
        : p(std::move(o.p)), derived_(std::exchange(o.derived_, nullptr)) {}
    unit_views_handle& operator=(unit_views_handle&& o) noexcept {
      p = std::move(o.p);
      derived_ = std::exchange(o.derived_, nullptr);
      return *this;
    }
    detail::derived_structure* derived() const { return derived_; }  // p, as a derived structure

   private:
    detail::derived_structure* derived_ = nullptr;  // p, set where unit_views is complete
  };
  unit_views_handle views_;
  // Jump point search's straight jumps (runtime/src/map/jump_tables.cpp), made by
  // lddb::prepare where they pay: a cache of the cells, held as the derived structure it is
  // (the deleter knows the type).
  struct jump_tables_deleter {
    void operator()(detail::derived_structure* t) const;
  };
  dropped_by_copy<detail::derived_structure, jump_tables_deleter> jump_tables_;
  friend struct detail::jump_table_access;
  bool views_built() const;
  void views_follow_block_size();
  void settle_view_labels() const;  // component_access::settle on each unit view (runtime/src/map/unit_views.cpp)
  // The structures derived from the cells (runtime/src/map/derived.hpp), and the one place
  // each change reaches them: the labels, the unit views, the jump tables; null where none
  // is held (a moved-from map, tables not made).
  std::array<detail::derived_structure*, 3> derived() const {
    return {components_.derived(), views_.derived(), jump_tables_.p.get()};
  }
  bool follows_cells() const;
  bool follows_terrain() const;
  void cell_changed(const detail::cell_change& c);
  void batch_done();
  void terrain_changed(int x, int y, terrain from, terrain to);
};

}  // namespace lddb
