// gppc/entry.cpp: lddb as an entry of the Grid-based Path Planning Competition's dynamic
// track, implementing the start kit's Entry.h (built against the start kit's own header,
// never a copy of it: gppc/CMakeLists.txt) on lddb's public API, as a game would use it:
//
//   gppc_search_init  the whole map into a grid_map, prepare (what pays for the map) whole
//                     (prepare_mode::complete: the track does not time its preprocessing,
//                     as a game does not time its level's load), reserve a search_context
//                     for the whole map;
//   gppc_map_change   each patch written as a rectangle of cells, then prepare_step;
//   gppc_get_path     find_path with default options, the path handed back as its
//                     turning points (the track accepts straight and 45-degree runs).
//
// The track's rule is octile with diagonal sqrt 2 and no corner cutting: the shipped
// octile-4.lddb. LDDB_GPPC_PREPARE=none in the environment runs the same entry with
// nothing prepared (the searches alone, for comparison), LDDB_GPPC_PREPARE=no-landmarks
// with the preparation but no landmarks, LDDB_GPPC_PREPARE=tile-bounds with landmark
// bounds per tile (prepare_options::tile_bounds); LDDB_GPPC_DATABASE names another
// database file. Bad input the harness can send (a patch off the map or empty, a start or
// goal on a blocked cell) is reported on stderr, once a kind, and answered as the track
// asks: the patch's cells on the map are taken, a blocked end gets no path.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "Entry.h"
#include "lddb/data_dir.hpp"
#include "lddb/format.hpp"
#include "lddb/grid.hpp"
#include "lddb/prepare.hpp"
#include "lddb/search.hpp"
#include "lddb/find_path.hpp"

namespace {

// The track takes a path as cells joined by straight or 45-degree runs: the turning points
// are enough, and cheaper to hand back than every cell.
lddb::search_options turning_points() {
  lddb::search_options o;
  o.smooth = true;
  return o;
}

struct entry {
  std::shared_ptr<const lddb::database> db;
  lddb::grid_map map;
  lddb::search_context ctx;
  lddb::search_options options = turning_points();
  lddb::search_result result;
  std::vector<gppc_point> path;
  bool prepared = true;
  bool said_off_map = false, said_empty = false, said_blocked = false;
  explicit entry(int width, int height) : map(width, height, 4) {}
};

void say(bool& said, const std::string& message) {
  if (said) return;  // a harness may send the same mistake thousands of times
  said = true;
  std::fprintf(stderr, "lddb-gppc: %s\n", message.c_str());
}

// The cells of `patch` on the map, bit set = free, as the track packs them.
void apply_patch(entry& e, const gppc_patch& patch, std::uint32_t index) {
  const int x0 = patch.pos.x, y0 = patch.pos.y, w = patch.width, h = patch.height;
  if (w == 0 || h == 0 || patch.bitarray == nullptr) {
    say(e.said_empty, "patch " + std::to_string(index) + " is empty (" + std::to_string(w) + "x" + std::to_string(h) +
                          "): nothing changes");
    return;
  }
  const int x1 = std::min(x0 + w, e.map.width()), y1 = std::min(y0 + h, e.map.height());
  if (x0 + w > e.map.width() || y0 + h > e.map.height())
    say(e.said_off_map, "patch " + std::to_string(index) + " (" + std::to_string(w) + "x" + std::to_string(h) + " at " +
                            std::to_string(x0) + "," + std::to_string(y0) + ") runs off the " +
                            std::to_string(e.map.width()) + "x" + std::to_string(e.map.height()) +
                            " map: only its cells on the map are taken");
  if (x1 == x0 + w && y1 == y0 + h) {  // the whole patch, a word at a time
    const std::size_t bytes = (static_cast<std::size_t>(w) * static_cast<std::size_t>(h) + 7) / 8;
    e.map.set_blocked_rect(x0, y0, w, h, {patch.bitarray, bytes}, lddb::bit_meaning::free);
    return;
  }
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x) {
      const int i = (y - y0) * w + (x - x0);
      e.map.set_blocked(x, y, ((patch.bitarray[i >> 3] >> (i & 7)) & 1) == 0);
    }
}

}  // namespace

extern "C" {

void gppc_preprocess_init_map(gppc_patch, const char*) {}  // everything is prepared at init

void* gppc_search_init(gppc_patch active_map, const char*) {
  try {
    auto e = std::make_unique<entry>(active_map.width, active_map.height);
    const char* file = std::getenv("LDDB_GPPC_DATABASE");
    auto opened = lddb::database::open(file != nullptr ? std::string(file) : lddb::find_database("octile-4.lddb"));
    if (!opened) {
      std::fprintf(stderr, "lddb-gppc: %s\n", opened.message.c_str());
      return nullptr;
    }
    e->db = std::move(opened.db);
    apply_patch(*e, active_map, 0);
    const char* mode = std::getenv("LDDB_GPPC_PREPARE");
    e->prepared = mode == nullptr || std::strcmp(mode, "none") != 0;
    lddb::prepare_options o;
    if (mode != nullptr && std::strcmp(mode, "no-landmarks") == 0) o.landmarks = 0;
    if (mode != nullptr && std::strcmp(mode, "tile-bounds") == 0) o.tile_bounds = true;
    o.mode = lddb::prepare_mode::complete;  // what slices would leave to the timed changes
    if (e->prepared) lddb::prepare(*e->db, e->map, o);
    e->ctx.reserve(*e->db, e->map);
    return e.release();
  } catch (const std::exception& error) {
    std::fprintf(stderr, "lddb-gppc: %s\n", error.what());
    return nullptr;
  }
}

void gppc_map_change(void* data, const gppc_patch* changes, std::uint32_t changes_length) {
  if (data == nullptr) return;
  entry& e = *static_cast<entry*>(data);
  for (std::uint32_t i = 0; i < changes_length; ++i) apply_patch(e, changes[i], i);
  if (e.prepared) lddb::prepare_step(e.map);
}

gppc_path gppc_get_path(void* data, gppc_point start, gppc_point goal) {
  if (data == nullptr) return gppc_path{nullptr, 0, 0};
  entry& e = *static_cast<entry*>(data);
  lddb::find_path(*e.db, e.map, {start.x, start.y}, {goal.x, goal.y}, e.options, e.ctx, e.result);
  if (!e.result.found()) {
    if (e.result.status != lddb::search_status::no_path)
      say(e.said_blocked, std::string("query (") + std::to_string(start.x) + "," + std::to_string(start.y) + ") to (" +
                              std::to_string(goal.x) + "," + std::to_string(goal.y) + "): " +
                              lddb::search_status_name(e.result.status) + ": " + e.result.message);
    return gppc_path{nullptr, 0, 0};
  }
  e.path.clear();
  for (const lddb::point& p : e.result.path)
    e.path.push_back(gppc_point{static_cast<std::uint16_t>(p.x), static_cast<std::uint16_t>(p.y)});
  return gppc_path{e.path.data(), static_cast<std::uint32_t>(e.path.size()), 0};
}

void gppc_free_data(void* data) { delete static_cast<entry*>(data); }

const char* gppc_get_name() { return "lddb"; }

}  // extern "C"
