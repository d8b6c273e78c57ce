// A program that uses an installed lddb as a game would: it opens a shipped database,
// builds a map in code, runs Block A* and prints the path's length. Exits 1 on failure.
// Usage: consumer DATABASE (e.g. PREFIX/share/lddb/octile-4.lddb)
#include <cstdio>

#include "lddb/grid.hpp"
#include "lddb/search.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DATABASE\n", argv[0]);
    return 2;
  }
  auto opened = lddb::database::open(argv[1]);
  if (!opened) {
    std::fprintf(stderr, "consumer: %s\n", opened.message.c_str());
    return 1;
  }
  // 64 x 64 cells, a wall across x = 32 with one gap at the bottom.
  lddb::grid_map map(64, 64, opened.db->info().block);
  for (int y = 0; y < 60; ++y) map.set_blocked(32, y, true);

  lddb::search_context ctx;
  lddb::search_options opt(lddb::default_heuristic(opened.db->movement()));
  const lddb::search_result r = lddb::block_astar(*opened.db, map, {2, 2}, {60, 2}, opt, ctx);
  if (!r.found()) {
    std::fprintf(stderr, "consumer: %s: %s\n", lddb::search_status_name(r.status), r.message.c_str());
    return 1;
  }
  std::printf("consumer: %s: path of %zu points, length %.3f, %llu expansions\n", argv[1], r.path.size(), r.length,
              static_cast<unsigned long long>(r.stats.expanded));
  return 0;
}
