// bench/suite_chart.cpp: the suite's SVG chart: grouped bars of the mean time per query, one
// panel under the other, log-scale axes.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "suite.hpp"

namespace lddb::cli {

namespace {

std::string svg_num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  std::string s = buf;
  if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
  return s;
}

const char* const kChartColours[] = {"#4e79a7", "#e15759", "#f28e2b", "#59a14f", "#76b7b2", "#b07aa1"};

}  // namespace

std::string chart_svg(const std::string& title, const std::vector<chart_panel>& panels, const std::string& note) {
  const double left = 78, right = 24, bar = 13, gap = 22, plot_h = 250, top_pad = 58, bottom_pad = 56;
  double width = 640;
  for (const chart_panel& p : panels)
    width =
        std::max(width, left + right +
                            static_cast<double>(p.groups.size()) * (static_cast<double>(p.series.size()) * bar + gap));
  const double panel_h = top_pad + plot_h + bottom_pad;
  const double height = 44 + panel_h * static_cast<double>(std::max<std::size_t>(panels.size(), 1)) + 30;
  std::string s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  s += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + svg_num(width) + "\" height=\"" + svg_num(height) +
       "\" viewBox=\"0 0 " + svg_num(width) + " " + svg_num(height) +
       "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  s += "<title>" + xml_escape(title) + "</title>\n";
  s += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  s += "<text x=\"" + svg_num(width / 2) + "\" y=\"26\" text-anchor=\"middle\" font-size=\"16\" font-weight=\"bold\">" +
       xml_escape(title) + "</text>\n";
  double y0 = 44;
  if (panels.empty())
    s += "<text x=\"" + svg_num(width / 2) +
         "\" y=\"80\" text-anchor=\"middle\">Nothing was measured (every part of the "
         "suite was skipped).</text>\n";
  for (const chart_panel& p : panels) {
    double lo = INFINITY, hi = -INFINITY;
    for (const chart_group& g : p.groups)
      for (double v : g.ms)
        if (std::isfinite(v) && v > 0) {
          lo = std::min(lo, v);
          hi = std::max(hi, v);
        }
    if (!std::isfinite(lo)) lo = hi = 1;
    const int dlo = static_cast<int>(std::floor(std::log10(lo))), dhi = static_cast<int>(std::ceil(std::log10(hi * 4)));
    const double plot_top = y0 + top_pad, plot_bottom = plot_top + plot_h;
    auto ypos = [&](double v) { return plot_bottom - (std::log10(v) - dlo) / (dhi - dlo) * plot_h; };
    s += "<g>\n<text x=\"" + svg_num(left) + "\" y=\"" + svg_num(y0 + 18) +
         "\" font-size=\"14\" font-weight=\"bold\">" + xml_escape(p.title) + "</text>\n";
    double lx = left;
    for (std::size_t k = 0; k < p.series.size(); ++k) {
      s += "<rect x=\"" + svg_num(lx) + "\" y=\"" + svg_num(y0 + 28) + "\" width=\"12\" height=\"12\" fill=\"" +
           kChartColours[k % 6] + "\"/>";
      s += "<text x=\"" + svg_num(lx + 16) + "\" y=\"" + svg_num(y0 + 38) + "\">" + xml_escape(p.series[k]) +
           "</text>\n";
      lx += 16 + 7.0 * static_cast<double>(p.series[k].size()) + 22;
    }
    // decades
    for (int d = dlo; d <= dhi; ++d) {
      const double y = ypos(std::pow(10.0, d));
      s += "<line x1=\"" + svg_num(left) + "\" x2=\"" + svg_num(width - right) + "\" y1=\"" + svg_num(y) + "\" y2=\"" +
           svg_num(y) + "\" stroke=\"#d0d0d0\"/>";
      const std::string label = d >= 0 ? format_fixed(std::pow(10.0, d), 0) : format_fixed(std::pow(10.0, d), -d);
      s += "<text x=\"" + svg_num(left - 6) + "\" y=\"" + svg_num(y + 4) + "\" text-anchor=\"end\">" + label +
           "</text>\n";
    }
    s += "<text transform=\"translate(" + svg_num(18) + " " + svg_num((plot_top + plot_bottom) / 2) +
         ") rotate(-90)\" text-anchor=\"middle\">ms per query (log scale)</text>\n";
    s += "<line x1=\"" + svg_num(left) + "\" x2=\"" + svg_num(left) + "\" y1=\"" + svg_num(plot_top) + "\" y2=\"" +
         svg_num(plot_bottom) + "\" stroke=\"#333333\"/>";
    s += "<line x1=\"" + svg_num(left) + "\" x2=\"" + svg_num(width - right) + "\" y1=\"" + svg_num(plot_bottom) +
         "\" y2=\"" + svg_num(plot_bottom) + "\" stroke=\"#333333\"/>\n";
    // A shared sublabel ("random 500²" under each density of Table 1) is written once,
    // centred under its run of groups; the others in a smaller font, so that neighbouring
    // ones ("10418 queries") do not run into each other.
    const double group_w = static_cast<double>(p.series.size()) * bar + gap;
    std::vector<std::size_t> run(p.groups.size(), 1);  // groups sharing the sublabel from here on
    for (std::size_t i = p.groups.size(); i-- > 1;)
      if (p.groups[i].shared_sublabel && p.groups[i - 1].shared_sublabel && !p.groups[i].new_section &&
          p.groups[i].sublabel == p.groups[i - 1].sublabel)
        run[i - 1] = run[i] + 1;
    double gx = left + gap / 2;
    for (std::size_t gi = 0; gi < p.groups.size(); ++gi) {
      const chart_group& g = p.groups[gi];
      const bool run_start = gi == 0 || run[gi - 1] == 1;
      if (g.new_section && &g != &p.groups.front())
        s += "<line x1=\"" + svg_num(gx - gap / 2) + "\" x2=\"" + svg_num(gx - gap / 2) + "\" y1=\"" +
             svg_num(plot_top) + "\" y2=\"" + svg_num(plot_bottom + 34) +
             "\" stroke=\"#999999\" stroke-dasharray=\"4 3\"/>\n";
      for (std::size_t k = 0; k < p.series.size(); ++k) {
        const double v = k < g.ms.size() ? g.ms[k] : NAN;
        const double x = gx + static_cast<double>(k) * bar;
        if (!(std::isfinite(v) && v > 0)) continue;
        const double y = std::min(ypos(v), plot_bottom - 1);
        s += "<rect x=\"" + svg_num(x) + "\" y=\"" + svg_num(y) + "\" width=\"" + svg_num(bar - 1) + "\" height=\"" +
             svg_num(plot_bottom - y) + "\" fill=\"" + kChartColours[k % 6] + "\"><title>" +
             xml_escape(g.label + (g.sublabel.empty() ? "" : " " + g.sublabel) + ", " + p.series[k] + ": " +
                        format_ms(v) + " ms") +
             "</title></rect>";
        s += "<text font-size=\"9\" transform=\"translate(" + svg_num(x + bar / 2 + 3) + " " + svg_num(y - 3) +
             ") rotate(-90)\">" + format_ms(v) + "</text>\n";
      }
      const double cx = gx + static_cast<double>(p.series.size()) * bar / 2;
      s += "<text x=\"" + svg_num(cx) + "\" y=\"" + svg_num(plot_bottom + 16) + "\" text-anchor=\"middle\">" +
           xml_escape(g.label) + "</text>";
      if (!g.sublabel.empty() && run_start) {
        const double span_cx = cx + static_cast<double>(run[gi] - 1) * group_w / 2;
        s += "<text x=\"" + svg_num(span_cx) + "\" y=\"" + svg_num(plot_bottom + 30) +
             "\" text-anchor=\"middle\" fill=\"#555555\" font-size=\"" + (run[gi] > 1 ? "11" : "9") + "\">" +
             xml_escape(g.sublabel) + "</text>";
      }
      s += "\n";
      gx += group_w;
    }
    s += "</g>\n";
    y0 += panel_h;
  }
  s += "<text x=\"8\" y=\"" + svg_num(height - 10) + "\" fill=\"#555555\" font-size=\"11\">" + xml_escape(note) +
       "</text>\n";
  s += "</svg>\n";
  return s;
}

}  // namespace lddb::cli
