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

const char* const kSearchRulesHelp = R"(Algorithms: block-astar (the default; needs a database), astar (tile, octile),
  jps (jump point search: tile, octile with corners=forbidden and a diagonal between 1
  and 2, exclusive, and any-angle), theta and lazy-theta (any-angle). The rule comes from --lddb when given, else --rule,
  else octile (any-angle for theta and lazy-theta). Block A* opens --lddb, else the
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
  for (algorithm a : {algorithm::block_astar, algorithm::astar, algorithm::jps, algorithm::theta, algorithm::lazy_theta})
    if (text == algorithm_name(a)) return a;
  throw usage_error(option + ": unknown algorithm '" + text + "' (expected block-astar, astar, jps, theta or lazy-theta)");
}

heuristic_kind parse_heuristic(const std::string& text, const std::string& option) {
  for (heuristic_kind h :
       {heuristic_kind::zero, heuristic_kind::manhattan, heuristic_kind::octile, heuristic_kind::euclidean})
    if (text == heuristic_name(h)) return h;
  throw usage_error(option + ": unknown heuristic '" + text + "' (expected zero, manhattan, octile or euclidean)");
}

double parse_weight(const std::string& text, const std::string& option) {
  char* end = nullptr;
  const double w = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !(w >= 1 && w <= search_options::kMaxWeight))
    throw usage_error(option + ": '" + text + "' is not a weight: expected a number from 1 (optimal) to " +
                      format_fixed(search_options::kMaxWeight, 0) + ", e.g. 1.5");
  return w;
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
  const bool block = algo == algorithm::block_astar, fixed = block && movement.on_vertices() && open_squares == false;
  const bool squares = block && !movement.on_vertices() && open_squares == true;
  char weighted[48] = "";
  if (weight != 1) std::snprintf(weighted, sizeof weighted, ", weight %g", weight);
  std::string square_text = squares ? ", open squares" : "";
  if (block && square_levels && !fixed && (squares || movement.on_vertices()))
    square_text = ", open squares up to level " + std::to_string(*square_levels);
  return std::string(algorithm_name(algo)) + " (" + movement.name() + (fixed ? ", fixed blocks" : "") + square_text +
         weighted + (default_unit() ? "" : ", unit " + unit_text(movement, unit)) + ")";
}

bool search_setup::default_unit() const {
  return unit.movement == movement_class::ground() && unit_footprint(movement, unit) == 1;
}

std::string unit_text(const lddb::rule& r, const lddb::unit& u) {
  const std::string size = r.on_vertices() ? (u.size == 0 ? "0 (a point)" : std::to_string(u.size))
                                           : std::to_string(std::max(u.size, 1));
  return "size " + size + ", class " + u.movement.name();
}

void add_unit_options(CLI::App* cmd, std::optional<int>& size, std::optional<std::string>& movement) {
  cmd->add_option("--size", size,
                  "The unit's size: a K x K square of cells (tile, octile; anchored at its top-left cell) or a K x K "
                  "square whose top-left corner moves between vertices (any-angle); 0 to " +
                      std::to_string(unit::kMaxSize) + " (default: one cell, a point for any-angle)")
      ->check(whole_number(0, unit::kMaxSize));
  cmd->add_option("--class", movement,
                  "The unit's movement class: the terrain letters it may stand on, e.g. W (water) or .GSW (default: "
                  "ground, .GS)");
}

movement_class parse_movement_class(const std::string& text, const std::string& option) {
  if (text.empty())
    throw usage_error(option + ": empty: expected the terrain letters the unit may stand on, e.g. W or .GSW");
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u >= 0x7F)
      throw usage_error(option + ": '" + text + "' holds " + (u == 0x20 ? std::string("a space") : "a control or non-ASCII byte") +
                        ": expected terrain letters of the map files, e.g. W or .GSW");
  }
  return movement_class::of(text);
}

void add_square_levels_option(CLI::App* cmd, std::optional<int>& levels) {
  cmd->add_option("--square-levels", levels,
                  "Block A* with open squares: the largest, as L for 2^L x 2^L blocks (1 to 4; default 4 for tile "
                  "and octile, 2 for any-angle)")
      ->check(CLI::Range(1, search_diagnostics::kMaxSquareLevels));
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
  if (o.smooth && o.raw) throw usage_error("--smooth and --raw exclude each other");
  if (o.smooth) s.smooth = true;
  if (o.raw) s.smooth = false;
  if (o.fixed_blocks && o.open_squares) throw usage_error("--fixed-blocks and --open-squares exclude each other");
  if (o.fixed_blocks) s.open_squares = false;
  if (o.open_squares) s.open_squares = true;
  s.square_levels = o.square_levels;
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
  s.heuristic = o.heuristic ? parse_heuristic(*o.heuristic, "--heuristic") : default_heuristic(s.movement);
  if (!heuristic_admissible(s.heuristic, s.movement)) {
    std::string ok;
    for (heuristic_kind h : {heuristic_kind::zero, heuristic_kind::manhattan, heuristic_kind::octile, heuristic_kind::euclidean})
      if (heuristic_admissible(h, s.movement)) ok += std::string(ok.empty() ? "" : ", ") + heuristic_name(h);
    throw usage_error(std::string("--heuristic ") + heuristic_name(s.heuristic) + " overestimates costs under rule " +
                      s.movement.name() + " (not admissible: it would give longer paths, with --weight too); drop " +
                      "--heuristic for the rule's own (" + heuristic_name(default_heuristic(s.movement)) +
                      ") or use one of " + ok + "; --weight W searches faster with a bound");
  }
  if (o.weight) s.weight = parse_weight(*o.weight, "--weight");
  s.landmarks = o.landmarks;
  s.prepare = !o.no_prepare;
  s.jumps = !o.no_jumps;
  if (o.size) s.unit.size = *o.size;
  if (o.movement) s.unit.movement = parse_movement_class(*o.movement, "--class");
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
  search_options options(s.heuristic);
  options.smooth = s.smooth;
  options.landmarks = landmarks;
  options.diagnostics.record_expanded = record_expanded;
  options.diagnostics.open_squares = s.open_squares;
  options.diagnostics.square_levels = s.square_levels;
  options.weight = s.weight;
  options.unit = s.unit;
  if (!s.jumps) options.diagnostics.search = lddb::search_kind::block_astar;
  if (s.algo == algorithm::block_astar) options.expected_rule = s.movement;
  q.jumps = s.algo == algorithm::block_astar && find_path_search(*s.db, map, options) == search_kind::jump_point_search;
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  switch (s.algo) {
    case algorithm::block_astar:
      find_path(*s.db, map, start, goal, options, ctx, q.result);
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
}

query_run run_query_warm(const search_setup& s, const grid_map& map, point start, point goal, search_context& ctx,
                         const landmark_set* landmarks) {
  if (s.algo == algorithm::block_astar) ctx.reserve(*s.db, map);
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
  q.check = check_path(s.movement, map, s.unit, start, goal, q.path, steps);
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
