// lddb/point.hpp: a cell or vertex of the lattice.
//
// x is the column (east), y the row (south), (0,0) is top-left; vertex (x, y) is the
// top-left corner of cell (x, y).
#pragma once



namespace lddb {

struct point {
  int x = 0, y = 0;
  friend bool operator==(const point&, const point&) = default;
};

}  // namespace lddb
