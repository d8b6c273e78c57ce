// The tables behind a grid_map's component labels (components.cpp), and the local search
// that keeps them exact when blocked cells split a component (component_split.cpp).
//
// Each free cell holds an id, and the ids are joined by a union-find of their own: two
// free cells are in one component when their ids have one root. Freeing a cell joins ids;
// blocking one may split a component, and then only the cells of the part that split off
// take a new id. Because a cell's id never points through another cell, relabelling a part
// leaves every other cell as it was.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "lddb/grid.hpp"
#include "lddb/point.hpp"

namespace lddb::detail {

// Leaves the elements a vector grows by unwritten: the labels' rebuild writes every cell
// itself, and clearing them first would write the whole table twice.
template <class T>
struct unwritten_allocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = unwritten_allocator<U>;
  };
  unwritten_allocator() = default;
  template <class U>
  unwritten_allocator(const unwritten_allocator<U>&) noexcept {}
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

// Per cell: -2 - id for a free cell, kNoLabel for a blocked one. Negative, so that the
// rebuild can tell a finished cell from a parent index while it flattens its union-find.
using label_table = std::vector<std::int32_t, unwritten_allocator<std::int32_t>>;
constexpr std::int32_t kNoLabel = -1;
constexpr std::int32_t label_of_id(std::int32_t id) { return -2 - id; }
constexpr std::int32_t id_of_label(std::int32_t label) { return -2 - label; }

// The steps to a cell's neighbours: the first 4 under connectivity::four, all 8 under eight.
inline constexpr int kNeighbourSteps[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

// The searches' reading of a map's labels (components.cpp, a friend of grid_map).
struct component_access {
  // True when the labels prove the free cells a and b apart (coarse labels as they are;
  // missing or stale ones are rebuilt first).
  static bool apart(const grid_map& m, connectivity c, point a, point b);
  // A search ran out of cells: coarse labels are flagged for settle.
  static void exhausted(const grid_map& m, connectivity c);
  // Rebuilds the flagged coarse labels of the map and of its unit views: prepare_step calls
  // it, on the thread that owns the map.
  static void settle(const grid_map& m);
};

// Union-find over ids: parent id, or -(ids below it) at a root.
struct id_forest {
  std::vector<std::int32_t> parent;

  std::int32_t make() {
    parent.push_back(-1);
    return static_cast<std::int32_t>(parent.size() - 1);
  }
  std::int32_t find(std::int32_t i) {
    while (parent[static_cast<std::size_t>(i)] >= 0) {
      const std::int32_t up = parent[static_cast<std::size_t>(i)];
      if (parent[static_cast<std::size_t>(up)] >= 0) parent[static_cast<std::size_t>(i)] = parent[static_cast<std::size_t>(up)];
      i = up;
    }
    return i;
  }
  // The root of the joined set.
  std::int32_t unite(std::int32_t a, std::int32_t b) {
    a = find(a);
    b = find(b);
    if (a == b) return a;
    if (parent[static_cast<std::size_t>(a)] > parent[static_cast<std::size_t>(b)]) std::swap(a, b);  // a: the larger set
    parent[static_cast<std::size_t>(a)] += parent[static_cast<std::size_t>(b)];
    parent[static_cast<std::size_t>(b)] = a;
    return a;
  }
};

// After cells were blocked, finds which parts of the components around them split off.
// `seeds` are the free cells next to the blocked ones (under the connectivity): every part
// that split off holds one. A breadth-first search grows from each seed, a few cells per
// search in turn; searches that meet join. A group of
// searches that runs out of cells has walked a whole component, which takes a new id; the
// work ends when each component's seeds are down to one group. So the cost follows the
// smaller side of a split, or the way round when nothing split.
class split_search {
 public:
  // False when the searches would visit more than `budget` cells: each visited cell then
  // takes its label back, and only the parts found whole keep their new ids, so cells of
  // one component still share a root (the labels are coarse: a root may hold parts that
  // split). The map's blocked cells are read from `cells` (kNoLabel), which the caller
  // keeps so.
  bool run(const grid_map& m, connectivity c, std::span<const std::int32_t> seeds, label_table& cells, id_forest& ids,
           std::size_t budget);
  // Cells the last run visited.
  std::size_t visited() const { return visited_; }

 private:
  struct search {
    std::vector<std::int32_t> cells;  // visited, in the order found: from head on, still to expand
    std::vector<std::int32_t> was;    // their labels before
    std::size_t head = 0;
    std::int32_t root = 0, group = 0;
  };
  struct group {  // searches that met; indexed by the search that started it
    std::int32_t up = -1;             // the group it joined, or -1
    std::vector<std::int32_t> members;
    std::int32_t live = 0;  // members with cells left to expand
    bool active = true;
  };
  std::int32_t group_of(std::int32_t s);

  std::vector<search> searches_;
  std::vector<group> groups_;
  std::vector<std::int32_t> order_, active_, turn_, next_;
  std::size_t visited_ = 0;
};

}  // namespace lddb::detail
