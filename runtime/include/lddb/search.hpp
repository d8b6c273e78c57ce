// lddb/search.hpp: Block A* and the reference searches it is measured against.
//
// Usage: open a database once (shared by every thread), keep one search_context per
// thread, and call block_astar() as often as you like. The context keeps its memory
// between queries, so a warm context does not allocate; its size follows the blocks (or
// cells) a query touches, not the size of the map, unless search_context::reserve sized
// it for the whole map up front (so that the first query costs what a warm one does).
//
// Every search compares fixed-point integer costs (lddb/cost.hpp) and breaks ties by a
// fixed order, so the same query returns the same path on every run and platform.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lddb/format.hpp"
#include "lddb/grid.hpp"
#include "lddb/cost.hpp"
#include "lddb/rule.hpp"
#include "lddb/point.hpp"
#include "lddb/search_options.hpp"
#include "lddb/unit.hpp"

namespace lddb {

namespace detail {
struct context_access;  // runtime/src/search/context.hpp
}

enum class search_status : std::uint8_t {
  found,
  no_path,          // start and goal are valid but not connected
  invalid_start,    // off the map, or blocked (cells) / unusable (vertices), or (default
                    // any-angle rule) a double corner whose own south-east cell is blocked
  invalid_goal,
  rule_mismatch,    // the database's rule or block size does not fit the query
  budget_exhausted, // search_options::max_expansions reached first: see search_result
  in_progress,      // a sliced Block A* query that has more work to do
  invalid_option,   // a search_options value out of its range (weight, square_levels): see the message
};
const char* search_status_name(search_status s);

struct search_stats {
  std::uint64_t expanded = 0;   // nodes popped for expansion: blocks or open squares (Block A*), cells or vertices
  std::uint64_t generated = 0;  // points whose g-value improved
  std::uint64_t heap_ops = 0;   // pushes, pops and decrease-keys
  std::uint64_t los_checks = 0; // line-of-sight tests (Theta*, smoothing)
};

struct search_result {
  search_status status = search_status::no_path;
  std::string message;  // why, when not found
  // Cells for tile and octile: every cell from start to goal, each a legal move from the
  // one before (with search_options::smooth set: only the start, the turning points and the
  // goal, joined by straight or 45-degree runs of legal moves). Vertices for any-angle: the
  // waypoints of the polyline, smoothed unless search_options::smooth is false.
  // budget_exhausted: the path to the most promising point reached (least g + h), so a
  // unit can start moving while the search goes on or is retried.
  std::vector<point> path;
  // The rule's cost of `path`, fixed point (cost_to_double gives units of length). Tile and
  // octile: the sum of its moves' costs, what the search minimises (octile with a diagonal
  // cost other than sqrt(2) prices each diagonal move at that cost, so there it differs
  // from `length`). Any-angle, smoothed (search_options::smooth, the default): the sum of
  // its segments' Euclidean lengths, each rounded to 2^-32, so within 2^-33 a segment of
  // `length`. Any-angle raw: what the search minimised, the same for Theta* and Lazy
  // Theta*; for Block A*, the sum of the database's stored lengths, each rounded to its
  // precision (2^-12 for the shipped files), so it may differ from `length` by up to
  // 2^-13 a block crossed.
  cost_t cost = kUnreachable;
  // budget_exhausted: the least g + h still open; for tile and octile with an admissible
  // heuristic, a lower bound on the optimal cost. 0 when search_options::weight > 1.
  cost_t lower_bound = 0;
  // The Euclidean length of the waypoints, in double precision: the distance a unit walks,
  // whatever the rule charges for it (see `cost`).
  double length = 0;
  search_stats stats;  // los_checks include those of smoothing
  search_kind searched = search_kind::block_astar;  // the search that answered (set by each call)
  // Blocks (Block A*) or cells/vertices (others) the search expanded, for pictures;
  // filled only when search_diagnostics::record_expanded is set.
  std::vector<point> expanded;
  bool found() const { return status == search_status::found; }
  // Back to a fresh result, keeping the capacity of the vectors and the message.
  void clear();
};

// True when this CPU runs search_diagnostics::vector_kernels (x86-64 with AVX2); false, the
// portable loops run whatever the option says.
bool vector_kernels_available();

// What search_context::reserve sizes and writes: the trade between a context's memory and
// what its first queries cost.
struct reserve_options {
  // Bytes of pages reserve writes up front. reserve allocates every table a query on the
  // map could grow (so that no query allocates), but a page is in memory only once written:
  // written by reserve, no query faults one in, so the first query costs what a warm one
  // does; left to the queries, the context holds in memory only what they touch, and the
  // query that first writes a page pays its fault (docs/benchmarks.md, "First query"; jump
  // point search reuses the same pages query after query, so this is paid once, up to
  // its largest query). reserve writes each search's tables, the default queries' search
  // first, while they fit in this many bytes in all; only Block A*'s block table (24 bytes
  // a block) is written whatever this says. The default writes everything on maps up to
  // about 512 x 512; on larger maps a reserved context holds what its tables need written
  // plus what its largest query touched (docs/benchmarks.md, "First query").
  static constexpr std::size_t kDefaultPrefaultBytes = std::size_t{16} << 20;
  std::size_t prefault_bytes = kDefaultPrefaultBytes;
  // Block A*'s own state also where the map's preparation has find_path answer by jump
  // point search (lddb/prepare.hpp), for the queries that call Block A* by name
  // (block_astar, block_astar_begin, or a forced search_diagnostics::search). Off, such a
  // query grows the context as on one that was not reserved; on, about 34 bytes a cell
  // more that find_path's queries never touch.
  bool every_search = false;
};

// Per-thread, reusable search state. Not thread-safe itself: one per thread.
class search_context {
 public:
  search_context();
  ~search_context();
  search_context(search_context&&) noexcept;
  search_context& operator=(search_context&&) noexcept;
  // Bytes currently held, for memory reports.
  std::size_t memory_bytes() const;

  // Sizes the context for every Block A* query with `db` on `map`, so that no later query
  // on that map grows any of its tables: call it once after loading, before the first
  // frame. Without it the first query grows the tables from nothing and faults in their
  // fresh pages, and builds what it reads once per rule and map; that made a first query
  // 2 to 20 times a warm one (docs/benchmarks.md, "First query"). It takes the database
  // because Block A*'s state follows its rule and block size: the links between blocks and
  // the open squares' shapes, built here, and a block's number of boundary points.
  // It sizes, for a map of B blocks (b x b cells each):
  //  - B node slots (no query has more nodes than blocks), an OPEN list and per-node keys
  //    for B, and a block table at most half full: about 450 bytes a block (28 a cell at
  //    b = 4); measured at b = 4 on maps without open ground (25% random obstacles):
  //    7.1 MiB for 512 x 512 cells, 111 MiB for 2048 x 2048 (docs/benchmarks.md, "First
  //    query");
  //  - open squares (any-angle by default, any rule with search_diagnostics::open_squares, so
  //    reserved for every rule): one node per aligned 2 x 2 or 4 x 4 group of blocks that
  //    is open now, about 1 KiB each, and per open 8 x 8 or 16 x 16 group about 7 KiB;
  //    nothing on cluttered maps, about 370 bytes a block more on wholly open ones (12.9
  //    MiB for 512 x 512 free cells, 205 MiB for 2048 x 2048; 10.7 and 167 MiB for maps of
  //    64-cell rooms);
  //  - any-angle: room to pull a smoothed path tight, 48 bytes for each of 8 (width +
  //    height) + 64 waypoints (390 KiB for 512 x 512 cells), a longer path left as it is;
  // and writes it once, so its pages are in memory, as far as reserve_options allows
  // (on large maps, not all of it by default). It also builds the map's
  // component labels for the rule (lddb::same_component; 4 bytes a cell, kept in the
  // map, shared by every context), which the first query would otherwise build.
  // Memory only grows: reserving again for a larger map, or after set_blocked freed cells
  // (which can open more squares), makes room for that too, and keeps a sliced query in
  // progress. What reserve cannot size is the caller's: a search_result's path grows
  // with the longest path it has held (reuse the result, or reserve its path), and
  // search_diagnostics::record_expanded records into a vector of its own. Where the map's
  // preparation (lddb/prepare.hpp) has find_path answer by jump point search, it sizes that
  // search's records as reserve(rule, map) does: prepare first, then reserve. Throws
  // std::invalid_argument when the map's block size is not the database's.
  // Which of these it sizes, and which pages it writes, is reserve_options' trade: by
  // default, where the map's preparation has find_path answer by jump point search, it
  // sizes that search alone (48 bytes a cell, of which a query brings into memory the
  // pages it uses), and on large maps it leaves the pages to the queries that first write
  // them.
  void reserve(const database& db, const grid_map& map, const reserve_options& options = {});
  // The same for the reference searches under rule `r` (which keep a record per cell or
  // vertex, so a warm query on a map already needs this much): A* for tile and octile, 48
  // bytes a cell; Theta* and Lazy Theta* for any-angle, 48 bytes a vertex, 96 under the
  // default rule (a double corner has two sides), with any-angle's room to pull a path
  // tight as above; and where jump_point_search_supports(r), that search's records too (48
  // bytes a cell, written after the others while reserve_options::prefault_bytes allows).
  // Also builds the map's component labels.
  void reserve(const rule& r, const grid_map& map, const reserve_options& options = {});

 private:
  friend struct detail::context_access;  // the searches' state (runtime/src/search/context.hpp)
  struct impl;
  std::unique_ptr<impl> impl_;
};

// Block A* (Yap et al. 2011, Algorithms 1 and 2) on the database's rule, whatever the map's
// preparation chose (find_path, lddb/find_path.hpp, runs that choice). The map's block
// size must equal the database's; start and goal are cells for tile/octile and vertices
// for any-angle.
search_result block_astar(const database& db, const grid_map& map, point start, point goal,
                          const search_options& options, search_context& ctx);

// The same, answering into `out`: its vectors and message keep their capacity, so with a
// warm context and a reused result a query allocates nothing (tests/alloc_test.cpp).
void block_astar(const database& db, const grid_map& map, point start, point goal, const search_options& options,
                 search_context& ctx, search_result& out);

// Block A* in slices, for a game loop that gives pathfinding a fixed share of each
// frame. block_astar_begin checks the query and prepares it in `ctx` without expanding
// anything: its status is in_progress, or final (invalid_start, found for start == goal,
// ...). Each block_astar_continue then expands at most `max_expansions` blocks (0: no
// limit) and returns in_progress until the query ends with found, no_path or, when
// options.max_expansions caps the whole query, budget_exhausted. The result of a
// finished query equals block_astar's. The database and the map must stay alive and
// unchanged until the query ends; beginning another query on `ctx` abandons it.
search_result block_astar_begin(const database& db, const grid_map& map, point start, point goal,
                                const search_options& options, search_context& ctx);
search_result block_astar_continue(search_context& ctx, std::uint64_t max_expansions);

// A* on cells for tile and octile rules.
search_result astar(const rule& r, const grid_map& map, point start, point goal, const search_options& options,
                    search_context& ctx);

void astar(const rule& r, const grid_map& map, point start, point goal, const search_options& options,
           search_context& ctx, search_result& out);

// Jump point search (Harabor and Grastien 2011, with the row scans and stronger pruning of
// their 2014 paper): A* over the cells where an optimal path may turn, found by scanning
// the map's rows and columns 64 cells a step. It prepares nothing per map (it reads the
// bits set_blocked keeps), so a changed cell costs nothing more, and it returns optimal
// paths like A* (every cell, or the turning points with search_options::smooth). Fast on
// open ground and in corridors, where it steps over many cells at once; slow where
// obstacles are scattered, which stop every scan. Its rule must be tile, octile with
// corners=forbidden and a diagonal cost strictly between 1 and 2, or any-angle
// (jump_point_search_supports; the proofs are in runtime/src/search/jumps/jump_search.cpp and
// jump_any_angle.cpp); any other answers rule_mismatch.
// Any-angle: the search runs on the cells, between a free cell of the start's and one of
// the goal's, breaking octile ties towards the straight line, and its path is pulled tight
// around the obstacle corners it passes: a legal path, the shortest of the way round the
// obstacles it takes, which is not always the shortest way round (docs/benchmarks.md gives
// the lengths); always tight, smoothed or not, and with no landmarks (the map's are for
// vertices). A weight orders the cell search, so it bounds the cells' octile cost, not
// the any-angle length. Under squeeze=allowed the cells beside a double corner (grid_map::
// double_corner_count) step across it, where the point may pass.
// max_expansions counts jump points expanded.
bool jump_point_search_supports(const rule& r);
search_result jump_point_search(const rule& r, const grid_map& map, point start, point goal,
                                const search_options& options, search_context& ctx);
void jump_point_search(const rule& r, const grid_map& map, point start, point goal, const search_options& options,
                       search_context& ctx, search_result& out);

// Theta* and Lazy Theta* on vertices for any-angle rules.
search_result theta_star(const rule& r, const grid_map& map, point start, point goal, const search_options& options,
                         search_context& ctx);
search_result lazy_theta_star(const rule& r, const grid_map& map, point start, point goal,
                              const search_options& options, search_context& ctx);
void theta_star(const rule& r, const grid_map& map, point start, point goal, const search_options& options,
                search_context& ctx, search_result& out);
void lazy_theta_star(const rule& r, const grid_map& map, point start, point goal, const search_options& options,
                     search_context& ctx, search_result& out);

// Which free cells a rule's paths join: eight when it passes diagonally between two cells
// whose two other cells around the corner are blocked (octile corners=allowed,
// any-angle:squeeze=allowed), else four (a legal diagonal always has a free side cell).
// Asked of step_legal and segment_legal themselves.
connectivity connectivity_of(const rule& r);

// The free cell whose component a start or goal lies in: the cell itself for tile and
// octile; for any-angle, at a double corner its own (south-east) cell under the default
// rule, else any free cell around the vertex (they are joined around it). nullopt when the
// point is no valid endpoint (off the map, blocked, unusable, or on a double corner whose
// own cell is blocked under the default rule).
std::optional<point> component_cell(const rule& r, const grid_map& map, point p);

// Does a path under the rule join start and goal? From the map's component labels
// (grid_map::same_component), exactly; nullopt when either is no valid endpoint
// (component_cell). The first call for a connectivity, and the first after a change that
// split a component into two large parts, builds them: O(width x height).
std::optional<bool> same_component(const rule& r, const grid_map& map, point start, point goal);

// Removes needless waypoints: from each kept waypoint, jumps to the farthest later
// waypoint in line of sight under the rule (cells: a straight or 45-degree run of legal
// moves for tile/octile is not smoothed; any-angle: legal segments), and pulls an any-angle
// path tight: each waypoint moves to the obstacle corner it turns around, so the path is the
// shortest of its way round the obstacles (random512-25-1, Block A*: +0.25% over the
// optimum smoothed, +0.07% pulled). Returns the new waypoint list; the path stays legal and
// never gets longer.
std::vector<point> smooth_path(const rule& r, const grid_map& map, const std::vector<point>& path);

// Length of a waypoint list in double precision (Euclidean between consecutive points).
double path_length(const std::vector<point>& path);

}  // namespace lddb
