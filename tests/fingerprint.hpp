// tests/fingerprint.hpp: one hash per (database, map, search variant) over a fixed set of
// queries, covering every path point, cost, lower bound, length, status and search count.
//
// A change that must not alter behaviour (a move of code, a new file layout) keeps every
// line; a change that alters paths on purpose says which lines moved and why.
// tests/fingerprint_test.cpp compares the lines with tests/fingerprint/expected.txt;
// the `fingerprint` program prints them (to record a new expected file).
//
// The queries include start = goal, off-map and blocked points, unreachable goals,
// budget-exhausted queries and sliced (begin / continue) queries. Only the public API is
// used.
#pragma once

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "lddb/format.hpp"
#include "lddb/grid.hpp"
#include "lddb/landmarks.hpp"
#include "lddb/map_file.hpp"
#include "lddb/mapgen.hpp"
#include "lddb/search.hpp"
#include "lddb/find_path.hpp"
#include "test_rng.hpp"

namespace lddb_fingerprint {

namespace fs = std::filesystem;

// FNV-1a, 64 bits: fixed, portable, and independent of the code under test.
struct hasher {
  std::uint64_t h = 0xcbf29ce484222325ull;
  void bytes(const void* p, std::size_t n) {
    const auto* c = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < n; ++i) h = (h ^ c[i]) * 0x100000001b3ull;
  }
  void u64(std::uint64_t v) { bytes(&v, sizeof v); }
  void f64(double v) {
    std::uint64_t b;
    std::memcpy(&b, &v, sizeof b);
    u64(b);
  }
};

inline void hash_result(hasher& h, const lddb::search_result& r) {
  h.u64(static_cast<std::uint64_t>(r.status));
  h.u64(r.path.size());
  for (const lddb::point& p : r.path) {
    h.u64(static_cast<std::uint32_t>(p.x));
    h.u64(static_cast<std::uint32_t>(p.y));
  }
  h.u64(r.cost);
  h.u64(r.lower_bound);
  h.f64(r.length);
  h.u64(r.stats.expanded);
  h.u64(r.stats.generated);
  h.u64(r.stats.heap_ops);
  h.u64(r.stats.los_checks);
  h.u64(r.expanded.size());
  for (const lddb::point& p : r.expanded) {
    h.u64(static_cast<std::uint32_t>(p.x));
    h.u64(static_cast<std::uint32_t>(p.y));
  }
}

struct query {
  lddb::point start, goal;
};

// The fixed queries of a map: a free start = goal, an off-map start, a blocked goal where
// there is one, then random pairs (mostly free points, some blocked).
inline std::vector<query> queries_for(const lddb::grid_map& map, bool vertices, int count, std::uint64_t seed) {
  lddb_test::rng g{seed};
  const int w = map.width() + (vertices ? 1 : 0), hgt = map.height() + (vertices ? 1 : 0);
  auto free_cell = [&] {
    for (int tries = 0; tries < 10000; ++tries) {
      const lddb::point p{g.below(map.width()), g.below(map.height())};
      if (!map.blocked(p.x, p.y)) return p;
    }
    return lddb::point{0, 0};
  };
  std::vector<query> q;
  const lddb::point f = free_cell();
  q.push_back({f, f});
  q.push_back({{-1, 0}, f});
  q.push_back({f, {w + 3, 1}});
  for (int tries = 0; tries < 10000; ++tries) {
    const lddb::point p{g.below(map.width()), g.below(map.height())};
    if (map.blocked(p.x, p.y)) {
      q.push_back({f, p});
      break;
    }
  }
  while (static_cast<int>(q.size()) < count) {
    if (g.below(8) == 0)
      q.push_back({{g.below(w), g.below(hgt)}, {g.below(w), g.below(hgt)}});
    else
      q.push_back({free_cell(), free_cell()});
  }
  return q;
}

struct named_map {
  std::string name;
  lddb::grid_map map;
};

// The maps for block size b: generated ones always; the Moving AI maps of `maps_dir`
// when present (a missing one is listed in *missing).
inline std::vector<named_map> maps_for(int b, const fs::path& maps_dir, std::vector<std::string>* missing) {
  std::vector<named_map> out;
  out.push_back({"random-96-25", lddb::make_random_map(96, 80, 25, 7, b)});
  out.push_back({"random-64-40", lddb::make_random_map(64, 64, 40, 11, b)});
  out.push_back({"rooms-128", lddb::make_rooms_map(128, 128, 9, 3, b)});
  out.push_back({"maze-97", lddb::make_maze_map(97, 91, 3, 5, b)});
  out.push_back({"empty-70", lddb::grid_map(70, 70, b)});
  for (const char* m : {"dao/arena", "rooms/64room_001", "mazes/maze512-8-1", "bg512/AR0500SR"}) {
    const fs::path p = maps_dir / (std::string(m) + ".map");
    std::string err;
    auto loaded = fs::exists(p) ? lddb::load_map(p.string(), &err, b) : std::nullopt;
    if (loaded)
      out.push_back({m, std::move(*loaded)});
    else if (missing)
      missing->push_back(p.string());
  }
  return out;
}

using search_fn = std::function<void(const lddb::grid_map&, lddb::point, lddb::point, lddb::search_context&,
                                     lddb::search_result&)>;

struct variant {
  std::string name;
  search_fn run;
};

inline std::vector<variant> variants_for(const std::shared_ptr<const lddb::database>& db, const lddb::rule& r) {
  using namespace lddb;
  std::vector<variant> v;
  // The searches' own paths (smooth = false), as recorded before any-angle paths were
  // smoothed by default; the smoothed ones are the "smooth" variants.
  struct raw_options : search_options {
    explicit raw_options(heuristic_kind h) : search_options(h) { smooth = false; }
  };
  const heuristic_kind hd = default_heuristic(r);
  auto block = [db](search_options o) {
    return [db, o](const grid_map& m, point s, point t, search_context& c, search_result& out) {
      find_path(*db, m, s, t, o, c, out);
    };
  };
  raw_options base(hd);
  v.push_back({"block-astar", block(base)});
  // Landmarks: four, farthest, built on the first query of each map and kept for the rest.
  auto landmarks = std::make_shared<std::pair<std::uint64_t, landmark_set>>();
  auto with_landmarks = [landmarks, r](const grid_map& m, search_options o) {
    if (landmarks->first != m.identity()) *landmarks = {m.identity(), landmark_set::build(r, m, 4)};
    o.landmarks = &landmarks->second;
    return o;
  };
  v.push_back({"block-astar/landmarks-4", [db, hd, with_landmarks](const grid_map& m, point s, point t,
                                                                   search_context& c, search_result& out) {
                 find_path(*db, m, s, t, with_landmarks(m, raw_options(hd)), c, out);
               }});
  raw_options rec(hd);
  rec.diagnostics.record_expanded = true;
  v.push_back({"block-astar/record", block(rec)});
  v.push_back({"block-astar/zero-h", block(raw_options(heuristic_kind::zero))});
  raw_options budget(hd);
  budget.max_expansions = 7;
  v.push_back({"block-astar/budget-7", block(budget)});
  raw_options expect(hd);
  expect.expected_rule = r.kind == rule_kind::tile ? rule::octile() : rule::tile();
  v.push_back({"block-astar/expect-other-rule", block(expect)});
  v.push_back({"block-astar/sliced-3", [db, hd](const grid_map& m, point s, point t, search_context& c,
                                               search_result& out) {
                 raw_options o(hd);
                 o.max_expansions = 500;
                 out = block_astar_begin(*db, m, s, t, o, c);
                 int slices = 0;
                 while (out.status == search_status::in_progress && slices < 100000) {
                   out = block_astar_continue(c, 3);
                   ++slices;
                 }
                 out.stats.los_checks ^= static_cast<std::uint64_t>(slices) << 40;
               }});
  raw_options large(hd);  // open squares up to 16 x 16 blocks
  large.diagnostics.open_squares = true;
  large.diagnostics.square_levels = search_diagnostics::kMaxSquareLevels;
  v.push_back({"block-astar/large-squares", block(large)});
  // Units (lddb/unit.hpp): a 2 x 2 one, and one that also crosses trees ('T').
  raw_options two(hd);
  two.unit.size = 2;
  v.push_back({"block-astar/size-2", block(two)});
  raw_options trees(hd);
  trees.unit.movement = movement_class::of(".GST");
  v.push_back({"block-astar/class-trees", block(trees)});
  if (r.on_vertices()) {
    raw_options fixed(hd);
    fixed.diagnostics.open_squares = false;
    v.push_back({"block-astar/fixed-blocks", block(fixed)});
    raw_options portable(hd);
    portable.diagnostics.vector_kernels = false;
    v.push_back({"block-astar/portable", block(portable)});
    // The library's default for any-angle: smoothed, its cost the smoothed path's.
    v.push_back({"block-astar/smooth", block(search_options{})});
    v.push_back({"theta", [r, hd](const grid_map& m, point s, point t, search_context& c, search_result& out) {
                   theta_star(r, m, s, t, raw_options(hd), c, out);
                 }});
    v.push_back({"lazy-theta", [r, hd](const grid_map& m, point s, point t, search_context& c, search_result& out) {
                   lazy_theta_star(r, m, s, t, raw_options(hd), c, out);
                 }});
    v.push_back({"theta/size-1", [r, hd](const grid_map& m, point s, point t, search_context& c, search_result& out) {
                   raw_options o(hd);
                   o.unit.size = 1;
                   theta_star(r, m, s, t, o, c, out);
                 }});
  } else {
    raw_options squares(hd);  // off by default for the cell rules
    squares.diagnostics.open_squares = true;
    v.push_back({"block-astar/open-squares", block(squares)});
    v.push_back({"astar", [r, hd](const grid_map& m, point s, point t, search_context& c, search_result& out) {
                   astar(r, m, s, t, raw_options(hd), c, out);
                 }});
    v.push_back({"astar/landmarks-4", [r, hd, with_landmarks](const grid_map& m, point s, point t, search_context& c,
                                                              search_result& out) {
                   astar(r, m, s, t, with_landmarks(m, raw_options(hd)), c, out);
                 }});
    v.push_back({"astar/zero-h", [r](const grid_map& m, point s, point t, search_context& c, search_result& out) {
                   astar(r, m, s, t, raw_options(heuristic_kind::zero), c, out);
                 }});
    v.push_back({"astar/size-3", [r, hd](const grid_map& m, point s, point t, search_context& c, search_result& out) {
                   raw_options o(hd);
                   o.unit.size = 3;
                   astar(r, m, s, t, o, c, out);
                 }});
    if (jump_point_search_supports(r)) {
      v.push_back({"jps", [r, hd](const grid_map& m, point s, point t, search_context& c, search_result& out) {
                     jump_point_search(r, m, s, t, raw_options(hd), c, out);
                   }});
      v.push_back({"jps/landmarks-4", [r, hd, with_landmarks](const grid_map& m, point s, point t, search_context& c,
                                                              search_result& out) {
                     jump_point_search(r, m, s, t, with_landmarks(m, raw_options(hd)), c, out);
                   }});
    }
    v.push_back({"smooth", [db, hd](const grid_map& m, point s, point t, search_context& c, search_result& out) {
                   find_path(*db, m, s, t, raw_options(hd), c, out);
                   if (out.found()) {
                     out.path = smooth_path(db->movement(), m, out.path);
                     out.length = path_length(out.path);
                   }
                 }});
  }
  return v;
}

// The databases: the shipped b = 4 files and the frozen golden files of b = 3 (every rule
// variant), read from the source tree.
inline std::vector<std::string> database_files() {
  return {"lddb/tile-4.lddb",
          "lddb/octile-4.lddb",
          "lddb/any-angle-4.lddb",
          "tests/golden/tile-3.lddb",
          "tests/golden/octile-3.lddb",
          "tests/golden/octile-3-corners-diagonal-1.5.lddb",
          "tests/golden/any-angle-3.lddb",
          "tests/golden/any-angle-3-squeeze.lddb"};
}

// Lines "DATABASE MAP VARIANT queries=N found=F hash=H". Large maps get fewer queries, so
// that the whole run stays a few seconds (also under the sanitizers).
inline std::vector<std::string> fingerprint(const fs::path& source_dir, const fs::path& maps_dir,
                                            std::vector<std::string>* missing, std::string* error) {
  std::vector<std::string> lines;
  lddb::search_context ctx;
  lddb::search_result out;
  for (const std::string& file : database_files()) {
    auto opened = lddb::database::open((source_dir / file).string());
    if (!opened) {
      *error = opened.message;
      return {};
    }
    std::shared_ptr<const lddb::database> db = std::move(opened.db);
    const lddb::rule r = db->movement();
    for (named_map& m : maps_for(db->shape().block(), maps_dir, missing)) {
      const bool big = m.map.width() > 200;
      const int count = big ? 12 : 40;
      const std::vector<query> qs = queries_for(m.map, r.on_vertices(), count, 0x5eed ^ m.map.width());
      for (const variant& v : variants_for(db, r)) {
        if (big && (v.name == "block-astar/zero-h" || v.name == "astar/zero-h")) continue;
        hasher h;
        int found = 0;
        for (const query& q : qs) {
          out.clear();
          v.run(m.map, q.start, q.goal, ctx, out);
          found += out.found();
          hash_result(h, out);
        }
        std::ostringstream line;
        line << file << ' ' << m.name << ' ' << v.name << " queries=" << qs.size() << " found=" << found
             << " hash=" << std::hex << h.h;
        lines.push_back(line.str());
      }
    }
  }
  return lines;
}

}  // namespace lddb_fingerprint
