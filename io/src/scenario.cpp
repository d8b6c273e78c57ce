// Moving AI .scen files (docs/rules.md). See lddb/scenario.hpp.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <memory>
#include <string>
#include <system_error>

#include "lddb/scenario.hpp"
#include "lddb/grid.hpp"
#include "text_input.hpp"

namespace lddb {

using namespace io_detail;

namespace {

namespace fs = std::filesystem;

// The scenario grammar, one line at a time: the version line first, then one query a
// line. Shared by the readers that keep every query (read_scenario) and the one that
// streams them (scenario_reader), so both give the same queries and the same messages.
class scenario_lines {
 public:
  scenario_lines(std::string path, std::size_t max_queries) : path_(std::move(path)), max_queries_(max_queries) {}

  enum class result { skip, query, error };
  // One line (its end and trailing blanks already removed), line number n.
  result take(std::string_view line, int n, scenario_query* q, std::string* err) {
    if (is_blank(line)) return result::skip;
    if (!have_version_) {
      const auto words = split_blank(line);
      if (words[0] != "version")
        return fail(n, "expected 'version 1' or 'version 1.0' first, not " + shown(line) +
                           " (is this a Moving AI .scen file?)",
                    err);
      if (words.size() != 2 || (words[1] != "1" && words[1] != "1.0"))
        return fail(n, "unsupported scenario version " + shown(line) + " (expected 'version 1' or 'version 1.0')", err);
      have_version_ = true;
      return result::skip;
    }
    auto fields = split_blank(line);
    if (fields.size() != 9 && line.find('\t') != std::string_view::npos) {
      auto tabbed = split_tabs(line);
      if (tabbed.size() == 9) fields = std::move(tabbed);
    }
    if (fields.size() != 9)
      return fail(n, "expected 9 fields (bucket, map, width, height, start x, start y, goal x, goal y, optimal length), found " +
                         std::to_string(fields.size()),
                  err);
    if (queries_ >= max_queries_)
      return fail(n, "more than " + std::to_string(max_queries_) + " queries (the limit for this file)", err);
    *q = scenario_query{};
    q->line = n;
    long long v[7] = {};
    static const char* const kNames[7] = {"bucket", "map width", "map height", "start x", "start y", "goal x", "goal y"};
    const int index[7] = {0, 2, 3, 4, 5, 6, 7};
    for (int k = 0; k < 7; ++k) {
      const std::string_view f = fields[static_cast<std::size_t>(index[k])];
      const long long max = k == 0 ? std::numeric_limits<int>::max() : grid_map::kMaxSide;
      switch (parse_count(f, &v[k])) {
        case number_problem::not_a_number:
          return fail(n, std::string(kNames[k]) + " " + shown(f) + " is not a whole number", err);
        case number_problem::too_large:
          v[k] = max + 1;
          break;
        case number_problem::none:
          break;
      }
      if (k == 1 || k == 2) {
        if (v[k] < 1 || v[k] > max)
          return fail(n, std::string(kNames[k]) + " " + std::string(f) + " is outside 1.." + std::to_string(max), err);
      } else if (v[k] > max) {
        return fail(n, std::string(kNames[k]) + " " + std::string(f) + " is too large", err);
      }
    }
    q->bucket = static_cast<int>(v[0]);
    q->map = std::string(fields[1]);
    q->map_width = static_cast<int>(v[1]);
    q->map_height = static_cast<int>(v[2]);
    q->start = point{static_cast<int>(v[3]), static_cast<int>(v[4])};
    q->goal = point{static_cast<int>(v[5]), static_cast<int>(v[6])};
    if (q->start.x >= q->map_width || q->start.y >= q->map_height)
      return fail(n, "start (" + std::to_string(q->start.x) + "," + std::to_string(q->start.y) + ") is off the " +
                         std::to_string(q->map_width) + "x" + std::to_string(q->map_height) + " map",
                  err);
    if (q->goal.x >= q->map_width || q->goal.y >= q->map_height)
      return fail(n, "goal (" + std::to_string(q->goal.x) + "," + std::to_string(q->goal.y) + ") is off the " +
                         std::to_string(q->map_width) + "x" + std::to_string(q->map_height) + " map",
                  err);
    // The optimal length: a plain non-negative decimal ("12", "160.53", "3.41421").
    const std::string_view opt = fields[8];
    const std::size_t dot = opt.find('.');
    const std::string_view whole = opt.substr(0, dot);
    const std::string_view frac = dot == std::string_view::npos ? std::string_view{} : opt.substr(dot + 1);
    auto digits = [](std::string_view s) {
      return std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    if (whole.empty() || !digits(whole) || !digits(frac) || (dot != std::string_view::npos && frac.empty()) ||
        whole.size() > 12)
      return fail(n, "optimal length " + shown(opt) + " is not a non-negative decimal number", err);
    double value = 0;
    const auto [ptr, ec] = std::from_chars(opt.data(), opt.data() + opt.size(), value);
    if (ec != std::errc{} || ptr != opt.data() + opt.size() || !std::isfinite(value))
      return fail(n, "optimal length " + shown(opt) + " is not a non-negative decimal number", err);
    q->optimal = value;
    // One unit in the last digit the file can have written: version 1.0 files round to 2
    // decimals; version 1 files print 6 significant digits (%g), dropping trailing zeros.
    // A whole unit, not half: the files' optima were summed in floating point and are
    // sometimes a unit off (den520d.map.scen line 588 says 235.764 for 235.76450).
    double unit = value >= 1 ? std::pow(10.0, std::floor(std::log10(value)) - 5) : 0;
    if (!frac.empty()) unit = std::max(unit, std::pow(10.0, -static_cast<double>(std::min<std::size_t>(frac.size(), 15))));
    q->optimal_tolerance = std::max(1e-4, unit + 1e-9);
    ++queries_;
    return result::query;
  }

  // At the end of the input: an empty file has no version line.
  bool finish(std::string* err) const {
    if (have_version_) return true;
    *err = path_ + ":1: empty file: expected 'version 1' or 'version 1.0'";
    return false;
  }

 private:
  result fail(int line, const std::string& what, std::string* err) const {
    *err = path_ + ":" + std::to_string(line) + ": " + what;
    return result::error;
  }
  std::string path_;
  std::size_t max_queries_;
  std::size_t queries_ = 0;
  bool have_version_ = false;
};

std::optional<scenario> read_scenario(line_source& in, const std::string& path, std::string* error,
                                      std::size_t max_queries) {
  std::string local_error;
  std::string& err = error ? *error : local_error;
  err.clear();
  scenario sc;
  sc.path = path;
  scenario_lines grammar(path, max_queries);
  std::string_view line;
  scenario_query q;
  while (in.next(&line, &err)) {
    switch (grammar.take(line, in.line_number(), &q, &err)) {
      case scenario_lines::result::skip:
        break;
      case scenario_lines::result::query:
        sc.queries.push_back(std::move(q));
        break;
      case scenario_lines::result::error:
        return std::nullopt;
    }
  }
  if (!err.empty() || !grammar.finish(&err)) return std::nullopt;
  return sc;
}

}  // namespace

std::optional<scenario> load_scenario(const std::string& path, std::string* error, std::size_t max_queries) {
  std::string local_error;
  std::string& err = error ? *error : local_error;
  file_ptr f = open_input(path, &err);
  if (!f) return std::nullopt;
  file_lines in(f.get(), path);
  return read_scenario(in, path, &err, max_queries);
}

std::optional<scenario> parse_scenario(std::string_view text, const std::string& name, std::string* error,
                                       std::size_t max_queries) {
  text_lines in(text);
  return read_scenario(in, name, error, max_queries);
}

// ----------------------------------------------------------------------------- streaming

namespace {
// The map file for a query of the scenario at `path` (scenario::resolve_map).
std::string resolve_scenario_map(const std::string& path, const scenario_query& q) {
  const fs::path written(q.map);
  const fs::path dir = fs::path(path).parent_path();
  std::error_code ec;
  const fs::path as_written = written.is_absolute() ? written : dir / written;
  if (fs::is_regular_file(as_written, ec)) return as_written.string();
  return (dir / written.filename()).string();
}
}  // namespace

struct scenario_reader::impl {
  impl(file_ptr f, const std::string& path) : file(std::move(f)), lines(file.get(), path), grammar(path, SIZE_MAX) {}
  file_ptr file;
  file_lines lines;
  scenario_lines grammar;
  std::uint64_t queries = 0;
  bool done = false;
};

scenario_reader::scenario_reader(std::unique_ptr<impl> m, std::string path) : impl_(std::move(m)), path_(std::move(path)) {}
scenario_reader::scenario_reader(scenario_reader&&) noexcept = default;
scenario_reader& scenario_reader::operator=(scenario_reader&&) noexcept = default;
scenario_reader::~scenario_reader() = default;

std::optional<scenario_reader> scenario_reader::open(const std::string& path, std::string* error) {
  std::string local_error;
  std::string& err = error ? *error : local_error;
  err.clear();
  file_ptr f = open_input(path, &err);
  if (!f) return std::nullopt;
  return scenario_reader(std::make_unique<impl>(std::move(f), path), path);
}

bool scenario_reader::next(scenario_query* query, std::string* error) {
  std::string local_error;
  std::string& err = error ? *error : local_error;
  err.clear();
  impl& m = *impl_;
  if (m.done) return false;
  std::string_view line;
  while (m.lines.next(&line, &err)) {
    switch (m.grammar.take(line, m.lines.line_number(), query, &err)) {
      case scenario_lines::result::skip:
        continue;
      case scenario_lines::result::query:
        ++m.queries;
        return true;
      case scenario_lines::result::error:
        m.done = true;
        return false;
    }
  }
  m.done = true;
  if (err.empty()) m.grammar.finish(&err);
  return false;
}

std::uint64_t scenario_reader::queries_read() const { return impl_->queries; }

std::string scenario_reader::resolve_map(const scenario_query& q) const { return resolve_scenario_map(path_, q); }

std::string scenario::resolve_map(const scenario_query& q) const { return resolve_scenario_map(path, q); }

}  // namespace lddb
