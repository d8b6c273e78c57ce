// bench/bench_memory.hpp: `lddb-bench memory`, what a map and its search state hold.
#pragma once

#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

#include "cli_common.hpp"
#include "cli_options.hpp"

namespace lddb::cli {

struct memory_args {
  std::string map;
  int scale = 1;
  std::string rule = "octile";
  int queries = 100;
  std::uint64_t seed = 1;
  int landmarks = -1;  // -1: the preparation's choice
  bool prepare = true;
  long long prefault_bytes = -1;  // -1: reserve_options' default
  bool every_search = false;
};

void add_memory_command(CLI::App& app, command_action& chosen);

}  // namespace lddb::cli
