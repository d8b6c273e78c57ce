// tools/cli_common.hpp: what the `lddb` subcommands share.
//
// Every subcommand reports a problem by throwing one of the two errors below; main()
// turns them into a one-line message on stderr and an exit status (2 for a bad command
// line, 1 for a file or operation that failed), so no subcommand prints a stack trace or
// leaks an exception.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "lddb/cost.hpp"
#include "lddb/rule.hpp"

namespace lddb::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;  // a file is bad, an operation failed
inline constexpr int kExitUsage = 2;    // the command line is wrong

// The command line asks for something impossible (an unknown rule, an option that does
// not apply, a value out of range).
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// A file cannot be read or written, or is not intact.
struct failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// ----------------------------------------------------------------------------- output files

// Fails early, before minutes of work, when `path` (given with `option`, e.g. "--out")
// cannot be written: usage_error for an empty name, failure naming the file for a
// directory, a missing folder or one without write permission.
void check_output_path(const std::string& option, const std::string& path);

// A file written whole or not at all. The bytes go to "<path>.tmp-<pid>" beside it;
// commit() flushes, fsyncs and renames that over `path`. Destroyed without commit (an
// error on the way), it removes the temporary file and leaves `path` as it was. Every
// error throws failure naming `path`.
class atomic_output {
 public:
  atomic_output(const std::string& option, const std::string& path);
  atomic_output(const atomic_output&) = delete;
  atomic_output& operator=(const atomic_output&) = delete;
  ~atomic_output();
  void write(const std::string& bytes);
  void commit();
  const std::string& path() const { return path_; }

 private:
  std::string path_, tmp_;
  std::FILE* file_ = nullptr;
};

// ----------------------------------------------------------------------------- text helpers

// "0x1F", "31" -> 31. nullopt unless the whole text is one non-negative integer.
std::optional<std::uint64_t> parse_unsigned(const std::string& text);

// A cost as a short decimal: "1", "1.414", "2.5"; "-" for kUnreachable.
std::string format_cost(cost_t c);

// 48213 -> "47.1 KiB", 2194245 -> "2.09 MiB"; below 10 KiB as exact bytes.
std::string format_bytes(std::uint64_t bytes);

// "octile-4.lddb": the name lddb/ uses for the database of a rule and block size.
std::string database_file_name(const rule& r, int block);

// Prints rows as aligned columns separated by two spaces; row 0 is the heading. Columns
// whose index is in right_aligned are right-aligned (numbers).
void print_table(std::FILE* out, const std::vector<std::vector<std::string>>& rows,
                 const std::vector<int>& right_aligned);

// The message of an open_result without a leading "<file>: ", for lines that already
// start with the file name.
std::string strip_file_prefix(const std::string& message, const std::string& file);

}  // namespace lddb::cli
