// One pattern's entry: least costs between all boundary pairs and one path per pair.
// The search itself is block_graph (lddb/block_graph.hpp), shared with Block A*'s start and
// goal initialisation; this file picks the path and cost to store per pair, and the format
// encodes them (lddb/path_table.hpp, lddb/stored_cost.hpp).
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "lddb/generator.hpp"

#include "lddb/block_graph.hpp"
#include "lddb/cost.hpp"
#include "lddb/path_table.hpp"
#include "lddb/segments.hpp"
#include "lddb/stored_cost.hpp"
#include "lddb/block_shape.hpp"

namespace lddb {

namespace {

constexpr int kMaxPoints = block_graph::kMaxPoints;

// Cells: inflection points are the cells where the heading changes; the cost is stored
// from the move counts (lddb/stored_cost.hpp).
void store_cell_path(const rule& r, const block_shape& shape, const int* chain, int len, int pair,
                     pattern_entry& e, path_table_encoder& paths) {
  int turns[kMaxPoints];
  int count = 0, straight = 0, diagonal = 0;
  for (int k = 1; k < len; ++k) {
    const point a = shape.point_at(chain[k - 1]), b = shape.point_at(chain[k]);
    (a.x != b.x && a.y != b.y ? diagonal : straight)++;
    if (k + 1 < len) {
      const point c = shape.point_at(chain[k + 1]);
      if (b.x - a.x != c.x - b.x || b.y - a.y != c.y - b.y) turns[count++] = chain[k];
    }
  }
  e.costs[static_cast<std::size_t>(pair)] = encode_cell_cost(r, straight, diagonal);
  paths.add(pair, turns, count);
}

// Vertices: drop a vertex that lies on the segment joining its neighbours (rounding can
// make such a split look a hair cheaper), then cost the path that is stored, so the stored
// cost is exactly that path's length.
void store_vertex_path(const rule& r, const block_shape& shape, std::uint32_t code, const int* chain, int len,
                       int pair, pattern_entry& e, path_table_encoder& paths) {
  const pattern_grid grid{code, shape.block()};
  int kept[kMaxPoints];
  int nk = 0;
  for (int k = 0; k < len; ++k) {
    if (nk >= 2) {
      const point a = shape.point_at(kept[nk - 2]), m = shape.point_at(kept[nk - 1]), c = shape.point_at(chain[k]);
      const long cross = static_cast<long>(m.x - a.x) * (c.y - a.y) - static_cast<long>(m.y - a.y) * (c.x - a.x);
      const long dot = static_cast<long>(m.x - a.x) * (c.x - m.x) + static_cast<long>(m.y - a.y) * (c.y - m.y);
      // Only when the merged segment is itself legal: under the default rule a path
      // may stop at a double corner and go on in the same direction, but a single
      // segment may not pass through it.
      if (cross == 0 && dot > 0 && segment_legal(r, grid, a.x, a.y, c.x, c.y)) --nk;
    }
    kept[nk++] = chain[k];
  }
  cost_t total = 0;
  for (int k = 1; k < nk; ++k) {
    const point a = shape.point_at(kept[k - 1]), b = shape.point_at(kept[k]);
    total += euclid_cost(a.x - b.x, a.y - b.y);
  }
  e.costs[static_cast<std::size_t>(pair)] = encode_length_cost(r, total);
  paths.add(pair, kept + 1, nk - 2);
}

}  // namespace

pattern_entry solve_pattern(const rule& r, const block_shape& shape, std::uint32_t code) {
  pattern_entry e;
  e.costs.assign(static_cast<std::size_t>(shape.pair_count()), kStoredUnreachable);
  path_table_encoder paths(shape.pair_count());
  const block_graph graph(r, shape, code);
  block_graph::paths from;
  int chain[kMaxPoints];
  const int n = shape.boundary_count();
  for (int i = 0; i < n; ++i) {
    graph.search(shape.point_index(shape.boundary_point(i)), from);
    for (int j = i + 1; j < n; ++j) {
      const int len = from.path_to(shape.point_index(shape.boundary_point(j)), chain);
      if (len == 0) continue;
      const int pair = shape.pair_index(i, j);
      if (r.on_vertices())
        store_vertex_path(r, shape, code, chain, len, pair, e, paths);
      else
        store_cell_path(r, shape, chain, len, pair, e, paths);
    }
  }
  e.paths = paths.take();
  return e;
}

}  // namespace lddb
