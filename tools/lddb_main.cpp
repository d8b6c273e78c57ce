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
//   lddb dynamic a dynamic scenario (GPPC dynamic track: X.scen + X.patch) from a map
//
// Each command registers its options in its own tools/cmd_*.cpp (commands.hpp); this file
// only calls them, parses, and runs the chosen command with every error turned into one
// line on stderr and an exit status below 128.
#include <iostream>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "cli_common.hpp"
#include "commands.hpp"

#ifndef LDDB_VERSION
#define LDDB_VERSION "unknown"
#endif

int main(int argc, char** argv) {
  using namespace lddb::cli;
  CLI::App app{"lddb: build, check and inspect Local Distance Databases, and find paths on grid maps with Block A*"};
  app.set_version_flag("--version", std::string("lddb ") + LDDB_VERSION);
  app.require_subcommand(0, 1);
  app.footer("Run `lddb <command> --help` for a command's options.");
  command_action chosen;
  for (auto add : {add_gen_command, add_verify_command, add_dump_command, add_info_command, add_solve_command,
                   add_bench_command, add_render_command, add_demo_command, add_dynamic_command})
    add(app, chosen);

  // CLI11 would only say "a subcommand is required" for a misspelt one; name it instead.
  if (argc > 1 && argv[1][0] != '-') {
    const std::string first = argv[1];
    bool known = false;
    for (const CLI::App* sub : app.get_subcommands({})) known = known || sub->get_name() == first;
    if (!known) {
      std::cerr << "lddb: error: unknown command '" << first
                << "' (expected gen, verify, dump, info, solve, bench, render, demo or dynamic)\n"
                << "(run `lddb --help` for usage)\n";
      return kExitUsage;
    }
  }

  // The paper's benchmark left this program for lddb-bench: say where it went.
  if (argc > 2 && std::string(argv[1]) == "bench")
    for (int i = 2; i < argc; ++i)
      if (std::string(argv[i]).rfind("--suite", 0) == 0) {
        std::cerr << "lddb bench: error: the paper's benchmark is its own program: `lddb-bench suite paper` "
                     "(build/bench/lddb-bench)\n";
        return kExitUsage;
      }

  if (const std::optional<int> status = parse_command_line(app, "lddb", argc, argv)) return *status;
  if (!chosen) {  // no command: the help, as --help prints it
    std::cout << app.help();
    return finish_output("lddb", kExitOk);
  }
  return run_command("lddb " + app.get_subcommands().front()->get_name(), chosen);
}
