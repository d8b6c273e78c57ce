// bench/suite_runner.cpp: running the suite's searches, timing them and checking their paths.
//
// Everything runs on one thread with one search_context. The queries go in chunks (--chunk):
// each algorithm runs the chunk's queries in turn, so the algorithms share any drift in the
// machine's load while each runs warm, one query after another, as a game's pathfinder does.
// Only the search call is timed (run_search, as `lddb bench` does); the independent checker
// sees every path after the chunk's searches.
#include <algorithm>
#include <cmath>

#include "suite.hpp"

namespace lddb::cli {

// One untimed run of every search of a group (`setups`: the any-angle or the cell
// searches) on the first query it gets on each map, so that no timed query pays for the
// context growing to a new map's size (A*'s per-cell arrays).
void runner::warm_up(const search_setup* const* setups, int count, const grid_map& map, point s, point g) {
  if (&map != warm_map_ || map.width() != warm_width_ || map.height() != warm_height_) {
    warm_map_ = &map;
    warm_width_ = map.width();
    warm_height_ = map.height();
    warmed_.clear();
  }
  if (std::find(warmed_.begin(), warmed_.end(), setups) != warmed_.end()) return;
  for (int k = 0; k < count; ++k) (void)run_query(*setups[k], map, s, g, ctx);
  warmed_.push_back(setups);
}

void runner::problem(const std::string& what) {
  ++problem_count;
  if (problems.size() < 12) problems.push_back(what);
}

// Runs `count` searches on the queries, a chunk at a time: every search runs the chunk's
// queries in turn (timed), then `judge` gets each query's runs, checked.
template <typename Judge>
void runner::in_chunks(const search_setup* const* setups, int count, const grid_map& map,
                       const std::vector<query_spec>& queries, Judge judge) {
  if (queries.empty()) return;
  warm_up(setups, count, map, queries.front().start, queries.front().goal);
  runs_.resize(chunk_ * static_cast<std::size_t>(count));
  for (std::size_t first = 0; first < queries.size(); first += chunk_) {
    const std::size_t n = std::min(chunk_, queries.size() - first);
    for (int k = 0; k < count; ++k)
      for (std::size_t i = 0; i < n; ++i) {
        const query_spec& q = queries[first + i];
        run_search(*setups[k], map, q.start, q.goal, ctx, runs_[i * static_cast<std::size_t>(count) + static_cast<std::size_t>(k)]);
      }
    for (std::size_t i = 0; i < n; ++i) {
      const query_spec& q = queries[first + i];
      query_run* r = &runs_[i * static_cast<std::size_t>(count)];
      for (int k = 0; k < count; ++k) finish_query(*setups[k], map, q.start, q.goal, r[k]);
      judge(q, r);
    }
  }
}

void runner::judge_any_angle(const search_setup* const setups[kAnyCount], const grid_map& map, const query_spec& q,
                             query_run* r, any_group& into) {
  const point s = q.start, g = q.goal;
  const std::string& where = q.where;
  for (int k = 0; k < kAnyCount; ++k) {
    into.s[k].add(r[k]);
    if (!r[k].result.found())
      problem(where + ": " + kAnyNames[k] + " found no path (" + search_status_name(r[k].result.status) + ")");
    else if (!r[k].check.valid)
      problem(where + ": " + kAnyNames[k] + " returned an invalid path: " + r[k].check.error);
  }
  auto longer = [&](int k) {
    if (!r[k].check.valid || !r[kAstar].check.valid) return false;
    return r[k].length > r[kAstar].length * (1 + 1e-12) + 1e-6;
  };
  // Any-angle paths include every octile path (shifted to the corners), so Block A*, exact
  // over its database, is never longer than octile A*. Theta* carries no such guarantee:
  // counted and reported, not a failure.
  if (longer(kBlock)) {
    ++into.block_longer;
    problem(where + ": any-angle Block A* length " + format_length(r[kBlock].length) + " exceeds octile A*'s " +
            format_length(r[kAstar].length));
  }
  if (longer(kTheta)) ++into.theta_longer;
  if (longer(kLazy)) ++into.lazy_longer;
  if (r[kBlock].check.valid) {
    query_run sm;
    sm.result.status = search_status::found;
    sm.result.stats = r[kBlock].result.stats;
    const std::vector<point> path = smooth_path(setups[kBlock]->movement, map, r[kBlock].path);
    sm.check = check_path(setups[kBlock]->movement, map, s, g, path);
    sm.length = sm.check.length;
    into.smoothed.add(sm);
    if (!sm.check.valid) problem(where + ": the smoothed Block A* path is invalid: " + sm.check.error);
  }
}

void runner::judge_cells(const query_spec& q, query_run* r, cell_group& into) {
  const std::string& where = q.where;
  static const char* const names[kCellCount] = {"tile A*", "tile Block A*", "octile A*", "octile Block A*"};
  for (int k = 0; k < kCellCount; ++k) {
    into.s[k].add(r[k]);
    if (!r[k].result.found())
      problem(where + ": " + names[k] + " found no path (" + search_status_name(r[k].result.status) + ")");
    else if (!r[k].check.valid)
      problem(where + ": " + names[k] + " returned an invalid path: " + r[k].check.error);
  }
  auto differ = [&](int a, int b) {
    if (!r[a].check.valid || !r[b].check.valid) return false;
    return std::abs(r[a].length - r[b].length) > 1e-6 * std::max(1.0, r[a].length);
  };
  if (differ(kTileA, kTileB)) {
    ++into.tile_mismatch;
    problem(where + ": tile Block A* length " + format_length(r[kTileB].length) + " but A* " +
            format_length(r[kTileA].length));
  }
  if (differ(kOctA, kOctB)) {
    ++into.octile_mismatch;
    problem(where + ": octile Block A* length " + format_length(r[kOctB].length) + " but A* " +
            format_length(r[kOctA].length));
  }
}

void runner::any_angle(const search_setup* const setups[kAnyCount], const grid_map& map,
                       const std::vector<query_spec>& queries, any_group& into) {
  in_chunks(setups, kAnyCount, map, queries,
            [&](const query_spec& q, query_run* r) { judge_any_angle(setups, map, q, r, into); });
}

void runner::cells(const search_setup* const setups[kCellCount], const grid_map& map,
                   const std::vector<query_spec>& queries, cell_group& into) {
  in_chunks(setups, kCellCount, map, queries, [&](const query_spec& q, query_run* r) { judge_cells(q, r, into); });
}

}  // namespace lddb::cli
