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
// Per-query state lives in a pool of block slots found through a small hash table, so a
// context grows with the blocks a query touches, not with the map, and is reused.
#include <algorithm>
#include <array>
#include <chrono>
#include <string>
#include <vector>

#include "context.hpp"
#include "heuristic.hpp"
#include "lddb/search.hpp"

namespace lddb {

namespace {

constexpr int kMaxBoundary = 4 * block_shape::kMaxBlock;
constexpr int kMaxStarts = 4;  // a corner vertex lies in four blocks

// Parent of a boundary point: where its g-value came from.
enum class via : std::uint8_t {
  block,      // the database path from another boundary point `index` of the same block
  neighbour,  // one step (cells) or the same vertex (corners) in block slot `slot`, point `index`
  start,      // the local search from the start, in start block `index`
};
struct parent_ref {
  via kind;
  std::uint8_t index;
  std::uint32_t slot;
};

struct block_slot {
  std::uint32_t block_id;
  int bx, by;
  std::uint32_t code;
  std::uint32_t usable;   // boundary points usable in this pattern
  std::uint32_t ingress;  // boundary points improved since the last expansion
  cost_t heap_value;      // kUnreachable when not in OPEN
  cost_t heap_h;          // h of the point that gave heap_value: ties go to the deeper block
  int heap_pos;           // -1 when not in OPEN
  int goal_index;         // >= 0 for a block that contains the goal
  std::array<int, 9> neighbour;  // slots of the blocks around, by (ox + 1) * 3 + (oy + 1)
  std::array<cost_t, kMaxBoundary> g;
  std::array<parent_ref, kMaxBoundary> parent;
};

// Where a boundary point leads outside its block.
struct link {
  std::int8_t ox, oy;      // neighbour block offset
  std::uint8_t target;     // boundary index in the neighbour
  std::int8_t dx, dy;      // the move (cells); 0, 0 for a shared vertex
  cost_t cost;
};

// The 3 x 3 blocks around an expanded block, as a grid in that block's local
// coordinates: the rule's step_legal reads cells from the blocks' pattern codes, with no
// bounds checks against the map (blocks off the map have every cell blocked).
struct neighbourhood {
  std::array<std::uint32_t, 9> codes;  // index (oy + 1) * 3 + (ox + 1)
  int b;
  bool blocked(int x, int y) const {
    const int kx = x < 0 ? 0 : (x < b ? 1 : 2), ky = y < 0 ? 0 : (y < b ? 1 : 2);
    const int lx = x - (kx - 1) * b, ly = y - (ky - 1) * b;
    return (codes[static_cast<std::size_t>(ky * 3 + kx)] >> (ly * b + lx)) & 1u;
  }
};

}  // namespace

struct block_search_state {
  // Block slots: the first `used` belong to this query. Slots are reused between queries
  // without clearing; a new one sets what it needs (g to infinity; parents are only read
  // behind a finite g).
  std::vector<block_slot> slots;
  std::size_t used = 0;
  // Open addressing: block id -> slot index, valid when stamp == generation.
  struct bucket {
    std::uint32_t block_id, slot, stamp;
  };
  std::vector<bucket> table;
  std::uint32_t generation = 0;
  std::vector<int> heap;  // slot indices
  struct key {
    cost_t f, h;
  };
  std::vector<key> candidate;  // per slot: new (heap value, h) during one expansion
  std::vector<int> touched;

  // Links, rebuilt when the rule or block size changes.
  rule links_rule;
  int links_block = 0;
  std::array<std::vector<link>, kMaxBoundary> links;
  // The block's own cells at each boundary point: the point is usable unless all of
  // them are blocked (a cell: itself; a vertex: the one or two cells inside the block).
  std::array<std::uint32_t, kMaxBoundary> point_cells;

  std::array<block_graph::paths, kMaxStarts> start_paths, goal_paths;
};

void destroy_state(block_search_state* s) { delete s; }
std::size_t state_bytes(const block_search_state* s) {
  if (!s) return 0;
  std::size_t n = sizeof(*s) + s->slots.capacity() * sizeof(block_slot) +
                  s->table.capacity() * sizeof(block_search_state::bucket) + s->heap.capacity() * sizeof(int) +
                  s->candidate.capacity() * sizeof(block_search_state::key) + s->touched.capacity() * sizeof(int);
  for (const auto& l : s->links) n += l.capacity() * sizeof(link);
  return n;
}

namespace {

class block_search {
 public:
  block_search(const database& db, const grid_map& map, point start, point goal, const search_options& opt,
               block_search_state& st)
      : db_(db),
        map_(map),
        rule_(db.movement()),
        shape_(db.shape()),
        start_(start),
        goal_(goal),
        opt_(opt),
        st_(st),
        b_(shape_.block()),
        n_(shape_.boundary_count()),
        octile_pairs_(db.info().encoding == cost_encoding::octile_pair) {}

  search_result run();

 private:
  // ---- slots
  int slot_of(int bx, int by, bool create = true);  // -1 when absent and !create
  void reset();
  void build_links();

  // ---- the heap of blocks, keyed (heap_value, heap_h, block_id): among equal f the block
  // nearer the goal first, as A* implementations commonly prefer the larger g
  bool heap_less(int a, int b) const {
    const block_slot& x = st_.slots[static_cast<std::size_t>(a)];
    const block_slot& y = st_.slots[static_cast<std::size_t>(b)];
    if (x.heap_value != y.heap_value) return x.heap_value < y.heap_value;
    if (x.heap_h != y.heap_h) return x.heap_h < y.heap_h;
    return x.block_id < y.block_id;
  }
  void heap_place(std::size_t i, int s) {
    st_.heap[i] = s;
    st_.slots[static_cast<std::size_t>(s)].heap_pos = static_cast<int>(i);
  }
  void heap_up(std::size_t i);
  void heap_down(std::size_t i);
  void heap_push_or_decrease(int s, cost_t value, cost_t value_h);
  int heap_pop();

  // ---- geometry
  point global(const block_slot& s, int boundary) const {
    const point p = shape_.boundary_point(boundary);
    return {s.bx * b_ + p.x, s.by * b_ + p.y};
  }
  cost_t h(point p) const { return heuristic_cost(opt_.heuristic, rule_, p.x, p.y, goal_.x, goal_.y); }
  // Blocks holding point p (cells: one; vertices: up to four), with p's local point.
  int containing_blocks(point p, std::array<std::pair<point, point>, kMaxStarts>& out) const;

  void expand(int s, std::uint32_t ingress);
  void reconstruct(search_result& r) const;

  const database& db_;
  const grid_map& map_;
  const rule& rule_;
  const block_shape& shape_;
  point start_, goal_;
  const search_options& opt_;
  block_search_state& st_;
  int b_, n_;
  bool octile_pairs_;
  search_stats stats_;

  // The best path found so far: through goal block `best_goal_` and its point `best_point_`,
  // or directly inside a block that holds both start and goal.
  cost_t length_ = kUnreachable;
  int best_goal_slot_ = -1, best_point_ = -1;
  int direct_start_ = -1;  // start index whose local search reached the goal
  std::array<int, kMaxStarts> start_slot_{};
  std::array<point, kMaxStarts> goal_local_{};
  std::vector<point>* expanded_ = nullptr;
};

void block_search::reset() {
  st_.used = 0;
  st_.heap.clear();
  st_.candidate.clear();
  if (st_.table.empty()) st_.table.assign(1024, {0, 0, 0});
  if (++st_.generation == 0) {  // the stamp wrapped: really clear, once in 4 billion queries
    std::fill(st_.table.begin(), st_.table.end(), block_search_state::bucket{0, 0, 0});
    st_.generation = 1;
  }
}

int block_search::slot_of(int bx, int by, bool create) {
  const auto id = static_cast<std::uint32_t>(by) * static_cast<std::uint32_t>(map_.blocks_x()) +
                  static_cast<std::uint32_t>(bx);
  auto& table = st_.table;
  std::size_t mask = table.size() - 1;
  std::size_t i = (id * 0x9E3779B1u) & mask;
  while (table[i].stamp == st_.generation) {
    if (table[i].block_id == id) return static_cast<int>(table[i].slot);
    i = (i + 1) & mask;
  }
  if (!create) return -1;
  // New block. Grow the table first when it would pass half full.
  if ((st_.used + 1) * 2 > table.size()) {
    std::vector<block_search_state::bucket> bigger(table.size() * 2, {0, 0, 0});
    const std::size_t bigger_mask = bigger.size() - 1;
    for (std::size_t s = 0; s < st_.used; ++s) {
      const std::uint32_t bid = st_.slots[s].block_id;
      std::size_t j = (bid * 0x9E3779B1u) & bigger_mask;
      while (bigger[j].stamp == st_.generation) j = (j + 1) & bigger_mask;
      bigger[j] = {bid, static_cast<std::uint32_t>(s), st_.generation};
    }
    table.swap(bigger);
    mask = table.size() - 1;
    i = (id * 0x9E3779B1u) & mask;
    while (table[i].stamp == st_.generation) i = (i + 1) & mask;
  }
  const int s = static_cast<int>(st_.used);
  table[i] = {id, static_cast<std::uint32_t>(s), st_.generation};
  if (st_.used == st_.slots.size()) st_.slots.emplace_back();
  block_slot& slot = st_.slots[st_.used++];
  slot.block_id = id;
  slot.bx = bx;
  slot.by = by;
  slot.code = map_.block_code(bx, by);
  slot.usable = 0;
  for (int i = 0; i < n_; ++i) {
    const std::uint32_t cells = st_.point_cells[static_cast<std::size_t>(i)];
    if ((slot.code & cells) != cells) slot.usable |= 1u << i;
  }
  slot.ingress = 0;
  slot.heap_value = kUnreachable;
  slot.heap_h = kUnreachable;
  slot.heap_pos = -1;
  slot.goal_index = -1;
  slot.g.fill(kUnreachable);
  for (int k = 0; k < 9; ++k) {
    const int nbx = bx + k / 3 - 1, nby = by + k % 3 - 1;
    slot.neighbour[static_cast<std::size_t>(k)] =
        (nbx < 0 || nby < 0 || nbx >= map_.blocks_x() || nby >= map_.blocks_y()) ? -2 : -1;
  }
  st_.candidate.push_back({kUnreachable, 0});
  return s;
}

void block_search::build_links() {
  if (st_.links_block == b_ && st_.links_rule == rule_) return;
  for (auto& l : st_.links) l.clear();
  for (int i = 0; i < n_; ++i) {
    const point p = shape_.boundary_point(i);
    std::uint32_t cells = 0;
    for (int cy = p.y - 1; cy <= p.y; ++cy)
      for (int cx = p.x - 1; cx <= p.x; ++cx) {
        const bool mine = rule_.on_vertices() ? (cx >= 0 && cy >= 0 && cx < b_ && cy < b_) : (cx == p.x && cy == p.y);
        if (mine) cells |= 1u << (cy * b_ + cx);
      }
    st_.point_cells[static_cast<std::size_t>(i)] = cells;
    if (rule_.on_vertices()) {
      // A boundary vertex is the same vertex in every block that shares it.
      for (int ox = -1; ox <= 1; ++ox)
        for (int oy = -1; oy <= 1; ++oy) {
          if (ox == 0 && oy == 0) continue;
          const point q{p.x - ox * b_, p.y - oy * b_};
          if (q.x < 0 || q.y < 0 || q.x > b_ || q.y > b_) continue;
          st_.links[static_cast<std::size_t>(i)].push_back(
              {static_cast<std::int8_t>(ox), static_cast<std::int8_t>(oy),
               static_cast<std::uint8_t>(shape_.boundary_index(q)), 0, 0, 0});
        }
    } else {
      for (int m = 0; m < step_count(rule_); ++m) {
        const int dx = kSteps[static_cast<std::size_t>(m)][0], dy = kSteps[static_cast<std::size_t>(m)][1];
        const int tx = p.x + dx, ty = p.y + dy;
        if (tx >= 0 && ty >= 0 && tx < b_ && ty < b_) continue;  // stays inside: the database's job
        const int ox = tx < 0 ? -1 : (tx >= b_ ? 1 : 0), oy = ty < 0 ? -1 : (ty >= b_ ? 1 : 0);
        const point q{tx - ox * b_, ty - oy * b_};
        st_.links[static_cast<std::size_t>(i)].push_back(
            {static_cast<std::int8_t>(ox), static_cast<std::int8_t>(oy),
             static_cast<std::uint8_t>(shape_.boundary_index(q)), static_cast<std::int8_t>(dx),
             static_cast<std::int8_t>(dy), step_cost(rule_, dx, dy)});
      }
    }
  }
  st_.links_rule = rule_;
  st_.links_block = b_;
}

void block_search::heap_up(std::size_t i) {
  const int s = st_.heap[i];
  while (i > 0) {
    const std::size_t p = (i - 1) / 2;
    if (!heap_less(s, st_.heap[p])) break;
    heap_place(i, st_.heap[p]);
    i = p;
  }
  heap_place(i, s);
}

void block_search::heap_down(std::size_t i) {
  const int s = st_.heap[i];
  const std::size_t n = st_.heap.size();
  while (true) {
    std::size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && heap_less(st_.heap[c + 1], st_.heap[c])) ++c;
    if (!heap_less(st_.heap[c], s)) break;
    heap_place(i, st_.heap[c]);
    i = c;
  }
  heap_place(i, s);
}

void block_search::heap_push_or_decrease(int s, cost_t value, cost_t value_h) {
  block_slot& slot = st_.slots[static_cast<std::size_t>(s)];
  // Line 9: only an improved heap value counts (or an equal one nearer the goal).
  if (value > slot.heap_value || (value == slot.heap_value && value_h >= slot.heap_h)) return;
  slot.heap_value = value;
  slot.heap_h = value_h;
  ++stats_.heap_ops;
  if (slot.heap_pos < 0) {
    st_.heap.push_back(s);
    heap_up(st_.heap.size() - 1);
  } else {
    heap_up(static_cast<std::size_t>(slot.heap_pos));
  }
}

int block_search::heap_pop() {
  ++stats_.heap_ops;
  const int top = st_.heap.front();
  const int last = st_.heap.back();
  st_.heap.pop_back();
  if (!st_.heap.empty()) {
    heap_place(0, last);
    heap_down(0);
  }
  block_slot& slot = st_.slots[static_cast<std::size_t>(top)];
  slot.heap_pos = -1;
  slot.heap_value = kUnreachable;
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

void block_search::expand(int s, std::uint32_t ingress) {
  ++stats_.expanded;
  if (expanded_) expanded_->push_back({st_.slots[static_cast<std::size_t>(s)].bx, st_.slots[static_cast<std::size_t>(s)].by});
  std::uint32_t changed = 0;
  {
    block_slot& cur = st_.slots[static_cast<std::size_t>(s)];
    const database::cost_view costs = db_.view(cur.code);
    // Algorithm 1, line 5: every boundary point's g through the block from the ingress set.
    std::array<cost_t, kMaxBoundary> best;
    std::array<int, kMaxBoundary> from;
    for (int x = 0; x < n_; ++x) {
      best[static_cast<std::size_t>(x)] = cur.g[static_cast<std::size_t>(x)];
      from[static_cast<std::size_t>(x)] = -1;
    }
    // The min-plus product of ingress g-values and the block's costs, with the cost
    // decoding chosen once, outside the loops.
    auto min_plus = [&](auto decode) {
      for (std::uint32_t m = ingress; m; m &= m - 1) {
        const int y = __builtin_ctz(m);
        const cost_t gy = cur.g[static_cast<std::size_t>(y)];
        for (std::uint32_t e = cur.usable & ~(1u << y); e; e &= e - 1) {
          const int x = __builtin_ctz(e);
          const std::uint16_t v = costs.stored(y, x);
          if (v == kStoredUnreachable) continue;
          const cost_t total = gy + decode(v);
          if (total < best[static_cast<std::size_t>(x)]) {
            best[static_cast<std::size_t>(x)] = total;
            from[static_cast<std::size_t>(x)] = y;
          }
        }
      }
    };
    if (octile_pairs_)
      min_plus([d = rule_.diagonal](std::uint16_t v) { return cost_t(v & 0xFFu) * kCostOne + cost_t(v >> 8u) * d; });
    else
      min_plus([sh = db_.info().scale_log2](std::uint16_t v) { return cost_t{v} << (kCostShift - sh); });
    for (int x = 0; x < n_; ++x) {
      if (from[static_cast<std::size_t>(x)] < 0) continue;
      cur.g[static_cast<std::size_t>(x)] = best[static_cast<std::size_t>(x)];
      cur.parent[static_cast<std::size_t>(x)] = {via::block, static_cast<std::uint8_t>(from[static_cast<std::size_t>(x)]), 0};
      changed |= 1u << x;
      ++stats_.generated;
    }
  }
  // Line 6: hand on every point that changed here or arrived since the last expansion.
  st_.touched.clear();
  const std::uint32_t out = changed | ingress;
  const int bx = st_.slots[static_cast<std::size_t>(s)].bx, by = st_.slots[static_cast<std::size_t>(s)].by;
  neighbourhood around{{}, b_};
  if (!rule_.on_vertices())
    for (int k = 0; k < 9; ++k) around.codes[static_cast<std::size_t>(k)] = map_.block_code(bx + k % 3 - 1, by + k / 3 - 1);
  // The neighbours' slots, kept in the slot across its expansions (-1: not looked up,
  // -2: off the map; -3, for this expansion only: looked up and absent). A local copy:
  // creating a slot may move the slots.
  std::array<int, 9> neighbour_slot = st_.slots[static_cast<std::size_t>(s)].neighbour;
  for (std::uint32_t m = out; m; m &= m - 1) {
    const int x = __builtin_ctz(m);
    const cost_t gx = st_.slots[static_cast<std::size_t>(s)].g[static_cast<std::size_t>(x)];
    const point lx = shape_.boundary_point(x);
    for (const link& l : st_.links[static_cast<std::size_t>(x)]) {
      int& ns = neighbour_slot[static_cast<std::size_t>((l.ox + 1) * 3 + (l.oy + 1))];
      if (ns == -2) continue;
      const cost_t ng = gx + l.cost;
      if (ns == -1 && (ns = slot_of(bx + l.ox, by + l.oy, false)) < 0) ns = -3;
      // Most hand-ons improve nothing: test that before the legality of the move.
      if (ns >= 0 && ng >= st_.slots[static_cast<std::size_t>(ns)].g[l.target]) continue;
      if (rule_.on_vertices()) {
        // The shared vertex must be usable from inside the neighbour, or its row is empty.
        const std::uint32_t ncode = map_.block_code(bx + l.ox, by + l.oy);
        const std::uint32_t cells = st_.point_cells[l.target];
        if ((ncode & cells) == cells) continue;
      } else if (!step_legal(rule_, around, lx.x, lx.y, l.dx, l.dy)) {
        continue;
      }
      if (ns < 0) ns = slot_of(bx + l.ox, by + l.oy);  // creates it
      block_slot& nb = st_.slots[static_cast<std::size_t>(ns)];
      nb.g[l.target] = ng;
      nb.parent[l.target] = {via::neighbour, static_cast<std::uint8_t>(x), static_cast<std::uint32_t>(s)};
      nb.ingress |= 1u << l.target;
      ++stats_.generated;
      const cost_t hn = h(global(nb, l.target));
      block_search_state::key& cand = st_.candidate[static_cast<std::size_t>(ns)];
      if (cand.f == kUnreachable) st_.touched.push_back(ns);
      if (ng + hn < cand.f || (ng + hn == cand.f && hn < cand.h)) cand = {ng + hn, hn};
    }
  }
  for (int& ns : neighbour_slot)
    if (ns == -3) ns = -1;
  st_.slots[static_cast<std::size_t>(s)].neighbour = neighbour_slot;
  // Lines 8-16: each neighbour goes to OPEN with the least g + h of its updated points.
  for (int ns : st_.touched) {
    const block_search_state::key k = st_.candidate[static_cast<std::size_t>(ns)];
    heap_push_or_decrease(ns, k.f, k.h);
    st_.candidate[static_cast<std::size_t>(ns)] = {kUnreachable, 0};
  }
}

search_result block_search::run() {
  search_result r;
  if (map_.block() != b_) {
    r.status = search_status::rule_mismatch;
    r.message = "map is cut into " + std::to_string(map_.block()) + "x" + std::to_string(map_.block()) +
                " blocks but " + db_.path() + " holds " + std::to_string(b_) + "x" + std::to_string(b_) + " blocks";
    return r;
  }
  if (!prepare_endpoints(rule_, map_, start_, goal_, opt_, r)) return r;
  if (opt_.record_expanded) expanded_ = &r.expanded;
  reset();
  build_links();

  // Goal blocks first, so a start block that also holds the goal sees it.
  std::array<std::pair<point, point>, kMaxStarts> holders;
  const int goals = containing_blocks(goal_, holders);
  for (int k = 0; k < goals; ++k) {
    const int s = slot_of(holders[static_cast<std::size_t>(k)].first.x, holders[static_cast<std::size_t>(k)].first.y);
    goal_local_[static_cast<std::size_t>(k)] = holders[static_cast<std::size_t>(k)].second;
    st_.slots[static_cast<std::size_t>(s)].goal_index = k;
    const block_graph graph(rule_, shape_, st_.slots[static_cast<std::size_t>(s)].code);
    graph.search(shape_.point_index(holders[static_cast<std::size_t>(k)].second), st_.goal_paths[static_cast<std::size_t>(k)]);
  }
  const int starts = containing_blocks(start_, holders);
  for (int k = 0; k < starts; ++k) {
    const int s = slot_of(holders[static_cast<std::size_t>(k)].first.x, holders[static_cast<std::size_t>(k)].first.y);
    start_slot_[static_cast<std::size_t>(k)] = s;
    block_slot& slot = st_.slots[static_cast<std::size_t>(s)];
    const block_graph graph(rule_, shape_, slot.code);
    block_graph::paths& paths = st_.start_paths[static_cast<std::size_t>(k)];
    graph.search(shape_.point_index(holders[static_cast<std::size_t>(k)].second), paths);
    cost_t value = kUnreachable, value_h = kUnreachable;
    for (int i = 0; i < n_; ++i) {
      const cost_t c = paths.cost[static_cast<std::size_t>(shape_.point_index(shape_.boundary_point(i)))];
      if (c == kUnreachable || c >= slot.g[static_cast<std::size_t>(i)]) continue;
      slot.g[static_cast<std::size_t>(i)] = c;
      slot.parent[static_cast<std::size_t>(i)] = {via::start, static_cast<std::uint8_t>(k), 0};
      slot.ingress |= 1u << i;
      const cost_t hi = h(global(slot, i));
      if (c + hi < value || (c + hi == value && hi < value_h)) {
        value = c + hi;
        value_h = hi;
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
    if (value != kUnreachable) heap_push_or_decrease(s, value, value_h);
  }

  // Algorithm 2.
  while (!st_.heap.empty() && st_.slots[static_cast<std::size_t>(st_.heap.front())].heap_value < length_) {
    const int s = heap_pop();
    block_slot& cur = st_.slots[static_cast<std::size_t>(s)];
    const std::uint32_t ingress = cur.ingress;
    cur.ingress = 0;
    if (cur.goal_index >= 0) {
      const block_graph::paths& gp = st_.goal_paths[static_cast<std::size_t>(cur.goal_index)];
      for (std::uint32_t m = ingress; m; m &= m - 1) {
        const int y = __builtin_ctz(m);
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
    expand(s, ingress);
  }
  r.stats = stats_;
  if (length_ == kUnreachable) {
    r.status = search_status::no_path;
    r.message = "no path from (" + std::to_string(start_.x) + "," + std::to_string(start_.y) + ") to (" +
                std::to_string(goal_.x) + "," + std::to_string(goal_.y) + ")";
    return r;
  }
  r.status = search_status::found;
  r.cost = length_;
  reconstruct(r);
  r.length = path_length(r.path);
  return r;
}

void block_search::reconstruct(search_result& r) const {
  // Walk back from the goal, collecting waypoints from goal to start, then reverse.
  std::vector<point>& out = r.path;
  out.clear();
  auto add = [&](point p) {
    if (out.empty() || !(out.back() == p)) out.push_back(p);
  };
  int chain[block_graph::kMaxPoints];
  auto add_local = [&](const block_slot& s, const int* pts, int count, bool reverse) {
    for (int k = 0; k < count; ++k) {
      const point q = shape_.point_at(pts[reverse ? count - 1 - k : k]);
      add({s.bx * b_ + q.x, s.by * b_ + q.y});
    }
  };
  if (direct_start_ >= 0) {
    const block_slot& s = st_.slots[static_cast<std::size_t>(start_slot_[static_cast<std::size_t>(direct_start_)])];
    const point gl = goal_local_[static_cast<std::size_t>(s.goal_index)];
    const int len = st_.start_paths[static_cast<std::size_t>(direct_start_)].path_to(shape_.point_index(gl), chain);
    add_local(s, chain, len, true);
  } else {
    const block_slot& gs = st_.slots[static_cast<std::size_t>(best_goal_slot_)];
    const int len = st_.goal_paths[static_cast<std::size_t>(gs.goal_index)].path_to(
        shape_.point_index(shape_.boundary_point(best_point_)), chain);
    add_local(gs, chain, len, false);  // goal ... y
    int s = best_goal_slot_, x = best_point_;
    while (true) {
      const block_slot& cur = st_.slots[static_cast<std::size_t>(s)];
      add(global(cur, x));
      const parent_ref p = cur.parent[static_cast<std::size_t>(x)];
      if (p.kind == via::block) {
        inflections inf;
        db_.path(cur.code, x, p.index, &inf);  // from x back to the ingress point
        for (int k = 0; k < inf.count; ++k) add({cur.bx * b_ + inf.points[static_cast<std::size_t>(k)].x,
                                                 cur.by * b_ + inf.points[static_cast<std::size_t>(k)].y});
        x = p.index;
      } else if (p.kind == via::neighbour) {
        s = static_cast<int>(p.slot);
        x = p.index;
      } else {  // via::start
        const int len2 = st_.start_paths[p.index].path_to(shape_.point_index(shape_.boundary_point(x)), chain);
        add_local(cur, chain, len2, true);  // x ... start
        break;
      }
    }
  }
  std::reverse(out.begin(), out.end());
  if (rule_.on_vertices()) return;
  // Cells: fill the straight runs between waypoints with every cell.
  std::vector<point> cells;
  cells.reserve(out.size() * 2);
  cells.push_back(out.front());
  for (std::size_t k = 1; k < out.size(); ++k) {
    point c = out[k - 1];
    const int sx = (out[k].x > c.x) - (out[k].x < c.x), sy = (out[k].y > c.y) - (out[k].y < c.y);
    while (!(c == out[k])) {
      c = {c.x + sx, c.y + sy};
      cells.push_back(c);
    }
  }
  out.swap(cells);
}

}  // namespace

search_result block_astar(const database& db, const grid_map& map, point start, point goal,
                          const search_options& options, search_context& ctx) {
  auto& impl = ctx.state();
  if (!impl.block) impl.block = new block_search_state();
  if (options.expected_rule && !(*options.expected_rule == db.movement())) {
    search_result r;
    r.status = search_status::rule_mismatch;
    std::string msg;
    db.check_rule(*options.expected_rule, &msg);
    r.message = msg;
    return r;
  }
  block_search search(db, map, start, goal, options, *impl.block);
  return search.run();
}

}  // namespace lddb
