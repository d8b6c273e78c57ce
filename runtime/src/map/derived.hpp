// Private: the structures a grid_map derives from its cells and keeps current.
//
// A map's cells are its bits and, once a cell has a type of its own, its terrain. Beside
// them the map keeps its own encodings of the same bits, written word by word with them by
// set_blocked and the rectangle write: the copies by rows and columns, the block codes
// and open-group counts, the double-corner count and the journal of freed cells. Those are
// read on every query and change with every cell, so they stay in grid.cpp and
// grid_rect.cpp.
//
// Everything else derived from the cells is a derived_structure: built on demand, in a
// room of its own, dropped by a copy of the map, and told of every change from one place,
// grid_map::cell_changed and grid_map::terrain_changed, which set_blocked, set_terrain and
// the rectangle write call. Today: the component labels (components.cpp), the unit views
// (unit_views.cpp) and jump point search's straight jumps (jump_tables.cpp). A new one
// implements this interface and joins grid_map::derived().
// (What lddb::prepare keeps reads the map's counters and journal instead, at prepare_step.)
#pragma once

#include <cstdint>

#include "lddb/grid.hpp"

namespace lddb::detail {

// A cell that turns blocked or free.
struct cell_change {
  int x, y;
  bool blocked;          // what it turns into
  std::uint32_t around;  // the 3 x 3 cells around it before, bit 3 * row + column set when blocked
  // A cell of a rectangle: its bits may not be written yet when cell_changed is called,
  // and batch_done follows once every cell of the rectangle is. A single cell's bits are
  // written before.
  bool in_batch;
};

// What the map reads before it calls (flags, not calls: a changed cell costs a few
// instructions more per structure, not a call).
class derived_structure {
 public:
  // Told of changes of passability at all (cell_changed, batch_done)?
  const bool reads_cells;
  // Does it read the cells' terrain types now, not only their passability? While one does,
  // set_blocked writes types, so that terrain_changed sees every change. Set by the
  // structure itself (while no query runs, as every change of the map).
  bool reads_terrain = false;

  // Does a change of passability reach it now (only asked of a structure that reads_cells)?
  // The rectangle write works out `around` for each changed cell only while one says yes.
  virtual bool follows_cells() const { return false; }
  virtual void cell_changed(grid_map&, const cell_change&) {}
  virtual void batch_done(grid_map&) {}
  // After cell (x, y)'s type and bits were written (only while reads_terrain).
  virtual void terrain_changed(grid_map&, int, int, terrain, terrain) {}

 protected:
  explicit derived_structure(bool cells) : reads_cells(cells) {}
  ~derived_structure() = default;  // owned by the map, through its own handle
};

}  // namespace lddb::detail

namespace lddb {

// The one place a change reaches the derived structures (grid.cpp, grid_rect.cpp), inline
// so that a changed cell pays a few loads and one call per structure told.
inline bool grid_map::follows_cells() const {
  for (const detail::derived_structure* d : derived())
    if (d != nullptr && d->reads_cells && d->follows_cells()) return true;
  return false;
}

inline bool grid_map::follows_terrain() const {
  for (const detail::derived_structure* d : derived())
    if (d != nullptr && d->reads_terrain) return true;
  return false;
}

inline void grid_map::cell_changed(const detail::cell_change& c) {
  for (detail::derived_structure* d : derived())
    if (d != nullptr && d->reads_cells) d->cell_changed(*this, c);
}

inline void grid_map::batch_done() {
  for (detail::derived_structure* d : derived())
    if (d != nullptr && d->reads_cells) d->batch_done(*this);
}

inline void grid_map::terrain_changed(int x, int y, terrain from, terrain to) {
  for (detail::derived_structure* d : derived())
    if (d != nullptr && d->reads_terrain) d->terrain_changed(*this, x, y, from, to);
}

}  // namespace lddb
