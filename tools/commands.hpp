// tools/commands.hpp: the `lddb` commands. Each cmd_*.cpp registers its own: the
// subcommand, its options and help, and a parse callback that sets `chosen` to run it.
#pragma once

#include <CLI/CLI.hpp>

#include "cli_options.hpp"

namespace lddb::cli {

void add_gen_command(CLI::App& app, command_action& chosen);     // cmd_gen.cpp
void add_verify_command(CLI::App& app, command_action& chosen);  // cmd_verify_info.cpp
void add_dump_command(CLI::App& app, command_action& chosen);    // cmd_dump.cpp
void add_info_command(CLI::App& app, command_action& chosen);    // cmd_verify_info.cpp
void add_solve_command(CLI::App& app, command_action& chosen);   // cmd_solve.cpp
void add_bench_command(CLI::App& app, command_action& chosen);   // cmd_bench.cpp
void add_render_command(CLI::App& app, command_action& chosen);  // cmd_render.cpp
void add_demo_command(CLI::App& app, command_action& chosen);    // cmd_demo.cpp
void add_dynamic_command(CLI::App& app, command_action& chosen);  // cmd_dynamic.cpp

}  // namespace lddb::cli
