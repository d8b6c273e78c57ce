// Moving AI .map and .scen files (docs/rules.md). See lddb/grid.hpp.
//
// Both readers work line by line from a small buffer, so a hostile file cannot make them
// allocate more than one bounded line at a time, and a map's size is checked against
// grid_map::kMaxSide before the grid is allocated. Every message names the file (or the
// name given for a text) and, when a line is at fault, the line: "FILE:LINE: what".
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <system_error>

#include "lddb/grid.hpp"
#include "lddb/block_shape.hpp"

namespace lddb {

namespace {

namespace fs = std::filesystem;

// The longest line either reader accepts: a row of the widest map plus generous room for
// trailing spaces; a scenario line is far shorter.
constexpr std::size_t kMaxLine = static_cast<std::size_t>(grid_map::kMaxSide) + 4096;

// ----------------------------------------------------------------------------- lines

// Yields lines without their end (LF or CRLF) and without trailing spaces or tabs.
class line_source {
 public:
  virtual ~line_source() = default;
  // false at the end of the input; on a read error or an over-long line sets *error.
  virtual bool next(std::string_view* line, std::string* error) = 0;
  int line_number() const { return line_; }

 protected:
  static std::string_view trim_end(std::string_view s) {
    while (!s.empty() && (s.back() == '\r' || s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
  }
  int line_ = 0;
};

class text_lines : public line_source {
 public:
  explicit text_lines(std::string_view text) : rest_(text) {}
  bool next(std::string_view* line, std::string*) override {
    if (rest_.empty()) return false;
    const std::size_t end = rest_.find('\n');
    std::string_view s = rest_.substr(0, end);
    rest_ = end == std::string_view::npos ? std::string_view{} : rest_.substr(end + 1);
    ++line_;
    // A UTF-8 byte-order mark, stripped from line 1 as file_lines does.
    if (line_ == 1 && s.substr(0, 3) == "\xEF\xBB\xBF") s.remove_prefix(3);
    *line = trim_end(s);
    return true;
  }

 private:
  std::string_view rest_;
};

class file_lines : public line_source {
 public:
  file_lines(std::FILE* f, std::string name) : f_(f), name_(std::move(name)) {}
  bool next(std::string_view* line, std::string* error) override {
    current_.clear();
    bool any = false;
    for (;;) {
      if (pos_ == len_) {
        len_ = std::fread(buf_, 1, sizeof buf_, f_);
        pos_ = 0;
        if (len_ == 0) {
          if (std::ferror(f_)) {
            *error = name_ + ":" + std::to_string(line_ + 1) + ": read error: " + std::strerror(errno);
            return false;
          }
          if (!any) return false;
          break;  // a last line without a final newline
        }
      }
      any = true;
      const char* start = buf_ + pos_;
      const void* nl = std::memchr(start, '\n', len_ - pos_);
      const std::size_t take = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - start) : len_ - pos_;
      if (current_.size() + take > kMaxLine) {
        *error = name_ + ":" + std::to_string(line_ + 1) + ": line is longer than " + std::to_string(kMaxLine) +
                 " characters";
        return false;
      }
      current_.append(start, take);
      pos_ += take;
      if (nl) {
        ++pos_;
        break;
      }
    }
    ++line_;
    std::string_view s = current_;
    if (line_ == 1 && s.substr(0, 3) == "\xEF\xBB\xBF") s.remove_prefix(3);
    *line = trim_end(s);
    return true;
  }

 private:
  std::FILE* f_;
  std::string name_;
  char buf_[1 << 16];
  std::size_t pos_ = 0, len_ = 0;
  std::string current_;
};

struct file_closer {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using file_ptr = std::unique_ptr<std::FILE, file_closer>;

// Opens a regular file for reading, or sets *error ("FILE: cannot open: reason").
file_ptr open_input(const std::string& path, std::string* error) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    *error = path + ": cannot open: is a directory";
    return nullptr;
  }
  file_ptr f(std::fopen(path.c_str(), "rb"));
  if (!f) *error = path + ": cannot open: " + std::strerror(errno);
  return f;
}

// ----------------------------------------------------------------------------- fields

std::string shown(std::string_view s) {
  constexpr std::size_t kMax = 40;
  std::string out;
  for (char c : s.substr(0, kMax)) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7F) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02X", u);
      out += hex;
    } else {
      out += c;
    }
  }
  if (s.size() > kMax) out += "...";
  return "'" + out + "'";
}

// A non-negative decimal integer, digits only; too_large beyond long long.
enum class number_problem { none, not_a_number, too_large };
number_problem parse_count(std::string_view s, long long* out) {
  if (s.empty() || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return number_problem::not_a_number;
  long long v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec == std::errc::result_out_of_range) return number_problem::too_large;
  if (ec != std::errc{} || ptr != s.data() + s.size()) return number_problem::not_a_number;
  *out = v;
  return number_problem::none;
}

// Splits on runs of spaces and tabs.
std::vector<std::string_view> split_blank(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    if (i == s.size()) break;
    const std::size_t j = s.find_first_of(" \t", i);
    const std::size_t end = j == std::string_view::npos ? s.size() : j;
    out.push_back(s.substr(i, end - i));
    i = end;
  }
  return out;
}

// Splits on single tabs (a version 1 file; a map path may then hold spaces).
std::vector<std::string_view> split_tabs(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  for (;;) {
    const std::size_t j = s.find('\t', i);
    out.push_back(s.substr(i, j == std::string_view::npos ? std::string_view::npos : j - i));
    if (j == std::string_view::npos) break;
    i = j + 1;
  }
  return out;
}

bool is_blank(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c == ' ' || c == '\t'; });
}

// ----------------------------------------------------------------------------- maps

std::optional<grid_map> read_map(line_source& in, const std::string& name, std::string* error, int block) {
  std::string local_error;
  std::string& err = error ? *error : local_error;
  err.clear();
  auto fail = [&](int line, const std::string& what) -> std::optional<grid_map> {
    err = name + ":" + std::to_string(line) + ": " + what;
    return std::nullopt;
  };
  if (block < block_shape::kMinBlock || block > block_shape::kMaxBlock) {
    err = name + ": block size must be 2..5, not " + std::to_string(block);
    return std::nullopt;
  }

  // Header: "type T", "height H", "width W" (in any order, each once), then "map".
  long long width = -1, height = -1;
  bool have_type = false;
  std::string_view line;
  for (;;) {
    if (!in.next(&line, &err)) {
      if (!err.empty()) return std::nullopt;
      if (in.line_number() == 0) return fail(1, "empty file: expected a Moving AI map header ('type octile')");
      return fail(in.line_number(), "the header ends without a 'map' line");
    }
    if (is_blank(line)) continue;
    const auto words = split_blank(line);
    const std::string_view key = words[0];
    if (key == "map") {
      if (words.size() != 1) return fail(in.line_number(), "bad header line " + shown(line) + ": expected 'map' alone");
      break;
    }
    if (key != "type" && key != "height" && key != "width")
      return fail(in.line_number(), "bad header line " + shown(line) +
                                        " (expected 'type', 'height', 'width' or 'map'; is this a Moving AI .map file?)");
    if (words.size() != 2)
      return fail(in.line_number(), "bad header line " + shown(line) + ": expected '" + std::string(key) + " VALUE'");
    if (key == "type") {
      if (have_type) return fail(in.line_number(), "'type' given twice");
      have_type = true;
      continue;
    }
    long long& field = key == "height" ? height : width;
    if (field >= 0) return fail(in.line_number(), "'" + std::string(key) + "' given twice");
    long long v = 0;
    switch (parse_count(words[1], &v)) {
      case number_problem::not_a_number:
        return fail(in.line_number(), std::string(key) + " " + shown(words[1]) + " is not a whole number");
      case number_problem::too_large:
        return fail(in.line_number(), std::string(key) + " " + shown(words[1]) + " is larger than the largest map side, " +
                                          std::to_string(grid_map::kMaxSide));
      case number_problem::none:
        break;
    }
    if (v < 1 || v > grid_map::kMaxSide)
      return fail(in.line_number(), std::string(key) + " " + std::to_string(v) + " is outside 1.." +
                                        std::to_string(grid_map::kMaxSide));
    field = v;
  }
  const int map_line = in.line_number();
  if (height < 0) return fail(map_line, "the header gives no height");
  if (width < 0) return fail(map_line, "the header gives no width");

  // Only now, with both sides known to be at most kMaxSide, allocate the grid.
  grid_map g(static_cast<int>(width), static_cast<int>(height), block);
  const auto w = static_cast<std::size_t>(width);
  for (int y = 0; y < height; ++y) {
    if (!in.next(&line, &err)) {
      if (!err.empty()) return std::nullopt;
      return fail(in.line_number() + 1, "the grid has " + std::to_string(y) + " rows, but the header says height " +
                                            std::to_string(height));
    }
    if (line.size() != w) {
      std::string what = "row " + std::to_string(y) + " has " + std::to_string(line.size()) + " cells, but the header says width " +
                         std::to_string(width);
      if (line.empty()) what = "row " + std::to_string(y) + " is empty, but the header says width " + std::to_string(width);
      return fail(in.line_number(), what);
    }
    for (std::size_t x = 0; x < w; ++x) {
      const char c = line[x];
      if (c == '.' || c == 'G' || c == 'S') continue;
      const auto u = static_cast<unsigned char>(c);
      if (u < 0x20 || u == 0x7F)
        return fail(in.line_number(), "row " + std::to_string(y) + " column " + std::to_string(x) +
                                          " holds a control character " + shown(std::string_view(&c, 1)));
      g.set_blocked(static_cast<int>(x), y, true);
    }
  }
  // Blank lines may follow the grid; anything else means the grid is taller than its header.
  while (in.next(&line, &err)) {
    if (!is_blank(line))
      return fail(in.line_number(), "the grid has more than the " + std::to_string(height) +
                                        " rows the header says (extra line " + shown(line) + ")");
  }
  if (!err.empty()) return std::nullopt;
  return g;
}

// ----------------------------------------------------------------------------- scenarios

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

std::optional<grid_map> parse_map(std::string_view text, const std::string& name, std::string* error, int block) {
  text_lines in(text);
  return read_map(in, name, error, block);
}

std::optional<grid_map> load_map(const std::string& path, std::string* error, int block) {
  std::string local_error;
  std::string& err = error ? *error : local_error;
  file_ptr f = open_input(path, &err);
  if (!f) return std::nullopt;
  file_lines in(f.get(), path);
  return read_map(in, path, &err, block);
}

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
