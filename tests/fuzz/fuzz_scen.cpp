// fuzz_scen: the Moving AI .scen parser (lddb::parse_scenario, and load_scenario on the
// same bytes).
//
// Properties (any break traps):
//  * load_scenario (stdio) gives the same answer, queries and message as parse_scenario;
//  * a refusal names the input ("NAME:LINE: ...") with a line number inside the text;
//  * for an accepted file, each query is checked against its own source line, re-read here
//    independently: the line number points at a line with 9 fields (split on blanks, or on
//    single tabs), and bucket, sizes, start, goal and optimal length are the decimal
//    values written there; start and goal lie on the stated map; lines are increasing and
//    every non-blank line after the version line is one query;
//  * the optimal tolerance is at least 1e-4 and finite;
//  * max_queries: the same text with a limit of exactly the query count is accepted, one
//    less is refused;
//  * writing the queries back (tab-separated, version 1) and parsing that gives the same
//    queries.
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_common.hpp"
#include "lddb/grid.hpp"
#include "lddb/scenario.hpp"

namespace {

using fuzz::require;

std::vector<std::string_view> lines_of(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    std::string_view l = text.substr(0, nl);
    while (!l.empty() && (l.back() == '\r' || l.back() == ' ' || l.back() == '\t')) l.remove_suffix(1);
    lines.push_back(l);
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return lines;
}

std::vector<std::string_view> split(std::string_view s, bool tabs_only) {
  if (tabs_only) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (true) {
      const std::size_t j = s.find('\t', i);
      out.push_back(s.substr(i, j == std::string_view::npos ? std::string_view::npos : j - i));
      if (j == std::string_view::npos) return out;
      i = j + 1;
    }
  }
  return fuzz::words_of(s);
}

bool blank(std::string_view s) { return s.find_first_not_of(" \t") == std::string_view::npos; }

// A plain decimal integer as written (digits only, leading zeros allowed).
std::optional<long long> decimal(std::string_view s) {
  if (s.empty()) return std::nullopt;
  while (s.size() > 1 && s.front() == '0') s.remove_prefix(1);
  if (s.size() > 18) return std::nullopt;
  long long v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

bool same_query(const lddb::scenario_query& a, const lddb::scenario_query& b) {
  return a.bucket == b.bucket && a.map == b.map && a.map_width == b.map_width && a.map_height == b.map_height &&
         a.start == b.start && a.goal == b.goal && a.optimal == b.optimal;
}

std::string where(const lddb::scenario_query& q) { return "query on line " + std::to_string(q.line); }

void check_query(const lddb::scenario_query& q, const std::vector<std::string_view>& lines) {
  require(q.line >= 2 && static_cast<std::size_t>(q.line) <= lines.size(), where(q) + ": line out of range");
  const std::string_view line = lines[static_cast<std::size_t>(q.line - 1)];
  auto f = split(line, false);
  if (f.size() != 9) f = split(line, true);
  require(f.size() == 9, where(q) + ": the source line does not have 9 fields");
  require(q.map == f[1], where(q) + ": map name differs from the line");
  const long long want[7] = {q.bucket, q.map_width, q.map_height, q.start.x, q.start.y, q.goal.x, q.goal.y};
  const int index[7] = {0, 2, 3, 4, 5, 6, 7};
  for (int k = 0; k < 7; ++k) {
    const auto v = decimal(f[static_cast<std::size_t>(index[k])]);
    require(v && *v == want[k], where(q) + ": field " + std::to_string(index[k]) + " differs from the line");
  }
  require(q.map_width >= 1 && q.map_height >= 1 && q.map_width <= lddb::grid_map::kMaxSide &&
              q.map_height <= lddb::grid_map::kMaxSide,
          where(q) + ": map size out of range");
  require(q.start.x >= 0 && q.start.y >= 0 && q.start.x < q.map_width && q.start.y < q.map_height, where(q) + ": start off the map");
  require(q.goal.x >= 0 && q.goal.y >= 0 && q.goal.x < q.map_width && q.goal.y < q.map_height, where(q) + ": goal off the map");
  // The optimal length: digits, optionally '.' and digits; its value is what strtod reads.
  const std::string opt(f[8]);
  const std::size_t dot = opt.find('.');
  require(opt.find_first_not_of("0123456789.") == std::string::npos && dot != 0 &&
              (dot == std::string::npos || (dot + 1 < opt.size() && opt.find('.', dot + 1) == std::string::npos)),
          where(q) + ": accepted optimal length '" + opt + "' is not a plain decimal");
  const double v = std::strtod(opt.c_str(), nullptr);
  require(q.optimal == v && std::isfinite(v) && v >= 0, where(q) + ": optimal length differs from '" + opt + "'");
  require(std::isfinite(q.optimal_tolerance) && q.optimal_tolerance >= 1e-4, where(q) + ": tolerance");
}

std::string to_text(const lddb::scenario& sc) {
  std::string s = "version 1\n";
  char opt[64];
  for (const auto& q : sc.queries) {
    // %.17g reads back to the same double.
    std::snprintf(opt, sizeof opt, "%.17g", q.optimal);
    std::string o = opt;
    if (o.find_first_of("eE") != std::string::npos) return {};  // not a plain decimal: skip
    s += std::to_string(q.bucket) + "\t" + q.map + "\t" + std::to_string(q.map_width) + "\t" +
         std::to_string(q.map_height) + "\t" + std::to_string(q.start.x) + "\t" + std::to_string(q.start.y) + "\t" +
         std::to_string(q.goal.x) + "\t" + std::to_string(q.goal.y) + "\t" + o + "\n";
  }
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string name = "fuzz.scen";
  std::string error;
  const std::optional<lddb::scenario> parsed = lddb::parse_scenario(text, name, &error);
  const std::vector<std::string_view> lines = lines_of(text);

  const fuzz::memory_file file({data, size});
  std::string file_error;
  const std::optional<lddb::scenario> loaded = lddb::load_scenario(file.path(), &file_error);
  require(parsed.has_value() == loaded.has_value(),
          "parse_scenario and load_scenario disagree: '" + error + "' / '" + file_error + "'");
  if (!parsed) {
    require(error.rfind(name + ":", 0) == 0, "the message does not name the input: " + error);
    std::size_t line = 0;
    const auto [p, ec] = std::from_chars(error.data() + name.size() + 1, error.data() + error.size(), line);
    require(ec == std::errc{} && *p == ':' && line >= 1 && line <= std::max<std::size_t>(lines.size(), 1),
            "the message's line number is not a line of the text: " + error);
    require(file_error.rfind(file.path() + ":", 0) == 0 && file_error.substr(file.path().size()) == error.substr(name.size()),
            "parse_scenario and load_scenario give different messages: '" + error + "' / '" + file_error + "'");
    return 0;
  }
  require(error.empty(), "accepted with an error message: " + error);
  require(parsed->path == name && loaded->path == file.path(), "scenario::path");
  require(parsed->queries.size() == loaded->queries.size(), "parse_scenario and load_scenario read different counts");
  for (std::size_t i = 0; i < parsed->queries.size(); ++i)
    require(same_query(parsed->queries[i], loaded->queries[i]) && parsed->queries[i].line == loaded->queries[i].line,
            "parse_scenario and load_scenario read different queries");

  // Every non-blank line after the first non-blank one (the version line) is a query.
  std::size_t first = 0;
  while (first < lines.size() && blank(lines[first])) ++first;
  require(first < lines.size(), "accepted a text with no version line");
  const auto v = split(lines[first], false);
  require(v.size() == 2 && v[0] == "version" && (v[1] == "1" || v[1] == "1.0"), "accepted a bad version line");
  std::size_t expected = 0;
  for (std::size_t i = first + 1; i < lines.size(); ++i) expected += !blank(lines[i]);
  require(parsed->queries.size() == expected, "query count is not the number of non-blank lines");
  int last_line = static_cast<int>(first) + 1;
  for (const auto& q : parsed->queries) {
    require(q.line > last_line, "query lines are not increasing");
    last_line = q.line;
    check_query(q, lines);
  }

  const std::size_t n = parsed->queries.size();
  require(lddb::parse_scenario(text, name, nullptr, n).has_value(), "refused with max_queries = the query count");
  if (n > 0) require(!lddb::parse_scenario(text, name, nullptr, n - 1), "accepted with max_queries below the query count");

  const std::string again = to_text(*parsed);
  if (!again.empty()) {
    std::string again_error;
    const auto re = lddb::parse_scenario(again, name, &again_error);
    require(re && re->queries.size() == n, "the queries written back do not parse: " + again_error);
    for (std::size_t i = 0; i < n; ++i) require(same_query(re->queries[i], parsed->queries[i]), "round trip changed a query");
  }
  return 0;
}
