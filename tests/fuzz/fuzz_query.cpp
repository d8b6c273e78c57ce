// fuzz_query: whole Block A* queries on small maps built from the input, with the shipped
// databases lddb/{tile,octile,any-angle}-4.lddb, checked against independent answers.
//
// Input: byte 0 picks the rule (tile, octile, any-angle), the heuristic (the rule's
// default or zero), in bits 3..5 a search_options::weight, in bit 6 landmarks (three,
// built on the map before the first query and kept through the toggles, so that blocked
// cells leave them current and freed ones stale) and in bit 7 component_check off; bytes 1 and 2 the map's width and height (1..40); bytes 3..6 start and
// goal (cells, or vertices for any-angle); byte 7 the density (each obstacle bit taken
// from 1, 2 or 3 input bits ANDed), in bit 6 lddb::prepare (three landmarks, in slices or
// whole by bit 5, the plan's open squares; the options then name no landmarks, and after
// the toggles prepare_step runs for a budget the next byte chooses, or not at all) and in bit 7 open squares up to the largest level (a
// free 32 x 32 corner is a large square, search_options::square_levels); then the cells' obstacle bits, row by row (missing bits
// are free cells). What follows is read as cell toggles, (x, y) byte pairs, applied to the
// map before the same query is asked again on the same, warm, search context.
//
// Checks, for every query (any break traps):
//  * the independent path checker (lddb/checker.hpp) accepts every path Block A* returns,
//    from start to goal; its fixed-point cost agrees with the checked length;
//  * tile/octile: Block A*'s status equals A*'s, and its cost equals A*'s exactly, which
//    equals the least cost of a plain Dijkstra written here over the checker's own move
//    rule (lddb::checker::move_ok) in the same fixed-point units;
//  * any-angle: Block A* finds a path exactly when Theta* and Lazy Theta* do, which is
//    exactly when a breadth-first search written here over the 8-neighbour vertex graph
//    (lddb::checker::segment_ok, a state per side of a double corner) connects start and
//    goal; all three paths pass the checker;
//  * jump point search (tile, octile with corners forbidden): A*'s status and least cost,
//    and a path the checker accepts; any-angle: Theta*'s status and a path the checker
//    accepts; with the preparation (bit 6) Block A* itself hands such queries to it where
//    the map has few corners;
//  * statuses for blocked or off-map endpoints agree with A* / Theta*;
//  * the same query on a fresh context gives the identical path and cost (determinism and
//    no state leaking between queries), and the reverse query has the same cost (cells);
//  * with landmarks, given or prepared (current, being built or repaired, or stale: a
//    stale table must not be read), Block A*'s raw path costs what it costs without them
//    (tile and octile: A*'s and the Dijkstra's; A* and the Theta*s also use what was
//    prepared; smoothed any-angle paths may differ, as paths of one least cost may);
//  * with a unit (the input's last byte, bit 7: size 0..4, ground, water or both, some free
//    cells made water and toggles that change water), Block A*, A*, jump point search and
//    the Theta*s with search_options::unit answer exactly as without it on the unit's map
//    drawn here from its squares, and that map passes every check above; before and after
//    the toggles, so that the view kept current by set_blocked and set_terrain is checked;
//  * with a weight w > 1, every search (Block A*, A* or Theta* and Lazy Theta*) again: the
//    status it has at weight 1, a path the checker accepts, and a cost at most w x its cost
//    at weight 1 (and, for cells, w x the Dijkstra optimum).
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <queue>
#include <string>
#include <vector>

#include "../cell_dijkstra.hpp"
#include "fuzz_common.hpp"
#include "lddb/checker.hpp"
#include "lddb/format.hpp"
#include "lddb/grid.hpp"
#include "lddb/landmarks.hpp"
#include "lddb/prepare.hpp"
#include "lddb/search.hpp"
#include "lddb/find_path.hpp"

#ifndef LDDB_SOURCE_DIR
#error "LDDB_SOURCE_DIR must name the source folder (for the shipped databases in lddb/)"
#endif

namespace {

using fuzz::require;
using lddb::point;
using lddb::rule;

const lddb::database& shipped(int which) {
  static const std::array<std::shared_ptr<const lddb::database>, 3> dbs = [] {
    std::array<std::shared_ptr<const lddb::database>, 3> out;
    const char* names[3] = {"tile-4.lddb", "octile-4.lddb", "any-angle-4.lddb"};
    for (int i = 0; i < 3; ++i) {
      auto r = lddb::database::open(std::string(LDDB_SOURCE_DIR) + "/lddb/" + names[i]);
      if (!r) fuzz::fail("cannot open the shipped database: " + r.message);
      out[static_cast<std::size_t>(i)] = r.db;
    }
    return out;
  }();
  return *dbs[static_cast<std::size_t>(which)];
}

// search_options::weight as a fraction, so that the bound is checked in integers.
struct weight_choice {
  std::uint64_t num, den;
  double value() const { return static_cast<double>(num) / static_cast<double>(den); }
  bool one() const { return num == den; }
};
constexpr weight_choice kWeights[8] = {{1, 1}, {6, 5}, {3, 2}, {2, 1}, {4, 1}, {5, 4}, {3, 1}, {16, 1}};

bool within(lddb::cost_t cost, weight_choice w, lddb::cost_t base) {
  __extension__ using wide = unsigned __int128;
  return wide{cost} * w.den <= wide{base} * w.num;
}

std::string pt(point p) { return "(" + std::to_string(p.x) + "," + std::to_string(p.y) + ")"; }

std::string describe(const rule& r, const lddb::grid_map& m, point s, point g) {
  std::string out = r.name() + " " + std::to_string(m.width()) + "x" + std::to_string(m.height()) + " " + pt(s) + " -> " +
                    pt(g) + "\n";
  for (int y = 0; y < m.height(); ++y) {
    for (int x = 0; x < m.width(); ++x) out += m.blocked(x, y) ? '@' : '.';
    out += '\n';
  }
  return out;
}

// Least cost over cells by Dijkstra, moves and costs from the checker's rule alone.
lddb::cost_t dijkstra_cells(const rule& r, const lddb::grid_map& m, point s, point g) {
  return lddb_test::least_cell_cost(r, m.width(), m.height(), s, g, [&](point p, int dx, int dy) {
    return lddb::checker::move_ok(r, m, p, point{p.x + dx, p.y + dy});
  });
}

// Are vertices s and g joined by legal unit segments (the 8 neighbours of a vertex)?
bool bfs_vertices(const rule& r, const lddb::grid_map& m, point s, point g) {
  // States (vertex, the cell it is beside): a double corner has one per free side under
  // the default rule (lddb/checker_corners.hpp); the start and goal keep to their own cell.
  using lddb::checker::cell_beside;
  using lddb::checker::sides_matter;
  if (!lddb::checker::endpoint_ok(r, m, s) || !lddb::checker::endpoint_ok(r, m, g)) return false;
  const int w = m.width() + 1, h = m.height() + 1;
  auto side = [&](point v, point t) { return sides_matter(r, m, v) && cell_beside(m, v, t).y == v.y ? 1 : 0; };
  auto own = [&](point v) { return sides_matter(r, m, v) ? 1 : 0; };
  std::vector<char> seen(static_cast<std::size_t>(2 * w * h), 0);
  auto state = [&](point p, int sd) { return static_cast<std::size_t>(2 * (p.y * w + p.x) + sd); };
  std::vector<std::pair<point, int>> todo{{s, own(s)}};
  seen[state(s, own(s))] = 1;
  while (!todo.empty()) {
    const auto [p, sd] = todo.back();
    todo.pop_back();
    if (p == g && sd == own(g)) return true;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const point q{p.x + dx, p.y + dy};
        if ((dx == 0 && dy == 0) || q.x < 0 || q.y < 0 || q.x >= w || q.y >= h) continue;
        if (side(p, q) != sd || !lddb::checker::segment_ok(r, m, p, q)) continue;
        const std::size_t k = state(q, side(q, p));
        if (seen[k]) continue;
        seen[k] = 1;
        todo.push_back({q, side(q, p)});
      }
  }
  return false;
}

void check_path(const std::string& who, const rule& r, const lddb::grid_map& m, point s, point g,
                const lddb::search_result& res, const std::string& ctx) {
  const lddb::check_result c = lddb::check_path(r, m, s, g, res.path);
  require(c.valid, who + " returned a path the checker refuses: " + c.error + "\n" + ctx);
  require(std::abs(c.length - res.length) <= 1e-9 * std::max(1.0, c.length), who + ": reported length differs from the checked one\n" + ctx);
  const double cost = lddb::cost_to_double(res.cost);
  const double tol = r.on_vertices() ? 1e-3 * static_cast<double>(res.path.size() + 1) : 1e-6;
  require(std::abs(cost - c.length) <= tol * std::max(1.0, c.length),
          who + ": fixed-point cost " + std::to_string(cost) + " vs checked length " + std::to_string(c.length) + "\n" + ctx);
}

// A search run again at weight w against its answer at weight 1 (base).
template <class Search>
void check_weighted(const std::string& who, const rule& r, const lddb::grid_map& m, point s, point g,
                    lddb::search_options opt, weight_choice w, const lddb::search_result& base, Search search,
                    const std::string& ctx) {
  opt.weight = w.value();
  lddb::search_context fresh;
  const lddb::search_result res = search(opt, fresh);
  const std::string at = who + " at weight " + std::to_string(w.value());
  require(res.status == base.status, at + ": status " + lddb::search_status_name(res.status) + ", at weight 1 " +
                                         lddb::search_status_name(base.status) + "\n" + ctx);
  if (!res.found()) return;
  check_path(at, r, m, s, g, res, ctx);
  require(within(res.cost, w, base.cost), at + ": cost " + std::to_string(lddb::cost_to_double(res.cost)) +
                                              " over weight x " + std::to_string(lddb::cost_to_double(base.cost)) + "\n" + ctx);
}

// One query, every check. Returns Block A*'s result for the caller's further checks.
lddb::search_result check_query(int which, const lddb::grid_map& m, point s, point g, bool zero_h, weight_choice w,
                                const lddb::landmark_set* landmarks, bool prepared, bool components, bool large,
                                lddb::search_context& warm) {
  const lddb::database& db = shipped(which);
  const rule r = db.movement();
  const std::string ctx = describe(r, m, s, g) + (landmarks ? "with landmarks\n" : "") + (prepared ? "prepared\n" : "") +
                          (components ? "" : "no component check\n") + (large ? "large squares\n" : "");
  lddb::search_options opt(zero_h ? lddb::heuristic_kind::zero : lddb::default_heuristic(r));
  if (large) {
    opt.diagnostics.open_squares = true;
    opt.diagnostics.square_levels = lddb::search_diagnostics::kMaxSquareLevels;
  }
  opt.landmarks = landmarks;
  opt.diagnostics.component_check = components;
  lddb::search_options ref_opt(lddb::default_heuristic(r));
  ref_opt.diagnostics.component_check = components;
  const lddb::search_result ba = lddb::find_path(db, m, s, g, opt, warm);
  require(ba.status != lddb::search_status::rule_mismatch && ba.status != lddb::search_status::budget_exhausted &&
              ba.status != lddb::search_status::invalid_option,
          std::string("unexpected status ") + lddb::search_status_name(ba.status) + " " + ba.message + "\n" + ctx);
  if (ba.found()) check_path("Block A*", r, m, s, g, ba, ctx);
  if (landmarks || prepared) {  // a lower bound, current or set aside: the same least cost over Block A*'s graph
    // Raw paths: two any-angle paths of one least cost may smooth to different lengths.
    lddb::search_options with = opt, plain = opt;
    with.smooth = plain.smooth = false;
    with.diagnostics.search = lddb::search_kind::block_astar;  // Block A*'s own graph (any-angle by jumps has its own paths)
    plain.landmarks = nullptr;
    plain.diagnostics.use_prepared = false;
    if (prepared && !large) plain.diagnostics.open_squares = lddb::preparation_of(m, r)->plan.open_squares;
    lddb::search_context fresh;
    const lddb::search_result raw = lddb::find_path(db, m, s, g, with, fresh);
    const lddb::search_result without = lddb::find_path(db, m, s, g, plain, fresh);
    require(without.status == raw.status && raw.status == ba.status && without.cost == raw.cost,
            "Block A* with landmarks: raw cost " + std::to_string(lddb::cost_to_double(raw.cost)) + ", without " +
                std::to_string(lddb::cost_to_double(without.cost)) + "\n" + ctx);
  }
  if (!w.one())
    check_weighted("Block A*", r, m, s, g, opt, w, ba,
                   [&](const lddb::search_options& o, lddb::search_context& c) { return lddb::find_path(db, m, s, g, o, c); }, ctx);

  {  // a fresh context: the very same answer
    lddb::search_context fresh;
    const lddb::search_result again = lddb::find_path(db, m, s, g, opt, fresh);
    require(again.status == ba.status && again.cost == ba.cost && again.path == ba.path,
            "Block A* on a fresh context differs from the warm one\n" + ctx);
  }

  lddb::search_context ref_ctx;
  if (!r.on_vertices()) {
    const lddb::search_result as = lddb::astar(r, m, s, g, ref_opt, ref_ctx);
    require(as.status == ba.status, std::string("status: Block A* ") + lddb::search_status_name(ba.status) + ", A* " +
                                        lddb::search_status_name(as.status) + "\n" + ctx);
    if (!w.one())
      check_weighted("A*", r, m, s, g, ref_opt, w, as,
                     [&](const lddb::search_options& o, lddb::search_context& c) { return lddb::astar(r, m, s, g, o, c); }, ctx);
    if (lddb::jump_point_search_supports(r)) {  // the same status and least cost as A*
      const lddb::search_result js = lddb::jump_point_search(r, m, s, g, ref_opt, ref_ctx);
      require(js.status == as.status, std::string("status: jump point search ") + lddb::search_status_name(js.status) +
                                          ", A* " + lddb::search_status_name(as.status) + "\n" + ctx);
      if (js.found()) {
        check_path("jump point search", r, m, s, g, js, ctx);
        require(js.cost == as.cost, "cost: jump point search " + std::to_string(lddb::cost_to_double(js.cost)) +
                                        ", A* " + std::to_string(lddb::cost_to_double(as.cost)) + "\n" + ctx);
      }
    }
    if (!ba.found()) return ba;
    check_path("A*", r, m, s, g, as, ctx);
    require(ba.cost == as.cost, "cost: Block A* " + std::to_string(lddb::cost_to_double(ba.cost)) + ", A* " +
                                    std::to_string(lddb::cost_to_double(as.cost)) + "\n" + ctx);
    const lddb::cost_t best = dijkstra_cells(r, m, s, g);
    require(best == as.cost, "A* cost " + std::to_string(lddb::cost_to_double(as.cost)) + ", Dijkstra " +
                                 std::to_string(lddb::cost_to_double(best)) + "\n" + ctx);
    return ba;
  }
  const lddb::search_result th = lddb::theta_star(r, m, s, g, ref_opt, ref_ctx);
  const lddb::search_result lz = lddb::lazy_theta_star(r, m, s, g, ref_opt, ref_ctx);
  require(th.status == ba.status && lz.status == ba.status,
          std::string("status: Block A* ") + lddb::search_status_name(ba.status) + ", Theta* " +
              lddb::search_status_name(th.status) + ", Lazy Theta* " + lddb::search_status_name(lz.status) + "\n" + ctx);
  if (ba.status == lddb::search_status::found || ba.status == lddb::search_status::no_path)
    require(ba.found() == bfs_vertices(r, m, s, g), "reachability differs from the vertex BFS\n" + ctx);
  {  // any-angle by jumps: the same reachability, a legal path
    const lddb::search_result js = lddb::jump_point_search(r, m, s, g, ref_opt, ref_ctx);
    require(js.status == th.status, std::string("status: jump point search ") + lddb::search_status_name(js.status) +
                                        ", Theta* " + lddb::search_status_name(th.status) + "\n" + ctx);
    if (js.found()) check_path("jump point search", r, m, s, g, js, ctx);
  }
  if (ba.found()) {
    check_path("Theta*", r, m, s, g, th, ctx);
    check_path("Lazy Theta*", r, m, s, g, lz, ctx);
    if (!w.one()) {
      check_weighted("Theta*", r, m, s, g, ref_opt, w, th,
                     [&](const lddb::search_options& o, lddb::search_context& c) { return lddb::theta_star(r, m, s, g, o, c); }, ctx);
      check_weighted("Lazy Theta*", r, m, s, g, ref_opt, w, lz,
                     [&](const lddb::search_options& o, lddb::search_context& c) { return lddb::lazy_theta_star(r, m, s, g, o, c); },
                     ctx);
    }
    // Nothing is shorter than the straight line.
    const double straight = std::hypot(double(g.x - s.x), double(g.y - s.y));
    require(ba.length >= straight - 1e-9, "Block A* path shorter than the straight line\n" + ctx);
  }
  return ba;
}

// A unit (search_options::unit) chosen by the input's last byte, when its bit 7 is set:
// size 0..4 by bits 0..2, the class by bits 3..4, and the map's free cells of a pattern
// the byte picks made water ('W').
struct unit_choice {
  bool active = false;
  lddb::unit unit;
};
unit_choice unit_of(const std::uint8_t* data, std::size_t size) {
  unit_choice c;
  if (size < 9 || !(data[size - 1] & 0x80u)) return c;
  const std::uint8_t u = data[size - 1];
  const lddb::movement_class classes[3] = {lddb::movement_class::ground(), lddb::movement_class::of("W"),
                                           lddb::movement_class::of(".GSW")};
  c.active = true;
  c.unit = lddb::unit{u % 5, classes[((u >> 3) & 3u) % 3]};
  return c;
}

// The map a unit sees, drawn here cell by cell from the unit's squares and the cells'
// types, never from grid_map::view: cell (x, y) blocked when a cell of the footprint x
// footprint square from it is off the map or of a type outside the class.
lddb::grid_map unit_map(const rule& r, const lddb::grid_map& m, const lddb::unit& u) {
  const int f = lddb::unit_footprint(r, u);
  const auto closed = [&](int x, int y) {
    for (int dy = 0; dy < f; ++dy)
      for (int dx = 0; dx < f; ++dx)
        if (!m.in_bounds(x + dx, y + dy) || !u.movement.contains(m.terrain_at(x + dx, y + dy))) return true;
    return false;
  };
  lddb::grid_map direct(m.width(), m.height(), m.block());
  for (int y = 0; y < m.height(); ++y)
    for (int x = 0; x < m.width(); ++x)
      if (closed(x, y)) direct.set_blocked(x, y, true);
  return direct;
}

// The searches with the unit on the map answer as the same searches without it on the
// unit's map drawn apart, which check_query holds to every oracle.
void check_unit(int which, const lddb::grid_map& m, const lddb::unit& u, point s, point g, lddb::search_context& warm) {
  const lddb::database& db = shipped(which);
  const rule r = db.movement();
  const lddb::grid_map direct = unit_map(r, m, u);
  check_query(which, direct, s, g, false, kWeights[0], nullptr, false, true, false, warm);
  lddb::search_options with, without;
  with.unit = u;
  with.diagnostics.use_prepared = without.diagnostics.use_prepared = false;
  const std::string ctx = "unit of size " + std::to_string(u.size) + ", class " + u.movement.name() + "\n" +
                          describe(r, direct, s, g);
  const auto same = [&](const char* who, const lddb::search_result& a, const lddb::search_result& b) {
    require(a.status == b.status && a.cost == b.cost && a.path == b.path,
            std::string(who) + " with the unit: " + lddb::search_status_name(a.status) + " " + a.message +
                ", on the unit's map: " + lddb::search_status_name(b.status) + "\n" + ctx);
  };
  same("Block A*", lddb::find_path(db, m, s, g, with, warm), lddb::find_path(db, direct, s, g, without, warm));
  if (!r.on_vertices()) {
    same("A*", lddb::astar(r, m, s, g, with, warm), lddb::astar(r, direct, s, g, without, warm));
    if (lddb::jump_point_search_supports(r))
      same("jump point search", lddb::jump_point_search(r, m, s, g, with, warm),
           lddb::jump_point_search(r, direct, s, g, without, warm));
  } else {
    same("Theta*", lddb::theta_star(r, m, s, g, with, warm), lddb::theta_star(r, direct, s, g, without, warm));
    same("jump point search", lddb::jump_point_search(r, m, s, g, with, warm),
         lddb::jump_point_search(r, direct, s, g, without, warm));
    same("Lazy Theta*", lddb::lazy_theta_star(r, m, s, g, with, warm), lddb::lazy_theta_star(r, direct, s, g, without, warm));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::reader in(data, size);
  const std::uint8_t b0 = in.byte();
  const int which = b0 % 3;
  const bool zero_h = (b0 >> 2) & 1u;
  const weight_choice weight = kWeights[(b0 >> 3) & 7u];
  const int w = 1 + in.byte() % 40, h = 1 + in.byte() % 40;
  const int ex = which == 2 ? 1 : 0;  // vertices run one further
  // Endpoints may also fall just off the map (the searches must refuse them alike).
  auto coord = [&](int side) { return static_cast<int>(in.byte() % static_cast<unsigned>(side + ex + 1)); };
  const point s{coord(w), coord(h)};
  const point g{coord(w), coord(h)};
  const std::uint8_t b7 = in.byte();
  const int density = 1 + b7 % 3;
  const bool large = (b7 >> 7) & 1u;
  lddb::grid_map m(w, h, 4);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      bool blocked = true;
      for (int k = 0; k < density; ++k) blocked = in.bit() && blocked;
      if (blocked) m.set_blocked(x, y, true);
    }
  const unit_choice unit = unit_of(data, size);
  if (unit.active) {  // some free cells made water, and the view built before the changes
    const std::uint8_t u = data[size - 1];
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        if (!m.blocked(x, y) && (x * 7 + y * 3 + u) % 5 == 0) m.set_terrain(x, y, 'W');
    (void)lddb::unit_view(shipped(which).movement(), m, unit.unit);
  }

  const bool use_landmarks = (b0 >> 6) & 1u, components = !((b0 >> 7) & 1u);
  std::optional<lddb::landmark_set> landmarks;
  if (use_landmarks && m.blocked_count() < static_cast<std::uint64_t>(w) * static_cast<std::uint64_t>(h))
    landmarks = lddb::landmark_set::build(shipped(which).movement(), m, 3);
  const lddb::landmark_set* lm = landmarks ? &*landmarks : nullptr;
  const bool prepared = (b7 >> 6) & 1u;
  if (prepared) {
    lddb::prepare_options po;
    po.mode = (b7 >> 5) & 1u ? lddb::prepare_mode::complete : lddb::prepare_mode::slices;
    po.landmarks = 3;
    lddb::prepare(shipped(which), m, po);
    lm = nullptr;  // the searches take the prepared ones
  }

  lddb::search_context warm;
  const lddb::search_result first = check_query(which, m, s, g, zero_h, weight, lm, prepared, components, large, warm);
  const lddb::search_result back = check_query(which, m, g, s, zero_h, weight, lm, prepared, components, large, warm);
  if (which != 2 && first.found()) require(back.found() && back.cost == first.cost, "reverse query costs differ (cells)");

  if (unit.active) check_unit(which, m, unit.unit, s, g, warm);

  // Toggle some cells and ask again on the warm context. With a unit, a toggle's x byte
  // above 191 makes the cell water (or ground, when it is water) instead.
  bool changed = false;
  for (int t = 0; t < 8 && in.remaining() >= 2; ++t) {
    const std::uint8_t xb = in.byte();
    const int x = xb % w, y = in.byte() % h;
    if (unit.active && xb > 191) m.set_terrain(x, y, m.terrain_at(x, y) == 'W' ? '.' : 'W');
    else m.set_blocked(x, y, !m.blocked(x, y));
    changed = true;
  }
  if (prepared && in.remaining() >= 1) {  // a frame's upkeep, from none to all of it
    const std::uint8_t budget = in.byte();
    if (budget != 0) lddb::prepare_step(m, budget == 255 ? ~std::uint64_t{0} >> 1 : budget * std::uint64_t{8});
  }
  if (changed) check_query(which, m, s, g, zero_h, weight, lm, prepared, components, large, warm);
  if (changed && unit.active) check_unit(which, m, unit.unit, s, g, warm);
  return 0;
}
