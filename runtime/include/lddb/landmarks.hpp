// lddb/landmarks.hpp: differential (landmark) heuristics, kept honest as the map changes.
//
// A landmark L is a point with a table of its distance d(L, n) to every point n of the map.
// By the triangle inequality, |d(L, goal) - d(L, n)| <= d(n, goal), so the largest of these
// over K landmarks is a lower bound on the distance to the goal that, on maps with walls,
// mazes and rooms, is far tighter than the straight-line estimate (Goldberg & Harrelson
// 2005; the differential heuristic of ../shared/seeds/001). A search given a landmark_set
// (search_options::landmarks) takes h = max(the rule's own heuristic, that bound), over the
// four landmarks that bound the query's start best (a larger set costs memory, not time a
// point). Under any-angle a query whose start no landmark bounds better than the straight
// line runs without them (there the scaled bound below seldom helps).
//
// Which distances. Tile and octile: the least cost of the rule's moves, from a Dijkstra
// over the cells (tile's moves all cost one). Block A* searches exactly this graph
// (its blocks' stored costs are least costs of the same moves), so the bound is admissible
// and consistent for it and for A*: both stay optimal. Any-angle: the least cost of unit
// moves between vertices (along cell edges and across free cells) under the relaxed rule
// any-angle:squeeze=allowed, times cos(pi/8) and a hair: a legal segment from u to v is
// followed by such moves at no more than its octile length, which is at most 1/cos(pi/8)
// times its Euclidean length, so the scaled distance is at most the shortest any-angle
// path's length, and hence below every path Block A*, Theta* or Lazy Theta* can return
// (tests/landmarks_test.cpp checks it against the exact any-angle distances). It never
// lengthens a Block A* path: with a consistent lower bound Block A* still returns the least
// cost over its own graph.
//
// Distances are stored as counts of a unit (unit_cost() cost units), with each move's cost
// rounded down to that unit before the search, so the table is an exact least cost of
// moves that cost no more than the rule's: the bound stays admissible and consistent, and
// no floating point touches a query. Two widths (landmark_width):
// - 32 bits: the unit is 2^k cost units, the finest at which the longest possible distance
//   fits. 4 bytes a point a landmark.
// - 16 bits, for large maps (lddb/prepare.hpp sizes the tables by a memory budget): the
//   unit makes the longest distance from a point on the map's rim (found by a probe and a
//   second sweep from the probe's farthest point, close to the diameter) fit 65,534, chosen
//   among those within 2x of it so that a diagonal move loses least to the rounding (S
//   units a straight move, floor(S sqrt 2) a diagonal: 1% short at S = 5 or 10, 0.17% at
//   17). A distance past the largest count is stored as that count: min(d, cap) changes by
//   no more than d does along a move, so the bound stays consistent, only looser between
//   points that far. 2 bytes a point a landmark, and one more Dijkstra to build.
// Either way the table runs by tiles of 4 x 4 points (rounded up to whole tiles).
// - Tile bounds (landmark_width::tile_bounds), for more landmarks in less memory: per tile
//   of 4 x 4 points and landmark, the least and the greatest of its points' 16-bit
//   distances (the 16-bit unit above), 4 bytes a tile a landmark, an eighth of a 16-bit
//   table's: 16 landmarks take half the bytes of 4 per point. Since lo(a) <= d(L, a) <=
//   hi(a), the bound max(lo(a) - hi(b), lo(b) - hi(a)) is admissible. The ranges hold the
//   points every landmark reaches (in_reach, a bit a point): a point in a pocket they do
//   not reach shares its tile's range with points that are not its own, so a query whose
//   start or goal is out of reach goes without the bound (its search reaches only the
//   start's points, so those two are all it must check). The bound is not consistent (two
//   neighbouring tiles' ranges may differ by more than the move between them), so only a
//   search that reopens a point whose cost falls may read it: Block A*, A* and jump point
//   search do at weight 1, and a weighted query goes without it (search_options::weight).
//   For the cell rules only (Theta* closes vertices for good). A range keeps no point's
//   own distance to settle again, so a cell freed that the reference has blocked lowers
//   every tile's least by the triangle inequality through it and raises its own tile's
//   greatest (runtime/src/prepare/landmark_tiles.cpp): a pass over the tiles a landmark,
//   looser for each such cell, which cells_blocked_since counts as it counts a blocked
//   one. A cell that joins a pocket out of reach, or more than 64 in one repair, ask for a
//   rebuild (rebuild_needed).
//
// Changing maps (grid_map::set_blocked). Blocking cells only makes distances longer, so old
// tables stay lower bounds; freeing cells can make them too long. A set remembers the map
// it was built from (grid_map::identity) and how many cells that map had freed
// (grid_map::cells_freed): current_for(map) is false once a cell is freed, and a search
// then falls back on the rule's own heuristic for that query (safe, just slower) until
// repair(map) brings the tables up to date. The tables describe a reference map: the one
// built from, with a bit a cell. A cell freed that the reference has free (a door shut
// after the build and opened again, a building lifted) restores what the tables already
// bound, since every cell free on the map is still free on the reference and a path on the
// map is a path there: the repair only counts it, no Dijkstra, so a map whose changes come
// and go around the map it was built from keeps its landmarks for nothing. A cell freed
// that the reference has blocked can shorten distances: the repair frees it on the
// reference and runs a Dijkstra per landmark that only lowers entries, on the reference's
// moves: it starts at the points around those cells (read from the map's journal,
// grid_map::freed_cell), whose moves are new, and goes on only through points whose
// distance falls, so a door that opens costs what the distances it shortens cost
// (docs/benchmarks.md, "Landmark repair"). The landmark points stay where they were placed.
// When no cell was blocked since the build, every entry afterwards equals a fresh build's
// from the same points; cells blocked since leave their entries lower bounds (a repair
// never raises an entry), and the repair keeps every entry consistent along every move of
// the reference, the map's legal moves among them, so the bound stays admissible and
// consistent. current_for stays false until every landmark is repaired: no search reads a
// table that could overestimate.
//
// When to rebuild. repair says rebuild_needed when the map is another object. When the map
// has freed more cells than its journal keeps (grid_map::kFreedJournal) since the set was
// current, the repair finds the cells to lower by comparing the map with the reference a
// word at a time (O(cells / 64)) instead. Blocking never needs one for correctness, only
// for tightness: a wall that stays closed leaves the bound as loose as before it closed
// (searches expand more, their paths stay optimal). A game that closes things for good can
// watch cells_blocked_since(map) and, past its own threshold (say a few hundred cells, or a
// door closed for good on a route the landmarks served), start a landmark_builder on the
// map and run it in slices between frames or on a worker thread, keep searching with the
// old set meanwhile (blocks keep it admissible, repair keeps up with frees), and swap when
// it is done: the new set is repaired for the cells freed while it was built by one
// repair(map) call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "lddb/cost.hpp"
#include "lddb/grid.hpp"
#include "lddb/point.hpp"
#include "lddb/rule.hpp"

namespace lddb {

// Where landmarks go. farthest: each next landmark at the point farthest (by the tables
// already built) from the ones before, the first at the point farthest from a seeded
// random start; it spreads them to the map's extremities, where the bound is tightest.
// random: seeded random points of the same component.
enum class landmark_placement : std::uint8_t { farthest, random };

// How wide a table entry is, or tile bounds (see "Distances are stored" above).
enum class landmark_width : std::uint8_t { bits32, bits16, tile_bounds };
const char* landmark_placement_name(landmark_placement p);
std::optional<landmark_placement> parse_landmark_placement(std::string_view text);

class landmark_builder;

// What landmark_set::repair did.
enum class landmark_repair : std::uint8_t {
  current,         // the set is current_for the map
  unfinished,      // the work budget ran out first: call again (the set stays not current)
  rebuild_needed,  // another map object, an empty set, or tile bounds that cannot be lowered
};

namespace detail {
// A repair's queues (runtime/src/prepare/landmark_dial.hpp), held by the set between calls
// to repair and copied with it; made on a repair's first use.
struct landmark_queues;
class landmark_queues_box {
 public:
  landmark_queues_box();
  ~landmark_queues_box();
  landmark_queues_box(const landmark_queues_box& o);
  landmark_queues_box& operator=(const landmark_queues_box& o);
  landmark_queues_box(landmark_queues_box&&) noexcept;
  landmark_queues_box& operator=(landmark_queues_box&&) noexcept;
  landmark_queues& get();  // made on first use
  void reset();            // gives the memory back

 private:
  std::unique_ptr<landmark_queues> p_;
};
}  // namespace detail

class landmark_set {
 public:
  static constexpr int kMaxLandmarks = 32;
  static constexpr std::uint32_t kUnreached = 0xFFFFFFFFu;  // a point no path joins to the landmark
  static constexpr std::uint16_t kUnreached16 = 0xFFFFu;     // the same in a 16-bit table

  landmark_set() = default;  // no landmarks: lower_bound is 0

  // Builds `count` (1..kMaxLandmarks) landmarks for rule r on the map, all at once (see
  // landmark_builder for slices). Throws std::invalid_argument for a count out of range,
  // tile bounds under any-angle, or a map with no free cell. The same map, rule, count, placement, seed and width give the
  // same set on every platform.
  static landmark_set build(const rule& r, const grid_map& map, int count,
                            landmark_placement placement = landmark_placement::farthest, std::uint64_t seed = 1,
                            landmark_width width = landmark_width::bits32);

  // Tables for landmarks at the given points (cells, or vertices for any-angle; 1 to
  // kMaxLandmarks of them), in that order, instead of placing them: for hand-placed
  // landmarks, and for comparing a repaired set with a fresh one. Throws
  // std::invalid_argument for a point off the map, besides build's cases. A 16-bit set, or
  // tile bounds, takes `unit` (another set's unit_cost(), to compare tables entry by entry)
  // or, given 0, chooses its own from a probe at the first point.
  static landmark_set build(const rule& r, const grid_map& map, const std::vector<point>& points,
                            landmark_width width = landmark_width::bits32, cost_t unit = 0);

  int size() const { return count_; }
  bool empty() const { return count_ == 0; }
  const rule& rule_of() const { return rule_; }
  // The landmarks: cells for tile and octile, vertices for any-angle. A set still being
  // built (landmark_builder::partial) lists those whose tables are complete; the bound
  // reads no other (a 16-bit set's next column fills in place, its entries not yet final).
  const std::vector<point>& points() const { return points_; }
  int complete() const { return static_cast<int>(points_.size()); }
  // Built from this map object with no cell freed since (blocking keeps it admissible).
  bool current_for(const grid_map& map) const {
    return count_ > 0 && map.identity() == map_identity_ && map.cells_freed() == cells_freed_;
  }
  std::size_t memory_bytes() const {
    return table_.size() * sizeof(std::uint32_t) + narrow_.size() * sizeof(std::uint16_t) +
           (reference_.size() + reach_.size()) * sizeof(std::uint64_t);
  }
  // Cells the map has blocked since the set was built, less those freed again that the
  // tables' map had free (restored): how much looser than a fresh build the bound may be,
  // for deciding when to rebuild (see above); tile bounds add the cells their ranges were
  // lowered through. Meaningful for the map the set was built from.
  std::uint64_t cells_blocked_since(const grid_map& map) const {
    const std::uint64_t blocked = blocked_base_ + lowered_ + (map.cells_blocked() - cells_blocked_);
    return blocked > restored_ ? blocked - restored_ : 0;
  }
  // Whether, of the cells the map freed since its cells_freed() was `since`, one is blocked
  // on the tables' map: what a repair must work on (the others only restore cells the
  // tables already count as free, and cost a repair nothing). O(cells freed since); when
  // the map's journal no longer holds them all, the map against the tables' map, O(cells
  // / 64).
  bool frees_need_repair(const grid_map& map, std::uint64_t since) const;

  // Brings the tables up to date with the cells `map` freed since the set was current:
  // current_for(map) holds again when this returns current. `work` bounds the points
  // settled or seeded in this call (docs/benchmarks.md, "Landmark repair"); unfinished
  // means call again, with the same map, as landmark_builder::step is called. Each call reads the map as it is
  // then, and the cells freed between calls are caught up before it says current. Memory:
  // the queues of one landmark's Dijkstra (8 bytes an entry, about the points whose
  // distance falls), kept between calls. rebuild_needed: build a new set (the tables are
  // left not current, never wrong). Same map object only: a copy of the map (another
  // identity) asks for a rebuild.
  // Tile bounds: rebuild_needed for a pocket joined or too many cells (see above).
  landmark_repair repair(const grid_map& map, std::uint64_t work = ~std::uint64_t{0});

  // The lower bound on the rule's least cost from a to b (cells or vertices), fixed point;
  // 0 for points off the map or not joined to a landmark. Meaningful while current_for the
  // map (the searches check that; this does not).
  cost_t lower_bound(point a, point b) const;

  // Landmark l's distance to point p (has_point), in units of unit_cost(); kUnreached
  // where no path joins them, whatever the width. Tile bounds: the least of p's tile
  // (tile_range), a lower bound on it.
  std::uint32_t distance(point p, int l) const {
    if (width_ == landmark_width::tile_bounds) return in_reach(p) ? tile_range(p, l).lo : kUnreached;
    const std::size_t i = slot(p) * static_cast<std::size_t>(count_) + static_cast<std::size_t>(l);
    if (width_ == landmark_width::bits32) return table_[i];
    return narrow_[i] == kUnreached16 ? kUnreached : narrow_[i];
  }
  // Tile bounds: the least and the greatest distance from landmark l to the points of p's
  // tile that are in_reach (both kUnreached where none is).
  struct range {
    std::uint32_t lo, hi;
  };
  range tile_range(point p, int l) const {
    const std::size_t i = ((slot(p) >> 4) * static_cast<std::size_t>(count_) + static_cast<std::size_t>(l)) * 2;
    if (narrow_[i] == kUnreached16) return {kUnreached, kUnreached};
    return {narrow_[i], narrow_[i + 1]};
  }
  bool tile_bounds() const { return width_ == landmark_width::tile_bounds; }
  // Tile bounds: how far apart two ranges lie, max(a.lo - b.hi, b.lo - a.hi, 0): the bound
  // between a point of each.
  static std::uint32_t gap(range a, range b) {
    const std::uint32_t ab = a.lo > b.hi ? a.lo - b.hi : 0, ba = b.lo > a.hi ? b.lo - a.hi : 0;
    return ab > ba ? ab : ba;
  }
  // Tile bounds: whether every landmark reaches point p (has_point), on the tables' map.
  bool in_reach(point p) const {
    if (reach_.empty()) return false;  // no landmark complete yet
    const std::size_t w = (static_cast<std::size_t>(stride_) + 63) >> 6;
    return (reach_[static_cast<std::size_t>(p.y) * w + (static_cast<std::size_t>(p.x) >> 6)] >> (p.x & 63) & 1u) != 0;
  }
  landmark_width width() const { return width_; }
  cost_t unit_cost() const { return unit_cost_; }  // cost units of a stored unit

  // For the searches: the K distances of point p (has_point) in the table of the set's
  // width (wide() for bits32, narrow() for bits16; kUnreached or kUnreached16 where no
  // path joins). The table runs by tiles of 4 x 4 points, K values a point, so that the
  // points a Block A* expansion reads (a block's boundary) share few cache lines.
  const std::uint32_t* wide(point p) const { return table_.data() + slot(p) * static_cast<std::size_t>(count_); }
  const std::uint16_t* narrow(point p) const { return narrow_.data() + slot(p) * static_cast<std::size_t>(count_); }
  // Tile bounds: the K pairs (least, greatest) of p's tile, kUnreached16 least where the
  // landmark reaches none of its points.
  const std::uint16_t* ranges(point p) const {
    return narrow_.data() + (slot(p) >> 4) * static_cast<std::size_t>(count_) * 2;
  }
  // Point p's slot: its tile of 4 x 4 points (tiles_x() tiles a row), then its place in it.
  // A search that copies tiles_x() and the tables' start reads a point without the set.
  std::size_t slot(point p) const { return slot_in(p, tiles_x_); }
  static std::size_t slot_in(point p, int tiles_x) {
    const std::size_t tile = static_cast<std::size_t>(p.y >> 2) * static_cast<std::size_t>(tiles_x) + static_cast<std::size_t>(p.x >> 2);
    return tile << 4 | static_cast<std::size_t>((p.y & 3) << 2 | (p.x & 3));
  }
  int tiles_x() const { return tiles_x_; }
  int point_columns() const { return stride_; }  // has_point: 0 <= x < point_columns()
  int point_rows() const { return rows_; }       // and 0 <= y < point_rows()
  // Points a table has a column for: width x height cells, or (width+1) x (height+1) vertices.
  bool has_point(point p) const { return p.x >= 0 && p.y >= 0 && p.x < stride_ && p.y < rows_; }

 private:
  friend class landmark_builder;
  rule rule_{};
  int count_ = 0, stride_ = 0, rows_ = 0, tiles_x_ = 0;
  landmark_width width_ = landmark_width::bits32;
  cost_t unit_cost_ = 0;
  std::uint64_t map_identity_ = 0, cells_freed_ = 0, cells_blocked_ = 0;
  std::vector<point> points_;
  std::vector<std::uint32_t> table_;   // point-major: K distances per point (bits32)
  std::vector<std::uint16_t> narrow_;  // the same at 16 bits (bits16); tile-major K pairs (tile_bounds)
  std::vector<std::uint64_t> reach_;   // tile bounds: the points in_reach, a bit a point, row by row
  std::uint32_t unit_[2] = {0, 0};    // stored units of a straight and a diagonal move
  std::uint32_t cap_ = kUnreached - 1;  // the largest distance stored (past it, stored as it)
  std::vector<std::uint8_t> moves_;   // legal moves by the cells around a point (landmark_dial.hpp)
  // The cells blocked on the map the tables describe (the map built from, less the cells
  // repairs freed), a bit a cell, reference_words_ words a row; restored_ counts the cells
  // freed since the build that it had free.
  std::vector<std::uint64_t> reference_;
  int reference_words_ = 0;
  std::uint64_t restored_ = 0, blocked_base_ = 0;  // blocked_base_: blocked on the map, free on the reference, at the last count
  const std::uint64_t* reference_row(int y) const {
    return reference_.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(reference_words_);
  }
  std::uint64_t* reference_row(int y) {
    return reference_.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(reference_words_);
  }
  bool reference_blocked(int x, int y) const {  // off the map: blocked
    if (x < 0 || y < 0 || x >= reference_words_ * 64 ||
        static_cast<std::size_t>(y) * static_cast<std::size_t>(reference_words_) >= reference_.size())
      return true;
    return (reference_row(y)[x >> 6] >> (x & 63) & 1u) != 0;
  }
  void take_reference(const grid_map& map);
  std::size_t seed(int l, std::vector<std::uint64_t>& seeds) const;  // a repair's seeds for landmark l
  // A repair under way: the landmark it is at (-1: none), whether its seeds are queued, the
  // map's cells_freed() it catches up to, and its queues.
  int repair_at_ = -1;
  bool repair_seeded_ = false;
  std::uint64_t repair_to_ = 0;
  std::vector<point> repair_cells_;  // the pass's cells freed that the reference had blocked
  // Tile bounds (landmark_tiles.cpp): the pass's cells are checked, put in reach and freed
  // on the reference at its start, then each landmark's ranges are lowered through them;
  // lowered_ counts the cells so far, each a loosening (counted as a blocked cell).
  bool take_freed_into_tiles();
  std::uint64_t lower_tiles(int l);  // the work it took
  std::vector<std::uint8_t> repair_reached_;
  std::uint64_t lowered_ = 0;
  detail::landmark_queues_box repair_queues_;
};

// Builds a landmark_set a slice at a time. The constructor copies the map (so the game may
// go on changing its own); step() does at most about `work` units (points settled or
// scanned) and returns true once the set is complete; take() then hands it over. The
// result describes the map as it was when the builder was made: current_for(map) holds
// if no cell of the map has been freed since. A builder may run on a worker thread while
// searches use the old set on the game's thread; it shares nothing with them.
class landmark_builder {
 public:
  landmark_builder(const rule& r, const grid_map& map, int count,
                   landmark_placement placement = landmark_placement::farthest, std::uint64_t seed = 1,
                   landmark_width width = landmark_width::bits32);
  // Tables for the given points (landmark_set::build with points), a slice at a time.
  landmark_builder(const rule& r, const grid_map& map, const std::vector<point>& points,
                   landmark_width width = landmark_width::bits32, cost_t unit = 0);
  ~landmark_builder();
  landmark_builder(landmark_builder&&) noexcept;
  landmark_builder& operator=(landmark_builder&&) noexcept;
  bool step(std::uint64_t work);
  bool done() const;
  // Fraction of the work done, for progress reports (0 to 1).
  double progress() const;
  landmark_set take();  // the set once done(); throws std::logic_error before
  // The set as far as it is built: the tables of the first built() landmarks are complete,
  // the others hold kUnreached (which every bound skips), so a search may use it at once
  // (lddb/prepare.hpp does, for the map the builder was made from). Valid until take().
  const landmark_set& partial() const;
  // landmark_set::frees_need_repair for the set this builder will hand over, against the
  // map it copied: whether the repair after take() will have work.
  bool frees_need_repair(const grid_map& map, std::uint64_t since) const;
  int built() const;                // landmarks whose tables are complete
  const grid_map& source() const;   // the builder's copy of the map, as it was when the builder was made
  std::size_t memory_bytes() const;  // the tables and the work arrays of the Dijkstra

 private:
  struct state;
  std::unique_ptr<state> s_;
};

}  // namespace lddb
