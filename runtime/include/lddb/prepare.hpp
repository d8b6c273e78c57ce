// lddb/prepare.hpp: one call after a map is loaded, and every search on it gets faster.
//
//   lddb::grid_map map = lddb::load_map("level.map");
//   lddb::prepare(db, map);                      // see the report (docs/benchmarks.md, "Preparation")
//   ... each frame: map.set_blocked(...) as doors open and close, then
//   lddb::prepare_step(map);                     // keeps the preparation current, in a slice
//   lddb::block_astar(db, map, start, goal, {}, ctx);  // uses what was prepared
//
// What pays depends on the map and the rule, so prepare chooses it by rules measured on
// every family of Moving AI maps (plan_preparation; docs/benchmarks.md, "Preparation"):
// landmarks (a differential heuristic, lddb/landmarks.hpp) where the map has walls that
// bend paths, for tile and octile the open squares of Block A* where the map's open
// ground is wide, and jump point search where obstacles are not scattered. It
// also builds the map's component labels for the rule (lddb::same_component), which the
// first query would otherwise build. The preparation lives in the map (a copy of the map starts without it,
// like the component labels) and every search on the map under that rule uses it unless
// search_diagnostics::use_prepared is false or the options name their own landmarks or open
// squares.
//
// Kept current. set_blocked stays O(1): blocking a cell leaves the landmark tables lower
// bounds (admissible, merely less tight), freeing one makes them possibly too long, so from
// then on every search goes without them (the rule's own heuristic, always safe) until
// prepare_step has caught up with the map's journal of freed cells: a cell the tables'
// map had free (a door shut after the build and opened again) costs nothing, one it had
// blocked a repair (microseconds to a few milliseconds at 512 x 512). No search ever reads
// a table that could overestimate. When many cells stay blocked since the tables were
// built (they would be loose) and the map holds still, prepare_step rebuilds them in
// slices while the searches go on with what is safe.
//
// Maps that change. Doors and buildings that come and go around the map the landmarks
// were built on cost them nothing, and the landmarks stay. Cells freed beyond it cost a
// repair each, and on a map where that happens often the upkeep (repairs, rebuilds, the
// slices of a build) costs more than the landmarks save (docs/decisions.md). So
// prepare_step watches how often the landmarks must pay: once kChangingSteps of its last
// kChangeWindow calls saw such frees (or one did while they were still being built), it
// sets the plan's landmarks aside (their tables freed, state set_aside; the searches go on
// with the rest of the preparation, which needs no upkeep), and once kQuietSteps calls in
// a row saw no change it plans again and builds them in slices. A wall opened now and then
// is still repaired (what it reroutes: "Landmark repair" in docs/benchmarks.md). After
// changes to kReplanShare of the map's cells since the plan (a region redrawn, a whole
// map switched) it plans again, the choice of jumps and open squares included. Landmarks
// asked for by count (prepare_options::landmarks), or with prepare_options::adapt_to_change
// false, are kept current whatever the map does.
//
// Threads. Like set_blocked, prepare and prepare_step change the map: call them on the
// thread that owns it, between searches; any number of searches may then run at once on
// other threads. A sliced Block A* query (block_astar_begin) may span prepare_step calls:
// it takes the prepared landmarks only when they are complete, and keeps the set it began
// with alive until it ends (the map itself must still not change under it). With prepare_mode::worker_thread the landmarks are built on a thread of
// their own from a copy of the map and published when done, with no lock on the searches'
// path; prepare_step then adopts them (and catches up with the cells freed meanwhile).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "lddb/grid.hpp"
#include "lddb/landmarks.hpp"
#include "lddb/rule.hpp"

namespace lddb {

class database;

// What pays on a map under a rule, by measured rules (see plan_preparation).
struct preparation_plan {
  int landmarks = 0;          // landmarks to build (0: none)
  bool narrow_landmarks = false;  // their tables in 16 bits (landmark_width::bits16): a large map
  bool tile_bounds = false;   // their tables as bounds per tile (landmark_width::tile_bounds)
  bool open_squares = false;  // Block A* with open squares (the search_diagnostics::open_squares default)
  bool jumps = false;         // find_path answers by jump point search (lddb/find_path.hpp)
  std::string why;            // the map's figures the choice read, for reports
};

// The measured rule. Landmarks: on every map with at least kMinLandmarkCells free cells
// (on smaller ones a query expands a few nodes and reading the tables costs more than it
// saves). Open squares for tile and octile: on maps of more than 1024 x 1024 cells, where
// large rooms pay; at 512 x 512 they paid on no family once landmarks were on
// (docs/benchmarks.md, "Preparation"). Any-angle searches open squares by default anyway.
// Then, once the first kFirstLandmarks landmarks are built, prepare keeps the planned ones
// only where landmark_gain is at least the rule's bar, and otherwise drops them (unless
// prepare_options::landmarks asked for a count). The tile bar is low: Manhattan is loose
// and an exact distance gains deep in a search even where it ties it at the start; only
// open ground, where no query gains, drops them. Octile's own heuristic is tighter, and on
// open maps the tables cost more reads than they save (the bars and the figures that set
// them: docs/decisions.md).
// Jumps: under a rule jump_point_search supports, on every map whose corner_share is below
// kMaxJumpCorners, and for tile and octile on every map small enough for jump tables
// (up to 1024 x 1024). Jump point search stops its row scans at the corners of obstacles:
// scanning the bits, it is fast where they are few (rooms, caves, corridors:
// docs/benchmarks.md, "Jump point search") and slower than Block A* where obstacles are
// scattered cells (random maps, and the maze of 1-wide corridors); reading the tables, a
// scan is one read wherever it stops, and it is faster there too. Any-angle by the corner
// share alone (on the cells, pulled tight, its paths are longer among scattered cells;
// docs/benchmarks.md, "Any-angle by jumps"), and under squeeze=allowed only with at most
// kMaxJumpDoubleCorners double corners a free cell: paths through many of them, priced by
// the cells' diagonal steps, come out longer (random512-25-1 drawn 4x: 5 in 1,000 free
// cells, +0.45% against Block A*'s +0.005% over the optimum; the Dragon Age maps have at
// most 1.5 in 1,000).
preparation_plan plan_preparation(const rule& r, const grid_map& map);
inline constexpr std::uint64_t kMinLandmarkCells = 2048;

// Memory. The landmark tables of a map take at most kLandmarkBytes: 32-bit entries where
// they fit (up to 1024 x 1024 with 8 landmarks), else 16-bit (landmark_width::bits16, a
// unit the map's distances fit), and fewer landmarks, halving from 8, where those still do
// not: 4 at 2048 x 2048 (docs/benchmarks.md, "Memory at 2048 × 2048"). size_landmarks applies
// it to a plan; a count given by prepare_options::landmarks keeps its count and takes the
// width that fits, 16 bits if none does. Octile takes tile bounds instead wherever fewer
// than 8 a cell fit (landmark_width::tile_bounds): 16 landmarks in 16 MiB at 2048 x 2048,
// half the 4 a cell's bytes, and 0.54-1.02x their query time on the maps of
// ../shared/maps drawn 4x past 1448 x 1448, 0.79-1.00x on the dynamic track's scenarios
// there (docs/benchmarks.md, "Landmark bounds per tile"). Not for tile, whose queries were
// slower with them (0.96-1.32x), nor where 8 a cell fit (512 x 512: 0.99-1.47x).
inline constexpr std::uint64_t kLandmarkBytes = std::uint64_t{32} << 20;
std::uint64_t landmark_table_bytes(const rule& r, const grid_map& map, int count, landmark_width width);
void size_landmarks(preparation_plan& plan, const rule& r, const grid_map& map, bool fewer);
// The plan's landmarks as tile bounds (kTileLandmarks, halved until they fit) or a cell
// (kCellLandmarks, sized as above); `count`, when given, instead, at the layout asked for.
// Tile bounds only for the cell rules.
inline constexpr int kCellLandmarks = 8;
inline constexpr int kTileLandmarks = 16;
void lay_out_landmarks(preparation_plan& plan, const rule& r, const grid_map& map, bool tiles, std::optional<int> count);
inline constexpr double kMaxJumpCorners = 0.2;
inline constexpr double kMaxJumpDoubleCorners = 0.002;

// Corners per free cell: the pairs of a free cell and a blocked diagonal neighbour whose two
// cells beside both cells are free, each one a place where a jump point search's scan
// stops (runtime/src/search/jumps/jump_scan.hpp). O(cells / 64).
double corner_share(const grid_map& map);

// The share of sampled queries (seeded pairs of free cells at least 8 apart by the rule's
// heuristic; for any-angle their top-left corners) whose landmark bound beats the rule's
// own heuristic by more than 5%: on open ground the straight line is already tight and the
// tables cost reads for nothing, in mazes and caves they bound nearly every query.
double landmark_gain(const rule& r, const grid_map& map, const landmark_set& set);

enum class prepare_mode : std::uint8_t {
  // prepare builds what the first query can use (the open-square choice, and the first
  // kFirstLandmarks landmarks) and leaves the rest to prepare_step, a slice at a time.
  slices,
  // prepare does everything before it returns.
  complete,
  // prepare returns at once; a thread of the preparation builds the landmarks from a copy
  // of the map and publishes them when done (searches use them from then on).
  worker_thread,
};
inline constexpr int kFirstLandmarks = 2;

struct prepare_options {
  prepare_mode mode = prepare_mode::slices;
  std::optional<int> landmarks;      // instead of the plan's count (0: none; at most landmark_set::kMaxLandmarks)
  std::optional<bool> open_squares;  // instead of the plan's choice
  std::optional<bool> jumps;         // instead of the plan's choice (true only where jump_point_search_supports the rule)
  // Landmark bounds per tile of 4 x 4 cells instead of per cell (landmark_width::
  // tile_bounds; cell rules only, std::invalid_argument under any-angle): kTileLandmarks of
  // them, or the count asked for, where the plan has landmarks. An eighth of a 16-bit
  // table's memory a landmark, looser a landmark. Unset: the plan's choice (octile where
  // fewer than kCellLandmarks fit a cell), and a cell when `landmarks` gives a count.
  std::optional<bool> tile_bounds;
  landmark_placement placement = landmark_placement::farthest;  // where the landmarks go
  // Rebuild the landmarks (in slices, by prepare_step) once this many cells were blocked
  // since they were built, less those freed again (landmark_set::cells_blocked_since), and
  // the map has held still for kSettledSteps calls: blocked cells leave them admissible but
  // loose, and a rebuild while blocks come and go would turn each lifted one into a repair.
  // 0: never.
  std::uint64_t rebuild_after_blocked = 1024;
  // Set the plan's landmarks aside while the map changes often (see "Maps that change"
  // above). False: keep them current whatever the map does.
  bool adapt_to_change = true;
};
inline constexpr int kChangeWindow = 64;  // prepare_step calls watched (at most 64)
inline constexpr std::uint64_t kQuietSteps = 1024;  // calls in a row without a change: it holds still
inline constexpr std::uint64_t kSettledSteps = 64;  // the same, before a rebuild after blocked cells

enum class preparation_state : std::uint8_t {
  ready,     // everything planned is built and current
  building,  // landmarks still to build: searches use the landmarks done so far
  stale,     // cells were freed since: searches go without landmarks until prepare_step repairs them
  set_aside, // the map changes often: the plan's landmarks are set aside until it holds still
};
const char* preparation_state_name(preparation_state s);

struct preparation_report {
  rule movement;
  preparation_plan plan;
  preparation_state state = preparation_state::ready;
  int landmarks_built = 0;   // landmarks whose tables are complete
  double prepare_ms = 0;     // the prepare call itself (wall time on its thread)
  double total_ms = 0;       // prepare, prepare_step and the worker thread so far
  std::size_t bytes = 0;     // memory the preparation holds now (landmark tables and builders,
                             // and jump tables where it chose jump point search: 8 bytes a cell)
  std::string text() const;  // one line for logs: what, time, memory, state
};

// Prepares `map` for Block A* with `db` (its rule), or for the reference searches under
// rule `r`; a second call for the same rule replaces the first. Throws
// std::invalid_argument for an option out of range.
preparation_report prepare(const database& db, grid_map& map, const prepare_options& options = {});
preparation_report prepare(const rule& r, grid_map& map, const prepare_options& options = {});

// Runs the pending work of every preparation of the map, at most about `work` points
// settled (a point's cost: docs/benchmarks.md, "Landmark repair"): landmarks still to
// build, repairs after set_blocked freed cells, rebuilds. True when nothing is pending
// (every preparation ready). On any map, prepared or not, it also rebuilds component
// labels that a search found no path on while changes had left them coarse (grid_map::
// same_component), so that later queries to that goal are answered at once.
inline constexpr std::uint64_t kDefaultStepWork = 1u << 15;
bool prepare_step(grid_map& map, std::uint64_t work = kDefaultStepWork);

// The landmarks the map's searches under rule r read now: the preparation's, while they are
// current (complete, or those done so far while building); null otherwise. Valid until the
// next prepare, prepare_step or unprepare of the map.
const landmark_set* prepared_landmarks(const grid_map& map, const rule& r);

// The preparation for rule r, if the map has one.
std::optional<preparation_report> preparation_of(const grid_map& map, const rule& r);

// Drops every preparation of the map (and stops its worker threads).
void unprepare(grid_map& map);

}  // namespace lddb
