// lddb::prepare and what keeps it current. See lddb/prepare.hpp.
#include "lddb/prepare.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>

#include "lddb/format.hpp"
#include "map/component_labels.hpp"
#include "prepare/lower_bounds.hpp"
#include "lddb/splitmix.hpp"
#include "prepare/prepared.hpp"
#include "map/jump_tables.hpp"

namespace lddb {
namespace {

// landmark_gain: the queries it samples.
constexpr int kGainPairs = 256;
// The share of them whose bound must beat the rule's own heuristic for the landmarks to be
// kept, per rule (docs/decisions.md): tile's Manhattan is loose (random512-25-1: 8% bound
// higher, yet 0.52 of the time), octile's tighter (AR0203SR: 8%, and slower with them).
constexpr double kMinGainTile = 0.05;
constexpr double kMinGainOctile = 0.10;
constexpr double kMinGainVertices = 0.35;
// Of the last kChangeWindow prepare_step calls, this many with changed cells: the map
// changes, and its landmarks are set aside.
constexpr int kChangingSteps = 2;
// Changed cells, as a share of the map's, that call for a new plan.
constexpr double kReplanShare = 0.125;

}  // namespace
}  // namespace lddb

namespace lddb {

namespace {

using clock_type = std::chrono::steady_clock;

double ms_since(clock_type::time_point t0) {
  return std::chrono::duration<double, std::milli>(clock_type::now() - t0).count();
}

// Enough steps of `b` to finish its first `landmarks` tables (or all of them).
void build_first(landmark_builder& b, int landmarks) {
  while (b.built() < landmarks && !b.step(kDefaultStepWork)) {
  }
}

}  // namespace

double landmark_gain(const rule& r, const grid_map& map, const landmark_set& set) {
  const std::uint64_t cells = static_cast<std::uint64_t>(map.width()) * static_cast<std::uint64_t>(map.height());
  if (set.empty() || map.blocked_count() >= cells) return 0;
  const heuristic_kind h = default_heuristic(r);
  std::uint64_t seed = 0x5eed;
  int pairs = 0, better = 0;
  for (int tries = 0; tries < 100 * kGainPairs && pairs < kGainPairs; ++tries) {
    const int ax = static_cast<int>(splitmix64(seed) % static_cast<std::uint64_t>(map.width()));
    const int ay = static_cast<int>(splitmix64(seed) % static_cast<std::uint64_t>(map.height()));
    const int bx = static_cast<int>(splitmix64(seed) % static_cast<std::uint64_t>(map.width()));
    const int by = static_cast<int>(splitmix64(seed) % static_cast<std::uint64_t>(map.height()));
    // Free cells; for any-angle their top-left corners, which every rule lets a path use.
    if (map.blocked(ax, ay) || map.blocked(bx, by)) continue;
    const cost_t base = heuristic_cost(h, r, ax, ay, bx, by);
    if (base < 8 * kCostOne) continue;  // near pairs: every bound is close
    ++pairs;
    const cost_t bound = set.lower_bound({ax, ay}, {bx, by});
    if (bound > base + base / 20) ++better;
  }
  return pairs == 0 ? 0 : static_cast<double>(better) / static_cast<double>(pairs);
}

namespace {

// The measured rule's second half: landmarks stay only where the first ones already bound
// enough queries above the rule's own heuristic (landmark_gain).
bool landmarks_pay(const rule& r, const grid_map& map, const landmark_set& first, std::string* why) {
  const double gain = landmark_gain(r, map, first);
  const double bar = r.on_vertices() ? kMinGainVertices : r.kind == rule_kind::tile ? kMinGainTile : kMinGainOctile;
  const bool pays = gain >= bar;
  if (why) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "; the first landmarks bound %.0f%% of sampled queries above the rule's heuristic%s",
                  100.0 * gain, pays ? "" : ": too few, dropped");
    *why += buf;
  }
  return pays;
}

}  // namespace

const char* preparation_state_name(preparation_state s) {
  switch (s) {
    case preparation_state::ready:
      return "ready";
    case preparation_state::building:
      return "building";
    case preparation_state::stale:
      return "stale";
    case preparation_state::set_aside:
      return "set aside";
  }
  return "?";
}

preparation_plan plan_preparation(const rule& r, const grid_map& map) {
  preparation_plan plan;
  const std::uint64_t cells = static_cast<std::uint64_t>(map.width()) * static_cast<std::uint64_t>(map.height());
  const std::uint64_t free_cells = cells - map.blocked_count();
  plan.landmarks = free_cells >= kMinLandmarkCells ? kCellLandmarks : 0;
  size_landmarks(plan, r, map, true);
  const int per_cell = plan.landmarks;
  if (r.kind == rule_kind::octile && plan.landmarks > 0 && plan.landmarks < kCellLandmarks)
    lay_out_landmarks(plan, r, map, true, std::nullopt);
  plan.open_squares = r.on_vertices() || cells > std::uint64_t{1024} * 1024;
  char buf[200];
  std::snprintf(buf, sizeof buf, "%llu free cells of %llu", static_cast<unsigned long long>(free_cells),
                static_cast<unsigned long long>(cells));
  if (jump_point_search_supports(r)) {
    const double corners = corner_share(map);
    // With jump tables a scan is a read wherever it stops, so the cell rules jump on any
    // map that has them; any-angle keeps Block A* among many corners, where its paths are
    // shorter than cells pulled tight (docs/benchmarks.md, "Jump point search").
    const bool tabled = !r.on_vertices() && cells <= detail::jump_tables::kMaxCells;
    plan.jumps = corners < kMaxJumpCorners || tabled;
    const double double_corners =
        free_cells == 0 ? 0.0 : static_cast<double>(map.double_corner_count()) / static_cast<double>(free_cells);
    const bool squeezes = r.squeeze == squeezing::allowed && double_corners > kMaxJumpDoubleCorners;
    if (squeezes) plan.jumps = false;
    const std::size_t n = std::strlen(buf);
    std::snprintf(buf + n, sizeof buf - n, ", %.3f corners a free cell%s%s", corners,
                  tabled && corners >= kMaxJumpCorners ? ", jump tables" : "",
                  squeezes ? ", too many double corners to squeeze through by jumps" : "");
  }
  plan.why = buf;
  if (plan.narrow_landmarks && plan.landmarks > 0) {
    std::snprintf(buf, sizeof buf, "; %d landmarks of 16 bits (the tables within %llu MiB)", plan.landmarks,
                  static_cast<unsigned long long>(kLandmarkBytes >> 20));
    plan.why += buf;
  }
  if (plan.tile_bounds) {
    std::snprintf(buf, sizeof buf, "; %d landmarks as bounds per tile (%d a cell would fit %llu MiB)", plan.landmarks,
                  per_cell, static_cast<unsigned long long>(kLandmarkBytes >> 20));
    plan.why += buf;
  }
  return plan;
}

std::uint64_t landmark_table_bytes(const rule& r, const grid_map& map, int count, landmark_width width) {
  const std::uint64_t v = r.on_vertices() ? 1 : 0;
  const std::uint64_t w = (static_cast<std::uint64_t>(map.width()) + v + 3) / 4 * 4;
  const std::uint64_t h = (static_cast<std::uint64_t>(map.height()) + v + 3) / 4 * 4;
  if (width == landmark_width::tile_bounds) return w / 4 * h / 4 * static_cast<std::uint64_t>(count) * 4;
  return w * h * static_cast<std::uint64_t>(count) * (width == landmark_width::bits32 ? 4 : 2);
}

void size_landmarks(preparation_plan& plan, const rule& r, const grid_map& map, bool fewer) {
  const auto fits = [&](int count, landmark_width width) {
    return landmark_table_bytes(r, map, count, width) <= kLandmarkBytes;
  };
  plan.narrow_landmarks = plan.landmarks > 0 && !fits(plan.landmarks, landmark_width::bits32);
  if (fewer)
    while (plan.narrow_landmarks && plan.landmarks > 1 && !fits(plan.landmarks, landmark_width::bits16)) plan.landmarks /= 2;
}

void lay_out_landmarks(preparation_plan& plan, const rule& r, const grid_map& map, bool tiles, std::optional<int> count) {
  plan.tile_bounds = tiles && !r.on_vertices();
  if (plan.tile_bounds) {
    plan.narrow_landmarks = false;
    plan.landmarks = count.value_or(kTileLandmarks);
    while (!count && plan.landmarks > 1 &&
           landmark_table_bytes(r, map, plan.landmarks, landmark_width::tile_bounds) > kLandmarkBytes)
      plan.landmarks /= 2;
    return;
  }
  plan.landmarks = count.value_or(kCellLandmarks);
  size_landmarks(plan, r, map, !count);  // a count asked for keeps its count, at the width that fits
}

namespace {

detail::prepared_rule& entry_for(grid_map& map, const rule& r) {
  detail::preparations& ps = map.preparations_to_change();
  for (auto& p : ps.of)
    if (p->movement == r) {
      p = std::make_unique<detail::prepared_rule>();  // replaces it (and stops its worker)
      p->movement = r;
      return *p;
    }
  ps.of.push_back(std::make_unique<detail::prepared_rule>());
  ps.of.back()->movement = r;
  return *ps.of.back();
}

// A builder of the landmarks the preparation plans, on the map as it is now.
std::unique_ptr<landmark_builder> new_builder(const detail::prepared_rule& p, const grid_map& map) {
  const landmark_width width = p.plan.tile_bounds        ? landmark_width::tile_bounds
                               : p.plan.narrow_landmarks ? landmark_width::bits16
                                                         : landmark_width::bits32;
  return std::make_unique<landmark_builder>(p.movement, map, p.plan.landmarks, p.options.placement, 1, width);
}

void start_worker(detail::prepared_rule& p, const grid_map& map, bool assess) {
  // The builder copies the map here, on the owner's thread; the worker touches only that
  // copy, for the build and for the assessment.
  p.worker = std::thread([&p, b = new_builder(p, map), assess]() mutable {
    const auto t0 = clock_type::now();
    const int first = std::min(kFirstLandmarks, p.plan.landmarks);
    while (!p.cancel.load(std::memory_order_relaxed) && b->built() < first && !b->step(kDefaultStepWork)) {
    }
    if (assess && !p.cancel.load(std::memory_order_relaxed) &&
        !landmarks_pay(p.movement, b->source(), b->partial(), nullptr)) {
      p.worker_us.store(static_cast<std::int64_t>(ms_since(t0) * 1000.0), std::memory_order_relaxed);
      p.dropped.store(true, std::memory_order_relaxed);
      p.published.store(true, std::memory_order_release);
      return;
    }
    while (!p.cancel.load(std::memory_order_relaxed))
      if (b->step(kDefaultStepWork)) {
        p.worker_set = std::make_shared<landmark_set>(b->take());
        p.worker_us.store(static_cast<std::int64_t>(ms_since(t0) * 1000.0), std::memory_order_relaxed);
        p.published.store(true, std::memory_order_release);
        return;
      }
  });
}

preparation_report report_of(const detail::prepared_rule& p, const grid_map& map) {
  preparation_report out;
  out.movement = p.movement;
  out.plan = p.plan;
  out.prepare_ms = p.prepare_ms;
  out.total_ms = p.prepare_ms + p.step_ms + static_cast<double>(p.worker_us.load(std::memory_order_relaxed)) / 1000.0;
  const bool published = p.published.load(std::memory_order_acquire);
  out.bytes = (p.set ? p.set->memory_bytes() : 0) + (p.builder ? p.builder->memory_bytes() : 0) +
              (published && p.worker_set ? p.worker_set->memory_bytes() : 0);
  if (const detail::jump_tables* t = detail::jump_table_access::of(map); t != nullptr && p.plan.jumps)
    out.bytes += t->memory_bytes();
  if (p.set_aside) {
    out.state = preparation_state::set_aside;
    return out;
  }
  if (p.plan.landmarks == 0) {
    out.state = preparation_state::ready;
    return out;
  }
  const landmark_set* complete = p.set ? p.set.get() : published ? p.worker_set.get() : nullptr;
  if (complete != nullptr && complete->current_for(map) && !p.builder) {
    out.state = preparation_state::ready;
    out.landmarks_built = complete->size();
  } else if (p.builder || p.worker.joinable() || complete == nullptr) {
    out.state = preparation_state::building;
    out.landmarks_built = p.builder ? p.builder->built() : 0;
    if (complete != nullptr && complete->current_for(map)) out.landmarks_built = complete->size();
  } else {
    out.state = preparation_state::stale;
    out.landmarks_built = complete->size();
  }
  return out;
}

std::uint64_t changes_of(const grid_map& map) { return map.cells_freed() + map.cells_blocked(); }

// The measured plan for the map as it is now, with what the preparation's options ask
// instead.
preparation_plan planned(const detail::prepared_rule& p, const grid_map& map) {
  preparation_plan plan = plan_preparation(p.movement, map);
  // A count asked for is per cell unless tile bounds are asked for too.
  const bool tiles = p.options.tile_bounds.value_or(plan.tile_bounds && !p.options.landmarks);
  if (p.options.landmarks || (tiles != plan.tile_bounds && plan.landmarks > 0)) {
    const bool changed = tiles != plan.tile_bounds;
    lay_out_landmarks(plan, p.movement, map, tiles, p.options.landmarks);
    if (changed && plan.landmarks > 0) {
      char buf[96];
      std::snprintf(buf, sizeof buf, "; %d landmarks %s, as asked", plan.landmarks, tiles ? "as bounds per tile" : "a cell");
      plan.why += buf;
    }
  }
  if (p.options.open_squares) plan.open_squares = *p.options.open_squares;
  if (p.options.jumps) plan.jumps = *p.options.jumps && jump_point_search_supports(p.movement);
  return plan;
}

// The plan again, on the map as it is now: the choices that need no upkeep (jumps, open
// squares) at once; the landmarks, when the plan has them, by a new build in slices.
void replan(detail::prepared_rule& p, const grid_map& map) {
  const preparation_plan before = p.plan;
  p.plan = planned(p, map);
  if (before.landmarks == 0 && !p.set_aside) p.plan.landmarks = 0;  // they did not pay here: still not
  p.changes_at_plan = changes_of(map);
}

void set_landmarks_aside(detail::prepared_rule& p) {
  p.stop_worker();
  // Handing the tables' pages back costs the kernel about 0.05 ms a MiB (0.6 ms for the 12
  // MiB of 512 x 512, ten times that at 2048 x 2048), within the frame that called
  // prepare_step: a thread of its own frees them instead.
  auto doomed = [set = std::move(p.set), builder = std::move(p.builder), w = std::move(p.worker_set)]() mutable {
    set.reset();
    builder.reset();
    w.reset();
  };
  if (p.reaper.joinable()) p.reaper.join();  // long done: the last set aside
  try {
    p.reaper = std::thread(std::move(doomed));
  } catch (const std::system_error&) {
    doomed();  // no thread to be had: free them here
  }
  p.published.store(false, std::memory_order_relaxed);
  p.set_aside = true;
  p.plan.why += "; the map changes often: landmarks set aside";
}

// How often the map changes, read at each prepare_step (prepare.hpp, "Maps that change"):
// sets the plan's landmarks aside, brings them back, plans again. O(1) but for a new plan.
void follow_changes(detail::prepared_rule& p, const grid_map& map) {
  const std::uint64_t now = changes_of(map);
  const bool changed = now != p.changes_at_step;
  // What the landmarks pay for: a cell freed that their tables' map has blocked (a repair).
  // Blocked cells, and freed cells their map has free, cost them nothing (lddb/landmarks.hpp).
  // Without tables to ask (none yet, or a worker thread's build on its own copy), any
  // change counts.
  const bool freed = map.cells_freed() != p.freed_at_step;
  const bool costly = p.set       ? freed && p.set->frees_need_repair(map, p.freed_at_step)
                      : p.builder ? freed && p.builder->frees_need_repair(map, p.freed_at_step)
                                  : changed;
  p.changes_at_step = now;
  p.freed_at_step = map.cells_freed();
  p.changed_steps = p.changed_steps << 1 | (costly ? 1u : 0u);
  p.quiet_steps = changed ? 0 : p.quiet_steps + 1;
  if (!p.options.adapt_to_change || p.options.landmarks) return;
  const double cells = static_cast<double>(map.width()) * static_cast<double>(map.height());
  if (p.set_aside) {
    if (p.quiet_steps < kQuietSteps) return;
    p.set_aside = false;
    replan(p, map);  // the map may be another by now
    if (p.plan.landmarks > 0) p.builder = new_builder(p, map);
    return;
  }
  if (static_cast<double>(now - p.changes_at_plan) >= kReplanShare * cells) {
    const int landmarks = p.plan.landmarks;
    replan(p, map);
    p.plan.landmarks = landmarks;  // kept current below as before, or set aside
  }
  const std::uint64_t window = kChangeWindow >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << kChangeWindow) - 1;
  // A change during the build sets them aside at once: the tables would be repaired or
  // rebuilt before they ever served a search.
  const bool building = p.builder != nullptr || p.worker.joinable();
  if (p.plan.landmarks > 0 && ((costly && building) || std::popcount(p.changed_steps & window) >= kChangingSteps))
    set_landmarks_aside(p);
}

// The pending work of one preparation, within `work` points; true when none is left.
bool step_one(detail::prepared_rule& p, grid_map& map, std::uint64_t& work) {
  follow_changes(p, map);
  if (p.set_aside || p.plan.landmarks == 0) return true;
  if (p.worker.joinable() && p.published.load(std::memory_order_acquire)) {
    p.worker.join();
    if (p.dropped.load(std::memory_order_relaxed)) {  // the assessment said they do not pay
      p.plan.landmarks = 0;
      p.plan.why += "; the first landmarks bound too few sampled queries above the rule's heuristic: dropped";
      p.published.store(false, std::memory_order_relaxed);
      return true;
    }
    p.set = std::move(p.worker_set);
    p.worker_set = nullptr;
    p.published.store(false, std::memory_order_relaxed);
  }
  if (p.worker.joinable()) return false;  // still building on its thread
  if (p.builder) {
    const bool done = p.builder->step(work);
    work = 0;  // a builder's step spends what it is given
    if (!done) return false;
    p.set = std::make_shared<landmark_set>(p.builder->take());
    p.builder.reset();
  }
  if (!p.set || p.set->empty()) return true;
  if (!p.set->current_for(map)) {
    if (work == 0) return false;
    const landmark_repair r = p.set->repair(map, work);
    work = 0;
    if (r == landmark_repair::rebuild_needed) {
      p.builder = new_builder(p, map);
      return false;
    }
    if (r == landmark_repair::unfinished) return false;
  }
  if (p.options.rebuild_after_blocked != 0 && p.set->cells_blocked_since(map) >= p.options.rebuild_after_blocked) {
    // Not while the map still changes: blocks lifted again cost the old tables nothing, and
    // would cost new ones, built with them blocked, a repair each.
    if (p.quiet_steps < kSettledSteps) return false;
    p.builder = new_builder(p, map);
    return false;
  }
  return true;
}

preparation_report prepare_rule(const rule& r, grid_map& map, const prepare_options& options) {
  if (options.landmarks && (*options.landmarks < 0 || *options.landmarks > landmark_set::kMaxLandmarks))
    throw std::invalid_argument("prepare_options::landmarks " + std::to_string(*options.landmarks) +
                                " is out of range: 0 to " + std::to_string(landmark_set::kMaxLandmarks));
  if (options.tile_bounds.value_or(false) && r.on_vertices())
    throw std::invalid_argument("prepare_options::tile_bounds: landmark bounds per tile are for tile and octile, not " +
                                r.name());
  const auto t0 = clock_type::now();
  detail::prepared_rule& p = entry_for(map, r);
  p.options = options;
  p.plan = planned(p, map);
  p.changes_at_step = p.changes_at_plan = changes_of(map);
  p.freed_at_step = map.cells_freed();
  detail::build_components(r, map);  // the first query would build them (4-40 ms at 2048 x 2048)
  if (p.plan.jumps) detail::jump_table_access::make(map);  // jump point search reads them, kept current by the map
  if (map.blocked_count() == static_cast<std::uint64_t>(map.width()) * static_cast<std::uint64_t>(map.height()))
    p.plan.landmarks = 0;  // nothing to measure distances on
  const bool assess = !options.landmarks;  // the plan's landmarks stay only where they pay
  if (p.plan.landmarks > 0 && options.mode == prepare_mode::worker_thread) {
    start_worker(p, map, assess);
  } else if (p.plan.landmarks > 0) {
    auto b = new_builder(p, map);
    build_first(*b, std::min(kFirstLandmarks, p.plan.landmarks));
    if (assess && !landmarks_pay(r, map, b->partial(), &p.plan.why)) {
      p.plan.landmarks = 0;
    } else {
      if (options.mode == prepare_mode::complete)
        while (!b->step(std::uint64_t{1} << 40)) {
        }
      if (b->done()) p.set = std::make_shared<landmark_set>(b->take());
      else p.builder = std::move(b);
    }
  }
  p.prepare_ms = ms_since(t0);
  return report_of(p, map);
}

}  // namespace

std::string preparation_report::text() const {
  char buf[320];
  std::snprintf(buf, sizeof buf, "%s: %d of %d landmarks, open squares %s%s; %.1f ms (%.1f ms in all), %.1f MiB; %s (%s)",
                movement.name().c_str(), landmarks_built, plan.landmarks, plan.open_squares ? "on" : "off",
                plan.jumps ? ", jump point search" : "", prepare_ms,
                total_ms, static_cast<double>(bytes) / (1024.0 * 1024.0), preparation_state_name(state), plan.why.c_str());
  return buf;
}

preparation_report prepare(const database& db, grid_map& map, const prepare_options& options) {
  if (map.block() != db.shape().block())
    throw std::invalid_argument("prepare: the map is cut into " + std::to_string(map.block()) + "x" +
                                std::to_string(map.block()) + " blocks but " + db.path() + " holds " +
                                std::to_string(db.shape().block()) + "x" + std::to_string(db.shape().block()) + " blocks");
  return prepare_rule(db.movement(), map, options);
}

preparation_report prepare(const rule& r, grid_map& map, const prepare_options& options) {
  return prepare_rule(r, map, options);
}

bool prepare_step(grid_map& map, std::uint64_t work) {
  detail::component_access::settle(map);
  if (map.preparations() == nullptr) return true;
  const auto t0 = clock_type::now();
  bool all = true;
  detail::preparations& ps = map.preparations_to_change();
  for (auto& p : ps.of) {
    const double before = ms_since(t0);
    std::uint64_t share = std::max<std::uint64_t>(work, 1);
    all = step_one(*p, map, share) && all;
    p->step_ms += ms_since(t0) - before;
  }
  return all;
}

std::optional<preparation_report> preparation_of(const grid_map& map, const rule& r) {
  const detail::preparations* ps = map.preparations();
  if (ps == nullptr) return std::nullopt;
  const detail::prepared_rule* p = ps->find(r);
  if (p == nullptr) return std::nullopt;
  return report_of(*p, map);
}

const landmark_set* prepared_landmarks(const grid_map& map, const rule& r) {
  const detail::preparations* ps = map.preparations();
  const detail::prepared_rule* p = ps == nullptr ? nullptr : ps->find(r);
  return p == nullptr ? nullptr : p->usable(map);
}

void unprepare(grid_map& map) {
  if (map.preparations() != nullptr) map.preparations_to_change().of.clear();
}

void grid_map::preparations_deleter::operator()(detail::preparations* p) const { delete p; }

detail::preparations& grid_map::preparations_to_change() {
  if (!prepared_.p) prepared_.p.reset(new detail::preparations);
  return *prepared_.p;
}

}  // namespace lddb
