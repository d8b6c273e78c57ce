// lddb/path_table.hpp: one path table of the PATH section (docs/format.md, §4 "Path tables").
//
// A bitmap with one bit per boundary pair (pair_index order, unused high bits zero), then
// for each pair whose bit is set, in pair order, a count and that many point indices: the
// pair's inflection points from its lower boundary index to its higher. A pair without
// inflection points (a straight path, or none) is absent. Tables are self-delimiting.
// The encoder (generator), the parser (verification) and the lookup (reader) live here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "lddb/block_shape.hpp"

namespace lddb {

inline std::size_t path_bitmap_bytes(int pair_count) { return (static_cast<std::size_t>(pair_count) + 7) / 8; }

// Builds one table. Pairs are added in ascending pair order, each at most once.
class path_table_encoder {
 public:
  explicit path_table_encoder(int pair_count) : bytes_(path_bitmap_bytes(pair_count), 0) {}
  // Pair `pair`'s inflection points, as point indices of the block; none stores nothing.
  void add(int pair, const int* points, int count);
  std::vector<std::uint8_t> take() { return std::move(bytes_); }

 private:
  std::vector<std::uint8_t> bytes_;
};

// Whether a table stores inflection points for `pair`.
inline bool path_pair_present(std::span<const std::uint8_t> table, int pair) {
  return (table[static_cast<std::size_t>(pair / 8)] >> (pair % 8)) & 1u;
}

// The point indices stored for `pair` in a table that parses (parse_path_table); empty when
// the pair is absent.
inline std::span<const std::uint8_t> path_table_points(std::span<const std::uint8_t> table, int pair_count, int pair) {
  if (!path_pair_present(table, pair)) return {};
  // Present pairs are stored in pair order with their counts: skip the ones before `pair`.
  std::size_t pos = path_bitmap_bytes(pair_count);
  for (int j = 0; j < pair; ++j)
    if (path_pair_present(table, j)) pos += 1 + std::size_t{table[pos]};
  return table.subspan(pos + 1, table[pos]);
}

// Parses one table of block shape s starting at `pos`: unused bitmap bits zero, then for
// each present pair a count in 1..inflections::kCapacity and that many point indices below
// point_count. Cells: the pair's first boundary point, its inflection points and its
// second boundary point must follow each other in straight or 45-degree runs, as Block A*
// fills in the cells between them. On success `pos` is left just past the table and the
// result is nullopt; else it says what is wrong ("path table 7 " + the text reads well).
std::optional<std::string> parse_path_table(std::span<const std::uint8_t> bytes, std::size_t& pos, const block_shape& s);

// Checks that one table, on its own, parses to exactly its length.
std::optional<std::string> path_table_problem(std::span<const std::uint8_t> table, const block_shape& s);

}  // namespace lddb
