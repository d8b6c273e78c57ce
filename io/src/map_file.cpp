// Moving AI .map files (docs/rules.md). See lddb/map_file.hpp.
//
// A map's size is checked against grid_map::kMaxSide before the grid is allocated.
#include <optional>
#include <string>
#include <string_view>

#include "lddb/map_file.hpp"
#include "lddb/block_shape.hpp"
#include "text_input.hpp"

namespace lddb {

using namespace io_detail;

namespace {

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
      if (c == '.') continue;
      const auto u = static_cast<unsigned char>(c);
      if (u < 0x20 || u == 0x7F)
        return fail(in.line_number(), "row " + std::to_string(y) + " column " + std::to_string(x) +
                                          " holds a control character " + shown(std::string_view(&c, 1)));
      g.set_terrain(static_cast<int>(x), y, static_cast<terrain>(u));
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

}  // namespace lddb
