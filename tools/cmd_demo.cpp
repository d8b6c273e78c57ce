// tools/cmd_demo.cpp: `lddb demo`: Block A* against its reference searches on a built-in map.
//
// A 256x256 rooms map generated with a fixed seed, a fixed set of random queries (our own
// integer PRNG, so every platform gets the same ones), and a table in the manner of the
// paper's Table 1: each algorithm's mean length, expansions and time per query, and its
// speed-up over octile A*. Every path is checked by the independent checker; octile
// Block A* must match A*'s optimal lengths exactly. One query is drawn as SVG.
//
// The shipped databases (lddb/octile-4.lddb, lddb/any-angle-4.lddb, or $LDDB_DATA_DIR)
// are used when present; otherwise they are generated in memory first (about a second).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "cli_search.hpp"
#include "commands.hpp"
#include "lddb/generator.hpp"
#include "lddb/mapgen.hpp"
#include "lddb/splitmix.hpp"

namespace lddb::cli {

namespace {

struct demo_args {
  std::string out = "lddb-demo.svg";
  int queries = 20;
};


namespace fs = std::filesystem;

constexpr int kSide = 256, kRoom = 15, kBlock = 4;
constexpr std::uint64_t kMapSeed = 1, kQuerySeed = 2011;
constexpr int kRepeats = 5;  // timed passes over the queries, after one untimed pass

// The shipped database for a rule, else one generated in memory.
std::shared_ptr<const database> demo_database(const rule& r, std::string* source) {
  const fs::path path = fs::path(default_data_dir()) / database_file_name(r, kBlock);
  std::error_code ec;
  if (fs::exists(path, ec)) {
    *source = path.string();
    return open_database(path.string());
  }
  recipe rec;
  rec.movement = r;
  rec.block = kBlock;
  rec.zstd_level = 1;
  const auto t0 = std::chrono::steady_clock::now();
  const database_image image = generate(rec, generate_options{});
  const std::vector<std::uint8_t> bytes = encode_database(image);
  database::open_result opened = database::open_bytes(bytes, "memory:" + database_file_name(r, kBlock));
  if (!opened) throw failure(opened.message);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  *source = "generated in memory in " + format_fixed(s, 2) + " s (" + path.string() + " is missing)";
  return opened.db;
}

struct row_result {
  std::string name;
  const search_setup* setup;
  std::vector<query_run> runs;  // one per query, from the last timed pass
  double mean_length = 0, mean_expanded = 0, mean_us = 0;
  int valid = 0;
};

int run_demo(const demo_args& a) {
  if (a.queries < 1 || a.queries > 1000) throw usage_error("--queries must be 1..1000");
  check_output_path("--out", a.out);  // now, not after the searches have run
  const grid_map base = make_rooms_map(kSide, kSide, kRoom, kMapSeed, kBlock);
  std::printf("lddb demo: Block A* and its reference searches on a generated map\n");
  // What the table's names mean, for a reader who has not read the paper.
  std::printf("Block A*: A* over blocks of %dx%d cells, with the costs across a block looked up in a precomputed "
              "database (LDDB)\n"
              "Octile: steps between neighbouring cell centres, 8 ways (a diagonal costs \u221a2); any-angle: straight "
              "lines between cell corners at any angle\n\n",
              kBlock, kBlock);
  std::printf("map        %dx%d rooms of %dx%d cells (make_rooms_map, seed %llu), %llu blocked cells\n", kSide, kSide,
              kRoom, kRoom, static_cast<unsigned long long>(kMapSeed),
              static_cast<unsigned long long>(base.blocked_count()));

  // Queries: random free cells at least a quarter of the map apart (the map is connected).
  std::vector<std::pair<point, point>> queries;
  std::uint64_t state = kQuerySeed;
  auto random_free = [&]() {
    for (;;) {
      const point p{static_cast<int>(splitmix64(state) % kSide), static_cast<int>(splitmix64(state) % kSide)};
      if (!base.blocked(p.x, p.y)) return p;
    }
  };
  while (static_cast<int>(queries.size()) < a.queries) {
    const point s = random_free(), g = random_free();
    if (std::max(std::abs(s.x - g.x), std::abs(s.y - g.y)) >= kSide / 4) queries.push_back({s, g});
  }
  std::printf("queries    %d, random free cells at least %d apart (seed %llu); any-angle searches use the cells'\n"
              "           top-left corners\n",
              a.queries, kSide / 4, static_cast<unsigned long long>(kQuerySeed));

  std::string octile_source, any_source;
  search_setup octile_block, any_block;
  octile_block.algo = any_block.algo = algorithm::block_astar;
  octile_block.movement = rule::octile();
  any_block.movement = rule::any_angle();
  octile_block.db = demo_database(octile_block.movement, &octile_source);
  any_block.db = demo_database(any_block.movement, &any_source);
  octile_block.db_path = octile_source;
  any_block.db_path = any_source;
  std::printf("databases  octile-4: %s\n           any-angle-4: %s\n\n", octile_source.c_str(), any_source.c_str());

  // The searches' own paths, as the paper compares them; then Block A* as a game gets it by
  // default (any-angle: smoothed in the search call).
  search_options raw;
  raw.smooth = false;
  search_setup astar_setup{algorithm::astar, rule::octile(), nullptr, "", raw};
  search_setup theta_setup{algorithm::theta, rule::any_angle(), nullptr, "", raw};
  search_setup lazy_setup{algorithm::lazy_theta, rule::any_angle(), nullptr, "", raw};
  octile_block.options.smooth = any_block.options.smooth = false;
  search_setup any_smooth = any_block;
  any_smooth.options.smooth = std::nullopt;

  std::vector<row_result> rows{{"A*", &astar_setup, {}},
                               {"Block A*", &octile_block, {}},
                               {"Theta*", &theta_setup, {}},
                               {"Lazy Theta*", &lazy_setup, {}},
                               {"Block A*", &any_block, {}},
                               {"Block A* + smoothing", &any_smooth, {}}};
  search_context ctx;
  for (row_result& row : rows) {
    grid_map map = base;
    map.set_block_size(block_size_for(*row.setup));
    double total_us = 0;
    for (int pass = 0; pass <= kRepeats; ++pass) {
      row.runs.clear();
      for (const auto& [s, g] : queries) {
        row.runs.push_back(run_query(*row.setup, map, s, g, ctx));
        if (pass > 0) total_us += static_cast<double>(row.runs.back().search_ns) / 1000.0;
      }
    }
    for (const query_run& r : row.runs) {
      row.mean_length += r.length / a.queries;
      row.mean_expanded += static_cast<double>(r.result.stats.expanded) / a.queries;
      if (r.check.valid) ++row.valid;
    }
    row.mean_us = total_us / (kRepeats * a.queries);
  }

  // Octile Block A* must be optimal: the same lengths as A*.
  int mismatches = 0;
  for (std::size_t q = 0; q < queries.size(); ++q)
    if (!(std::abs(rows[1].runs[q].length - rows[0].runs[q].length) <= 1e-6)) ++mismatches;

  const double astar_us = rows[0].mean_us, theta_length = rows[2].mean_length;
  std::vector<std::vector<std::string>> table{
      {"algorithm", "rule", "mean length", "vs Theta*", "mean expanded", "mean \u00b5s", "speed-up vs A*", "valid paths"}};
  for (const row_result& row : rows) {
    const bool any = row.setup->movement.on_vertices();
    // Block A*'s nodes: blocks, and open squares for any-angle.
    const std::string unit = row.setup->algo == algorithm::block_astar ? " nodes" : (any ? " vertices" : " cells");
    table.push_back({row.name, row.setup->movement.name(), format_fixed(row.mean_length, 3),
                     any ? (row.mean_length >= theta_length ? "+" : "") +
                               format_fixed((row.mean_length / theta_length - 1) * 100, 2) + "%"
                         : "",
                     format_fixed(row.mean_expanded, 1) + unit, format_fixed(row.mean_us, 1),
                     format_fixed(astar_us / row.mean_us, 2) + "x",
                     std::to_string(row.valid) + "/" + std::to_string(a.queries)});
  }
  print_table(stdout, table, {2, 3, 4, 5, 6, 7});
  std::printf("\nTimes: the search call alone (the smoothing row's smooths, the library's default for any-angle), mean "
              "of %d passes, one thread.\n",
              kRepeats);
  std::printf("Octile Block A* lengths equal to A*'s (optimal): %d of %d.\n", a.queries - mismatches, a.queries);

  // The picture: the query with the longest A* path.
  std::size_t pick = 0;
  for (std::size_t q = 1; q < queries.size(); ++q)
    if (rows[0].runs[q].length > rows[0].runs[pick].length) pick = q;
  const auto [ps, pg] = queries[pick];
  std::vector<query_run> drawn;
  std::vector<const search_setup*> drawn_setups{&any_block, &theta_setup, &astar_setup};
  std::vector<std::string> names{"Block A* (any-angle)", "Theta* (any-angle)", "A* (octile)"};
  for (const search_setup* s : drawn_setups) {
    grid_map map = base;
    map.set_block_size(block_size_for(*s));
    const query_run timed = run_query(*s, map, ps, pg, ctx);
    drawn.push_back(run_query(*s, map, ps, pg, ctx, true));
    drawn.back().search_ns = timed.search_ns;
  }
  svg_picture pic;
  pic.map = &base;
  pic.title = "lddb demo: " + std::to_string(kSide) + "x" + std::to_string(kSide) + " rooms map, query " +
              std::to_string(pick) + " " + point_text(ps) + " to " + point_text(pg);
  pic.start = ps;
  pic.goal = pg;
  pic.vertices = false;
  pic.block_lines = block_size_for(any_block);
  for (std::size_t k = 0; k < drawn.size(); ++k) pic.searches.push_back(svg_search{names[k], drawn_setups[k], &drawn[k]});
  write_file_atomically(a.out, render_svg(pic));
  std::printf("Wrote %s (query %zu: Block A*, Theta* and A* paths with what each expanded).\n", a.out.c_str(), pick);
  std::fflush(stdout);

  int invalid = 0;
  for (const row_result& row : rows) invalid += a.queries - row.valid;
  if (invalid || mismatches) {
    std::fprintf(stderr, "lddb demo: %d invalid or missing paths, %d octile lengths differ from A*\n", invalid,
                 mismatches);
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace

void add_demo_command(CLI::App& app, command_action& chosen) {
  auto a = std::make_shared<demo_args>();
  auto* cmd = app.add_subcommand(
      "demo", "Run Block A* and A*, Theta*, Lazy Theta* on a generated map; print a table, write an SVG");
  cmd->add_option("--out,-o", a->out, "The picture (written atomically)")->capture_default_str();
  cmd->add_option("--queries", a->queries, "Number of random queries")->check(whole_number(1, 1000))->capture_default_str();
  cmd->callback([a, &chosen] { chosen = [a] { return run_demo(*a); }; });
}

}  // namespace lddb::cli
