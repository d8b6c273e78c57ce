// Private: Block A* (Yap, Burch, Holte, Schaeffer, AAAI 2011; Algorithms 1 and 2).
//
// The nodes are blocks of b x b cells (and, for any-angle, open squares of blocks:
// regions.hpp). Every boundary point (cell, or corner for any-angle) of a touched node
// keeps a g-value and a parent. Expanding a node takes its ingress points (g improved since
// its last expansion), adds the node's costs to every other boundary point (Algorithm 1,
// line 5: the egress points), and hands each boundary point on to the points of
// neighbouring blocks it can step to (line 6: one legal move for cells, the very same
// vertex at cost 0 for corners). A neighbour whose points improved goes to OPEN with its
// heap value, the least g + h among those points (line 8); g + weight * h with
// search_options::weight (heuristic.hpp's key_weight, and query.cpp's stopping rule).
//
// The files of this folder: slots (the nodes of a query), open_list (OPEN), geometry (links
// between blocks), regions (node shapes: blocks and open squares), heuristic, expansion
// (Algorithm 1), query (Algorithm 2 and the public entry points), reconstruct (the path).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <type_traits>
#include <vector>

#include "search/block_astar/geometry.hpp"
#include "search/block_astar/heuristic.hpp"
#include "search/block_astar/large_squares.hpp"
#include "lddb/block_graph.hpp"
#include "lddb/block_shape.hpp"
#include "lddb/format.hpp"
#include "lddb/grid.hpp"
#include "lddb/search.hpp"
#include "search/block_astar/open_list.hpp"
#include "path/pull_tight.hpp"
#include "search/block_astar/regions.hpp"
#include "search/block_astar/slots.hpp"

namespace lddb {

// One query's own state, kept in the context so that a query can run in slices.
struct block_query {
  const database* db = nullptr;
  const grid_map* map = nullptr;
  point start, goal;
  search_options options;
  // A sliced query's prepared landmarks (lddb/prepare.hpp), held so that prepare_step
  // between slices cannot free the set it reads.
  std::shared_ptr<const landmark_set> prepared_landmarks;
  bool active = false;  // begun and not finished
  search_stats stats;
  // The best path found so far: through goal block slot `best_goal_slot` and its point
  // `best_point`, or directly inside a block that holds both start and goal.
  cost_t length = kUnreachable;
  int best_goal_slot = -1, best_point = -1;
  int direct_start = -1;  // start index whose local search reached the goal
  std::array<int, block_astar_impl::kMaxStarts> start_slot{};
  std::array<int, block_astar_impl::kMaxStarts> goal_state{};  // the goal's block_graph state there
  std::vector<point> expanded;  // when options.record_expanded
};

struct block_search_state {
  block_query query;
  block_astar_impl::slot_pool pool;
  block_astar_impl::open_list open;
  struct key {
    cost_t f, tie;
  };
  std::vector<key> candidate;  // per slot: new (heap value, tie) during one expansion
  std::vector<int> touched;    // slots with a candidate

  // Links and node shapes, rebuilt when the rule, block size or stored unit changes.
  rule links_rule;
  int links_block = 0;
  cost_t floor_unit = 0;  // one stored unit (0 for exact cell costs)
  block_astar_impl::block_links links;
  block_astar_impl::node_shapes shapes;
  // The squares' shapes cost up to 2M instructions to build, more than many whole queries,
  // so they are built only when a query (or reserve) needs them; the levels below hold
  // while squares_built does.
  bool squares_built = false;
  int square_levels = 0;  // the highest level of small square the rule and block size have
  block_astar_impl::large_shapes large;  // the large squares' shapes (large_squares.hpp)
  int large_levels = 0;                  // the highest level of any square they have

  std::array<block_graph::paths, block_astar_impl::kMaxStarts> start_paths, goal_paths;

  bool squares = false;  // this query uses open squares
  std::vector<block_astar_impl::square_nodes> square_state;  // the first squares_used belong to this query
  std::size_t squares_used = 0;
  // Squares reserve() counted on a map (its open groups): no query on that map makes more
  // while no cell of it has been freed since, so square_state need not grow past them.
  std::size_t square_room = 0;
  std::uint64_t room_identity = 0, room_freed = 0;
  int room_block = 0;
  bool square_room_holds(const grid_map& map) const {
    return room_identity == map.identity() && room_freed == map.cells_freed() && room_block == map.block() &&
           square_state.capacity() >= square_room;
  }
  int top_level = 0;  // this query's largest square
  // Large squares: their points (a deque keeps references stable as it grows), and the
  // buffers their expansions reuse.
  std::deque<block_astar_impl::large_nodes> large_state;  // the first large_used belong to this query
  std::size_t large_used = 0;
  block_astar_impl::carry_scratch carry;
  std::vector<cost_t> carry_out;
  std::vector<std::int32_t> carry_from;
  std::vector<std::uint64_t> large_hand;
  std::vector<std::uint8_t> large_ring;
  pull_scratch pull;  // finish_path's, for any-angle paths
};

namespace block_astar_impl {

// The links and plain block shape of the database's rule and block size, built when they
// are not those already in `st` (query.cpp).
void build_links(block_search_state& st, const database& db);
// build_links, and the squares' shapes too when `st` does not hold them yet (query.cpp).
void build_squares(block_search_state& st, const database& db);

// search_context::reserve for Block A* (reserve.cpp); `write`: write the pages of the tables
// it can leave to the queries (reserve_options::prefault_bytes).
void reserve_blocks(block_search_state& st, const database& db, const grid_map& map, bool write);

// A node's g-values, parents and neighbour slots (kConst: read only).
template <bool kConst>
struct node_store {
  template <class T>
  using ptr = std::conditional_t<kConst, const T*, T*>;
  ptr<cost_t> g;
  ptr<parent_ref> parent;
  ptr<int> neighbour;
};

// The search itself, over the query and the nodes kept in a block_search_state.
class block_search {
 public:
  explicit block_search(block_search_state& st);

  // Checks the query and seeds OPEN from the start. False when `r` is already final.
  bool begin(search_result& r);
  // Algorithm 2, for at most `limit` expansions: true when the query has ended (found or
  // no path), and then `r` holds the answer.
  bool advance(std::uint64_t limit, search_result& r);
  // Ends a query stopped by its budget: the path to the most promising point reached.
  void give_up(search_result& r);
  void no_path(search_result& r) const;  // status and message

 private:
  // ---- nodes (slots.cpp)
  int slot_of(int bx, int by);  // creates the node when the query has not touched the block
  block_slot& slot(int s) { return st_.pool[s]; }
  const block_slot& slot(int s) const { return st_.pool[s]; }
  // A plain block or small square (level <= kSquareLevels).
  const node_shape& shape_of(const block_slot& s) const { return st_.shapes[s.level]; }
  static bool is_large(const block_slot& s) { return s.level > kSquareLevels; }
  const large_shape& large_shape_of(const block_slot& s) const { return st_.large[s.level]; }
  large_nodes& large_of(const block_slot& s) const { return st_.large_state[static_cast<std::size_t>(s.ext)]; }
  square_nodes& square_of(const block_slot& s) const { return st_.square_state[static_cast<std::size_t>(s.ext)]; }
  // Where a node keeps its points: in the slot for a block, beside it for a square.
  node_store<false> store(block_slot& s) const {
    if (s.level == 0) return {s.g.data(), s.parent.data(), s.neighbour.data()};
    square_nodes& q = square_of(s);
    return {q.g.data(), q.parent.data(), q.neighbour.data()};
  }
  node_store<true> store(const block_slot& s) const {
    const node_store<false> w = store(const_cast<block_slot&>(s));  // handed out read only
    return {w.g, w.parent, w.neighbour};
  }
  // The path's way back from point x of node s, whichever node keeps it: its parent, and
  // the node at its ring position `around`.
  wide_parent parent_of(const block_slot& s, int x) const {
    if (is_large(s)) return large_of(s).parent[static_cast<std::size_t>(x)];
    const parent_ref p = store(s).parent[x];
    return {p.kind, p.index, p.around};
  }
  int neighbour_of(const block_slot& s, int around) const {
    return is_large(s) ? large_of(s).neighbour[static_cast<std::size_t>(around)] : store(s).neighbour[around];
  }
  // Where block (bx, by), next to `of`, sits in of's ring of neighbours.
  int ring_index(const block_slot& of, int bx, int by) const {
    return ring_position(bx - of.bx, by - of.by, 1 << of.level);
  }
  // Boundary point i of node s on the map.
  point global(const block_slot& s, int i) const {
    const point p = is_large(s) ? large_shape_of(s).points[static_cast<std::size_t>(i)]
                                : shape_of(s).points[static_cast<std::size_t>(i)];
    return {s.bx * b_ + p.x, s.by * b_ + p.y};
  }
  point global_in_block(const block_slot& s, int i) const {  // global() for a plain block s
    const point p = st_.shapes[0].points[static_cast<std::size_t>(i)];
    return {s.bx * b_ + p.x, s.by * b_ + p.y};
  }

  // ---- heuristic
  cost_t h(point p) const { return heuristic_.h(p); }
  // OPEN's key of a point: g + weight * h (key_weight).
  cost_t key(cost_t g, cost_t h) const { return g + weight_(h); }
  // h of the boundary points of s in `which`, into out[point].
  void heuristics(const block_slot& s, point_set which, cost_t* out) const {
    heuristic_.h_batch({s.bx * b_, s.by * b_}, shape_of(s).points.data(), which, out);
  }

  // ---- Algorithm 1 (expansion.cpp)
  // An expansion returns the points it handed on or took in: those it expanded.
  using expansion = point_set (block_search::*)(int s, point_set ingress);
  expansion pick_expansion() const;  // once per slice: squares or not, AVX2 or not
  template <bool kSquares, class Rows>
  point_set expand(int s, point_set ingress);
  // Weighted search: closes the points of node s just expanded whose key is at most
  // OPEN's least (query.cpp).
  void close(int s, point_set expanded);
  // The steps of an expansion, inlined into it (expansion.cpp): the per-point loops are
  // the search's hot path.
  template <bool kSquares, class Rows>
  [[gnu::always_inline]] point_set egress_costs(block_slot& cur, point_set ingress);
  template <class Rows, class Decode>
  [[gnu::always_inline]] point_set egress_costs_stored(block_slot& cur, point_set ingress, point_set egress,
                                                       Decode decode);
  point_set to_hand_on(const block_slot& cur, point_set ingress, point_set changed) const;
  // kWeighted false: weight 1 (weight_factor::is_one), where no point is closed and a key
  // is g + h, so the hand-on between plain blocks, the hot loop of tile and octile, skips
  // both tests.
  template <bool kVertices, bool kWeighted>
  [[gnu::always_inline]] void hand_on_blocks(int s, block_slot& cur, point_set hand_on);
  template <bool kWeighted>
  [[gnu::always_inline]] void hand_on_squares(int s, block_slot& cur, point_set hand_on);
  // f(link, source point) for each legal link of square `cur` from a point of `sources`;
  // a square's links come in order of source (up to 188 of them).
  template <class F>
  [[gnu::always_inline]] void each_square_link(const block_slot& cur, point_set sources, F&& f) {
    const node_shape& q = shape_of(cur);
    const auto& ok = square_of(cur).link_ok;
    for (point_set m = sources; m; m &= m - 1) {
      const int i = __builtin_ctzll(m);
      for (int k = q.first_link[static_cast<std::size_t>(i)]; k < q.first_link[static_cast<std::size_t>(i) + 1]; ++k)
        if ((ok[static_cast<std::size_t>(k / 64)] >> (k % 64)) & 1u) f(q.links[static_cast<std::size_t>(k)], i);
    }
  }
  template <bool kWeighted>
  [[gnu::always_inline]] void hand_on_vertex(int s, block_slot& cur, const cost_t* cur_g, int* neighbours,
                                             const link& l, cost_t hv);
  [[gnu::always_inline]] void hand_on_cell_squares(int s, block_slot& cur, point_set hand_on);
  template <bool kFromSquare>
  [[gnu::always_inline]] void hand_on_cell(int s, block_slot& cur, const cost_t* cur_g, int* neighbours, const link& l);
  void hand_into_square(int s, const block_slot& cur, const link& l, int ns, cost_t ng);
  // ---- large squares (large_expansion.cpp)
  void expand_large(int s);
  // Point `target` of large square ns takes g-value ng from point `source` of node s,
  // which it finds at its ring position `back`; hn is the point's h.
  void receive_large(int ns, int target, int back, int s, int source, cost_t ng, cost_t hn);
  // Hands g-value ng of point `source` of large square s (shape q) on along its legal link
  // l, into whatever node holds the block there; hn is the vertex's h (vertices only).
  void hand_from_large(int s, const large_shape& q, int source, const large_link& l, cost_t ng, cost_t hn);
  template <bool kWeighted = true>
  [[gnu::always_inline]] bool improve_block(block_slot& nb, const link& l, cost_t ng);
  template <bool kWeighted = true>
  [[gnu::always_inline]] void offer(int ns, cost_t ng, cost_t hn);
  void push_offers();

  // ---- the path (reconstruct.cpp)
  void reconstruct(search_result& r) const;
  // Appends the waypoints from boundary point x of slot s back to the start.
  void walk_back(int s, int x, std::vector<point>& out) const;
  // The answer's path, in place, from waypoints in walk_back's order: the waypoints
  // reversed (vertices), or every cell of the runs between them (cells).
  void to_path(std::vector<point>& way) const;
  // The cost of the path walk_back follows, link by link, and of the whole answer. It can
  // be less than the g-value or length recorded: a point improved after the best path
  // through it was recorded (which a weighted search does) leads along the cheaper path.
  cost_t cost_back(int s, int x) const;
  cost_t path_cost() const;

  const database& db_;
  const grid_map& map_;
  const rule& rule_;
  const block_shape& shape_;
  block_query& q_;
  block_search_state& st_;
  const int b_, n_;
  const std::size_t map_blocks_ = static_cast<std::size_t>(map_.blocks_x()) * static_cast<std::size_t>(map_.blocks_y());
  const tie_order tie_;
  const bool avx2_;  // rows of costs through min_plus.hpp's avx2_rows
  // A square's rows (28 or 60 cells, 32 or 64 vertices) gain from AVX2 under every rule.
  const bool square_avx2_ = q_.options.diagnostics.vector_kernels && cpu_has_avx2();
  // The one heuristic so far; another (block_heuristic) would make this a template
  // parameter of the search.
  const goal_distance heuristic_;
  const weight_factor weight_;
};

// A neighbour's point improved to g-value ng (h its heuristic): remember the neighbour's
// least (g + weight * h, tie) for OPEN. The tie reads h itself: the same order, and within
// tie_order's range whatever the weight.
template <bool kWeighted>
inline void block_search::offer(int ns, cost_t ng, cost_t hn) {
  const cost_t t = tie_(hn), f = kWeighted ? key(ng, hn) : ng + hn;
  block_search_state::key& cand = st_.candidate[static_cast<std::size_t>(ns)];
  if (cand.f == kUnreachable) st_.touched.push_back(ns);
  if (f < cand.f || (f == cand.f && t < cand.tie)) cand = {f, t};
}

inline void block_search::push_offers() {
  for (int ns : st_.touched) {
    const block_search_state::key k = st_.candidate[static_cast<std::size_t>(ns)];
    st_.open.push_or_decrease(st_.pool.slots(), ns, k.f, k.tie, q_.stats);
    st_.candidate[static_cast<std::size_t>(ns)] = {kUnreachable, 0};
  }
}

}  // namespace block_astar_impl
}  // namespace lddb
