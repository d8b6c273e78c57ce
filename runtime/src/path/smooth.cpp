// Path smoothing and path length. See lddb/search.hpp.
//
// Any-angle: from each kept waypoint, jump to the farthest later waypoint that it sees
// (segment_legal), scanning forward (smooth_in_place says how far). Every jump replaces a
// chain of segments by one straight segment between the same points, so the path stays
// legal and never gets longer. Under the default rule (squeeze forbidden) a jump must also
// keep the sides: it may leave a kept waypoint only on the side the input left it on, and
// reach the next only on the side the input reached it on (turn_legal against the input's
// neighbours). Every kept waypoint is then visited on the input's side of it, so a legal
// input stays legal (the start and goal on their own sides included), and the input's
// next segment is always a jump that qualifies.
// Tile and octile: the moves are kept as they are; only the turning points are returned
// (start, every point where the direction of travel changes, goal), so consecutive
// returned points are joined by straight runs of identical unit moves.
#include <algorithm>
#include <cmath>

#include "path/smooth.hpp"
#include "path/pull_tight.hpp"
#include "lddb/search.hpp"
#include "lddb/segments.hpp"

namespace lddb {

namespace {

int sign(int v) { return (v > 0) - (v < 0); }


}  // namespace

// smooth_in_place (path/smooth.hpp). Smooths `path` (no two consecutive points equal) in
// place: each kept point is written at an index no later than its own, and every later
// read is at or beyond the last kept point's index, so nothing is read after it is
// overwritten. Counts segment_legal calls.
void smooth_in_place(const rule& r, const grid_map& map, std::vector<point>& path, std::uint64_t& los_checks) {
  const std::size_t n = path.size();
  if (n <= 2) return;
  std::size_t kept = 1;  // path[0] stays
  if (!r.on_vertices()) {
    point a = path[0];
    for (std::size_t i = 1; i + 1 < n; ++i) {
      const point b = path[i], c = path[i + 1];
      const bool same = sign(b.x - a.x) == sign(c.x - b.x) && sign(b.y - a.y) == sign(c.y - b.y);
      if (!same) path[kept++] = b;
      a = b;
    }
    path[kept++] = path[n - 1];
    path.resize(kept);
    return;
  }
  const bool sides = r.squeeze == squeezing::forbidden;
  const auto keeps_sides = [&](std::size_t i, std::size_t j) {
    const point a = path[i], b = path[j], a_next = path[i + 1], b_prev = path[j - 1];
    return turn_legal(r, map, a_next.x, a_next.y, a.x, a.y, b.x, b.y) &&
           turn_legal(r, map, b_prev.x, b_prev.y, b.x, b.y, a.x, a.y);
  };
  const auto sees = [&](std::size_t i, std::size_t j) {
    ++los_checks;
    return segment_legal(r, map, path[i].x, path[i].y, path[j].x, path[j].y);
  };
  // Forward from each kept waypoint: the farthest later waypoint it sees, looking no more
  // than kLookahead waypoints past the last one it saw. A raw Block A* path sees a prefix
  // of what follows until it turns a corner, so a pass keeps nearly what a scan from the
  // end finds, at O(path) line-of-sight checks instead of O(path x kept) (that scan took
  // 1.5x the query's time in mazes). Passes repeat until one removes nothing: the next pass,
  // over fewer waypoints, finds most of what comes back into view past the lookahead, and
  // smoothing a smoothed path then changes nothing.
  constexpr std::size_t kLookahead = 4;
  for (std::size_t len = path.size();; len = path.size()) {
    std::size_t out = 1;  // path[0] stays
    std::size_t i = 0;
    while (i + 1 < len) {
      std::size_t best = i + 1;  // the input's own next segment always qualifies
      for (std::size_t j = i + 2; j < len && j <= best + kLookahead; ++j) {
        // (A path may come back to a point, on its other side: a jump there is no segment.)
        if (path[j] == path[i] || (sides && !keeps_sides(i, j))) continue;
        if (sees(i, j)) best = j;
      }
      path[out++] = path[best];
      i = best;
    }
    path.resize(out);
    if (out == len) return;
  }
}

std::vector<point> smooth_path(const rule& r, const grid_map& map, const std::vector<point>& input) {
  std::vector<point> path = input;
  path.erase(std::unique(path.begin(), path.end()), path.end());
  std::uint64_t los = 0;
  smooth_in_place(r, map, path, los);
  if (r.on_vertices()) {
    pull_scratch scratch;
    pull_path_tight(r, map, path, scratch, los);
  }
  return path;
}


cost_t segments_cost(const std::vector<point>& path) {
  cost_t c = 0;
  for (std::size_t k = 1; k < path.size(); ++k) c += euclid_cost(path[k].x - path[k - 1].x, path[k].y - path[k - 1].y);
  return c;
}

double path_length(const std::vector<point>& path) {
  double len = 0;
  for (std::size_t i = 1; i < path.size(); ++i) {
    const double dx = path[i].x - path[i - 1].x, dy = path[i].y - path[i - 1].y;
    len += std::sqrt(dx * dx + dy * dy);
  }
  return len;
}

}  // namespace lddb
