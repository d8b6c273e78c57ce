// The search options' table: each option's row, its check and its text. See
// lddb/option_table.hpp.
#include "lddb/option_table.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "lddb/landmarks.hpp"

namespace lddb {

namespace {

std::optional<bool> as_bool(flag_state f) {
  if (f == flag_state::unset) return std::nullopt;
  return f == flag_state::on;
}

constexpr option_spec kTable[] = {
    {"heuristic", "", option_kind::choice, false, 0, 0, "default,zero,manhattan,octile,euclidean", "heuristic", "",
     "The heuristic: the rule's own by default; another must never overestimate the rule's costs.",
     [](search_options& o, const option_value& v) {
       if (v.integer == 0) o.heuristic.reset();
       else o.heuristic = static_cast<heuristic_kind>(v.integer - 1);
     }},
    {"weight", "", option_kind::number, false, 1, search_options::kMaxWeight, "", "weight", "",
     "Weighted search by g + weight x h: fewer expansions, and a tile or octile path costs at most weight x the "
     "optimum (1: optimal).",
     [](search_options& o, const option_value& v) { o.weight = v.number; }},
    {"smooth", "", option_kind::flag, false, 0, 0, "", "smooth", "raw",
     "Smooth the path by line of sight: the default for any-angle; tile and octile then keep their turning points.",
     [](search_options& o, const option_value& v) { o.smooth = as_bool(v.flag); }},
    {"max_expansions", "", option_kind::count, false, 0, 0, "", "max-expansions", "",
     "Stop with budget_exhausted after this many expansions (0: no limit).",
     [](search_options& o, const option_value& v) { o.max_expansions = v.count; }},
    {"unit_size", "size", option_kind::integer, false, 0, unit::kMaxSize, "", "size", "",
     "The unit's side in cells (a square; its top-left cell, or corner for any-angle, is its place); 0: one cell, "
     "a point for any-angle.",
     [](search_options& o, const option_value& v) { o.unit.size = static_cast<int>(v.integer); }},
    {"movement", "", option_kind::movement, false, 0, 0, "", "class", "",
     "The unit's movement class: the terrain types it may stand on (default ground: '.', 'G', 'S').",
     [](search_options& o, const option_value& v) {
       o.unit.movement = v.movement.empty() ? movement_class::ground() : v.movement;
     }},
    {"landmarks", "", option_kind::landmarks, false, 0, 0, "", "", "",
     "A landmark set for a sharper heuristic, used while it is current for the map (default: the preparation's).",
     [](search_options& o, const option_value& v) { o.landmarks = v.landmarks; }},
    {"jumps", "", option_kind::flag, true, 0, 0, "", "jumps", "no-jumps",
     "find_path: jump point search (on) or Block A* (off) instead of the search the map's preparation chose.",
     [](search_options& o, const option_value& v) {
       if (v.flag == flag_state::unset) o.diagnostics.search.reset();
       else o.diagnostics.search = v.flag == flag_state::on ? search_kind::jump_point_search : search_kind::block_astar;
     }},
    {"open_squares", "", option_kind::flag, true, 0, 0, "", "open-squares", "fixed-blocks",
     "Block A*: free squares of blocks as single nodes (on) or the paper's fixed blocks (off); default: the "
     "preparation's choice, else on for any-angle only.",
     [](search_options& o, const option_value& v) { o.diagnostics.open_squares = as_bool(v.flag); }},
    {"square_levels", "", option_kind::integer, true, 0, search_diagnostics::kMaxSquareLevels, "", "square-levels", "",
     "Block A* with open squares: the largest, as L for 2^L x 2^L blocks; 0: the rule's default.",
     [](search_options& o, const option_value& v) {
       if (v.integer == 0) o.diagnostics.square_levels.reset();
       else o.diagnostics.square_levels = static_cast<int>(v.integer);
     }},
    {"use_prepared", "", option_kind::flag, true, 0, 0, "", "", "",
     "Use what the map's preparation made (on, the default) or search as if it were not prepared (off).",
     [](search_options& o, const option_value& v) { o.diagnostics.use_prepared = v.flag != flag_state::off; }},
};

std::string number_text(double v) {
  char text[48];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

// The choice's names, in number order.
std::vector<std::string_view> names_of(const option_spec& spec) {
  std::vector<std::string_view> names;
  std::string_view rest = spec.choices;
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    names.push_back(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
  }
  return names;
}

}  // namespace

std::span<const option_spec> search_option_table() { return kTable; }

const option_spec* find_search_option(std::string_view name) {
  for (const option_spec& s : kTable)
    if (s.name == name || (!s.alias.empty() && s.alias == name)) return &s;
  return nullptr;
}

std::string choices_text(const option_spec& spec) {
  const std::vector<std::string_view> names = names_of(spec);
  std::string text;
  for (std::size_t k = 0; k < names.size(); ++k)
    text += (k == 0 ? "" : k + 1 == names.size() ? " or " : ", ") + std::string(names[k]);
  return text;
}

std::string set_search_option(search_options& options, const rule& r, const option_spec& spec,
                              const option_value& v) {
  switch (spec.kind) {
    case option_kind::choice: {
      // Counted, not split: the C API checks every query's options.
      const auto n = static_cast<std::int64_t>(std::count(spec.choices.begin(), spec.choices.end(), ',')) + 1;
      if (v.integer < 0 || v.integer >= n)
        return std::to_string(v.integer) + " is not one of 0 to " + std::to_string(n - 1) + " (" + choices_text(spec) +
               ")";
      if (spec.name == "heuristic" && v.integer != 0) {
        const auto h = static_cast<heuristic_kind>(v.integer - 1);
        if (!heuristic_admissible(h, r))
          return std::string(heuristic_name(h)) + " overestimates costs under rule " + r.name() +
                 " (not admissible: it would give longer paths, at any weight); the rule's own is " +
                 heuristic_name(default_heuristic(r)) + ", and a weight searches faster";
      }
      break;
    }
    case option_kind::integer:
      if (v.integer < spec.low || v.integer > spec.high)
        return std::to_string(v.integer) + " is outside " + number_text(spec.low) + ".." + number_text(spec.high);
      break;
    case option_kind::number:
      // Written so that NaN fails too.
      if (!(v.number >= spec.low && v.number <= spec.high))
        return number_text(v.number) + " is out of range: a finite number from " + number_text(spec.low) + " to " +
               number_text(spec.high);
      break;
    case option_kind::landmarks:
      if (v.landmarks && !(v.landmarks->rule_of() == r))
        return "were built for rule " + v.landmarks->rule_of().name() + ", but the search's rule is " + r.name();
      break;
    case option_kind::flag:
    case option_kind::count:
    case option_kind::movement:
      break;
  }
  spec.write(options, v);
  return {};
}

std::string parse_search_option(const option_spec& spec, std::string_view text, option_value& v) {
  const std::string quoted = "'" + std::string(text) + "'";
  switch (spec.kind) {
    case option_kind::choice: {
      const std::vector<std::string_view> names = names_of(spec);
      for (std::size_t k = 0; k < names.size(); ++k)
        if (names[k] == text) {
          v.integer = static_cast<std::int64_t>(k);
          return {};
        }
      return quoted + " is not one of " + choices_text(spec);
    }
    case option_kind::count:
    case option_kind::integer: {
      const bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
      std::uint64_t n = 0;
      const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
      if (!digits || ec != std::errc{} || end != text.data() + text.size())
        return quoted + " is not a whole number" +
               (spec.kind == option_kind::integer
                    ? " from " + number_text(spec.low) + " to " + number_text(spec.high)
                    : std::string(" (0 or more)"));
      v.count = n;
      v.integer = n > static_cast<std::uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<std::int64_t>(n);
      return {};
    }
    case option_kind::number: {
      const std::string s(text);
      char* end = nullptr;
      const double d = std::strtod(s.c_str(), &end);
      if (s.empty() || end != s.c_str() + s.size())
        return quoted + " is not a number: expected one from " + number_text(spec.low) + " to " +
               number_text(spec.high) + ", e.g. 1.5";
      v.number = d;
      return {};
    }
    case option_kind::movement:
      if (text.empty()) return "'' holds no terrain letter: expected the letters the unit may stand on, e.g. W or .GSW";
      for (char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (u <= 0x20 || u >= 0x7F)
          return quoted + " holds " + (u == 0x20 ? std::string("a space") : "a control or non-ASCII byte") +
                 ": expected terrain letters of the map files, e.g. W or .GSW";
      }
      v.movement = movement_class::of(text);
      return {};
    case option_kind::flag:
    case option_kind::landmarks:
      break;
  }
  return "takes no value";
}

}  // namespace lddb
