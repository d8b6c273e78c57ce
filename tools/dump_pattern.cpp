// tools/dump_pattern.cpp: one pattern's entry of a database, as `lddb dump --pattern` shows
// it, read through the public reader (database::cost / path / entry).
#include "dump_pattern.hpp"

#include <cstdio>
#include <map>

#include "cli_common.hpp"
#include "lddb/block_shape.hpp"

namespace lddb::cli {

using json = nlohmann::ordered_json;

std::uint32_t parse_pattern(const std::string& text, const database& db) {
  const std::optional<std::uint64_t> v = parse_unsigned(text);
  if (!v) throw usage_error("--pattern " + text + ": not a pattern code (decimal or 0x hex)");
  const std::uint64_t limit = db.shape().pattern_count();
  if (*v >= limit)
    throw usage_error("--pattern " + text + ": out of range for " + db.path() + " (b=" +
                      std::to_string(db.info().block) + ": codes are 0.." + std::to_string(limit - 1) + ")");
  return static_cast<std::uint32_t>(*v);
}

std::pair<int, int> parse_pair(const std::string& text, const database& db) {
  const std::size_t comma = text.find(',');
  const int n = db.shape().boundary_count();
  const std::string bad = "--pair " + text + ": ";
  if (comma == std::string::npos) throw usage_error(bad + "expected A,B (two boundary indices)");
  const auto a = parse_unsigned(text.substr(0, comma));
  const auto b = parse_unsigned(text.substr(comma + 1));
  if (!a || !b) throw usage_error(bad + "expected A,B (two boundary indices)");
  if (*a >= static_cast<std::uint64_t>(n) || *b >= static_cast<std::uint64_t>(n))
    throw usage_error(bad + "boundary indices of " + db.path() + " are 0.." + std::to_string(n - 1));
  if (*a == *b) throw usage_error(bad + "the two boundary indices must differ");
  return {static_cast<int>(*a), static_cast<int>(*b)};
}

namespace {

std::string label2(const std::string& s) { return s.size() >= 2 ? s : std::string(2 - s.size(), ' ') + s; }

// Cells: b rows of '#'/'.', beside them the boundary index of each boundary cell.
// Vertices: 2b+1 rows alternating vertex rows (boundary index or '+') and cell rows.
// `marks` overrides points: 'A', 'B' for a pair's ends, '*' for its inflection points.
std::vector<std::string> draw_block(const block_shape& shape, std::uint32_t code, const std::map<int, char>& marks) {
  const int b = shape.block();
  const pattern_grid grid{code, b};
  std::vector<std::string> rows;
  auto mark = [&](point p) -> std::optional<char> {
    const auto it = marks.find(shape.point_index(p));
    if (it == marks.end()) return std::nullopt;
    return it->second;
  };
  if (!shape.vertices()) {
    for (int y = 0; y < b; ++y) {
      std::string row;
      for (int x = 0; x < b; ++x) {
        if (x) row += ' ';
        const auto m = mark({x, y});
        row += m ? *m : (grid.blocked(x, y) ? '#' : '.');
      }
      row += "    ";
      for (int x = 0; x < b; ++x) {
        const int bi = shape.boundary_index({x, y});
        row += (x ? " " : "") + label2(bi < 0 ? "." : std::to_string(bi));
      }
      rows.push_back(row);
    }
    return rows;
  }
  for (int y = 0; y <= b; ++y) {
    std::string row;
    for (int x = 0; x <= b; ++x) {
      if (x) row += "  ";
      const int bi = shape.boundary_index({x, y});
      const auto m = mark({x, y});
      row += label2(m ? std::string(1, *m) : bi < 0 ? "+" : std::to_string(bi));
    }
    rows.push_back(row);
    if (y == b) break;
    std::string cells;
    for (int x = 0; x < b; ++x) cells += std::string(3, ' ') + (grid.blocked(x, y) ? '#' : '.');
    rows.push_back(cells);
  }
  return rows;
}

}  // namespace

pattern_detail describe_pattern(const database& db, std::uint32_t code, std::optional<std::pair<int, int>> only) {
  const block_shape& shape = db.shape();
  const int n = shape.boundary_count();
  pattern_detail d;
  d.code = code;
  d.entry = db.entry(code);
  auto pair_of = [&](int a, int b) {
    pair_detail p;
    p.a = a;
    p.b = b;
    p.cost = db.cost(code, a, b);
    p.stored = db.stored_cost(code, a, b);
    inflections inf;
    if (p.cost != kUnreachable && db.path(code, a, b, &inf))
      for (int k = 0; k < inf.count; ++k) p.points.push_back(inf.points[static_cast<std::size_t>(k)]);
    return p;
  };
  std::map<int, char> marks;
  if (only) {
    d.pairs.push_back(pair_of(only->first, only->second));
    const pair_detail& p = d.pairs.back();
    for (const point& q : p.points) marks[shape.point_index(q)] = '*';
    marks[shape.point_index(shape.boundary_point(p.a))] = 'A';
    marks[shape.point_index(shape.boundary_point(p.b))] = 'B';
    d.legend = "A = boundary " + std::to_string(p.a) + ", B = boundary " + std::to_string(p.b) +
               (p.points.empty() ? std::string() : ", * = inflection point");
  } else {
    d.matrix.assign(static_cast<std::size_t>(n), std::vector<cost_t>(static_cast<std::size_t>(n), kUnreachable));
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) d.matrix[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] = db.cost(code, i, j);
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j)
        if (d.matrix[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] != kUnreachable)
          d.pairs.push_back(pair_of(i, j));
  }
  d.picture = draw_block(shape, code, marks);
  return d;
}

namespace {

std::string inflections_text(const std::vector<point>& pts) {
  if (pts.empty()) return "straight";
  std::string s;
  for (const point& p : pts) s += (s.empty() ? "" : " ") + ("(" + std::to_string(p.x) + "," + std::to_string(p.y) + ")");
  return s;
}

}  // namespace

void print_pattern(const database& db, const pattern_detail& d) {
  const block_shape& shape = db.shape();
  const int n = shape.boundary_count();
  std::printf("\npattern %u (0x%0*x): canonical %u, transform %d, cost table %u, path table %u\n", d.code,
              (db.info().block * db.info().block + 3) / 4, d.code, d.entry.canonical_code, d.entry.transform,
              d.entry.cost_id, d.entry.path_id);
  for (const std::string& row : d.picture) std::printf("  %s\n", row.c_str());
  std::printf("\n");
  if (!d.legend.empty()) std::printf("  %s\n", d.legend.c_str());
  std::printf("  %s: %s; # = blocked cell, . = free cell\n", shape.vertices() ? "vertices" : "cells",
              shape.vertices() ? "numbers are boundary indices, + interior vertices"
                               : "left the block, right its boundary indices");

  if (!d.matrix.empty()) {
    std::printf("\ncost matrix (row = from, column = to boundary index; - = unreachable)\n");
    std::vector<std::vector<std::string>> rows;
    rows.push_back({"", ""});
    for (int j = 0; j < n; ++j) rows[0].push_back(std::to_string(j));
    for (int i = 0; i < n; ++i) {
      rows.push_back({"", std::to_string(i)});
      for (int j = 0; j < n; ++j)
        rows.back().push_back(format_cost(d.matrix[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)]));
    }
    std::vector<int> right;
    for (int c = 1; c <= n + 1; ++c) right.push_back(c);
    print_table(stdout, rows, right);
    std::printf("\ninflection points of each reachable pair (block coordinates (x,y))\n");
    if (d.pairs.empty()) std::printf("  no boundary point reaches another\n");
  }
  std::vector<std::vector<std::string>> rows;
  for (const pair_detail& p : d.pairs) {
    rows.push_back({std::to_string(p.a), "->", std::to_string(p.b), "cost", format_cost(p.cost),
                    p.cost == kUnreachable ? "unreachable" : inflections_text(p.points)});
  }
  if (!rows.empty()) {
    if (d.matrix.empty()) std::printf("\n");
    for (auto& r : rows) r.insert(r.begin(), "");
    print_table(stdout, rows, {1, 3});
  }
}

json pattern_json(const database& db, const pattern_detail& d) {
  const block_shape& shape = db.shape();
  json j;
  j["code"] = d.code;
  j["canonical_code"] = d.entry.canonical_code;
  j["canonical_index"] = d.entry.canonical_index;
  j["transform"] = d.entry.transform;
  j["cost_id"] = d.entry.cost_id;
  j["path_id"] = d.entry.path_id;
  j["picture"] = d.picture;
  json cells = json::array();
  for (int y = 0; y < shape.block(); ++y) {
    std::string row;
    for (int x = 0; x < shape.block(); ++x) row += pattern_grid{d.code, shape.block()}.blocked(x, y) ? '#' : '.';
    cells.push_back(row);
  }
  j["cells"] = cells;
  json boundary = json::array();
  for (int i = 0; i < shape.boundary_count(); ++i) {
    const point p = shape.boundary_point(i);
    boundary.push_back({p.x, p.y});
  }
  j["boundary_points"] = boundary;
  if (!d.matrix.empty()) {
    json m = json::array();
    for (const auto& row : d.matrix) {
      json r = json::array();
      for (cost_t c : row) r.push_back(c == kUnreachable ? json(nullptr) : json(cost_to_double(c)));
      m.push_back(r);
    }
    j["costs"] = m;
  }
  json pairs = json::array();
  for (const pair_detail& p : d.pairs) {
    json pj;
    pj["a"] = p.a;
    pj["b"] = p.b;
    pj["reachable"] = p.cost != kUnreachable;
    pj["cost"] = p.cost == kUnreachable ? json(nullptr) : json(cost_to_double(p.cost));
    pj["cost_units"] = p.cost == kUnreachable ? json(nullptr) : json(p.cost);
    pj["stored"] = p.stored;
    json pts = json::array();
    for (const point& q : p.points) pts.push_back({q.x, q.y});
    pj["inflections"] = pts;
    pairs.push_back(pj);
  }
  j["pairs"] = pairs;
  return j;
}

}  // namespace lddb::cli
