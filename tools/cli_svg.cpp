// SVG pictures of a map with searches drawn on it (render_svg of cli_search.hpp), for
// `lddb render` and `lddb demo`.
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "cli_search.hpp"

namespace lddb::cli {

namespace {

// The searches' colours: Okabe and Ito's palette, told apart with every common colour
// vision deficiency (blue, vermillion, bluish green, reddish purple, sky blue, orange).
// Its yellow and black are kept for the start and goal markers, which no search uses.
const char* const kColours[] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#56b4e9", "#e69f00"};
constexpr int kColourCount = sizeof kColours / sizeof kColours[0];
const char* const kStartColour = "#f0e442";  // yellow disc
const char* const kGoalColour = "#000000";   // black square
// Hatching angles of the expanded areas: overlapping areas cross-hatch instead of
// blending into one tint.
constexpr int kHatchAngles[] = {45, -45, 0, 90, 22, -68};

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

// The side of the unit's square in cells: tile and octile at least one cell, any-angle 0 for a point.
int unit_side(const search_setup& s) { return s.movement.on_vertices() ? s.unit().size : std::max(s.unit().size, 1); }

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
  // One hatching per search, in its colour, about 6 px apart whatever the scale.
  s += "<defs>";
  for (std::size_t k = 0; k < pic.searches.size(); ++k) {
    const double gap = 6.0 / scale;
    s += "<pattern id=\"expanded-" + std::to_string(k) + "\" patternUnits=\"userSpaceOnUse\" width=\"" + num(gap) +
         "\" height=\"" + num(gap) + "\" patternTransform=\"rotate(" +
         std::to_string(kHatchAngles[k % std::size(kHatchAngles)]) + ")\"><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"" +
         num(gap) + "\" stroke=\"" + kColours[k % kColourCount] + "\" stroke-width=\"" + num(2.0 / scale) +
         "\" stroke-opacity=\"0.75\"/></pattern>";
  }
  s += "</defs>\n";
  s += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  s += "<g transform=\"scale(" + num(scale) + ")\" shape-rendering=\"crispEdges\">\n";
  // free cells
  s += "<rect width=\"" + std::to_string(w) + "\" height=\"" + std::to_string(h) + "\" fill=\"#f4f1ea\"/>\n";
  // what each search expanded, hatched in its colour (under the blocked cells, which stay clear)
  for (std::size_t k = 0; k < pic.searches.size(); ++k) {
    const svg_search& sr = pic.searches[k];
    if (!sr.run || sr.run->result.expanded.empty()) continue;
    const bool blocks = uses_database(sr.setup->algo) && !sr.run->jumps;
    const double unit = blocks ? block_size_for(*sr.setup) : 1.0;
    const double offset = (!blocks && sr.setup->movement.on_vertices()) ? -0.5 : 0.0;
    s += "<g fill=\"url(#expanded-" + std::to_string(k) + ")\">";
    merged_squares(&s, sr.run->result.expanded, unit, offset);
    s += "</g>\n";
  }
  // blocked cells, runs per row merged down the rows
  s += "<g fill=\"#3b3b3b\">";
  {
    const bool ground = pic.terrain == movement_class::ground();
    const auto closed = [&](int x, int y) { return ground ? map.blocked(x, y) : !pic.terrain.contains(map.terrain_at(x, y)); };
    rect_merger merger(&s);
    for (int y = 0; y < h; ++y) {
      std::vector<std::pair<int, int>> runs;
      int x = 0;
      while (x < w) {
        if (!closed(x, y)) {
          ++x;
          continue;
        }
        const int x0 = x;
        while (x < w && closed(x, y)) ++x;
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
  // the units' footprints: a translucent square at each point of the path
  bool footprints = false;
  for (std::size_t k = 0; k < pic.searches.size(); ++k) {
    const svg_search& sr = pic.searches[k];
    const int side = unit_side(*sr.setup);
    if (!sr.run || sr.run->path.empty() || sr.setup->default_unit() || side == 0) continue;
    footprints = true;
    const char* colour = kColours[k % kColourCount];
    s += "<g class=\"footprint\" fill=\"" + std::string(colour) + "\" fill-opacity=\"0.12\" stroke=\"" + colour +
         "\" stroke-opacity=\"0.5\" stroke-width=\"" + num(1.0 / scale) + "\"><title>" +
         xml_escape(sr.label + ": the unit's footprint, " + unit_text(sr.setup->movement, sr.setup->unit())) + "</title>";
    for (const point& p : sr.run->path)
      s += "<rect x=\"" + std::to_string(p.x) + "\" y=\"" + std::to_string(p.y) + "\" width=\"" + std::to_string(side) +
           "\" height=\"" + std::to_string(side) + "\"/>";
    s += "</g>\n";
  }
  // paths, through the centre of the unit's square (a cell's centre, or the corner itself)
  for (std::size_t k = 0; k < pic.searches.size(); ++k) {
    const svg_search& sr = pic.searches[k];
    if (!sr.run || sr.run->path.empty()) continue;
    const double off = unit_side(*sr.setup) / 2.0;
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
  // start and goal: a yellow disc and a black square, colours and shapes no search uses
  const double radius = std::clamp(scale * 0.35, 5.0, 10.0);
  auto start_marker = [&](double cx, double cy, double r) {
    return "<circle cx=\"" + num(cx) + "\" cy=\"" + num(cy) + "\" r=\"" + num(r) + "\" fill=\"" + kStartColour +
           "\" stroke=\"#000000\" stroke-width=\"1.5\">";
  };
  auto goal_marker = [&](double cx, double cy, double r) {
    return "<rect x=\"" + num(cx - r) + "\" y=\"" + num(cy - r) + "\" width=\"" + num(2 * r) + "\" height=\"" +
           num(2 * r) + "\" fill=\"" + kGoalColour + "\" stroke=\"#ffffff\" stroke-width=\"1.5\">";
  };
  const double moff = pic.vertices ? 0.0 : 0.5;
  if (pic.start)
    s += start_marker((pic.start->x + moff) * scale, (pic.start->y + moff) * scale, radius) + "<title>start " +
         point_text(*pic.start) + "</title></circle>\n";
  if (pic.goal)
    s += goal_marker((pic.goal->x + moff) * scale, (pic.goal->y + moff) * scale, radius) + "<title>goal " +
         point_text(*pic.goal) + "</title></rect>\n";
  // legend
  double y = ph + 20;
  s += "<text x=\"8\" y=\"" + num(y) + "\" font-weight=\"bold\">" + xml_escape(pic.title) + "</text>\n";
  y += line;
  for (std::size_t k = 0; k < pic.searches.size(); ++k) {
    const svg_search& sr = pic.searches[k];
    const char* colour = kColours[k % kColourCount];
    s += "<line x1=\"8\" x2=\"36\" y1=\"" + num(y - 4) + "\" y2=\"" + num(y - 4) + "\" stroke=\"" + colour +
         "\" stroke-width=\"3\"/>";
    // The swatch: the hatching drawn at the picture's own scale.
    s += "<g transform=\"translate(40," + num(y - 11) + ") scale(" + num(scale) + ")\"><rect width=\"" + num(12 / scale) +
         "\" height=\"" + num(12 / scale) + "\" fill=\"url(#expanded-" + std::to_string(k) + ")\" stroke=\"" + colour +
         "\" stroke-width=\"" + num(1 / scale) + "\"/></g>";
    std::string text = sr.label;
    if (sr.run) {
      const query_run& r = *sr.run;
      const bool blocks = uses_database(sr.setup->algo) && !r.jumps;
      if (r.result.found()) {
        // cost: the rule's, as checked; length: Euclidean, of the waypoints.
        text += ": cost " + format_length(r.length) + ", length " + format_length(path_length(r.path)) +
                ", expanded " + std::to_string(r.result.stats.expanded) +
                (blocks ? " nodes" : r.jumps || sr.setup->algo == algorithm::jps ? " jump points" : (sr.setup->movement.on_vertices() ? " vertices" : " cells")) + ", " +
                time_text(r) +
                (r.check.valid ? ", valid" : ", INVALID: " + r.check.error);
      } else {
        text += std::string(": ") + search_status_name(r.result.status) + " " + r.result.message;
      }
    }
    s += "<text x=\"58\" y=\"" + num(y) + "\">" + xml_escape(text) + "</text>\n";
    y += line;
  }
  // The key: the markers as drawn, then the rest in words.
  double x = 8;
  if (pic.start) {
    s += start_marker(x + 6, y - 4, 6) + "</circle><text x=\"" + num(x + 16) + "\" y=\"" + num(y) + "\">start</text>";
    x += 56;
  }
  if (pic.goal) {
    s += goal_marker(x + 6, y - 4, 5) + "</rect><text x=\"" + num(x + 16) + "\" y=\"" + num(y) + "\">goal</text>";
    x += 52;
  }
  std::string key = pic.terrain == movement_class::ground() ? "dark: blocked; light: free"
                                                            : "dark: closed to class " + pic.terrain.name() + "; light: open";
  if (footprints) key += "; squares: the unit at each path point";
  if (!pic.searches.empty()) key += "; hatched in a search's colour: what it expanded";
  if (pic.block_lines && pic.block_lines * scale >= 6)
    key += "; grid: " + std::to_string(pic.block_lines) + "x" + std::to_string(pic.block_lines) + " blocks";
  s += "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" fill=\"#555555\">" + xml_escape(key) + "</text>\n";
  s += "</svg>\n";
  return s;
}

}  // namespace lddb::cli
