// Lines and fields of Moving AI text files, shared by the .map reader (map_file.cpp) and
// the .scen reader (scenario.cpp); private to lddb_io.
//
// Both readers work line by line from a small buffer, so a hostile file cannot make them
// allocate more than one bounded line at a time. Every message names the file (or the
// name given for a text) and, when a line is at fault, the line: "FILE:LINE: what".
#pragma once

#include <cstddef>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lddb/grid.hpp"

namespace lddb::io_detail {

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
  bool next(std::string_view* line, std::string* error) override;

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
file_ptr open_input(const std::string& path, std::string* error);

// ----------------------------------------------------------------------------- fields

// `s` in single quotes for a message: its first 40 characters (then "..."), with control
// and non-ASCII bytes as \xHH.
std::string shown(std::string_view s);

// A non-negative decimal integer, digits only; too_large beyond long long.
enum class number_problem { none, not_a_number, too_large };
number_problem parse_count(std::string_view s, long long* out);

// Splits on runs of spaces and tabs.
std::vector<std::string_view> split_blank(std::string_view s);

// Splits on single tabs (a version 1 file; a map path may then hold spaces).
std::vector<std::string_view> split_tabs(std::string_view s);

// True when `s` holds nothing but spaces and tabs.
bool is_blank(std::string_view s);

}  // namespace lddb::io_detail
