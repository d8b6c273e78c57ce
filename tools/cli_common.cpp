// tools/cli_common.cpp: small text helpers shared by the subcommands.
#include "cli_common.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace lddb::cli {

namespace fs = std::filesystem;

// ----------------------------------------------------------------------------- output files

void check_output_path(const std::string& option, const std::string& out) {
  if (out.empty()) throw usage_error(option + ": empty file name");
  std::error_code ec;
  const fs::path p(out);
  if (fs::is_directory(p, ec)) throw failure(option + " " + out + ": is a directory");
  const fs::path parent = p.has_parent_path() ? p.parent_path() : fs::path(".");
  if (!fs::is_directory(parent, ec)) throw failure(option + " " + out + ": folder " + parent.string() + " does not exist");
  if (::access(parent.c_str(), W_OK) != 0)
    throw failure(option + " " + out + ": folder " + parent.string() + " is not writable");
}

atomic_output::atomic_output(const std::string& option, const std::string& path) : path_(path) {
  check_output_path(option, path);
  tmp_ = path + ".tmp-" + std::to_string(::getpid());
  file_ = std::fopen(tmp_.c_str(), "wb");
  if (!file_) throw failure(path + ": cannot write: " + std::strerror(errno));
}

atomic_output::~atomic_output() {
  if (!file_) return;
  std::fclose(file_);
  std::remove(tmp_.c_str());
}

void atomic_output::write(const std::string& bytes) {
  if (!file_) throw failure(path_ + ": cannot write: already closed");
  if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size())
    throw failure(path_ + ": cannot write: " + std::strerror(errno));
}

void atomic_output::commit() {
  if (!file_) throw failure(path_ + ": cannot write: already closed");
  const bool flushed = std::fflush(file_) == 0 && ::fsync(::fileno(file_)) == 0;
  const int err_flush = errno;
  const bool closed = std::fclose(file_) == 0;
  const int err_close = errno;
  file_ = nullptr;
  if (!flushed || !closed) {
    std::remove(tmp_.c_str());
    throw failure(path_ + ": cannot write: " + std::strerror(!flushed ? err_flush : err_close));
  }
  if (std::rename(tmp_.c_str(), path_.c_str()) != 0) {
    const int err = errno;
    std::remove(tmp_.c_str());
    throw failure(path_ + ": cannot write: " + std::strerror(err));
  }
}

// ----------------------------------------------------------------------------- text helpers

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
