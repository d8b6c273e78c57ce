// tools/bench_checks.hpp: what `lddb bench` reports besides the searches themselves:
// progress when stderr is not a terminal, and which octile corner rule a scenario file's
// optimal lengths seem to assume.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "lddb/grid.hpp"
#include "lddb/rule.hpp"
#include "lddb/scenario.hpp"
#include "lddb/search.hpp"

namespace lddb::cli {

// The queries `lddb bench` will read from a scenario file: its non-blank lines after the
// version line, at most `limit`. For the progress line only (a malformed line stops the run
// anyway). 0 when the file cannot be read.
std::uint64_t count_scenario_queries(const std::string& file, std::optional<std::uint64_t> limit);

// A plain progress line on stderr ("lddb bench: 512/1238 queries, 10.3 s elapsed") at most
// every `interval` seconds, for runs whose stderr goes to a file or a pipe, where a line
// rewritten in place would be noise. The interval is $LDDB_PROGRESS_INTERVAL (seconds,
// default 5; 0 prints after every batch of queries); a malformed value is a usage_error.
class plain_progress {
 public:
  explicit plain_progress(std::uint64_t total);
  void tick(std::uint64_t done);  // call after each batch

 private:
  using clock = std::chrono::steady_clock;
  std::uint64_t total_;
  double interval_s_ = 5;
  clock::time_point start_, last_;
};

// The octile corner rule a scenario's optimal lengths seem to assume. Corner rules nest:
// every move of forbidden is a move of one-side-free, and every move of one-side-free one of
// allowed, so a looser rule's optima are never longer. When more than 1% of the compared
// queries differ from the scenario's optima beyond its tolerance, nearly all (19 in 20) in
// one direction (longer: the file assumes a looser rule; shorter: a stricter one; a file
// holds the odd wrong optimum), the guess is the nearest
// corner rule in that direction under which A* gives the scenario's optimum to every sampled
// query: the first kOffSamples mismatched ones, and the matching ones numbered 1, 2, 4, 8, ...
// (at most kOnSamples, spread over the file), solved again as they are read. When no rule
// does, the advice says so. Active only for octile rules with the default diagonal, whose
// lengths the files' optima are comparable with.
class corner_rule_guess {
 public:
  // Enough that a rule failing on one in twenty mismatched queries is caught (0.95^64 < 4%),
  // few enough to cost well under a second.
  static constexpr int kOffSamples = 64, kOnSamples = 16;
  // `comparable`: false when the scenario's optima do not apply (another unit): nothing is compared.
  explicit corner_rule_guess(const rule& r, bool comparable = true);
  bool active() const { return active_; }
  // One query whose path was found and is valid. Returns true when its length is off the
  // scenario's optimum.
  bool observe(const grid_map& map, const scenario_query& q, double length);
  // The summary's line when the lengths point at another rule, e.g. "the scenario's optima
  // look like octile:corners=one-side-free: rerun with --rule octile:corners=one-side-free".
  // `block_astar`: say that Block A* needs a database for that rule.
  std::optional<std::string> advice(bool block_astar) const;

 private:
  rule rule_;
  bool active_ = false;
  std::uint64_t compared_ = 0, longer_ = 0, shorter_ = 0;
  int sampled_ = 0;  // mismatched and matching queries solved again
  std::array<int, 3> reproduced_{};  // by corner_cutting value: how many of them A* gives their optimum
  int sampled_off_ = 0, sampled_on_ = 0;
  std::uint64_t matching_ = 0;
  search_context ctx_;
  void resolve(const grid_map& map, const scenario_query& q);
};

}  // namespace lddb::cli
