// lddb/search_options.hpp: what a query asks of a search.
//
// search_options holds what a game sets: the heuristic, a weight, smoothing, a budget, the
// unit that moves, and optionally landmarks and the rule it expects. Its `diagnostics` part
// is for benchmarks and tests: forcing one search, switching off the vector kernels or the
// component check, ignoring the map's preparation, recording what was expanded. A game
// leaves it as it is.
#pragma once

#include <cstdint>
#include <optional>

#include "lddb/rule.hpp"
#include "lddb/unit.hpp"

namespace lddb {

class landmark_set;  // lddb/landmarks.hpp

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

// The searches of the library. find_path (lddb/find_path.hpp) runs Block A* or jump point
// search, as the map's preparation chose; each search is also callable by its own name
// (lddb/search.hpp) and then runs exactly that search. What search_stats count follows the
// search: Block A* expands blocks and open squares, jump point search jump points (for
// any-angle, on the cells, the path then pulled tight), A* cells, Theta* and Lazy Theta*
// vertices.
enum class search_kind : std::uint8_t { block_astar, jump_point_search, astar, theta_star, lazy_theta_star };
const char* search_kind_name(search_kind k);

// For benchmarks and tests: each field's default is what a game gets.
struct search_diagnostics {
  // find_path: run this search instead of the one the map's preparation chose. Block A*
  // needs the database's rule; the others run under the database's rule on the map.
  std::optional<search_kind> search;
  // Block A*: search each aligned 4 x 4, or else 2 x 2, group of free blocks as one open
  // square, a node whose boundary costs are closed form because every move inside it is
  // legal (straight lines for any-angle, b <= 4; Manhattan or octile distance for tile and
  // octile, b <= 4, and 2 x 2 for b = 5). A group holding the start or goal is no square.
  // False keeps the paper's fixed blocks; unset takes the map's preparation's choice, else
  // the rule's default, chosen by measurement (docs/benchmarks.md, "Open squares for the
  // cell rules"): on for any-angle, off for tile and octile.
  std::optional<bool> open_squares;
  // Block A* with open squares: the largest square, as a level L (2^L x 2^L blocks), from 1
  // to kMaxSquareLevels. Levels 3 and 4 (8 x 8 and 16 x 16 blocks, b <= 4) carry g-values
  // across by rows in time about linear in their perimeter; a rule or block size without
  // a level keeps the largest it has. Out of range: invalid_option. Unset takes the rule's
  // default (docs/benchmarks.md, "Large open squares"): 4 for tile and octile, 2 for
  // any-angle.
  static constexpr int kMaxSquareLevels = 4;
  std::optional<int> square_levels;
  // Block A*: run the min-plus rows with AVX2 where the CPU has it (any-angle, and the open
  // squares of every rule). The answers are the same either way; false measures the
  // portable code.
  bool vector_kernels = true;
  // Every search: when start and goal lie in different components of the map under the
  // rule (same_component), answer no_path at once, with no expansion, instead of
  // exhausting the start's component. The answer is the same either way; false measures
  // the searches without it. (A query capped by max_expansions whose goal is unreachable
  // thus ends no_path rather than budget_exhausted.)
  bool component_check = true;
  // Use what lddb::prepare made for the map under the query's rule (lddb/prepare.hpp): its
  // landmarks while they are current (unless search_options::landmarks names a set), its
  // open-square choice (unless open_squares is set) and its choice of search for
  // find_path (unless `search` is set). False searches as if the map were not prepared.
  bool use_prepared = true;
  // Record the blocks (Block A*), jump points' cells or cells (jump point search, A*) or
  // vertices (Theta*, Lazy Theta*) expanded, in search_result::expanded, for pictures.
  bool record_expanded = false;
};

struct search_options {
  // Unset (`search_options opt;`): the rule's own, default_heuristic of the query's rule
  // (the database's for Block A* and find_path). A heuristic that is not admissible for the
  // rule (heuristic_admissible) is refused with invalid_option, also with weight > 1: an
  // overestimate gives longer paths by an amount no bound limits, while the weight alone
  // trades length for speed with a stated bound. Ask for a weight to search faster.
  std::optional<heuristic_kind> heuristic;
  // Bounded-suboptimal (weighted) search: OPEN is ordered by g + weight * h, which expands
  // fewer nodes for longer paths; above 1 a node whose g is already within the bound is not
  // re-opened. 1 is the optimal search. With an admissible heuristic, a raw path found
  // costs at most weight times:
  //  - tile and octile (every search): the optimal cost;
  //  - any-angle Block A*: the least cost over its stored block costs, so at most weight
  //    times its own cost at weight 1 (its heuristic is scaled down by half a stored unit
  //    per unit of length when weight > 1, so that the rounded stored costs never fall
  //    below it);
  //  - jump point search under any-angle: the octile cost of its cells, not the length;
  //  - Theta* and Lazy Theta*: no proven bound (they are not optimal at weight 1 either);
  //    tests/weighted_test.cpp checks cost <= weight x the cost at weight 1 on generated maps.
  // `cost` is always the returned path's; a smoothed path is never longer than the raw one.
  // Taken in steps of 1/4096, rounded down. Must be finite and in [1, kMaxWeight]; any other
  // value gives invalid_option.
  double weight = 1.0;
  static constexpr double kMaxWeight = 16;
  // Smooth the path (smooth_path: any-angle paths also pulled tight) before returning it,
  // found or budget_exhausted. Unset takes the rule's default: on for any-angle (a raw
  // Block A* path has many waypoints a unit would zig-zag through; the search's own cost is
  // then replaced by the smoothed path's, see search_result::cost), off for tile and
  // octile, whose path then lists every cell (true keeps only the turning points; the cost
  // stays). Smoothing's line-of-sight tests count in stats.los_checks; a warm query smooths
  // without allocating. Sliced Block A* smooths when the query ends.
  std::optional<bool> smooth;
  // Stop with budget_exhausted after this many expansions (blocks and squares for Block
  // A*, jump points for jump point search, cells or vertices for the others); 0: no limit.
  std::uint64_t max_expansions = 0;
  // The unit that moves (lddb/unit.hpp): its size and movement class. Every search then
  // searches the map as that unit sees it (unit_view; built on the first query for it, or
  // by search_context::reserve, then kept current by set_blocked and set_terrain), with the
  // same database, and start and goal are the unit's anchor cell (tile, octile) or
  // top-left corner (any-angle). The default, a one-cell unit (a point for any-angle) of
  // the ground class, searches the map itself. A view has no preparation of its own: it
  // uses no landmarks (the map's are distances of the one-cell unit), and find_path
  // follows the map's choice of search. A size outside 0..unit::kMaxSize gives
  // invalid_option.
  lddb::unit unit;
  // Differential heuristic (lddb/landmarks.hpp): every search then orders OPEN by
  // max(heuristic, the landmarks' lower bound). The set must be for the query's rule
  // (else invalid_option). While it is not current_for the map (a cell was freed since it
  // was built, or it was built from another map) the search uses `heuristic` alone, which
  // is always safe. Tile and octile stay optimal; Block A*'s any-angle paths keep their
  // cost. The set must outlive the query; several threads may share one. Unset: the
  // landmarks the map's preparation made, if any.
  const landmark_set* landmarks = nullptr;
  // Block A* and find_path: refuse (rule_mismatch) unless the database holds exactly this
  // rule.
  std::optional<rule> expected_rule;
  search_diagnostics diagnostics;

  search_options() = default;
  explicit search_options(heuristic_kind h) : heuristic(h) {}
};

// The heuristic a search with these options uses under rule r: options.heuristic, else
// default_heuristic(r).
heuristic_kind heuristic_for(const search_options& options, const rule& r);
// Does a search with these options smooth its path under rule r (search_options::smooth)?
bool smooths(const search_options& options, const rule& r);

}  // namespace lddb
