// tools/cli_options.hpp: what the command-line programs (lddb, lddb-bench) share on top of
// CLI11: count options, the command a parse chose, and the check that output was written.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

namespace lddb::cli {

// A count option: digits only (no sign, point, exponent or hex), from lo to hi. CLI11's own
// Range would accept "0x10" and say "Value 2.5 not in range 2 to 5".
CLI::Validator whole_number(std::uint64_t lo, std::uint64_t hi);

// The command the command line chose, set by its subcommand's parse callback and run by
// main() after parsing; returns the exit status.
using command_action = std::function<int()>;

// A command's result is only as good as its output: a full disk or a closed pipe behind
// stdout turns success into failure, said on stderr as "<where>: error: ...".
int finish_output(const std::string& where, int status);

// The help text, for the search commands (solve, bench, render), of where a database is
// looked for: every place, in the order of lddb/data_dir.hpp.
extern const char* const kDatabaseSearchHelp;

// Parses the command line of `program` ("lddb"): nullopt when a command is to run, else the
// exit status of --help, --version or a wrong command line (said on stderr, naming the
// program and its subcommand).
std::optional<int> parse_command_line(CLI::App& app, const std::string& program, int argc, char** argv);

// Runs `action` as the command `where` ("lddb gen"): its errors become one line on stderr
// and an exit status below 128 (2 for usage_error, 1 for anything else).
int run_command(const std::string& where, const command_action& action);

}  // namespace lddb::cli
