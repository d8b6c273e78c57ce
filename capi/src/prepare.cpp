// capi/src/prepare.cpp: lddb.h's lddb_prepare, lddb_prepare_step, lddb_preparation_get and _plan.
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "handles.hpp"
#include "lddb/format.hpp"
#include "lddb/grid.hpp"
#include "lddb/lddb.h"
#include "lddb/prepare.hpp"

using namespace lddb;
using namespace lddb::capi;

namespace {

void fill(const preparation_report& r, lddb_preparation* out) {
  if (!out) return;
  out->landmarks = r.plan.landmarks;
  out->landmarks_built = r.landmarks_built;
  out->open_squares = r.plan.open_squares ? 1 : 0;
  out->state = static_cast<int32_t>(r.state);  // the enum's order is LDDB_PREPARATION_*'s
  out->prepare_ms = r.prepare_ms;
  out->total_ms = r.total_ms;
  out->bytes = r.bytes;
}

// The database and map a call names, or the status naming the one that is not.
lddb_status find_db_map(const char* fn, lddb_database db, lddb_map map, std::shared_ptr<database>* d,
                        std::shared_ptr<grid_map>* m) {
  if (const lddb_status s = find(db, kind::database, fn, "db", d)) return s;
  return find(map, kind::map, fn, "map", m);
}

// The report of the map's preparation for the database's rule; INVALID_ARGUMENT when the
// map has none for it (lddb_preparation_get and _plan).
lddb_status prepared_report(const char* fn, const database& d, const grid_map& m,
                            std::optional<preparation_report>* out) {
  *out = preparation_of(m, d.movement());
  if (!*out)
    return fail(LDDB_INVALID_ARGUMENT, fn, "the map is not prepared for rule " + d.movement().name() + " (call lddb_prepare)");
  return LDDB_OK;
}

}  // namespace

extern "C" {

LDDB_API lddb_status lddb_prepare(lddb_database db, lddb_map map, int32_t mode, lddb_preparation* report) {
  static const char* fn = "lddb_prepare";
  return guarded(fn, [&] {
    std::shared_ptr<database> d;
    std::shared_ptr<grid_map> m;
    if (const lddb_status s = find_db_map(fn, db, map, &d, &m)) return s;
    if (mode < LDDB_PREPARE_SLICES || mode > LDDB_PREPARE_WORKER_THREAD)
      return fail(LDDB_INVALID_ARGUMENT, fn,
                  "mode " + std::to_string(mode) + " is none of LDDB_PREPARE_SLICES (0), _COMPLETE (1), _WORKER_THREAD (2)");
    if (m->block() != d->shape().block())
      return fail(LDDB_RULE_MISMATCH, fn, "the map is cut into " + std::to_string(m->block()) + "x" +
                                              std::to_string(m->block()) + " blocks but the database holds " +
                                              std::to_string(d->shape().block()) + "x" + std::to_string(d->shape().block()));
    prepare_options o;
    o.mode = static_cast<prepare_mode>(mode);  // the enum's order is LDDB_PREPARE_*'s
    fill(prepare(*d, *m, o), report);
    return LDDB_OK;
  });
}

LDDB_API lddb_status lddb_prepare_step(lddb_map map, uint64_t work, int32_t* ready) {
  static const char* fn = "lddb_prepare_step";
  return guarded(fn, [&] {
    std::shared_ptr<grid_map> m;
    if (const lddb_status s = find(map, kind::map, fn, "map", &m)) return s;
    // Nothing to continue: say so rather than answer "ready" for a map searched unprepared.
    if (m->preparations() == nullptr)
      return fail(LDDB_INVALID_ARGUMENT, fn,
                  "the map was never prepared: call lddb_prepare first (lddb_prepare_step continues and repairs what "
                  "it made)");
    const bool done = prepare_step(*m, work == 0 ? kDefaultStepWork : work);
    if (ready) *ready = done ? 1 : 0;
    return LDDB_OK;
  });
}

LDDB_API lddb_status lddb_preparation_get(lddb_database db, lddb_map map, lddb_preparation* report) {
  static const char* fn = "lddb_preparation_get";
  return guarded(fn, [&] {
    std::shared_ptr<database> d;
    std::shared_ptr<grid_map> m;
    if (const lddb_status s = find_db_map(fn, db, map, &d, &m)) return s;
    if (!report) return fail(LDDB_NULL_ARGUMENT, fn, "argument 'report' is NULL");
    std::optional<preparation_report> r;
    if (const lddb_status s = prepared_report(fn, *d, *m, &r)) return s;
    fill(*r, report);
    return LDDB_OK;
  });
}

LDDB_API lddb_status lddb_preparation_plan(lddb_database db, lddb_map map, int32_t* jumps, char* why, size_t size,
                                           size_t* needed) {
  static const char* fn = "lddb_preparation_plan";
  return guarded(fn, [&] {
    std::shared_ptr<database> d;
    std::shared_ptr<grid_map> m;
    if (const lddb_status s = find_db_map(fn, db, map, &d, &m)) return s;
    std::optional<preparation_report> r;
    if (const lddb_status s = prepared_report(fn, *d, *m, &r)) return s;
    if (jumps) *jumps = r->plan.jumps ? 1 : 0;
    return copy_text(fn, "why", "the plan's reasons", r->plan.why, why, size, needed);
  });
}

}  // extern "C"
