// bench/suite_report.cpp: the suite's document: its tables as Markdown, and the region they
// fill between the lines `<!-- suite:begin -->` and `<!-- suite:end -->` of a document, so
// that hand-written text around them survives a new run. The document gets a summary (one
// row per data set, any-angle, and one per folder, tile and octile); stdout gets the summary
// and the full tables (every algorithm's figures per density, folder and map).
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "suite.hpp"

namespace lddb::cli {

namespace {

namespace fs = std::filesystem;

std::string format_ratio(double r) { return std::isfinite(r) ? format_fixed(r, 2) + "\u00d7" : "-"; }

std::string format_percent(double fraction) {
  if (!std::isfinite(fraction)) return "-";
  std::string v = format_fixed(fraction * 100, 2);
  if (v == "-0.00") v = "0.00";
  return (v[0] == '-' ? "" : "+") + v + "%";
}

std::string md_row(const std::vector<std::string>& cells) {
  std::string s = "|";
  for (const std::string& c : cells) s += " " + c + " |";
  return s + "\n";
}

std::string md_heading(const std::vector<std::string>& cells) {
  std::string s = md_row(cells) + "|";
  for (std::size_t k = 0; k < cells.size(); ++k) s += "---|";
  return s + "\n";
}

// The paper's figures (Table 1 and Table 2): distance, expanded, seconds per query.
struct paper_row {
  double astar[3], theta[3], block[3];
};
std::optional<paper_row> paper_random(int percent) {
  switch (percent) {
    case 0:
      return paper_row{{274.7, 14957, 0.00481}, {260.8, 918, 0.00650}, {261.8, 638, 0.00103}};
    case 10:
      return paper_row{{275.3, 15039, 0.00489}, {261.6, 4439, 0.00417}, {262.5, 845, 0.00140}};
    case 20:
      return paper_row{{276.4, 15351, 0.00499}, {263.3, 6229, 0.00494}, {264.3, 1159, 0.00185}};
    case 30:
      return paper_row{{277.5, 15889, 0.00518}, {265.4, 8536, 0.00632}, {266.6, 1617, 0.00240}};
    case 40:
      return paper_row{{282.7, 18025, 0.00584}, {271.5, 12603, 0.00904}, {273.0, 2407, 0.00315}};
    case 50:
      return paper_row{{296.9, 26146, 0.00825}, {286.2, 22721, 0.01484}, {287.8, 4476, 0.00468}};
    default:
      return std::nullopt;
  }
}
const paper_row kPaperTable2{{518.3, 478457, 0.38}, {491.3, 478096, 22.57}, {493.1, 30032, 0.04}};
const paper_row kPaperBG2{{248.7, 10796, 0.00334}, {237.2, 7043, 0.01796}, {238.0, 1034, 0.00147}};
const paper_row kPaperDAO{{409.0, 15465, 0.00478}, {392.3, 14478, 0.02697}, {393.9, 1709, 0.00226}};

std::vector<std::string> any_rows(const any_group& g, const std::string& label) {
  std::vector<std::string> rows;
  for (int k = 0; k < kAnyCount; ++k) {
    const stats& x = g.s[k];
    rows.push_back(
        md_row({k == 0 ? label : "", kAnyNames[k], format_fixed(x.mean_length(), 1), format_fixed(x.mean_expanded(), 0),
                format_ms(x.mean_ms()), k == kBlock ? "" : format_ratio(g.speedup(k)), format_percent(g.vs_theta(x)),
                std::to_string(x.valid()) + "/" + std::to_string(x.queries)}));
  }
  return rows;
}

const std::vector<std::string> kAnyHeading{"data set",     "algorithm",          "distance",         "expanded",
                                           "ms per query", "Block A* faster by", "length vs Theta*", "valid paths"};

// A row of the any-angle summary: Block A*'s time, how many times faster it is than each
// search, its length against Theta*'s, and the same ratios from the paper where it has the
// data set.
std::string summary_row(const any_group& g, const std::string& label, const std::optional<paper_row>& paper) {
  std::vector<std::string> row{label,
                               std::to_string(g.s[kBlock].queries),
                               format_ms(g.s[kBlock].mean_ms()),
                               format_ratio(g.speedup(kAstar)),
                               format_ratio(g.speedup(kTheta)),
                               format_ratio(g.speedup(kLazy)),
                               format_percent(g.vs_theta(g.s[kBlock])),
                               format_percent(g.vs_theta(g.smoothed))};
  if (paper) {
    row.push_back(format_ratio(paper->astar[2] / paper->block[2]));
    row.push_back(format_ratio(paper->theta[2] / paper->block[2]));
    row.push_back(format_percent(paper->block[0] / paper->theta[0] - 1));
  } else {
    row.insert(row.end(), {"", "", ""});
  }
  return md_row(row);
}

// A row of the tile and octile summary: A*'s and Block A*'s mean times under each rule, and
// the queries where Block A*'s length differs from A*'s.
std::string cell_summary_row(const cell_group& g) {
  const stats &ta = g.s[kTileA], &tb = g.s[kTileB], &oa = g.s[kOctA], &ob = g.s[kOctB];
  return md_row({g.name, std::to_string(ta.queries), format_ms(ta.mean_ms()), format_ms(tb.mean_ms()),
                 format_ratio(ta.mean_ms() / tb.mean_ms()), format_ms(oa.mean_ms()), format_ms(ob.mean_ms()),
                 format_ratio(oa.mean_ms() / ob.mean_ms()),
                 std::to_string(g.tile_mismatch) + " / " + std::to_string(g.octile_mismatch)});
}

std::string side_label(int side) { return std::to_string(side) + "×" + std::to_string(side); }

// The full tables, printed without --doc: every algorithm's figures for each density, the
// empty map, each folder and each map, and tile and octile per map.
std::string full_tables(const report& rep, const suite_args& a) {
  std::string s;
  s += "### Full tables\n\n";
  s += "Printed without `--doc` only. *Distance* is the mean path length, *expanded* the mean number of cells "
       "(A\\*), vertices (Theta\\*, Lazy Theta\\*) or nodes (Block A\\*: blocks and open squares) expanded, *ms per "
       "query* the mean time of the search call, *Block A\\* faster by* that algorithm's time over Block A\\*'s, "
       "and *length vs Theta\\** the mean length against Theta\\*'s.\n\n";
  if (!rep.table1.empty()) {
    s += "#### Table 1: random maps\n\n";
    s += md_heading(kAnyHeading);
    for (std::size_t i = 0; i < rep.table1.size(); ++i)
      for (const std::string& r : any_rows(rep.table1[i], "random " + std::to_string(rep.densities[i]) + "%")) s += r;
    s += "\n";
  }
  if (rep.table2) {
    s += "#### Table 2: a large empty map, zero heuristic\n\n";
    s += md_heading(kAnyHeading);
    for (const std::string& r : any_rows(*rep.table2, side_label(a.empty_side))) s += r;
    s += "\n";
  }
  if (rep.maps_note.empty()) {
    s += "#### Any-angle, per folder\n\n";
    s += md_heading(kAnyHeading);
    for (const any_group& g : rep.folder_any)
      for (const std::string& r : any_rows(g, g.name + " (" + std::to_string(g.s[kBlock].queries) + ")")) s += r;
    s += "\n#### Any-angle, per map\n\n";
    s += md_heading({"folder", "map", "queries", "A\\* ms", "Theta\\* ms", "Lazy Theta\\* ms", "Block A\\* ms",
                     "vs A\\*", "vs Theta\\*", "vs Lazy Theta\\*", "Theta\\* length", "Block A\\* length",
                     "vs Theta\\*", "invalid"});
    for (std::size_t i = 0; i < rep.map_any.size(); ++i) {
      const any_group& g = rep.map_any[i];
      std::uint64_t invalid = 0;
      for (int k = 0; k < kAnyCount; ++k) invalid += g.s[k].queries - g.s[k].valid();
      s += md_row({rep.map_folder[i], g.name,
                   std::to_string(g.s[kBlock].queries) + " of " + std::to_string(g.file_queries),
                   format_ms(g.s[kAstar].mean_ms()), format_ms(g.s[kTheta].mean_ms()), format_ms(g.s[kLazy].mean_ms()),
                   format_ms(g.s[kBlock].mean_ms()), format_ratio(g.speedup(kAstar)), format_ratio(g.speedup(kTheta)),
                   format_ratio(g.speedup(kLazy)), format_fixed(g.s[kTheta].mean_length(), 3),
                   format_fixed(g.s[kBlock].mean_length(), 3), format_percent(g.vs_theta(g.s[kBlock])),
                   std::to_string(invalid)});
    }
    s += "\n#### Tile and octile Block A\\* against A\\*, per map\n\n";
    s += md_heading({"folder", "map", "rule", "queries", "A\\* ms", "Block A\\* ms", "Block A\\* faster by",
                     "A\\* expanded", "Block A\\* expanded", "mismatches", "invalid"});
    for (std::size_t i = 0; i < rep.map_cell.size(); ++i) {
      const cell_group& g = rep.map_cell[i];
      for (int r = 0; r < 2; ++r) {
        const stats& A = g.s[r == 0 ? kTileA : kOctA];
        const stats& B = g.s[r == 0 ? kTileB : kOctB];
        s += md_row({rep.map_folder[i], g.name, r == 0 ? "tile" : "octile", std::to_string(A.queries),
                     format_ms(A.mean_ms()), format_ms(B.mean_ms()), format_ratio(A.mean_ms() / B.mean_ms()),
                     format_fixed(A.mean_expanded(), 0), format_fixed(B.mean_expanded(), 0),
                     std::to_string(r == 0 ? g.tile_mismatch : g.octile_mismatch),
                     std::to_string((A.queries - A.valid()) + (B.queries - B.valid()))});
      }
    }
    s += "\n";
  }
  return s;
}

}  // namespace

// A time in milliseconds with about three significant digits.
std::string format_ms(double ms) {
  if (!std::isfinite(ms)) return "-";
  if (ms >= 100) return format_fixed(ms, 0);
  if (ms >= 10) return format_fixed(ms, 1);
  if (ms >= 1) return format_fixed(ms, 2);
  return format_fixed(ms, 3);
}

std::string format_seconds(double s) {
  if (s < 60) return format_fixed(s, 1) + " s";
  const long total = std::lround(s);
  return std::to_string(total / 60) + " min " + std::to_string(total % 60) + " s";
}

std::string build_region(const report& rep, const run_facts& info, const suite_args& a, const std::string& svg_link,
                         const runner& run) {
  const bool full = !a.doc;
  std::string s;
  s += std::string(kBeginMarker) + "\n";
  s += "## The paper's benchmark: `" + std::string(kSuiteCommand) + "`\n\n";
  s += "Written by `" + std::string(kSuiteCommand) + "`: with `--doc FILE` it replaces everything between the "
       "`suite:begin` and `suite:end` markers of FILE, and nothing else in it, with the summary below; without "
       "`--doc` it prints the summary on stdout, followed by the full tables (every algorithm's distance, "
       "expansions and time for each density, the empty map, each folder and each map).\n\n";
  s += md_heading({"", ""});
  s += md_row({"machine", info.machine + "; load average " + info.load + " at the start"});
  s += md_row({"date", info.date + "; the run took " + info.duration});
  s += md_row({"command", "`" + info.command + "`"});
  s += md_row({"seed", info.seed});
  s += md_row({"build", info.build});
  s += md_row({"databases", info.databases});
  s += "\n";
  s += "**How it was run.** One thread and one `search_context` for every search, warmed by one untimed run of "
       "every search on the first query of each map. The queries go in chunks of " + std::to_string(a.chunk) +
       " (`--chunk`): each algorithm runs the chunk's queries one after another, then the next algorithm the same "
       "queries, so that all share any drift in the machine's load while each runs warm, as a game's one "
       "pathfinder does (with `--chunk 1` every query is run by every algorithm in turn, and each search starts "
       "in caches the others have filled). Only the search call is timed (`steady_clock`), as `lddb bench` does; "
       "after a chunk's searches every path is checked by the independent checker (`lddb/checker.hpp`). A\\* runs "
       "from the start cell to the goal cell on octile moves; Theta\\*, Lazy Theta\\* and Block A\\* (" +
       (a.any_angle_lddb ? "`" + *a.any_angle_lddb + "` (`--any-angle-lddb`), all three under its rule"
                         : std::string("the shipped `any-angle-4.lddb`, 4×4-cell blocks")) +
       ") run between the cells' top-left corners.\n\n";
  s += "**Heuristics, as in the paper.** The paper uses the Euclidean heuristic for its Table 1 (its text blames "
       "the Euclidean heuristic for Theta\\*'s expansions as obstacles increase, and on the StarCraft maps). It "
       "does not name its A\\*'s heuristic, but its counts fit the Euclidean one: 14,957 cells expanded on the "
       "empty maps, about what our A\\* expands with it (the 0% row of the full tables), and far more than with "
       "the octile heuristic. So every search in the any-angle comparisons here uses the Euclidean heuristic" +
       std::string(a.astar_heuristic == "euclidean"
                       ? ""
                       : " except A\\*, which uses the " + a.astar_heuristic + " heuristic (`--astar-heuristic`)") +
       ". Table 2 uses the zero heuristic for every algorithm, as the paper's does. The tile and octile comparison "
       "(which the paper describes, 2–3× faster than A\\*, but does not tabulate) uses each rule's own heuristic: "
       "Manhattan and octile distance.\n\n";
  if (a.any_angle_lddb)
    s += "**Rules.** Any-angle searches here follow the rule of `--any-angle-lddb`; what follows describes the "
         "default rules. ";
  else
    s += "**Rules.** ";
  s += "The default rules throughout: octile moves do not cut corners and any-angle paths do not "
       "squeeze between two diagonally touching obstacles, so free cells connect only through shared edges. "
       "Random start/goal pairs are drawn uniformly among the free cells and kept only when both cells are in the "
       "same 4-connected component (every algorithm then has a path). Two consequences at high densities, where "
       "our figures part from the paper's (whose rule evidently let paths through such corners): a staircase of "
       "free cells costs 2 per diagonal step to octile moves but √2 to an any-angle path, so octile A\\*'s paths "
       "are far longer than the any-angle ones at 30–40% obstacles; and at 50% the free cells no longer percolate "
       "(the threshold is about 59.3% free), so connected pairs lie close together and the paths are short.\n\n";

  // The data sets, in the order of the tables' rows.
  s += "**Data sets.**";
  if (!rep.table1.empty())
    s += " *random N%* (the paper's Table 1): " + side_label(a.random_side) + " maps (`make_random_map`), each " +
         "cell blocked with probability N%; " + std::to_string(a.maps_per_density) + " map" +
         (a.maps_per_density == 1 ? "" : "s") + " per density × " + std::to_string(a.pairs) +
         " connected random start/goal pairs each (the paper averaged 500 maps × 100 pairs per density).";
  if (rep.table2)
    s += " *" + side_label(a.empty_side) + ", zero h* (its Table 2): one map without obstacles, " +
         std::to_string(a.empty_pairs) + " random start/goal pairs, the zero heuristic for every algorithm.";
  if (!rep.maps_note.empty()) {
    s += " " + rep.maps_note;
  } else {
    s += " The folders: every `*.scen` below `" + rep.maps_dir + "`, grouped by folder. " +
         (rep.limit ? "At most " + std::to_string(rep.limit) +
                          " queries per scenario file (`--limit`), evenly spaced over the file (the middle of each "
                          "of that many equal slices), so every length bucket is represented; `--limit 0` runs them "
                          "all."
                    : std::string("Every query of every file (`--limit 0`).")) +
         " The cells of a query are A\\*'s start and goal; their top-left corners are the any-angle searches'.";
  }
  s += "\n\n";

  // The any-angle summary, against the paper.
  s += "### Any-angle: Block A\\* against the others, and the paper's ratios\n\n";
  s += "Block A\\*'s mean time per query; how many times faster it is than each search (that search's mean time "
       "over Block A\\*'s); and its mean length against Theta\\*'s, raw (every search is asked for its own path, "
       "search_options::smooth = false, although any-angle paths come smoothed by default) and after "
       "`smooth_path` (the paper: at most 0.5% longer, 0.1% after smoothing). The last three columns are the same "
       "ratios computed from the paper's tables (Core 2 at 2.8 GHz; Baldur's Gate II and Dragon Age: Origins from "
       "its game-map rows).\n\n";
  s += md_heading({"data set", "queries", "Block A\\* ms", "vs A\\*", "vs Theta\\*", "vs Lazy Theta\\*",
                   "length vs Theta\\*", "smoothed vs Theta\\*", "paper: vs A\\*", "paper: vs Theta\\*",
                   "paper: length vs Theta\\*"});
  for (std::size_t i = 0; i < rep.table1.size(); ++i)
    s += summary_row(rep.table1[i], "random " + std::to_string(rep.densities[i]) + "%", paper_random(rep.densities[i]));
  if (rep.table2)
    s += summary_row(*rep.table2, side_label(a.empty_side) + ", zero h",
                     a.empty_side == 1000 ? std::optional<paper_row>(kPaperTable2) : std::nullopt);
  for (const any_group& g : rep.folder_any) {
    std::optional<paper_row> paper;
    if (g.name == "bg512") paper = kPaperBG2;
    if (g.name == "dao") paper = kPaperDAO;
    s += summary_row(g, g.name, paper);
  }
  s += "\n";

  // The tile and octile summary, per folder.
  if (!rep.folder_cell.empty()) {
    s += "### Tile and octile: Block A\\* against A\\*\n\n";
    s += "The folders' queries, cells to cells, each rule's own heuristic: the mean time of A\\* and of Block "
         "A\\* per query, and how many times faster Block A\\* is. Block A\\* must return A\\*'s optimal lengths: "
         "*mismatches* counts the queries where it does not.\n\n";
    s += md_heading({"folder", "queries", "tile: A\\* ms", "Block A\\* ms", "faster by", "octile: A\\* ms",
                     "Block A\\* ms", "faster by", "mismatches, tile / octile"});
    for (const cell_group& g : rep.folder_cell) s += cell_summary_row(g);
    s += "\n";
  }

  if (full) s += full_tables(rep, a);

  // Checks.
  std::uint64_t block_longer = 0, theta_longer = 0, lazy_longer = 0, any_queries = 0, invalid = 0, missing = 0;
  std::uint64_t tile_mm = 0, oct_mm = 0, cell_queries = 0;
  auto count_any = [&](const any_group& g) {
    block_longer += g.block_longer;
    theta_longer += g.theta_longer;
    lazy_longer += g.lazy_longer;
    any_queries += g.s[kBlock].queries;
    for (int k = 0; k < kAnyCount; ++k) {
      missing += g.s[k].queries - g.s[k].found;
      invalid += g.s[k].invalid;
    }
    invalid += g.smoothed.invalid;
  };
  for (const any_group& g : rep.table1) count_any(g);
  if (rep.table2) count_any(*rep.table2);
  for (const any_group& g : rep.folder_any) count_any(g);
  for (const cell_group& g : rep.folder_cell) {
    tile_mm += g.tile_mismatch;
    oct_mm += g.octile_mismatch;
    cell_queries += g.s[kTileA].queries;
    for (int k = 0; k < kCellCount; ++k) {
      missing += g.s[k].queries - g.s[k].found;
      invalid += g.s[k].invalid;
    }
  }
  s += "### Checks\n\n";
  s +=
      "- paths missing: " + std::to_string(missing) + "; paths the checker rejected: " + std::to_string(invalid) + "\n";
  s += "- any-angle Block A\\* longer than octile A\\*: " + std::to_string(block_longer) + " of " +
       std::to_string(any_queries) + " queries (must be 0: every octile path is an any-angle path)\n";
  s += "- Theta\\* longer than octile A\\*: " + std::to_string(theta_longer) + " of " + std::to_string(any_queries) +
       "; Lazy Theta\\*: " + std::to_string(lazy_longer) + " (neither is guaranteed never to be)\n";
  if (cell_queries)
    s += "- tile Block A\\* length different from A\\*'s: " + std::to_string(tile_mm) + " of " +
         std::to_string(cell_queries) + "; octile: " + std::to_string(oct_mm) + " of " + std::to_string(cell_queries) +
         "\n";
  if (!run.problems.empty()) {
    s += "- problems (" + std::to_string(run.problem_count) + ", the first " + std::to_string(run.problems.size()) +
         " listed):\n";
    for (const std::string& p : run.problems) s += "  - " + p + "\n";
  }
  s += "\n";
  if (!svg_link.empty()) s += "![Mean time per query, log scale](" + svg_link + ")\n\n";
  s += std::string(kEndMarker) + "\n";
  return s;
}

// The document's text; empty when it does not exist yet.
std::string read_doc(const std::string& doc) {
  std::string text;
  std::error_code ec;
  if (!fs::exists(doc, ec)) return text;
  std::ifstream in(doc, std::ios::binary);
  if (!in) throw failure("--doc " + doc + ": cannot read: " + std::strerror(errno));
  text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (in.bad()) throw failure("--doc " + doc + ": cannot read");
  return text;
}

// `text` with the region between the marker lines replaced by `region` (which carries
// the markers), or with the region appended when the file has none.
std::string splice_region(const std::string& text, const std::string& region, const std::string& doc) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  auto trimmed = [](std::string l) {
    while (!l.empty() && (l.back() == '\r' || l.back() == ' ' || l.back() == '\t')) l.pop_back();
    while (!l.empty() && (l.front() == ' ' || l.front() == '\t')) l.erase(l.begin());
    return l;
  };
  std::optional<std::size_t> begin, end;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string l = trimmed(lines[i]);
    if (l == kBeginMarker && !begin)
      begin = i;
    else if (l == kEndMarker && begin && !end)
      end = i;
    else if (l == kEndMarker && !begin)
      throw failure("--doc " + doc + ":" + std::to_string(i + 1) + ": " + kEndMarker + " comes before any " +
                    kBeginMarker + "; fix the markers by hand");
  }
  if (begin && !end)
    throw failure("--doc " + doc + ":" + std::to_string(*begin + 1) + ": " + kBeginMarker + " has no " + kEndMarker +
                  " after it; fix the markers by hand");
  std::string out;
  if (!begin) {
    out = text;
    if (!out.empty() && out.back() != '\n') out += '\n';
    if (!out.empty()) out += '\n';
    return out + region;
  }
  for (std::size_t i = 0; i < *begin; ++i) out += lines[i] + "\n";
  out += region;
  for (std::size_t i = *end + 1; i < lines.size(); ++i) out += lines[i] + "\n";
  if (!text.empty() && text.back() != '\n' && *end + 1 < lines.size()) out.pop_back();
  return out;
}
}  // namespace lddb::cli
