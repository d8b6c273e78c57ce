// tools/cli_options.cpp: count options, and turning a command's errors into exit statuses.
#include "cli_options.hpp"

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>

#include "cli_common.hpp"

namespace lddb::cli {

const char* const kDatabaseSearchHelp = R"(Databases: block-astar opens the file --lddb names; without --lddb, <rule>-4.lddb in
  the first of these folders that applies (lddb/data_dir.hpp):
  1. $LDDB_DATA_DIR, when set and not empty (taken as given, even when it is missing);
  2. share/lddb beside the program's folder (PREFIX/bin/../share/lddb);
  3. share/lddb beside the folder of the shared library liblddb (PREFIX/lib/../share/lddb);
  4. share/lddb under the install prefix configured at build time (CMAKE_INSTALL_PREFIX);
  5. the source tree's lddb/, only for a program run from its build tree.
  Folders 2 to 5 count only when they exist.
)";

CLI::Validator whole_number(std::uint64_t lo, std::uint64_t hi) {
  const std::string range = hi == UINT64_MAX ? "at least " + std::to_string(lo)
                                             : "from " + std::to_string(lo) + " to " + std::to_string(hi);
  return CLI::Validator(
      [lo, hi, range](std::string& text) -> std::string {
        std::uint64_t v = 0;
        const char* end = text.data() + text.size();
        const auto [ptr, ec] = std::from_chars(text.data(), end, v);
        const bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
        if (!digits || (ec != std::errc{} && ec != std::errc::result_out_of_range) || ptr != end)
          return "'" + text + "' is not a whole number (expected " + range + ")";
        if (ec == std::errc::result_out_of_range || v < lo || v > hi) return text + " is out of range (expected " + range + ")";
        return "";
      },
      "N", "whole number");
}

int finish_output(const std::string& where, int status) {
  std::cout.flush();
  const bool cout_ok = !std::cout.fail();
  errno = 0;
  const bool stdout_ok = std::fflush(stdout) == 0 && !std::ferror(stdout);
  if (cout_ok && stdout_ok) return status;
  const int err = errno;
  std::cerr << where << ": error: cannot write the output" << (err ? std::string(": ") + std::strerror(err) : "") << "\n";
  return status == kExitOk ? kExitFailure : status;
}

std::optional<int> parse_command_line(CLI::App& app, const std::string& program, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string where = program;
    for (const CLI::App* sub : app.get_subcommands()) where += " " + sub->get_name();
    std::cerr << where << ": error: " << e.what() << "\n(run `" << where << " --help` for usage)\n";
    return kExitUsage;
  }
  return std::nullopt;
}

int run_command(const std::string& where, const command_action& action) {
  try {
    return finish_output(where, action());
  } catch (const usage_error& e) {
    std::cout.flush();
    std::cerr << where << ": error: " << e.what() << "\n";
    return kExitUsage;
  } catch (const failure& e) {
    std::cout.flush();
    std::cerr << where << ": error: " << e.what() << "\n";
    return kExitFailure;
  } catch (const std::bad_alloc&) {
    std::cout.flush();
    std::cerr << where << ": error: out of memory\n";
    return kExitFailure;
  } catch (const std::exception& e) {
    std::cout.flush();
    std::cerr << where << ": error: " << e.what() << "\n";
    return kExitFailure;
  } catch (...) {
    std::cerr << where << ": error: unexpected failure\n";
    return kExitFailure;
  }
}

}  // namespace lddb::cli
