// bench/suite_run.cpp: run_suite, the whole suite: the searches and the scenario maps checked
// first, then Table 1, Table 2 and the benchmark maps, then the chart and the document.
#include <unistd.h>

#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

#include "lddb/mapgen.hpp"
#include "suite.hpp"

namespace lddb::cli {

namespace {

namespace fs = std::filesystem;
using steady = std::chrono::steady_clock;

// The source tree: the parent of the shipped databases' folder.
fs::path source_dir() {
  const fs::path data(default_data_dir());
  return data.has_parent_path() ? data.parent_path() : fs::path(".");
}

// This process's command line, shell-quoted where needed, for the document.
std::string command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  const std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string out;
  std::size_t start = 0;
  while (start < raw.size()) {
    std::size_t end = raw.find('\0', start);
    if (end == std::string::npos) end = raw.size();
    const std::string arg = raw.substr(start, end - start);
    const bool plain = !arg.empty() && arg.find_first_not_of(
                                           "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                           "0123456789-_./,:=+%@") == std::string::npos;
    std::string quoted = "'";
    for (char c : arg) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += (out.empty() ? "" : " ") + (plain ? arg : quoted + "'");
    start = end + 1;
  }
  return out.empty() ? kSuiteCommand : out;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      const std::size_t colon = line.find(':');
      if (colon != std::string::npos) {
        std::string v = line.substr(colon + 1);
        while (!v.empty() && v.front() == ' ') v.erase(v.begin());
        return v;
      }
    }
  return "unknown CPU";
}

std::string load_average() {
  std::ifstream in("/proc/loadavg");
  std::string one;
  in >> one;
  return one.empty() ? "unknown" : one;
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", &tm);
  return buf;
}

std::string compiler() {
#if defined(__clang__)
  return std::string("clang++ ") + __clang_version__;
#elif defined(__GNUC__)
  return std::string("g++ ") + __VERSION__;
#else
  return "unknown compiler";
#endif
}

}  // namespace

void progress(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::fputs("suite: ", stderr);
  std::vfprintf(stderr, fmt, ap);
  std::fputc('\n', stderr);
  va_end(ap);
}

int run_suite(const suite_args& a) {
  const auto t_start = steady::now();
  if (a.suite != "paper") throw usage_error("unknown suite '" + a.suite + "' (expected paper)");
  if (a.random_side < 8 || a.random_side > 4096) throw usage_error("--random-side must be 8..4096");
  if (a.empty_side < 8 || a.empty_side > 4096) throw usage_error("--empty-side must be 8..4096");
  if (a.maps_per_density < 1) throw usage_error("--maps-per-density must be at least 1");
  const std::vector<int> densities = parse_densities(a.densities);
  if (a.astar_heuristic != "euclidean" && a.astar_heuristic != "octile")
    throw usage_error("--astar-heuristic: '" + a.astar_heuristic + "' (expected euclidean, as the paper, or octile)");

  // Before minutes of searching: the outputs can be written and the document's markers
  // are sound. Without --doc the tables go to stdout; without --svg there is no chart.
  if (a.doc) {
    check_output_path("--doc", *a.doc);
    splice_region(read_doc(*a.doc), std::string(kBeginMarker) + "\n" + kEndMarker + "\n", *a.doc);
  }
  if (a.svg) check_output_path("--svg", *a.svg);

  // The searches: the shipped databases (or $LDDB_DATA_DIR's), checked now. Every search
  // returns its own path (--raw: any-angle paths are otherwise smoothed in the search
  // call), as the paper compares them; the "smoothed" column smooths Block A*'s afterwards.
  auto options = [](std::optional<std::string> rule_text, std::optional<std::string> lddb, const std::string& heuristic) {
    setup_options o;
    o.rule_text = std::move(rule_text);
    o.lddb = std::move(lddb);
    o.search.text["heuristic"] = heuristic;
    o.search.off["smooth"] = true;  // --raw
    return o;
  };
  auto setup = [&options](algorithm algo, const std::string& rule_text, const std::string& heuristic) {
    return make_setup(algo, options(rule_text, std::nullopt, heuristic));
  };
  const search_setup astar_any = setup(algorithm::astar, "octile", a.astar_heuristic);
  const search_setup block_any =
      a.any_angle_lddb
          ? make_setup(algorithm::block_astar, options(std::nullopt, a.any_angle_lddb, "euclidean"))
          : setup(algorithm::block_astar, "any-angle", "euclidean");
  const std::string any_rule = block_any.movement.name();  // Theta* and Lazy Theta* search the same rule
  const search_setup theta = setup(algorithm::theta, any_rule, "euclidean");
  const search_setup lazy = setup(algorithm::lazy_theta, any_rule, "euclidean");
  const search_setup* const any_setups[kAnyCount] = {&astar_any, &theta, &lazy, &block_any};
  search_setup zero[kAnyCount] = {astar_any, theta, lazy, block_any};
  for (search_setup& z : zero) z.options.heuristic = heuristic_kind::zero;
  const search_setup* const zero_setups[kAnyCount] = {&zero[0], &zero[1], &zero[2], &zero[3]};
  const search_setup astar_tile = setup(algorithm::astar, "tile", "manhattan");
  const search_setup block_tile = setup(algorithm::block_astar, "tile", "manhattan");
  const search_setup astar_oct = setup(algorithm::astar, "octile", "octile");
  const search_setup block_oct = setup(algorithm::block_astar, "octile", "octile");
  const search_setup* const cell_setups[kCellCount] = {&astar_tile, &block_tile, &astar_oct, &block_oct};
  for (const search_setup* s : {&block_any, &block_tile, &block_oct})
    if (block_size_for(*s) != kBlockSide)
      throw failure(s->db_path + ": the suite needs " + std::to_string(kBlockSide) + "x" + std::to_string(kBlockSide) +
                    "-cell blocks, this database has " + std::to_string(block_size_for(*s)));

  // The scenario maps: found, read and checked before any search.
  report rep;
  rep.densities = densities;
  rep.limit = a.limit ? *a.limit : suite_args::kDefaultLimit;
  const fs::path maps_root = a.maps ? fs::path(*a.maps) : (source_dir() / ".." / "shared" / "maps").lexically_normal();
  rep.maps_dir = maps_root.string();
  std::vector<scen_job> jobs;
  {
    std::error_code ec;
    if (!fs::is_directory(maps_root, ec)) {
      rep.maps_note = "Skipped: the maps folder `" + rep.maps_dir + "` " +
                      (fs::exists(maps_root, ec) ? "is not a folder" : "does not exist") +
                      " (give another with `--maps DIR`).";
      progress("maps folder %s not found; the benchmark maps are skipped", rep.maps_dir.c_str());
    } else {
      jobs = plan_scenarios(maps_root, rep.limit);
      if (jobs.empty()) {
        rep.maps_note = "Skipped: no `*.scen` file with queries below `" + rep.maps_dir + "`.";
        progress("no scenario file below %s; the benchmark maps are skipped", rep.maps_dir.c_str());
      }
    }
  }
  std::uint64_t scen_queries = 0;
  for (const scen_job& j : jobs) scen_queries += j.queries.size();
  progress(
      "Table 1: %zu densities x %d maps x %llu pairs on %dx%d; Table 2: %llu pairs on %dx%d; maps: %zu files, "
      "%llu queries",
      densities.size(), a.maps_per_density, static_cast<unsigned long long>(a.pairs), a.random_side, a.random_side,
      static_cast<unsigned long long>(a.empty_pairs), a.empty_side, a.empty_side, jobs.size(),
      static_cast<unsigned long long>(scen_queries));

  const std::size_t chunk = a.chunk;
  runner run(chunk);
  auto seconds_since = [](steady::time_point t) { return std::chrono::duration<double>(steady::now() - t).count(); };

  // Table 1.
  if (a.pairs > 0) {
    for (int d : densities) {
      any_group g;
      g.name = "random " + std::to_string(d) + "%";
      for (int m = 0; m < a.maps_per_density; ++m) {
        const auto t0 = steady::now();
        const std::uint64_t map_seed =
            derive_seed(a.seed, 1, static_cast<std::uint64_t>(d), static_cast<std::uint64_t>(m));
        const grid_map map = make_random_map(a.random_side, a.random_side, d, map_seed, kBlockSide);
        const std::string what = "random map " + std::to_string(d) + "% #" + std::to_string(m);
        const auto pairs = connected_pairs(map, derive_seed(map_seed, 2), a.pairs, what);
        run.any_angle(any_setups, map, pair_queries(pairs, what), g);
        progress("Table 1: %d%% obstacles, map %d/%d: %zu pairs in %.1f s", d, m + 1, a.maps_per_density, pairs.size(),
                 seconds_since(t0));
      }
      rep.table1.push_back(std::move(g));
    }
  }

  // Table 2.
  if (a.empty_pairs > 0) {
    const auto t0 = steady::now();
    const grid_map map(a.empty_side, a.empty_side, kBlockSide);
    const auto pairs = connected_pairs(map, derive_seed(a.seed, 3), a.empty_pairs, "empty map");
    any_group g;
    g.name = "empty";
    const std::vector<query_spec> queries = pair_queries(pairs, "empty map");
    // A chunk at a time, so that its long queries report their progress.
    std::vector<query_spec> part;
    for (std::size_t i = 0; i < queries.size(); i += chunk) {
      part.assign(queries.begin() + static_cast<std::ptrdiff_t>(i),
                  queries.begin() + static_cast<std::ptrdiff_t>(std::min(queries.size(), i + chunk)));
      run.any_angle(zero_setups, map, part, g);
      progress("Table 2: %zu of %zu pairs, %.0f s so far", i + part.size(), queries.size(), seconds_since(t0));
    }
    rep.table2 = std::move(g);
  }

  // The benchmark maps.
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    const scen_job& job = jobs[j];
    const auto t0 = steady::now();
    if (rep.folder_any.empty() || rep.folder_any.back().name != job.folder) {
      rep.folder_any.push_back(any_group{});
      rep.folder_any.back().name = job.folder;
      rep.folder_cell.push_back(cell_group{});
      rep.folder_cell.back().name = job.folder;
    }
    any_group ga;
    ga.name = job.map_name;
    ga.file_queries = job.file_queries;
    cell_group gc;
    gc.name = job.map_name;
    auto last_note = t0;
    // A few chunks at a time, so that a long map still reports its progress.
    const std::size_t slice = 4 * chunk;
    std::vector<query_spec> part;
    for (std::size_t i = 0; i < job.queries.size(); i += slice) {
      if (seconds_since(last_note) >= 30) {
        last_note = steady::now();
        progress("maps [%zu/%zu] %s/%s: %zu of %zu queries, %.0f s so far", j + 1, jobs.size(), job.folder.c_str(),
                 job.map_name.c_str(), i, job.queries.size(), seconds_since(t0));
      }
      part.clear();
      for (std::size_t k = i; k < std::min(job.queries.size(), i + slice); ++k) {
        const scenario_query& q = job.queries[k];
        part.push_back({q.start, q.goal, job.file + ":" + std::to_string(q.line)});
      }
      run.any_angle(any_setups, *job.map, part, ga);
      run.cells(cell_setups, *job.map, part, gc);
    }
    rep.folder_any.back().merge(ga);
    rep.folder_cell.back().merge(gc);
    rep.map_any.push_back(std::move(ga));
    rep.map_cell.push_back(std::move(gc));
    rep.map_folder.push_back(job.folder);
    progress("maps [%zu/%zu] %s/%s: %zu of %llu queries in %.1f s", j + 1, jobs.size(), job.folder.c_str(),
             job.map_name.c_str(), job.queries.size(), static_cast<unsigned long long>(job.file_queries),
             seconds_since(t0));
  }

  // The outputs: the chart, then the document.
  const double total_s = seconds_since(t_start);
  std::vector<chart_panel> panels;
  {
    chart_panel p;
    p.title = "Any-angle: A* (octile moves), Theta*, Lazy Theta*, Block A*";
    p.series = {"A* (octile)", "Theta*", "Lazy Theta*", "Block A*"};
    auto add = [&](const any_group& g, const std::string& label, const std::string& sub, bool section,
                   bool shared = false) {
      chart_group c{label, sub, {}, section, shared};
      for (int k = 0; k < kAnyCount; ++k) c.ms.push_back(g.s[k].mean_ms());
      p.groups.push_back(c);
    };
    for (std::size_t i = 0; i < rep.table1.size(); ++i)
      add(rep.table1[i], std::to_string(rep.densities[i]) + "%", "random " + std::to_string(a.random_side) + "\u00b2",
          i == 0, true);
    if (rep.table2) add(*rep.table2, "empty", std::to_string(a.empty_side) + "\u00b2, h=0", true);
    for (std::size_t i = 0; i < rep.folder_any.size(); ++i)
      add(rep.folder_any[i], rep.folder_any[i].name, std::to_string(rep.folder_any[i].s[kBlock].queries) + " queries",
          i == 0);
    if (!p.groups.empty()) panels.push_back(p);
  }
  if (!rep.folder_cell.empty()) {
    chart_panel p;
    p.title = "Tile and octile: A* and Block A* of the same rule (benchmark maps)";
    p.series = {"tile A*", "tile Block A*", "octile A*", "octile Block A*"};
    for (const cell_group& g : rep.folder_cell) {
      chart_group c{g.name, std::to_string(g.s[kTileA].queries) + " queries", {}, false};
      for (int k = 0; k < kCellCount; ++k) c.ms.push_back(g.s[k].mean_ms());
      p.groups.push_back(c);
    }
    panels.push_back(p);
  }
  if (a.svg)
    write_file_atomically(*a.svg, chart_svg(std::string(kSuiteCommand) + ": mean time per query", panels,
                                            "One thread, search call only; " + cpu_model() + "; " + utc_now() +
                                                "; seed " + std::to_string(a.seed)));

  run_facts info;
  info.command = command_line();
  info.date = utc_now();
  info.machine = cpu_model() + ", " + std::to_string(std::thread::hardware_concurrency()) + " logical cores";
  info.load = load_average();
  info.build = compiler() +
#ifdef __OPTIMIZE__
               ", optimised build";
#else
               ", UNOPTIMISED build (-O0): the times are not representative";
#endif
  info.databases = block_any.db_path + ", " + block_oct.db_path + ", " + block_tile.db_path;
  info.seed = std::to_string(a.seed) + " (`--seed`)";
  info.duration = format_seconds(total_s);
  // The chart as the document links it: relative to the document's folder (the current
  // folder for stdout).
  std::string link;
  if (a.svg) {
    const fs::path doc_dir = a.doc ? fs::absolute(*a.doc).parent_path() : fs::current_path(),
                   svg_abs = fs::absolute(*a.svg);
    link = svg_abs.lexically_relative(doc_dir).string();
    if (link.empty()) link = svg_abs.string();
  }
  const std::string region = build_region(rep, info, a, link, run);
  const std::string verdict = std::string(run.problem_count ? "finished with problems" : "done") + " in " +
                              format_seconds(total_s);
  if (a.doc) {
    // Read again now: the rest of the document may have been edited during the run.
    const std::string old_doc = read_doc(*a.doc);
    atomic_output out("--doc", *a.doc);
    out.write(splice_region(old_doc, region, *a.doc));
    out.commit();
    std::printf("lddb-bench suite: %s\nwrote %s\n", verdict.c_str(), a.doc->c_str());
    if (a.svg) std::printf("wrote %s\n", a.svg->c_str());
  } else {
    std::fputs(region.c_str(), stdout);
    std::fflush(stdout);
    std::fprintf(stderr, "lddb-bench suite: %s\n", verdict.c_str());
    if (a.svg) std::fprintf(stderr, "wrote %s\n", a.svg->c_str());
  }
  std::fflush(stdout);
  if (run.problem_count) {
    std::fprintf(stderr, "lddb-bench suite: %llu problem%s; first: %s\n",
                 static_cast<unsigned long long>(run.problem_count), run.problem_count == 1 ? "" : "s",
                 run.problems.front().c_str());
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace lddb::cli
