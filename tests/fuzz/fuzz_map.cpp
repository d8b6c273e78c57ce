// fuzz_map: the Moving AI .map parser (lddb::parse_map, and load_map on the same bytes).
//
// Oracle: a second, deliberately plain reading of the format written here from
// docs/rules.md and the contract in lddb/map_file.hpp (header lines 'type', 'height', 'width'
// in any order, each once, blank lines skipped, then 'map' alone; exactly `height` rows of
// exactly `width` characters; '.', 'G', 'S' free and every other printable character
// blocked; control characters refused; only blank lines after the grid; LF or CRLF, spaces
// and tabs at line ends ignored, a UTF-8 byte-order mark ignored; sides 1..16384).
//
// Properties (any break traps):
//  * parse_map accepts exactly when the plain reading does, and then every cell agrees;
//  * load_map (stdio, read in 64 KiB chunks) gives the same answer and the same message;
//  * a refusal names the input ("NAME:LINE: ...");
//  * the block codes agree with the cells for the block size chosen by the input's last
//    byte (2..5), and set_block_size/set_blocked keep them in step;
//  * every cell keeps its letter as its terrain type (grid_map::terrain_at);
//  * writing the parsed map back as text, letters and all, and parsing that gives the same
//    map (operator== compares the types too).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_common.hpp"
#include "lddb/grid.hpp"
#include "lddb/map_file.hpp"

namespace {

using fuzz::require;

struct plain_map {
  int width = 0, height = 0;
  std::vector<bool> blocked;  // row-major
  std::string letters;        // row-major: each cell's character, its terrain type
};

std::string_view trim_end(std::string_view s) {
  while (!s.empty() && (s.back() == '\r' || s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// A side: decimal digits only, 1..16384.
std::optional<int> side_of(std::string_view s) {
  if (s.empty()) return std::nullopt;
  long long v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
    if (v > lddb::grid_map::kMaxSide) return std::nullopt;
  }
  if (v < 1) return std::nullopt;
  return static_cast<int>(v);
}

std::optional<plain_map> plain_parse(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    lines.push_back(trim_end(text.substr(0, nl)));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  std::size_t i = 0;
  int width = 0, height = 0;
  bool type = false;
  for (;; ++i) {
    if (i == lines.size()) return std::nullopt;
    const auto w = fuzz::words_of(lines[i]);
    if (w.empty()) continue;
    if (w[0] == "map") {
      if (w.size() != 1) return std::nullopt;
      break;
    }
    if (w.size() != 2) return std::nullopt;
    if (w[0] == "type") {
      if (type) return std::nullopt;
      type = true;
    } else if (w[0] == "height" || w[0] == "width") {
      int& field = w[0] == "height" ? height : width;
      if (field != 0) return std::nullopt;
      const auto v = side_of(w[1]);
      if (!v) return std::nullopt;
      field = *v;
    } else {
      return std::nullopt;
    }
  }
  if (width == 0 || height == 0) return std::nullopt;
  ++i;  // past "map"
  plain_map m{width, height, std::vector<bool>(static_cast<std::size_t>(width) * static_cast<std::size_t>(height)), {}};
  for (int y = 0; y < height; ++y, ++i) {
    if (i >= lines.size() || lines[i].size() != static_cast<std::size_t>(width)) return std::nullopt;
    for (int x = 0; x < width; ++x) {
      const auto c = static_cast<unsigned char>(lines[i][static_cast<std::size_t>(x)]);
      if (c < 0x20 || c == 0x7F) return std::nullopt;
      m.blocked[static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)] =
          !(c == '.' || c == 'G' || c == 'S');
      m.letters += static_cast<char>(c);
    }
  }
  for (; i < lines.size(); ++i)
    if (!fuzz::words_of(lines[i]).empty()) return std::nullopt;
  return m;
}

// Block codes against the cells: bit (y * b + x) of block (bx, by) is cell
// (bx * b + x, by * b + y), blocked beyond the map's edge.
void check_codes(const lddb::grid_map& g) {
  const int b = g.block();
  require(g.blocks_x() == (g.width() + b - 1) / b && g.blocks_y() == (g.height() + b - 1) / b, "block counts");
  for (int by = -1; by <= g.blocks_y(); ++by)
    for (int bx = -1; bx <= g.blocks_x(); ++bx) {
      std::uint32_t want = 0;
      for (int y = 0; y < b; ++y)
        for (int x = 0; x < b; ++x) {
          const int cx = bx * b + x, cy = by * b + y;
          const bool blocked = cx < 0 || cy < 0 || cx >= g.width() || cy >= g.height() || g.blocked(cx, cy);
          if (blocked) want |= 1u << (y * b + x);
        }
      require(g.block_code(bx, by) == want, "block code of (" + std::to_string(bx) + "," + std::to_string(by) +
                                                ") disagrees with its cells");
    }
}

std::string to_text(const lddb::grid_map& g) {
  std::string s = "type octile\nheight " + std::to_string(g.height()) + "\nwidth " + std::to_string(g.width()) + "\nmap\n";
  for (int y = 0; y < g.height(); ++y) {
    for (int x = 0; x < g.width(); ++x) s += static_cast<char>(g.terrain_at(x, y));  // the letters, kept
    s += '\n';
  }
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const int block = size ? 2 + data[size - 1] % 4 : 4;
  const std::string name = "fuzz.map";
  std::string error;
  const std::optional<lddb::grid_map> parsed = lddb::parse_map(text, name, &error, block);
  const std::optional<plain_map> plain = plain_parse(text);

  // The file reader on the same bytes.
  const fuzz::memory_file file({data, size});
  std::string file_error;
  const std::optional<lddb::grid_map> loaded = lddb::load_map(file.path(), &file_error, block);
  require(parsed.has_value() == loaded.has_value(), "parse_map and load_map disagree: '" + error + "' / '" + file_error + "'");
  if (parsed) {
    require(error.empty(), "accepted with an error message: " + error);
    require(*parsed == *loaded, "parse_map and load_map read different maps");
  } else {
    require(error.rfind(name + ":", 0) == 0, "the message does not name the input: " + error);
    require(file_error.rfind(file.path() + ":", 0) == 0 &&
                file_error.substr(file.path().size()) == error.substr(name.size()),
            "parse_map and load_map give different messages: '" + error + "' / '" + file_error + "'");
  }

  require(parsed.has_value() == plain.has_value(),
          parsed ? std::string("parse_map accepts what the plain reading refuses")
                 : "parse_map refuses what the plain reading accepts: " + error);
  if (!parsed) return 0;
  const lddb::grid_map& g = *parsed;
  require(g.width() == plain->width && g.height() == plain->height && g.block() == block, "sides or block size differ");
  std::uint64_t blocked = 0;
  for (int y = 0; y < g.height(); ++y)
    for (int x = 0; x < g.width(); ++x) {
      const bool want = plain->blocked[static_cast<std::size_t>(y) * static_cast<std::size_t>(g.width()) + static_cast<std::size_t>(x)];
      blocked += want;
      if (g.blocked(x, y) != want) fuzz::fail("cell (" + std::to_string(x) + "," + std::to_string(y) + ") differs");
      const char letter = plain->letters[static_cast<std::size_t>(y) * static_cast<std::size_t>(g.width()) + static_cast<std::size_t>(x)];
      if (g.terrain_at(x, y) != static_cast<lddb::terrain>(letter))
        fuzz::fail("cell (" + std::to_string(x) + "," + std::to_string(y) + ") does not keep its letter as its terrain");
    }
  require(g.blocked_count() == blocked, "blocked_count");
  require(g.blocked(-1, 0) && g.blocked(0, -1) && g.blocked(g.width(), 0) && g.blocked(0, g.height()), "outside is blocked");

  // The rest costs time in proportion to the map: only for small maps.
  if (std::uint64_t{static_cast<std::uint64_t>(g.width())} * static_cast<std::uint64_t>(g.height()) > 1 << 16) return 0;
  check_codes(g);
  lddb::grid_map h = g;
  h.set_block_size(block == 5 ? 2 : block + 1);
  check_codes(h);
  h.set_blocked(0, 0, !h.blocked(0, 0));
  h.set_blocked(h.width() - 1, h.height() - 1, !h.blocked(h.width() - 1, h.height() - 1));
  check_codes(h);

  std::string again_error;
  const auto again = lddb::parse_map(to_text(g), name, &again_error, block);
  require(again && *again == g, "the map written back does not parse to the same map: " + again_error);
  return 0;
}
