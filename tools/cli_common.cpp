// tools/cli_common.cpp: small text helpers shared by the subcommands.
#include "cli_common.hpp"

#include <charconv>
#include <algorithm>
#include <cstdio>

namespace lddb::cli {

std::optional<std::uint64_t> parse_unsigned(const std::string& text) {
  std::string_view s = text;
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s.remove_prefix(2);
    base = 16;
  }
  if (s.empty()) return std::nullopt;
  std::uint64_t v = 0;
  const char* end = s.data() + s.size();
  const auto [ptr, ec] = std::from_chars(s.data(), end, v, base);
  if (ec != std::errc{} || ptr != end) return std::nullopt;
  return v;
}

std::string format_cost(cost_t c) {
  if (c == kUnreachable) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", cost_to_double(c));
  std::string s = buf;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

std::string format_bytes(std::uint64_t bytes) {
  char buf[32];
  if (bytes < 10 * 1024) {
    std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(bytes));
  } else if (bytes < 1024ull * 1024) {
    std::snprintf(buf, sizeof buf, "%.1f KiB", static_cast<double>(bytes) / 1024.0);
  } else {
    std::snprintf(buf, sizeof buf, "%.2f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  }
  return buf;
}

std::string database_file_name(const rule& r, int block) {
  std::string name = r.name();
  for (char& ch : name)
    if (ch == ':' || ch == ',' || ch == '=') ch = '-';
  return name + "-" + std::to_string(block) + ".lddb";
}

void print_table(std::FILE* out, const std::vector<std::vector<std::string>>& rows,
                 const std::vector<int>& right_aligned) {
  std::vector<std::size_t> width;
  for (const auto& row : rows) {
    if (width.size() < row.size()) width.resize(row.size(), 0);
    for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  }
  auto right = [&](std::size_t c) {
    for (int r : right_aligned)
      if (static_cast<std::size_t>(r) == c) return true;
    return false;
  };
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t c = 0; c < row.size(); ++c) {
      const std::string pad(width[c] - row[c].size(), ' ');
      if (c) line += "  ";
      line += right(c) ? pad + row[c] : (c + 1 == row.size() ? row[c] : row[c] + pad);
    }
    std::fprintf(out, "%s\n", line.c_str());
  }
}

std::string strip_file_prefix(const std::string& message, const std::string& file) {
  const std::string prefix = file + ": ";
  if (message.compare(0, prefix.size(), prefix) == 0) return message.substr(prefix.size());
  return message;
}

}  // namespace lddb::cli
