// tools/cmd_solve.cpp: `lddb solve`: one query on a map, its path checked.
//
// Prints the waypoints, cost (the rule's) and length (Euclidean), expansions, heap operations, time (the median of
// kWarmRuns warm runs, cli_search.hpp) and status, then what the independent checker
// (lddb/checker.hpp) says of the path. Cost and length are the result's fields
// (search_result::cost and length) in both outputs: the JSON at full precision, the text
// with kDecimals decimals. Exit status 0 when a path
// was found and is valid, 1 when there is no path or the path is invalid.
#include <cstdio>

#include <nlohmann/json.hpp>

#include "cli_search.hpp"
#include "commands.hpp"

namespace lddb::cli {

namespace {

struct solve_args {
  std::string map;
  std::string from, to;
  std::optional<std::string> algo;
  setup_options setup;  // --rule, --lddb, the search options, the preparation's
  bool json = false;
};

const char* const kSolveFooter = R"(Examples:
  lddb solve --map ../shared/maps/dao/arena.map --from 1,11 --to 40,30
  lddb solve --map ../shared/maps/dao/arena.map --from 1,11 --to 40,30 --lddb lddb/any-angle-4.lddb --raw
  lddb solve --map ../shared/maps/dao/arena.map --from 1,11 --to 40,30 --algo theta --json
  lddb solve --map ../shared/maps/dao/arena.map --from 1,11 --to 40,30 --size 2
)";

// The text output's decimals for cost and length.
constexpr int kDecimals = 6;

int run_solve(const solve_args& a) {
  const algorithm algo = parse_algorithm(a.algo.value_or("find-path"), "--algo");
  const point from = parse_point(a.from, "--from"), to = parse_point(a.to, "--to");
  const search_setup s = make_setup(algo, a.setup);
  grid_map map = load_map_or_fail(a.map, block_size_for(s));
  const std::optional<preparation_report> prepared = prepare_map(s, map);
  if (std::string why = endpoint_problem(s.movement, map, from, s.unit()); !why.empty())
    throw usage_error("--from: " + why + " in " + a.map);
  if (std::string why = endpoint_problem(s.movement, map, to, s.unit()); !why.empty())
    throw usage_error("--to: " + why + " in " + a.map);

  search_context ctx;
  const query_run q = run_query_warm(s, map, from, to, ctx);
  const search_result& r = q.result;
  const double us = static_cast<double>(q.search_ns) / 1000.0;
  const char* points = s.movement.on_vertices() ? "vertices" : "cells";

  if (a.json) {
    nlohmann::json j;
    j["map"] = a.map;
    j["width"] = map.width();
    j["height"] = map.height();
    j["algorithm"] = algorithm_name(s.algo);
    j["rule"] = s.movement.name();
    j["points"] = points;
    j["database"] = s.db ? nlohmann::json(s.db_path) : nlohmann::json(nullptr);
    j["block"] = s.db ? nlohmann::json(s.db->info().block) : nlohmann::json(nullptr);
    j["heuristic"] = heuristic_name(s.heuristic());
    j["weight"] = s.options.weight;
    if (!s.default_unit()) j["unit"] = {{"size", s.unit().size}, {"class", s.unit().movement.name()}};
    if (prepared) {  // lddb::prepare, timed apart from the query
      j["landmarks"] = prepared->landmarks_built;
      j["landmark_placement"] = landmark_placement_name(s.placement);
      j["prepared_open_squares"] = prepared->plan.open_squares;
      j["prepare_ms"] = prepared->prepare_ms;
      j["prepare_bytes"] = prepared->bytes;
    }
    j["smoothed"] = s.smoothed();
    if (uses_database(s.algo) && s.movement.on_vertices())
      j["open_squares"] = s.options.diagnostics.open_squares.value_or(true);
    j["from"] = {from.x, from.y};
    j["to"] = {to.x, to.y};
    j["status"] = search_status_name(r.status);
    if (!r.message.empty()) j["message"] = r.message;
    nlohmann::json path = nlohmann::json::array();
    for (const point& p : q.path) path.push_back({p.x, p.y});
    j["path"] = path;
    // search_result::cost and length (lddb/search.hpp): the rule's cost of the path and its
    // Euclidean length.
    j["cost"] = r.found() ? nlohmann::json(cost_to_double(r.cost)) : nlohmann::json(nullptr);
    j["length"] = r.found() ? nlohmann::json(r.length) : nlohmann::json(nullptr);
    j["expanded"] = r.stats.expanded;
    j["searched"] = search_kind_name(r.searched);  // the search that answered: what `expanded` counts
    j["jump_point_search"] = q.jumps;
    j["generated"] = r.stats.generated;
    j["heap_ops"] = r.stats.heap_ops;
    j["los_checks"] = r.stats.los_checks;
    j["microseconds"] = us;  // the median of timed_runs warm runs
    j["timed_runs"] = q.timed_runs;
    j["valid"] = q.check.valid;
    if (r.found() && !q.check.valid) j["check_error"] = q.check.error;
    std::printf("%s\n", j.dump(2).c_str());
  } else {
    std::printf("map        %s (%dx%d)\n", a.map.c_str(), map.width(), map.height());
    const bool fixed =
        uses_database(s.algo) && s.movement.on_vertices() && s.options.diagnostics.open_squares == false;
    std::printf("algorithm  %s, rule %s, heuristic %s%s%s", algorithm_name(s.algo), s.movement.name().c_str(),
                heuristic_name(s.heuristic()), s.smoothed() ? ", smoothed" : "", fixed ? ", fixed blocks" : "");
    if (s.options.weight != 1) std::printf(", weight %g", s.options.weight);
    std::printf("\n");
    if (!s.default_unit()) std::printf("unit       %s\n", unit_text(s.movement, s.unit()).c_str());
    if (s.db) std::printf("database   %s (b=%d)\n", s.db_path.c_str(), s.db->info().block);
    if (prepared) std::printf("prepared   %s\n", prepared->text().c_str());
    std::printf("query      %s %s -> %s\n", points, point_text(from).c_str(), point_text(to).c_str());
    std::printf("status     %s%s%s\n", search_status_name(r.status), r.message.empty() ? "" : ": ", r.message.c_str());
    if (r.found()) {
      std::printf("cost       %s (the rule's)\n", format_fixed(cost_to_double(r.cost), kDecimals).c_str());
      std::printf("length     %s (Euclidean, of the waypoints)\n", format_fixed(r.length, kDecimals).c_str());
      std::printf("waypoints  %zu: %s\n", q.path.size(), points_text(q.path).c_str());
    }
    std::printf("expanded   %llu %s\n", static_cast<unsigned long long>(r.stats.expanded),
                q.jumps || s.algo == algorithm::jps ? "jump points" : uses_database(s.algo) ? "nodes" : points);
    std::printf("heap ops   %llu\n", static_cast<unsigned long long>(r.stats.heap_ops));
    std::printf("time       %s%s\n", time_text(q).c_str(), s.smoothed() ? " (smoothing included)" : "");
    if (r.found())
      std::printf("check      %s\n", q.check.valid ? "valid" : ("INVALID: " + q.check.error).c_str());
  }
  std::fflush(stdout);
  if (!r.found()) {
    std::fprintf(stderr, "lddb solve: %s from %s to %s in %s\n", search_status_name(r.status), point_text(from).c_str(),
                 point_text(to).c_str(), a.map.c_str());
    return kExitFailure;
  }
  if (!q.check.valid) {
    std::fprintf(stderr, "lddb solve: the %s path is invalid: %s\n", algorithm_name(s.algo), q.check.error.c_str());
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace

void add_solve_command(CLI::App& app, command_action& chosen) {
  auto a = std::make_shared<solve_args>();
  auto* cmd = app.add_subcommand("solve", "Find one path on a map and check it");
  cmd->add_option("--map,-m", a->map, "Moving AI .map file")->required();
  cmd->add_option("--from", a->from, "Start X,Y (a cell; a corner for any-angle)")->required();
  cmd->add_option("--to", a->to, "Goal X,Y (a cell; a corner for any-angle)")->required();
  cmd->add_option("--rule,-r", a->setup.rule_text, "Movement rule (default: the database's, else octile)");
  cmd->add_option("--algo,-a", a->algo, "find-path (default), block-astar, astar, jps, theta or lazy-theta");
  cmd->add_option("--lddb", a->setup.lddb, "Database for find-path and block-astar (default: the shipped one for the rule)");
  add_prepare_options(cmd, a->setup);
  add_search_options(cmd, a->setup.search);
  cmd->add_flag("--json", a->json, "Print JSON instead of text");
  cmd->footer(std::string(kSearchRulesHelp) + kDatabaseSearchHelp + kSolveFooter);
  cmd->callback([a, &chosen] { chosen = [a] { return run_solve(*a); }; });
}

}  // namespace lddb::cli
