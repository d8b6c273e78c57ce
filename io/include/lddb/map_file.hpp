// lddb/map_file.hpp: Moving AI .map files (library lddb_io).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "lddb/grid.hpp"

namespace lddb {

// Moving AI .map text (docs/rules.md): '.', 'G' and 'S' (swamp) are free, anything else
// blocked, water 'W' and trees 'T' included: the terrain a ground unit can stand on. Each
// cell keeps its letter as its terrain type (grid_map::terrain_at; lddb/unit.hpp), for
// units of other movement classes.
// Accepts CRLF, trailing spaces and a missing final newline. On failure returns nullopt
// and sets *error to a message naming the file (or `name`) and the line.
std::optional<grid_map> load_map(const std::string& path, std::string* error, int block = 4);
std::optional<grid_map> parse_map(std::string_view text, const std::string& name, std::string* error, int block = 4);

}  // namespace lddb
