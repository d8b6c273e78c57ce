// search_context::reserve for Block A*: every table a query on one map can grow, sized
// for the whole map and written once, so that the first query neither grows a vector nor
// faults in a fresh page (lddb/search.hpp states the cost).
#include <algorithm>
#include <cstddef>
#include <vector>

#include "search/reserve_written.hpp"
#include "search/block_astar/search.hpp"

namespace lddb::block_astar_impl {

namespace {

// The aligned groups of 2^level x 2^level blocks of the map that are open now: each can be
// one square node of a query, and none else can while no cell is freed.
std::size_t open_groups(const grid_map& map, int level) {
  std::size_t n = 0;
  const int k = 1 << level;
  for (int by = 0; by + k <= map.blocks_y(); by += k)
    for (int bx = 0; bx + k <= map.blocks_x(); bx += k) n += map.open_group_level(bx, by, level) >= level;
  return n;
}

}  // namespace

void reserve_blocks(block_search_state& st, const database& db, const grid_map& map, bool write) {
  build_squares(st, db);  // whatever search_options a later query chooses
  // A block belongs to one node of a query, so no query has more nodes than the map has
  // blocks: that many slots, OPEN entries and candidates.
  const std::size_t blocks = static_cast<std::size_t>(map.blocks_x()) * static_cast<std::size_t>(map.blocks_y());
  // A query in progress keys its table by its own map's width.
  const grid_map& keyed = st.query.active ? *st.query.map : map;
  st.pool.reserve(blocks, static_cast<std::uint32_t>(keyed.blocks_x()), write);
  st.open.reserve(blocks, write);
  reserve_written(st.candidate, blocks, write);
  reserve_written(st.touched, blocks, write);

  // Squares: one node per open aligned group at most, whatever search_options choose.
  std::size_t squares = 0;
  for (int level = 1; level <= st.square_levels; ++level) squares += open_groups(map, level);
  // A query takes squares from the front (emplace_back within this capacity).
  if (st.square_state.size() < squares) {
    if (write) st.square_state.resize(squares);  // value-initialised: written
    else st.square_state.reserve(squares);
  }
  st.square_room = squares;
  st.room_identity = map.identity();
  st.room_freed = map.cells_freed();
  st.room_block = map.block();

  if (st.large_levels <= st.square_levels) return;
  const large_shape& top = st.large[static_cast<std::size_t>(st.large_levels)];  // the most points
  std::size_t large = 0;
  for (int level = st.square_levels + 1; level <= st.large_levels; ++level) large += open_groups(map, level);
  while (st.large_state.size() < large) st.large_state.emplace_back();
  // A node reset for the largest shape has room for every smaller one; the nodes of a
  // query in progress keep their values and only gain room.
  for (std::size_t i = 0; i < st.large_state.size(); ++i) {
    large_nodes& l = st.large_state[i];
    if (i >= st.large_used) {
      l.reset(top);
      continue;
    }
    l.room_for(top);
  }
  const std::size_t points = static_cast<std::size_t>(top.count), side = static_cast<std::size_t>(top.last) + 1;
  carry_scratch& c = st.carry;
  for (auto* v : {&c.h}) reserve_written(*v, side, write);
  for (auto* v : {&c.arg, &c.pos, &c.col, &c.col2}) reserve_written(*v, side, write);
  for (auto* v : {&c.hd, &c.before, &c.after}) reserve_written(*v, side, write);
  reserve_written(st.carry_out, points, write);
  reserve_written(st.carry_from, points, write);
  reserve_written(st.large_hand, (points + 63) / 64, write);
  reserve_written(st.large_ring, static_cast<std::size_t>(4 * top.side + 5), write);
}

}  // namespace lddb::block_astar_impl

namespace lddb {

void reserve_state(block_search_state*& s, const database& db, const grid_map& map, bool write) {
  if (!s) s = new block_search_state();
  block_astar_impl::reserve_blocks(*s, db, map, write);
  if (db.movement().on_vertices()) s->pull.reserve(map);  // finish_path's
}

}  // namespace lddb
