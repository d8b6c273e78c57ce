// Private: the Dijkstra that fills and repairs landmark tables (landmarks.cpp builds,
// landmark_repair.cpp repairs). See lddb/landmarks.hpp.
//
// Every move costs one of two amounts (straight or diagonal), so the Dijkstra keeps one
// FIFO queue per amount: each receives keys in the order they were settled plus a
// constant, so each stays sorted, and the least key is at one of the heads (Dial's idea
// for few distinct edge costs). A third queue holds the seeds, pushed sorted by key before
// the run: the source of a build, or the points around freed cells whose moves a repair
// must try again. Entries are not decreased but pushed again; a popped entry whose key is
// no longer its point's distance is skipped.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "lddb/landmarks.hpp"
#include "map/move_tables.hpp"

namespace lddb {
namespace detail {
// The queues of a landmark Dijkstra: straight moves, diagonal moves, seeds; entries are
// key << 32 | point.
struct landmark_queues {
  std::vector<std::uint64_t> queue[3];
  std::size_t head[3] = {0, 0, 0};
};
}  // namespace detail

namespace landmark_dial {

using queues = detail::landmark_queues;

inline void clear(queues& q) {
  for (int i = 0; i < 3; ++i) {
    q.queue[i].clear();
    q.head[i] = 0;
  }
}

// The legal unit moves from point p of a table over `map` (bit k: kSteps[k]), from the
// rule's table of moves by the 3 x 3 cells around a cell or the 4 cells around a vertex.
inline unsigned legal_moves(const grid_map& map, const std::uint8_t* moves, bool vertices, point p) {
  return vertices ? moves[gather_cells(map, p.x - 1, p.y - 1, 2)] : moves[gather_cells(map, p.x - 1, p.y - 1, 3)];
}

inline constexpr std::size_t kCompactAt = 4096;  // popped entries a queue may hold before it drops them

// Settles points until `budget` runs out (one unit a point settled, also counted in
// `settled`); true when the queues are empty. dist(i) gives the distance of point i
// (row-major index) by reference (32 or 16 bits), moves(i) its legal moves; a move k from
// i goes to i + offset[k] and costs unit[0] (straight, k < 4) or unit[1] (diagonal). A
// distance past `cap` is kept as cap (a 16-bit table's saturation; lddb/landmarks.hpp).
template <class Dist, class Moves>
bool run(queues& q, std::uint64_t& budget, std::uint64_t& settled, Dist&& dist, Moves&& moves,
         const std::ptrdiff_t* offset, const std::uint32_t* unit, std::uint32_t cap) {
  for (;;) {
    int best = -1;
    std::uint64_t best_key = 0;
    for (int i = 0; i < 3; ++i)
      if (q.head[i] < q.queue[i].size() && (best < 0 || (q.queue[i][q.head[i]] >> 32) < best_key)) {
        best = i;
        best_key = q.queue[i][q.head[i]] >> 32;
      }
    if (best < 0) return true;
    if (budget == 0) return false;
    const std::uint64_t e = q.queue[best][q.head[best]++];
    if (q.head[best] >= kCompactAt && q.head[best] * 2 >= q.queue[best].size()) {
      // Drop what was popped, so that a queue holds about the frontier rather than every
      // point ever pushed (8 bytes a push: 13 MB for a Dijkstra over a 2048 x 2048 cave).
      q.queue[best].erase(q.queue[best].begin(), q.queue[best].begin() + static_cast<std::ptrdiff_t>(q.head[best]));
      q.head[best] = 0;
    }
    const std::size_t u = static_cast<std::size_t>(e & 0xFFFFFFFFu);
    const std::uint32_t key = static_cast<std::uint32_t>(e >> 32);
    if (key != static_cast<std::uint32_t>(dist(u))) continue;  // settled before, through a shorter way
    --budget;
    ++settled;
    for (unsigned legal = moves(u); legal != 0; legal &= legal - 1) {
      const int k = __builtin_ctz(legal);
      const std::size_t v = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(u) + offset[k]);
      const std::uint32_t nd = std::min(key + unit[k >= 4], cap);
      auto& dv = dist(v);
      if (nd >= static_cast<std::uint32_t>(dv)) continue;
      dv = static_cast<std::remove_reference_t<decltype(dv)>>(nd);
      q.queue[k >= 4].push_back(std::uint64_t{nd} << 32 | v);
    }
  }
}

}  // namespace landmark_dial
}  // namespace lddb
