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
#include "lddb/unit.hpp"

namespace lddb {

class landmark_set;  // lddb/landmarks.hpp
namespace detail {
struct context_access;  // runtime/src/context.hpp
}

// Distances in open space: zero; Manhattan (dx + dy); octile (the cheaper axis's steps at
// the rule's diagonal cost, the octile rule's own, sqrt 2 for the other rules, the rest
// straight); Euclidean.
enum class heuristic_kind : std::uint8_t { zero, manhattan, octile, euclidean };
// The rule's own heuristic, admissible and consistent, and the best informed of its
// admissible ones: Manhattan for tile, octile for octile, Euclidean for any-angle.
heuristic_kind default_heuristic(const rule& r);
// Does the heuristic never overestimate a cost under the rule, from the rule's move costs?
// tile (unit straight moves): every kind (octile with sqrt 2 and Euclidean fall below
// Manhattan); octile with diagonal d: zero and octile (exact in open space), Euclidean
// when d >= sqrt 2, Manhattan only when d = 2; any-angle (straight segments): zero and
// Euclidean. Every search refuses any other (invalid_option), see search_options::heuristic.
bool heuristic_admissible(heuristic_kind h, const rule& r);
const char* heuristic_name(heuristic_kind h);

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

// Which search answered a query, and so what its search_stats count: Block A* expands
// blocks and open squares, jump point search jump points (for any-angle, on the cells, the
// path then pulled tight), A* cells, Theta* and Lazy Theta* vertices. block_astar hands a
// query to jump point search where the map's preparation chose it
// (block_astar_answers_by_jumps), and jump point search an any-angle query to Theta* where
// squeeze=allowed meets a double corner.
enum class search_kind : std::uint8_t { block_astar, jump_point_search, astar, theta_star, lazy_theta_star };
const char* search_kind_name(search_kind k);

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
  // filled only when search_options::record_expanded is set.
  std::vector<point> expanded;
  bool found() const { return status == search_status::found; }
  // Back to a fresh result, keeping the capacity of the vectors and the message.
  void clear();
};

struct search_options {
  // Unset (`search_options opt;`): the rule's own, default_heuristic of the query's rule
  // (the database's for Block A*). A heuristic that is not admissible for the rule
  // (heuristic_admissible) is refused with invalid_option, also with weight > 1: an
  // overestimate gives longer paths by an amount no bound limits (Manhattan under any-angle
  // up to sqrt 2 times the straight line, under octile with diagonal 1 up to twice the
  // cost), on top of what the weight allows, while the weight alone trades length for
  // speed with a stated bound. Ask for a weight to search faster.
  std::optional<heuristic_kind> heuristic;
  // Smooth the path (smooth_path: any-angle paths also pulled tight) before returning it,
  // found or budget_exhausted. Unset takes
  // the rule's default: on for any-angle (a raw Block A* path has many waypoints a unit
  // would zig-zag through: 62.6 on average over 64room_001's queries, 11.1 smoothed; the search's
  // own cost is then replaced by the smoothed path's, see search_result::cost), off for tile
  // and octile, whose path then lists every cell (true keeps only the turning points; the
  // cost stays). Smoothing's line-of-sight tests count in stats.los_checks; a warm query
  // smooths without allocating. Sliced Block A* smooths when the query ends.
  std::optional<bool> smooth;
  bool record_expanded = false;
  // Block A*: refuse (rule_mismatch) unless the database holds exactly this rule.
  std::optional<rule> expected_rule;
  // Stop with budget_exhausted after this many expansions (nodes for Block A*, cells
  // or vertices for the others); 0: no limit.
  std::uint64_t max_expansions = 0;
  // Block A*: search each aligned 4 x 4, or else 2 x 2, group of free blocks as one open
  // square, a node whose boundary costs are closed form because every move inside it is
  // legal: straight lines for any-angle (b <= 4; fewer expansions, shorter paths),
  // Manhattan or octile distance for tile and octile (b <= 4, and 2 x 2 for b = 5; the
  // same optimal costs). A group holding the start or goal is no square. False keeps the
  // paper's fixed blocks; unset takes the rule's default, chosen by measurement
  // (docs/benchmarks.md, "Open squares for the cell rules"): on for any-angle, off for
  // tile and octile, whose squares cut the expansions on open ground but save time only
  // on maps of big rooms (6-7% on 64room_001; 1-32% slower on the other families).
  std::optional<bool> open_squares;
  // Block A* with open squares: the largest square, as a level L (2^L x 2^L blocks), from 1
  // to kMaxSquareLevels. The large levels 3 and 4 (8 x 8 and 16 x 16 blocks, up to 256
  // boundary points: b <= 4) carry g-values across by rows from a few ingress points or in
  // time about linear in their perimeter; a rule or block size without a level keeps the
  // largest it has. Out of range: invalid_option. Unset takes the rule's default, measured
  // (docs/benchmarks.md, "Large open squares"): 4 for tile and octile (0.65-0.90 of the
  // time on open 2048 x 2048 maps, within 2% on the 512 x 512 ones), 2 for any-angle (half
  // the expansions on open ground, but 1.25-1.66 times the time).
  static constexpr int kMaxSquareLevels = 4;
  std::optional<int> square_levels;
  // Block A*: run the min-plus rows with AVX2 where the CPU has it: any-angle, and the open
  // squares of every rule (the cell rules' blocks run the portable loops, which are as fast
  // on their short rows). The answers are the same either way (the tests compare them);
  // false is for measuring the portable code.
  bool vector_kernels = true;
  // Every search: when start and goal lie in different components of the map under the
  // rule (same_component below), answer no_path at once, with no expansion, instead of
  // exhausting the start's component. The answer is the same either way; false is for
  // measuring the searches without it. (A query capped by max_expansions whose goal is
  // unreachable thus ends no_path rather than budget_exhausted.)
  bool component_check = true;
  // Bounded-suboptimal (weighted) search: OPEN is ordered by g + weight * h, which expands
  // fewer nodes for longer paths; above 1 a node whose g is already within the bound is not
  // re-opened. 1 is the optimal search. With an admissible heuristic (every one a search
  // accepts: the rule's default, or zero, or another consistent one), a raw path found
  // costs at most weight times:
  //  - tile and octile (every search): the optimal cost;
  //  - any-angle Block A*: the least cost over its stored block costs, so at most weight
  //    times its own cost at weight 1 (its heuristic is scaled down by half a stored unit
  //    per unit of length when weight > 1, so that the rounded stored costs never fall
  //    below it);
  //  - Theta* and Lazy Theta*: no proven bound (they are not optimal at weight 1 either);
  //    tests/weighted_test.cpp checks cost <= weight x the cost at weight 1 on generated maps.
  // `cost` is always the returned path's; a smoothed path is never longer than the raw one.
  // Taken in steps of 1/4096, rounded down. Must be finite and in [1, kMaxWeight]; any other
  // value gives invalid_option.
  double weight = 1.0;
  static constexpr double kMaxWeight = 16;
  // Differential heuristic (lddb/landmarks.hpp): every search then orders OPEN by
  // max(heuristic, the landmarks' lower bound). The set must be for the query's rule
  // (else invalid_option). While it is not current_for the map (a cell was freed since it
  // was built, or it was built from another map) the search uses `heuristic` alone, which
  // is always safe. Tile and octile stay optimal; Block A*'s any-angle paths keep their
  // cost. The set must outlive the query; several threads may share one.
  const landmark_set* landmarks = nullptr;
  // Block A* under a rule jump_point_search supports (tile; octile with corners=forbidden,
  // the default): true answers the query with jump point search instead, which steps over open
  // ground a row of cells at a time (the same optimal costs; stats count jump points, and
  // record_expanded records cells). Unset takes the map's preparation's choice, made by a
  // measured rule (lddb/prepare.hpp: on every map but those of scattered obstacles), and
  // false on a map not prepared. A sliced query (block_astar_begin) stays Block A*.
  std::optional<bool> jumps;
  // Use what lddb::prepare made for the map under the query's rule (lddb/prepare.hpp): its
  // landmarks while they are current, unless `landmarks` names a set, its open-square
  // choice, unless `open_squares` is set, and its choice of `jumps`, unless set. False
  // searches as if the map were not prepared.
  bool use_prepared = true;
  // The unit that moves (lddb/unit.hpp): its size and movement class. Every search then
  // searches the map as that unit sees it (unit_view; built on the first query for it,
  // then kept current by set_blocked and set_terrain), with the same database, and start
  // and goal are the unit's anchor cell (tile, octile) or top-left corner (any-angle). The
  // default, a one-cell unit (a point for any-angle) of the ground class, searches the map
  // itself. A view has no preparation of its own: it uses no landmarks (the map's are
  // distances of the one-cell unit), and Block A* follows the map's choice of jumps. A
  // size outside 0..unit::kMaxSize gives invalid_option.
  lddb::unit unit;
  search_options() = default;
  explicit search_options(heuristic_kind h) : heuristic(h) {}
};

// The heuristic a search with these options uses under rule r: options.heuristic, else
// default_heuristic(r).
heuristic_kind heuristic_for(const search_options& options, const rule& r);
// Does a search with these options smooth its path under rule r (search_options::smooth)?
bool smooths(const search_options& options, const rule& r);

// True when this CPU runs search_options::vector_kernels (x86-64 with AVX2); false, the
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
  // about 512 x 512, as reserve always did; on a 2048 x 2048 map a reserved context holds
  // about 1 MB (prepared for jump point search) or 11 MB (Block A*) plus what its largest
  // query touched, where writing it all took 192 MiB or 116 MB.
  static constexpr std::size_t kDefaultPrefaultBytes = std::size_t{16} << 20;
  std::size_t prefault_bytes = kDefaultPrefaultBytes;
  // Block A*'s own state also where the map's preparation has jump point search answer
  // Block A*'s queries (lddb/prepare.hpp), for the queries that go without it
  // (search_options::jumps = false, use_prepared = false, another expected_rule) and the
  // sliced ones (block_astar_begin runs Block A* itself). Off, such a query grows the
  // context as on one that was not reserved; on, about 34 bytes a cell more (141 MiB at
  // 2048 x 2048) that default queries never touch.
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
  //  - open squares (any-angle by default, any rule with search_options::open_squares, so
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
  // search_options::record_expanded records into a vector of its own. Where the map's
  // preparation (lddb/prepare.hpp) has Block A* answer by jump point search, it sizes that
  // search's records as reserve(rule, map) does: prepare first, then reserve. Throws
  // std::invalid_argument when the map's block size is not the database's.
  // Which of these it sizes, and which pages it writes, is reserve_options' trade: by
  // default, where the map's preparation hands Block A*'s queries to jump point search, it
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
  friend struct detail::context_access;  // the searches' state (runtime/src/context.hpp)
  struct impl;
  std::unique_ptr<impl> impl_;
};

// Block A* (Yap et al. 2011, Algorithms 1 and 2) on the database's rule. The map's block
// size must equal the database's; start and goal are cells for tile/octile and vertices
// for any-angle.
search_result block_astar(const database& db, const grid_map& map, point start, point goal,
                          const search_options& options, search_context& ctx);

// The same, answering into `out`: its vectors and message keep their capacity, so with a
// warm context and a reused result a query allocates nothing (tests/alloc_test.cpp).
void block_astar(const database& db, const grid_map& map, point start, point goal, const search_options& options,
                 search_context& ctx, search_result& out);

// Does block_astar (the whole query, not sliced) hand this query to jump_point_search
// (search_options::jumps, or the map's preparation's choice)? Then its stats count jump
// points and record_expanded records cells. A query Block A* refuses for its database
// (another rule expected, another block size) it answers itself: false.
bool block_astar_answers_by_jumps(const database& db, const grid_map& map, const search_options& options);

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
// (jump_point_search_supports; the proofs are in runtime/src/jump_search.cpp and
// jump_any_angle.cpp); any other answers rule_mismatch.
// Any-angle: the search runs on the cells, between a free cell of the start's and one of
// the goal's, breaking octile ties towards the straight line, and its path is pulled tight
// around the obstacle corners it passes: a legal path, the shortest of the way round the
// obstacles it takes, which is not always the shortest way round (docs/benchmarks.md gives
// the lengths); always tight, smoothed or not, and with no landmarks (the map's are for
// vertices). A weight orders the cell search, so it bounds the cells' octile cost, not
// the any-angle length. Under squeeze=allowed on a map with double corners (grid_map::
// double_corner_count), which paths of cells never pass, Theta* answers instead, and Block
// A* keeps such queries.
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
