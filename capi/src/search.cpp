// capi/src/search.cpp: lddb.h's searches: one query, sliced Block A*, batches.
#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_set>

#include "handles.hpp"
#include "lddb/find_path.hpp"
#include "objects.hpp"

namespace lddb::capi {

static_assert(LDDB_MAX_UNIT_SIZE == unit::kMaxSize, "lddb.h's unit sizes are the library's");
static_assert(sizeof(lddb_point) == sizeof(point) && offsetof(lddb_point, y) == offsetof(point, y),
              "lddb_point and lddb::point share a layout, so paths are copied as bytes");

namespace {

// The warning hook (lddb_set_warning_handler) and the maps it has been told of.
struct warnings {
  std::mutex m;
  lddb_warning_fn fn = nullptr;
  void* user = nullptr;
  std::unordered_set<std::uint64_t> told;  // grid_map::identity() of each map warned about
};
warnings& the_warnings() {
  static warnings w;
  return w;
}

// Once a map: a search by find_path (or Block A*) on a map never prepared answers right but
// without what pays for the map, which a game should hear of rather than measure.
void warn_if_unprepared(const char* fn, const setup& s, const grid_map& map) {
  if (s.algorithm != LDDB_BLOCK_ASTAR || map.preparations() != nullptr) return;
  warnings& w = the_warnings();
  lddb_warning_fn call = nullptr;
  void* user = nullptr;
  {
    std::lock_guard lock(w.m);
    if (w.fn == nullptr || !w.told.insert(map.identity()).second) return;
    call = w.fn;
    user = w.user;
  }
  const std::string text = std::string(fn) + ": the " + std::to_string(map.width()) + " x " +
                           std::to_string(map.height()) +
                           " map was never prepared (lddb_prepare): its searches run Block A* alone, without the "
                           "jump point search or landmarks that may pay for it (said once a map)";
  call(text.c_str(), user);
}

// Points off the lattice are refused here, so no search sees coordinates near INT_MAX.
bool on_lattice(const rule& r, const grid_map& map, point p) {
  const int extra = r.on_vertices() ? 1 : 0;
  return p.x >= 0 && p.y >= 0 && p.x < map.width() + extra && p.y < map.height() + extra;
}

std::string point_text(point p) { return "(" + std::to_string(p.x) + ", " + std::to_string(p.y) + ")"; }

}  // namespace

void finish_search(const search_result& r, std::vector<point>& path, cost_t& cost) {
  path = r.path;
  const bool has_path = r.status == search_status::found || r.status == search_status::budget_exhausted;
  cost = has_path ? r.cost : kUnreachable;
}

void run_search(const setup& s, const database& db, const grid_map& map, point start, point goal,
                search_context& ctx, search_result& r, std::vector<point>& path, cost_t& cost) {
  const rule& rl = db.movement();
  const char* what = rl.on_vertices() ? "vertex" : "cell";
  if (!on_lattice(rl, map, start) || !on_lattice(rl, map, goal)) {
    r.clear();
    const bool bad_start = !on_lattice(rl, map, start);
    r.status = bad_start ? search_status::invalid_start : search_status::invalid_goal;
    r.message = std::string(bad_start ? "start " : "goal ") + what + " " + point_text(bad_start ? start : goal) +
                " is off the " + std::to_string(map.width()) + " x " + std::to_string(map.height()) + " map";
  } else {
    switch (s.algorithm) {
      case LDDB_BLOCK_ASTAR: find_path(db, map, start, goal, s.options, ctx, r); break;
      case LDDB_ASTAR: astar(rl, map, start, goal, s.options, ctx, r); break;
      case LDDB_THETA_STAR: theta_star(rl, map, start, goal, s.options, ctx, r); break;
      case LDDB_LAZY_THETA_STAR: lazy_theta_star(rl, map, start, goal, s.options, ctx, r); break;
    }
  }
  finish_search(r, path, cost);
}

lddb_status status_of(search_status s) {
  switch (s) {
    case search_status::found: return LDDB_OK;
    case search_status::no_path: return LDDB_NO_PATH;
    case search_status::invalid_start: return LDDB_INVALID_START;
    case search_status::invalid_goal: return LDDB_INVALID_GOAL;
    case search_status::rule_mismatch: return LDDB_RULE_MISMATCH;
    case search_status::budget_exhausted: return LDDB_BUDGET_EXHAUSTED;
    case search_status::in_progress: return LDDB_IN_PROGRESS;
    case search_status::invalid_option: return LDDB_INVALID_ARGUMENT;
  }
  return LDDB_INTERNAL_ERROR;
}

void fill_result(const search_result& r, const std::vector<point>& path, cost_t cost, lddb_result* out) {
  std::memset(out, 0, sizeof *out);
  out->status = status_of(r.status);
  out->searched = static_cast<int32_t>(r.searched);
  out->cost_fixed = cost;
  out->cost = cost == kUnreachable ? -1.0 : cost_to_double(cost);
  out->length = r.length;
  out->expansions = r.stats.expanded;
  out->path_count = path.size();
}

}  // namespace lddb::capi

using namespace lddb;
using namespace lddb::capi;

namespace {

// Why a search has no path; "" when it found one or is still running.
std::string outcome_text(const search_result& r) {
  if (r.status == search_status::found || r.status == search_status::in_progress) return {};
  return r.message.empty() ? std::string(search_status_name(r.status)) : r.message;
}

// A search's outcome as the call's status, its message for lddb_last_error.
lddb_status outcome(const char* fn, const search_result& r) {
  const lddb_status s = status_of(r.status);
  if (s == LDDB_OK) return s;
  return fail(s, fn, outcome_text(r));
}

// Copies the path unless the buffer is only a size query; the status of the copy.
lddb_status copy_path(const char* fn, const std::vector<point>& path, lddb_point* buf, size_t capacity) {
  if (!buf) return LDDB_OK;
  if (capacity < path.size())
    return fail(LDDB_BUFFER_TOO_SMALL, fn,
                "argument 'path' holds " + std::to_string(capacity) + " points; the path has " +
                    std::to_string(path.size()));
  if (!path.empty()) std::memcpy(buf, path.data(), path.size() * sizeof(lddb_point));
  return LDDB_OK;
}

struct handles_in {
  std::shared_ptr<context_object> ctx;
  std::shared_ptr<database> db;
  std::shared_ptr<grid_map> map;
};

lddb_status find_all(const char* fn, lddb_context ctx, lddb_database db, lddb_map map, handles_in* h) {
  if (const lddb_status s = find(ctx, kind::context, fn, "ctx", &h->ctx)) return s;
  if (const lddb_status s = find(db, kind::database, fn, "db", &h->db)) return s;
  return find(map, kind::map, fn, "map", &h->map);
}

// lddb_solve and lddb_find_path: `by_algorithm` reads options->algorithm, else find_path.
lddb_status solve(const char* fn, bool by_algorithm, lddb_context ctx, lddb_database db, lddb_map map,
                  lddb_point start, lddb_point goal, const lddb_options* options, lddb_result* result,
                  lddb_point* path, size_t capacity) {
  return guarded(fn, [&] {
    handles_in h;
    if (const lddb_status s = find_all(fn, ctx, db, map, &h)) return s;
    if (!result) return fail(LDDB_NULL_ARGUMENT, fn, "argument 'result' is NULL");
    if (!path && capacity != 0) return fail(LDDB_NULL_ARGUMENT, fn, "argument 'path' is NULL but 'capacity' is not 0");
    setup s;
    if (const lddb_status st = read_options(fn, options, h.db->movement(), &s)) return st;
    if (!by_algorithm) s.algorithm = LDDB_BLOCK_ASTAR;  // find_path
    warn_if_unprepared(fn, s, *h.map);
    context_object& c = *h.ctx;
    std::lock_guard lock(c.m);
    c.in_progress = false;  // a new query abandons a sliced one
    c.db.reset();
    c.map.reset();
    c.landmarks.reset();
    run_search(s, *h.db, *h.map, {start.x, start.y}, {goal.x, goal.y}, c.ctx, c.result, c.path, c.cost);
    fill_result(c.result, c.path, c.cost, result);
    if (const lddb_status st = copy_path(fn, c.path, path, capacity)) return st;
    return outcome(fn, c.result);
  });
}

}  // namespace

extern "C" {

LDDB_API lddb_status lddb_solve(lddb_context ctx, lddb_database db, lddb_map map, lddb_point start, lddb_point goal,
                                const lddb_options* options, lddb_result* result, lddb_point* path, size_t capacity) {
  return solve("lddb_solve", true, ctx, db, map, start, goal, options, result, path, capacity);
}

LDDB_API lddb_status lddb_find_path(lddb_context ctx, lddb_database db, lddb_map map, lddb_point start,
                                    lddb_point goal, const lddb_options* options, lddb_result* result,
                                    lddb_point* path, size_t capacity) {
  return solve("lddb_find_path", false, ctx, db, map, start, goal, options, result, path, capacity);
}

LDDB_API lddb_status lddb_context_reserve(lddb_context ctx, lddb_database db, lddb_map map, const lddb_options* options) {
  static const char* fn = "lddb_context_reserve";
  return guarded(fn, [&] {
    handles_in h;
    if (const lddb_status s = find_all(fn, ctx, db, map, &h)) return s;
    setup s;
    if (const lddb_status st = read_options(fn, options, h.db->movement(), &s)) return st;
    if (s.algorithm == LDDB_BLOCK_ASTAR && h.map->block() != h.db->shape().block())
      return fail(LDDB_RULE_MISMATCH, fn,
                  "the map is cut into " + std::to_string(h.map->block()) + "x" + std::to_string(h.map->block()) +
                      " blocks but the database holds " + std::to_string(h.db->shape().block()) + "x" +
                      std::to_string(h.db->shape().block()) + " blocks");
    context_object& c = *h.ctx;
    std::lock_guard lock(c.m);
    // A unit other than the default searches its view of the map: build the view now, as
    // its first query would, and size the context for it.
    const grid_map& searched = unit_view(h.db->movement(), *h.map, s.options.unit);
    if (s.algorithm == LDDB_BLOCK_ASTAR) c.ctx.reserve(*h.db, searched);
    else c.ctx.reserve(h.db->movement(), searched);
    return LDDB_OK;
  });
}

LDDB_API lddb_status lddb_context_path(lddb_context ctx, lddb_point* path, size_t capacity, size_t* count) {
  static const char* fn = "lddb_context_path";
  return guarded(fn, [&] {
    std::shared_ptr<context_object> c;
    if (const lddb_status s = find(ctx, kind::context, fn, "ctx", &c)) return s;
    if (!count) return fail(LDDB_NULL_ARGUMENT, fn, "argument 'count' is NULL");
    if (!path && capacity != 0) return fail(LDDB_NULL_ARGUMENT, fn, "argument 'path' is NULL but 'capacity' is not 0");
    std::lock_guard lock(c->m);
    *count = c->path.size();
    return copy_path(fn, c->path, path, capacity);
  });
}

LDDB_API lddb_status lddb_context_message(lddb_context ctx, char* buf, size_t size, size_t* needed) {
  static const char* fn = "lddb_context_message";
  return guarded(fn, [&] {
    std::shared_ptr<context_object> c;
    if (const lddb_status s = find(ctx, kind::context, fn, "ctx", &c)) return s;
    std::lock_guard lock(c->m);
    return copy_text(fn, "buf", "the message", outcome_text(c->result), buf, size, needed);
  });
}

LDDB_API lddb_status lddb_search_begin(lddb_context ctx, lddb_database db, lddb_map map, lddb_point start,
                                       lddb_point goal, const lddb_options* options, lddb_result* result) {
  static const char* fn = "lddb_search_begin";
  return guarded(fn, [&] {
    handles_in h;
    if (const lddb_status s = find_all(fn, ctx, db, map, &h)) return s;
    if (!result) return fail(LDDB_NULL_ARGUMENT, fn, "argument 'result' is NULL");
    setup s;
    if (const lddb_status st = read_options(fn, options, h.db->movement(), &s)) return st;
    if (s.algorithm != LDDB_BLOCK_ASTAR)
      return fail(LDDB_INVALID_ARGUMENT, fn, "options: only Block A* runs in slices (algorithm LDDB_BLOCK_ASTAR)");
    context_object& c = *h.ctx;
    std::lock_guard lock(c.m);
    c.in_progress = false;  // a new query abandons a sliced one, and what it kept alive
    c.landmarks.reset();
    c.path.clear();
    const point a{start.x, start.y}, b{goal.x, goal.y};
    if (!on_lattice(h.db->movement(), *h.map, a) || !on_lattice(h.db->movement(), *h.map, b)) {
      run_search(s, *h.db, *h.map, a, b, c.ctx, c.result, c.path, c.cost);  // fills the off-map outcome
    } else {
      c.result = block_astar_begin(*h.db, *h.map, a, b, s.options, c.ctx);
      if (c.result.status == search_status::in_progress) {
        c.in_progress = true;
        c.db = h.db;
        c.map = h.map;
        c.landmarks = s.landmarks;  // options.landmarks points into it until the query ends
        c.cost = kUnreachable;
      } else {
        finish_search(c.result, c.path, c.cost);
      }
    }
    fill_result(c.result, c.path, c.cost, result);
    return outcome(fn, c.result);
  });
}

LDDB_API lddb_status lddb_search_continue(lddb_context ctx, uint64_t max_expansions, lddb_result* result) {
  static const char* fn = "lddb_search_continue";
  return guarded(fn, [&] {
    std::shared_ptr<context_object> h;
    if (const lddb_status s = find(ctx, kind::context, fn, "ctx", &h)) return s;
    if (!result) return fail(LDDB_NULL_ARGUMENT, fn, "argument 'result' is NULL");
    context_object& c = *h;
    std::lock_guard lock(c.m);
    if (!c.in_progress)
      return fail(LDDB_INVALID_ARGUMENT, fn, "argument 'ctx' has no search in progress: call lddb_search_begin first");
    c.result = block_astar_continue(c.ctx, max_expansions);
    if (c.result.status != search_status::in_progress) {
      c.in_progress = false;
      finish_search(c.result, c.path, c.cost);
      c.db.reset();
      c.map.reset();
      c.landmarks.reset();
    }
    fill_result(c.result, c.path, c.cost, result);
    return outcome(fn, c.result);
  });
}

LDDB_API lddb_status lddb_set_warning_handler(lddb_warning_fn fn, void* user) {
  static const char* fn_name = "lddb_set_warning_handler";
  return guarded(fn_name, [&] {
    warnings& w = the_warnings();
    std::lock_guard lock(w.m);
    w.fn = fn;
    w.user = user;
    w.told.clear();  // a new handler hears of every map again
    return LDDB_OK;
  });
}

LDDB_API lddb_status lddb_batch_solve(lddb_batch batch, lddb_database db, lddb_map map, const lddb_query* queries,
                                      size_t count, const lddb_options* options, lddb_result* results,
                                      lddb_point* paths, size_t path_capacity, size_t* paths_needed) {
  static const char* fn = "lddb_batch_solve";
  return guarded(fn, [&] {
    std::shared_ptr<batch_object> b;
    std::shared_ptr<database> d;
    std::shared_ptr<grid_map> m;
    if (const lddb_status s = find(batch, kind::batch, fn, "batch", &b)) return s;
    if (const lddb_status s = find(db, kind::database, fn, "db", &d)) return s;
    if (const lddb_status s = find(map, kind::map, fn, "map", &m)) return s;
    if (count != 0 && !queries) return fail(LDDB_NULL_ARGUMENT, fn, "argument 'queries' is NULL");
    if (count != 0 && !results) return fail(LDDB_NULL_ARGUMENT, fn, "argument 'results' is NULL");
    if (!paths && path_capacity != 0)
      return fail(LDDB_NULL_ARGUMENT, fn, "argument 'paths' is NULL but 'path_capacity' is not 0");
    setup s;
    if (const lddb_status st = read_options(fn, options, d->movement(), &s)) return st;
    warn_if_unprepared(fn, s, *m);
    std::lock_guard lock(b->m);
    b->results.resize(count);
    b->paths.resize(count);
    b->costs.resize(count);
    b->solver.for_each(count, [&](std::size_t i, search_context& ctx) {
      run_search(s, *d, *m, {queries[i].start.x, queries[i].start.y}, {queries[i].goal.x, queries[i].goal.y}, ctx,
                 b->results[i], b->paths[i], b->costs[i]);
    });
    std::size_t total = 0;
    for (std::size_t i = 0; i < count; ++i) {
      fill_result(b->results[i], b->paths[i], b->costs[i], &results[i]);
      results[i].path_offset = total;
      total += b->paths[i].size();
    }
    if (paths_needed) *paths_needed = total;
    if (!paths) return LDDB_OK;
    if (path_capacity < total)
      return fail(LDDB_BUFFER_TOO_SMALL, fn,
                  "argument 'paths' holds " + std::to_string(path_capacity) + " points; the paths have " +
                      std::to_string(total));
    for (std::size_t i = 0; i < count; ++i)
      if (!b->paths[i].empty())
        std::memcpy(paths + results[i].path_offset, b->paths[i].data(), b->paths[i].size() * sizeof(lddb_point));
    return LDDB_OK;
  });
}

LDDB_API lddb_status lddb_batch_message(lddb_batch batch, size_t index, char* buf, size_t size, size_t* needed) {
  static const char* fn = "lddb_batch_message";
  return guarded(fn, [&] {
    std::shared_ptr<batch_object> b;
    if (const lddb_status s = find(batch, kind::batch, fn, "batch", &b)) return s;
    std::lock_guard lock(b->m);
    if (index >= b->results.size())
      return fail(LDDB_INVALID_ARGUMENT, fn,
                  "argument 'index' " + std::to_string(index) + " is past the last batch's " +
                      std::to_string(b->results.size()) + " results");
    return copy_text(fn, "buf", "the message", outcome_text(b->results[index]), buf, size, needed);
  });
}

}  // extern "C"
