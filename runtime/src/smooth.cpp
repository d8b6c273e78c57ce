// Path smoothing and path length. See lddb/search.hpp.
//
// Any-angle: from each kept waypoint, jump to the farthest later waypoint that it sees
// (segment_legal), scanning from the end of the path backwards. Every jump replaces a
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
#include <cmath>

#include "lddb/search.hpp"
#include "lddb/segments.hpp"

namespace lddb {

namespace {

int sign(int v) { return (v > 0) - (v < 0); }

// Drops repeated consecutive points.
std::vector<point> without_repeats(const std::vector<point>& path) {
  std::vector<point> out;
  out.reserve(path.size());
  for (const point& p : path)
    if (out.empty() || !(out.back() == p)) out.push_back(p);
  return out;
}

}  // namespace

std::vector<point> smooth_path(const rule& r, const grid_map& map, const std::vector<point>& input) {
  const std::vector<point> path = without_repeats(input);
  if (path.size() <= 2) return path;
  std::vector<point> out;
  if (!r.on_vertices()) {
    out.push_back(path.front());
    for (std::size_t i = 1; i + 1 < path.size(); ++i) {
      const point a = path[i - 1], b = path[i], c = path[i + 1];
      const bool same = sign(b.x - a.x) == sign(c.x - b.x) && sign(b.y - a.y) == sign(c.y - b.y);
      if (!same) out.push_back(b);
    }
    out.push_back(path.back());
    return out;
  }
  const std::size_t n = path.size();
  const bool sides = r.squeeze == squeezing::forbidden;
  const auto keeps_sides = [&](std::size_t i, std::size_t j) {
    const point a = path[i], b = path[j], a_next = path[i + 1], b_prev = path[j - 1];
    return turn_legal(r, map, a_next.x, a_next.y, a.x, a.y, b.x, b.y) &&
           turn_legal(r, map, b_prev.x, b_prev.y, b.x, b.y, a.x, a.y);
  };
  std::size_t i = 0;
  out.push_back(path[0]);
  while (i + 1 < n) {
    std::size_t j = n - 1;
    // (A path may come back to a point, on its other side: a jump there is no segment.)
    while (j > i + 1 && (path[j] == path[i] || (sides && !keeps_sides(i, j)) ||
                         !segment_legal(r, map, path[i].x, path[i].y, path[j].x, path[j].y)))
      --j;
    out.push_back(path[j]);
    i = j;
  }
  return out;
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
