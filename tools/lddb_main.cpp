// tools/lddb_main.cpp: the `lddb` command-line program.
//
//   lddb gen     build a database for a movement rule and block size
//   lddb verify  check that database files are intact
//   lddb dump    show what a database holds, down to one pattern's entry
//   lddb info    open and verify every database shipped in lddb/ and summarise them
//   lddb solve   one query on a map with Block A* or a reference search, path checked
//   lddb bench   every query of Moving AI scenario files: CSV rows and a summary
//   lddb render  a map, the searches of one query and what they expanded, as SVG
//   lddb demo    Block A* against A*, Theta* and Lazy Theta* on a generated map
//
// This file only wires CLI11 to the subcommands (tools/cmd_*.cpp) and turns every error
// into one line on stderr and an exit status below 128.
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <cstdio>
#include <exception>
#include <iostream>
#include <new>
#include <string>

#include <CLI/CLI.hpp>

#include "cli_common.hpp"
#include "cli_options.hpp"
#include "cli_search.hpp"
#include "lddb/generator.hpp"

namespace {

using namespace lddb::cli;

const char* const kGenFooter = R"(Rules: tile, octile, any-angle, with options after a colon, e.g.
  octile:corners=one-side-free,diagonal=1.5   any-angle:squeeze=allowed
Examples:
  lddb gen --rule octile --block 4 --out lddb/octile-4.lddb
  lddb gen --rule any-angle --squeeze allowed --block 3 --out aa3.lddb --threads 2
  lddb gen --like lddb/tile-4.lddb --out tile-4-again.lddb
)";

const char* const kDumpFooter = R"(Examples:
  lddb dump lddb/octile-4.lddb
  lddb dump lddb/any-angle-4.lddb --pattern 0x0660
  lddb dump lddb/any-angle-4.lddb --pattern 0x0660 --pair 0,9
  lddb dump lddb/tile-4.lddb --json | python3 -m json.tool
)";

const char* const kSearchRules = R"(Algorithms: block-astar (the default; needs a database), astar (tile, octile),
  theta and lazy-theta (any-angle). The rule comes from --lddb when given, else --rule,
  else octile (any-angle for theta and lazy-theta). Block A* opens --lddb, else the
  shipped database <data dir>/<rule>-4.lddb ($LDDB_DATA_DIR, else the source tree's lddb/).
Points are cells for tile and octile, corners (vertex X,Y = top-left corner of cell X,Y)
for any-angle.
)";

const char* const kSolveFooter = R"(Examples:
  lddb solve --map maps/arena.map --from 1,11 --to 40,30
  lddb solve --map maps/arena.map --from 1,11 --to 40,30 --lddb lddb/any-angle-4.lddb --smooth
  lddb solve --map maps/arena.map --from 1,11 --to 40,30 --algo theta --json
)";

const char* const kBenchFooter = R"(--scen takes a .scen file or a folder (every *.scen below it, sorted). A query's map is
the path the scenario names if it exists beside the scenario, else the file of the same
base name beside it; --map overrides it for a single scenario file. --limit N runs the
first N queries of each file. Only the search call is timed. --threads N solves the
queries N at a time (lddb/batch.hpp; one search context per thread); every path is still
checked, and every output but the times is the same for any N. The summary ends with the
searches' wall time and throughput (queries/s), the largest search state of one context
(bytes) and the peak resident memory. Exit status 1 when a path is missing or invalid, or
(octile rule) a length differs from the scenario's optimum.
Examples:
  lddb bench --scen ../shared/maps/dao --algo block-astar --csv dao.csv
  lddb bench --scen ../shared/maps/bg512/AR0500SR.map.scen --algo theta --limit 100
  lddb bench --scen ../shared/maps/bg512/AR0500SR.map.scen --rule any-angle --threads 2
)";

const char* const kRenderFooter = R"(--algo may repeat, each NAME or NAME:RULE (e.g. block-astar:any-angle); the rule after
the ':' overrides --rule for that one; --lddb serves the block-astar entries.
Examples:
  lddb render --map maps/arena.map --out arena.svg
  lddb render --map maps/arena.map --from 1,11 --to 40,30 --algo block-astar:any-angle \
      --algo theta --algo astar --out arena-paths.svg
)";

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"lddb: build, check and inspect Local Distance Databases, and find paths on grid maps with Block A*"};
  app.set_version_flag("--version", std::string(lddb::kGeneratorVersion));
  app.require_subcommand(1);
  app.footer("Run `lddb <command> --help` for a command's options.");

  // ---- gen
  gen_args gen;
  auto* gen_cmd = app.add_subcommand("gen", "Generate a database for a movement rule and block size");
  auto* rule_opt = gen_cmd->add_option("--rule,-r", gen.rule_text,
                                       "Movement rule: tile, octile, any-angle (options after ':')");
  auto* block_opt = gen_cmd->add_option("--block,-b", gen.block, "Block size b (b x b cells), 2..5")
                        ->check(whole_number(2, 5))
                        ->capture_default_str();
  gen_cmd->add_option("--out,-o", gen.out, "Output file (written atomically)")->required();
  gen_cmd->add_option("--threads,-j", gen.threads, "Worker threads; 0 = all cores")
      ->check(whole_number(0, 1024))
      ->capture_default_str();
  auto* corners_opt = gen_cmd->add_option("--corners", gen.corners, "Octile corner cutting")
                          ->check(CLI::IsMember({"forbidden", "one-side-free"}));
  auto* diagonal_opt =
      gen_cmd->add_option("--diagonal", gen.diagonal, "Octile diagonal cost: sqrt2 or a number in [1, 2]");
  auto* squeeze_opt = gen_cmd->add_option("--squeeze", gen.squeeze, "Any-angle squeezing through double corners")
                          ->check(CLI::IsMember({"forbidden", "allowed"}));
  gen_cmd->add_flag("--stats", gen.stats, "Print the size after each compression stage");
  auto* nosym_opt = gen_cmd->add_flag("--no-symmetry", gen.no_symmetry,
                                      "Store every pattern instead of one per symmetry class");
  auto* zstd_opt = gen_cmd->add_option("--zstd-level", gen.zstd_level, "zstd level 1..22; 0 stores sections raw [19]")
                       ->check(whole_number(0, 22));
  auto* like_opt = gen_cmd->add_option("--like", gen.like,
                                       "Rebuild with the recipe recorded in this database (byte-identical)");
  for (CLI::Option* o : {rule_opt, block_opt, corners_opt, diagonal_opt, squeeze_opt, nosym_opt, zstd_opt})
    like_opt->excludes(o);
  gen_cmd->footer(kGenFooter);

  // ---- verify
  std::vector<std::string> verify_files;
  auto* verify_cmd = app.add_subcommand("verify", "Check that database files are intact (exit 0 only if all are)");
  verify_cmd->add_option("FILE", verify_files, "Database files")->required();

  // ---- dump
  dump_args dump;
  auto* dump_cmd = app.add_subcommand("dump", "Show a database's header, manifest, sections, statistics and entries");
  dump_cmd->add_option("FILE", dump.file, "Database file")->required();
  dump_cmd->add_flag("--json", dump.json, "Print JSON instead of text");
  dump_cmd->add_flag("--no-stats", dump.no_stats, "Skip the statistics that read every table");
  auto* pattern_opt =
      dump_cmd->add_option("--pattern,-p", dump.pattern, "Show one block pattern (pattern_code, decimal or 0x hex)");
  dump_cmd->add_option("--pair", dump.pair, "With --pattern: only the pair A,B of boundary indices")
      ->needs(pattern_opt);
  dump_cmd->footer(kDumpFooter);

  // ---- info
  info_args info;
  auto* info_cmd = app.add_subcommand("info", "Open and verify every database shipped in lddb/ and summarise them");
  info_cmd->add_option("--dir", info.dir, "Database folder (default: $LDDB_DATA_DIR, else the source tree's lddb/)");

  // ---- solve
  solve_args solve;
  auto* solve_cmd = app.add_subcommand("solve", "Find one path on a map and check it");
  solve_cmd->add_option("--map,-m", solve.map, "Moving AI .map file")->required();
  solve_cmd->add_option("--from", solve.from, "Start X,Y (a cell; a corner for any-angle)")->required();
  solve_cmd->add_option("--to", solve.to, "Goal X,Y (a cell; a corner for any-angle)")->required();
  solve_cmd->add_option("--rule,-r", solve.rule_text, "Movement rule (default: the database's, else octile)");
  solve_cmd->add_option("--algo,-a", solve.algo, "block-astar (default), astar, theta or lazy-theta");
  solve_cmd->add_option("--lddb", solve.lddb, "Database for block-astar (default: the shipped one for the rule)");
  solve_cmd->add_option("--heuristic", solve.heuristic, "zero, manhattan, octile or euclidean (default: the rule's)");
  solve_cmd->add_flag("--smooth", solve.smooth, "Smooth the path (line-of-sight shortcuts)");
  solve_cmd->add_flag("--json", solve.json, "Print JSON instead of text");
  solve_cmd->add_flag("--fixed-blocks", solve.fixed_blocks, "Any-angle Block A*: the paper's fixed blocks, no open squares");
  solve_cmd->footer(std::string(kSearchRules) + kSolveFooter);

  // ---- bench
  bench_args bench;
  auto* bench_cmd = app.add_subcommand("bench", "Run every query of Moving AI scenario files and summarise");
  bench_cmd->add_option("--scen,-s", bench.scen, "A .scen file, or a folder searched for *.scen");
  bench_cmd->add_option("--map,-m", bench.map, "The map for a single scenario file (default: resolved from it)");
  bench_cmd->add_option("--algo,-a", bench.algo, "block-astar, astar, theta or lazy-theta")->capture_default_str();
  bench_cmd->add_option("--rule,-r", bench.rule_text, "Movement rule (default: the database's, else octile)");
  bench_cmd->add_option("--lddb", bench.lddb, "Database for block-astar (default: the shipped one for the rule)");
  bench_cmd->add_option("--heuristic", bench.heuristic, "zero, manhattan, octile or euclidean (default: the rule's)");
  bench_cmd->add_flag("--smooth", bench.smooth, "Smooth every path (timed apart)");
  bench_cmd->add_flag("--fixed-blocks", bench.fixed_blocks, "Any-angle Block A*: the paper's fixed blocks, no open squares");
  bench_cmd->add_option("--csv", bench.csv, "Write one CSV row per query here");
  bench_cmd->add_option("--paths", bench.paths, "Write each query's waypoints here, one query a line");
  bench_cmd->add_option("--limit", bench.limit, "Run at most N queries of each scenario file (the rest is not read)")
      ->check(whole_number(1, UINT64_MAX));
  bench_cmd->add_option("--threads,-j", bench.threads, "Search threads (a batch_solver); 0 = all cores")
      ->check(whole_number(0, 1024))
      ->capture_default_str();
  bench_cmd->footer(std::string(kSearchRules) + kBenchFooter);

  // ---- render
  render_args render;
  auto* render_cmd = app.add_subcommand("render", "Draw a map and the searches of one query as SVG");
  render_cmd->add_option("--map,-m", render.map, "Moving AI .map file")->required();
  render_cmd->add_option("--from", render.from, "Start X,Y");
  render_cmd->add_option("--to", render.to, "Goal X,Y");
  render_cmd->add_option("--algo,-a", render.algos, "Algorithm to draw (repeatable): NAME or NAME:RULE");
  render_cmd->add_option("--rule,-r", render.rule_text, "Movement rule for every algorithm without its own");
  render_cmd->add_option("--lddb", render.lddb, "Database for block-astar");
  render_cmd->add_option("--heuristic", render.heuristic, "zero, manhattan, octile or euclidean");
  render_cmd->add_flag("--smooth", render.smooth, "Smooth the paths");
  render_cmd->add_flag("--fixed-blocks", render.fixed_blocks, "Any-angle Block A*: the paper's fixed blocks, no open squares");
  render_cmd->add_option("--out,-o", render.out, "Output .svg file (written atomically)")->required();
  render_cmd->footer(std::string(kSearchRules) + kRenderFooter);

  // ---- demo
  demo_args demo;
  auto* demo_cmd = app.add_subcommand(
      "demo", "Run Block A* and A*, Theta*, Lazy Theta* on a generated map; print a table, write an SVG");
  demo_cmd->add_option("--out,-o", demo.out, "The picture (written atomically)")->capture_default_str();
  demo_cmd->add_option("--queries", demo.queries, "Number of random queries")->check(whole_number(1, 1000))->capture_default_str();

  // CLI11 would only say "a subcommand is required" for a misspelt one; name it instead.
  if (argc > 1 && argv[1][0] != '-') {
    const std::string first = argv[1];
    bool known = false;
    for (const CLI::App* sub : app.get_subcommands({})) known = known || sub->get_name() == first;
    if (!known) {
      std::cerr << "lddb: error: unknown command '" << first
                << "' (expected gen, verify, dump, info, solve, bench, render or demo)\n"
                << "(run `lddb --help` for usage)\n";
      return kExitUsage;
    }
  }

  if (const std::optional<int> status = parse_command_line(app, "lddb", argc, argv)) return *status;
  if (gen_cmd->parsed()) return run_command("lddb gen", [&] { return run_gen(gen); });
  if (verify_cmd->parsed()) return run_command("lddb verify", [&] { return run_verify(verify_files); });
  if (dump_cmd->parsed()) return run_command("lddb dump", [&] { return run_dump(dump); });
  if (info_cmd->parsed()) return run_command("lddb info", [&] { return run_info(info); });
  if (solve_cmd->parsed()) return run_command("lddb solve", [&] { return run_solve(solve); });
  if (bench_cmd->parsed())
    return run_command("lddb bench", [&] {
      if (bench.scen.empty()) throw usage_error("--scen is required (a .scen file or a folder)");
      return run_bench(bench);
    });
  if (render_cmd->parsed()) return run_command("lddb render", [&] { return run_render(render); });
  if (demo_cmd->parsed()) return run_command("lddb demo", [&] { return run_demo(demo); });
  return kExitUsage;
}
