// instr_queries: a fixed set of queries for every shipped database and every default
// search, for counting their instructions under callgrind (scripts/instr_guard.sh compares
// the counts with tests/fingerprint/instructions.txt). Instruction counts do not move with
// the load on the machine, so a rise of a few percent is a real rise.
//
// A group is one search under one rule on one map: Block A* with search_options{} defaults
// and the portable min-plus loops (vector_kernels = false, so that the count is the same on
// every x86-64 CPU), Block A* with the AVX2 kernels for any-angle (the only default search
// that runs them; measured only where the CPU has AVX2), A* for tile and octile, Theta* and
// Lazy Theta* for any-angle, and Block A* on the map as lddb::prepare leaves it (the default
// preparation, built whole before counting; portable loops). Each group first loads its map, reserves its search_context
// and runs every query once, uninstrumented; then callgrind counts only the queries
// themselves, and the group ends with CALLGRIND_DUMP_STATS_AT(group), so that each group has
// a dump file of its own. Run it as
//   valgrind --tool=callgrind --instr-atstart=no --collect-atstart=no instr_queries
// Without valgrind's header (Debian: valgrind) or outside valgrind it runs the same queries
// and counts nothing.
//
// Standard output: one line per group, "group SEARCH RULE MAP queries=N found=F", or
// "skipped SEARCH RULE MAP: why" for a group this CPU cannot run.
// Usage: instr_queries [MAPS_DIR]   (default $LDDB_MAPS_DIR, else SOURCE_DIR/../shared/maps)
// Exit status: 0, 77 when MAPS_DIR is missing (nothing measured), 2 on an error.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "lddb/format.hpp"
#include "lddb/grid.hpp"
#include "lddb/map_file.hpp"
#include "lddb/prepare.hpp"
#include "lddb/scenario.hpp"
#include "lddb/search.hpp"
#include "lddb/find_path.hpp"

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define LDDB_HAVE_CALLGRIND 1
#endif
#endif
#ifndef LDDB_HAVE_CALLGRIND
#define CALLGRIND_START_INSTRUMENTATION
#define CALLGRIND_STOP_INSTRUMENTATION
#define CALLGRIND_TOGGLE_COLLECT
#define CALLGRIND_DUMP_STATS_AT(name) static_cast<void>(name)
#define RUNNING_ON_VALGRIND 0
#endif

namespace {

namespace fs = std::filesystem;

// One map of each family of the benchmark maps; changing this list, the number of queries
// or how they are picked changes every count (rewrite instructions.txt).
const char* const kMaps[] = {"bg512/AR0500SR", "dao/brc202d", "mazes/maze512-8-1", "random/random512-25-1",
                             "rooms/64room_001"};
const char* const kRules[] = {"tile-4", "octile-4", "any-angle-4"};
constexpr std::size_t kQueriesPerMap = 20;

enum class search { block_astar, block_astar_avx2, block_astar_prepared, astar, theta, lazy_theta };

const char* search_name(search s) {
  switch (s) {
    case search::block_astar: return "block-astar";
    case search::block_astar_avx2: return "block-astar/avx2";
    case search::block_astar_prepared: return "block-astar/prepared";
    case search::astar: return "astar";
    case search::theta: return "theta";
    case search::lazy_theta: return "lazy-theta";
  }
  return "?";
}

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "instr_queries: %s\n", what.c_str());
  std::exit(2);
}

// kQueriesPerMap of the scenario's queries at even steps over the first half of the file,
// ending with the last of that half. Most files list their queries shortest first, so this
// covers the short and middle lengths (on brc202d up to 500 units, on the maze up to 1900;
// bg512's file is in no order, so there it spans every length). The longest half would take
// most of the run under callgrind for little more coverage.
std::vector<lddb::scenario_query> pick_queries(const std::string& scen_path) {
  std::string err;
  const auto scen = lddb::load_scenario(scen_path, &err);
  if (!scen) fail(err);
  const std::size_t n = scen->queries.size() / 2;
  if (n < kQueriesPerMap) fail(scen_path + ": " + std::to_string(2 * n) + " queries, fewer than twice the " +
                               std::to_string(kQueriesPerMap) + " measured");
  std::vector<lddb::scenario_query> picked;
  for (std::size_t i = 1; i <= kQueriesPerMap; ++i) picked.push_back(scen->queries[i * n / kQueriesPerMap - 1]);
  return picked;
}

void run(search s, const lddb::database& db, const lddb::grid_map& map, const lddb::scenario_query& q,
         lddb::search_context& ctx, lddb::search_result& out) {
  lddb::search_options opt;
  opt.diagnostics.vector_kernels = s == search::block_astar_avx2;
  const lddb::rule& r = db.movement();
  switch (s) {
    case search::block_astar:
    case search::block_astar_prepared:
    case search::block_astar_avx2: lddb::find_path(db, map, q.start, q.goal, opt, ctx, out); break;
    case search::astar: lddb::astar(r, map, q.start, q.goal, opt, ctx, out); break;
    case search::theta: lddb::theta_star(r, map, q.start, q.goal, opt, ctx, out); break;
    case search::lazy_theta: lddb::lazy_theta_star(r, map, q.start, q.goal, opt, ctx, out); break;
  }
}

// One group: warm up uninstrumented, then count the queries alone and dump them.
void measure(search s, const lddb::database& db, const std::string& rule_name, const lddb::grid_map& loaded,
             const std::string& map_name, const std::vector<lddb::scenario_query>& queries) {
  const std::string group = std::string(search_name(s)) + " " + rule_name + " " + map_name;
  if (s == search::block_astar_avx2 && !lddb::vector_kernels_available()) {
    std::printf("skipped %s: this CPU has no AVX2, so the vector kernels do not run here\n", group.c_str());
    return;
  }
  // The prepared group searches a copy prepared whole (lddb/prepare.hpp), uncounted.
  lddb::grid_map prepared = s == search::block_astar_prepared ? loaded : lddb::grid_map(1, 1);
  if (s == search::block_astar_prepared) {
    lddb::prepare_options o;
    o.mode = lddb::prepare_mode::complete;
    lddb::prepare(db, prepared, o);
  }
  const lddb::grid_map& map = s == search::block_astar_prepared ? prepared : loaded;
  lddb::search_context ctx;
  if (s != search::astar && s != search::theta && s != search::lazy_theta) ctx.reserve(db, map);
  else ctx.reserve(db.movement(), map);
  lddb::search_result out;
  out.path.reserve(1 << 16);
  for (const auto& q : queries) run(s, db, map, q, ctx, out);

  std::size_t found = 0;
  CALLGRIND_START_INSTRUMENTATION;
  CALLGRIND_TOGGLE_COLLECT;
  for (const auto& q : queries) {
    run(s, db, map, q, ctx, out);
    found += out.found();
  }
  CALLGRIND_TOGGLE_COLLECT;
  CALLGRIND_STOP_INSTRUMENTATION;
  CALLGRIND_DUMP_STATS_AT(group.c_str());
  std::printf("group %s queries=%zu found=%zu\n", group.c_str(), queries.size(), found);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
    std::fprintf(stderr, "usage: instr_queries [MAPS_DIR]\n");
    return 2;
  }
  fs::path maps_dir = fs::path(LDDB_SOURCE_DIR) / ".." / "shared" / "maps";
  if (const char* env = std::getenv("LDDB_MAPS_DIR"); env && *env) maps_dir = env;
  if (argc == 2) maps_dir = argv[1];
  std::error_code ec;
  if (!fs::is_directory(maps_dir, ec)) {
    std::fprintf(stderr,
                 "instr_queries: SKIPPED, nothing measured: the benchmark maps folder %s is missing "
                 "(give MAPS_DIR or set LDDB_MAPS_DIR)\n",
                 maps_dir.string().c_str());
    return 77;
  }
  if (!RUNNING_ON_VALGRIND)
    std::fprintf(stderr, "instr_queries: not under valgrind: the queries run, nothing is counted\n");

  std::vector<std::shared_ptr<const lddb::database>> dbs;
  for (const char* rule : kRules) {
    const auto opened = lddb::database::open(std::string(LDDB_DEFAULT_DATA_DIR) + "/" + rule + ".lddb");
    if (!opened) fail(opened.message);
    dbs.push_back(opened.db);
  }
  for (const char* map_name : kMaps) {
    const fs::path base = maps_dir / map_name;
    std::string err;
    const auto map = lddb::load_map(base.string() + ".map", &err, dbs.front()->info().block);
    if (!map) fail(err);
    const auto queries = pick_queries(base.string() + ".map.scen");
    for (std::size_t i = 0; i < dbs.size(); ++i) {
      const lddb::database& db = *dbs[i];
      const std::vector<search> searches =
          db.movement().on_vertices()
              ? std::vector<search>{search::block_astar, search::block_astar_avx2, search::block_astar_prepared,
                                    search::theta, search::lazy_theta}
              : std::vector<search>{search::block_astar, search::block_astar_prepared, search::astar};
      for (search s : searches) measure(s, db, kRules[i], *map, map_name, queries);
    }
  }
  return 0;
}
