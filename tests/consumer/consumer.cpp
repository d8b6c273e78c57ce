// A program that uses an installed lddb as a game would: it opens the shipped databases,
// builds a map from text (lddb::io), runs Block A* on each and prints the path's length.
// Exits 1 on failure.
// Usage: consumer [DATABASE...]; with none, tile-4, octile-4 and any-angle-4 as
// lddb::find_database finds them (the folder beside the program or the library).
#include <cstdio>
#include <string>
#include <vector>

#include "lddb/data_dir.hpp"
#include "lddb/grid.hpp"
#include "lddb/map_file.hpp"
#include "lddb/search.hpp"
#include "lddb/find_path.hpp"

namespace {

// 64 x 64 cells, a wall across x = 32 with a gap at the bottom, in Moving AI's format.
std::string level_text() {
  std::string text = "type octile\nheight 64\nwidth 64\nmap\n";
  for (int y = 0; y < 64; ++y) text += std::string(32, '.') + (y < 60 ? '@' : '.') + std::string(31, '.') + "\n";
  return text;
}

bool run(const std::string& path) {
  auto opened = lddb::database::open(path);
  if (!opened) {
    std::fprintf(stderr, "consumer: %s\n", opened.message.c_str());
    return false;
  }
  std::string error;
  auto map = lddb::parse_map(level_text(), "level", &error, opened.db->info().block);
  if (!map) {
    std::fprintf(stderr, "consumer: %s\n", error.c_str());
    return false;
  }
  lddb::search_context ctx;
  lddb::search_options opt(lddb::default_heuristic(opened.db->movement()));
  const lddb::search_result r = lddb::find_path(*opened.db, *map, {2, 2}, {60, 2}, opt, ctx);
  if (!r.found()) {
    std::fprintf(stderr, "consumer: %s: %s: %s\n", path.c_str(), lddb::search_status_name(r.status),
                 r.message.c_str());
    return false;
  }
  std::printf("consumer: %s: path of %zu points, length %.3f, %llu expansions\n", path.c_str(), r.path.size(),
              r.length, static_cast<unsigned long long>(r.stats.expanded));
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> paths(argv + 1, argv + argc);
  if (paths.empty()) {
    const lddb::data_dir_choice dir = lddb::find_data_dir();
    std::printf("consumer: databases in %s (%s)\n", dir.path.c_str(), dir.source.c_str());
    for (const char* name : {"tile-4.lddb", "octile-4.lddb", "any-angle-4.lddb"})
      paths.push_back(lddb::find_database(name));
  }
  bool ok = true;
  for (const std::string& p : paths) ok = run(p) && ok;
  return ok ? 0 : 1;
}
