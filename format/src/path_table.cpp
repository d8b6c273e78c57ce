// Path tables: encoding and parsing. See lddb/path_table.hpp.
#include "lddb/path_table.hpp"

#include <algorithm>

#include "layout.hpp"
#include "lddb/format.hpp"

namespace lddb {

void path_table_encoder::add(int pair, const int* points, int count) {
  if (count == 0) return;
  bytes_[static_cast<std::size_t>(pair / 8)] |= static_cast<std::uint8_t>(1u << (pair % 8));
  bytes_.push_back(static_cast<std::uint8_t>(count));
  for (int k = 0; k < count; ++k) bytes_.push_back(static_cast<std::uint8_t>(points[k]));
}

std::optional<std::string> parse_path_table(std::span<const std::uint8_t> bytes, std::size_t& pos,
                                            const block_shape& s) {
  using std::to_string;
  const std::size_t bitmap = path_bitmap_bytes(s.pair_count());
  const int pairs = s.pair_count();
  const int n_boundary = s.boundary_count();
  const std::uint8_t limit = static_cast<std::uint8_t>(s.point_count());  // at most 36
  if (bytes.size() - pos < bitmap)
    return "ends " + to_string(bytes.size() - pos) + " bytes into its " + to_string(bitmap) + "-byte bitmap";
  const std::uint8_t* map = bytes.data() + pos;
  if (pairs % 8 != 0 && (map[bitmap - 1] >> (pairs % 8)) != 0) return "sets bitmap bits beyond the last pair";
  pos += bitmap;
  const std::size_t size = bytes.size();
  // Pair k joins boundary points a < b: (0,1), (0,2), ..., (0,n-1), (1,2), ...
  int a = 0, b = 1;
  for (int k = 0; k < pairs; ++k, (++b == n_boundary ? (b = ++a + 1) : 0)) {
    if (!(map[k / 8] >> (k % 8) & 1u)) continue;
    auto pair = [k] { return std::to_string(k); };  // for messages only
    if (pos >= size) return "ends before pair " + pair();
    const std::size_t n = bytes[pos++];
    if (n - 1 >= std::size_t{inflections::kCapacity})  // also n = 0
      return "gives pair " + pair() + " " + to_string(n) + " points";
    if (size - pos < n) return "ends inside pair " + pair();
    const std::uint8_t* points = bytes.data() + pos;
    std::uint8_t top = 0;
    for (std::size_t p = 0; p < n; ++p) top = std::max(top, points[p]);
    if (top >= limit)
      return "gives pair " + pair() + " point index " + to_string(top) + " (the block has " +
             to_string(s.point_count()) + " points)";
    if (!s.vertices()) {
      point prev = s.boundary_point(a);
      for (std::size_t p = 0; p <= n; ++p) {
        const point next = p < n ? s.point_at(points[p]) : s.boundary_point(b);
        if (!layout::in_line(prev, next))
          return "gives pair " + pair() + " a step from (" + to_string(prev.x) + "," + to_string(prev.y) + ") to (" +
                 to_string(next.x) + "," + to_string(next.y) + ") that is neither straight nor diagonal";
        prev = next;
      }
    }
    pos += n;
  }
  return std::nullopt;
}

std::optional<std::string> path_table_problem(std::span<const std::uint8_t> t, const block_shape& s) {
  std::size_t pos = 0;
  if (auto why = parse_path_table(t, pos, s)) return why;
  if (pos != t.size()) return "has " + std::to_string(t.size() - pos) + " bytes after its last pair";
  return std::nullopt;
}

}  // namespace lddb
