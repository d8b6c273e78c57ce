// Lines and fields of Moving AI text files. See text_input.hpp.
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "text_input.hpp"

namespace lddb::io_detail {

namespace fs = std::filesystem;

// ----------------------------------------------------------------------------- lines

bool file_lines::next(std::string_view* line, std::string* error) {
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

}  // namespace lddb::io_detail
