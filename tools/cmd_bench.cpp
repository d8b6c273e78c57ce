// tools/cmd_bench.cpp: `lddb bench`: every query of Moving AI scenario files.
//
// Queries run in batches of up to kBatchPerThread per thread, all of one map, through a
// batch_solver (lddb/batch.hpp) of --threads workers, each with its own search_context
// that stays warm for the whole run; with one thread every query runs on the main thread
// as before. Only the search call is timed (steady_clock, per query, on the thread that
// runs it), not loading or checking; the search call smooths any-angle paths (the
// library's default, what a game gets; --raw times and measures the searches' own paths);
// the wall time of the batches' search
// phases gives the throughput. Each path is then checked by the independent checker (on
// the same threads), and the rows are written and summed in scenario order, so every
// output but the times is the same for every thread count.
// For any-angle rules a scenario's start and goal cells give the start and goal vertices,
// their top-left corners (docs/rules.md), which have the same coordinates.
//
// Memory report: the largest search_context::memory_bytes() seen after any query, and
// the process's peak resident memory (getrusage ru_maxrss).
//
// Output: an optional CSV with one row per query, an optional file of paths (one query a
// line), and a summary per map, per folder and overall. A query whose start or goal cell is
// blocked (scenario files hold a few, e.g. on water) is skipped and counted, not searched.
// Exit status 1 when a path is missing or invalid, or (octile rule) a length differs from
// the scenario's optimum (with --weight W, lies outside [optimum, W x optimum], the bound
// of search_options::weight); the summary then says which corner rule the optima look like
// (bench_checks.hpp; not with a weight).
//
// Memory does not grow with the input: scenarios are read one query at a time
// (scenario_reader), at most one batch of queries is held, and the CSV and path files are
// written as the batches finish, to temporary files that replace the targets only when
// every query has run. A malformed line stops the run with its file and line named, and
// leaves no output file behind.
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "bench_checks.hpp"
#include "cli_search.hpp"
#include "commands.hpp"
#include "lddb/batch.hpp"
#include "lddb/scenario.hpp"

namespace lddb::cli {

namespace {

struct bench_args {
  std::string scen;  // a .scen file or a folder searched for *.scen
  std::optional<std::string> map, csv, paths;
  setup_options setup;  // --rule, --lddb, the search options, the preparation's
  std::string algo = "find-path";
  std::optional<std::uint64_t> limit;  // queries per scenario file
  unsigned threads = 1;  // searches run on this many threads (batch_solver); 0 = every core
};

const char* const kBenchFooter = R"(--scen takes a .scen file or a folder (every *.scen below it, sorted). A query's map is
the path the scenario names if it exists beside the scenario, else the file of the same
base name beside it; --map overrides it for a single scenario file. --limit N runs the
first N queries of each file. A query whose start or goal cell is not passable (blocked
on the map, e.g. water) is skipped: it is counted as "skipped: start/goal not passable",
not searched and not a failure. Only the search call is timed. Paths are as the library
gives them by default: any-angle smoothed in the search call (timed with it), tile and
octile every cell; --raw measures the searches' own paths, --smooth smooths cell paths. --threads N solves the
queries N at a time (lddb/batch.hpp; one search context per thread); every path is still
checked, and every output but the times is the same for any N. The summary ends with the
searches' wall time and throughput (queries/s), the largest search state of one context
(bytes) and the peak resident memory. Exit status 1 when a path is missing or invalid, or
(octile rule with the default diagonal, any corner option) a length differs from the
scenario's optimum (with --weight W: lies outside [optimum, W x optimum]).
--size K and --class LETTERS search for that unit (lddb/unit.hpp). A query whose start or
goal the unit cannot stand at (its square not open to the class, or for any-angle no room
at the corner) is skipped and counted; the scenario's optima and its promise of a path are
a one-cell ground unit's, so for another unit the lengths are not compared and a missing
path is counted, not a failure; every path is still checked (exit status 1 when invalid).
Which rule the optima assume: corner rules nest (forbidden, one-side-free, allowed: each
allows every move of the one before), so a looser rule's lengths are never longer. When
more than 1% of the lengths are off the optima, nearly all (19 in 20) longer, or nearly
all shorter, the summary names the nearest corner rule in that direction under which A*
gives the scenario's optimum to every sampled query (the first 64 that are off, and up to
16 that match, numbered 1, 2, 4, 8, ...), with the --rule to rerun with, or says that no
rule does.
Progress: on a terminal, one line on stderr rewritten after each batch of queries;
otherwise a plain line (queries done/total, seconds elapsed) at most every
LDDB_PROGRESS_INTERVAL seconds (default 5; 0: after every batch).
Examples:
  lddb bench --scen ../shared/maps/dao --algo block-astar --csv dao.csv
  lddb bench --scen ../shared/maps/bg512/AR0500SR.map.scen --algo theta --limit 100
  lddb bench --scen ../shared/maps/bg512/AR0500SR.map.scen --rule any-angle --threads 2
  lddb bench --scen ../shared/maps/bg512/AR0500SR.map.scen --size 2 --class .GS
)";

namespace fs = std::filesystem;

// Queries per thread in a batch: enough that the threads rarely wait for the slowest
// query of a batch, few enough that a batch's paths take little memory.
constexpr std::size_t kBatchPerThread = 256;

// The process's peak resident set in KiB (Linux reports ru_maxrss in KiB); 0 if unknown.
long peak_rss_kib() {
  struct rusage usage {};
  return ::getrusage(RUSAGE_SELF, &usage) == 0 ? usage.ru_maxrss : 0;
}

struct totals {
  std::uint64_t queries = 0, found = 0, invalid = 0, mismatches = 0, skipped = 0;
  double length = 0, optimal = 0, expanded = 0, microseconds = 0;
  void add(const query_run& q, double optimal_length, bool mismatch) {
    ++queries;
    optimal += optimal_length;
    expanded += static_cast<double>(q.result.stats.expanded);
    microseconds += static_cast<double>(q.search_ns) / 1000.0;
    if (q.result.found()) {
      ++found;
      length += q.length;
      if (!q.check.valid) ++invalid;
    }
    if (mismatch) ++mismatches;
  }
  std::vector<std::string> row(const std::string& name, bool octile) const {
    const double n = static_cast<double>(std::max<std::uint64_t>(queries, 1));
    const double f = static_cast<double>(std::max<std::uint64_t>(found, 1));
    return {name,
            std::to_string(queries),
            std::to_string(found),
            found ? format_fixed(length / f, 3) : "-",
            format_fixed(optimal / n, 3),
            format_fixed(expanded / n, 1),
            format_fixed(microseconds / n, 2),
            std::to_string(invalid),
            octile ? std::to_string(mismatches) : "-",
            std::to_string(skipped)};
  }
};

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::vector<std::string> scenario_files(const std::string& path) {
  std::error_code ec;
  if (fs::is_regular_file(path, ec)) return {path};
  if (!fs::exists(path, ec)) throw failure("--scen: " + path + ": no such file or folder");
  if (!fs::is_directory(path, ec)) throw failure("--scen: " + path + ": is neither a regular file nor a folder");
  std::vector<std::string> files;
  for (fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".scen" && it->is_regular_file(ec)) files.push_back(it->path().string());
  if (ec) throw failure("--scen: " + path + ": cannot list: " + ec.message());
  if (files.empty()) throw failure("--scen: " + path + ": the folder holds no .scen file");
  std::sort(files.begin(), files.end());
  return files;
}

int run_bench(const bench_args& a) {
  if (a.scen.empty()) throw usage_error("--scen is required (a .scen file or a folder)");
  const algorithm algo = parse_algorithm(a.algo, "--algo");
  const search_setup s = make_setup(algo, a.setup);
  std::error_code ec;
  if (a.map && fs::is_directory(a.scen, ec))
    throw usage_error("--map gives the map of one scenario file, but --scen " + a.scen + " is a folder");
  if (a.limit && *a.limit == 0) throw usage_error("--limit must be at least 1");
  const std::vector<std::string> files = scenario_files(a.scen);
  const bool scen_is_folder = fs::is_directory(a.scen, ec);
  const int block = block_size_for(s);
  // The optima are octile lengths with the default diagonal, of a one-cell ground unit;
  // corner_guess compares every corner option with them.
  const bool own_unit = !s.default_unit();
  corner_rule_guess corner_guess(s.movement, !own_unit);
  const bool octile = corner_guess.active();

  // Opened before any search runs, so a bad output path fails at once, not after the run.
  std::optional<atomic_output> csv, paths;
  if (a.csv) {
    csv.emplace("--csv", *a.csv);
    csv->write(std::string("id,scenario,line,map,bucket,start_x,start_y,goal_x,goal_y,status,length,optimal,expanded,"
                           "heap_ops,nanoseconds,valid\n"));
  }
  if (a.paths) paths.emplace("--paths", *a.paths);
  std::map<std::string, totals> per_map, per_folder;
  std::vector<std::string> map_order, folder_order;
  totals all;
  std::string first_problem, first_skipped;

  batch_solver solver(a.threads);
  const std::size_t batch_size = kBatchPerThread * solver.threads();
  // The batch being gathered: queries of one map (`map`), each with its scenario file.
  std::vector<scenario_query> pending;
  std::vector<std::size_t> pending_file;
  std::vector<char> pending_skip;  // start or goal cell blocked: counted, not searched
  std::vector<std::string> folders;  // per scenario file
  std::vector<query_run> runs(batch_size);  // reused: their vectors keep their capacity
  pending.reserve(batch_size);
  pending_file.reserve(batch_size);
  pending_skip.reserve(batch_size);
  std::string loaded_path;
  std::optional<grid_map> map;
  // lddb::prepare of each map, off the searches' clock: summed and largest time, largest memory.
  double prepare_ms = 0, prepare_ms_max = 0;
  std::size_t prepared_maps = 0, prepare_bytes_max = 0;
  int landmarks_max = 0, squares_maps = 0, jumps_maps = 0;
  std::uint64_t id = 0;
  std::uint64_t wall_ns = 0, summed_search_ns = 0;
  std::size_t state_bytes = 0;
  // Progress on stderr: long benchmarks take minutes. A line rewritten in place on a
  // terminal; elsewhere (a log file) a plain line every few seconds.
  const bool progress = ::isatty(::fileno(stderr)) != 0;
  std::optional<plain_progress> plain;
  if (!progress) {
    std::uint64_t total = 0;
    for (const std::string& f : files) total += count_scenario_queries(f, a.limit);
    plain.emplace(total);
  }

  // A CSV row's first fields: id, scenario, line, map, bucket, start and goal.
  auto csv_query = [&](const scenario_query& q, const std::string& file) {
    return std::to_string(id) + "," + csv_field(file) + "," + std::to_string(q.line) + "," + csv_field(loaded_path) +
           "," + std::to_string(q.bucket) + "," + std::to_string(q.start.x) + "," + std::to_string(q.start.y) + "," +
           std::to_string(q.goal.x) + "," + std::to_string(q.goal.y);
  };

  // Searches the pending queries on every thread, checks their paths, then writes and
  // sums them in order.
  auto run_pending = [&] {
    const std::size_t n = pending.size();
    if (n == 0) return;
    const auto t0 = std::chrono::steady_clock::now();
    solver.for_each(n, [&](std::size_t i, search_context& ctx) {
      if (!pending_skip[i])
        run_search(s, *map, pending[i].start, pending[i].goal, ctx, runs[i]);
    });
    wall_ns += static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count());
    solver.for_each(n, [&](std::size_t i, search_context&) {
      if (!pending_skip[i]) finish_query(s, *map, pending[i].start, pending[i].goal, runs[i]);
    });
    for (std::size_t i = 0; i < n; ++i) {
      const scenario_query& q = pending[i];
      const std::string& file = files[pending_file[i]];
      const std::string& folder = folders[pending_file[i]];
      if (!per_map.count(loaded_path)) map_order.push_back(loaded_path);
      if (!per_folder.count(folder)) folder_order.push_back(folder);
      if (pending_skip[i]) {
        for (totals* t : {&per_map[loaded_path], &per_folder[folder], &all}) ++t->skipped;
        if (first_skipped.empty()) {
          const bool start = unit_cannot_stand(s.movement, *map, q.start, s.unit());
          first_skipped = file + ":" + std::to_string(q.line) + ": " + (start ? "start " : "goal ") +
                          point_text(start ? q.start : q.goal) + (own_unit ? " is no place for the unit" : " is blocked");
        }
        if (csv)
          csv->write(csv_query(q, file) + ",skipped,," + format_fixed(q.optimal, 5) + ",0,0,0,0\n");
        if (paths) paths->write(std::to_string(id) + "\n");
        ++id;
        continue;
      }
      const query_run& r = runs[i];
      summed_search_ns += r.search_ns;
      state_bytes = std::max(state_bytes, r.state_bytes);
      // With --weight W > 1 a length may exceed the optimum up to W times: only that bound is
      // checked, and no corner rule is guessed from such lengths.
      const bool mismatch =
          r.result.found() && r.check.valid &&
          (s.options.weight == 1 ? corner_guess.observe(*map, q, r.length)
                         : octile && (r.length < q.optimal - q.optimal_tolerance ||
                                      r.length > s.options.weight * q.optimal + q.optimal_tolerance));
      if (first_problem.empty()) {
        const std::string where = file + ":" + std::to_string(q.line) + ": ";
        if (!r.result.found()) {
          if (!own_unit) first_problem = where + search_status_name(r.result.status) + " " + r.result.message;
        } else if (!r.check.valid)
          first_problem = where + "invalid path: " + r.check.error;
        else if (mismatch)
          first_problem = where + "length " + format_length(r.length) + " but the scenario's optimum is " +
                          format_length(q.optimal);
      }
      per_map[loaded_path].add(r, q.optimal, mismatch);
      per_folder[folder].add(r, q.optimal, mismatch);
      all.add(r, q.optimal, mismatch);

      if (csv) {
        std::string row = csv_query(q, file) + "," + search_status_name(r.result.status) + "," +
               (r.result.found() ? format_fixed(r.length, 6) : "") + "," + format_fixed(q.optimal, 5) + "," +
               std::to_string(r.result.stats.expanded) + "," + std::to_string(r.result.stats.heap_ops) + "," +
               std::to_string(r.search_ns) + "," + (r.check.valid ? "1" : "0");
        csv->write(row + "\n");
      }
      if (paths) {
        std::string line = std::to_string(id);
        for (const point& p : r.path) line += " " + std::to_string(p.x) + "," + std::to_string(p.y);
        paths->write(line + "\n");
      }
      ++id;
    }
    pending.clear();
    pending_file.clear();
    pending_skip.clear();
    if (plain) plain->tick(id);
  };

  for (std::size_t file_index = 0; file_index < files.size(); ++file_index) {
    const std::string& file = files[file_index];
    std::string error;
    std::optional<scenario_reader> sc = scenario_reader::open(file, &error);
    if (!sc) throw failure(error);
    // Folders are shown relative to --scen when it is a folder.
    const fs::path parent = fs::path(file).parent_path();
    std::string folder = scen_is_folder ? parent.lexically_relative(a.scen).string() : parent.string();
    if (folder.empty()) folder = ".";
    folders.push_back(folder);
    std::uint64_t taken = 0;
    scenario_query q;
    // With --limit, the rest of the file is not even read.
    while ((!a.limit || taken < *a.limit) && sc->next(&q, &error)) {
      ++taken;
      const std::string map_path = a.map ? *a.map : sc->resolve_map(q);
      if (!map || map_path != loaded_path) {
        if (!fs::exists(map_path, ec))
          throw failure(file + ":" + std::to_string(q.line) + ": map " + q.map + " not found (looked for " + map_path +
                        "; give it with --map)");
        run_pending();  // on the map they were read for
        map = load_map_or_fail(map_path, block);
        loaded_path = map_path;
        if (const std::optional<preparation_report> prepared = prepare_map(s, *map)) {  // off the clock of the searches
          ++prepared_maps;
          prepare_ms += prepared->prepare_ms;
          prepare_ms_max = std::max(prepare_ms_max, prepared->prepare_ms);
          prepare_bytes_max = std::max(prepare_bytes_max, prepared->bytes);
          landmarks_max = std::max(landmarks_max, prepared->landmarks_built);
          squares_maps += prepared->plan.open_squares ? 1 : 0;
          jumps_maps += prepared->plan.jumps ? 1 : 0;
        }
      }
      if (map->width() != q.map_width || map->height() != q.map_height)
        throw failure(file + ":" + std::to_string(q.line) + ": the scenario says the map is " +
                      std::to_string(q.map_width) + "x" + std::to_string(q.map_height) + ", but " + map_path + " is " +
                      std::to_string(map->width()) + "x" + std::to_string(map->height()));

      pending.push_back(q);
      pending_file.push_back(file_index);
      pending_skip.push_back(unit_cannot_stand(s.movement, *map, q.start, s.unit()) ||
                             unit_cannot_stand(s.movement, *map, q.goal, s.unit()));
      if (pending.size() == batch_size) {
        if (progress)
          std::fprintf(stderr, "\r[%zu/%zu] %s: query %llu   ", file_index + 1, files.size(),
                       fs::path(file).filename().string().c_str(), static_cast<unsigned long long>(taken));
        run_pending();
      }
    }
    if (!error.empty()) throw failure(error);  // a malformed line: the outputs are discarded
  }
  run_pending();
  if (progress) std::fprintf(stderr, "\r%60s\r", "");
  if (csv) csv->commit();
  if (paths) paths->commit();

  std::printf("%s, heuristic %s%s%s; %zu scenario file%s, %llu queries%s\n", s.label().c_str(),
              heuristic_name(s.heuristic()), !s.movement.on_vertices() ? (s.smoothed() ? ", paths smoothed" : "")
              : s.smoothed()            ? ", paths smoothed (the default)"
                                        : ", raw paths (--raw)",
              s.db ? (", database " + s.db_path).c_str() : "", files.size(), files.size() == 1 ? "" : "s",
              static_cast<unsigned long long>(all.queries + all.skipped),
              all.skipped ? (" (" + std::to_string(all.skipped) + " skipped)").c_str() : "");
  if (own_unit)
    std::printf("(unit %s: the scenarios' optimal lengths and paths are a one-cell ground unit's; this unit's lengths "
                "are not checked against them, and a query it has no path for is no failure)\n",
                unit_text(s.movement, s.unit()).c_str());
  else if (!octile)
    std::printf("(the scenarios' optimal lengths are octile optima; rule %s is not checked against them)\n",
                s.movement.name().c_str());
  // `skipped` last: scripts read the columns before it by position.
  const std::vector<std::string> heading{"",        "queries",    "found",   "mean length", "mean optimal",
                                         "mean expanded", "mean \u00b5s", "invalid", "mismatches", "skipped"};
  const std::vector<int> right{1, 2, 3, 4, 5, 6, 7, 8, 9};
  std::vector<std::vector<std::string>> rows{heading};
  rows[0][0] = "map";
  for (const std::string& m : map_order) rows.push_back(per_map[m].row(fs::path(m).filename().string(), octile));
  std::printf("\n");
  print_table(stdout, rows, right);
  rows = {heading};
  rows[0][0] = "folder";
  for (const std::string& f : folder_order) rows.push_back(per_folder[f].row(f, octile));
  rows.push_back(all.row("all", octile));
  std::printf("\n");
  print_table(stdout, rows, right);
  if (all.skipped && own_unit)
    std::printf("\nskipped %llu queries the unit cannot stand at (%s), of %llu (first: %s)\n",
                static_cast<unsigned long long>(all.skipped), unit_text(s.movement, s.unit()).c_str(),
                static_cast<unsigned long long>(all.queries + all.skipped), first_skipped.c_str());
  else if (all.skipped)
    std::printf("\nskipped: start/goal not passable: %llu of %llu queries (first: %s)\n",
                static_cast<unsigned long long>(all.skipped), static_cast<unsigned long long>(all.queries + all.skipped),
                first_skipped.c_str());
  const std::optional<std::string> advice = corner_guess.advice(uses_database(s.algo));
  if (advice) std::printf("\n%s\n", advice->c_str());
  // Time and memory, on lines of their own (scripts parse the `all` row above).
  const double wall_s = static_cast<double>(wall_ns) / 1e9;
  std::printf("\nsearches: %u thread%s, wall time %s s, %s queries/s (summed search time %s s)\n", solver.threads(),
              solver.threads() == 1 ? "" : "s", format_fixed(wall_s, 3).c_str(),
              wall_ns ? format_fixed(static_cast<double>(all.queries) / wall_s, 1).c_str() : "-",
              format_fixed(static_cast<double>(summed_search_ns) / 1e9, 3).c_str());
  if (prepared_maps)
    std::printf("prepared: %zu map%s in %s s, at most %s ms and %s MiB a map (not in the search times): up to %d "
                "landmarks (%s), open squares on %d of them, jump point search on %d%s\n",
                prepared_maps, prepared_maps == 1 ? "" : "s", format_fixed(prepare_ms / 1000.0, 3).c_str(),
                format_fixed(prepare_ms_max, 1).c_str(),
                format_fixed(static_cast<double>(prepare_bytes_max) / (1024.0 * 1024.0), 1).c_str(), landmarks_max,
                landmark_placement_name(s.placement), squares_maps, jumps_maps, s.prepare ? "" : " (--no-prepare: only --landmarks)");
  else
    std::printf("prepared: nothing (--no-prepare)\n");
  std::size_t contexts_bytes = 0;
  for (unsigned w = 0; w < solver.threads(); ++w) contexts_bytes += solver.context(w).memory_bytes();
  std::printf("search state: %zu bytes at most (search_context::memory_bytes after a query)", state_bytes);
  if (solver.threads() > 1) std::printf("; %zu in the %u contexts", contexts_bytes, solver.threads());
  std::printf("\n");
  std::printf("peak resident memory: %s MiB (getrusage ru_maxrss)\n",
              format_fixed(static_cast<double>(peak_rss_kib()) / 1024.0, 1).c_str());
  if (a.csv) std::printf("\nwrote %s (%llu rows)\n", a.csv->c_str(), static_cast<unsigned long long>(id));
  if (a.paths) std::printf("wrote %s\n", a.paths->c_str());
  std::fflush(stdout);

  const std::uint64_t missing = all.queries - all.found;
  if (own_unit && missing)
    std::printf("no path for the unit: %llu of %llu queries searched\n", static_cast<unsigned long long>(missing),
                static_cast<unsigned long long>(all.queries));
  if (own_unit ? all.invalid != 0 : (missing || all.invalid || all.mismatches)) {
    std::fprintf(stderr, "lddb bench: %llu without a path, %llu invalid, %llu octile mismatches; first: %s%s\n",
                 static_cast<unsigned long long>(missing), static_cast<unsigned long long>(all.invalid),
                 static_cast<unsigned long long>(all.mismatches), first_problem.c_str(),
                 advice ? ("; " + *advice).c_str() : "");
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace

void add_bench_command(CLI::App& app, command_action& chosen) {
  auto a = std::make_shared<bench_args>();
  auto* cmd = app.add_subcommand("bench", "Run every query of Moving AI scenario files and summarise");
  cmd->add_option("--scen,-s", a->scen, "A .scen file, or a folder searched for *.scen");
  cmd->add_option("--map,-m", a->map, "The map for a single scenario file (default: resolved from it)");
  cmd->add_option("--algo,-a", a->algo, "find-path, block-astar, astar, jps, theta or lazy-theta")->capture_default_str();
  cmd->add_option("--rule,-r", a->setup.rule_text, "Movement rule (default: the database's, else octile)");
  cmd->add_option("--lddb", a->setup.lddb, "Database for find-path and block-astar (default: the shipped one for the rule)");
  add_prepare_options(cmd, a->setup);
  add_search_options(cmd, a->setup.search);
  cmd->add_option("--csv", a->csv, "Write one CSV row per query here");
  cmd->add_option("--paths", a->paths, "Write each query's waypoints here, one query a line");
  cmd->add_option("--limit", a->limit, "Run at most N queries of each scenario file (the rest is not read)")
      ->check(whole_number(1, UINT64_MAX));
  cmd->add_option("--threads,-j", a->threads, "Search threads (a batch_solver); 0 = all cores")
      ->check(whole_number(0, 1024))
      ->capture_default_str();
  cmd->footer(std::string(kSearchRulesHelp) + kDatabaseSearchHelp + kBenchFooter);
  cmd->callback([a, &chosen] { chosen = [a] { return run_bench(*a); }; });
}

}  // namespace lddb::cli
