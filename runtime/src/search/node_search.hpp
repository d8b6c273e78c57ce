// Private: the state shared by the reference searches (A* on cells, Theta* and Lazy
// Theta* on vertices): one record per cell or vertex of the map and an indexed 4-ary heap.
//
// The records are sized to the map and kept in the search_context between queries. A
// record belongs to the current query only when its `gen` equals the state's generation
// counter; a new query just bumps the counter, so nothing is cleared. The heap keeps its
// capacity too (a node is in it at most once, so it never outgrows the records), so once
// the arrays have grown to the largest map and open list seen, a query allocates nothing
// but its result. Memory: 24 bytes per cell (A*) or vertex (Theta*; 48 under the default
// any-angle rule, whose double corners have two sides, theta.cpp) of the largest map, plus
// 24 bytes per entry of the largest open list; jump point search keeps as many, of which
// only its largest query's pages are in memory (paged_records).
//
// Open-list order (every reference search, fixed so results are deterministic):
//   1. smaller f = g + h;
//   2. on equal f, larger g (the node nearer the goal by its heuristic: depth first
//      among equal-f nodes, which expands fewer nodes on open maps);
//   3. on equal f and g, smaller node index (row-major: y * width + x).
// Neighbours are generated in the order of lddb::kSteps (N, E, S, W, NE, SE, SW, NW).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "search/context.hpp"
#include "map/move_tables.hpp"
#include "lddb/grid.hpp"
#include "lddb/cost.hpp"
#include "lddb/rule.hpp"
#include "lddb/moves.hpp"
#include "lddb/segments.hpp"
#include "lddb/point.hpp"
#include "lddb/search.hpp"
#include "path/pull_tight.hpp"
#include "search/reserve_written.hpp"

namespace lddb {

namespace node_search {

inline constexpr std::uint32_t kNotOpen = 0xFFFFFFFFu;  // not in the heap, not closed
inline constexpr std::uint32_t kClosed = 0xFFFFFFFEu;   // expanded

struct node {
  cost_t g;              // best known cost from the start (kUnreachable: none yet)
  std::uint32_t parent;  // node index of the parent (the start is its own parent)
  std::uint32_t gen;     // the query this record belongs to
  std::uint32_t pos;     // index in the heap, or kNotOpen / kClosed
  std::uint8_t cells;    // Theta* under sides: the vertex's four cells (touch_vertex); in the padding
};

struct heap_entry {
  cost_t f;
  cost_t g;
  std::uint32_t id;
  std::uint32_t slot;  // paged_records: where the node's record is (in the padding)
};

// The open-list order described above.
inline bool before(const heap_entry& a, const heap_entry& b) {
  if (a.f != b.f) return a.f < b.f;
  if (a.g != b.g) return a.g > b.g;
  return a.id < b.id;
}

}  // namespace node_search

// The records of every cell or vertex, zeroed (gen 0: no query's) by calloc, which for a
// large map takes pages the system zeroes only when first written: a search that touches
// few records (jump point search on a 2048 x 2048 map) pays for those pages alone, not
// for writing 24 bytes of every cell. reserve() writes them all, so that no later query
// faults a page in.
class node_records {
 public:
  node_records() = default;
  node_records(const node_records&) = delete;
  node_records& operator=(const node_records&) = delete;
  ~node_records() { std::free(p_); }
  std::size_t size() const { return n_; }
  node_search::node& operator[](std::size_t i) { return p_[i]; }
  const node_search::node& operator[](std::size_t i) const { return p_[i]; }
  node_search::node* begin() { return p_; }
  node_search::node* end() { return p_ + n_; }
  // At least `count` records, the old ones kept; new ones zeroed. Throws std::bad_alloc.
  void grow(std::size_t count) {
    if (count <= n_) return;
    auto* q = static_cast<node_search::node*>(std::calloc(count, sizeof(node_search::node)));
    if (q == nullptr) throw std::bad_alloc();
    if (n_ != 0) std::memcpy(q, p_, n_ * sizeof(node_search::node));
    std::free(p_);
    p_ = q;
    n_ = count;
  }
  // Writes every record once (their contents stay), so that their pages are in memory.
  void touch_pages() {
    for (std::size_t i = 0; i < n_; i += 4096 / sizeof(node_search::node)) {
      volatile std::uint32_t* gen = &p_[i].gen;
      *gen = *gen;
    }
  }
  // What the state asks of its records (paged_records, below, answers the same).
  node_search::node& fresh(std::uint32_t id, std::uint32_t) { return p_[id]; }  // touch(): any record
  std::uint32_t slot(std::uint32_t id) const { return id; }  // where a touched record is
  std::uint32_t slot(const node_search::node&, std::uint32_t id) const { return id; }
  // A heap entry, and the record of an entry's node: by its id alone.
  static node_search::heap_entry entry(cost_t f, cost_t g, std::uint32_t id, std::uint32_t) { return {f, g, id, 0}; }
  node_search::node& of(const node_search::heap_entry& e) { return p_[e.id]; }
  void next_query() {}
  void forget() {  // the generation wrapped
    for (auto& n : *this) n.gen = 0;
  }
  std::size_t bytes() const { return n_ * sizeof(node_search::node); }

 private:
  node_search::node* p_ = nullptr;
  std::size_t n_ = 0;
};

// Jump point search's records: the same records, but a query takes them a page of kPage
// consecutive cells at a time, from the front of one pool, in the order it first touches
// the pages. Jump point search touches few cells of a large map, scattered over it; with a
// record at each cell's own place, every page of memory that ever held a jump point stays
// in memory, so a context that ran queries all over a 2048 x 2048 map comes to hold
// nearly all of its 96 MiB. Taken from the front of the pool, the records in memory are
// those of the largest query (kPage * 24 bytes for each page of cells it touched), however
// many queries ran. The pool is allocated for every page of the map (by calloc: the
// system maps its pages only as queries write them), so no query allocates; the table
// from a page of cells to its page of the pool costs 8 bytes for kPage cells.
class paged_records {
 public:
  static constexpr int kShift = 5;
  static constexpr std::uint32_t kPage = 1u << kShift;

  std::size_t size() const { return table_.size() << kShift; }
  // The record of a cell already touched in this query.
  node_search::node& operator[](std::size_t i) { return pool_[place(i)]; }
  const node_search::node& operator[](std::size_t i) const { return pool_[place(i)]; }
  // The record of cell `id`, its page taken from the pool on its first touch in query `gen`.
  node_search::node& fresh(std::uint32_t id, std::uint32_t gen) {
    page_ref& t = table_[id >> kShift];
    if (t.gen != gen) {
      t.gen = gen;
      t.shift = static_cast<std::int32_t>((used_++ << kShift) - (id & ~(kPage - 1)));
    }
    return pool_[static_cast<std::size_t>(static_cast<std::int64_t>(id) + t.shift)];
  }
  std::size_t place(std::size_t i) const {
    return static_cast<std::size_t>(static_cast<std::int64_t>(i) + table_[i >> kShift].shift);
  }
  std::uint32_t slot(std::uint32_t id) const { return static_cast<std::uint32_t>(place(id)); }
  std::uint32_t slot(const node_search::node& n, std::uint32_t) const {
    return static_cast<std::uint32_t>(&n - &pool_[0]);
  }
  // A heap entry keeps where its record is, so that the heap moves it with no look-up.
  static node_search::heap_entry entry(cost_t f, cost_t g, std::uint32_t id, std::uint32_t slot) {
    return {f, g, id, slot};
  }
  node_search::node& of(const node_search::heap_entry& e) { return pool_[e.slot]; }
  void grow(std::size_t count) {
    const std::size_t pages = (count + kPage - 1) >> kShift;
    if (pages <= table_.size()) return;
    table_.resize(pages);  // gen 0: no query's
    pool_.grow(pages << kShift);
  }
  void touch_pages() { pool_.touch_pages(); }
  void next_query() { used_ = 0; }
  void forget() {
    pool_.forget();
    for (page_ref& t : table_) t.gen = 0;
  }
  std::size_t bytes() const { return pool_.bytes() + table_.capacity() * sizeof(page_ref); }

 private:
  struct page_ref {
    std::uint32_t gen = 0;    // the query that took a page for these cells
    std::int32_t shift = 0;   // a cell's record is pool_[id + shift]: one addition a look-up
  };
  std::vector<page_ref> table_;
  node_records pool_;
  std::uint32_t used_ = 0;  // pages of the pool this query took
};

// The search's state over records of type Records (node_records, or paged_records for
// jump point search).
template <class Records>
struct basic_node_state {
  static constexpr std::size_t kArity = 4;

  Records nodes;
  std::vector<node_search::heap_entry> heap;
  move_tables moves;
  std::uint32_t gen = 0;
  std::uint64_t heap_ops = 0;  // of the current query
  // Pulling an any-angle path tight: finish_path's, and any-angle by jumps', which builds
  // its path of corners in pull.in.
  pull_scratch pull;

  // Starts a query over `count` nodes (cells or vertices, row-major).
  void begin(std::size_t count) {
    if (nodes.size() < count) {
      nodes.grow(count);  // exactly: the context's size follows the largest map
      heap.reserve(std::min<std::size_t>(count, 4096));
    }
    nodes.next_query();
    heap.clear();
    heap_ops = 0;
    if (++gen == 0) {  // wrapped: forget every record once, then start again at 1
      nodes.forget();
      gen = 1;
    }
  }

  // Room for queries over `count` nodes with no growth: the records and a heap as large
  // (a node is in it at most once), with `write` each written once so that the pages are
  // in memory; without, the pages stay unmapped until a query first writes them.
  void reserve(std::size_t count, bool write) {
    nodes.grow(count);
    if (write) nodes.touch_pages();
    reserve_written(heap, count, write);
  }

  // The record of node `id` for this query (fresh records have g = kUnreachable).
  node_search::node& touch(std::uint32_t id) {
    node_search::node& n = nodes.fresh(id, gen);
    if (n.gen != gen) {
      n.gen = gen;
      n.g = kUnreachable;
      n.parent = id;
      n.pos = node_search::kNotOpen;
    }
    return n;
  }
  // touch() for the record of vertex `id` at (x, y) of `map`, which on its first touch in
  // a query also reads the vertex's four cells into `cells` (small_pattern bits): read once
  // a query, not at every expansion next to it.
  node_search::node& touch_vertex(std::uint32_t id, const grid_map& map, int x, int y) {
    const bool first = nodes[id].gen != gen;
    node_search::node& n = touch(id);
    if (first) n.cells = static_cast<std::uint8_t>(gather_cells(map, x - 1, y - 1, 2));
    return n;
  }
  // The record of a node already touched in this query.
  node_search::node& at(std::uint32_t id) { return nodes[id]; }

  // The path from node `from` to node `to`, following parents back from `to`; `to_point`
  // turns a node id into its cell or vertex.
  template <class ToPoint>
  void trace_path(std::uint32_t from, std::uint32_t to, ToPoint to_point, std::vector<point>& out) {
    std::size_t n = 1;
    for (std::uint32_t id = to; id != from; id = at(id).parent) ++n;
    out.resize(n);
    for (std::uint32_t id = to;; id = at(id).parent) {
      out[--n] = to_point(id);
      if (id == from) break;
    }
  }

  bool open_empty() const { return heap.empty(); }
  const node_search::heap_entry& open_top() const { return heap.front(); }

  // Ends a search whose expansion budget ran out before the goal: the path from `from`
  // to the open node `to` (the most promising one), its g and the least f still open.
  template <class ToPoint>
  void give_up(std::uint32_t from, std::uint32_t to, ToPoint to_point, std::uint64_t budget, search_result& res) {
    res.status = search_status::budget_exhausted;
    set_message(res.message, "expansion budget of %llu nodes exhausted", static_cast<unsigned long long>(budget));
    res.lower_bound = heap.front().f;
    trace_path(from, to, to_point, res.path);
    res.cost = at(to).g;
    res.length = path_length(res.path);
  }

  // Inserts a node that is not in the heap (new, or re-opened after being closed).
  void push(std::uint32_t id, cost_t f, cost_t g) {
    ++heap_ops;
    heap.push_back(Records::entry(f, g, id, nodes.slot(id)));
    sift_up(heap.size() - 1);
  }
  // Lowers the key of a node in the heap.
  void decrease(std::uint32_t id, cost_t f, cost_t g) {
    ++heap_ops;
    const std::size_t i = nodes[id].pos;
    heap[i] = Records::entry(f, g, id, nodes.slot(id));
    sift_up(i);
  }
  // push(), decrease() and open_h() for a node whose record is in hand (no look-up by id).
  void push(node_search::node& n, std::uint32_t id, cost_t f, cost_t g) {
    ++heap_ops;
    heap.push_back(Records::entry(f, g, id, nodes.slot(n, id)));
    sift_up(heap.size() - 1);
  }
  void decrease(node_search::node& n, std::uint32_t id, cost_t f, cost_t g) {
    ++heap_ops;
    const std::size_t i = n.pos;
    heap[i] = Records::entry(f, g, id, nodes.slot(n, id));
    sift_up(i);
  }
  // The record of a heap entry's node.
  node_search::node& of(const node_search::heap_entry& e) { return nodes.of(e); }
  cost_t open_h(const node_search::node& n) const {
    const node_search::heap_entry& e = heap[n.pos];
    return e.f - e.g;
  }
  // Inserts or lowers, whichever applies; h is the node's heuristic.
  void push_or_decrease(std::uint32_t id, cost_t g, cost_t h) {
    if (nodes[id].pos < node_search::kClosed) decrease(id, g + h, g);
    else push(id, g + h, g);
  }
  // The heuristic of a node in the heap, from its entry.
  cost_t open_h(std::uint32_t id) const {
    const node_search::heap_entry& e = heap[nodes[id].pos];
    return e.f - e.g;
  }
  // Removes and returns the first entry; its node is left with pos = kNotOpen.
  node_search::heap_entry pop() {
    ++heap_ops;
    const node_search::heap_entry top = heap.front();
    const node_search::heap_entry last = heap.back();
    heap.pop_back();
    if (!heap.empty()) {
      heap.front() = last;
      sift_down(0);
    }
    nodes.of(top).pos = node_search::kNotOpen;
    return top;
  }

  std::size_t bytes() const {
    return sizeof(*this) + nodes.bytes() + heap.capacity() * sizeof(node_search::heap_entry) + pull.bytes();
  }

 private:
  void sift_up(std::size_t i) {
    const node_search::heap_entry e = heap[i];
    while (i > 0) {
      const std::size_t p = (i - 1) / kArity;
      if (!node_search::before(e, heap[p])) break;
      heap[i] = heap[p];
      nodes.of(heap[i]).pos = static_cast<std::uint32_t>(i);
      i = p;
    }
    heap[i] = e;
    nodes.of(e).pos = static_cast<std::uint32_t>(i);
  }
  void sift_down(std::size_t i) {
    const node_search::heap_entry e = heap[i];
    const std::size_t n = heap.size();
    for (;;) {
      const std::size_t first = i * kArity + 1;
      if (first >= n) break;
      const std::size_t end = first + kArity < n ? first + kArity : n;
      std::size_t best = first;
      for (std::size_t c = first + 1; c < end; ++c)
        if (node_search::before(heap[c], heap[best])) best = c;
      if (!node_search::before(heap[best], e)) break;
      heap[i] = heap[best];
      nodes.of(heap[i]).pos = static_cast<std::uint32_t>(i);
      i = best;
    }
    heap[i] = e;
    nodes.of(e).pos = static_cast<std::uint32_t>(i);
  }
};

struct node_search_state : basic_node_state<node_records> {};     // A*, Theta*, Lazy Theta*
struct jump_search_state : basic_node_state<paged_records> {};    // jump point search (jump_search.cpp)

// The context's reference-search state, created on first use.
inline node_search_state& node_state(search_context& ctx) {
  auto& im = detail::context_access::state(ctx);
  if (!im.node) im.node = new node_search_state();
  return *im.node;
}
inline jump_search_state& jump_state(search_context& ctx) {
  auto& im = detail::context_access::state(ctx);
  if (!im.jump) im.jump = new jump_search_state();
  return *im.jump;
}

}  // namespace lddb
