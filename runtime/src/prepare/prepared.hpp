// Private: what lddb::prepare keeps in a map (lddb/prepare.hpp), and how the searches read it.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "lddb/landmarks.hpp"
#include "lddb/prepare.hpp"
#include "lddb/search.hpp"

namespace lddb::detail {

// One map's preparation for one rule.
struct prepared_rule {
  rule movement;
  preparation_plan plan;
  prepare_options options;
  // The complete set, current or not. While `builder` runs for a rebuild after blocked cells,
  // it stays in use (blocking keeps it admissible); after frees it is not current, never
  // read, until prepare_step's repair has caught up. Shared, so that a sliced query keeps the set
  // it began with alive when prepare_step replaces it (search_context holds a reference).
  std::shared_ptr<landmark_set> set;
  // Landmarks being built in slices (prepare_step): its partial set serves the searches
  // while `set` is not current.
  std::unique_ptr<landmark_builder> builder;
  // prepare_mode::worker_thread: the thread builds from its own copy of the map into
  // worker_set and then sets `published` (release); searches read worker_set once they see
  // it (acquire); prepare_step joins the thread and moves worker_set into `set`.
  std::thread worker;
  std::atomic<bool> published{false}, cancel{false};
  std::atomic<bool> dropped{false};  // the worker's assessment: the landmarks do not pay here
  std::atomic<std::int64_t> worker_us{0};
  std::shared_ptr<landmark_set> worker_set;
  double prepare_ms = 0, step_ms = 0;
  // How fast the map changes, as prepare_step sees it (prepare.hpp, "Maps that change"):
  // the map's count of changed cells at the last step and at the last plan, its count of
  // freed cells at the last step, which of the last 64 steps saw a change the landmarks
  // must pay for (bit 0 the last), and the steps since the last change of any kind.
  std::uint64_t changes_at_step = 0, changes_at_plan = 0, freed_at_step = 0;
  std::uint64_t changed_steps = 0, quiet_steps = 0;
  bool set_aside = false;  // the plan's landmarks are set aside while the map changes
  // Frees the tables set aside, off the caller's frame (see set_landmarks_aside).
  std::thread reaper;

  prepared_rule() = default;
  prepared_rule(const prepared_rule&) = delete;
  prepared_rule& operator=(const prepared_rule&) = delete;
  ~prepared_rule() {
    stop_worker();
    if (reaper.joinable()) reaper.join();
  }
  void stop_worker() {
    if (worker.joinable()) {
      cancel.store(true, std::memory_order_relaxed);
      worker.join();
    }
  }

  // The landmarks a search may read on `map` now: current (no cell freed since their
  // tables were made), else none.
  const landmark_set* usable(const grid_map& map) const {
    if (const auto whole = usable_whole(map)) return whole.get();
    if (builder && builder->built() > 0 && builder->partial().current_for(map)) return &builder->partial();
    return nullptr;
  }
  // A complete set only, for a query that may outlive the next prepare_step (sliced Block
  // A*): a builder's partial set is gone once the builder hands its set over.
  std::shared_ptr<const landmark_set> usable_whole(const grid_map& map) const {
    if (set && set->current_for(map)) return set;
    if (published.load(std::memory_order_acquire) && worker_set && worker_set->current_for(map)) return worker_set;
    return nullptr;
  }
};

struct preparations {
  std::vector<std::unique_ptr<prepared_rule>> of;
  const prepared_rule* find(const rule& r) const {
    for (const auto& p : of)
      if (p->movement == r) return p.get();
    return nullptr;
  }
};

// Builds the map's component labels for the rule, as the first query would (O(cells)),
// through the one call that builds them: same_component on any free cell. For
// search_context::reserve and lddb::prepare, so that no query pays for them.
inline void build_components(const rule& r, const grid_map& map) {
  for (int y = 0; y < map.height(); ++y)
    for (int x = 0; x < map.width(); ++x)
      if (!map.blocked(x, y)) {
        (void)map.same_component(connectivity_of(r), x, y, x, y);
        return;
      }
}

// The options a search runs with on `map` under rule r: `in` itself when it does not use
// a preparation (search_diagnostics::use_prepared false, or none for r), else a copy in
// `scratch` with the preparation's landmarks (unless `in` names its own) and open-square
// choice (unless `in` sets one). With `keep` (a sliced query), only a complete set, which
// *keep then holds alive.
inline const search_options& with_prepared(const search_options& in, const rule& r, const grid_map& map,
                                           search_options& scratch,
                                           std::shared_ptr<const landmark_set>* keep = nullptr) {
  const preparations* ps = map.preparations();
  if (!in.diagnostics.use_prepared || ps == nullptr) return in;
  const prepared_rule* p = ps->find(r);
  if (p == nullptr) return in;
  scratch = in;
  if (scratch.landmarks == nullptr) {
    if (keep != nullptr) {
      *keep = p->usable_whole(map);
      scratch.landmarks = keep->get();
    } else {
      scratch.landmarks = p->usable(map);
    }
  }
  if (!scratch.diagnostics.open_squares) scratch.diagnostics.open_squares = p->plan.open_squares;
  return scratch;
}

}  // namespace lddb::detail
