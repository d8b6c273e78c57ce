// brute_force_test: the generator and the reader against the independent oracle.
//
//   OracleSelf*     the oracle's own geometry checked a third way, and the block_shape
//                   conventions it borrows checked against their documentation
//   HandCases       small patterns with answers worked out by hand: oracle, solve_pattern
//                   and a generated database must all give them
//   Exhaustive      b = 2, 3, 4, every rule, every pattern code, every ordered pair of
//                   boundary points: cost, reachability, path legality and length
//   RandomB5        b = 5, 100,000 random patterns per rule through solve_pattern
//   Symmetry        solve_pattern(T(code)) at (T(a), T(b)) == solve_pattern(code) at (a, b)
//
// Tolerances: tile costs are exact integers; octile costs match within 1e-9 (the diagonal
// is the rule's fixed-point value); any-angle costs are stored in 16-bit fixed point, so a
// stored cost matches within half a quantum (2^-scale_log2 / 2) + 1e-9, and a stored path's
// exact length matches the true optimum within 1e-7.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <ostream>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "lddb/format.hpp"
#include "lddb/generator.hpp"
#include "lddb/cost.hpp"
#include "lddb/rule.hpp"
#include "lddb/segments.hpp"
#include "lddb/point.hpp"
#include "lddb/block_shape.hpp"
#include "oracle.hpp"

namespace {

using lddb::point;
using oracle::kInf;

// ----------------------------------------------------------------------------- rule variants

struct variant {
  const char* id;
  lddb::rule rule;
};

const std::vector<variant>& variants() {
  static const std::vector<variant> v = [] {
    const auto d15 = lddb::parse_diagonal_cost("1.5");
    if (!d15) throw std::runtime_error("parse_diagonal_cost(\"1.5\") failed");
    return std::vector<variant>{
        {"tile", lddb::rule::tile()},
        {"octile", lddb::rule::octile(lddb::corner_cutting::forbidden)},
        {"octile_one_side_free", lddb::rule::octile(lddb::corner_cutting::one_side_free)},
        {"octile_corners_allowed", lddb::rule::octile(lddb::corner_cutting::allowed)},
        {"octile_diagonal_1_5", lddb::rule::octile(lddb::corner_cutting::forbidden, *d15)},
        {"any_angle", lddb::rule::any_angle(lddb::squeezing::forbidden)},
        {"any_angle_squeeze", lddb::rule::any_angle(lddb::squeezing::allowed)},
    };
  }();
  return v;
}

// ----------------------------------------------------------------------------- helpers

const auto pt = lddb::checker::point_text;  // "(x,y)" in messages

// The pattern drawn row by row, '#' blocked, '.' free: "#./.." for b = 2.
std::string pattern_text(std::uint32_t code, int b) {
  std::string s;
  for (int y = 0; y < b; ++y) {
    if (y) s += '/';
    for (int x = 0; x < b; ++x) s += ((code >> (y * b + x)) & 1u) ? '#' : '.';
  }
  return s;
}

std::string fmt(double v) {
  if (std::isinf(v)) return "unreachable";
  std::ostringstream o;
  o.precision(17);
  o << v;
  return o.str();
}

std::string points_text(std::span<const point> pts) {
  std::string s = "[";
  for (std::size_t k = 0; k < pts.size(); ++k) s += (k ? " " : "") + pt(pts[k]);
  return s + "]";
}

// Inflection points should be real: a point where the path goes straight on is redundant
// unless the merged segment would be illegal (a double corner under the default any-angle
// rule). Returns a description of the first redundant point, or "".
std::string redundant_point(const oracle::block_oracle& orc, std::uint32_t code, int i, int j,
                            std::span<const point> inflections) {
  const std::size_t m = inflections.size() + 2;
  auto get = [&](std::size_t k) {
    return k == 0 ? orc.boundary_point(i) : (k + 1 == m ? orc.boundary_point(j) : inflections[k - 1]);
  };
  for (std::size_t k = 1; k + 1 < m; ++k) {
    const point a = get(k - 1), p = get(k), c = get(k + 1);
    const long cross = static_cast<long>(p.x - a.x) * (c.y - p.y) - static_cast<long>(p.y - a.y) * (c.x - p.x);
    const long dot = static_cast<long>(p.x - a.x) * (c.x - p.x) + static_cast<long>(p.y - a.y) * (c.y - p.y);
    if (cross != 0 || dot <= 0) continue;  // a real turn
    if (orc.vertices() && !orc.segment_legal(code, a, c)) continue;  // needed: a double corner
    return "redundant inflection point " + pt(p) + " (the path goes straight on through it)";
  }
  return "";
}

double cost_length(lddb::cost_t c) {
  return c == lddb::kUnreachable ? kInf : static_cast<double>(c) / 4294967296.0;
}

// A stored 16-bit cost as a length.
double stored_length(const lddb::rule& r, lddb::cost_encoding enc, int scale_log2, std::uint16_t v) {
  if (v == lddb::kStoredUnreachable) return kInf;
  if (enc == lddb::cost_encoding::octile_pair)
    return static_cast<double>(v & 0xFF) + static_cast<double>(v >> 8) * oracle::diagonal_length(r);
  return std::ldexp(static_cast<double>(v), -scale_log2);
}

// How far a stored cost may be from the true least cost.
double stored_tolerance(const lddb::rule& r, int scale_log2) {
  switch (r.kind) {
    case lddb::rule_kind::tile:
      return 0;
    case lddb::rule_kind::octile:
      return 1e-9;
    case lddb::rule_kind::any_angle:
      return std::ldexp(0.5, -scale_log2) + 1e-9;
  }
  return 0;
}
// How far the exact length of a stored path may be from the true least cost.
double path_tolerance(const lddb::rule& r) {
  switch (r.kind) {
    case lddb::rule_kind::tile:
      return 0;
    case lddb::rule_kind::octile:
      return 1e-9;
    case lddb::rule_kind::any_angle:
      return 1e-7;
  }
  return 0;
}

bool agree(double want, double got, double tol) {
  if (std::isinf(want) || std::isinf(got)) return std::isinf(want) && std::isinf(got);
  return tol == 0 ? want == got : std::abs(want - got) <= tol;
}

// Collects mismatches: reports the first few in full, counts the rest.
class failure_log {
 public:
  explicit failure_log(int limit = 20) : limit_(limit) {}
  failure_log(const failure_log&) = delete;
  ~failure_log() {
    if (count_ > limit_) ADD_FAILURE() << "... and " << (count_ - limit_) << " more mismatches";
  }
  void add(const std::string& msg) {
    if (count_ < limit_) ADD_FAILURE() << msg;
    ++count_;
  }
  // Stop scanning once far past the limit: the report is long enough.
  bool enough() const { return count_ >= 10 * limit_; }
  long count() const { return count_; }

 private:
  long count_ = 0;
  int limit_;
};

std::string where(const variant& v, int b, std::uint32_t code, const oracle::block_oracle& orc, int i, int j) {
  std::ostringstream o;
  o << "rule " << v.id << " [" << oracle::rule_label(v.rule) << "], b=" << b << ", code=" << code << " ("
    << pattern_text(code, b) << "), a=" << i << pt(orc.boundary_point(i)) << ", b=" << j << pt(orc.boundary_point(j));
  return o.str();
}

// A generated database, opened from memory.
std::shared_ptr<const lddb::database> make_database(const lddb::rule& r, int b, bool symmetry = true) {
  lddb::recipe rec;
  rec.movement = r;
  rec.block = b;
  rec.use_symmetry = symmetry;
  rec.zstd_level = 3;
  const lddb::database_image image = lddb::generate(rec, lddb::generate_options{});
  const std::vector<std::uint8_t> bytes = lddb::encode_database(image);
  auto opened = lddb::database::open_bytes(bytes, "memory:" + r.name() + "-b" + std::to_string(b));
  if (!opened) throw std::runtime_error("open_bytes failed: " + opened.message);
  return opened.db;
}

// Paths of a solve_pattern entry, decoded (docs/format.md, PATH): presence bitmap, then for
// each present pair a count and that many point indices. An absent pair has no inflection
// points (a straight path) or is unreachable.
bool decode_paths(const lddb::pattern_entry& e, const lddb::block_shape& shape,
                  std::vector<std::vector<point>>* out, std::vector<bool>* present, std::string* why) {
  const int pairs = shape.pair_count();
  const std::size_t bitmap = static_cast<std::size_t>((pairs + 7) / 8);
  out->assign(static_cast<std::size_t>(pairs), {});
  present->assign(static_cast<std::size_t>(pairs), false);
  if (e.paths.size() < bitmap) {
    *why = "path table shorter than its bitmap";
    return false;
  }
  for (int k = pairs; k < static_cast<int>(bitmap * 8); ++k)
    if ((e.paths[static_cast<std::size_t>(k / 8)] >> (k % 8)) & 1u) {
      *why = "bitmap bit set past the last pair";
      return false;
    }
  std::size_t pos = bitmap;
  for (int k = 0; k < pairs; ++k) {
    if (!((e.paths[static_cast<std::size_t>(k / 8)] >> (k % 8)) & 1u)) continue;
    (*present)[static_cast<std::size_t>(k)] = true;
    if (pos >= e.paths.size()) {
      *why = "path table ends inside pair " + std::to_string(k);
      return false;
    }
    const int n = e.paths[pos++];
    if (pos + static_cast<std::size_t>(n) > e.paths.size()) {
      *why = "path table ends inside pair " + std::to_string(k);
      return false;
    }
    for (int m = 0; m < n; ++m) {
      const int idx = e.paths[pos++];
      if (idx >= shape.point_count()) {
        *why = "point index " + std::to_string(idx) + " out of range in pair " + std::to_string(k);
        return false;
      }
      (*out)[static_cast<std::size_t>(k)].push_back(shape.point_at(idx));
    }
  }
  if (pos != e.paths.size()) {
    *why = "path table has " + std::to_string(e.paths.size() - pos) + " bytes after its last path";
    return false;
  }
  return true;
}

// Checks one solve_pattern entry against the oracle, every pair.
void check_entry(const variant& v, const lddb::block_shape& shape, const oracle::block_oracle& orc, std::uint32_t code,
                 failure_log& log) {
  const int b = shape.block(), n = shape.boundary_count();
  const lddb::cost_format cf = lddb::cost_format_for(v.rule);
  lddb::pattern_entry e;
  try {
    e = lddb::solve_pattern(v.rule, shape, code);
  } catch (const std::exception& ex) {
    log.add("rule " + std::string(v.id) + ", b=" + std::to_string(b) + ", code=" + std::to_string(code) +
            ": solve_pattern threw: " + ex.what());
    return;
  }
  if (e.costs.size() != static_cast<std::size_t>(shape.pair_count())) {
    log.add("rule " + std::string(v.id) + ", code=" + std::to_string(code) + ": cost table has " +
            std::to_string(e.costs.size()) + " entries, want " + std::to_string(shape.pair_count()));
    return;
  }
  std::vector<std::vector<point>> paths;
  std::vector<bool> present;
  std::string why;
  if (!decode_paths(e, shape, &paths, &present, &why)) {
    log.add("rule " + std::string(v.id) + ", b=" + std::to_string(b) + ", code=" + std::to_string(code) +
            ": bad path table: " + why);
    return;
  }
  const std::vector<double> want = orc.all_pairs(code);
  const double stol = stored_tolerance(v.rule, cf.scale_log2), ptol = path_tolerance(v.rule);
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      const int k = shape.pair_index(i, j);
      const double w = want[static_cast<std::size_t>(i * n + j)];
      const std::uint16_t raw = e.costs[static_cast<std::size_t>(k)];
      const double got = stored_length(v.rule, cf.encoding, cf.scale_log2, raw);
      if (!agree(w, got, stol)) {
        log.add(where(v, b, code, orc, i, j) + ": solve_pattern cost " + fmt(got) + " (stored " + std::to_string(raw) +
                "), oracle " + fmt(w));
        continue;
      }
      if (std::isinf(w)) {
        if (present[static_cast<std::size_t>(k)])
          log.add(where(v, b, code, orc, i, j) + ": unreachable pair has a path " +
                  points_text(paths[static_cast<std::size_t>(k)]));
        continue;
      }
      if (present[static_cast<std::size_t>(k)] && paths[static_cast<std::size_t>(k)].empty())
        log.add(where(v, b, code, orc, i, j) + ": path present with zero points (must be absent)");
      const auto& p = paths[static_cast<std::size_t>(k)];
      const oracle::path_report rep = orc.check_path(code, i, j, p);
      if (!rep.ok) {
        log.add(where(v, b, code, orc, i, j) + ": solve_pattern path " + points_text(p) + " is not legal: " + rep.why);
      } else if (!agree(w, rep.length, ptol) || !agree(got, rep.length, stol)) {
        log.add(where(v, b, code, orc, i, j) + ": solve_pattern path " + points_text(p) + " has length " +
                fmt(rep.length) + ", oracle least cost " + fmt(w) + ", stored cost " + fmt(got));
      } else if (const std::string r = redundant_point(orc, code, i, j, p); !r.empty()) {
        log.add(where(v, b, code, orc, i, j) + ": solve_pattern path " + points_text(p) + ": " + r);
      }
    }
  }
}

// Checks one pattern of a database against the oracle, every ordered pair.
void check_database_pattern(const variant& v, const lddb::database& db, const oracle::block_oracle& orc,
                            std::uint32_t code, failure_log& log) {
  const int b = db.shape().block(), n = db.shape().boundary_count();
  const std::vector<double> want = orc.all_pairs(code);
  const double stol = stored_tolerance(v.rule, db.info().scale_log2), ptol = path_tolerance(v.rule);
  std::vector<std::vector<point>> forward(static_cast<std::size_t>(n * n));
  for (int i = 0; i < n; ++i) {
    // a == b: 0 when the point is usable (the API's promise), unreachable otherwise
    const lddb::cost_t self = db.cost(code, i, i);
    const bool usable = orc.point_usable(code, orc.boundary_point(i));
    if (self != (usable ? 0 : lddb::kUnreachable))
      log.add(where(v, b, code, orc, i, i) + ": cost(a, a) = " + fmt(cost_length(self)) + ", point " +
              (usable ? "usable" : "not usable"));
    for (int j = 0; j < n; ++j) {
      if (j == i) continue;
      const double w = want[static_cast<std::size_t>(i * n + j)];
      const double w_back = want[static_cast<std::size_t>(j * n + i)];
      if (!agree(w, w_back, 1e-9)) log.add(where(v, b, code, orc, i, j) + ": ORACLE asymmetric: " + fmt(w) + " vs " + fmt(w_back));
      const lddb::cost_t c = db.cost(code, i, j);
      const double got = cost_length(c);
      if (!agree(w, got, stol)) {
        log.add(where(v, b, code, orc, i, j) + ": database cost " + fmt(got) + " (stored " +
                std::to_string(db.stored_cost(code, i, j)) + "), oracle " + fmt(w));
        continue;
      }
      if (c != db.cost(code, j, i))
        log.add(where(v, b, code, orc, i, j) + ": cost(a,b) = " + fmt(got) + " but cost(b,a) = " +
                fmt(cost_length(db.cost(code, j, i))));
      lddb::inflections inf;
      const bool has = db.path(code, i, j, &inf);
      if (has != !std::isinf(w)) {
        log.add(where(v, b, code, orc, i, j) + ": path() returned " + (has ? "true" : "false") + " but oracle cost is " +
                fmt(w));
        continue;
      }
      if (!has) continue;
      if (inf.count < 0 || inf.count > lddb::inflections::kCapacity) {
        log.add(where(v, b, code, orc, i, j) + ": path() count " + std::to_string(inf.count) + " out of range");
        continue;
      }
      const std::span<const point> p(inf.points.data(), static_cast<std::size_t>(inf.count));
      forward[static_cast<std::size_t>(i * n + j)].assign(p.begin(), p.end());
      const oracle::path_report rep = orc.check_path(code, i, j, p);
      if (!rep.ok) {
        log.add(where(v, b, code, orc, i, j) + ": database path " + points_text(p) + " is not legal: " + rep.why);
      } else if (!agree(w, rep.length, ptol) || !agree(got, rep.length, stol)) {
        log.add(where(v, b, code, orc, i, j) + ": database path " + points_text(p) + " has length " +
                fmt(rep.length) + ", oracle least cost " + fmt(w) + ", database cost " + fmt(got));
      } else if (const std::string r = redundant_point(orc, code, i, j, p); !r.empty()) {
        log.add(where(v, b, code, orc, i, j) + ": database path " + points_text(p) + ": " + r);
      }
    }
  }
  // paths from a to b and from b to a are reverses of each other
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      std::vector<point> back = forward[static_cast<std::size_t>(j * n + i)];
      std::reverse(back.begin(), back.end());
      if (back != forward[static_cast<std::size_t>(i * n + j)])
        log.add(where(v, b, code, orc, i, j) + ": path(a,b) = " + points_text(forward[static_cast<std::size_t>(i * n + j)]) +
                " but reversed path(b,a) = " + points_text(back));
    }
}

// Random pattern with a density drawn from a few levels (sparse patterns have long paths,
// dense ones many unreachable pairs). Uses the raw engine only, so it is the same everywhere.
std::uint32_t random_pattern(std::mt19937_64& rng, int b) {
  static constexpr int kPermille[] = {0, 100, 200, 300, 400, 500, 650};
  const int permille = kPermille[rng() % std::size(kPermille)];
  std::uint32_t code = 0;
  for (int c = 0; c < b * b; ++c)
    if (static_cast<int>((rng() >> 11) % 1000) < permille) code |= 1u << c;
  return code;
}

// ============================================================================= oracle self-tests

// A third way to find the cells a segment crosses: every crossing of a grid line happens at
// a parameter t that is a multiple of 1 / (|dx| |dy|), so sampling t at the odd multiples of
// 1 / (2 |dx| |dy|) visits every piece of the segment between crossings; a sample lies in a
// cell's interior unless it is on a grid line.
TEST(OracleSelf, SegmentCellsAgreeWithSampling) {
  const int side = 7;
  for (int a = 0; a < side * side; ++a)
    for (int c = 0; c < side * side; ++c) {
      const point p{a % side - 1, a / side - 1}, q{c % side - 1, c / side - 1};
      if (p == q) continue;
      const long dx = q.x - p.x, dy = q.y - p.y;
      const long d = std::max(1L, std::abs(dx)) * std::max(1L, std::abs(dy));
      std::vector<point> sampled;
      for (long m = 0; m < d; ++m) {
        // t = (2m+1) / (2d): x = p.x + dx t, as a fraction over 2d
        const long nx = 2 * d * p.x + dx * (2 * m + 1), ny = 2 * d * p.y + dy * (2 * m + 1);
        if (nx % (2 * d) == 0 || ny % (2 * d) == 0) continue;  // on a grid line
        auto fl = [](long num, long den) { return num >= 0 ? num / den : -((-num + den - 1) / den); };
        const point cell{static_cast<int>(fl(nx, 2 * d)), static_cast<int>(fl(ny, 2 * d))};
        if (std::find(sampled.begin(), sampled.end(), cell) == sampled.end()) sampled.push_back(cell);
      }
      std::vector<point> sat = oracle::segment_geometry_of(p, q).cells;
      auto less = [](point u, point w) { return u.y != w.y ? u.y < w.y : u.x < w.x; };
      std::sort(sampled.begin(), sampled.end(), less);
      std::sort(sat.begin(), sat.end(), less);
      ASSERT_EQ(points_text(sampled), points_text(sat)) << "segment " << pt(p) << "-" << pt(q);
    }
}

TEST(OracleSelf, SegmentEdgesAndThroughPoints) {
  // A horizontal segment of length 3 runs along 3 edges and passes through 2 points.
  auto g = oracle::segment_geometry_of({1, 2}, {4, 2});
  EXPECT_EQ(g.edges.size(), 3u);
  EXPECT_EQ(points_text(g.through), "[(2,2) (3,2)]");
  EXPECT_TRUE(g.cells.empty());
  // (0,0)-(4,2) passes through (2,1) only, runs along no edge, crosses 4 cells.
  g = oracle::segment_geometry_of({0, 0}, {4, 2});
  EXPECT_TRUE(g.edges.empty());
  EXPECT_EQ(points_text(g.through), "[(2,1)]");
  EXPECT_EQ(g.cells.size(), 4u);
  // A unit diagonal crosses one cell and nothing else.
  g = oracle::segment_geometry_of({3, 3}, {2, 4});
  EXPECT_EQ(points_text(g.cells), "[(2,3)]");
  EXPECT_TRUE(g.edges.empty() && g.through.empty());
}

// A segment touching an unusable vertex is always illegal by rules 1 and 2, and the
// block_oracle's precomputed segments agree with the plain grid checker.
TEST(OracleSelf, BlockSegmentsMatchGridSegments) {
  for (const auto& v : variants()) {
    if (v.rule.kind != lddb::rule_kind::any_angle) continue;
    const int b = 3;
    const oracle::block_oracle orc(v.rule, b);
    for (std::uint32_t code = 0; code < (1u << (b * b)); ++code) {
      const oracle::grid g = oracle::grid::from_pattern(code, b);
      for (int a = 0; a < 16; ++a)
        for (int c = 0; c < 16; ++c) {
          const point p{a % 4, a / 4}, q{c % 4, c / 4};
          const bool legal = oracle::segment_ok(v.rule, g, p, q);
          ASSERT_EQ(legal, orc.segment_legal(code, p, q)) << v.id << " code " << pattern_text(code, b) << " " << pt(p) << "-" << pt(q);
          if (!(p == q) && (!oracle::vertex_ok(g, p) || !oracle::vertex_ok(g, q))) {
            ASSERT_FALSE(legal) << v.id << " code " << pattern_text(code, b) << " " << pt(p) << "-" << pt(q);
          }
        }
    }
  }
}

// The block oracle's precomputed Dijkstra agrees with the plain whole-grid search.
TEST(OracleSelf, BlockOracleMatchesGridSearch) {
  std::mt19937_64 rng(0x0AC1E);
  for (const auto& v : variants()) {
    for (int b : {3, 4}) {
      const oracle::block_oracle orc(v.rule, b);
      const int n = orc.boundary_count();
      for (int k = 0; k < 60; ++k) {
        const std::uint32_t code = k == 0 ? 0u : random_pattern(rng, b);
        const oracle::grid g = oracle::grid::from_pattern(code, b);
        const auto all = orc.all_pairs(code);
        for (int i = 0; i < n; ++i)
          for (int j = 0; j < n; ++j) {
            const double want = oracle::least_cost(v.rule, g, orc.boundary_point(i), orc.boundary_point(j));
            ASSERT_TRUE(agree(want, all[static_cast<std::size_t>(i * n + j)], 1e-9))
                << v.id << " b=" << b << " " << pattern_text(code, b) << " " << i << "-" << j << ": grid " << fmt(want)
                << ", block " << fmt(all[static_cast<std::size_t>(i * n + j)]);
          }
      }
    }
  }
}

// The conventions borrowed from block_shape, checked against their documentation.
TEST(OracleSelf, BlockShapeConventions) {
  for (int b = lddb::block_shape::kMinBlock; b <= lddb::block_shape::kMaxBlock; ++b)
    for (bool vertices : {false, true}) {
      const lddb::block_shape s(b, vertices);
      const int side = vertices ? b + 1 : b;
      ASSERT_EQ(s.side(), side);
      // clockwise from the top-left: top row, right column, bottom row, left column
      std::vector<point> want;
      for (int x = 0; x < side; ++x) want.push_back({x, 0});
      for (int y = 1; y < side; ++y) want.push_back({side - 1, y});
      for (int x = side - 2; x >= 0; --x) want.push_back({x, side - 1});
      for (int y = side - 2; y >= 1; --y) want.push_back({0, y});
      ASSERT_EQ(s.boundary_count(), static_cast<int>(want.size()));
      for (int i = 0; i < s.boundary_count(); ++i) {
        ASSERT_EQ(s.boundary_point(i), want[static_cast<std::size_t>(i)]) << "b=" << b << " i=" << i;
        ASSERT_EQ(s.boundary_index(want[static_cast<std::size_t>(i)]), i);
      }
      // pair_index: (0,1), (0,2), ..., (1,2), ... consecutively, symmetric
      int k = 0;
      for (int i = 0; i < s.boundary_count(); ++i)
        for (int j = i + 1; j < s.boundary_count(); ++j) {
          ASSERT_EQ(s.pair_index(i, j), k);
          ASSERT_EQ(s.pair_index(j, i), k);
          ++k;
        }
      ASSERT_EQ(k, s.pair_count());
      // transforms: reflect x when t >= 4, then t % 4 clockwise quarter turns
      for (int t = 0; t < 8; ++t) {
        for (int y = 0; y < side; ++y)
          for (int x = 0; x < side; ++x) {
            point p{x, y};
            if (t >= 4) p.x = side - 1 - p.x;
            for (int r = 0; r < t % 4; ++r) p = point{side - 1 - p.y, p.x};
            ASSERT_EQ(s.transform_point(t, {x, y}), p) << "t=" << t;
            ASSERT_EQ(s.transform_point(lddb::block_shape::inverse(t), p), (point{x, y})) << "inverse of t=" << t;
          }
        for (int i = 0; i < s.boundary_count(); ++i)
          ASSERT_EQ(s.boundary_point(s.transform_boundary(t, i)), s.transform_point(t, s.boundary_point(i)));
        // a pattern moves with its cells: a cell transforms like the cell-block point
        const lddb::block_shape cells(b, false);
        for (int c = 0; c < b * b; ++c) {
          const point q = cells.transform_point(t, {c % b, c / b});
          ASSERT_EQ(s.transform_pattern(t, 1u << c), 1u << (q.y * b + q.x)) << "t=" << t << " cell " << c;
        }
      }
    }
  // Vertices and cells transform consistently: cell (x,y) has corners (x,y)..(x+1,y+1);
  // its image's corners are the images of its corners.
  for (int b = 2; b <= 5; ++b) {
    const lddb::block_shape cells(b, false), verts(b, true);
    for (int t = 0; t < 8; ++t)
      for (int c = 0; c < b * b; ++c) {
        const point cell{c % b, c / b}, img = cells.transform_point(t, cell);
        std::vector<point> corners, want;
        for (int k = 0; k < 4; ++k) {
          corners.push_back(verts.transform_point(t, {cell.x + (k & 1), cell.y + (k >> 1)}));
          want.push_back({img.x + (k & 1), img.y + (k >> 1)});
        }
        for (const point& w : want)
          ASSERT_NE(std::find(corners.begin(), corners.end(), w), corners.end()) << "b=" << b << " t=" << t;
      }
  }
}

// ============================================================================= hand cases

// Known answers, checked on the oracle, on solve_pattern and on a generated database, so a
// broken oracle cannot agree with a broken generator by accident.
class HandCases : public ::testing::Test {
 protected:
  const lddb::database& db(const lddb::rule& r, int b) {
    const std::string key = r.name() + "/" + std::to_string(b);
    auto it = cache_.find(key);
    if (it == cache_.end()) it = cache_.emplace(key, make_database(r, b)).first;
    return *it->second;
  }

  // Least cost between two boundary points of a pattern, expected `want` (inf: unreachable).
  void expect_cost(const lddb::rule& r, int b, std::uint32_t code, point p, point q, double want) {
    SCOPED_TRACE(oracle::rule_label(r) + " b=" + std::to_string(b) + " " + pattern_text(code, b) + " " + pt(p) + "-" + pt(q));
    const oracle::block_oracle orc(r, b);
    const lddb::block_shape shape(b, r.on_vertices());
    const int i = shape.boundary_index(p), j = shape.boundary_index(q);
    ASSERT_GE(i, 0);
    ASSERT_GE(j, 0);
    const int n = shape.boundary_count();
    const double o = orc.all_pairs(code)[static_cast<std::size_t>(i * n + j)];
    EXPECT_TRUE(agree(want, o, 1e-9)) << "oracle " << fmt(o) << ", hand value " << fmt(want);
    const lddb::cost_format cf = lddb::cost_format_for(r);
    const double tol = stored_tolerance(r, cf.scale_log2) + (r.kind == lddb::rule_kind::tile ? 0 : 1e-9);
    const auto e = lddb::solve_pattern(r, shape, code);
    const double s = stored_length(r, cf.encoding, cf.scale_log2, e.costs[static_cast<std::size_t>(shape.pair_index(i, j))]);
    EXPECT_TRUE(agree(want, s, tol)) << "solve_pattern " << fmt(s) << ", hand value " << fmt(want);
    const lddb::database& d = db(r, b);
    const double c = cost_length(d.cost(code, i, j));
    EXPECT_TRUE(agree(want, c, stored_tolerance(r, d.info().scale_log2) + 1e-9)) << "database " << fmt(c) << ", hand value " << fmt(want);
    lddb::inflections inf;
    const bool has = d.path(code, i, j, &inf);
    EXPECT_EQ(has, !std::isinf(want));
    if (has) {
      const std::span<const point> path(inf.points.data(), static_cast<std::size_t>(inf.count));
      const auto rep = orc.check_path(code, i, j, path);
      EXPECT_TRUE(rep.ok) << "database path " << points_text(path) << ": " << rep.why;
      EXPECT_NEAR(rep.length, want, 1e-7) << "database path " << points_text(path);
      last_path_.assign(path.begin(), path.end());
    }
  }

  std::vector<point> last_path_;

 private:
  std::map<std::string, std::shared_ptr<const lddb::database>> cache_;
};

constexpr std::uint32_t cell_bit(int b, int x, int y) { return 1u << (y * b + x); }
const double kR2 = std::sqrt(2.0);

TEST_F(HandCases, OpenBlocks) {
  const auto tile = lddb::rule::tile();
  const auto oct = lddb::rule::octile();
  const auto oct15 = lddb::rule::octile(lddb::corner_cutting::forbidden, *lddb::parse_diagonal_cost("1.5"));
  const auto any = lddb::rule::any_angle();
  for (int b = 2; b <= 4; ++b) {
    expect_cost(tile, b, 0, {0, 0}, {b - 1, b - 1}, 2.0 * (b - 1));
    expect_cost(tile, b, 0, {0, 0}, {b - 1, 0}, b - 1.0);
    expect_cost(oct, b, 0, {0, 0}, {b - 1, b - 1}, (b - 1) * kR2);
    expect_cost(oct15, b, 0, {0, 0}, {b - 1, b - 1}, (b - 1) * 1.5);
    expect_cost(any, b, 0, {0, 0}, {b, b}, b * kR2);
    // along the block's own boundary: the outside is blocked but the inside cells are free
    expect_cost(any, b, 0, {0, 0}, {b, 0}, b);
  }
  expect_cost(oct, 4, 0, {0, 0}, {3, 1}, 2 + kR2);
  expect_cost(oct15, 3, 0, {0, 0}, {2, 1}, 2.5);
  expect_cost(any, 4, 0, {0, 0}, {4, 1}, std::sqrt(17.0));
  expect_cost(any, 4, 0, {1, 0}, {0, 3}, std::sqrt(10.0));
}

TEST_F(HandCases, WallMakesPairsUnreachable) {
  // column x = 1 of a 4x4 block blocked
  const std::uint32_t wall = cell_bit(4, 1, 0) | cell_bit(4, 1, 1) | cell_bit(4, 1, 2) | cell_bit(4, 1, 3);
  for (const auto& v : variants()) {
    SCOPED_TRACE(v.id);
    if (v.rule.on_vertices()) {
      expect_cost(v.rule, 4, wall, {0, 0}, {4, 0}, kInf);
      expect_cost(v.rule, 4, wall, {0, 4}, {4, 4}, kInf);
      expect_cost(v.rule, 4, wall, {0, 0}, {0, 4}, 4);
      expect_cost(v.rule, 4, wall, {0, 0}, {1, 4}, std::sqrt(17.0));  // along the wall's face
      expect_cost(v.rule, 4, wall, {2, 0}, {4, 4}, std::sqrt(20.0));
    } else {
      expect_cost(v.rule, 4, wall, {0, 0}, {3, 0}, kInf);
      expect_cost(v.rule, 4, wall, {0, 0}, {1, 0}, kInf);  // a blocked boundary cell
      expect_cost(v.rule, 4, wall, {0, 0}, {0, 3}, 3);
    }
  }
}

TEST_F(HandCases, CornerCuttingDiffersBetweenOctileVariants) {
  const auto forbidden = lddb::rule::octile(lddb::corner_cutting::forbidden);
  const auto one_side = lddb::rule::octile(lddb::corner_cutting::one_side_free);
  const auto allowed = lddb::rule::octile(lddb::corner_cutting::allowed);
  // 2x2, (1,0) blocked: (0,0) -> (1,1) cuts the corner of (1,0)
  const std::uint32_t one = cell_bit(2, 1, 0);
  expect_cost(forbidden, 2, one, {0, 0}, {1, 1}, 2);
  expect_cost(one_side, 2, one, {0, 0}, {1, 1}, kR2);
  expect_cost(allowed, 2, one, {0, 0}, {1, 1}, kR2);
  expect_cost(lddb::rule::tile(), 2, one, {0, 0}, {1, 1}, 2);
  // both side cells blocked: only corners=allowed squeezes through
  const std::uint32_t both = cell_bit(2, 1, 0) | cell_bit(2, 0, 1);
  expect_cost(forbidden, 2, both, {0, 0}, {1, 1}, kInf);
  expect_cost(one_side, 2, both, {0, 0}, {1, 1}, kInf);
  expect_cost(allowed, 2, both, {0, 0}, {1, 1}, kR2);
  // 3x3, a diagonal wall (2,0) (1,1) (0,2): allowed crosses it, the others go nowhere
  const std::uint32_t wall = cell_bit(3, 2, 0) | cell_bit(3, 1, 1) | cell_bit(3, 0, 2);
  expect_cost(one_side, 3, wall, {0, 0}, {2, 2}, kInf);
  expect_cost(allowed, 3, wall, {0, 0}, {2, 2}, 2 + kR2);  // E, SE between (2,0) and (1,1), S

  // 4x4, (1,1) blocked: the diagonal (0,0)->(3,3) must step around it when corners are forbidden
  const std::uint32_t mid = cell_bit(4, 1, 1);
  // forbidden: every diagonal beside (1,1) is out, so one diagonal at most: E E SE S S or similar
  expect_cost(forbidden, 4, mid, {0, 0}, {3, 3}, 4 + kR2);
  // one side free: E, SE past (1,1) with (2,0) free, SE, S
  expect_cost(one_side, 4, mid, {0, 0}, {3, 3}, 2 + 2 * kR2);
  // (2,0) -> (0,2): the anti-diagonal runs through (1,1) itself
  expect_cost(forbidden, 4, mid, {2, 0}, {0, 2}, 4);
  expect_cost(one_side, 4, mid, {2, 0}, {0, 2}, 2 + kR2);
  expect_cost(allowed, 4, mid, {0, 0}, {3, 3}, 2 + 2 * kR2);
}

TEST_F(HandCases, EdgeBetweenTwoBlockedCells) {
  // 3x3, (1,0) and (1,1) blocked: the row y = 1 runs along the edge they share, so
  // (0,1) -> (3,1) must go round below them: (0,1) (1,2) (2,2) (3,1).
  const std::uint32_t code = cell_bit(3, 1, 0) | cell_bit(3, 1, 1);
  const oracle::grid g = oracle::grid::from_pattern(code, 3);
  EXPECT_FALSE(oracle::segment_ok(lddb::rule::any_angle(), g, {0, 1}, {3, 1}));
  EXPECT_TRUE(oracle::segment_ok(lddb::rule::any_angle(), g, {1, 2}, {2, 2}));  // one blocked cell: fine
  for (const auto& r : {lddb::rule::any_angle(), lddb::rule::any_angle(lddb::squeezing::allowed)}) {
    expect_cost(r, 3, code, {0, 1}, {3, 1}, 1 + 2 * kR2);
    EXPECT_EQ(points_text(last_path_), "[(1,2) (2,2)]");
  }
  // 2x2, (0,0) blocked: vertex (0,0) is unusable; (1,0) -> (0,1) goes round via (1,1)
  const std::uint32_t corner = cell_bit(2, 0, 0);
  expect_cost(lddb::rule::any_angle(), 2, corner, {0, 0}, {2, 2}, kInf);
  expect_cost(lddb::rule::any_angle(), 2, corner, {1, 0}, {0, 1}, 2);
  expect_cost(lddb::rule::any_angle(), 2, corner, {1, 0}, {2, 0}, 1);
}

// A double corner: under squeeze=allowed a path goes straight through it; under the
// default rule it may visit it but not pass from one free side to the other, so each path
// below goes round, or finds no way at all. Values worked out by hand from docs/rules.md.
TEST_F(HandCases, DoubleCornerSqueeze) {
  const auto forbidden = lddb::rule::any_angle(lddb::squeezing::forbidden);
  const auto allowed = lddb::rule::any_angle(lddb::squeezing::allowed);
  // 4x4 with (1,1) and (2,2) blocked: vertex (2,2) is a double corner on the anti-diagonal.
  // The default rule goes round either cell pair: (0,4)-(3,3)-(4,0) or (0,4)-(1,1)-(4,0).
  const std::uint32_t code = cell_bit(4, 1, 1) | cell_bit(4, 2, 2);
  const oracle::grid g = oracle::grid::from_pattern(code, 4);
  EXPECT_FALSE(oracle::segment_ok(forbidden, g, {0, 4}, {4, 0}));
  EXPECT_TRUE(oracle::segment_ok(allowed, g, {0, 4}, {4, 0}));
  EXPECT_TRUE(oracle::segment_ok(forbidden, g, {0, 4}, {2, 2}));  // each half alone is legal
  EXPECT_TRUE(oracle::segment_ok(forbidden, g, {2, 2}, {4, 0}));
  const oracle::block_oracle orc_f(forbidden, 4), orc_a(allowed, 4);
  const lddb::block_shape shape(4, true);
  const int i = shape.boundary_index({0, 4}), j = shape.boundary_index({4, 0});
  EXPECT_FALSE(orc_f.check_path(code, i, j, {}).ok);
  EXPECT_FALSE(orc_f.check_path(code, i, j, std::vector<point>{{2, 2}}).ok) << "crosses sides at the double corner";
  EXPECT_TRUE(orc_a.check_path(code, i, j, {}).ok);
  expect_cost(forbidden, 4, code, {0, 4}, {4, 0}, 2 * std::sqrt(10.0));
  EXPECT_EQ(last_path_.size(), 1u);
  expect_cost(allowed, 4, code, {0, 4}, {4, 0}, 4 * kR2);
  EXPECT_EQ(points_text(last_path_), "[]") << "a squeezing path is one straight segment";
  // 2x2 with (0,0) and (1,1) blocked: the only way between the free cells is through the
  // double corner (1,1).
  const std::uint32_t two = cell_bit(2, 0, 0) | cell_bit(2, 1, 1);
  expect_cost(forbidden, 2, two, {2, 0}, {0, 2}, kInf);
  expect_cost(allowed, 2, two, {2, 0}, {0, 2}, 2 * kR2);
  // Along a row through a double corner: 3x3, (0,0) and (1,1) blocked, row y = 1. The
  // default rule goes below the blocked cell (1,1): (0,1)-(1,2)-(2,2)-(3,1).
  const std::uint32_t row = cell_bit(3, 0, 0) | cell_bit(3, 1, 1);
  const oracle::grid gr = oracle::grid::from_pattern(row, 3);
  EXPECT_FALSE(oracle::segment_ok(forbidden, gr, {0, 1}, {3, 1}));
  EXPECT_TRUE(oracle::segment_ok(allowed, gr, {0, 1}, {3, 1}));
  expect_cost(forbidden, 3, row, {0, 1}, {3, 1}, 1 + 2 * kR2);
  EXPECT_EQ(points_text(last_path_), "[(1,2) (2,2)]");
  expect_cost(allowed, 3, row, {0, 1}, {3, 1}, 3);
  EXPECT_EQ(points_text(last_path_), "[]");
}

// ============================================================================= exhaustive b = 2..4

struct exhaustive_param {
  int variant, b, shard, shards;
  bool symmetry;
};

void PrintTo(const exhaustive_param& p, std::ostream* os) {
  *os << variants()[static_cast<std::size_t>(p.variant)].id << " b=" << p.b << (p.symmetry ? "" : " no symmetry")
      << " shard " << p.shard << "/" << p.shards;
}

class Exhaustive : public ::testing::TestWithParam<exhaustive_param> {};

TEST_P(Exhaustive, EveryPatternEveryPair) {
  const exhaustive_param p = GetParam();
  const variant& v = variants()[static_cast<std::size_t>(p.variant)];
  const auto db = make_database(v.rule, p.b, p.symmetry);
  ASSERT_EQ(db->info().block, p.b);
  ASSERT_EQ(db->movement(), v.rule);
  const oracle::block_oracle orc(v.rule, p.b);
  const std::uint32_t total = 1u << (p.b * p.b);
  const std::uint32_t lo = static_cast<std::uint32_t>(std::uint64_t{total} * p.shard / p.shards);
  const std::uint32_t hi = static_cast<std::uint32_t>(std::uint64_t{total} * (p.shard + 1) / p.shards);
  failure_log log;
  for (std::uint32_t code = lo; code < hi && !log.enough(); ++code) check_database_pattern(v, *db, orc, code, log);
  EXPECT_EQ(log.count(), 0) << "mismatches for " << v.id << " b=" << p.b;
}

std::vector<exhaustive_param> exhaustive_params() {
  std::vector<exhaustive_param> out;
  for (int vi = 0; vi < static_cast<int>(variants().size()); ++vi) {
    for (int b = 2; b <= 3; ++b)
      for (bool sym : {true, false}) out.push_back({vi, b, 0, 1, sym});
    const int shards = variants()[static_cast<std::size_t>(vi)].rule.on_vertices() ? 4 : 2;
    for (int s = 0; s < shards; ++s) out.push_back({vi, 4, s, shards, true});
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(All, Exhaustive, ::testing::ValuesIn(exhaustive_params()),
                         [](const ::testing::TestParamInfo<exhaustive_param>& info) {
                           const auto& p = info.param;
                           return std::string(variants()[static_cast<std::size_t>(p.variant)].id) + "_b" +
                                  std::to_string(p.b) + (p.symmetry ? "" : "_nosym") +
                                  (p.shards > 1 ? "_shard" + std::to_string(p.shard) : "");
                         });

// ============================================================================= random b = 5

constexpr int kRandomB5Patterns = 100000;
constexpr int kRandomB5Shards = 4;

struct shard_param {
  int variant, shard;
};

void PrintTo(const shard_param& p, std::ostream* os) {
  *os << variants()[static_cast<std::size_t>(p.variant)].id << " shard " << p.shard << "/" << kRandomB5Shards;
}

class RandomB5 : public ::testing::TestWithParam<shard_param> {};

TEST_P(RandomB5, SolvePatternMatchesOracle) {
  const shard_param p = GetParam();
  const variant& v = variants()[static_cast<std::size_t>(p.variant)];
  const lddb::block_shape shape(5, v.rule.on_vertices());
  const oracle::block_oracle orc(v.rule, 5);
  std::mt19937_64 rng(0xB5B5'0000ull + static_cast<std::uint64_t>(p.variant) * 64 + static_cast<std::uint64_t>(p.shard));
  failure_log log;
  const int count = kRandomB5Patterns / kRandomB5Shards;
  for (int k = 0; k < count && !log.enough(); ++k) {
    // the first shard also covers the open and the full block
    const std::uint32_t code = (p.shard == 0 && k == 0) ? 0u
                               : (p.shard == 0 && k == 1) ? (1u << 25) - 1
                                                          : random_pattern(rng, 5);
    check_entry(v, shape, orc, code, log);
  }
  EXPECT_EQ(log.count(), 0) << "mismatches for " << v.id << " b=5";
}

std::vector<shard_param> random_params() {
  std::vector<shard_param> out;
  for (int vi = 0; vi < static_cast<int>(variants().size()); ++vi)
    for (int s = 0; s < kRandomB5Shards; ++s) out.push_back({vi, s});
  return out;
}

INSTANTIATE_TEST_SUITE_P(All, RandomB5, ::testing::ValuesIn(random_params()),
                         [](const ::testing::TestParamInfo<shard_param>& info) {
                           return std::string(variants()[static_cast<std::size_t>(info.param.variant)].id) + "_shard" +
                                  std::to_string(info.param.shard);
                         });

// ============================================================================= symmetry

struct symmetry_param {
  int variant, b;
};

void PrintTo(const symmetry_param& p, std::ostream* os) {
  *os << variants()[static_cast<std::size_t>(p.variant)].id << " b=" << p.b;
}

class Symmetry : public ::testing::TestWithParam<symmetry_param> {};

TEST_P(Symmetry, TransformedPatternsHaveTransformedCosts) {
  const symmetry_param p = GetParam();
  const variant& v = variants()[static_cast<std::size_t>(p.variant)];
  const lddb::block_shape shape(p.b, v.rule.on_vertices());
  const oracle::block_oracle orc(v.rule, p.b);
  const int n = shape.boundary_count();
  const std::uint8_t mask = v.rule.symmetry_mask();
  std::mt19937_64 rng(0x5E77'0000ull + static_cast<std::uint64_t>(p.variant) * 8 + static_cast<std::uint64_t>(p.b));
  failure_log log;
  const int patterns = p.b == 4 ? 1500 : 400;
  for (int k = 0; k < patterns && !log.enough(); ++k) {
    const std::uint32_t code = random_pattern(rng, p.b);
    const auto base = lddb::solve_pattern(v.rule, shape, code);
    const auto want = orc.all_pairs(code);
    for (int t = 0; t < lddb::block_shape::kTransforms; ++t) {
      if (!((mask >> t) & 1u)) continue;
      const std::uint32_t tc = shape.transform_pattern(t, code);
      const auto moved = lddb::solve_pattern(v.rule, shape, tc);
      const auto moved_want = orc.all_pairs(tc);
      for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j) {
          const int ti = shape.transform_boundary(t, i), tj = shape.transform_boundary(t, j);
          const std::uint16_t a = base.costs[static_cast<std::size_t>(shape.pair_index(i, j))];
          const std::uint16_t c = moved.costs[static_cast<std::size_t>(shape.pair_index(ti, tj))];
          if (a != c)
            log.add("rule " + std::string(v.id) + ", b=" + std::to_string(p.b) + ", t=" + std::to_string(t) + ": code " +
                    std::to_string(code) + " (" + pattern_text(code, p.b) + ") pair " + std::to_string(i) + "-" +
                    std::to_string(j) + " stored " + std::to_string(a) + ", transformed code " + std::to_string(tc) + " (" +
                    pattern_text(tc, p.b) + ") pair " + std::to_string(ti) + "-" + std::to_string(tj) + " stored " +
                    std::to_string(c));
          // the oracle is invariant too
          const double wa = want[static_cast<std::size_t>(i * n + j)], wc = moved_want[static_cast<std::size_t>(ti * n + tj)];
          if (!agree(wa, wc, 1e-9))
            log.add("ORACLE not invariant: rule " + std::string(v.id) + " t=" + std::to_string(t) + " code " +
                    std::to_string(code) + " pair " + std::to_string(i) + "-" + std::to_string(j) + ": " + fmt(wa) +
                    " vs " + fmt(wc));
        }
    }
  }
  EXPECT_EQ(log.count(), 0);
}

std::vector<symmetry_param> symmetry_params() {
  std::vector<symmetry_param> out;
  for (int vi = 0; vi < static_cast<int>(variants().size()); ++vi)
    for (int b : {4, 5}) out.push_back({vi, b});
  return out;
}

INSTANTIATE_TEST_SUITE_P(All, Symmetry, ::testing::ValuesIn(symmetry_params()),
                         [](const ::testing::TestParamInfo<symmetry_param>& info) {
                           return std::string(variants()[static_cast<std::size_t>(info.param.variant)].id) + "_b" +
                                  std::to_string(info.param.b);
                         });

}  // namespace
