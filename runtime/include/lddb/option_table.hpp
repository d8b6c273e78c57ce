// lddb/option_table.hpp: every search option once, for the C API, Python and the lddb tool.
//
// Each option a program in another language can set is written here once: its name, its
// kind and range, and what it does. The C API reads lddb_options through this table,
// Python builds its keywords from it (lddb_option_describe) and the lddb tool its options;
// set_search_option checks a value and writes it into search_options. So a new option is
// one row here (and its field in lddb_options), and every language checks it alike.
//
// A message from set_search_option or parse_search_option says what is wrong with the
// value, not where it came from: each caller puts its own name in front ("options:
// unit_size" in C, "--size" on the command line).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "lddb/rule.hpp"
#include "lddb/search_options.hpp"
#include "lddb/unit.hpp"

namespace lddb {

enum class option_kind : std::uint8_t {
  choice,     // one of `choices`, by name or by its number from 0; 0 is the default
  flag,       // unset (the default), off or on
  count,      // a whole number from 0 (0: none, no limit)
  integer,    // a whole number from `low` to `high`
  number,     // a finite number from `low` to `high`
  movement,   // a movement class: the terrain types the unit may stand on
  landmarks,  // a landmark set built for the query's rule (lddb/landmarks.hpp)
};

enum class flag_state : std::uint8_t { unset, off, on };

// One option's value, in the member its kind reads.
struct option_value {
  std::int64_t integer = 0;  // choice (its number), integer
  std::uint64_t count = 0;
  double number = 0;
  flag_state flag = flag_state::unset;
  movement_class movement = movement_class::ground();
  const landmark_set* landmarks = nullptr;
};

struct option_spec {
  std::string_view name;   // lddb_options' field and Python's keyword
  std::string_view alias;  // another keyword Python takes for it (older code's); empty: none
  option_kind kind;
  bool diagnostic;  // a field of search_options::diagnostics: for benchmarks and tests
  double low, high;          // integer, number: the range
  std::string_view choices;  // choice: the names, ','-separated, by number from 0
  // The lddb tool's option (--tool), for a flag the one that turns it on, and --tool_off
  // the one that turns it off; an empty `tool`: the tool has none (it makes landmarks and
  // preparations itself).
  std::string_view tool, tool_off;
  std::string_view help;  // what it does, one or two sentences
  // Writes a checked value into the options.
  void (*write)(search_options& options, const option_value& value);
};

// The options, game options first, then the diagnostics.
std::span<const option_spec> search_option_table();
// By name or alias; nullptr for neither.
const option_spec* find_search_option(std::string_view name);

// Checks `value` for the option under rule r (a heuristic admissible for it, landmarks
// built for it, a number in range) and writes it into `options`: "" when done, else why
// not, without the option's name ("20 is out of range: a finite number from 1 to 16").
std::string set_search_option(search_options& options, const rule& r, const option_spec& spec,
                              const option_value& value);
// Reads the text of a command line into `value`: a choice's name, a number, terrain
// letters. Flags and landmarks have no text. "" when done, else why not (no name).
std::string parse_search_option(const option_spec& spec, std::string_view text, option_value& value);
// The choice's names as "a, b or c", for help and messages.
std::string choices_text(const option_spec& spec);

}  // namespace lddb
