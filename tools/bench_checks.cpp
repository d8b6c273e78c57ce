// Progress lines and the corner-rule guess of `lddb bench`. See bench_checks.hpp.
#include "bench_checks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string_view>

#include "cli_common.hpp"
#include "cli_search.hpp"

namespace lddb::cli {

std::uint64_t count_scenario_queries(const std::string& file, std::optional<std::uint64_t> limit) {
  std::ifstream in(file, std::ios::binary);
  std::string line;
  std::uint64_t lines = 0;
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) ++lines;
  const std::uint64_t queries = lines > 0 ? lines - 1 : 0;  // less the version line
  return limit ? std::min(queries, *limit) : queries;
}

plain_progress::plain_progress(std::uint64_t total) : total_(total), start_(clock::now()), last_(start_) {
  if (const char* env = std::getenv("LDDB_PROGRESS_INTERVAL")) {
    char* end = nullptr;
    const double v = std::strtod(env, &end);
    if (end == env || *end != '\0' || !(v >= 0) || !std::isfinite(v))
      throw usage_error("LDDB_PROGRESS_INTERVAL '" + std::string(env) + "': must be a number of seconds, 0 or more");
    interval_s_ = v;
  }
}

void plain_progress::tick(std::uint64_t done) {
  const clock::time_point now = clock::now();
  if (std::chrono::duration<double>(now - last_).count() < interval_s_) return;
  last_ = now;
  std::fprintf(stderr, "lddb bench: %llu/%llu queries, %s s elapsed\n", static_cast<unsigned long long>(done),
               static_cast<unsigned long long>(std::max(done, total_)),
               format_fixed(std::chrono::duration<double>(now - start_).count(), 1).c_str());
  std::fflush(stderr);
}

corner_rule_guess::corner_rule_guess(const rule& r, bool comparable)
    : rule_(r), active_(comparable && r.kind == rule_kind::octile && r.diagonal == kSqrt2Cost) {}

void corner_rule_guess::resolve(const grid_map& map, const scenario_query& q) {
  ++sampled_;
  for (const corner_cutting c : {corner_cutting::forbidden, corner_cutting::one_side_free, corner_cutting::allowed}) {
    if (c == rule_.corners) continue;
    const rule other = rule::octile(c);
    const search_result r = astar(other, map, q.start, q.goal, search_options(default_heuristic(other)), ctx_);
    if (r.found() && std::abs(r.length - q.optimal) <= q.optimal_tolerance) ++reproduced_[static_cast<std::size_t>(c)];
  }
}

bool corner_rule_guess::observe(const grid_map& map, const scenario_query& q, double length) {
  if (!active_) return false;
  ++compared_;
  if (std::abs(length - q.optimal) <= q.optimal_tolerance) {
    // Matching queries too: a rule that shortens the mismatched ones may shorten these as well.
    ++matching_;
    if (sampled_on_ < kOnSamples && (matching_ & (matching_ - 1)) == 0) {
      ++sampled_on_;
      resolve(map, q);
    }
    return false;
  }
  ++(length > q.optimal ? longer_ : shorter_);
  if (sampled_off_ < kOffSamples) {
    ++sampled_off_;
    resolve(map, q);
  }
  return true;
}

std::optional<std::string> corner_rule_guess::advice(bool block_astar) const {
  const std::uint64_t off = longer_ + shorter_;
  // Nearly all one way: a stray query or two (files hold the odd wrong optimum) may differ.
  const std::uint64_t minority = std::min(longer_, shorter_);
  if (!active_ || off * 100 <= compared_ || minority * 20 > off) return std::nullopt;
  // Nearest first, in the direction the lengths point.
  const bool longer = longer_ > shorter_;
  const int step = longer ? 1 : -1;
  for (int c = static_cast<int>(rule_.corners) + step; c >= 0 && c <= 2; c += step) {
    if (reproduced_[static_cast<std::size_t>(c)] != sampled_) continue;
    const std::string name = rule::octile(static_cast<corner_cutting>(c)).name();
    std::string s = "the scenario's optima look like " + name + ": rerun with --rule " + name;
    if (block_astar)
      s += c == static_cast<int>(corner_cutting::forbidden)
               ? " (and no --lddb: Block A* then opens the shipped octile database)"
               : " (Block A* needs a database for it: lddb gen --rule " + name + " --out FILE, then --lddb FILE)";
    return s;
  }
  return std::to_string(off) + " of " + std::to_string(compared_) + " lengths differ from the scenario's optima (" +
         std::to_string(longer_) + " longer, " + std::to_string(shorter_) +
         " shorter), but no other octile corner rule gives all of " + std::to_string(sampled_) +
         " sampled queries their optima: the file's optima follow none of lddb's corner rules";
}

}  // namespace lddb::cli
