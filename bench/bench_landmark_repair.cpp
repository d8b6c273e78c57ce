// bench_landmark_repair: what landmark_set::repair costs against a rebuild
// (docs/benchmarks.md, "Landmark repair"; scripts/bench_landmarks.sh --repair).
//
// For a 512 x 512 map and the same map drawn at 4x (each cell as 4 x 4 cells, 2048 x 2048),
// octile and any-angle with 8 landmarks, and octile with 16 as tile bounds (farthest
// placement; landmark_width::tile_bounds, whose ranges are lowered through the freed cells,
// or rebuilt past 64 of them: "rebuild" then): on a fresh copy of the map the
// set is built (timed: that is the rebuild a change would cost without repair), the map
// changes, and repair(map) brings the set up to date (timed). The changes:
//   - door opens, 1 or 3 cells: wall cells between two free cells (left and right, or above
//     and below), shut when the set was built (at 2048 the 4 x 4 image of each cell);
//   - door reopens: a doorway free at the build, blocked and freed again;
//   - 10 and 1000 cells: blocked cells with a free neighbour, at random, freed.
// Each is run R times on fresh copies; the least time is printed, as markdown rows.
// Usage: bench_landmark_repair MAP.map [RUNS]
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "lddb/grid.hpp"
#include "lddb/landmarks.hpp"
#include "lddb/map_file.hpp"
#include "lddb/rule.hpp"
#include "lddb/splitmix.hpp"

namespace {

using clock_type = std::chrono::steady_clock;
using lddb::grid_map;
using lddb::point;

double ms_since(clock_type::time_point t0) {
  return std::chrono::duration<double, std::milli>(clock_type::now() - t0).count();
}

grid_map scaled(const grid_map& m, int s) {
  grid_map out(m.width() * s, m.height() * s);
  for (int y = 0; y < out.height(); ++y)
    for (int x = 0; x < out.width(); ++x)
      if (m.blocked(x / s, y / s)) out.set_blocked(x, y, true);
  return out;
}

// A wall cell (blocked, or free when `open`) with free cells on two opposite sides and
// blocked ones on the other two; `len` such cells in a row along the wall.
bool door_at(const grid_map& m, point p, int len, bool open) {
  for (int horizontal = 0; horizontal < 2; ++horizontal) {
    bool ok = true;
    for (int k = 0; k < len && ok; ++k) {
      const int x = p.x + (horizontal ? 0 : k), y = p.y + (horizontal ? k : 0);  // along the wall
      const bool across_free = horizontal ? !m.blocked(x - 1, y) && !m.blocked(x + 1, y)
                                          : !m.blocked(x, y - 1) && !m.blocked(x, y + 1);
      ok = m.in_bounds(x, y) && m.blocked(x, y) != open && across_free;
    }
    const bool ends = horizontal ? m.blocked(p.x, p.y - 1) && m.blocked(p.x, p.y + len)
                                 : m.blocked(p.x - 1, p.y) && m.blocked(p.x + len, p.y);
    if (ok && ends) return true;
  }
  return false;
}

std::vector<point> pick_doors(const grid_map& m, int len, bool open, int count, std::uint64_t seed) {
  std::vector<point> all;
  for (int y = 0; y < m.height(); ++y)
    for (int x = 0; x < m.width(); ++x)
      if (door_at(m, {x, y}, len, open)) all.push_back({x, y});
  std::vector<point> out;
  for (int i = 0; i < count && !all.empty(); ++i) out.push_back(all[lddb::splitmix64(seed) % all.size()]);
  return out;
}

// The cells of `len` door cells from p (either way along the wall), drawn at scale s.
std::vector<point> door_cells(const grid_map& m, point p, int len, int s) {
  const bool vertical_wall = !m.blocked(p.x - 1, p.y) || !m.blocked(p.x + 1, p.y) ? true : false;
  std::vector<point> out;
  for (int k = 0; k < len; ++k) {
    const point c{p.x + (vertical_wall ? 0 : k), p.y + (vertical_wall ? k : 0)};
    for (int dy = 0; dy < s; ++dy)
      for (int dx = 0; dx < s; ++dx) out.push_back({c.x * s + dx, c.y * s + dy});
  }
  return out;
}

std::vector<point> blocked_by_free(const grid_map& m, int count, std::uint64_t seed) {
  std::vector<point> out;
  while (static_cast<int>(out.size()) < count) {
    const point p{static_cast<int>(lddb::splitmix64(seed) % static_cast<std::uint64_t>(m.width())),
                  static_cast<int>(lddb::splitmix64(seed) % static_cast<std::uint64_t>(m.height()))};
    if (m.blocked(p.x, p.y) &&
        (!m.blocked(p.x - 1, p.y) || !m.blocked(p.x + 1, p.y) || !m.blocked(p.x, p.y - 1) || !m.blocked(p.x, p.y + 1)) &&
        std::find_if(out.begin(), out.end(), [&](point q) { return q.x == p.x && q.y == p.y; }) == out.end())
      out.push_back(p);
  }
  return out;
}

struct change {
  std::string name;
  std::vector<point> cells;
  bool reopen;  // free at the build: blocked, then freed
};

struct variant {
  lddb::rule r;
  int count;
  lddb::landmark_width width;
  const char* label;
};

void run(const std::string& map_name, const grid_map& base, const std::vector<change>& changes, int runs) {
  const variant variants[] = {{lddb::rule::octile(), 8, lddb::landmark_width::bits32, "octile"},
                              {lddb::rule::any_angle(), 8, lddb::landmark_width::bits32, "any-angle"},
                              {lddb::rule::octile(), 16, lddb::landmark_width::tile_bounds, "octile, 16 tile bounds"}};
  for (const variant& v : variants) {
    const lddb::rule& r = v.r;
    for (const change& c : changes) {
      if (c.cells.empty()) {
        std::printf("| %s | %s | %s | no such cells | | |\n", map_name.c_str(), v.label, c.name.c_str());
        continue;
      }
      bool rebuild = false;
      double build = 1e300, repair = 1e300;
      for (int i = 0; i < runs; ++i) {
        grid_map m = base;
        for (point p : c.cells) m.set_blocked(p.x, p.y, !c.reopen);
        auto t0 = clock_type::now();
        lddb::landmark_set set = lddb::landmark_set::build(r, m, v.count, lddb::landmark_placement::farthest, 1, v.width);
        build = std::min(build, ms_since(t0));
        if (c.reopen)
          for (point p : c.cells) m.set_blocked(p.x, p.y, true);
        for (point p : c.cells) m.set_blocked(p.x, p.y, false);
        t0 = clock_type::now();
        const lddb::landmark_repair got = set.repair(m);
        repair = std::min(repair, ms_since(t0));
        if (got == lddb::landmark_repair::rebuild_needed && v.width == lddb::landmark_width::tile_bounds) {
          rebuild = true;
          continue;
        }
        if (got != lddb::landmark_repair::current || !set.current_for(m)) {
          std::fprintf(stderr, "bench_landmark_repair: the repair did not finish\n");
          std::exit(1);
        }
      }
      if (rebuild) {
        std::printf("| %s | %s | %s (%zu cells) | rebuild | %.1f | 1x |\n", map_name.c_str(), v.label, c.name.c_str(),
                    c.cells.size(), build);
        continue;
      }
      std::printf("| %s | %s | %s (%zu cells) | %.3f | %.1f | %.0fx |\n", map_name.c_str(), v.label, c.name.c_str(),
                  c.cells.size(), repair, build, build / repair);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_landmark_repair MAP.map [RUNS]\n");
    return 2;
  }
  const int runs = argc > 2 ? std::max(1, std::atoi(argv[2])) : 3;
  std::string error;
  const std::optional<grid_map> loaded = lddb::load_map(argv[1], &error);
  if (!loaded) {
    std::fprintf(stderr, "bench_landmark_repair: %s\n", error.c_str());
    return 2;
  }
  std::string name = argv[1];
  name = name.substr(name.find_last_of('/') + 1);
  std::printf("| map | rule | change | repair ms | rebuild ms | rebuild / repair |\n|---|---|---|---|---|---|\n");
  for (int s : {1, 4}) {
    const grid_map m = s == 1 ? *loaded : scaled(*loaded, s);
    std::vector<change> changes;
    for (int len : {1, 3}) {
      std::vector<point> cells;
      for (point p : pick_doors(*loaded, len, false, 1, 7 + static_cast<std::uint64_t>(len)))
        cells = door_cells(*loaded, p, len, s);
      changes.push_back({"door opens, " + std::to_string(len) + " cell" + (len > 1 ? "s" : ""), cells, false});
    }
    std::vector<point> reopen;
    for (point p : pick_doors(*loaded, 1, true, 1, 5)) reopen = door_cells(*loaded, p, 1, s);
    changes.push_back({"door reopens", reopen, true});
    changes.push_back({"10 cells", blocked_by_free(m, 10, 11), false});
    changes.push_back({"1000 cells", blocked_by_free(m, 1000, 13), false});
    run(name + " " + std::to_string(m.width()) + "²", m, changes, runs);
  }
  return 0;
}
