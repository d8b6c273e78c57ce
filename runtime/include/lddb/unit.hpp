// lddb/unit.hpp: units of several sizes and kinds. A unit is a size (the side of the square
// it fills) and a movement class (the terrain types it may stand on); every search takes
// one in search_options::unit and searches the map as that unit sees it (unit_view), with
// the same databases.
//
// Sizes. Under tile and octile a unit of size k fills k x k cells, anchored at its top-left
// cell: the path lists the anchor's cells. Under any-angle it is a k x k square whose
// top-left corner moves between vertices; size 0 is the point of the any-angle rules (and,
// under tile and octile, the same as size 1). The view of size k is the map whose cell
// (x, y) is blocked when any cell of the `footprint` (unit_footprint) x `footprint` square
// from (x, y) is: k for tile and octile, k + 1 for any-angle. Why a one-cell unit on that
// view moves exactly as the unit does, corner rules included, is in
// runtime/src/map/unit_views.cpp. Under any-angle the square, like the point, may touch
// obstacles but not pass through a gap exactly its width (docs/rules.md, "Units of several
// sizes and kinds"): a unit that must pass corridors k cells wide is of size k - 1 there.
//
// Kinds. A cell holds a terrain type (one byte): the Moving AI letters by their character
// ('.' and 'G' ground, 'S' swamp, 'W' water, 'T' trees, '@' and 'O' out of bounds), and any
// other value a game gives its own meaning. A movement class is a set of types; a cell is
// open to a unit when its type is in the unit's class. The default class, ground ('.', 'G',
// 'S'), is the map's passability: grid_map::blocked(x, y) is true exactly when the cell's
// type is not in it, so a unit of the default size and class searches the map itself.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "lddb/rule.hpp"

namespace lddb {

class grid_map;  // lddb/grid.hpp

using terrain = std::uint8_t;

// The types of the Moving AI map files' letters, and what set_blocked writes.
inline constexpr terrain kFreeTerrain = '.';
inline constexpr terrain kBlockedTerrain = '@';

class movement_class {
 public:
  constexpr movement_class() = default;  // the empty set: no cell is open
  // Each character of `types` is a type: movement_class::of("W") for boats.
  static constexpr movement_class of(std::string_view types) {
    movement_class c;
    for (char t : types) c.add(static_cast<terrain>(t));
    return c;
  }
  // '.', 'G' and 'S': the map's passability, what lddb::load_map reads as free.
  static constexpr movement_class ground() { return of(".GS"); }
  constexpr movement_class& add(terrain t) {
    bits_[t >> 6] |= std::uint64_t{1} << (t & 63);
    return *this;
  }
  constexpr bool contains(terrain t) const { return (bits_[t >> 6] >> (t & 63)) & 1u; }
  constexpr bool empty() const { return (bits_[0] | bits_[1] | bits_[2] | bits_[3]) == 0; }
  // The types in order, printable ones as themselves and others as \xNN: ".GS".
  std::string name() const;
  friend constexpr bool operator==(const movement_class&, const movement_class&) = default;

 private:
  std::array<std::uint64_t, 4> bits_{};
};

struct unit {
  static constexpr int kMaxSize = 8;
  int size = 0;  // 0..kMaxSize; 0 and 1 are the same under tile and octile
  movement_class movement = movement_class::ground();
  friend constexpr bool operator==(const unit&, const unit&) = default;
};

// The side of the square of cells that must be free for the unit to stand at a cell or
// vertex: tile and octile max(size, 1), any-angle size + 1. Sizes outside 0..kMaxSize
// give 0 (searches answer invalid_option).
constexpr int unit_footprint(const rule& r, const unit& u) {
  if (u.size < 0 || u.size > unit::kMaxSize) return 0;
  if (r.on_vertices()) return u.size + 1;
  return u.size < 1 ? 1 : u.size;
}

// The map as the unit sees it: `map` itself for a footprint of 1 and the ground class
// (the unit every search assumed before sizes and classes), else grid_map::view. Throws
// std::invalid_argument for a size outside 0..kMaxSize. A unit's first query builds its
// view (O(cells); docs/benchmarks.md, "Units of several sizes") and the view's component
// labels; a game that wants no such hitch calls
// search_context::reserve(db, unit_view(rule, map, unit)) for each unit it will move, after
// loading (the view is then built, labelled and reserved for).
const grid_map& unit_view(const rule& r, const grid_map& map, const unit& u);

}  // namespace lddb
