// bench/lddb_bench_main.cpp: the `lddb-bench` program, lddb's benchmark harness (not part of
// the product `lddb`).
//
//   lddb-bench suite paper   the paper's benchmark (Yap et al. 2011): Tables 1 and 2 and the
//                            benchmark maps, as Markdown tables on stdout or into --doc, and
//                            a chart into --svg
//   lddb-bench memory MAP    what a map, its preparation and its search contexts hold, in
//                            bytes a cell, on the map drawn --scale times larger
//
// The Google Benchmark microbenchmarks beside it are their own programs (bench_lddb,
// bench_search).
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>

#include "bench_memory.hpp"
#include "cli_options.hpp"
#include "suite.hpp"

#ifndef LDDB_VERSION
#define LDDB_VERSION "unknown"
#endif

namespace {

using namespace lddb::cli;

const char* const kSuiteFooter = R"(
Runs the paper's benchmark (Yap et al. 2011) on one thread: Table 1 (random maps with 0-50%
obstacles, connected random pairs, Euclidean heuristic) and Table 2 (an empty 1000x1000 map,
zero heuristic), each with octile A*, Theta*, Lazy Theta* and any-angle Block A*; then every
folder of --maps with its scenario queries: the same comparison, and tile and octile Block A*
against A* (lengths must match). Every search returns its own path, not smoothed (the
library smooths any-angle paths by default), as the paper compares them; the "smoothed"
column applies smooth_path to Block A*'s. --limit N takes N evenly spaced queries of each scenario
file (0: all). The tables go to stdout; with --doc their summary goes into that file, replacing the part
between the lines <!-- suite:begin --> and <!-- suite:end --> (appending one when absent; the
rest of the file is kept); --svg writes a chart. Nothing else is written. Progress goes to
stderr; the exit status is 1 when a path is missing or invalid or a length check fails. The
defaults take about 25 minutes on 2 idle cores; --pairs, --empty-pairs, --maps-per-density,
--random-side, --empty-side and --densities make smaller runs (0 pairs skips a table).
Examples:
  lddb-bench suite paper --limit 10 --pairs 20 --empty-pairs 5 > tables.md
  lddb-bench suite paper --doc docs/benchmarks.md --svg docs/suite.svg
)";

void add_suite_command(CLI::App& app, command_action& chosen) {
  auto a = std::make_shared<suite_args>();
  auto* cmd = app.add_subcommand("suite", "Run a benchmark suite: paper (the paper's Tables 1 and 2 and the maps)");
  cmd->add_option("SUITE", a->suite, "The suite to run: paper")->required();
  cmd->add_option("--maps", a->maps, "Folder of map folders with .scen files [<source tree>/../shared/maps]");
  // The last --doc and --svg given count, so that a script's defaults can be overridden.
  cmd->add_option("--doc", a->doc,
                  "Markdown file for the summary tables, between its suite markers (default: every table on stdout)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  cmd->add_option("--svg", a->svg, "SVG file for the chart (default: no chart)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  cmd->add_option("--limit", a->limit,
                  "N evenly spaced queries of each scenario file, 0 = all [" +
                      std::to_string(suite_args::kDefaultLimit) + "]")
      ->check(whole_number(0, UINT64_MAX));
  cmd->add_option("--seed", a->seed, "Seed of the random maps and pairs")
      ->check(whole_number(0, UINT64_MAX))->capture_default_str();
  cmd->add_option("--densities", a->densities, "Table 1: obstacle percentages, comma-separated")->capture_default_str();
  cmd->add_option("--maps-per-density", a->maps_per_density, "Table 1: random maps per density")
      ->check(whole_number(1, 1000))->capture_default_str();
  cmd->add_option("--pairs", a->pairs, "Table 1: start/goal pairs per random map; 0 skips Table 1")
      ->check(whole_number(0, 1000000))->capture_default_str();
  cmd->add_option("--random-side", a->random_side, "Table 1: side of the random maps")
      ->check(whole_number(8, 4096))->capture_default_str();
  cmd->add_option("--empty-pairs", a->empty_pairs, "Table 2: start/goal pairs; 0 skips Table 2")
      ->check(whole_number(0, 1000000))->capture_default_str();
  cmd->add_option("--empty-side", a->empty_side, "Table 2: side of the empty map")
      ->check(whole_number(8, 4096))->capture_default_str();
  cmd->add_option("--astar-heuristic", a->astar_heuristic,
                  "A*'s heuristic in the any-angle comparisons: euclidean (the paper's) or octile")
      ->capture_default_str();
  cmd->add_option("--any-angle-lddb", a->any_angle_lddb,
                  "Any-angle Block A*'s database; Theta* and Lazy Theta* follow its rule (default: the shipped "
                  "any-angle-4.lddb), e.g. one built with `lddb gen --rule any-angle:squeeze=allowed`");
  cmd->add_option("--chunk", a->chunk,
                  "Queries each algorithm runs in turn before the next takes over (1: each query by every "
                  "algorithm in turn)")
      ->check(whole_number(1, 100000))->capture_default_str();
  cmd->footer(kSuiteFooter);
  cmd->callback([a, &chosen] { chosen = [a] { return run_suite(*a); }; });
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"lddb-bench: lddb's benchmark harness (the paper's benchmark suite, memory)"};
  app.set_version_flag("--version", std::string("lddb-bench ") + LDDB_VERSION);
  app.require_subcommand(0, 1);
  app.footer("Run `lddb-bench <command> --help` for a command's options.");
  command_action chosen;
  add_suite_command(app, chosen);
  add_memory_command(app, chosen);

  if (const std::optional<int> status = parse_command_line(app, "lddb-bench", argc, argv)) return *status;
  if (!chosen) {  // no command: the help, as --help prints it
    std::cout << app.help();
    return finish_output("lddb-bench", kExitOk);
  }
  return run_command("lddb-bench " + app.get_subcommands().front()->get_name(), chosen);
}
