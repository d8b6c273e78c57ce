// lddb/mapgen.hpp: synthetic maps (random obstacles, rooms, mazes) from a seed (library
// lddb_io).
#pragma once

#include <cstdint>

#include "lddb/grid.hpp"

namespace lddb {

// Deterministic map generators (the same seed gives the same map on every platform: they
// draw from splitmix64, lddb/splitmix.hpp, not from <random>'s distributions). Each throws
// std::invalid_argument for a size outside 1..grid_map::kMaxSide or a parameter out of range.
// Each cell blocked with probability `percent` / 100.
grid_map make_random_map(int width, int height, int percent, std::uint64_t seed, int block = 4);
// Square rooms of `room` cells separated by 1-cell walls, with doors; like Moving AI rooms.
grid_map make_rooms_map(int width, int height, int room, std::uint64_t seed, int block = 4);
// A perfect maze with corridors `corridor` cells wide and walls 1 cell thick.
grid_map make_maze_map(int width, int height, int corridor, std::uint64_t seed, int block = 4);

}  // namespace lddb
