// bench_first_query: what the first query on a new search_context costs against a warm
// one, with and without search_context::reserve (docs/benchmarks.md, "First query").
//
// Each cold measurement runs in a child process of its own (fork), so that it meets fresh
// pages and a map whose component labels are not built, as a game's first frame after
// loading does: the child loads the map and opens the database, then
//   - without reserve: times the first query, then a query touching more blocks than the
//     first (the "grown" column: a short query first, then the long one);
//   - with reserve: times reserve, then the same two queries.
// The warm time is the median of 15 repeats of the query on a context that already ran it.
// Every figure is the median over the runs (--runs N, default 9). Times are the thread's
// CPU time (CLOCK_THREAD_CPUTIME_ID: user and system, page faults included), so that other
// processes taking the core do not count; faults are the thread's minor page faults.
//
// Then what reserve holds (search_context::memory_bytes after it) on generated 512 x 512
// and 2048 x 2048 maps: all free, 25% random obstacles, rooms of 64 cells.
//
// Usage: bench_first_query MAPS_DIR [--runs N]   (MAPS_DIR: the folder holding rooms/ and dao/)
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "lddb/format.hpp"
#include "lddb/grid.hpp"
#include "lddb/map_file.hpp"
#include "lddb/mapgen.hpp"
#include "lddb/search.hpp"
#include "lddb/find_path.hpp"

namespace {

using lddb::point;

struct cpu_clock {
  using time_point = double;
  static double now() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
  }
};
using clock_type = cpu_clock;
double ms_since(double t0) { return clock_type::now() - t0; }

long minor_faults() {
  rusage u{};
  getrusage(RUSAGE_THREAD, &u);
  return u.ru_minflt;
}

enum class algo { block_astar, astar, theta };

struct workload {
  const char* map;   // under MAPS_DIR
  const char* rule;  // the shipped database's name
  algo search;
  point start, goal, near;  // near: the short query's goal, for the grown column
};

struct figures {
  double cold = 0, cold_grown = 0, reserve = 0, reserved = 0, reserved_grown = 0, warm = 0;
  double mib = 0;  // the context's memory after reserve
  double cold_faults = 0, reserved_faults = 0;  // of the first query
};

std::string g_maps, g_data = LDDB_DEFAULT_DATA_DIR;

// One query; the result is reused so its vectors do not count.
void run(const workload& w, const lddb::database& db, const lddb::grid_map& map, point goal, lddb::search_context& ctx,
         lddb::search_result& out) {
  const lddb::search_options opt(lddb::default_heuristic(db.movement()));
  switch (w.search) {
    case algo::block_astar:
      lddb::find_path(db, map, w.start, goal, opt, ctx, out);
      break;
    case algo::astar:
      lddb::astar(db.movement(), map, w.start, goal, opt, ctx, out);
      break;
    case algo::theta:
      lddb::theta_star(db.movement(), map, w.start, goal, opt, ctx, out);
      break;
  }
  if (!out.found()) {
    std::fprintf(stderr, "bench_first_query: %s on %s: %s\n", lddb::search_status_name(out.status), w.map, out.message.c_str());
    std::exit(2);
  }
}

double timed(const workload& w, const lddb::database& db, const lddb::grid_map& map, point goal, lddb::search_context& ctx,
             lddb::search_result& out) {
  const auto t0 = clock_type::now();
  run(w, db, map, goal, ctx, out);
  return ms_since(t0);
}

// One cold measurement, in this (child) process.
figures measure_once(const workload& w) {
  std::string err;
  const auto opened = lddb::database::open(g_data + "/" + w.rule + "-4.lddb");
  if (!opened) {
    std::fprintf(stderr, "bench_first_query: %s\n", opened.message.c_str());
    std::exit(2);
  }
  const lddb::database& db = *opened.db;
  figures f;
  lddb::search_result out;
  out.path.reserve(1 << 16);
  const auto load = [&] {
    auto m = lddb::load_map(g_maps + "/" + w.map, &err);
    if (!m) {
      std::fprintf(stderr, "bench_first_query: %s\n", err.c_str());
      std::exit(2);
    }
    return std::move(*m);
  };
  const auto reserve = [&](lddb::search_context& ctx, const lddb::grid_map& map) {
    if (w.search == algo::block_astar) ctx.reserve(db, map);
    else ctx.reserve(db.movement(), map);
  };
  {  // without reserve: a first query, and a longer query after a short one
    const lddb::grid_map map = load();
    lddb::search_context ctx;
    const long faults = minor_faults();
    f.cold = timed(w, db, map, w.goal, ctx, out);
    f.cold_faults = static_cast<double>(minor_faults() - faults);
    const lddb::grid_map map2 = load();
    lddb::search_context ctx2;
    run(w, db, map2, w.near, ctx2, out);
    f.cold_grown = timed(w, db, map2, w.goal, ctx2, out);
  }
  {  // with reserve
    const lddb::grid_map map = load();
    lddb::search_context ctx;
    auto t0 = clock_type::now();
    reserve(ctx, map);
    f.reserve = ms_since(t0);
    f.mib = static_cast<double>(ctx.memory_bytes()) / (1 << 20);
    const long faults = minor_faults();
    f.reserved = timed(w, db, map, w.goal, ctx, out);
    f.reserved_faults = static_cast<double>(minor_faults() - faults);
    const lddb::grid_map map2 = load();
    lddb::search_context ctx2;
    reserve(ctx2, map2);
    run(w, db, map2, w.near, ctx2, out);
    f.reserved_grown = timed(w, db, map2, w.goal, ctx2, out);
    std::vector<double> warm;
    for (int i = 0; i < 15; ++i) warm.push_back(timed(w, db, map, w.goal, ctx, out));
    std::nth_element(warm.begin(), warm.begin() + 7, warm.end());
    f.warm = warm[7];
  }
  return f;
}

figures measure_in_child(const workload& w) {
  int fd[2];
  if (pipe(fd) != 0) std::exit(2);
  const pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    const figures f = measure_once(w);
    if (write(fd[1], &f, sizeof f) != static_cast<ssize_t>(sizeof f)) _exit(3);
    _exit(0);
  }
  close(fd[1]);
  figures f;
  const bool got = read(fd[0], &f, sizeof f) == static_cast<ssize_t>(sizeof f);
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!got || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "bench_first_query: the measurement of %s failed\n", w.map);
    std::exit(2);
  }
  return f;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

const char* algo_name(const workload& w) {
  switch (w.search) {
    case algo::block_astar:
      return "block-astar";
    case algo::astar:
      return "astar";
    case algo::theta:
      return "theta";
  }
  return "?";
}

// Bytes a reserved context holds, per map and search.
void memory_table() {
  std::printf("\n| map | block-astar tile | block-astar octile | block-astar any-angle | astar octile | theta any-angle |\n");
  std::printf("|---|---|---|---|---|---|\n");
  std::vector<std::shared_ptr<const lddb::database>> dbs;
  for (const char* name : {"tile", "octile", "any-angle"}) {
    const auto opened = lddb::database::open(g_data + "/" + name + "-4.lddb");
    if (!opened) {
      std::fprintf(stderr, "bench_first_query: %s\n", opened.message.c_str());
      std::exit(2);
    }
    dbs.push_back(opened.db);
  }
  for (const int side : {512, 2048}) {
    struct kind {
      const char* name;
      lddb::grid_map map;
    };
    const kind maps[] = {{"free", lddb::grid_map(side, side)},
                         {"random 25%", lddb::make_random_map(side, side, 25, 1)},
                         {"rooms 64", lddb::make_rooms_map(side, side, 64, 1)}};
    for (const kind& k : maps) {
      std::printf("| %dx%d %s |", side, side, k.name);
      for (const auto& db : dbs) {
        lddb::search_context ctx;
        ctx.reserve(*db, k.map);
        std::printf(" %.1f MiB |", static_cast<double>(ctx.memory_bytes()) / (1 << 20));
      }
      for (const lddb::rule r : {lddb::rule::octile(), lddb::rule::any_angle()}) {
        lddb::search_context ctx;
        ctx.reserve(r, k.map);
        std::printf(" %.1f MiB |", static_cast<double>(ctx.memory_bytes()) / (1 << 20));
      }
      std::printf("\n");
      std::fflush(stdout);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 9;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
    else g_maps = argv[i];
  }
  if (g_maps.empty()) {
    std::fprintf(stderr, "usage: bench_first_query MAPS_DIR [--runs N]\n");
    return 2;
  }
  const workload all[] = {
      {"rooms/64room_001.map", "octile", algo::block_astar, {5, 5}, {500, 500}, {60, 60}},
      {"rooms/64room_001.map", "any-angle", algo::block_astar, {5, 5}, {500, 500}, {60, 60}},
      {"rooms/64room_001.map", "octile", algo::astar, {5, 5}, {500, 500}, {60, 60}},
      {"rooms/64room_001.map", "any-angle", algo::theta, {5, 5}, {500, 500}, {60, 60}},
      {"dao/arena.map", "octile", algo::block_astar, {1, 11}, {40, 30}, {8, 14}},
      {"dao/arena.map", "any-angle", algo::block_astar, {1, 11}, {40, 30}, {8, 14}},
      {"dao/arena.map", "octile", algo::astar, {1, 11}, {40, 30}, {8, 14}},
      {"dao/arena.map", "any-angle", algo::theta, {1, 11}, {40, 30}, {8, 14}},
  };
  std::printf("| map | search | rule | first, no reserve | longer after short, no reserve | reserve | first after reserve | "
              "longer after short, after reserve | warm | first after reserve / warm | reserved | page faults of the first query, "
              "without / with reserve |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const workload& w : all) {
    std::vector<double> cold, cold_grown, res, reserved, reserved_grown, warm, mib, cf, rf;
    for (int r = 0; r < runs; ++r) {
      const figures f = measure_in_child(w);
      cold.push_back(f.cold);
      cold_grown.push_back(f.cold_grown);
      res.push_back(f.reserve);
      reserved.push_back(f.reserved);
      reserved_grown.push_back(f.reserved_grown);
      warm.push_back(f.warm);
      mib.push_back(f.mib);
      cf.push_back(f.cold_faults);
      rf.push_back(f.reserved_faults);
    }
    const double wm = median(warm);
    std::printf("| %s | %s | %s | %.3f ms | %.3f ms | %.3f ms | %.3f ms | %.3f ms | %.3f ms | %.2fx | %.2f MiB | %.0f / %.0f |\n",
                w.map, algo_name(w), w.rule, median(cold), median(cold_grown), median(res), median(reserved),
                median(reserved_grown), wm, median(reserved) / wm, median(mib), median(cf), median(rf));
    std::fflush(stdout);
  }
  memory_table();
}
