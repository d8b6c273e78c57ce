// bench_components: what the component labels (grid_map::same_component,
// search_diagnostics::component_check) cost and save, on generated 512 x 512 and 2048 x 2048
// maps (docs/benchmarks.md, "Component labels"; scripts/bench_components.sh).
//
// For each map it prints, as markdown rows:
//   - build: the first same_component of a connectivity on a fresh copy (the labels of a
//     map never asked, or a full rebuild of labels set_blocked left coarse);
//   - set_blocked: random cells flipped, without labels and with both connectivities'
//     labels exact (rebuilt, off the clock, whenever a flip left them coarse), and the
//     share of flips that left them coarse (each costs a build where exact labels are
//     asked for: same_component, or prepare_step after a search ran out of cells);
//   - queries between components (a start in the largest component, the goal in a walled
//     pocket) and queries that find a path, with the check on and off: Block A* and A* (octile),
//     Theta* (any-angle).
// Usage: bench_components [--quick] (smaller query counts, for a smoke run).
#include <algorithm>
#include <cstdlib>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "lddb/format.hpp"
#include "lddb/grid.hpp"
#include "lddb/mapgen.hpp"
#include "lddb/search.hpp"
#include "lddb/find_path.hpp"
#include "lddb/splitmix.hpp"

namespace {

using clock_type = std::chrono::steady_clock;
using lddb::grid_map;
using lddb::point;

double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

struct rng {
  std::uint64_t s;
  int below(int n) { return static_cast<int>(lddb::splitmix64(s) % static_cast<std::uint64_t>(n)); }
};

point free_cell(rng& g, const grid_map& m) {
  point p;
  do p = {g.below(m.width()), g.below(m.height())};
  while (m.blocked(p.x, p.y));
  return p;
}

// Asks one question of connectivity c, so that its labels are current.
void touch(const grid_map& m, lddb::connectivity c) {
  rng g{1};
  const point p = free_cell(g, m);
  (void)m.same_component(c, p.x, p.y, p.x, p.y);
}

double build_ms(const grid_map& m, lddb::connectivity c) {
  std::vector<double> runs;
  for (int i = 0; i < 5; ++i) {
    const grid_map fresh = m;
    const auto t0 = clock_type::now();
    touch(fresh, c);
    runs.push_back(seconds_since(t0) * 1e3);
  }
  std::sort(runs.begin(), runs.end());
  return runs[2];
}

// Mean ns per flip of a random cell, and the share of flips that left a connectivity's
// labels coarse.
struct flip_cost {
  double ns = 0;
  double stale_share = 0;
};

flip_cost flips(grid_map m, bool labels, std::uint64_t seed) {
  constexpr int kBatch = 256;
  const int kBatches = m.width() > 1000 ? 20 : 200;  // each batch rebuilds the labels
  rng g{seed};
  const lddb::connectivity kinds[] = {lddb::connectivity::four, lddb::connectivity::eight};
  double total = 0;
  long stale = 0;
  std::vector<point> cells(kBatch);
  for (int b = 0; b < kBatches; ++b) {
    for (point& p : cells) p = {g.below(m.width()), g.below(m.height())};
    if (labels)
      for (const auto c : kinds) touch(m, c);  // current again, off the clock
    const auto t0 = clock_type::now();
    for (const point& p : cells) m.set_blocked(p.x, p.y, !m.blocked(p.x, p.y));
    total += seconds_since(t0);
    if (!labels) continue;
    // The share of flips that leave the labels inexact (coarse): flip one more cell at a
    // time, off the clock.
    for (const auto c : kinds) touch(m, c);
    for (int k = 0; k < 8; ++k) {
      const point p{g.below(m.width()), g.below(m.height())};
      m.set_blocked(p.x, p.y, !m.blocked(p.x, p.y));
      if (!m.components_current(lddb::connectivity::four) || !m.components_current(lddb::connectivity::eight)) {
        ++stale;
        for (const auto c : kinds) touch(m, c);
      }
    }
  }
  return {total * 1e9 / (kBatch * kBatches), labels ? static_cast<double>(stale) / (8.0 * kBatches) : 0};
}

// Mean microseconds of a query with the check on and off.
struct timing {
  double on_us = 0, off_us = 0;
  int queries = 0;
};

// Each query runs with the check on, then off, so that both share any drift in the load;
// one query first, off the clock, warms the context.
template <class Search>
timing time_queries(const std::vector<std::pair<point, point>>& pairs, lddb::heuristic_kind h, Search&& search) {
  timing t;
  lddb::search_context ctx;
  lddb::search_result out;
  lddb::search_options on(h), off(h);
  off.diagnostics.component_check = false;
  search(pairs[0].first, pairs[0].second, off, ctx, out);
  double total[2] = {0, 0};
  for (const auto& [s, g] : pairs)
    for (int k = 0; k < 2; ++k) {
      const auto t0 = clock_type::now();
      search(s, g, k == 0 ? on : off, ctx, out);
      total[k] += seconds_since(t0);
    }
  t.on_us = total[0] * 1e6 / static_cast<double>(pairs.size());
  t.off_us = total[1] * 1e6 / static_cast<double>(pairs.size());
  t.queries = static_cast<int>(pairs.size());
  return t;
}

void print_queries(const char* map, const char* kind, const char* algo, const timing& t) {
  std::printf("| %s | %s | %s | %d | %.1f | %.1f | %.0fx |\n", map, kind, algo, t.queries, t.on_us, t.off_us,
              t.on_us > 0 ? t.off_us / t.on_us : 0.0);
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  const std::string dir = LDDB_DEFAULT_DATA_DIR;
  auto octile = lddb::database::open(dir + "/octile-4.lddb");
  if (!octile) {
    std::fprintf(stderr, "%s\n", octile.message.c_str());
    return 1;
  }
  struct named {
    std::string name;
    grid_map map;
  };
  std::vector<named> maps;
  maps.push_back({"random 512, 30%", lddb::make_random_map(512, 512, 30, 1)});
  maps.push_back({"rooms 512", lddb::make_rooms_map(512, 512, 16, 1)});
  maps.push_back({"maze 512", lddb::make_maze_map(512, 512, 2, 1)});
  maps.push_back({"random 2048, 30%", lddb::make_random_map(2048, 2048, 30, 1)});
  maps.push_back({"rooms 2048", lddb::make_rooms_map(2048, 2048, 16, 1)});

  std::printf("| map | build, 4-connected (ms) | build, 8-connected (ms) | labels (MB, both) | set_blocked, no labels (ns) | set_blocked, labels current (ns) | flips that leave them coarse (%%) |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  for (const named& n : maps) {
    const double b4 = build_ms(n.map, lddb::connectivity::four), b8 = build_ms(n.map, lddb::connectivity::eight);
    const flip_cost plain = flips(n.map, false, 9), kept = flips(n.map, true, 9);
    const grid_map both = n.map;
    touch(both, lddb::connectivity::four);
    touch(both, lddb::connectivity::eight);
    std::printf("| %s | %.2f | %.2f | %.1f | %.1f | %.1f | %.2f |\n", n.name.c_str(), b4, b8,
                static_cast<double>(both.component_bytes()) / 1e6, plain.ns, kept.ns, kept.stale_share * 100);
  }

  std::printf("\n| map | queries | search | count | check on (us) | check off (us) | off / on |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  const lddb::rule oct = lddb::rule::octile(), aa = lddb::rule::any_angle();
  for (named& n : maps) {
    grid_map& m = n.map;
    // A walled 9 x 9 pocket in the middle, as a closed door leaves one: a goal inside it,
    // a start outside, and the search without the check exhausts the start's component.
    const int cx = m.width() / 2, cy = m.height() / 2;
    for (int y = cy - 5; y <= cy + 5; ++y)
      for (int x = cx - 5; x <= cx + 5; ++x)
        m.set_blocked(x, y, std::max(std::abs(x - cx), std::abs(y - cy)) == 5);
    const point pocket{cx, cy};
    const bool large = m.width() > 1000;
    const int want_apart = quick ? 2 : (large ? 3 : 20), want_joined = quick ? 10 : (large ? 30 : 100);
    // Starts in the largest component (the one most free cells lie in).
    auto pairs = [&](const lddb::rule& r, bool apart) {
      rng g{42};
      point hub = free_cell(g, m);
      for (int tries = 0; tries < 100; ++tries) {
        int hits = 0;
        for (int k = 0; k < 20; ++k) hits += lddb::same_component(r, m, hub, free_cell(g, m)).value_or(false) ? 1 : 0;
        if (hits >= 10) break;
        hub = free_cell(g, m);
      }
      std::vector<std::pair<point, point>> out;
      while (static_cast<int>(out.size()) < (apart ? want_apart : want_joined)) {
        const point s = free_cell(g, m), t = apart ? pocket : free_cell(g, m);
        if (lddb::same_component(r, m, hub, s).value_or(false) && lddb::same_component(r, m, s, t) == !apart)
          out.push_back({s, t});
      }
      return out;
    };
    const auto block = [&](point s, point t, const lddb::search_options& o, lddb::search_context& c, lddb::search_result& r) {
      lddb::find_path(*octile.db, m, s, t, o, c, r);
    };
    const auto astar = [&](point s, point t, const lddb::search_options& o, lddb::search_context& c, lddb::search_result& r) {
      lddb::astar(oct, m, s, t, o, c, r);
    };
    const auto theta = [&](point s, point t, const lddb::search_options& o, lddb::search_context& c, lddb::search_result& r) {
      lddb::theta_star(aa, m, s, t, o, c, r);
    };
    const char* name = n.name.c_str();
    const auto oh = lddb::heuristic_kind::octile, eh = lddb::heuristic_kind::euclidean;
    print_queries(name, "no path", "Block A* (octile)", time_queries(pairs(oct, true), oh, block));
    print_queries(name, "no path", "A* (octile)", time_queries(pairs(oct, true), oh, astar));
    print_queries(name, "no path", "Theta* (any-angle)", time_queries(pairs(aa, true), eh, theta));
    print_queries(name, "path", "Block A* (octile)", time_queries(pairs(oct, false), oh, block));
    print_queries(name, "path", "A* (octile)", time_queries(pairs(oct, false), oh, astar));
  }
  return 0;
}
