// tools/cmd_render.cpp: `lddb render`: a map, and the searches of one query, as SVG.
//
// Free and blocked cells (blocked runs merged into rectangles, so a 512x512 map stays
// small), block boundaries when Block A* is drawn, what each search expanded (nodes for
// Block A*, cells or vertices for the others) shaded in its colour, each path as a
// polyline (through cell centres for tile and octile, through corners for any-angle),
// start and goal markers and a legend. With --size or --class, the cells closed to the
// class are drawn dark, and each path shows the unit's square at its points and runs
// through the square's centre. Written atomically.
#include <cstdio>
#include <filesystem>

#include "cli_search.hpp"
#include "commands.hpp"

namespace lddb::cli {

namespace {

struct render_args {
  std::string map;
  std::optional<std::string> from, to;
  setup_options setup;  // --rule, --lddb, the search options, the preparation's
  std::vector<std::string> algos;
  std::string out;
};

const char* const kRenderFooter = R"(--algo may repeat, each NAME or NAME:RULE (e.g. block-astar:any-angle); the rule after
the ':' overrides --rule for that one; --lddb serves the find-path and block-astar entries.
Examples:
  lddb render --map ../shared/maps/dao/arena.map --out arena.svg
  lddb render --map ../shared/maps/dao/arena.map --from 1,11 --to 40,30 --algo block-astar:any-angle \
      --algo theta --algo astar --out arena-paths.svg
)";

// The legend names the paths' smoothing when it is not the rule's default.
std::string smoothing_note(const search_setup& s) {
  if (s.smoothed() == s.movement.on_vertices()) return "";
  return s.smoothed() ? ", smoothed" : ", raw";
}

int run_render(const render_args& a) {
  if (a.from.has_value() != a.to.has_value()) throw usage_error(a.from ? "--from needs --to" : "--to needs --from");
  check_output_path("--out", a.out);  // now, not after the searches have run
  // Each --algo is NAME or NAME:RULE (block-astar:any-angle, astar:tile); the rule after the
  // first ':' overrides --rule for that algorithm. --lddb serves the find-path and block-astar entries
  // whose rule it holds; an entry of either with another rule uses the shipped database.
  std::shared_ptr<const database> given_db = a.setup.lddb ? open_database(*a.setup.lddb) : nullptr;
  std::vector<search_setup> setups;
  std::vector<std::string> specs = a.algos;
  if (specs.empty() && a.from) specs.push_back("find-path");
  for (const std::string& spec : specs) {
    const std::size_t colon = spec.find(':');
    const algorithm algo = parse_algorithm(spec.substr(0, colon), "--algo");
    setup_options o = a.setup;
    o.lddb.reset();
    if (colon != std::string::npos) {
      std::string why;
      const std::optional<rule> own = rule::parse(spec.substr(colon + 1), &why);
      if (!own) throw usage_error("--algo " + spec + ": " + why);
      o.rule_text = own->name();
    }
    // The reference searches take the rule of --lddb when it is theirs (and no --rule or
    // NAME:RULE says otherwise), so that they are drawn under the database's rule.
    if (!uses_database(algo) && given_db && !o.rule_text &&
        given_db->movement().on_vertices() == (algo == algorithm::theta || algo == algorithm::lazy_theta))
      o.rule_text = given_db->movement().name();
    if (uses_database(algo) && given_db) {
      const bool fits = colon == std::string::npos || *rule::parse(*o.rule_text) == given_db->movement();
      if (fits) o.lddb = a.setup.lddb;
    }
    setups.push_back(make_setup(algo, o));
  }
  std::optional<point> from, to;
  if (a.from) {
    from = parse_point(*a.from, "--from");
    to = parse_point(*a.to, "--to");
  }
  // Each search gets the map with its database's block size; the block lines drawn are
  // those of the first Block A*.
  const int first_block = [&] {
    for (const search_setup& s : setups)
      if (s.db) return s.db->info().block;
    return 4;
  }();
  const grid_map map = load_map_or_fail(a.map, first_block);

  svg_picture pic;
  pic.map = &map;
  pic.title = std::filesystem::path(a.map).filename().string() + " (" + std::to_string(map.width()) + "x" + std::to_string(map.height()) + ")";
  bool any_cells = false;
  for (const search_setup& s : setups) {
    if (!s.movement.on_vertices()) any_cells = true;
    if (uses_database(s.algo) && !pic.block_lines) pic.block_lines = block_size_for(s);
  }
  pic.vertices = !setups.empty() && !any_cells;
  if (!setups.empty()) pic.terrain = setups.front().unit().movement;  // --class: the same for every search
  std::vector<query_run> runs;
  runs.reserve(setups.size());
  if (from) {
    pic.title += ": " + point_text(*from) + " to " + point_text(*to);
    for (const search_setup& s : setups) {
      if (std::string why = endpoint_problem(s.movement, map, *from, s.unit()); !why.empty())
        throw usage_error("--from: " + why + " in " + a.map);
      if (std::string why = endpoint_problem(s.movement, map, *to, s.unit()); !why.empty())
        throw usage_error("--to: " + why + " in " + a.map);
    }
    pic.start = from;
    pic.goal = to;
    search_context ctx;
    for (const search_setup& s : setups) {
      grid_map own = map;
      own.set_block_size(block_size_for(s));
      const std::optional<preparation_report> prepared = prepare_map(s, own);
      if (prepared) std::printf("%s: prepared %s\n", s.label().c_str(), prepared->text().c_str());
      // Timed warm without recording what it expands, then again recording it for the picture.
      const query_run timed = run_query_warm(s, own, *from, *to, ctx);
      runs.push_back(run_query(s, own, *from, *to, ctx, true));
      runs.back().search_ns = timed.search_ns;
      runs.back().timed_runs = timed.timed_runs;
    }
  }
  for (std::size_t k = 0; k < setups.size(); ++k)
    pic.searches.push_back(svg_search{setups[k].label() + smoothing_note(setups[k]), &setups[k],
                                      k < runs.size() ? &runs[k] : nullptr});

  write_file_atomically(a.out, render_svg(pic));
  std::printf("wrote %s\n", a.out.c_str());
  int bad = 0;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const query_run& r = runs[k];
    const std::string what = setups[k].label();
    if (!r.result.found()) {
      std::printf("%s: %s %s\n", what.c_str(), search_status_name(r.result.status), r.result.message.c_str());
      ++bad;
    } else {
      std::printf("%s: length %s, expanded %llu, %s, %s\n", what.c_str(), format_length(r.length).c_str(),
                  static_cast<unsigned long long>(r.result.stats.expanded), time_text(r).c_str(),
                  r.check.valid ? "valid" : ("INVALID: " + r.check.error).c_str());
      if (!r.check.valid) ++bad;
    }
  }
  std::fflush(stdout);
  if (bad) {
    std::fprintf(stderr, "lddb render: %d search%s found no valid path (drawn anyway)\n", bad, bad == 1 ? "" : "es");
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace

void add_render_command(CLI::App& app, command_action& chosen) {
  auto a = std::make_shared<render_args>();
  auto* cmd = app.add_subcommand("render", "Draw a map and the searches of one query as SVG");
  cmd->add_option("--map,-m", a->map, "Moving AI .map file")->required();
  cmd->add_option("--from", a->from, "Start X,Y");
  cmd->add_option("--to", a->to, "Goal X,Y");
  cmd->add_option("--algo,-a", a->algos, "Algorithm to draw (repeatable): NAME or NAME:RULE");
  cmd->add_option("--rule,-r", a->setup.rule_text, "Movement rule for every algorithm without its own");
  cmd->add_option("--lddb", a->setup.lddb, "Database for find-path and block-astar");
  add_prepare_options(cmd, a->setup);
  add_search_options(cmd, a->setup.search);
  cmd->add_option("--out,-o", a->out, "Output .svg file (written atomically)")->required();
  cmd->footer(std::string(kSearchRulesHelp) + kDatabaseSearchHelp + kRenderFooter);
  cmd->callback([a, &chosen] { chosen = [a] { return run_render(*a); }; });
}

}  // namespace lddb::cli
