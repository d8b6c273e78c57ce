// tools/cli_search.cpp: set-up, timed queries, checking and SVG for the search commands.
#include "cli_search.hpp"
#include "lddb/map_file.hpp"
#include "lddb/segments.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>

namespace lddb::cli {

const char* const kSearchRulesHelp = R"(Algorithms: block-astar (the default; needs a database), astar (tile, octile),
  theta and lazy-theta (any-angle). The rule comes from --lddb when given, else --rule,
  else octile (any-angle for theta and lazy-theta). Block A* opens --lddb, else the
  shipped database <data dir>/<rule>-4.lddb ($LDDB_DATA_DIR, else the source tree's lddb/).
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
    case algorithm::theta:
      return "theta";
    case algorithm::lazy_theta:
      return "lazy-theta";
  }
  return "?";
}

algorithm parse_algorithm(const std::string& text, const std::string& option) {
  for (algorithm a : {algorithm::block_astar, algorithm::astar, algorithm::theta, algorithm::lazy_theta})
    if (text == algorithm_name(a)) return a;
  throw usage_error(option + ": unknown algorithm '" + text + "' (expected block-astar, astar, theta or lazy-theta)");
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
  const bool fixed = algo == algorithm::block_astar && movement.on_vertices() && !open_squares;
  char weighted[48] = "";
  if (weight != 1) std::snprintf(weighted, sizeof weighted, ", weight %g", weight);
  return std::string(algorithm_name(algo)) + " (" + movement.name() + (fixed ? ", fixed blocks" : "") + weighted + ")";
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
  s.smooth = o.smooth;
  s.open_squares = !o.fixed_blocks;
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
    case algorithm::theta:
    case algorithm::lazy_theta:
      if (!s.movement.on_vertices())
        throw usage_error(std::string("rule mismatch: --algo ") + algorithm_name(algo) +
                          " searches any-angle paths between corners, not " + s.movement.name() +
                          "; use --algo astar or block-astar");
      break;
  }
  s.heuristic = o.heuristic ? parse_heuristic(*o.heuristic, "--heuristic") : default_heuristic(s.movement);
  if (o.weight) s.weight = parse_weight(*o.weight, "--weight");
  return s;
}

int block_size_for(const search_setup& s) { return s.db ? s.db->info().block : 4; }

grid_map load_map_or_fail(const std::string& path, int block) {
  std::string error;
  std::optional<grid_map> g = load_map(path, &error, block);
  if (!g) throw failure(error);
  return std::move(*g);
}

std::string endpoint_problem(const rule& r, const grid_map& map, point p) {
  const std::string size = std::to_string(map.width()) + "x" + std::to_string(map.height());
  if (r.on_vertices()) {
    if (p.x < 0 || p.y < 0 || p.x > map.width() || p.y > map.height())
      return "vertex " + point_text(p) + " is off the " + size + " map (corners run 0.." + std::to_string(map.width()) +
             ", 0.." + std::to_string(map.height()) + ")";
    if (!vertex_usable(map, p.x, p.y)) return "vertex " + point_text(p) + " is surrounded by blocked cells";
    return "";
  }
  if (!map.in_bounds(p.x, p.y)) return "cell " + point_text(p) + " is off the " + size + " map";
  if (map.blocked(p.x, p.y)) return "cell " + point_text(p) + " is blocked";
  return "";
}

// ----------------------------------------------------------------------------- one query

query_run run_query(const search_setup& s, const grid_map& map, point start, point goal, search_context& ctx,
                    bool record_expanded) {
  query_run q;
  run_search(s, map, start, goal, ctx, q, record_expanded);
  finish_query(s, map, start, goal, q);
  return q;
}

void run_search(const search_setup& s, const grid_map& map, point start, point goal, search_context& ctx,
                query_run& q, bool record_expanded) {
  search_options options(s.heuristic);
  options.record_expanded = record_expanded;
  options.open_squares = s.open_squares;
  options.weight = s.weight;
  if (s.algo == algorithm::block_astar) options.expected_rule = s.movement;
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  switch (s.algo) {
    case algorithm::block_astar:
      block_astar(*s.db, map, start, goal, options, ctx, q.result);
      break;
    case algorithm::astar:
      astar(s.movement, map, start, goal, options, ctx, q.result);
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

void finish_query(const search_setup& s, const grid_map& map, point start, point goal, query_run& q) {
  using clock = std::chrono::steady_clock;
  q.smooth_ns = 0;
  if (!q.result.found()) {
    q.path.clear();
    q.check = check_result{};
    q.check.valid = false;
    q.check.error = std::string("no path (") + search_status_name(q.result.status) + ")";
    q.length = NAN;
    return;
  }
  if (s.smooth) {
    const auto t2 = clock::now();
    q.path = smooth_path(s.movement, map, q.result.path);
    q.smooth_ns = static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(clock::now() - t2).count());
  } else {
    q.path = q.result.path;
  }
  // Smoothed cell paths keep only their turning points: straight runs of unit moves.
  const cell_steps steps = s.smooth ? cell_steps::runs : cell_steps::unit;
  q.check = check_path(s.movement, map, start, goal, q.path, steps);
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

namespace {

const char* const kColours[] = {"#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2"};
constexpr int kColourCount = sizeof kColours / sizeof kColours[0];


std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  std::string s = buf;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

// Rectangles covering a set of unit squares given row by row as runs [x0, x1): equal runs
// in consecutive rows merge into one taller rectangle, which keeps a 512x512 map small.
class rect_merger {
 public:
  explicit rect_merger(std::string* out, double unit = 1.0, double offset = 0.0)
      : out_(out), unit_(unit), offset_(offset) {}
  void row(int y, const std::vector<std::pair<int, int>>& runs) {
    std::map<std::pair<int, int>, int> next;  // run -> first row
    const bool adjacent = last_row_ == y - 1;
    for (const auto& r : runs) {
      const auto it = adjacent ? open_.find(r) : open_.end();
      next[r] = it != open_.end() ? it->second : y;
      if (it != open_.end()) open_.erase(it);
    }
    flush_all(last_row_ + 1);  // the rectangles that do not go on into this row
    open_ = std::move(next);
    last_row_ = y;
  }
  void finish() { flush_all(last_row_ + 1); }

 private:
  void flush_all(int end_row) {
    for (const auto& [run, first] : open_)
      *out_ += "<rect x=\"" + num(run.first * unit_ + offset_) + "\" y=\"" + num(first * unit_ + offset_) + "\" width=\"" +
               num((run.second - run.first) * unit_) + "\" height=\"" + num((end_row - first) * unit_) + "\"/>";
    open_.clear();
  }
  std::string* out_;
  double unit_, offset_;
  std::map<std::pair<int, int>, int> open_;
  int last_row_ = -2;
};

// Squares (cells, blocks or vertices) as merged rectangles; `unit` is the side of one,
// `offset` shifts them (vertices are centred on the corner).
void merged_squares(std::string* out, std::vector<point> pts, double unit, double offset) {
  std::sort(pts.begin(), pts.end(), [](point a, point b) { return a.y != b.y ? a.y < b.y : a.x < b.x; });
  pts.erase(std::unique(pts.begin(), pts.end()), pts.end());
  rect_merger merger(out, unit, offset);
  std::size_t i = 0;
  while (i < pts.size()) {
    const int y = pts[i].y;
    std::vector<std::pair<int, int>> runs;
    while (i < pts.size() && pts[i].y == y) {
      const int x0 = pts[i].x;
      int x1 = x0 + 1;
      ++i;
      while (i < pts.size() && pts[i].y == y && pts[i].x == x1) {
        ++x1;
        ++i;
      }
      runs.push_back({x0, x1});
    }
    merger.row(y, runs);
  }
  merger.finish();
}

}  // namespace

std::string render_svg(const svg_picture& pic) {
  const grid_map& map = *pic.map;
  const int w = map.width(), h = map.height();
  // Pixels per cell: the larger side near 1024 px, at least 1 and at most 40.
  const double scale = std::clamp(1024.0 / std::max(w, h), 1.0, 40.0);
  const double pw = w * scale, ph = h * scale;
  const double line = 18, legend_h = 24 + line * (static_cast<double>(pic.searches.size()) + 2);
  const double total_w = std::max(pw, 560.0);
  std::string s;
  s.reserve(1 << 20);
  s += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  s += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(total_w) + "\" height=\"" + num(ph + legend_h) +
       "\" viewBox=\"0 0 " + num(total_w) + " " + num(ph + legend_h) + "\" font-family=\"sans-serif\" font-size=\"13\">\n";
  s += "<title>" + xml_escape(pic.title) + "</title>\n";
  s += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  s += "<g transform=\"scale(" + num(scale) + ")\" shape-rendering=\"crispEdges\">\n";
  // free cells
  s += "<rect width=\"" + std::to_string(w) + "\" height=\"" + std::to_string(h) + "\" fill=\"#f4f1ea\"/>\n";
  // what each search expanded, in its colour (under the blocked cells, which stay clear)
  for (std::size_t k = 0; k < pic.searches.size(); ++k) {
    const svg_search& sr = pic.searches[k];
    if (!sr.run || sr.run->result.expanded.empty()) continue;
    const bool blocks = sr.setup->algo == algorithm::block_astar;
    const double unit = blocks ? block_size_for(*sr.setup) : 1.0;
    const double offset = (!blocks && sr.setup->movement.on_vertices()) ? -0.5 : 0.0;
    s += "<g fill=\"" + std::string(kColours[k % kColourCount]) + "\" fill-opacity=\"0.16\">";
    merged_squares(&s, sr.run->result.expanded, unit, offset);
    s += "</g>\n";
  }
  // blocked cells, runs per row merged down the rows
  s += "<g fill=\"#3b3b3b\">";
  {
    rect_merger merger(&s);
    for (int y = 0; y < h; ++y) {
      std::vector<std::pair<int, int>> runs;
      int x = 0;
      while (x < w) {
        if (!map.blocked(x, y)) {
          ++x;
          continue;
        }
        const int x0 = x;
        while (x < w && map.blocked(x, y)) ++x;
        runs.push_back({x0, x});
      }
      merger.row(y, runs);
    }
    merger.finish();
  }
  s += "</g>\n";
  // block boundaries, faint; left out when blocks would be under 6 pixels wide
  if (pic.block_lines > 0 && pic.block_lines * scale >= 6) {
    const int b = pic.block_lines;
    s += "<path fill=\"none\" stroke=\"#7f93ad\" stroke-opacity=\"0.45\" stroke-width=\"" + num(1.0 / scale) + "\" d=\"";
    for (int x = 0; x <= w; x += b) s += "M" + std::to_string(x) + " 0V" + std::to_string(h);
    for (int y = 0; y <= h; y += b) s += "M0 " + std::to_string(y) + "H" + std::to_string(w);
    s += "\"/>\n";
  }
  // paths
  for (std::size_t k = 0; k < pic.searches.size(); ++k) {
    const svg_search& sr = pic.searches[k];
    if (!sr.run || sr.run->path.empty()) continue;
    const double off = sr.setup->movement.on_vertices() ? 0.0 : 0.5;
    // widths in map units: the group is scaled, and not every renderer honours
    // vector-effect="non-scaling-stroke"
    s += "<polyline fill=\"none\" stroke=\"" + std::string(kColours[k % kColourCount]) + "\" stroke-width=\"" +
         num(3.0 / scale) + "\" stroke-opacity=\"0.9\" stroke-linejoin=\"round\" stroke-linecap=\"round\"";
    if (k > 0) s += " stroke-dasharray=\"" + num((6.0 + 2.0 * static_cast<double>(k)) / scale) + " " + num(4.0 / scale) + "\"";
    s += " points=\"";
    for (std::size_t i = 0; i < sr.run->path.size(); ++i)
      s += (i ? " " : "") + num(sr.run->path[i].x + off) + "," + num(sr.run->path[i].y + off);
    s += "\"><title>" + xml_escape(sr.label) + "</title></polyline>\n";
  }
  s += "</g>\n";
  // start and goal
  const double radius = std::clamp(scale * 0.35, 5.0, 10.0);
  auto marker = [&](point p, const char* fill, const char* name) {
    const double off = pic.vertices ? 0.0 : 0.5;
    s += "<circle cx=\"" + num((p.x + off) * scale) + "\" cy=\"" + num((p.y + off) * scale) + "\" r=\"" + num(radius) +
         "\" fill=\"" + fill + "\" stroke=\"#000000\" stroke-width=\"1.5\"><title>" + name + " " + point_text(p) +
         "</title></circle>\n";
  };
  if (pic.start) marker(*pic.start, "#2ecc40", "start");
  if (pic.goal) marker(*pic.goal, "#ff4136", "goal");
  // legend
  double y = ph + 20;
  s += "<text x=\"8\" y=\"" + num(y) + "\" font-weight=\"bold\">" + xml_escape(pic.title) + "</text>\n";
  y += line;
  for (std::size_t k = 0; k < pic.searches.size(); ++k) {
    const svg_search& sr = pic.searches[k];
    const char* colour = kColours[k % kColourCount];
    s += "<line x1=\"8\" x2=\"36\" y1=\"" + num(y - 4) + "\" y2=\"" + num(y - 4) + "\" stroke=\"" + colour +
         "\" stroke-width=\"3\"/>";
    s += "<rect x=\"40\" y=\"" + num(y - 11) + "\" width=\"12\" height=\"12\" fill=\"" + colour +
         "\" fill-opacity=\"0.16\" stroke=\"" + colour + "\"/>";
    std::string text = sr.label;
    if (sr.run) {
      const query_run& r = *sr.run;
      const bool blocks = sr.setup->algo == algorithm::block_astar;
      if (r.result.found()) {
        // cost: the rule's, as checked; length: Euclidean, of the waypoints.
        text += ": cost " + format_length(r.length) + ", length " + format_length(path_length(r.path)) +
                ", expanded " + std::to_string(r.result.stats.expanded) +
                (blocks ? " nodes" : (sr.setup->movement.on_vertices() ? " vertices" : " cells")) + ", " +
                format_fixed(static_cast<double>(r.search_ns) / 1000.0, 1) + " \u00b5s" +
                (r.check.valid ? ", valid" : ", INVALID: " + r.check.error);
      } else {
        text += std::string(": ") + search_status_name(r.result.status) + " " + r.result.message;
      }
    }
    s += "<text x=\"58\" y=\"" + num(y) + "\">" + xml_escape(text) + "</text>\n";
    y += line;
  }
  std::string key = "dark: blocked; light: free";
  if (pic.start) key += "; green: start";
  if (pic.goal) key += "; red: goal";
  if (!pic.searches.empty()) key += "; shaded: expanded";
  if (pic.block_lines && pic.block_lines * scale >= 6)
    key += "; grid: " + std::to_string(pic.block_lines) + "x" + std::to_string(pic.block_lines) + " blocks";
  s += "<text x=\"8\" y=\"" + num(y) + "\" fill=\"#555555\">" + xml_escape(key) + "</text>\n";
  s += "</svg>\n";
  return s;
}

}  // namespace lddb::cli
