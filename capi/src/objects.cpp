// capi/src/objects.cpp: lddb.h's databases, maps, landmarks, contexts and batch solvers.
#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>

#include "handles.hpp"
#include "lddb/data_dir.hpp"
#include "lddb/map_file.hpp"
#include "objects.hpp"

using namespace lddb;
using namespace lddb::capi;

namespace {

std::string cell_text(int x, int y) { return "(" + std::to_string(x) + ", " + std::to_string(y) + ")"; }

lddb_status find_map(lddb_map h, const char* fn, std::shared_ptr<grid_map>* out) {
  return find(h, kind::map, fn, "map", out);
}

// A call on one cell: the map found, its output `out` (named out_name; none when NULL)
// given, the cell on the map; then body(map).
template <class Body>
lddb_status on_cell(const char* fn, lddb_map map, int32_t x, int32_t y, const void* out, const char* out_name,
                    Body&& body) {
  return guarded(fn, [&] {
    std::shared_ptr<grid_map> m;
    if (const lddb_status s = find_map(map, fn, &m)) return s;
    if (out_name && !out) return fail(LDDB_NULL_ARGUMENT, fn, std::string("argument '") + out_name + "' is NULL");
    if (!m->in_bounds(x, y)) return fail(LDDB_INVALID_ARGUMENT, fn, "cell " + cell_text(x, y) + " is off the map");
    body(*m);
    return LDDB_OK;
  });
}

// A call on a rectangle of cells: the map found, the rectangle holding a cell and wholly
// on the map; then body(map).
template <class Body>
lddb_status on_rect(const char* fn, lddb_map map, int32_t x, int32_t y, int32_t width, int32_t height, Body&& body) {
  return guarded(fn, [&] {
    std::shared_ptr<grid_map> m;
    if (const lddb_status s = find_map(map, fn, &m)) return s;
    if (width < 1) return fail(LDDB_INVALID_ARGUMENT, fn, "argument 'width' is " + std::to_string(width) + ", not 1 or more");
    if (height < 1)
      return fail(LDDB_INVALID_ARGUMENT, fn, "argument 'height' is " + std::to_string(height) + ", not 1 or more");
    if (x < 0 || y < 0 || std::int64_t{x} + width > m->width() || std::int64_t{y} + height > m->height())
      return fail(LDDB_INVALID_ARGUMENT, fn,
                  "the rectangle of " + std::to_string(width) + " x " + std::to_string(height) + " cells at " +
                      cell_text(x, y) + " is not wholly on the " + std::to_string(m->width()) + " x " +
                      std::to_string(m->height()) + " map");
    return body(*m);
  });
}

// Does the caller's struct reach past lddb_options.movement? An older one is shorter than
// ours, and writing the field would write past its end.
lddb_status has_movement(const char* fn, const lddb_options* o) {
  if (!o) return fail(LDDB_NULL_ARGUMENT, fn, "argument 'options' is NULL");
  if (o->version < 8 || o->struct_size < offsetof(lddb_options, movement) + sizeof o->movement)
    return fail(LDDB_INVALID_ARGUMENT, fn,
                "options: version " + std::to_string(o->version) + " / struct_size " + std::to_string(o->struct_size) +
                    " has no movement class (version 8): call lddb_options_init first");
  return LDDB_OK;
}

void add_type(lddb_options* o, std::uint8_t t) { o->movement[t >> 3] |= static_cast<std::uint8_t>(1u << (t & 7)); }

}  // namespace

extern "C" {

LDDB_API const char* lddb_status_name(lddb_status s) {
  switch (s) {
    case LDDB_OK: return "ok";
    case LDDB_NULL_ARGUMENT: return "null_argument";
    case LDDB_BAD_HANDLE: return "bad_handle";
    case LDDB_WRONG_HANDLE_KIND: return "wrong_handle_kind";
    case LDDB_BUFFER_TOO_SMALL: return "buffer_too_small";
    case LDDB_IO_ERROR: return "io_error";
    case LDDB_CORRUPT_DATABASE: return "corrupt_database";
    case LDDB_RULE_MISMATCH: return "rule_mismatch";
    case LDDB_INVALID_START: return "invalid_start";
    case LDDB_INVALID_GOAL: return "invalid_goal";
    case LDDB_NO_PATH: return "no_path";
    case LDDB_BUDGET_EXHAUSTED: return "budget_exhausted";
    case LDDB_IN_PROGRESS: return "in_progress";
    case LDDB_INVALID_ARGUMENT: return "invalid_argument";
    case LDDB_OUT_OF_MEMORY: return "out_of_memory";
    case LDDB_INTERNAL_ERROR: return "internal_error";
    case LDDB_INVALID_MAP: return "invalid_map";
    case LDDB_REBUILD_NEEDED: return "rebuild_needed";
  }
  return "unknown";
}

// ----------------------------------------------------------------------------- databases

LDDB_API lddb_status lddb_database_open(const char* path, lddb_database* out) {
  static const char* fn = "lddb_database_open";
  return guarded(fn, [&] {
    if (!path) return fail(LDDB_NULL_ARGUMENT, fn, "argument 'path' is NULL");
    if (!out) return fail(LDDB_NULL_ARGUMENT, fn, "argument 'out' is NULL");
    database::open_result r = database::open(path);
    if (!r) {
      const lddb_status s = r.code == status::io_error    ? LDDB_IO_ERROR
                            : r.code == status::too_large ? LDDB_OUT_OF_MEMORY
                                                          : LDDB_CORRUPT_DATABASE;
      return fail(s, fn, r.message);
    }
    *out = add_handle(kind::database, std::const_pointer_cast<database>(r.db));
    return LDDB_OK;
  });
}

LDDB_API lddb_status lddb_database_close(lddb_database db) {
  return guarded("lddb_database_close", [&] { return remove_handle(db, kind::database, "lddb_database_close", "db"); });
}

LDDB_API lddb_status lddb_database_rule_name(lddb_database db, char* buf, size_t size, size_t* needed) {
  static const char* fn = "lddb_database_rule_name";
  return guarded(fn, [&] {
    std::shared_ptr<database> d;
    if (const lddb_status s = find(db, kind::database, fn, "db", &d)) return s;
    return copy_text(fn, "buf", "the rule name", d->movement().name(), buf, size, needed);
  });
}

LDDB_API lddb_status lddb_database_block_size(lddb_database db, int32_t* out) {
  static const char* fn = "lddb_database_block_size";
  return guarded(fn, [&] {
    std::shared_ptr<database> d;
    if (const lddb_status s = find(db, kind::database, fn, "db", &d)) return s;
    if (!out) return fail(LDDB_NULL_ARGUMENT, fn, "argument 'out' is NULL");
    *out = d->shape().block();
    return LDDB_OK;
  });
}

LDDB_API lddb_status lddb_find_database(const char* file_name, const char* dir, char* buf, size_t size,
                                        size_t* needed) {
  static const char* fn = "lddb_find_database";
  return guarded(fn, [&] {
    if (!file_name) return fail(LDDB_NULL_ARGUMENT, fn, "argument 'file_name' is NULL");
    if (!buf && size != 0) return fail(LDDB_NULL_ARGUMENT, fn, "argument 'buf' is NULL but 'size' is not 0");
    const std::string path = find_database(file_name, dir ? dir : "");
    if (needed) *needed = path.size() + 1;
    if (!buf) return LDDB_OK;
    if (size < path.size() + 1)
      return fail(LDDB_BUFFER_TOO_SMALL, fn,
                  "argument 'buf' holds " + std::to_string(size) + " bytes; the path " + path + " needs " +
                      std::to_string(path.size() + 1));
    std::memcpy(buf, path.c_str(), path.size() + 1);
    return LDDB_OK;
  });
}

// ----------------------------------------------------------------------------- maps

LDDB_API lddb_status lddb_map_create(int32_t width, int32_t height, int32_t block, lddb_map* out) {
  static const char* fn = "lddb_map_create";
  return guarded(fn, [&] {
    if (!out) return fail(LDDB_NULL_ARGUMENT, fn, "argument 'out' is NULL");
    const std::string range = " is outside 1.." + std::to_string(grid_map::kMaxSide);
    if (width < 1 || width > grid_map::kMaxSide) return fail(LDDB_INVALID_ARGUMENT, fn, "width " + std::to_string(width) + range);
    if (height < 1 || height > grid_map::kMaxSide)
      return fail(LDDB_INVALID_ARGUMENT, fn, "height " + std::to_string(height) + range);
    if (block < 2 || block > 5) return fail(LDDB_INVALID_ARGUMENT, fn, "block " + std::to_string(block) + " is outside 2..5");
    *out = add_handle(kind::map, std::make_shared<grid_map>(width, height, block));
    return LDDB_OK;
  });
}

LDDB_API lddb_status lddb_map_load(const char* path, int32_t block, lddb_map* out) {
  static const char* fn = "lddb_map_load";
  return guarded(fn, [&] {
    if (!path) return fail(LDDB_NULL_ARGUMENT, fn, "argument 'path' is NULL");
    if (!out) return fail(LDDB_NULL_ARGUMENT, fn, "argument 'out' is NULL");
    if (block < 2 || block > 5) return fail(LDDB_INVALID_ARGUMENT, fn, "block " + std::to_string(block) + " is outside 2..5");
    std::FILE* probe = std::fopen(path, "rb");  // tell an unreadable file from a bad one
    if (!probe) return fail(LDDB_IO_ERROR, fn, std::string(path) + ": cannot open: " + std::strerror(errno));
    std::fclose(probe);
    std::string error;
    std::optional<grid_map> m = load_map(path, &error, block);
    if (!m) return fail(LDDB_INVALID_MAP, fn, error);
    *out = add_handle(kind::map, std::make_shared<grid_map>(std::move(*m)));
    return LDDB_OK;
  });
}

LDDB_API lddb_status lddb_map_free(lddb_map map) {
  return guarded("lddb_map_free", [&] { return remove_handle(map, kind::map, "lddb_map_free", "map"); });
}

LDDB_API lddb_status lddb_map_size(lddb_map map, int32_t* width, int32_t* height) {
  static const char* fn = "lddb_map_size";
  return guarded(fn, [&] {
    std::shared_ptr<grid_map> m;
    if (const lddb_status s = find_map(map, fn, &m)) return s;
    if (!width) return fail(LDDB_NULL_ARGUMENT, fn, "argument 'width' is NULL");
    if (!height) return fail(LDDB_NULL_ARGUMENT, fn, "argument 'height' is NULL");
    *width = m->width();
    *height = m->height();
    return LDDB_OK;
  });
}

LDDB_API lddb_status lddb_map_set_blocked(lddb_map map, int32_t x, int32_t y, int32_t blocked) {
  return on_cell("lddb_map_set_blocked", map, x, y, nullptr, nullptr,
                 [&](grid_map& m) { m.set_blocked(x, y, blocked != 0); });
}

LDDB_API lddb_status lddb_map_blocked(lddb_map map, int32_t x, int32_t y, int32_t* blocked) {
  return on_cell("lddb_map_blocked", map, x, y, blocked, "blocked",
                 [&](grid_map& m) { *blocked = m.blocked(x, y) ? 1 : 0; });
}

LDDB_API lddb_status lddb_map_set_terrain(lddb_map map, int32_t x, int32_t y, uint8_t type) {
  return on_cell("lddb_map_set_terrain", map, x, y, nullptr, nullptr, [&](grid_map& m) { m.set_terrain(x, y, type); });
}

LDDB_API lddb_status lddb_map_terrain(lddb_map map, int32_t x, int32_t y, uint8_t* type) {
  return on_cell("lddb_map_terrain", map, x, y, type, "type", [&](grid_map& m) { *type = m.terrain_at(x, y); });
}

LDDB_API lddb_status lddb_map_set_rect(lddb_map map, int32_t x, int32_t y, int32_t width, int32_t height,
                                       const uint8_t* bits, size_t bits_size, int32_t bits_mean_free) {
  static const char* fn = "lddb_map_set_rect";
  return on_rect(fn, map, x, y, width, height, [&](grid_map& m) {
    if (!bits) return fail(LDDB_NULL_ARGUMENT, fn, "argument 'bits' is NULL");
    const std::size_t need = (static_cast<std::size_t>(width) * static_cast<std::size_t>(height) + 7) / 8;
    if (bits_size < need)
      return fail(LDDB_INVALID_ARGUMENT, fn,
                  "argument 'bits_size' is " + std::to_string(bits_size) + " bytes; " + std::to_string(width) + " x " +
                      std::to_string(height) + " cells need " + std::to_string(need));
    m.set_blocked_rect(x, y, width, height, {bits, need}, bits_mean_free ? bit_meaning::free : bit_meaning::blocked);
    return LDDB_OK;
  });
}

LDDB_API lddb_status lddb_map_fill_rect(lddb_map map, int32_t x, int32_t y, int32_t width, int32_t height,
                                        int32_t blocked) {
  return on_rect("lddb_map_fill_rect", map, x, y, width, height, [&](grid_map& m) {
    m.fill_blocked_rect(x, y, width, height, blocked != 0);
    return LDDB_OK;
  });
}

// ----------------------------------------------------------------------------- landmarks

LDDB_API lddb_status lddb_landmarks_build(lddb_database db, lddb_map map, int32_t count, int32_t placement,
                                          lddb_landmarks* out) {
  static const char* fn = "lddb_landmarks_build";
  return guarded(fn, [&] {
    std::shared_ptr<database> d;
    std::shared_ptr<grid_map> m;
    if (const lddb_status s = find(db, kind::database, fn, "db", &d)) return s;
    if (const lddb_status s = find_map(map, fn, &m)) return s;
    if (!out) return fail(LDDB_NULL_ARGUMENT, fn, "argument 'out' is NULL");
    if (count < 1 || count > landmark_set::kMaxLandmarks)
      return fail(LDDB_INVALID_ARGUMENT, fn, "count " + std::to_string(count) + " is outside 1.." +
                                                 std::to_string(landmark_set::kMaxLandmarks));
    if (placement != 0 && placement != 1)
      return fail(LDDB_INVALID_ARGUMENT, fn,
                  "placement " + std::to_string(placement) + " is neither 0 (farthest) nor 1 (random)");
    if (m->blocked_count() == static_cast<std::uint64_t>(m->width()) * static_cast<std::uint64_t>(m->height()))
      return fail(LDDB_INVALID_MAP, fn, "every cell of the map is blocked: landmarks need a free cell");
    auto set = std::make_shared<landmark_set>(landmark_set::build(
        d->movement(), *m, count, placement == 0 ? landmark_placement::farthest : landmark_placement::random));
    *out = add_handle(kind::landmarks, std::move(set));
    return LDDB_OK;
  });
}

LDDB_API lddb_status lddb_landmarks_free(lddb_landmarks landmarks) {
  return guarded("lddb_landmarks_free",
                 [&] { return remove_handle(landmarks, kind::landmarks, "lddb_landmarks_free", "landmarks"); });
}

LDDB_API lddb_status lddb_landmarks_current(lddb_landmarks landmarks, lddb_map map, int32_t* current) {
  static const char* fn = "lddb_landmarks_current";
  return guarded(fn, [&] {
    std::shared_ptr<landmark_set> l;
    std::shared_ptr<grid_map> m;
    if (const lddb_status s = find(landmarks, kind::landmarks, fn, "landmarks", &l)) return s;
    if (const lddb_status s = find_map(map, fn, &m)) return s;
    if (!current) return fail(LDDB_NULL_ARGUMENT, fn, "argument 'current' is NULL");
    *current = l->current_for(*m) ? 1 : 0;
    return LDDB_OK;
  });
}

LDDB_API lddb_status lddb_landmarks_repair(lddb_landmarks landmarks, lddb_map map) {
  static const char* fn = "lddb_landmarks_repair";
  return guarded(fn, [&] {
    std::shared_ptr<landmark_set> l;
    std::shared_ptr<grid_map> m;
    if (const lddb_status s = find(landmarks, kind::landmarks, fn, "landmarks", &l)) return s;
    if (const lddb_status s = find_map(map, fn, &m)) return s;
    if (l->repair(*m) == landmark_repair::current) return LDDB_OK;
    return fail(LDDB_REBUILD_NEEDED, fn, "the set was built on another map: build a new set");
  });
}

// ----------------------------------------------------------------------------- contexts, batches

LDDB_API lddb_status lddb_context_create(lddb_context* out) {
  static const char* fn = "lddb_context_create";
  return guarded(fn, [&] {
    if (!out) return fail(LDDB_NULL_ARGUMENT, fn, "argument 'out' is NULL");
    *out = add_handle(kind::context, std::make_shared<context_object>());
    return LDDB_OK;
  });
}

LDDB_API lddb_status lddb_context_free(lddb_context ctx) {
  return guarded("lddb_context_free", [&] { return remove_handle(ctx, kind::context, "lddb_context_free", "ctx"); });
}

LDDB_API lddb_status lddb_batch_create(uint32_t threads, lddb_batch* out) {
  static const char* fn = "lddb_batch_create";
  return guarded(fn, [&] {
    if (!out) return fail(LDDB_NULL_ARGUMENT, fn, "argument 'out' is NULL");
    if (threads > 1024) return fail(LDDB_INVALID_ARGUMENT, fn, "threads " + std::to_string(threads) + " is over 1024");
    *out = add_handle(kind::batch, std::make_shared<batch_object>(threads));
    return LDDB_OK;
  });
}

LDDB_API lddb_status lddb_batch_free(lddb_batch batch) {
  return guarded("lddb_batch_free", [&] { return remove_handle(batch, kind::batch, "lddb_batch_free", "batch"); });
}

namespace {
// A struct of version 7: every field up to `jumps`, padded to 8 bytes (what programs built
// against that header allocate).
constexpr std::uint32_t kVersion7Size = 64;
static_assert(offsetof(lddb_options, unit_size) + sizeof(std::int32_t) == kVersion7Size);

lddb_status init_options(const char* fn, lddb_options* options, std::uint32_t size) {
  if (!options) return fail(LDDB_NULL_ARGUMENT, fn, "argument 'options' is NULL");
  if (size < kVersion7Size)
    return fail(LDDB_INVALID_ARGUMENT, fn, "size " + std::to_string(size) + " is below the " +
                                               std::to_string(kVersion7Size) + " bytes of the oldest struct it fills (version 7)");
  lddb_options o{};
  o.struct_size = size < sizeof o ? size : static_cast<std::uint32_t>(sizeof o);
  o.version = size < sizeof o ? 7 : LDDB_OPTIONS_VERSION;
  o.algorithm = LDDB_BLOCK_ASTAR;
  o.heuristic = LDDB_HEURISTIC_DEFAULT;
  o.smooth = LDDB_SMOOTH_DEFAULT;
  o.open_squares = 1;
  o.weight = 1.0;
  o.use_prepared = 1;
  o.jumps = LDDB_JUMPS_DEFAULT;
  for (const char t : std::string_view(".GS")) add_type(&o, static_cast<std::uint8_t>(t));
  std::memcpy(options, &o, o.struct_size);  // not one byte past the caller's struct
  return LDDB_OK;
}
}  // namespace

LDDB_API lddb_status lddb_options_init_size(lddb_options* options, uint32_t size) {
  static const char* fn = "lddb_options_init_size";
  return guarded(fn, [&] { return init_options(fn, options, size); });
}

// Parenthesised: lddb.h makes the name a macro for callers built against it.
LDDB_API lddb_status(lddb_options_init)(lddb_options* options) {
  static const char* fn = "lddb_options_init";
  return guarded(fn, [&] { return init_options(fn, options, kVersion7Size); });
}

LDDB_API lddb_status lddb_movement_add(lddb_options* options, uint8_t type) {
  static const char* fn = "lddb_movement_add";
  return guarded(fn, [&] {
    if (const lddb_status s = has_movement(fn, options)) return s;
    add_type(options, type);
    return LDDB_OK;
  });
}

LDDB_API lddb_status lddb_movement_set_letters(lddb_options* options, const char* letters) {
  static const char* fn = "lddb_movement_set_letters";
  return guarded(fn, [&] {
    if (const lddb_status s = has_movement(fn, options)) return s;
    if (!letters) return fail(LDDB_NULL_ARGUMENT, fn, "argument 'letters' is NULL");
    std::memset(options->movement, 0, sizeof options->movement);
    for (const char* c = letters; *c; ++c) add_type(options, static_cast<std::uint8_t>(*c));
    return LDDB_OK;
  });
}

LDDB_API lddb_status lddb_movement_clear(lddb_options* options) {
  static const char* fn = "lddb_movement_clear";
  return guarded(fn, [&] {
    if (const lddb_status s = has_movement(fn, options)) return s;
    std::memset(options->movement, 0, sizeof options->movement);
    return LDDB_OK;
  });
}

}  // extern "C"
