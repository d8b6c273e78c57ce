// tools/cli_search.cpp: set-up, timed queries, checking and SVG for the search commands.
#include "cli_search.hpp"
#include "lddb/find_path.hpp"
#include "lddb/map_file.hpp"
#include "lddb/segments.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace lddb::cli {

const char* const kSearchRulesHelp = R"(Algorithms: find-path (the default; needs a database): Block A* or jump point
  search, as lddb::prepare chose for the map; block-astar (Block A* alone; needs a database), astar (tile, octile),
  jps (jump point search: tile, octile with corners=forbidden and a diagonal between 1
  and 2, exclusive, and any-angle), theta and lazy-theta (any-angle). The rule comes from --lddb when given, else --rule,
  else octile (any-angle for theta and lazy-theta). find-path and block-astar open --lddb, else the
  shipped database <rule>-4.lddb (where it is looked for: Databases, below).
Rules: tile; octile, with corners=forbidden (the default), one-side-free or allowed (a
diagonal needs both, one or neither side cell free) and diagonal=sqrt2 or a number in
[1, 2]; any-angle, with squeeze=forbidden or allowed. E.g. octile:corners=allowed.
Points are cells for tile and octile, corners (vertex X,Y = top-left corner of cell X,Y)
for any-angle. --weight W (1 to 16) searches by g + W h: fewer expansions, and a tile or
octile path costs at most W x the optimum.
)";

namespace fs = std::filesystem;

// ----------------------------------------------------------------------------- names

const char* algorithm_name(algorithm a) {
  switch (a) {
    case algorithm::find_path:
      return "find-path";
    case algorithm::block_astar:
      return "block-astar";
    case algorithm::astar:
      return "astar";
    case algorithm::jps:
      return "jps";
    case algorithm::theta:
      return "theta";
    case algorithm::lazy_theta:
      return "lazy-theta";
  }
  return "?";
}

algorithm parse_algorithm(const std::string& text, const std::string& option) {
  for (algorithm a : {algorithm::find_path, algorithm::block_astar, algorithm::astar, algorithm::jps, algorithm::theta,
                      algorithm::lazy_theta})
    if (text == algorithm_name(a)) return a;
  throw usage_error(option + ": unknown algorithm '" + text +
                    "' (expected find-path, block-astar, astar, jps, theta or lazy-theta)");
}

point parse_point(const std::string& text, const std::string& option) {
  auto bad = [&]() {
    return usage_error(option + ": '" + text + "' is not a point: expected X,Y with whole numbers, e.g. 12,40");
  };
  const std::size_t comma = text.find(',');
  if (comma == std::string::npos || text.find(',', comma + 1) != std::string::npos) throw bad();
  auto number = [&](std::string_view s) {
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    int v = 0;
    if (s.empty()) throw bad();
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec == std::errc::result_out_of_range) throw usage_error(option + ": '" + text + "' is far off any map");
    if (ec != std::errc{} || ptr != s.data() + s.size()) throw bad();
    return v;
  };
  const std::string_view all = text;
  return point{number(all.substr(0, comma)), number(all.substr(comma + 1))};
}

std::string points_text(const std::vector<point>& pts) {
  std::string s;
  for (std::size_t k = 0; k < pts.size(); ++k) s += (k ? " " : "") + point_text(pts[k]);
  return s;
}

std::string format_fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string format_length(double v) { return std::isfinite(v) ? format_fixed(v, 4) : "-"; }

// ----------------------------------------------------------------------------- set-up

std::string default_data_dir() { return find_data_dir().path; }

std::string search_setup::label() const {
  // Named when not the rule's default.
  const std::optional<bool> open_squares = options.diagnostics.open_squares;
  const std::optional<int> square_levels = options.diagnostics.square_levels;
  const double weight = options.weight;
  const bool block = uses_database(algo), fixed = block && movement.on_vertices() && open_squares == false;
  const bool squares = block && !movement.on_vertices() && open_squares == true;
  char weighted[48] = "";
  if (weight != 1) std::snprintf(weighted, sizeof weighted, ", weight %g", weight);
  std::string square_text = squares ? ", open squares" : "";
  if (block && square_levels && !fixed && (squares || movement.on_vertices()))
    square_text = ", open squares up to level " + std::to_string(*square_levels);
  return std::string(algorithm_name(algo)) + " (" + movement.name() + (fixed ? ", fixed blocks" : "") + square_text +
         weighted + (default_unit() ? "" : ", unit " + unit_text(movement, options.unit)) + ")";
}

bool search_setup::default_unit() const {
  return options.unit.movement == movement_class::ground() && unit_footprint(movement, options.unit) == 1;
}

std::string unit_text(const lddb::rule& r, const lddb::unit& u) {
  const std::string size = r.on_vertices() ? (u.size == 0 ? "0 (a point)" : std::to_string(u.size))
                                           : std::to_string(std::max(u.size, 1));
  return "size " + size + ", class " + u.movement.name();
}

std::shared_ptr<const database> open_database(const std::string& path) {
  const database::open_result opened = database::open(path);
  if (!opened) {
    std::string msg = opened.message;
    if (msg.rfind(path, 0) != 0) msg = path + ": " + msg;
    throw failure(msg);
  }
  return opened.db;
}

search_setup make_setup(algorithm algo, const setup_options& o) {
  search_setup s;
  s.algo = algo;
  std::optional<rule> asked;
  if (o.rule_text) {
    std::string why;
    asked = rule::parse(*o.rule_text, &why);
    if (!asked) throw usage_error("--rule: " + (why.empty() ? "unknown rule '" + *o.rule_text + "'" : why));
  }
  if (o.lddb) {
    s.db = open_database(*o.lddb);
    s.db_path = *o.lddb;
    s.movement = s.db->movement();
    if (asked && !(*asked == s.movement))
      throw usage_error("rule mismatch: --rule " + asked->name() + " but the database " + *o.lddb + " holds " +
                        s.movement.name() + " (drop --rule or give a database built for it)");
  } else if (asked) {
    s.movement = *asked;
  } else {
    s.movement = (algo == algorithm::theta || algo == algorithm::lazy_theta) ? rule::any_angle() : rule::octile();
  }
  switch (algo) {
    case algorithm::find_path:
    case algorithm::block_astar:
      if (!s.db) {
        s.db_path = (fs::path(default_data_dir()) / database_file_name(s.movement, 4)).string();
        std::error_code ec;
        if (!fs::exists(s.db_path, ec))
          throw failure("no database for rule " + s.movement.name() + ": " + s.db_path +
                        " is missing (generate it with `lddb gen --rule " + s.movement.name() + " --block 4 --out " +
                        s.db_path + "`, or give --lddb FILE)");
        s.db = open_database(s.db_path);
        if (!(s.db->movement() == s.movement))
          throw failure("rule mismatch: " + s.db_path + " holds " + s.db->movement().name() + ", not " +
                        s.movement.name());
      }
      break;
    case algorithm::astar:
      if (s.movement.on_vertices())
        throw usage_error("rule mismatch: --algo astar searches cells (tile, octile), not " + s.movement.name() +
                          "; use --algo theta, lazy-theta or block-astar");
      break;
    case algorithm::jps:
      if (!jump_point_search_supports(s.movement))
        throw usage_error("rule mismatch: --algo jps searches tile, octile with corners=forbidden and a diagonal "
                          "cost strictly between 1 and 2, and any-angle, not " + s.movement.name() +
                          "; use --algo astar or block-astar");
      break;
    case algorithm::theta:
    case algorithm::lazy_theta:
      if (!s.movement.on_vertices())
        throw usage_error(std::string("rule mismatch: --algo ") + algorithm_name(algo) +
                          " searches any-angle paths between corners, not " + s.movement.name() +
                          "; use --algo astar or block-astar");
      break;
  }
  s.options = read_search_options(o.search, s.movement);
  if (uses_database(algo)) s.options.expected_rule = s.movement;
  s.landmarks = o.landmarks;
  s.tile_bounds = o.tile_bounds;
  if (s.tile_bounds && s.movement.on_vertices())
    throw usage_error("--landmark-tiles: landmark bounds per tile are for tile and octile, not " + s.movement.name());
  s.prepare = !o.no_prepare;
  if (o.placement) {
    const std::optional<landmark_placement> p = parse_landmark_placement(*o.placement);
    if (!p) throw usage_error("--landmark-placement: '" + *o.placement + "' is not a placement: expected farthest or random");
    s.placement = *p;
  }
  return s;
}

int block_size_for(const search_setup& s) { return s.db ? s.db->info().block : 4; }

grid_map load_map_or_fail(const std::string& path, int block) {
  std::string error;
  std::optional<grid_map> g = load_map(path, &error, block);
  if (!g) throw failure(error);
  return std::move(*g);
}

std::string endpoint_problem(const rule& r, const grid_map& map, point p, const lddb::unit& u) {
  const std::string size = std::to_string(map.width()) + "x" + std::to_string(map.height());
  const grid_map& view = unit_view(r, map, u);
  // The unit's view blocks a cell where the unit's square (from it) does not fit.
  const std::string unit_note = &view == &map ? "" : " for a unit of " + unit_text(r, u);
  if (r.on_vertices()) {
    if (p.x < 0 || p.y < 0 || p.x > map.width() || p.y > map.height())
      return "vertex " + point_text(p) + " is off the " + size + " map (corners run 0.." + std::to_string(map.width()) +
             ", 0.." + std::to_string(map.height()) + ")";
    if (!vertex_usable(view, p.x, p.y))
      return "vertex " + point_text(p) + (unit_note.empty() ? " is surrounded by blocked cells"
                                                            : " is no place" + unit_note +
                                                                  " (its square does not fit there with room beside it)");
    return "";
  }
  if (!map.in_bounds(p.x, p.y)) return "cell " + point_text(p) + " is off the " + size + " map";
  if (view.blocked(p.x, p.y))
    return "cell " + point_text(p) + (unit_note.empty() ? " is blocked"
                                                        : " is no place" + unit_note + " (its " + std::to_string(unit_footprint(r, u)) +
                                                              "x" + std::to_string(unit_footprint(r, u)) +
                                                              " square of cells from there holds a cell closed to it or off the map)");
  return "";
}

bool unit_cannot_stand(const rule& r, const grid_map& map, point p, const lddb::unit& u) {
  // The scenario's cell under the cell rules' view of the unit's size (any-angle size 0 and 1
  // both fill one cell), then the vertex as the search takes it.
  const lddb::unit cells{std::max(u.size, 1), u.movement};
  if (unit_view(rule::octile(), map, cells).blocked(p.x, p.y)) return true;
  return r.on_vertices() && !endpoint_problem(r, map, p, u).empty();
}

// ----------------------------------------------------------------------------- one query

query_run run_query(const search_setup& s, const grid_map& map, point start, point goal, search_context& ctx,
                    bool record_expanded, const landmark_set* landmarks) {
  query_run q;
  run_search(s, map, start, goal, ctx, q, record_expanded, landmarks);
  finish_query(s, map, start, goal, q);
  return q;
}

void run_search(const search_setup& s, const grid_map& map, point start, point goal, search_context& ctx,
                query_run& q, bool record_expanded, const landmark_set* landmarks) {
  search_options options = s.options;
  if (landmarks) options.landmarks = landmarks;
  options.diagnostics.record_expanded = record_expanded;
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  switch (s.algo) {
    case algorithm::find_path:
      find_path(*s.db, map, start, goal, options, ctx, q.result);
      break;
    case algorithm::block_astar:
      block_astar(*s.db, map, start, goal, options, ctx, q.result);
      break;
    case algorithm::astar:
      astar(s.movement, map, start, goal, options, ctx, q.result);
      break;
    case algorithm::jps:
      jump_point_search(s.movement, map, start, goal, options, ctx, q.result);
      break;
    case algorithm::theta:
      theta_star(s.movement, map, start, goal, options, ctx, q.result);
      break;
    case algorithm::lazy_theta:
      lazy_theta_star(s.movement, map, start, goal, options, ctx, q.result);
      break;
  }
  const auto t1 = clock::now();
  q.search_ns = static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count());
  q.state_bytes = ctx.memory_bytes();
  q.jumps = s.algo == algorithm::find_path && q.result.searched == search_kind::jump_point_search;
}

query_run run_query_warm(const search_setup& s, const grid_map& map, point start, point goal, search_context& ctx,
                         const landmark_set* landmarks) {
  if (uses_database(s.algo)) ctx.reserve(*s.db, map);
  else ctx.reserve(s.movement, map);
  query_run q;
  run_search(s, map, start, goal, ctx, q, false, landmarks);  // untimed: the context and caches warm
  std::array<std::uint64_t, kWarmRuns> ns{};
  for (std::uint64_t& t : ns) {
    run_search(s, map, start, goal, ctx, q, false, landmarks);
    t = q.search_ns;
  }
  std::nth_element(ns.begin(), ns.begin() + kWarmRuns / 2, ns.end());
  q.search_ns = ns[kWarmRuns / 2];
  q.timed_runs = kWarmRuns;
  finish_query(s, map, start, goal, q);
  return q;
}

std::string time_text(const query_run& q) {
  std::string t = format_fixed(static_cast<double>(q.search_ns) / 1000.0, 1) + " \u00b5s";
  if (q.timed_runs > 1) t += " (median of " + std::to_string(q.timed_runs) + " warm runs)";
  return t;
}

void finish_query(const search_setup& s, const grid_map& map, point start, point goal, query_run& q) {
  if (!q.result.found()) {
    q.path.clear();
    q.check = check_result{};
    q.check.valid = false;
    q.check.error = std::string("no path (") + search_status_name(q.result.status) + ")";
    q.length = NAN;
    return;
  }
  q.path = q.result.path;
  // Smoothed cell paths keep only their turning points: straight runs of unit moves.
  const cell_steps steps = s.smoothed() ? cell_steps::runs : cell_steps::unit;
  q.check = check_path(s.movement, map, s.options.unit, start, goal, q.path, steps);
  q.length = q.check.valid ? q.check.length : path_length(q.path);
}

// ----------------------------------------------------------------------------- files

void write_file_atomically(const std::string& path, const std::string& content) {
  atomic_output out("--out", path);
  out.write(content);
  out.commit();
}

// ----------------------------------------------------------------------------- SVG

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace lddb::cli
