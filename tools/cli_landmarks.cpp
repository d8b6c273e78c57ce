// The search commands' landmarks (--landmarks K): built per map, timed, described.
#include <chrono>
#include <cstdio>
#include <string>

#include "cli_search.hpp"

namespace lddb::cli {

void add_landmark_options(CLI::App* cmd, int& count, std::optional<std::string>& placement) {
  cmd->add_option("--landmarks", count,
                  "Differential heuristic: build K landmarks for each map (1 to " +
                      std::to_string(landmark_set::kMaxLandmarks) + "; default 0, none)")
      ->check(whole_number(0, landmark_set::kMaxLandmarks));
  cmd->add_option("--landmark-placement", placement, "Where landmarks go: farthest (default) or random");
}

std::optional<map_landmarks> build_landmarks(const search_setup& s, const grid_map& map) {
  if (s.landmarks == 0) return std::nullopt;
  const auto t0 = std::chrono::steady_clock::now();
  map_landmarks out{landmark_set::build(s.movement, map, s.landmarks, s.placement), s.placement, 0};
  out.build_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

std::string map_landmarks::text() const {
  char buf[128];
  std::snprintf(buf, sizeof buf, "%d landmark%s (%s), built in %.1f ms, %.1f MiB", set.size(), set.size() == 1 ? "" : "s",
                landmark_placement_name(placement), build_ms,
                static_cast<double>(set.memory_bytes()) / (1024.0 * 1024.0));
  return buf;
}

}  // namespace lddb::cli
