// lddb-bench memory: what each structure of a map, its preparation and its search contexts
// holds, in bytes and bytes a cell, and the process's resident memory, on a Moving AI map
// drawn N times larger (every cell N x N), so that a 512 x 512 map stands for a 2048 x 2048 one.
//
// Each structure's size is its own count (the map's vectors from its sizes, the labels',
// the preparation's and the contexts' own reports); beside it, how much the process's
// resident set grew while it was built ("resident"), which differs where memory is
// allocated but not yet written (the system maps a page when it is first written).
#include "bench_memory.hpp"

#include <sys/resource.h>

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "cli_search.hpp"
#include "lddb/format.hpp"
#include "lddb/grid.hpp"
#include "lddb/map_file.hpp"
#include "lddb/prepare.hpp"
#include "lddb/search.hpp"
#include "lddb/find_path.hpp"
#include "lddb/splitmix.hpp"

namespace lddb::cli {

namespace {

// The process's resident set now, in bytes (Linux; 0 elsewhere).
std::size_t resident_bytes() {
  std::ifstream in("/proc/self/statm");
  std::size_t pages = 0, resident = 0;
  if (!(in >> pages >> resident)) return 0;
  return resident * 4096;
}

std::size_t peak_resident_bytes() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<std::size_t>(u.ru_maxrss) * 1024;  // kilobytes on Linux
}

// The map drawn `scale` times larger: cell (x, y) of the result is cell (x / scale, y / scale)
// (blocked or free: terrain letters are not drawn).
grid_map scaled(const grid_map& m, int scale) {
  if (scale == 1) return m;
  grid_map out(m.width() * scale, m.height() * scale, m.block());
  for (int y = 0; y < out.height(); ++y)
    for (int x = 0; x < out.width(); ++x)
      if (m.blocked(x / scale, y / scale)) out.set_blocked(x, y, true);
  return out;
}

class table {
 public:
  explicit table(double cells) : cells_(cells) {
    std::printf("%-44s %14s %10s %14s\n", "structure", "bytes", "bytes/cell", "resident");
  }
  // `resident`: the growth of the resident set it caused, or -1 when not measured apart.
  void row(const std::string& what, std::size_t bytes, long long resident = -1) {
    char res[32] = "";
    if (resident >= 0) std::snprintf(res, sizeof res, "%lld", resident);
    std::printf("%-44s %14zu %10.2f %14s\n", what.c_str(), bytes, static_cast<double>(bytes) / cells_, res);
  }

 private:
  double cells_;
};

// How much the resident set grows while `f` runs.
template <class F>
long long resident_growth(F&& f) {
  const std::size_t before = resident_bytes();
  f();
  return static_cast<long long>(resident_bytes()) - static_cast<long long>(before);
}

template <class F>
double timed(F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// `n` queries between free cells drawn from `seed`, by Block A* with default options.
void run_queries(const database& db, const grid_map& map, int n, std::uint64_t seed, search_context& ctx) {
  std::vector<point> free;
  for (int y = 0; y < map.height(); y += 3)
    for (int x = 0; x < map.width(); x += 3)
      if (!map.blocked(x, y)) free.push_back({x, y});
  if (free.empty()) return;
  const search_options options(default_heuristic(db.movement()));
  search_result out;
  for (int i = 0; i < n; ++i) {
    const point a = free[splitmix64(seed) % free.size()], b = free[splitmix64(seed) % free.size()];
    find_path(db, map, a, b, options, ctx, out);
  }
}

int run_memory(const memory_args& a) {
  std::string error;
  std::optional<grid_map> loaded = load_map(a.map, &error);
  if (!loaded) throw failure(error);
  const auto opened = database::open(default_data_dir() + "/" + a.rule + "-4.lddb");
  if (!opened) throw failure(opened.message);
  const database& db = *opened.db;
  const rule r = db.movement();

  const std::size_t base = resident_bytes();
  grid_map map = scaled(*loaded, a.scale);
  loaded.reset();
  const long long map_resident = static_cast<long long>(resident_bytes()) - static_cast<long long>(base);
  const std::size_t cells = static_cast<std::size_t>(map.width()) * static_cast<std::size_t>(map.height());
  std::printf("map %s drawn %dx: %dx%d, %zu cells (%" PRIu64 " blocked), rule %s\n\n", a.map.c_str(), a.scale,
              map.width(), map.height(), cells, map.blocked_count(), r.name().c_str());

  // The map's vectors, from their layout (lddb/grid.hpp).
  const std::size_t w = static_cast<std::size_t>(map.width()), h = static_cast<std::size_t>(map.height());
  const std::size_t bits = (w + 63) / 64 * 8 * h;
  const auto row_stride = static_cast<std::size_t>(map.row_line(1) - map.row_line(0));
  const auto column_stride = static_cast<std::size_t>(map.column_line(1) - map.column_line(0));
  const std::size_t scans = ((h + 2) * row_stride + (w + 2) * column_stride) * 8;
  const std::size_t bx = static_cast<std::size_t>(map.blocks_x()), by = static_cast<std::size_t>(map.blocks_y());
  const std::size_t codes = bx * by * 4;
  std::size_t groups = 0;
  for (int l = 1; l <= map.open_group_levels(); ++l) groups += (bx >> l) * (by >> l) * 4;
  const std::size_t journal = grid_map::kFreedJournal * 4;
  const std::size_t terrain = map.has_terrain() ? cells : 0;

  table t(static_cast<double>(cells));
  t.row("map: bits", bits);
  t.row("map: scan copies (rows, columns)", scans);
  t.row("map: block codes", codes);
  t.row("map: open-group counts", groups);
  t.row("map: freed journal", journal);
  if (terrain != 0) t.row("map: terrain", terrain);
  t.row("map, in all", bits + scans + codes + groups + journal + terrain, map_resident);

  std::size_t labels = 0;
  const long long labels_resident = resident_growth([&] {
    for (int i = 0; i < map.width() * map.height(); ++i) {  // built on the first ask about a free cell
      const int x = i % map.width(), y = i / map.width();
      if (!map.blocked(x, y)) {
        (void)map.same_component(connectivity_of(r), x, y, x, y);
        break;
      }
    }
    labels = map.component_bytes();
  });
  t.row("component labels (" + r.name() + ")", labels, labels_resident);

  std::size_t prepared = 0;
  std::string plan = "not prepared";
  const long long prepared_resident = resident_growth([&] {
    if (!a.prepare) return;
    prepare_options po;
    if (a.landmarks >= 0) po.landmarks = a.landmarks;
    prepare(db, map, po);
    while (!prepare_step(map, std::uint64_t{1} << 30)) {
    }
    const std::optional<preparation_report> rep = preparation_of(map, r);
    prepared = rep ? rep->bytes : 0;
    if (rep) plan = rep->text();
  });
  t.row("preparation", prepared, prepared_resident);

  reserve_options ro;
  if (a.prefault_bytes >= 0) ro.prefault_bytes = static_cast<std::size_t>(a.prefault_bytes);
  ro.every_search = a.every_search;
  search_context first, second, plain;
  const long long first_resident = resident_growth([&] { first.reserve(db, map, ro); });
  t.row("context, reserved", first.memory_bytes(), first_resident);
  double cold_ms = 0, warm_ms = 0;
  const long long first_q =
      resident_growth([&] { cold_ms = timed([&] { run_queries(db, map, a.queries, a.seed, first); }); });
  t.row("  + " + std::to_string(a.queries) + " queries", first.memory_bytes(), first_q);
  warm_ms = timed([&] { run_queries(db, map, a.queries, a.seed, first); });
  const long long second_resident = resident_growth([&] { second.reserve(db, map, ro); });
  t.row("further context, reserved", second.memory_bytes(), second_resident);
  const long long plain_resident = resident_growth([&] { run_queries(db, map, a.queries, a.seed, plain); });
  t.row("context not reserved, " + std::to_string(a.queries) + " queries", plain.memory_bytes(), plain_resident);

  const std::size_t now = resident_bytes(), peak = peak_resident_bytes();
  std::printf("\n%-44s %14zu %10.2f\n", "process resident now", now,
              static_cast<double>(now) / static_cast<double>(cells));
  std::printf("%-44s %14zu %10.2f\n", "process peak resident (getrusage)", peak,
              static_cast<double>(peak) / static_cast<double>(cells));
  std::printf("%-44s %14zu\n", "process resident before the map", base);
  std::printf("\nthe %d queries on the reserved context: %.3f ms the first time, %.3f ms again\n", a.queries, cold_ms,
              warm_ms);
  std::printf("prepared: %s\n", plan.c_str());
  return kExitOk;
}

const char* const kMemoryFooter = R"(
Loads MAP, draws every cell N x N (--scale), and reports what each structure holds: the
map's bits, its copies by rows and by columns for jump point search, block codes, open-group
counts and journal; the component labels of the rule; the preparation (lddb::prepare, then
prepare_step until ready); a search_context after search_context::reserve, the same after
--queries Block A* queries between free cells, a second reserved context, and a context
that was not reserved after the same queries. "resident" is how much the process's
resident set grew meanwhile. Example:
  lddb-bench memory ../shared/maps/bg512/AR0012SR.map --scale 4
)";

}  // namespace

void add_memory_command(CLI::App& app, command_action& chosen) {
  auto a = std::make_shared<memory_args>();
  auto* cmd = app.add_subcommand("memory", "What a map, its preparation and its search contexts hold");
  cmd->add_option("MAP", a->map, "Moving AI .map file")->required();
  cmd->add_option("--scale", a->scale, "Draw every cell N x N")->check(whole_number(1, 64))->capture_default_str();
  cmd->add_option("--rule", a->rule, "The shipped database's rule: tile, octile or any-angle")->capture_default_str();
  cmd->add_option("--queries", a->queries, "Queries on the contexts")->check(whole_number(0, 1000000))
      ->capture_default_str();
  cmd->add_option("--seed", a->seed, "Seed of the queries' endpoints")->capture_default_str();
  cmd->add_option("--landmarks", a->landmarks, "Landmarks instead of the preparation's choice")
      ->check(whole_number(0, 32));
  cmd->add_flag("!--no-prepare", a->prepare, "No lddb::prepare");
  cmd->add_option("--prefault-bytes", a->prefault_bytes, "reserve_options::prefault_bytes (default: its default)")
      ->check(whole_number(0, UINT64_MAX / 2));
  cmd->add_flag("--every-search", a->every_search, "reserve_options::every_search");
  cmd->footer(kMemoryFooter);
  cmd->callback([a, &chosen] { chosen = [a] { return run_memory(*a); }; });
}

}  // namespace lddb::cli
