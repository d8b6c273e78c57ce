// bench_units: what units of several sizes cost (docs/benchmarks.md, "Units of several
// sizes"): their views' build time and memory, set_blocked and set_terrain with views kept,
// and query time against A* on the same view.
//
// For every map of MAPS_DIR (*.map below it, sorted), under RULE (octile unless --rule):
//  - for sizes 2..4 (size 1 of the ground class is the map itself): the view's build (ms,
//    the first query's share), its bytes (before any query asks for its labels), and
//    set_blocked's ns a call on a copy of the map that keeps that view alone;
//  - set_blocked: ns a call on the map alone ("set"), and with the views of sizes 2-4 kept
//    ("all"); random free cells blocked and freed in turn, so the map stays as loaded;
//  - set_terrain: ns a call turning a free cell into water and back, with the views of sizes
//    1-4 of the ground class and a size-1 view of the water class kept;
//  - queries: for sizes 1..3, --queries N pairs of anchors joined on the size's view
//    (drawn with a fixed seed), Block A* with search_options::unit against A* (octile, tile)
//    or Theta* (any-angle) with the same unit, warm contexts, the map unprepared; the CPU
//    time of all N, each search in turn, least of --runs R.
//
// Usage: bench_units MAPS_DIR DATA_DIR [--rule RULE] [--queries N] [--runs R]
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "lddb/format.hpp"
#include "lddb/grid.hpp"
#include "lddb/map_file.hpp"
#include "lddb/search.hpp"
#include "lddb/find_path.hpp"
#include "lddb/splitmix.hpp"

namespace {

double cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

std::vector<lddb::point> free_cells(const lddb::grid_map& m, std::uint64_t seed, int n) {
  std::vector<lddb::point> out;
  std::uint64_t s = seed;
  for (int tries = 0; tries < 100 * n && static_cast<int>(out.size()) < n; ++tries) {
    const int x = static_cast<int>(lddb::splitmix64(s) % static_cast<std::uint64_t>(m.width()));
    const int y = static_cast<int>(lddb::splitmix64(s) % static_cast<std::uint64_t>(m.height()));
    if (!m.blocked(x, y)) out.push_back({x, y});
  }
  return out;
}

// ns a set_blocked call: block then free each cell.
double set_blocked_ns(lddb::grid_map& m, const std::vector<lddb::point>& cells) {
  const double t0 = cpu_ms();
  for (int round = 0; round < 20; ++round)
    for (const lddb::point& c : cells) {
      m.set_blocked(c.x, c.y, true);
      m.set_blocked(c.x, c.y, false);
    }
  return (cpu_ms() - t0) * 1e6 / (40.0 * static_cast<double>(cells.size()));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: bench_units MAPS_DIR DATA_DIR [--rule RULE] [--queries N] [--runs R]\n");
    return 2;
  }
  const std::filesystem::path maps_dir = argv[1], data_dir = argv[2];
  std::string rule_name = "octile";
  int queries = 100, runs = 3;
  for (int i = 3; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--rule") rule_name = argv[i + 1];
    else if (a == "--queries") queries = std::atoi(argv[i + 1]);
    else if (a == "--runs") runs = std::atoi(argv[i + 1]);
    else {
      std::fprintf(stderr, "bench_units: unknown option %s\n", a.c_str());
      return 2;
    }
  }
  auto opened = lddb::database::open((data_dir / (rule_name + "-4.lddb")).string());
  if (!opened) {
    std::fprintf(stderr, "bench_units: %s\n", opened.message.c_str());
    return 1;
  }
  const lddb::database& db = *opened.db;
  const lddb::rule r = db.movement();
  std::vector<std::string> maps;
  std::error_code ec;
  for (std::filesystem::recursive_directory_iterator it(maps_dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".map") maps.push_back(it->path().string());
  std::sort(maps.begin(), maps.end());

  std::printf("# rule %s, %d queries a size, least of %d runs; times are thread CPU time\n", r.name().c_str(), queries, runs);
  std::printf("%-22s %-16s %-16s %6s %-14s %8s %8s", "map", "build ms 2/3/4", "KiB 2/3/4", "set ns", "with k ns 2/3/4",
              "all ns", "type ns");
  for (int k = 1; k <= 3; ++k) std::printf("  k%d pairs blk-A* ms  ref ms  ratio", k);
  std::printf("\n");
  for (const std::string& path : maps) {
    std::string err;
    auto loaded = lddb::load_map(path, &err, db.shape().block());
    if (!loaded) {
      std::fprintf(stderr, "bench_units: %s\n", err.c_str());
      return 1;
    }
    lddb::grid_map& m = *loaded;
    const std::string name = std::filesystem::relative(path, maps_dir).replace_extension().string();
    const std::vector<lddb::point> cells = free_cells(m, 0x51ce, 2000);
    const double plain_ns = set_blocked_ns(m, cells);
    std::string build, bytes, blocked_ns;
    for (int k = 2; k <= 4; ++k) {  // size 1 is the map itself
      lddb::grid_map alone = m;  // a copy starts without views
      const double t0 = cpu_ms();
      (void)lddb::unit_view(r, alone, lddb::unit{k, lddb::movement_class::ground()});
      char buf[48];
      std::snprintf(buf, sizeof buf, "%s%.1f", k > 2 ? "/" : "", cpu_ms() - t0);
      build += buf;
      std::snprintf(buf, sizeof buf, "%s%zu", k > 2 ? "/" : "", alone.view_bytes() / 1024);
      bytes += buf;
      std::snprintf(buf, sizeof buf, "%s%.0f", k > 2 ? "/" : "", set_blocked_ns(alone, cells));
      blocked_ns += buf;
    }
    for (int k = 2; k <= 4; ++k) (void)lddb::unit_view(r, m, lddb::unit{k, lddb::movement_class::ground()});
    const double views_ns = set_blocked_ns(m, cells);
    (void)m.view(1, lddb::movement_class::of("W"));
    const double t0 = cpu_ms();
    for (int round = 0; round < 20; ++round)
      for (const lddb::point& c : cells) {
        m.set_terrain(c.x, c.y, 'W');
        m.set_terrain(c.x, c.y, '.');
      }
    const double type_ns = (cpu_ms() - t0) * 1e6 / (40.0 * static_cast<double>(cells.size()));
    std::printf("%-22s %-16s %-16s %6.0f %-14s %8.0f %8.0f", name.c_str(), build.c_str(), bytes.c_str(), plain_ns,
                blocked_ns.c_str(), views_ns, type_ns);

    for (int k = 1; k <= 3; ++k) {
      lddb::search_options o;
      o.unit.size = k;
      const lddb::grid_map& view = lddb::unit_view(r, m, o.unit);
      std::vector<std::pair<lddb::point, lddb::point>> pairs;
      const std::vector<lddb::point> anchors = free_cells(view, 0xabc0 + static_cast<std::uint64_t>(k), 20 * queries);
      for (std::size_t i = 0; i + 1 < anchors.size() && static_cast<int>(pairs.size()) < queries; i += 2) {
        // A free cell of the view, or its top-left corner (whose own cell is that free one).
        const lddb::point a = anchors[i], b = anchors[i + 1];
        if (lddb::same_component(r, view, a, b).value_or(false)) pairs.push_back({a, b});
      }
      double best_block = 1e300, best_ref = 1e300;
      lddb::search_context ctx_block, ctx_ref;
      lddb::search_result res;
      for (int run = 0; run < runs; ++run) {
        double t = cpu_ms();
        for (const auto& [s, g] : pairs) lddb::find_path(db, m, s, g, o, ctx_block, res);
        best_block = std::min(best_block, cpu_ms() - t);
        t = cpu_ms();
        for (const auto& [s, g] : pairs) {
          if (r.on_vertices()) lddb::theta_star(r, m, s, g, o, ctx_ref, res);
          else lddb::astar(r, m, s, g, o, ctx_ref, res);
        }
        best_ref = std::min(best_ref, cpu_ms() - t);
      }
      std::printf("  %8zu %9.1f %7.1f %6.3f", pairs.size(), best_block, best_ref,
                  pairs.empty() ? 0.0 : best_block / best_ref);
    }
    std::printf("\n");
    std::fflush(stdout);
  }
  return 0;
}
