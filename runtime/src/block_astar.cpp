// Block A* (Yap, Burch, Holte, Schaeffer, AAAI 2011; Algorithms 1 and 2).
//
// The nodes are blocks of b x b cells. Every boundary point (cell, or corner for
// any-angle) of a touched block keeps a g-value and a parent. Expanding a block takes its
// ingress points (g improved since its last expansion), adds the database's costs to every
// other boundary point of the block (Algorithm 1, line 5), and hands each boundary point
// on to the points of neighbouring blocks it can step to (line 6: one legal move for
// cells, the very same vertex at cost 0 for corners). A neighbour whose points improved is
// pushed with the least g + h among those points (line 8).
//
// Open squares (any-angle, b <= 4; search_options::open_squares): the blocks of an aligned
// 4 x 4 group, or else 2 x 2 group, whose cells are all free form one node, a square of
// 4b x 4b (2b x 2b) cells. Its boundary costs are straight-line lengths, rounded as the
// database rounds them, since any segment inside a free square is legal. Open ground then
// takes fewer, larger expansions, and paths across it bend less. A group that holds the
// start or the goal is not a square, so that their blocks' local searches stay the
// database's.
//
// Per-query state lives in a pool of block slots found through a small hash table, so a
// context grows with the blocks a query touches, not with the map, and is reused.
#include <algorithm>
#include <array>
#include <chrono>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "context.hpp"
#include "heuristic.hpp"
#include "lddb/search.hpp"
#include "min_plus.hpp"
#include "lddb/moves.hpp"
#include "lddb/block_graph.hpp"
#include "lddb/block_shape.hpp"

namespace lddb {

namespace {

constexpr int kMaxBoundary = 4 * block_shape::kMaxBlock;
// Open squares come in two sizes (levels): 2 x 2 and 4 x 4 blocks. The larger one's 16b
// boundary vertices must fit a 64-bit point_set, so squares need b <= 4.
constexpr int kMaxSquareBlock = 4;
constexpr int kSquareLevels = 2;                      // level L: 2^L x 2^L blocks
constexpr int kSquarePoints = 16 * kMaxSquareBlock;   // the most boundary vertices of a square
constexpr int kSquareRing = (4 + 2) * (4 + 2);        // ring positions around a 4 x 4 square
constexpr int kSquareIdShift = 30;                    // a square's id: its top-left block's, level << 30
static_assert(kMaxBoundary <= kSquarePoints, "heuristics() works through arrays of kSquarePoints");
// A set of a node's boundary points: bit i for point i.
using point_set = std::uint64_t;
constexpr int kMaxStarts = 4;  // a corner vertex lies in four blocks
constexpr std::uint64_t kNoLimit = ~std::uint64_t{0};

// Aligned to a cache line (384 bytes with b <= 5), so that the fields every visit reads, up
// to heap_tie, share one line: at 344 bytes unaligned, octile Block A* ran 5-10% slower on
// maze512-8-1 and random512-25-1 (interleaved runs).
struct alignas(64) block_slot {
  std::uint32_t block_id;
  int bx, by;    // the block, or a square's top-left block
  std::uint32_t code;
  int ext;                // a square's points: square_state[ext]
  int heap_pos;           // the block's index in the heap, -1 when not in OPEN
  int goal_index;         // >= 0 for a block that contains the goal
  std::uint8_t level;     // 0: a block; else an open square of 2^level x 2^level blocks (any-angle)
  // Set on first expansion (the map cannot change during a query): which links are
  // legal moves out of this block, and the boundary points with at least one. A point
  // without one cannot hand a g-value on, so the min-plus product skips it.
  bool prepared;
  point_set exitable;
  point_set ingress;      // boundary points improved since the last expansion
  cost_t heap_value;      // kUnreachable when not in OPEN
  cost_t heap_tie;        // tie(h) of the point that gave heap_value: the less, the sooner among equal f
  // Cells: bit k of link_ok is set when links[k] is a legal move out of this block, worked
  // out once in prepare so that handing on does not branch on it (such branches mispredict on
  // cluttered maps). Vertices: link_ok has every link, and free_ring is the ring mask of
  // free cells: a link is legal when one of its target's cells in the neighbour is free
  // (its source is usable, having a g-value).
  std::uint64_t link_ok;
  std::uint64_t free_ring;
  // Slots of the blocks around (-1: not known yet), by ring position (ring_index). A block
  // of a square maps to the square's slot.
  std::array<int, 9> neighbour;
  std::array<cost_t, kMaxBoundary> g;
  std::array<parent_ref, kMaxBoundary> parent;
};

// Where a boundary point leads outside its block: one move (cells) or the very same
// vertex (corners) in a neighbouring block. A block has at most 56 of them (b = 5 cells),
// so one 64-bit mask says which are legal.
struct link {
  std::uint8_t source;     // boundary index in this block
  std::uint8_t target;     // boundary index in the neighbour
  std::uint8_t around;     // the neighbour's ring position (block_search::ring_position)
  std::int8_t ox, oy;      // neighbour block offset
  std::int8_t dx, dy;      // the move (cells); 0, 0 for a shared vertex
  std::uint8_t legal_word, legal_bit;  // cells: where block_slot::legal says if the link is legal
  std::uint8_t back;       // from a square into a plain block: target's index there is `target`, and
                           // the block finds the square at its ring position `back`
  std::uint64_t target_ring;  // vertices: the target's cells in the neighbour, as ring bits (see prepare);
                              // from a square, as pattern bits of the neighbouring block
  cost_t cost;
};
constexpr int kMaxLinks = 64;

// An open square's points and neighbours, kept apart so that a block slot, the common
// case and the only one for cell rules, stays small.
struct square_nodes {
  std::array<cost_t, kSquarePoints> g;
  std::array<parent_ref, kSquarePoints> parent;
  std::array<int, kSquareRing> neighbour;  // by ring position (ring_index)
  std::array<std::uint64_t, 2> link_ok;    // bit k: square_shape::links[k] is legal (a 4 x 4 square has up to 84)
};

// The geometry of one size of open square (build_squares): its boundary vertices, their
// straight-line costs and the links from them to the blocks around.
struct square_shape {
  int blocks = 0;  // 2^level blocks a side
  int side = 0;    // cells a side
  int count = 0;   // boundary vertices, 4 * side
  std::array<point, kSquarePoints> points;  // boundary index -> vertex (square coordinates)
  std::vector<int> index;                   // vertex (y * (side + 1) + x) -> boundary index, -1 inside
  std::vector<cost_t> cost;                 // count x count
  std::vector<link> links;                  // in order of source
  std::array<std::uint16_t, kSquarePoints + 1> first_link;  // links of point i: [first_link[i], first_link[i + 1])
};

}  // namespace

// One query's own state, kept in the context so that a query can run in slices.
struct block_query {
  const database* db = nullptr;
  const grid_map* map = nullptr;
  point start, goal;
  search_options options{heuristic_kind::zero};
  bool active = false;  // begun and not finished
  search_stats stats;
  // The best path found so far: through goal block slot `best_goal_slot` and its point
  // `best_point`, or directly inside a block that holds both start and goal.
  cost_t length = kUnreachable;
  int best_goal_slot = -1, best_point = -1;
  int direct_start = -1;  // start index whose local search reached the goal
  std::array<int, kMaxStarts> start_slot{};
  std::array<point, kMaxStarts> goal_local{};
  std::vector<point> expanded;  // when options.record_expanded
};

struct block_search_state {
  block_query query;
  // Block slots: the first `used` belong to this query. Slots are reused between queries
  // without clearing; a new one sets what it needs (g to infinity; parents are only read
  // behind a finite g).
  std::vector<block_slot> slots;
  std::size_t used = 0;
  // Open addressing: block id -> slot index, valid when stamp == generation. Each block
  // of a square has an entry for the square's slot, so that finding a block's node does
  // not work out again which square it belongs to.
  struct bucket {
    std::uint32_t block_id, slot, stamp;
  };
  std::vector<bucket> table;
  std::size_t entries = 0;  // buckets in use this query
  std::uint32_t generation = 0;
  // OPEN: a binary heap of blocks keyed (f, h, slot). Each block is in it at most once and
  // knows where (heap_pos), so an improved key moves its entry up in place: no stale
  // entries to sift down past later. An entry is 16 bytes, four to a cache line, and is
  // its own key: f, then the top of h (h >> 16, saturated, so ordered as h), then the slot
  // (the order the query met the blocks in, the same on every run). Comparing two entries
  // reads nothing else and needs no branch, so sifting does not stall on mispredicted
  // comparisons (octile 4-8% faster than a key that read exact ties from the slots).
  struct heap_entry {
    cost_t f;
    std::uint64_t rest;  // h_high << 32 | slot
    int slot() const { return static_cast<int>(static_cast<std::uint32_t>(rest)); }
  };
  std::vector<heap_entry> heap;
  struct key {
    cost_t f, tie;
  };
  std::vector<key> candidate;  // per slot: new (heap value, tie) during one expansion
  std::vector<int> touched;

  // Links and floor_cost (build_links), rebuilt when the rule, block size or stored unit
  // changes; links in order of source point.
  rule links_rule;
  int links_block = 0;
  std::vector<link> links;
  std::array<std::uint64_t, kMaxBoundary> point_links;  // bit k: links[k] starts here
  std::uint64_t all_links;       // a bit for each link
  std::uint32_t linked_points;   // a bit for each boundary point with a link
  // Vertices: each boundary vertex's cells inside the block and outside it, as ring bits.
  std::array<std::uint64_t, kMaxBoundary> own_ring, other_ring;
  // A lower bound on the database cost between two boundary points in any block: the
  // rule's distance in open space (its default heuristic), less one stored unit for the
  // rounding of any-angle lengths. A min-plus step whose bound cannot beat the point's
  // g-value skips the table lookup. `floor_unit` is that unit (0 for exact cell costs).
  std::array<std::array<cost_t, kMaxBoundary>, kMaxBoundary> floor_cost;
  cost_t floor_unit = 0;

  std::array<block_graph::paths, kMaxStarts> start_paths, goal_paths;
  std::vector<point> scratch;  // path reconstruction, kept for its capacity

  // Open squares (build_squares), for the links' rule and block size; `squares` says
  // whether this query uses them.
  bool squares = false;
  std::vector<square_nodes> square_state;  // the first squares_used belong to this query
  std::size_t squares_used = 0;
  std::array<square_shape, kSquareLevels> square_shapes;  // [level - 1]; blocks == 0: none for this rule
};

void destroy_state(block_search_state* s) { delete s; }
std::size_t state_bytes(const block_search_state* s) {
  if (!s) return 0;
  std::size_t n = sizeof(*s) + s->slots.capacity() * sizeof(block_slot) +
                  s->table.capacity() * sizeof(block_search_state::bucket) + s->heap.capacity() * sizeof(block_search_state::heap_entry) +
                  s->candidate.capacity() * sizeof(block_search_state::key) + s->touched.capacity() * sizeof(int);
  n += s->links.capacity() * sizeof(link) + s->square_state.capacity() * sizeof(square_nodes);
  for (const square_shape& q : s->square_shapes)
    n += q.links.capacity() * sizeof(link) + q.cost.capacity() * sizeof(cost_t) + q.index.capacity() * sizeof(int);
  return n;
}

namespace {

// The search itself, over the query and the slots kept in a block_search_state.
class block_search {
 public:
  explicit block_search(block_search_state& st)
      : db_(*st.query.db),
        map_(*st.query.map),
        rule_(db_.movement()),
        shape_(db_.shape()),
        start_(st.query.start),
        goal_(st.query.goal),
        opt_(st.query.options),
        st_(st),
        b_(shape_.block()),
        n_(shape_.boundary_count()),
        octile_pairs_(db_.info().encoding == cost_encoding::octile_pair),
        shallow_ties_(rule_.kind == rule_kind::octile),
        // Vertex rules only: a cell block's rows (12 points at b = 4) came out 3% slower with
        // AVX2 (64room_001 octile, interleaved runs).
        avx2_(opt_.vector_kernels && cpu_has_avx2() && rule_.on_vertices() && n_ % 4 == 0),
        stats_(st.query.stats),
        length_(st.query.length),
        best_goal_slot_(st.query.best_goal_slot),
        best_point_(st.query.best_point),
        direct_start_(st.query.direct_start),
        start_slot_(st.query.start_slot),
        goal_local_(st.query.goal_local),
        expanded_(opt_.record_expanded ? &st.query.expanded : nullptr) {}

  // Checks the query and seeds OPEN from the start. False when `r` is already final.
  bool begin(search_result& r);
  // Algorithm 2, for at most `limit` expansions: true when the query has ended (found or
  // no path), and then `r` holds the answer.
  bool advance(std::uint64_t limit, search_result& r);
  // Ends a query stopped by its budget: the path to the most promising point reached.
  void give_up(search_result& r);

 private:
  // ---- slots
  int slot_of(int bx, int by);  // creates the slot when the query has not touched the block
  // The level of the open square that block (bx, by) belongs to, 0 for none.
  int square_level(int bx, int by) const;
  const square_shape& shape_of(int level) const { return st_.square_shapes[static_cast<std::size_t>(level - 1)]; }
  int points(const block_slot& s) const { return s.level ? shape_of(s.level).count : n_; }
  square_nodes& square_of(const block_slot& s) const { return st_.square_state[static_cast<std::size_t>(s.ext)]; }
  cost_t* g_of(block_slot& s) const { return s.level ? square_of(s).g.data() : s.g.data(); }
  const cost_t* g_of(const block_slot& s) const { return s.level ? square_of(s).g.data() : s.g.data(); }
  parent_ref* parent_of(block_slot& s) const { return s.level ? square_of(s).parent.data() : s.parent.data(); }
  const parent_ref* parent_of(const block_slot& s) const { return s.level ? square_of(s).parent.data() : s.parent.data(); }
  int* neighbours_of(block_slot& s) const { return s.level ? square_of(s).neighbour.data() : s.neighbour.data(); }
  const int* neighbours_of(const block_slot& s) const { return s.level ? square_of(s).neighbour.data() : s.neighbour.data(); }
  // Along one axis: which of a square's `blocks` blocks holds its boundary vertex at
  // coordinate c (square coordinates). A vertex between two blocks counts as the first's;
  // walk_back finds the square from there.
  int holding_block(int c, int blocks) const { return std::min(std::max(c - 1, 0) / b_, blocks - 1); }
  // The ring position of the block at offset (ox, oy) from the top-left block of a node
  // `blocks` blocks a side (1 for a plain block): column-major over the ring and the node.
  static int ring_position(int ox, int oy, int blocks) { return (ox + 1) * (blocks + 2) + (oy + 1); }
  // Where block (bx, by), next to `of`, sits in of's ring of neighbours.
  int ring_index(const block_slot& of, int bx, int by) const {
    return ring_position(bx - of.bx, by - of.by, of.level ? shape_of(of.level).blocks : 1);
  }
  void build_squares();
  [[gnu::always_inline]] inline void prepare(block_slot& slot) const;  // inlined: its call cost showed (callgrind)
  void prepare_square(block_slot& slot) const;
  void reset();
  void build_links();

  // ---- the heap of blocks, keyed (heap_value, heap_tie, slot)
  using heap_entry = block_search_state::heap_entry;
  // Lexicographic (f, rest) without a branch: one 128-bit comparison (compare and
  // subtract with borrow) where the compiler has the type, else flag arithmetic (2-4%
  // slower with g++ 12).
  static bool heap_less(const heap_entry& x, const heap_entry& y) {
#if defined(__SIZEOF_INT128__)
    __extension__ using wide = unsigned __int128;  // a GCC and Clang type: no -Wpedantic warning
    return (wide{x.f} << 64 | x.rest) < (wide{y.f} << 64 | y.rest);
#else
    return (x.f < y.f) | ((x.f == y.f) & (x.rest < y.rest));
#endif
  }
  static std::uint32_t h_high(cost_t h) {
    return static_cast<std::uint32_t>(std::min<cost_t>(h >> 16, std::numeric_limits<std::uint32_t>::max()));
  }
  // The order among blocks of equal f, from the h of the point that gives a block its key:
  // the less, the sooner. Tile and any-angle take the deeper block first (least h), as A*
  // implementations commonly prefer the larger g. Octile takes the shallower first: a
  // block popped ahead of the blocks behind it at the same f is popped again when their
  // points reach it, and octile's f-values tie often enough for this to show: re-expansions
  // on 64room_001 fell from 14% of pops to 0.3%, and octile came out 3-6% faster on
  // random512-25-1, brc202d, 64room_001 and maze512-8-1, 4-8% slower on AR0500SR and
  // den520d (3 interleaved rounds). Tile the same way was 10-37% slower.
  static constexpr cost_t kShallowTop = (cost_t{1} << 48) - 1;  // above any h on a kMaxSide map, so that top - h keeps h's order reversed
  static_assert(cost_t{grid_map::kMaxSide} * 2 * kCostOne < kShallowTop, "the octile h of a largest map must stay below kShallowTop");
  cost_t tie(cost_t h) const { return shallow_ties_ ? kShallowTop - h : h; }
  void heap_place(std::size_t i, const heap_entry& e) {
    st_.heap[i] = e;
    st_.slots[static_cast<std::size_t>(e.slot())].heap_pos = static_cast<int>(i);
  }
  void heap_up(std::size_t i);
  void heap_down(std::size_t i);
  void heap_push_or_decrease(int s, cost_t value, cost_t value_tie);
  int heap_pop();

  // ---- geometry
  point global_block(const block_slot& s, int boundary) const {  // s is not a square
    const point p = shape_.boundary_point(boundary);
    return {s.bx * b_ + p.x, s.by * b_ + p.y};
  }
  point global(const block_slot& s, int boundary) const {
    const point p = s.level ? shape_of(s.level).points[static_cast<std::size_t>(boundary)] : shape_.boundary_point(boundary);
    return {s.bx * b_ + p.x, s.by * b_ + p.y};
  }
  cost_t h(point p) const { return heuristic_cost(opt_.heuristic, rule_, p.x, p.y, goal_.x, goal_.y); }
  // h of the boundary points of s in `which`, into out[point]: worked out together, so that
  // their square roots overlap instead of each waiting on the last.
  void heuristics(const block_slot& s, point_set which, cost_t* out) const {
    if (opt_.heuristic != heuristic_kind::euclidean) {
      for (; which; which &= which - 1) out[__builtin_ctzll(which)] = h(global(s, __builtin_ctzll(which)));
      return;
    }
    std::array<double, kSquarePoints> squares;
    std::array<std::uint8_t, kSquarePoints> index;
    int k = 0;
    for (; which; which &= which - 1) {
      const int i = __builtin_ctzll(which);
      const point p = global(s, i);
      const std::int64_t dx = p.x - goal_.x, dy = p.y - goal_.y;
      squares[static_cast<std::size_t>(k)] = static_cast<double>(dx * dx + dy * dy);
      index[static_cast<std::size_t>(k++)] = static_cast<std::uint8_t>(i);
    }
    std::array<cost_t, kSquarePoints> costs;
    euclid_costs(squares.data(), k, costs.data());
    for (int j = 0; j < k; ++j) out[index[static_cast<std::size_t>(j)]] = costs[static_cast<std::size_t>(j)];
  }
  // Blocks holding point p (cells: one; vertices: up to four), with p's local point.
  int containing_blocks(point p, std::array<std::pair<point, point>, kMaxStarts>& out) const;

  // kSquares: this query may meet open squares (st_.squares); false compiles them out.
  template <bool kSquares>
  void expand(int s, point_set ingress);
  void hand_on_squares(int s, block_slot& cur, point_set hand_on);
  // The paper's hand-on between two blocks: g-value ng reaches point l.target of nb through
  // link l. False when it does not improve that point.
  [[gnu::always_inline]] bool improve_block(block_slot& nb, const link& l, cost_t ng) {
    if (ng >= nb.g[l.target]) return false;
    nb.g[l.target] = ng;
    nb.parent[l.target] = {via::neighbour, l.source, static_cast<std::uint8_t>(8 - l.around)};
    nb.ingress |= point_set{1} << l.target;
    ++stats_.generated;
    return true;
  }
  // A neighbour's point improved to g-value ng (h its heuristic): remember the neighbour's
  // least (g + h, tie(h)) for OPEN (lines 8-16).
  [[gnu::always_inline]] void offer(int ns, cost_t ng, cost_t hn) {
    const cost_t t = tie(hn);
    block_search_state::key& cand = st_.candidate[static_cast<std::size_t>(ns)];
    if (cand.f == kUnreachable) st_.touched.push_back(ns);
    if (ng + hn < cand.f || (ng + hn == cand.f && t < cand.tie)) cand = {ng + hn, t};
  }
  void reconstruct(search_result& r) const;
  // Appends the waypoints from boundary point x of slot s back to the start.
  void walk_back(int s, int x, std::vector<point>& out) const;

  const database& db_;
  const grid_map& map_;
  const rule& rule_;
  const block_shape& shape_;
  const point start_, goal_;
  const search_options& opt_;
  block_search_state& st_;
  const int b_, n_;
  const bool octile_pairs_;
  const bool shallow_ties_;  // see tie()
  const bool avx2_;  // min-plus rows through relax_rows_avx2 and improved_by_row_avx2 (min_plus.hpp)
  // The query's fields (block_query), by their working names.
  search_stats& stats_;
  cost_t& length_;
  int &best_goal_slot_, &best_point_, &direct_start_;
  std::array<int, kMaxStarts>& start_slot_;
  std::array<point, kMaxStarts>& goal_local_;
  std::vector<point>* expanded_;
};

void block_search::reset() {
  st_.used = 0;
  st_.entries = 0;
  st_.squares_used = 0;
  st_.heap.clear();
  st_.candidate.clear();
  if (st_.table.empty()) st_.table.assign(1024, {0, 0, 0});
  if (++st_.generation == 0) {  // the stamp wrapped: really clear, once in 4 billion queries
    std::fill(st_.table.begin(), st_.table.end(), block_search_state::bucket{0, 0, 0});
    st_.generation = 1;
  }
}

inline int block_search::square_level(int bx, int by) const {
  if (!st_.squares || map_.block_code(bx, by) != 0) return 0;  // on cluttered maps, most blocks stop here
  // The group of k x k blocks (aligned) around (bx, by) is a square when its blocks are all
  // open and it does not hold the start or goal, on its border included: those keep their
  // blocks and their local searches. A 4 x 4 group holds a 2 x 2 one, so that goes first.
  int level = 0;
  for (int l = 1; l <= kSquareLevels; ++l) {
    const int k = 1 << l, sx = bx & ~(k - 1), sy = by & ~(k - 1);
    if (sx + k > map_.blocks_x() || sy + k > map_.blocks_y()) break;
    const int x0 = sx * b_, y0 = sy * b_, x1 = x0 + k * b_, y1 = y0 + k * b_;
    auto inside = [&](point p) { return p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1; };
    if (inside(start_) || inside(goal_)) break;
    for (int y = sy; y < sy + k; ++y)  // one block at a time: the first blocked one says no
      for (int x = sx; x < sx + k; ++x)
        if (map_.block_code(x, y) != 0) return level;
    level = l;
  }
  return level;
}

int block_search::slot_of(int bx, int by) {
  const auto block_id = [bw = static_cast<std::uint32_t>(map_.blocks_x())](int x, int y) {
    return static_cast<std::uint32_t>(y) * bw + static_cast<std::uint32_t>(x);
  };
  auto& table = st_.table;
  const std::size_t mask = table.size() - 1;
  const std::uint32_t plain = block_id(bx, by);
  std::size_t i = (plain * 0x9E3779B1u) & mask;
  while (table[i].stamp == st_.generation) {
    if (table[i].block_id == plain) return static_cast<int>(table[i].slot);
    i = (i + 1) & mask;
  }
  // New node: the block, or the square it belongs to.
  const int level = square_level(bx, by);
  const int k = 1 << level;  // blocks a side
  bx &= ~(k - 1);
  by &= ~(k - 1);
  const std::uint32_t id = block_id(bx, by) | static_cast<std::uint32_t>(level) << kSquareIdShift;
  auto place = [&](std::vector<block_search_state::bucket>& into, std::uint32_t key, std::uint32_t slot) {
    std::size_t j = (key * 0x9E3779B1u) & (into.size() - 1);
    while (into[j].stamp == st_.generation) j = (j + 1) & (into.size() - 1);
    into[j] = {key, slot, st_.generation};
  };
  auto place_node = [&](std::vector<block_search_state::bucket>& into, const block_slot& node, std::uint32_t slot) {
    const int side = 1 << node.level;
    for (int y = node.by; y < node.by + side; ++y)
      for (int x = node.bx; x < node.bx + side; ++x) place(into, block_id(x, y), slot);
  };
  // Grow the table first when it would pass half full.
  st_.entries += static_cast<std::size_t>(k * k);
  bool probed = true;  // bucket i is free for a block (level 0)
  if (st_.entries * 2 > table.size()) {
    std::size_t size = table.size() * 2;
    while (st_.entries * 2 > size) size *= 2;
    std::vector<block_search_state::bucket> bigger(size, {0, 0, 0});
    for (std::size_t s = 0; s < st_.used; ++s) place_node(bigger, st_.slots[s], static_cast<std::uint32_t>(s));
    table.swap(bigger);
    probed = false;
  }
  const int s = static_cast<int>(st_.used);
  if (st_.used == st_.slots.size()) st_.slots.emplace_back();
  block_slot& slot = st_.slots[st_.used++];
  slot.block_id = id;
  slot.bx = bx;
  slot.by = by;
  slot.level = static_cast<std::uint8_t>(level);
  if (level == 0 && probed)
    table[i] = {plain, static_cast<std::uint32_t>(s), st_.generation};
  else
    place_node(table, slot, static_cast<std::uint32_t>(s));
  slot.code = level ? 0 : map_.block_code(bx, by);
  slot.ingress = 0;
  slot.heap_value = kUnreachable;
  slot.heap_tie = kUnreachable;
  slot.heap_pos = -1;
  slot.goal_index = -1;
  slot.prepared = false;
  if (level) {
    if (st_.squares_used == st_.square_state.size()) st_.square_state.emplace_back();
    slot.ext = static_cast<int>(st_.squares_used++);
    square_nodes& sq = st_.square_state[static_cast<std::size_t>(slot.ext)];
    const square_shape& shape = shape_of(level);
    std::fill_n(sq.g.begin(), shape.count, kUnreachable);
    std::fill_n(sq.neighbour.begin(), (shape.blocks + 2) * (shape.blocks + 2), -1);
  } else {
    slot.ext = -1;
    slot.g.fill(kUnreachable);
    slot.neighbour.fill(-1);
  }
  st_.candidate.push_back({kUnreachable, 0});
  return s;
}

void block_search::build_links() {
  // Cell rules store exact costs (whole steps, or octile pairs); any-angle lengths are
  // rounded to the nearest stored unit.
  const cost_t unit = rule_.on_vertices() ? cost_t{1} << (kCostShift - db_.info().scale_log2) : 0;
  if (st_.links_block == b_ && st_.links_rule == rule_ && st_.floor_unit == unit) return;
  st_.links.clear();
  // The cells of vertex p (block coordinates) that lie in the block at offset (ox, oy),
  // as ring bits.
  auto vertex_ring = [&](point p, int ox, int oy) {
    std::uint64_t bits = 0;
    for (int cy = p.y - 1; cy <= p.y; ++cy)
      for (int cx = p.x - 1; cx <= p.x; ++cx) {
        const int kx = cx < 0 ? -1 : (cx >= b_ ? 1 : 0), ky = cy < 0 ? -1 : (cy >= b_ ? 1 : 0);
        if (kx == ox && ky == oy) bits |= std::uint64_t{1} << ((cy + 1) * (b_ + 2) + (cx + 1));
      }
    return bits;
  };
  auto add = [&](int i, int ox, int oy, point q, int step, cost_t cost) {
    const point p = shape_.boundary_point(i);
    const int dx = step < 0 ? 0 : kSteps[static_cast<std::size_t>(step)][0];
    const int dy = step < 0 ? 0 : kSteps[static_cast<std::size_t>(step)][1];
    st_.point_links[static_cast<std::size_t>(i)] |= std::uint64_t{1} << st_.links.size();
    st_.links.push_back({static_cast<std::uint8_t>(i), static_cast<std::uint8_t>(shape_.boundary_index(q)),
                         static_cast<std::uint8_t>(ring_position(ox, oy, 1)), static_cast<std::int8_t>(ox),
                         static_cast<std::int8_t>(oy), static_cast<std::int8_t>(dx), static_cast<std::int8_t>(dy),
                         static_cast<std::uint8_t>(step < 0 ? 0 : step),
                         static_cast<std::uint8_t>(step < 0 ? 0 : (p.y + 1) * (b_ + 2) + (p.x + 1)), 0,
                         step < 0 ? vertex_ring(p, ox, oy) : 0, cost});
  };
  for (int i = 0; i < n_; ++i) {
    st_.point_links[static_cast<std::size_t>(i)] = 0;
    const point p = shape_.boundary_point(i);
    st_.own_ring[static_cast<std::size_t>(i)] = vertex_ring(p, 0, 0);
    st_.other_ring[static_cast<std::size_t>(i)] = 0;
    for (int ox = -1; ox <= 1; ++ox)
      for (int oy = -1; oy <= 1; ++oy)
        if (ox != 0 || oy != 0) st_.other_ring[static_cast<std::size_t>(i)] |= vertex_ring(p, ox, oy);
    if (rule_.on_vertices()) {
      // A boundary vertex is the same vertex in every block that shares it.
      for (int ox = -1; ox <= 1; ++ox)
        for (int oy = -1; oy <= 1; ++oy) {
          if (ox == 0 && oy == 0) continue;
          const point q{p.x - ox * b_, p.y - oy * b_};
          if (q.x < 0 || q.y < 0 || q.x > b_ || q.y > b_) continue;
          add(i, ox, oy, q, -1, 0);
        }
    } else {
      for (int m = 0; m < step_count(rule_); ++m) {
        const int dx = kSteps[static_cast<std::size_t>(m)][0], dy = kSteps[static_cast<std::size_t>(m)][1];
        const int tx = p.x + dx, ty = p.y + dy;
        if (tx >= 0 && ty >= 0 && tx < b_ && ty < b_) continue;  // stays inside: the database's job
        const int ox = tx < 0 ? -1 : (tx >= b_ ? 1 : 0), oy = ty < 0 ? -1 : (ty >= b_ ? 1 : 0);
        add(i, ox, oy, {tx - ox * b_, ty - oy * b_}, m, step_cost(rule_, dx, dy));
      }
    }
  }
  if (st_.links.size() > kMaxLinks) throw std::logic_error("block_astar: more links than a 64-bit mask holds");
  const heuristic_kind open_space = default_heuristic(rule_);
  for (int a = 0; a < n_; ++a)
    for (int c = 0; c < n_; ++c) {
      const point pa = shape_.boundary_point(a), pc = shape_.boundary_point(c);
      const cost_t d = heuristic_cost(open_space, rule_, pa.x, pa.y, pc.x, pc.y);
      st_.floor_cost[static_cast<std::size_t>(a)][static_cast<std::size_t>(c)] = d > unit ? d - unit : 0;
    }
  st_.floor_unit = unit;
  st_.all_links = st_.links.size() == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << st_.links.size()) - 1;
  st_.linked_points = 0;
  for (const link& l : st_.links) st_.linked_points |= 1u << l.source;
  build_squares();
  st_.links_rule = rule_;
  st_.links_block = b_;
}

void block_search::build_squares() {
  for (square_shape& q : st_.square_shapes) q.blocks = 0;
  if (!rule_.on_vertices() || b_ > kMaxSquareBlock) return;
  const int scale = db_.info().scale_log2;
  for (int level = 1; level <= kSquareLevels; ++level) {
    square_shape& q = st_.square_shapes[static_cast<std::size_t>(level - 1)];
    const int k = 1 << level, side = k * b_, stride = side + 1, n = 4 * side;
    q.blocks = k;
    q.side = side;
    q.count = n;
    // Boundary vertices clockwise from the top-left, as block_shape numbers a block's.
    q.index.assign(static_cast<std::size_t>(stride * stride), -1);
    int next = 0;
    auto add_point = [&](int x, int y) {
      q.points[static_cast<std::size_t>(next)] = {x, y};
      q.index[static_cast<std::size_t>(y * stride + x)] = next++;
    };
    for (int x = 0; x < side; ++x) add_point(x, 0);
    for (int y = 0; y < side; ++y) add_point(side, y);
    for (int x = side; x > 0; --x) add_point(x, side);
    for (int y = side; y > 0; --y) add_point(0, y);
    // Straight segments, each rounded as the generator rounds a stored length.
    q.cost.resize(static_cast<std::size_t>(n * n));
    for (int a = 0; a < n; ++a)
      for (int c = 0; c < n; ++c) {
        const point pa = q.points[static_cast<std::size_t>(a)], pc = q.points[static_cast<std::size_t>(c)];
        q.cost[static_cast<std::size_t>(a * n + c)] = round_to_units(euclid_cost(pa.x - pc.x, pa.y - pc.y), scale)
                                                      << (kCostShift - scale);
      }
    // Links: from each boundary vertex to every block around the square that holds it.
    q.links.clear();
    for (int i = 0; i < n; ++i) {
      q.first_link[static_cast<std::size_t>(i)] = static_cast<std::uint16_t>(q.links.size());
      const point p = q.points[static_cast<std::size_t>(i)];
      for (int ox = -1; ox <= k; ++ox)
        for (int oy = -1; oy <= k; ++oy) {
          if (ox >= 0 && ox < k && oy >= 0 && oy < k) continue;  // the square's own blocks
          if (p.x < ox * b_ || p.x > ox * b_ + b_ || p.y < oy * b_ || p.y > oy * b_ + b_) continue;
          std::uint64_t cells = 0;  // the vertex's cells in that block, as its pattern bits
          for (int cy = p.y - 1; cy <= p.y; ++cy)
            for (int cx = p.x - 1; cx <= p.x; ++cx) {
              const int lx = cx - ox * b_, ly = cy - oy * b_;
              if (lx >= 0 && lx < b_ && ly >= 0 && ly < b_) cells |= std::uint64_t{1} << (ly * b_ + lx);
            }
          // When the block there is a plain block (not in a square), the vertex's index in it
          // and where that block finds this square (as hand_on_squares works them out).
          const int hx = holding_block(p.x, k), hy = holding_block(p.y, k);
          const std::uint8_t target = static_cast<std::uint8_t>(shape_.boundary_index({p.x - ox * b_, p.y - oy * b_}));
          const std::uint8_t back = static_cast<std::uint8_t>(ring_position(hx - ox, hy - oy, 1));
          q.links.push_back({static_cast<std::uint8_t>(i), target, static_cast<std::uint8_t>(ring_position(ox, oy, k)),
                             static_cast<std::int8_t>(ox), static_cast<std::int8_t>(oy), 0, 0, 0, 0, back, cells, 0});
        }
    }
    q.first_link[static_cast<std::size_t>(n)] = static_cast<std::uint16_t>(q.links.size());
    if (q.links.size() > 128) throw std::logic_error("block_astar: more square links than square_nodes::link_ok holds");
  }
}

void block_search::prepare_square(block_slot& slot) const {
  // Every cell is free, so each boundary vertex is usable here; a link is legal when one
  // of the vertex's cells in the block it leads to is free.
  const square_shape& q = shape_of(slot.level);
  const int k = q.blocks;
  std::array<std::uint32_t, kSquareRing> codes;  // by ring position
  for (int ox = -1; ox <= k; ++ox)
    for (int oy = -1; oy <= k; ++oy)
      codes[static_cast<std::size_t>(ring_position(ox, oy, k))] = map_.block_code(slot.bx + ox, slot.by + oy);
  std::array<std::uint64_t, 2> ok{};
  point_set exitable = 0;
  for (std::size_t i = 0; i < q.links.size(); ++i) {
    const link& l = q.links[i];
    if ((~codes[l.around] & l.target_ring) == 0) continue;
    ok[i / 64] |= std::uint64_t{1} << (i % 64);
    exitable |= point_set{1} << l.source;
  }
  square_of(slot).link_ok = ok;
  slot.link_ok = 0;
  slot.exitable = exitable;
  slot.free_ring = 0;
}

inline void block_search::prepare(block_slot& slot) const {
  std::array<std::uint32_t, 9> codes;  // by link::around
  for (int k = 0; k < 9; ++k) codes[static_cast<std::size_t>(k)] = map_.block_code(slot.bx + k / 3 - 1, slot.by + k % 3 - 1);
  // The block and the ring of cells around it as one mask, bit (y + 1) * (b + 2) + (x + 1)
  // set when cell (x, y) (block coordinates, -1 to b) is free; 7 x 7 <= 64 bits.
  const int stride = b_ + 2;
  const std::uint32_t row_mask = (1u << b_) - 1;
  auto cell = [&](int k, int x, int y) { return std::uint64_t{(codes[static_cast<std::size_t>(k)] >> (y * b_ + x)) & 1u}; };
  auto ring_row = [&](int west, int mid, int east, int y) {  // blocked bits of one ring row
    return cell(west, b_ - 1, y) | std::uint64_t{(codes[static_cast<std::size_t>(mid)] >> (y * b_)) & row_mask} << 1 |
           cell(east, 0, y) << (b_ + 1);
  };
  std::uint64_t blocked = ring_row(0, 3, 6, b_ - 1);  // the row above: NW, N, NE
  for (int y = 0; y < b_; ++y) blocked |= ring_row(1, 4, 7, y) << ((y + 1) * stride);
  blocked |= ring_row(2, 5, 8, 0) << ((b_ + 1) * stride);  // the row below: SW, S, SE
  const std::uint64_t free = ~blocked & ((std::uint64_t{1} << (stride * stride)) - 1);
  if (blocked == 0) {  // open ground, the common case on game maps: every link is legal
    slot.free_ring = free;
    slot.link_ok = st_.all_links;
    slot.exitable = st_.linked_points;
    return;
  }
  std::uint32_t exitable = 0;
  const int n = n_;
  if (rule_.on_vertices()) {
    // A boundary vertex hands on when it is usable here and in a block that shares it.
    slot.free_ring = free;
    slot.link_ok = st_.all_links;  // each checked against free_ring when handed on
    for (int i = 0; i < n; ++i)
      exitable |= static_cast<std::uint32_t>((free & st_.own_ring[static_cast<std::size_t>(i)]) != 0 &&
                                             (free & st_.other_ring[static_cast<std::size_t>(i)]) != 0)
                  << i;
    slot.exitable = exitable;
    return;
  }
  // Cells: the rule's moves for all the block's cells at once, one mask per direction,
  // each direction known at compile time so that the shifts in step_legal_mask need no
  // branches.
  std::array<std::uint64_t, 8> legal_by{};
  auto direction = [&](auto m) {
    if (static_cast<int>(m) >= step_count(rule_)) return;
    const std::uint64_t legal = free & step_legal_mask(rule_, free, stride, kSteps[m][0], kSteps[m][1]);
    legal_by[m] = legal;
  };
  [&]<std::size_t... M>(std::index_sequence<M...>) { (direction(std::integral_constant<std::size_t, M>{}), ...); }
  (std::make_index_sequence<8>{});
  std::uint64_t ok = 0;
  for (std::size_t k = 0; k < st_.links.size(); ++k) {
    const link& l = st_.links[k];
    ok |= ((legal_by[l.legal_word] >> l.legal_bit) & 1u) << k;
  }
  slot.link_ok = ok;
  // A point can hand a g-value on when one of its links is legal.
  for (int i = 0; i < n; ++i) exitable |= static_cast<std::uint32_t>((ok & st_.point_links[static_cast<std::size_t>(i)]) != 0) << i;
  slot.exitable = exitable;
}

void block_search::heap_up(std::size_t i) {
  const heap_entry e = st_.heap[i];
  while (i > 0) {
    const std::size_t p = (i - 1) / 2;
    if (!heap_less(e, st_.heap[p])) break;
    heap_place(i, st_.heap[p]);
    i = p;
  }
  heap_place(i, e);
}

void block_search::heap_down(std::size_t i) {
  const heap_entry e = st_.heap[i];
  const std::size_t n = st_.heap.size();
  while (true) {
    std::size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n) c += heap_less(st_.heap[c + 1], st_.heap[c]);  // no branch on the comparison
    if (!heap_less(st_.heap[c], e)) break;
    heap_place(i, st_.heap[c]);
    i = c;
  }
  heap_place(i, e);
}

void block_search::heap_push_or_decrease(int s, cost_t value, cost_t value_tie) {
  block_slot& slot = st_.slots[static_cast<std::size_t>(s)];
  // Line 9: only an improved heap value counts (or an equal one with a lesser tie).
  if (value > slot.heap_value || (value == slot.heap_value && value_tie >= slot.heap_tie)) return;
  slot.heap_value = value;
  slot.heap_tie = value_tie;
  ++stats_.heap_ops;
  // The key only ever decreases, so an entry already in the heap can only move up.
  std::size_t i = slot.heap_pos >= 0 ? static_cast<std::size_t>(slot.heap_pos) : st_.heap.size();
  if (i == st_.heap.size()) st_.heap.emplace_back();
  st_.heap[i] = {value, std::uint64_t{h_high(value_tie)} << 32 | static_cast<std::uint32_t>(s)};
  heap_up(i);
}

int block_search::heap_pop() {
  ++stats_.heap_ops;
  const int top = st_.heap.front().slot();
  block_slot& slot = st_.slots[static_cast<std::size_t>(top)];
  slot.heap_value = kUnreachable;
  slot.heap_pos = -1;
  const heap_entry last = st_.heap.back();
  st_.heap.pop_back();
  if (!st_.heap.empty()) {
    st_.heap.front() = last;
    heap_down(0);
  }
  return top;
}

int block_search::containing_blocks(point p, std::array<std::pair<point, point>, kMaxStarts>& out) const {
  int count = 0;
  if (!rule_.on_vertices()) {
    out[0] = {{p.x / b_, p.y / b_}, {p.x % b_, p.y % b_}};
    return 1;
  }
  for (int bx = p.x / b_; bx >= 0 && bx * b_ + b_ >= p.x && count < kMaxStarts; --bx) {
    if (bx >= map_.blocks_x()) continue;
    for (int by = p.y / b_; by >= 0 && by * b_ + b_ >= p.y && count < kMaxStarts; --by) {
      if (by >= map_.blocks_y()) continue;
      out[static_cast<std::size_t>(count++)] = {{bx, by}, {p.x - bx * b_, p.y - by * b_}};
    }
  }
  return count;
}

template <bool kSquares>
void block_search::expand(int s, point_set ingress) {
  // At most 20 new neighbours (around a 4 x 4 square): with room for them, slot references
  // and square point arrays stay valid below.
  if (st_.slots.capacity() < st_.used + 21) st_.slots.reserve(2 * (st_.used + 21));
  if (kSquares && st_.square_state.capacity() < st_.squares_used + 21) st_.square_state.reserve(2 * (st_.squares_used + 21));
  block_slot& cur = st_.slots[static_cast<std::size_t>(s)];
  parent_ref* const cur_parent = kSquares ? parent_of(cur) : cur.parent.data();
  ++stats_.expanded;
  if (expanded_) {  // for pictures: a square is its blocks
    const int k = cur.level ? shape_of(cur.level).blocks : 1;
    for (int dy = 0; dy < k; ++dy)
      for (int dx = 0; dx < k; ++dx) expanded_->push_back({cur.bx + dx, cur.by + dy});
  }
  if (!cur.prepared) {
    if (kSquares && cur.level)
      prepare_square(cur);
    else
      prepare(cur);
    cur.prepared = true;
  }
  // Algorithm 1, line 5: every boundary point's g through the block from the ingress set:
  // the min-plus product of ingress g-values and the block's costs, with the way costs are
  // read (decoded already for an open block) chosen once, outside the loops. Only points
  // that can hand a g-value on are updated.
  point_set changed = 0;
  const point_set egress = cur.exitable;  // exitable points are usable
  auto min_plus = [&](auto& g, auto& parent, const auto& floor, auto cost) {
    for (point_set m = ingress; m; m &= m - 1) {
      const int y = __builtin_ctzll(m);
      if ((changed >> y) & 1u) continue;  // improved through another ingress point: dominated
      const cost_t gy = g[static_cast<std::size_t>(y)];
      const auto& floor_row = floor[static_cast<std::size_t>(y)];
      point_set e = egress & ~(point_set{1} << y);
#if LDDB_AVX2_KERNELS
      // The floor test for the whole row at once; then only the lookups are left below.
      if (avx2_) e &= improved_by_row_avx2(gy, floor_row.data(), g.data(), n_);
#endif
      for (; e; e &= e - 1) {
        const int x = __builtin_ctzll(e);
        // Cannot improve (passes always when the row was tested above; predicted so).
        if (gy + floor_row[static_cast<std::size_t>(x)] >= g[static_cast<std::size_t>(x)]) continue;
        const cost_t c = cost(y, x);
        if (c == kUnreachable) continue;
        const cost_t total = gy + c;
        if (total < g[static_cast<std::size_t>(x)]) {
          g[static_cast<std::size_t>(x)] = total;
          parent[static_cast<std::size_t>(x)] = {via::block, static_cast<std::uint8_t>(y), 0};
          changed |= point_set{1} << x;
        }
      }
    }
  };
  // Rows of decoded costs, all finite: an open square's straight lines, an open block's
  // table. With AVX2, relax_rows_avx2 finds a row's improvements four points at a time;
  // otherwise one compare and write each, as in min_plus.
  auto relax_rows = [&](cost_t* g, parent_ref* parent, const cost_t* table, std::size_t stride, int n)
                        __attribute__((always_inline)) {
#if LDDB_AVX2_KERNELS
    if (avx2_) {
      changed = relax_rows_avx2(g, parent, table, stride, n, ingress, egress);
      return;
    }
#endif
    for (point_set m = ingress; m; m &= m - 1) {
      const int y = __builtin_ctzll(m);
      if ((changed >> y) & 1u) continue;  // improved through another ingress point: dominated
      const cost_t gy = g[y];
      const cost_t* row = table + static_cast<std::size_t>(y) * stride;
      for (point_set e = egress & ~(point_set{1} << y); e; e &= e - 1) {
        const int x = __builtin_ctzll(e);
        const cost_t total = gy + row[x];
        if (total < g[x]) {
          g[x] = total;
          parent[x] = {via::block, static_cast<std::uint8_t>(y), 0};
          changed |= point_set{1} << x;
        }
      }
    }
  };
  if (kSquares && cur.level) {
    square_nodes& sq = square_of(cur);
    const square_shape& q = shape_of(cur.level);
    relax_rows(sq.g.data(), sq.parent.data(), q.cost.data(), static_cast<std::size_t>(q.count), q.count);
  } else if (cur.code == 0 && db_.open_costs_finite()) {  // relax_rows does not test for kUnreachable
    // Open ground, the common block on game maps: its costs are kept decoded.
    relax_rows(cur.g.data(), cur.parent.data(), db_.open_costs(), static_cast<std::size_t>(n_), n_);
  } else {
    const database::cost_view costs = db_.view(cur.code);
    if (octile_pairs_)
      min_plus(cur.g, cur.parent, st_.floor_cost, [&costs, d = rule_.diagonal](int y, int x) {
        const std::uint16_t v = costs.stored(y, x);
        return v == kStoredUnreachable ? kUnreachable : cost_t(v & 0xFFu) * kCostOne + cost_t(v >> 8u) * d;
      });
    else
      min_plus(cur.g, cur.parent, st_.floor_cost, [&costs, sh = db_.info().scale_log2](int y, int x) {
        const std::uint16_t v = costs.stored(y, x);
        return v == kStoredUnreachable ? kUnreachable : cost_t{v} << (kCostShift - sh);
      });
  }
  for (point_set m = changed; m; m &= m - 1) ++stats_.generated;  // no popcnt in baseline x86-64: a libgcc call

  // Line 6: hand on every point that changed here or arrived since the last expansion,
  // along the links that are legal from this block.
  st_.touched.clear();
  const bool vertices = rule_.on_vertices();
  // A vertex that arrived from a neighbour was handed on by that neighbour to every block
  // that shares it, so only the start's own points come with their ingress. Cells hand an
  // arrived point on by moves the neighbour could not make.
  point_set hand_on = changed | ingress;
  if (vertices)
    for (point_set m = ingress & ~changed; m; m &= m - 1) {
      const int y = __builtin_ctzll(m);
      if (cur_parent[y].kind == via::neighbour) hand_on &= ~(point_set{1} << y);
    }
  if constexpr (kSquares) {
    hand_on_squares(s, cur, hand_on);
  } else {
    // The paper's blocks: each link's target and way back are its own.
    std::uint64_t todo = 0;
    const point_set sources = hand_on & cur.exitable;
    for (point_set m = sources; m; m &= m - 1) todo |= st_.point_links[static_cast<std::size_t>(__builtin_ctzll(m))];
    todo &= cur.link_ok;
    // A vertex is the same point in every block that shares it, so its h is worked out once
    // for all the links from it; a cell's differs with each move.
    std::array<cost_t, kMaxBoundary> hv;
    if (vertices) heuristics(cur, sources, hv.data());
    // One loop per kind of point, so that neither tests the kind on every link.
    auto pass = [&](auto on_vertices) __attribute__((always_inline)) {
      for (; todo; todo &= todo - 1) {
        const link& l = st_.links[static_cast<std::size_t>(__builtin_ctzll(todo))];
        if (on_vertices && (cur.free_ring & l.target_ring) == 0) continue;
        const cost_t ng = cur.g[l.source] + l.cost;
        int& ns = cur.neighbour[l.around];
        if (ns < 0) {
          ns = slot_of(cur.bx + l.ox, cur.by + l.oy);
          st_.slots[static_cast<std::size_t>(ns)].neighbour[static_cast<std::size_t>(8 - l.around)] = s;
        }
        block_slot& nb = st_.slots[static_cast<std::size_t>(ns)];
        if (!improve_block(nb, l, ng)) continue;
        offer(ns, ng, on_vertices ? hv[l.source] : h(global_block(nb, l.target)));
      }
    };
    if (vertices)
      pass(std::true_type{});
    else
      pass(std::false_type{});
  }
  // Lines 8-16: each neighbour goes to OPEN with the least g + h of its updated points.
  for (int ns : st_.touched) {
    const block_search_state::key k = st_.candidate[static_cast<std::size_t>(ns)];
    heap_push_or_decrease(ns, k.f, k.tie);
    st_.candidate[static_cast<std::size_t>(ns)] = {kUnreachable, 0};
  }
}

// Line 6 when the query has open squares: the same vertex has another boundary index in a
// square, and a square has more blocks around it, so a link's target and the way back are
// worked out from the two slots' shapes.
void block_search::hand_on_squares(int s, block_slot& cur, point_set hand_on) {
  const cost_t* const cur_g = g_of(cur);
  int* const neighbour = neighbours_of(cur);
  const point_set sources = hand_on & cur.exitable;
  std::array<cost_t, kSquarePoints> hv;
  heuristics(cur, sources, hv.data());
  // Hands the g-value of l.source on along link l (legal).
  auto pass = [&](const link& l) __attribute__((always_inline)) {
    const cost_t ng = cur_g[l.source];  // the very same vertex: no cost
    int& ns = neighbour[l.around];
    if (ns < 0) {
      ns = slot_of(cur.bx + l.ox, cur.by + l.oy);
      block_slot& fresh = st_.slots[static_cast<std::size_t>(ns)];
      if (!cur.level && !fresh.level) fresh.neighbour[static_cast<std::size_t>(8 - l.around)] = s;
    }
    block_slot& nb = st_.slots[static_cast<std::size_t>(ns)];
    if (!cur.level && !nb.level) {  // two blocks: the paper's hand-on (their caches point both ways)
      if (improve_block(nb, l, ng)) offer(ns, ng, hv[l.source]);
      return;
    }
    // The vertex numbered in nb, and a block of this slot that holds it, placed in nb's ring
    // (where nb finds this slot, for walk_back). From a square into a plain block, the link
    // knows both.
    std::uint32_t target = l.target, back = l.back;
    if (nb.level) {
      const point p = cur.level ? shape_of(cur.level).points[l.source] : shape_.boundary_point(l.source);
      const int vx = (cur.bx - nb.bx) * b_ + p.x, vy = (cur.by - nb.by) * b_ + p.y;
      target = static_cast<std::uint32_t>(shape_of(nb.level).index[static_cast<std::size_t>(vy * (shape_of(nb.level).side + 1) + vx)]);
      int hx = cur.bx, hy = cur.by;
      if (cur.level) {
        hx += holding_block(p.x, shape_of(cur.level).blocks);
        hy += holding_block(p.y, shape_of(cur.level).blocks);
      }
      back = static_cast<std::uint32_t>(ring_index(nb, hx, hy));
    }
    cost_t* const nb_g = g_of(nb);
    if (ng >= nb_g[target]) return;
    nb_g[target] = ng;
    parent_of(nb)[target] = {via::neighbour, l.source, static_cast<std::uint8_t>(back)};
    neighbours_of(nb)[back] = s;
    nb.ingress |= point_set{1} << target;
    ++stats_.generated;
    offer(ns, ng, hv[l.source]);
  };
  if (cur.level) {
    // A square's links come in order of source, up to 84 of them: walk each source's.
    const square_shape& q = shape_of(cur.level);
    const std::array<std::uint64_t, 2>& ok = square_of(cur).link_ok;
    for (point_set m = sources; m; m &= m - 1) {
      const int i = __builtin_ctzll(m);
      for (int k = q.first_link[static_cast<std::size_t>(i)]; k < q.first_link[static_cast<std::size_t>(i) + 1]; ++k)
        if ((ok[static_cast<std::size_t>(k / 64)] >> (k % 64)) & 1u) pass(q.links[static_cast<std::size_t>(k)]);
    }
    return;
  }
  std::uint64_t todo = 0;
  for (point_set m = sources; m; m &= m - 1) todo |= st_.point_links[static_cast<std::size_t>(__builtin_ctzll(m))];
  for (todo &= cur.link_ok; todo; todo &= todo - 1) {
    const link& l = st_.links[static_cast<std::size_t>(__builtin_ctzll(todo))];
    if ((cur.free_ring & l.target_ring) != 0) pass(l);
  }
}

bool block_search::begin(search_result& r) {
  if (map_.block() != b_) {
    r.status = search_status::rule_mismatch;
    r.message = "map is cut into " + std::to_string(map_.block()) + "x" + std::to_string(map_.block()) +
                " blocks but " + db_.path() + " holds " + std::to_string(b_) + "x" + std::to_string(b_) + " blocks";
    return false;
  }
  if (!prepare_endpoints(rule_, map_, start_, goal_, opt_, r)) return false;
  reset();
  build_links();
  // Squares need their level in the top bits of a block id.
  st_.squares = opt_.open_squares && st_.square_shapes[0].blocks != 0 &&
                static_cast<std::uint64_t>(map_.blocks_x()) * static_cast<std::uint64_t>(map_.blocks_y()) <
                    (std::uint64_t{1} << kSquareIdShift);

  // Goal blocks first, so a start block that also holds the goal sees it.
  std::array<std::pair<point, point>, kMaxStarts> holders;
  const int goals = containing_blocks(goal_, holders);
  for (int k = 0; k < goals; ++k) {
    const int s = slot_of(holders[static_cast<std::size_t>(k)].first.x, holders[static_cast<std::size_t>(k)].first.y);
    goal_local_[static_cast<std::size_t>(k)] = holders[static_cast<std::size_t>(k)].second;
    st_.slots[static_cast<std::size_t>(s)].goal_index = k;
    const block_graph graph(rule_, shape_, st_.slots[static_cast<std::size_t>(s)].code, block_graph::visibility::lazy);
    graph.search(shape_.point_index(holders[static_cast<std::size_t>(k)].second), st_.goal_paths[static_cast<std::size_t>(k)]);
  }
  const int starts = containing_blocks(start_, holders);
  for (int k = 0; k < starts; ++k) {
    const int s = slot_of(holders[static_cast<std::size_t>(k)].first.x, holders[static_cast<std::size_t>(k)].first.y);
    start_slot_[static_cast<std::size_t>(k)] = s;
    block_slot& slot = st_.slots[static_cast<std::size_t>(s)];
    const block_graph graph(rule_, shape_, slot.code, block_graph::visibility::lazy);
    block_graph::paths& paths = st_.start_paths[static_cast<std::size_t>(k)];
    graph.search(shape_.point_index(holders[static_cast<std::size_t>(k)].second), paths);
    cost_t value = kUnreachable, value_tie = kUnreachable;
    for (int i = 0; i < n_; ++i) {
      const cost_t c = paths.cost[static_cast<std::size_t>(shape_.point_index(shape_.boundary_point(i)))];
      if (c == kUnreachable || c >= slot.g[static_cast<std::size_t>(i)]) continue;
      slot.g[static_cast<std::size_t>(i)] = c;
      slot.parent[static_cast<std::size_t>(i)] = {via::start, static_cast<std::uint8_t>(k), 0};
      slot.ingress |= 1u << i;
      const cost_t hi = h(global(slot, i)), ti = tie(hi);
      if (c + hi < value || (c + hi == value && ti < value_tie)) {
        value = c + hi;
        value_tie = ti;
      }
    }
    // Start and goal in the same block: the path inside it is a candidate (it may still
    // be beaten by one that leaves the block and comes back).
    if (slot.goal_index >= 0) {
      const point gl = goal_local_[static_cast<std::size_t>(slot.goal_index)];
      const cost_t c = paths.cost[static_cast<std::size_t>(shape_.point_index(gl))];
      if (c < length_) {
        length_ = c;
        direct_start_ = k;
        best_goal_slot_ = -1;
      }
    }
    if (value != kUnreachable) heap_push_or_decrease(s, value, value_tie);
  }

  r.status = search_status::in_progress;
  return true;
}

bool block_search::advance(std::uint64_t limit, search_result& r) {
  // Algorithm 2.
  for (std::uint64_t done = 0;; ++done) {
    if (st_.heap.empty() || st_.heap.front().f >= length_) break;
    if (done == limit) {
      r.status = search_status::in_progress;
      r.stats = stats_;
      return false;
    }
    const int s = heap_pop();
    block_slot& cur = st_.slots[static_cast<std::size_t>(s)];
    const point_set ingress = cur.ingress;
    cur.ingress = 0;
    if (cur.goal_index >= 0) {
      const block_graph::paths& gp = st_.goal_paths[static_cast<std::size_t>(cur.goal_index)];
      for (point_set m = ingress; m; m &= m - 1) {
        const int y = __builtin_ctzll(m);
        const cost_t d = gp.cost[static_cast<std::size_t>(shape_.point_index(shape_.boundary_point(y)))];
        if (d == kUnreachable) continue;
        const cost_t total = cur.g[static_cast<std::size_t>(y)] + d;
        if (total < length_) {
          length_ = total;
          best_goal_slot_ = s;
          best_point_ = y;
          direct_start_ = -1;
        }
      }
    }
    if (st_.squares)
      expand<true>(s, ingress);
    else
      expand<false>(s, ingress);
  }
  r.stats = stats_;
  if (expanded_) r.expanded = std::move(*expanded_);
  if (length_ == kUnreachable) {
    r.status = search_status::no_path;
    set_message(r.message, "no path from (%d,%d) to (%d,%d)", start_.x, start_.y, goal_.x, goal_.y);
    return true;
  }
  r.status = search_status::found;
  r.cost = length_;
  reconstruct(r);
  r.length = path_length(r.path);
  return true;
}

void block_search::give_up(search_result& r) {
  r.status = search_status::budget_exhausted;
  r.stats = stats_;
  if (expanded_) r.expanded = std::move(*expanded_);
  set_message(r.message, "expansion budget of %llu blocks exhausted", static_cast<unsigned long long>(opt_.max_expansions));
  // The most promising point: in the block at the top of OPEN, the point whose g + h
  // gave the block its key.
  const heap_entry top = st_.heap.front();  // advance() stopped with it on top
  r.lower_bound = top.f;
  const block_slot& slot = st_.slots[static_cast<std::size_t>(top.slot())];
  int best = -1;
  for (int i = 0; i < points(slot) && best < 0; ++i) {
    const cost_t g = g_of(slot)[i];
    if (((slot.ingress >> i) & 1u) && g != kUnreachable && g + h(global(slot, i)) == top.f) best = i;
  }
  if (best < 0) return;  // not reached: the key always comes from an ingress point
  r.cost = g_of(slot)[best];
  walk_back(top.slot(), best, r.path);
  std::reverse(r.path.begin(), r.path.end());
  r.length = path_length(r.path);
}

// Appends p unless it repeats the last point.
void add_point(std::vector<point>& out, point p) {
  if (out.empty() || !(out.back() == p)) out.push_back(p);
}

// Appends the points of a block_graph path (point indices) in global coordinates.
void add_local(std::vector<point>& out, const block_shape& shape, const block_slot& s, const int* pts, int count,
               bool reverse) {
  const int b = shape.block();
  for (int k = 0; k < count; ++k) {
    const point q = shape.point_at(pts[reverse ? count - 1 - k : k]);
    add_point(out, {s.bx * b + q.x, s.by * b + q.y});
  }
}

void block_search::walk_back(int s, int x, std::vector<point>& out) const {
  int chain[block_graph::kMaxPoints];
  while (true) {
    const block_slot& cur = st_.slots[static_cast<std::size_t>(s)];
    add_point(out, global(cur, x));
    const parent_ref p = parent_of(cur)[x];
    if (p.kind == via::block && cur.level) {
      x = p.index;  // a straight segment
    } else if (p.kind == via::block) {
      inflections inf;
      db_.path(cur.code, x, p.index, &inf);  // from x back to the ingress point
      for (int k = 0; k < inf.count; ++k)
        add_point(out, {cur.bx * b_ + inf.points[static_cast<std::size_t>(k)].x, cur.by * b_ + inf.points[static_cast<std::size_t>(k)].y});
      x = p.index;
    } else if (p.kind == via::neighbour) {
      s = neighbours_of(cur)[p.around];  // set when the g-value was handed on
      x = p.index;
    } else {  // via::start
      const int len = st_.start_paths[p.index].path_to(shape_.point_index(shape_.boundary_point(x)), chain);
      add_local(out, shape_, cur, chain, len, true);  // x ... start
      return;
    }
  }
}

void block_search::reconstruct(search_result& r) const {
  // Walk back from the goal, collecting waypoints from goal to start, then reverse. The
  // waypoints go to the state's scratch vector and the answer to r.path, so each keeps
  // growing to the longest seen and a warm query allocates nothing.
  std::vector<point>& way = st_.scratch;
  way.clear();
  int chain[block_graph::kMaxPoints];
  if (direct_start_ >= 0) {
    const block_slot& s = st_.slots[static_cast<std::size_t>(start_slot_[static_cast<std::size_t>(direct_start_)])];
    const point gl = goal_local_[static_cast<std::size_t>(s.goal_index)];
    const int len = st_.start_paths[static_cast<std::size_t>(direct_start_)].path_to(shape_.point_index(gl), chain);
    add_local(way, shape_, s, chain, len, true);
  } else {
    const block_slot& gs = st_.slots[static_cast<std::size_t>(best_goal_slot_)];
    const int len = st_.goal_paths[static_cast<std::size_t>(gs.goal_index)].path_to(
        shape_.point_index(shape_.boundary_point(best_point_)), chain);
    add_local(way, shape_, gs, chain, len, false);  // goal ... y
    walk_back(best_goal_slot_, best_point_, way);
  }
  std::reverse(way.begin(), way.end());
  std::vector<point>& out = r.path;
  if (rule_.on_vertices()) {
    out.assign(way.begin(), way.end());
    return;
  }
  // Cells: fill the straight runs between waypoints with every cell. Each step moves
  // towards the next waypoint on both axes, so even waypoints out of line (a corrupt
  // database the reader could not catch) end the run instead of stepping past it.
  out.clear();
  out.push_back(way.front());
  for (std::size_t k = 1; k < way.size(); ++k) {
    point c = way[k - 1];
    while (!(c == way[k])) {
      c = {c.x + (way[k].x > c.x) - (way[k].x < c.x), c.y + (way[k].y > c.y) - (way[k].y < c.y)};
      out.push_back(c);
    }
  }
}

void begin_query(const database& db, const grid_map& map, point start, point goal, const search_options& options,
                 search_context& ctx, search_result& r) {
  auto& impl = ctx.state();
  if (!impl.block) impl.block = new block_search_state();
  block_query& q = impl.block->query;
  q.active = false;
  r.clear();
  if (options.expected_rule && !(*options.expected_rule == db.movement())) {
    r.status = search_status::rule_mismatch;
    db.check_rule(*options.expected_rule, &r.message);
    return;
  }
  q.db = &db;
  q.map = &map;
  q.start = start;
  q.goal = goal;
  q.options = options;
  q.stats = {};
  q.length = kUnreachable;
  q.best_goal_slot = q.best_point = q.direct_start = -1;
  q.expanded.clear();
  block_search search(*impl.block);
  q.active = search.begin(r);
}

void continue_query(search_context& ctx, std::uint64_t max_expansions, search_result& r) {
  auto& impl = ctx.state();
  r.clear();
  if (!impl.block || !impl.block->query.active) {
    r.status = search_status::no_path;
    r.message = "block_astar_continue: no query in progress in this context (call block_astar_begin first)";
    return;
  }
  block_query& q = impl.block->query;
  block_search search(*impl.block);
  // The whole query's budget caps this slice.
  std::uint64_t limit = max_expansions == 0 ? kNoLimit : max_expansions;
  bool budget_caps = false;
  if (q.options.max_expansions != 0) {
    const std::uint64_t left = q.options.max_expansions > q.stats.expanded ? q.options.max_expansions - q.stats.expanded : 0;
    if (left <= limit) {
      limit = left;
      budget_caps = true;
    }
  }
  if (search.advance(limit, r)) {
    q.active = false;
    return;
  }
  if (budget_caps) {
    search.give_up(r);
    q.active = false;
  }
}

}  // namespace

search_result block_astar_begin(const database& db, const grid_map& map, point start, point goal,
                                const search_options& options, search_context& ctx) {
  search_result r;
  begin_query(db, map, start, goal, options, ctx, r);
  return r;
}

search_result block_astar_continue(search_context& ctx, std::uint64_t max_expansions) {
  search_result r;
  continue_query(ctx, max_expansions, r);
  return r;
}

void block_astar(const database& db, const grid_map& map, point start, point goal, const search_options& options,
                 search_context& ctx, search_result& out) {
  begin_query(db, map, start, goal, options, ctx, out);
  if (out.status != search_status::in_progress) return;
  continue_query(ctx, 0, out);  // 0: one slice, as far as the budget allows
}

search_result block_astar(const database& db, const grid_map& map, point start, point goal,
                          const search_options& options, search_context& ctx) {
  search_result r;
  block_astar(db, map, start, goal, options, ctx, r);
  return r;
}

}  // namespace lddb
