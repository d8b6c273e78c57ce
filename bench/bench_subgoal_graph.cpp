// bench_subgoal_graph: the simple subgoal graph of subgoal_graph.hpp against A* (check) and
// against lddb's default search (bench), octile.
//   bench_subgoal_graph check               400 generated maps changed between queries (the
//                                           graph repaired cell by cell): every cost equals
//                                           A*'s and every path is legal; exit 1 otherwise
//   bench_subgoal_graph bench MAP SCEN [N]  build time and memory; query time on N queries
//                                           spread over the file, least of 3 rounds, against
//                                           find_path on the prepared map; a changed cell's
//                                           cost (2,000 cells beside walls shut and opened)
//                                           against set_blocked on the prepared map
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "lddb/checker.hpp"
#include "lddb/find_path.hpp"
#include "lddb/format.hpp"
#include "lddb/grid.hpp"
#include "lddb/map_file.hpp"
#include "lddb/prepare.hpp"
#include "lddb/scenario.hpp"
#include "lddb/search.hpp"
#include "subgoal_graph.hpp"

using lddb::cost_t;
using lddb::point;
using clk = std::chrono::steady_clock;

static int check() {
  std::mt19937_64 rng(9);
  lddb::search_context ctx;
  long queries = 0, bad = 0, found = 0;
  for (int mi = 0; mi < 400; ++mi) {
    const int w = 4 + rng() % 40, h = 4 + rng() % 30;
    lddb::grid_map m(w, h, 4);
    const int kind = rng() % 3, density = rng() % 35;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        if (kind != 1 && static_cast<int>(rng() % 100) < density) m.set_blocked(x, y, true);
    if (kind != 0) {
      const int room = 4 + rng() % 8;
      for (int y = room; y < h; y += room)
        for (int x = 0; x < w; ++x) m.set_blocked(x, y, x % room >= 1 + static_cast<int>(rng() % 3));
      for (int x = room; x < w; x += room)
        for (int y = 0; y < h; ++y)
          if (y % room) m.set_blocked(x, y, y % room >= 1 + static_cast<int>(rng() % 3));
    }
    subgoals::subgoal_graph sg(m);
    std::vector<point> path;
    for (int q = 0; q < 12; ++q) {
      if (q > 0)
        for (int c = 0; c < 1 + q % 4; ++c) {
          const int x = rng() % w, y = rng() % h;
          m.set_blocked(x, y, !m.blocked(x, y));
          sg.cell_changed(x, y);
        }
      const point s{int(rng() % w), int(rng() % h)}, g{int(rng() % w), int(rng() % h)};
      if (m.blocked(s.x, s.y) || m.blocked(g.x, g.y)) continue;
      ++queries;
      lddb::search_options o;
      const lddb::search_result a = lddb::astar(lddb::rule::octile(), m, s, g, o, ctx);
      const cost_t c = sg.find(s, g, path);
      bool ok;
      double len = 0;
      if (a.status != lddb::search_status::found) ok = c == subgoals::subgoal_graph::kNoPath;
      else {
        ++found;
        // The path checker written apart from the searches: straight or diagonal runs of
        // legal moves from s to g, and their length.
        const lddb::check_result rep =
            lddb::checker::check_path(lddb::rule::octile(), m, s, g, path, lddb::cell_steps::runs);
        len = rep.length;
        ok = c == a.cost && rep.valid && std::fabs(len - lddb::cost_to_double(c)) < 1e-3;
      }
      if (!ok && ++bad <= 5)
        std::printf("map %d q %d (%d,%d)->(%d,%d): A* %s %.4f, subgoals %.4f, path %zu points, legal length %.4f\n", mi, q,
                    s.x, s.y, g.x, g.y, a.status == lddb::search_status::found ? "found" : "none",
                    lddb::cost_to_double(a.cost), c == subgoals::subgoal_graph::kNoPath ? -1.0 : lddb::cost_to_double(c),
                    path.size(), len);
    }
  }
  std::printf("check: %ld queries, %ld found, %ld wrong\n", queries, found, bad);
  return bad != 0;
}

static int bench(const char* map_path, const char* scen_path, std::size_t n) {
  std::string err;
  auto m = lddb::load_map(map_path, &err);
  if (!m) return std::printf("%s\n", err.c_str()), 1;
  auto sc = lddb::load_scenario(scen_path, &err);
  if (!sc) return std::printf("%s\n", err.c_str()), 1;
  std::vector<lddb::scenario_query> qs;
  const std::size_t total = sc->queries.size();
  for (std::size_t i = 0; i < std::min(n, total); ++i) qs.push_back(sc->queries[i * total / std::min(n, total)]);
  auto opened = lddb::database::open(std::string(LDDB_DEFAULT_DATA_DIR) + "/octile-4.lddb");
  if (!opened.db) return std::printf("no db\n"), 1;
  const lddb::database& db = *opened.db;
  const auto t0 = clk::now();
  subgoals::subgoal_graph sg(*m);
  const double build_ms = std::chrono::duration<double, std::milli>(clk::now() - t0).count();
  lddb::prepare_options po;
  po.mode = lddb::prepare_mode::complete;
  const auto t1 = clk::now();
  lddb::prepare(db, *m, po);
  const double prep_ms = std::chrono::duration<double, std::milli>(clk::now() - t1).count();
  lddb::search_context ctx;
  lddb::search_result res;
  std::vector<point> path;
  double best_sg = 1e18, best_lddb = 1e18;
  long mism = 0;
  for (int round = 0; round < 3; ++round) {
    auto a = clk::now();
    for (const auto& q : qs) lddb::find_path(db, *m, q.start, q.goal, {}, ctx, res);
    best_lddb = std::min(best_lddb, std::chrono::duration<double, std::micro>(clk::now() - a).count() / qs.size());
    a = clk::now();
    for (const auto& q : qs) sg.find(q.start, q.goal, path);
    best_sg = std::min(best_sg, std::chrono::duration<double, std::micro>(clk::now() - a).count() / qs.size());
  }
  for (const auto& q : qs) {
    lddb::find_path(db, *m, q.start, q.goal, {}, ctx, res);
    if (sg.find(q.start, q.goal, path) != res.cost) ++mism;
  }
  // Doors: free cells with a blocked 4-neighbour, toggled shut and open again, one at a time.
  std::mt19937_64 rng(3);
  std::vector<point> doors;
  for (int tries = 0; doors.size() < 2000 && tries < 10000000; ++tries) {
    const int x = rng() % m->width(), y = rng() % m->height();
    if (m->blocked(x, y)) continue;
    if ((x > 0 && m->blocked(x - 1, y)) || (y > 0 && m->blocked(x, y - 1)) ||
        (x + 1 < m->width() && m->blocked(x + 1, y)) || (y + 1 < m->height() && m->blocked(x, y + 1)))
      doors.push_back({x, y});
  }
  lddb::unprepare(*m);  // the repair alone, on the bare map
  const std::uint64_t before = sg.reexplored;
  auto a = clk::now();
  for (const point d : doors) {
    m->set_blocked(d.x, d.y, true);
    sg.cell_changed(d.x, d.y);
    m->set_blocked(d.x, d.y, false);
    sg.cell_changed(d.x, d.y);
  }
  const double repair_us = std::chrono::duration<double, std::micro>(clk::now() - a).count() / (2.0 * doors.size());
  const double reexp = double(sg.reexplored - before) / (2.0 * doors.size());
  // The same changes on lddb's prepared map (jump tables, landmarks' journal, components).
  lddb::prepare(db, *m, po);
  a = clk::now();
  for (const point d : doors) {
    m->set_blocked(d.x, d.y, true);
    m->set_blocked(d.x, d.y, false);
  }
  const double lddb_change_us = std::chrono::duration<double, std::micro>(clk::now() - a).count() / (2.0 * doors.size());
  std::printf("%s: %zu subgoals, %zu edges, %.1f MiB, build %.1f ms (lddb prepare %.1f ms); query µs: subgoals %.2f, "
              "find_path %.2f, ratio %.2f (%ld cost mismatches of %zu); a changed cell: subgoals %.2f µs (%.1f subgoals "
              "explored again), lddb set_blocked %.2f µs\n",
              map_path, sg.subgoals(), sg.edges(), sg.memory_bytes() / 1048576.0, build_ms, prep_ms, best_sg, best_lddb,
              best_sg / best_lddb, mism, qs.size(), repair_us, reexp, lddb_change_us);
  return 0;
}

int main(int argc, char** argv) {
  if (argc >= 2 && !std::strcmp(argv[1], "check")) return check();
  if (argc >= 4 && !std::strcmp(argv[1], "bench")) return bench(argv[2], argv[3], argc >= 5 ? std::stoul(argv[4]) : 300);
  std::printf("usage: bench_subgoal_graph check | bench_subgoal_graph bench MAP SCEN [N]\n");
  return 2;
}
