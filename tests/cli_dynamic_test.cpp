// tests/cli_dynamic_test.cpp: `lddb dynamic`, run as a user would run it, on small maps
// and scenario files written here. Its .scen and .patch are parsed back by the code below
// (not the program's), the patches replayed on the map, and every reference cost compared
// with an independent Dijkstra (tests/cell_dijkstra.hpp, moves judged by the checker).
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cell_dijkstra.hpp"
#include "cli_support.hpp"
#include "oracle.hpp"

namespace {

namespace fs = std::filesystem;
using namespace cli_support;
using rows = std::vector<std::string>;

bool free_letter(char c) { return c == '.' || c == 'G' || c == 'S'; }
char& cell(rows& m, int x, int y) { return m[static_cast<std::size_t>(y)][static_cast<std::size_t>(x)]; }
std::size_t size(int n) { return static_cast<std::size_t>(n); }

// 40x32: a border, a wall with two gaps, a second wall with one, a walled pocket no path
// enters, scattered cells, and some trees (blocked) and swamp (free).
rows test_map() {
  rows m(32, std::string(40, '.'));
  std::uint32_t lcg = 12345;
  for (int y = 0; y < 32; ++y)
    for (int x = 0; x < 40; ++x) {
      lcg = lcg * 1103515245u + 12345u;
      char& c = cell(m, x, y);
      if (x == 0 || y == 0 || x == 39 || y == 31) c = '@';
      else if (x == 13 && !(y >= 5 && y <= 7) && !(y >= 20 && y <= 21)) c = '@';
      else if (y == 16 && x > 13 && !(x >= 25 && x <= 28)) c = '@';
      else if (x >= 30 && x <= 35 && y >= 3 && y <= 8) c = (x == 30 || x == 35 || y == 3 || y == 8) ? '@' : '.';
      else if ((lcg >> 16) % 100 < 7) c = (lcg >> 8) % 3 == 0 ? 'T' : '@';
      else if ((lcg >> 16) % 100 < 10) c = 'S';
    }
  return m;
}

// The same size, another layout: rooms of 9 cells with doorways.
rows other_map() {
  rows m(32, std::string(40, '.'));
  for (int y = 0; y < 32; ++y)
    for (int x = 0; x < 40; ++x)
      if ((x % 10 == 0 || y % 10 == 0) && (x % 10 != 5 && y % 10 != 5)) cell(m, x, y) = '@';
  return m;
}

std::string map_text(const rows& m) {
  std::string t = "type octile\nheight " + std::to_string(m.size()) + "\nwidth " + std::to_string(m[0].size());
  t += "\nmap\n";
  for (const std::string& r : m) t += r + "\n";
  return t;
}

// Queries from scattered cells, some of their ends blocked and some in the pocket.
std::string scen_text(const rows& m, int count, int width_written = 0) {
  const int w = static_cast<int>(m[0].size()), h = static_cast<int>(m.size());
  std::string t = "version 1\n";
  std::uint32_t lcg = 777;
  const auto next = [&](int n) {
    lcg = lcg * 1664525u + 1013904223u;
    return static_cast<int>((lcg >> 8) % static_cast<std::uint32_t>(n));
  };
  for (int i = 0; i < count; ++i) {
    const int sx = next(w), sy = next(h);
    const bool pocket = i % 9 == 4;
    const int gx = pocket ? 31 + next(4) : next(w), gy = pocket ? 4 + next(4) : next(h);
    t += std::to_string(i / 10) + "\tt.map\t" + std::to_string(width_written ? width_written : w) + "\t" +
         std::to_string(h) + "\t" + std::to_string(sx) + "\t" + std::to_string(sy) + "\t" + std::to_string(gx) + "\t" +
         std::to_string(gy) + "\t0\n";
  }
  return t;
}

// ----------------------------------------------------------------------------- reading back

struct command {
  char kind = 0;  // 'P' or 'Q'
  int state = 0, patch = 0, x = 0, y = 0, gx = 0, gy = 0;
  double cost = 0;
};
struct written {
  int width = 0, height = 0;
  std::string patch_name;
  std::vector<rows> patches;
  std::vector<command> commands;
};

void expect_word(std::istream& in, const std::string& word) {
  std::string w;
  if (!(in >> w) || w != word) throw std::runtime_error("expected '" + word + "', found '" + w + "'");
}

// The files as the start kit's loader reads them, stricter: every header word in its place.
written read_back(const fs::path& stem) {
  written out;
  std::istringstream scen(read_file(stem.string() + ".scen")), patch(read_file(stem.string() + ".patch"));
  expect_word(scen, "version");
  expect_word(scen, "2");
  expect_word(scen, "height");
  scen >> out.height;
  expect_word(scen, "width");
  scen >> out.width;
  for (const char* w : {"cost", "1", "octile", "patch"}) expect_word(scen, w);
  scen >> out.patch_name;
  expect_word(scen, "commands");
  for (std::string k; scen >> k;) {
    command c;
    c.kind = k == "P" ? 'P' : k == "Q" ? 'Q' : throw std::runtime_error("unknown command " + k);
    if (c.kind == 'P') scen >> c.state >> c.patch >> c.x >> c.y;
    else scen >> c.state >> c.x >> c.y >> c.gx >> c.gy >> c.cost;
    if (!scen) throw std::runtime_error("a malformed command");
    out.commands.push_back(c);
  }
  expect_word(patch, "type");
  expect_word(patch, "patch");
  expect_word(patch, "patches");
  std::size_t n = 0;
  patch >> n;
  for (std::size_t i = 0; i < n; ++i) {
    int w = 0, h = 0;
    expect_word(patch, "patch");
    expect_word(patch, std::to_string(i));
    expect_word(patch, "height");
    patch >> h;
    expect_word(patch, "width");
    patch >> w;
    expect_word(patch, "map");
    rows r(static_cast<std::size_t>(h));
    for (std::string& line : r)
      if (!(patch >> line) || static_cast<int>(line.size()) != w || line.find_first_not_of(".@") != std::string::npos)
        throw std::runtime_error("patch " + std::to_string(i) + ": a row not of " + std::to_string(w) + " '.'/'@'");
    out.patches.push_back(std::move(r));
  }
  std::string rest;
  if (patch >> rest) throw std::runtime_error("more after the last patch: " + rest);
  return out;
}

rows magnified(const rows& m, int n) {
  rows out;
  for (const std::string& r : m) {
    std::string line;
    for (char c : r) line.append(static_cast<std::size_t>(n), free_letter(c) ? '.' : '@');
    for (int k = 0; k < n; ++k) out.push_back(line);
  }
  return out;
}

bool same_cells(const rows& a, const rows& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t y = 0; y < a.size(); ++y) {
    if (a[y].size() != b[y].size()) return false;
    for (std::size_t x = 0; x < a[y].size(); ++x)
      if (free_letter(a[y][x]) != free_letter(b[y][x])) return false;
  }
  return true;
}

struct rect {
  int x, y, w, h;
  bool operator==(const rect&) const = default;
};
rows cells_under(const rows& m, const rect& r) {
  rows out;
  for (int y = r.y; y < r.y + r.h; ++y) out.push_back(m[size(y)].substr(size(r.x), size(r.w)));
  return out;
}
bool all_of_cells(const rows& p, bool free) {
  return std::all_of(p.begin(), p.end(), [&](const std::string& r) {
    return std::all_of(r.begin(), r.end(), [&](char c) { return free_letter(c) == free; });
  });
}

struct expectations {
  int rounds = 0, changes = 0, queries = 0;
  int scale = 1, region_max = 64;  // sizes are in cells of the map before scaling
};

// What the replay saw, for the checks each test adds.
struct replay {
  int doors = 0, buildings = 0, regions = 0, lifts = 0, switches = 0, no_path = 0, queries = 0;
};

// Replays the scenario on `map` (and `other`, the map switched to), checking what holds for
// every scenario: patch 0 is the map at 0 0; the states count the rounds, each round's
// patches before its queries; every patch lies on the map; a door or building lies on free
// ground and no change overlaps one still in place; a lift restores the cells of the map in
// force; every query's ends are free then and its cost is the oracle's.
replay check_scenario(const written& w, const rows& map, const rows* other, const expectations& e) {
  replay seen;
  const lddb::rule octile = *lddb::rule::parse("octile");
  EXPECT_EQ(static_cast<int>(map.size()), w.height);
  EXPECT_EQ(static_cast<int>(map[0].size()), w.width);
  if (w.commands.empty() || w.commands[0].kind != 'P' || w.commands[0].patch != 0 || w.commands[0].x != 0 ||
      w.commands[0].y != 0 || w.commands[0].state != 0) {
    ADD_FAILURE() << "the first command is not P 0 0 0 0";
    return seen;
  }
  EXPECT_TRUE(same_cells(w.patches.at(0), map)) << "patch 0 is not the map";
  rows now(static_cast<std::size_t>(w.height), std::string(static_cast<std::size_t>(w.width), '@'));
  const rows* base = &map;
  std::vector<rect> active;
  std::map<int, int> patches_of, queries_of;
  int state = 0;
  bool querying = false;
  std::optional<oracle::grid> grid;
  for (std::size_t i = 0; i < w.commands.size(); ++i) {
    const command& c = w.commands[i];
    const std::string at = "command " + std::to_string(i) + " (" + c.kind + " state " + std::to_string(c.state) + ")";
    EXPECT_TRUE(c.state == state || (c.state == state + 1 && c.kind == 'P' && querying)) << at;
    if (c.state != state) querying = false;
    state = c.state;
    if (c.kind == 'P') {
      EXPECT_FALSE(querying) << at << ": a patch after the round's queries";
      ++patches_of[state];
      grid.reset();
      if (c.patch < 0 || static_cast<std::size_t>(c.patch) >= w.patches.size()) {
        ADD_FAILURE() << at << ": no patch " << c.patch;
        return seen;
      }
      const rows& p = w.patches[static_cast<std::size_t>(c.patch)];
      const rect r{c.x, c.y, static_cast<int>(p[0].size()), static_cast<int>(p.size())};
      if (r.x < 0 || r.y < 0 || r.x + r.w > w.width || r.y + r.h > w.height) {
        ADD_FAILURE() << at << ": the patch is off the map";
        return seen;
      }
      const rows before = cells_under(now, r);
      for (int y = 0; y < r.h; ++y) now[size(r.y + y)].replace(size(r.x), size(r.w), p[size(y)]);
      if (i == 0) continue;
      const rows* next = base == &map ? other : &map;
      if (next && r.w == w.width && r.h == w.height && same_cells(p, *next)) {  // a switch
        base = next;
        active.clear();
        ++seen.switches;
      } else if (const auto it = std::find(active.begin(), active.end(), r); it != active.end()) {
        EXPECT_TRUE(same_cells(p, cells_under(*base, r))) << at << ": a lift that does not restore the map's cells";
        active.erase(it);
        ++seen.lifts;
      } else {
        for (const rect& a : active)
          EXPECT_FALSE(a.x < r.x + r.w && r.x < a.x + a.w && a.y < r.y + r.h && r.y < a.y + a.h)
              << at << ": overlaps a change still in place";
        const bool wall = all_of_cells(p, false);
        EXPECT_TRUE(r.x % e.scale == 0 && r.y % e.scale == 0 && r.w % e.scale == 0 && r.h % e.scale == 0)
            << at << ": not on the scaled map's cells";
        const int small = std::min(r.w, r.h) / e.scale, large = std::max(r.w, r.h) / e.scale;
        if (wall && small == 1) {
          EXPECT_GE(large, 2) << at;
          EXPECT_LE(large, 6) << at;
          EXPECT_TRUE(all_of_cells(before, true)) << at << ": a door not on free ground";
          ++seen.doors;
        } else if (wall && large <= 8) {
          EXPECT_GE(small, 2) << at;
          EXPECT_TRUE(all_of_cells(before, true)) << at << ": a building not on free ground";
          ++seen.buildings;
        } else {
          EXPECT_GE(small, 8) << at << ": a region too small";
          EXPECT_LE(large, e.region_max) << at << ": a region too large";
          ++seen.regions;
        }
        active.push_back(r);
      }
      continue;
    }
    querying = true;
    ++queries_of[state];
    ++seen.queries;
    const auto free_at = [&](int x, int y) {
      return x >= 0 && y >= 0 && x < w.width && y < w.height && free_letter(cell(now, x, y));
    };
    EXPECT_TRUE(free_at(c.x, c.y) && free_at(c.gx, c.gy)) << at << ": an end is blocked or off the map";
    if (!grid) grid = oracle::grid::from_rows(now);
    const lddb::cost_t best = lddb_test::least_cell_cost(
        octile, w.width, w.height, {c.x, c.y}, {c.gx, c.gy},
        [&](lddb::point p, int dx, int dy) { return lddb::checker::move_ok(octile, *grid, p, {p.x + dx, p.y + dy}); });
    if (best == lddb::kUnreachable) {
      EXPECT_EQ(c.cost, -1) << at;
      ++seen.no_path;
    } else {
      EXPECT_NEAR(c.cost, lddb::cost_to_double(best), 1e-6) << at;
    }
  }
  EXPECT_EQ(state, e.rounds) << "the last state is not the last round";
  for (int s = 0; s <= e.rounds; ++s) {
    EXPECT_EQ(queries_of[s], e.queries) << "state " << s;
    if (s > 0) {
      EXPECT_EQ(patches_of[s], e.changes) << "state " << s;
    }
  }
  return seen;
}

class cli_dynamic : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fresh_scratch_dir("cli_dynamic_test_scratch");
    write_file(dir_ / "t.map", map_text(map_));
    write_file(dir_ / "t.map.scen", scen_text(map_, 90));
    write_file(dir_ / "other.map", map_text(other_));
  }
  // Runs `lddb dynamic t.map --scen t.map.scen --out OUT ARGS` in the scratch folder.
  run_result dynamic(const std::string& out, const std::string& args) const {
    return run_in(dir_, "dynamic " + quote(dir_ / "t.map") + " --scen " + quote(dir_ / "t.map.scen") + " --out " +
                            quote(dir_ / out) + " " + args);
  }
  written made(const std::string& out, const std::string& args) const {
    const run_result r = dynamic(out, args);
    EXPECT_EQ(r.status, 0) << r.all();
    return read_back(dir_ / out);
  }

  fs::path dir_;
  rows map_ = test_map(), other_ = other_map();
};

// ----------------------------------------------------------------------------- the scenarios

TEST_F(cli_dynamic, doors_and_buildings_on_free_ground_lifted_to_the_map_costs_of_the_oracle) {
  const written w = made("db", "--seed 7 --rounds 12 --changes 6 --queries 10");
  EXPECT_EQ(w.patch_name, "db.patch");  // beside the .scen, by its file name
  const replay r = check_scenario(w, map_, nullptr, {12, 6, 10});
  EXPECT_GT(r.doors, 0);
  EXPECT_GT(r.buildings, 0);
  EXPECT_GT(r.lifts, 0);
  EXPECT_EQ(r.regions + r.switches, 0);
  EXPECT_GT(r.no_path, 0) << "the pocket's queries have no path and are kept, cost -1";
  EXPECT_TRUE(leftover_temporaries(dir_).empty());
}

TEST_F(cli_dynamic, regions_and_switches_replay_and_lifts_restore_the_map_in_force) {
  const written w = made("rs", "--seed 3 --rounds 9 --changes 5 --queries 8 --kinds doors,regions,switch "
                               "--region-size 8-24 --switch-every 3 --switch-to " + quote(dir_ / "other.map"));
  const replay r = check_scenario(w, map_, &other_, {9, 5, 8, 1, 24});
  EXPECT_EQ(r.switches, 3);  // rounds 3, 6 and 9: to the other map, back, to it again
  EXPECT_GT(r.regions, 0);
  EXPECT_GT(r.doors, 0);
  EXPECT_GT(r.lifts, 0);
  EXPECT_EQ(r.buildings, 0);
}

TEST_F(cli_dynamic, rounds_zero_is_the_map_and_its_first_queries) {
  const written w = made("static", "--rounds 0 --queries 15");
  check_scenario(w, map_, nullptr, {0, 0, 15});
  EXPECT_EQ(std::count_if(w.commands.begin(), w.commands.end(), [](const command& c) { return c.kind == 'P'; }), 1);
}

TEST_F(cli_dynamic, scale_draws_every_cell_n_times_and_multiplies_the_coordinates) {
  const std::string args = "--seed 11 --rounds 5 --changes 4 --queries 6 --kinds doors,buildings,regions";
  const written one = made("s1", args), three = made("s3", args + " --scale 3");
  EXPECT_EQ(three.width, 3 * one.width);
  EXPECT_EQ(three.height, 3 * one.height);
  const replay r = check_scenario(three, magnified(map_, 3), nullptr, {5, 4, 6, 3});  // costs anew at 120x96
  EXPECT_GT(r.doors + r.buildings, 0);
  EXPECT_GT(r.regions, 0);
  ASSERT_EQ(three.commands.size(), one.commands.size());
  ASSERT_EQ(three.patches.size(), one.patches.size());
  for (std::size_t i = 0; i < one.patches.size(); ++i)
    EXPECT_EQ(three.patches[i], magnified(one.patches[i], 3)) << "patch " << i;
  for (std::size_t i = 0; i < one.commands.size(); ++i) {
    const command &a = one.commands[i], &b = three.commands[i];
    EXPECT_EQ(b.kind, a.kind);
    EXPECT_EQ(b.state, a.state);
    EXPECT_EQ(b.patch, a.patch);
    EXPECT_EQ(b.x, 3 * a.x);
    EXPECT_EQ(b.y, 3 * a.y);
    EXPECT_EQ(b.gx, 3 * a.gx);
    EXPECT_EQ(b.gy, 3 * a.gy);
    EXPECT_EQ(b.cost == -1, a.cost == -1) << "command " << i;
  }
}

TEST_F(cli_dynamic, the_same_seed_gives_the_same_bytes_and_another_seed_others) {
  fs::create_directories(dir_ / "a");
  fs::create_directories(dir_ / "b");
  fs::create_directories(dir_ / "c");
  const std::string args = "--rounds 6 --changes 5 --queries 7 --kinds doors,buildings,regions";
  ASSERT_EQ(dynamic("a/x", args + " --seed 42").status, 0);
  ASSERT_EQ(dynamic("b/x.scen", args + " --seed 42").status, 0);  // a trailing .scen is the same name
  ASSERT_EQ(dynamic("c/x", args + " --seed 43").status, 0);
  for (const char* ext : {".scen", ".patch"}) {
    const std::string a = read_file(dir_ / "a" / (std::string("x") + ext));
    EXPECT_FALSE(a.empty()) << ext;
    EXPECT_EQ(a, read_file(dir_ / "b" / (std::string("x") + ext))) << ext;
    EXPECT_NE(a, read_file(dir_ / "c" / (std::string("x") + ext))) << ext;
  }
}

TEST_F(cli_dynamic, help_names_every_option_and_kind) {
  const run_result r = run_in(dir_, "dynamic --help");
  EXPECT_EQ(r.status, 0) << r.all();
  for (const char* word : {"Usage", "--scen", "--out", "--seed", "--rounds", "--changes", "--queries", "--kinds",
                           "--switch-to", "--switch-every", "--scale", "--door-length", "--building-size",
                           "--region-size", "doors", "buildings", "regions", "switch", "Examples:"})
    EXPECT_NE(r.out.find(word), std::string::npos) << word;
  EXPECT_NE(run_in(dir_, "--help").out.find("dynamic"), std::string::npos);
}

// ----------------------------------------------------------------------------- bad input

struct bad_case {
  const char* name;
  std::string args;       // after `lddb dynamic`; {dir} stands for the scratch folder
  const char* mention;    // in the message
  int status;
};

TEST_F(cli_dynamic, bad_input_fails_naming_the_problem_and_writes_nothing) {
  write_file(dir_ / "bad.map", "type octile\nheight 3\nwidth 5\nmap\n.....\n...\n.....\n");
  write_file(dir_ / "bad.scen", "version 1\n0\tt.map\t40\t32\t1\t1\n");
  write_file(dir_ / "wide.scen", scen_text(map_, 10, 50));
  rows walls(32, std::string(40, '@'));
  write_file(dir_ / "walls.map", map_text(walls));
  write_file(dir_ / "small.map", map_text(rows(20, std::string(40, '.'))));
  const std::string t = "{dir}/t.map --scen {dir}/t.map.scen ";
  const std::vector<bad_case> cases = {
      {"missing map", "{dir}/nothere.map --scen {dir}/t.map.scen", "nothere.map", 1},
      {"malformed map", "{dir}/bad.map --scen {dir}/t.map.scen", "bad.map", 1},
      {"missing scenario", "{dir}/t.map --scen {dir}/nothere.scen", "nothere.scen", 1},
      {"malformed scenario", "{dir}/t.map --scen {dir}/bad.scen", "bad.scen", 1},
      {"scenario of another size", "{dir}/t.map --scen {dir}/wide.scen", "wide.scen", 1},
      {"no query with free ends", "{dir}/walls.map --scen {dir}/t.map.scen", "no query has both ends free", 1},
      {"switch map of another size", t + "--kinds doors,switch --switch-to {dir}/small.map", "small.map", 1},
      {"switch without a map", t + "--kinds switch", "--switch-to", 2},
      {"a map to switch to without switch", t + "--switch-to {dir}/other.map", "--switch-to", 2},
      {"unknown kind", t + "--kinds doors,bogus", "bogus", 2},
      {"no kind", t + "--kinds ,", "--kinds", 2},
      {"rounds not a number", t + "--rounds many", "--rounds", 2},
      {"no queries", t + "--queries 0", "--queries", 2},
      {"no changes", t + "--changes 0", "--changes", 2},
      {"scale zero", t + "--scale 0", "--scale", 2},
      {"scale over the start kit's limit", t + "--scale 201", "--scale", 2},
      {"door sizes reversed", t + "--door-length 6-2", "--door-length", 2},
      {"region size not a size", t + "--region-size 0x10", "--region-size", 2},
      {"seed not a number", t + "--seed -1", "--seed", 2},
  };
  for (const bad_case& c : cases) {
    std::string args = c.args;
    for (std::size_t at; (at = args.find("{dir}")) != std::string::npos;) args.replace(at, 5, dir_.string());
    const run_result r = run_in(dir_, "dynamic " + args + " --out " + quote(dir_ / "out"));
    SCOPED_TRACE(c.name);
    expect_clean_failure(r, c.mention, c.status);
    EXPECT_FALSE(fs::exists(dir_ / "out.scen"));
    EXPECT_FALSE(fs::exists(dir_ / "out.patch"));
  }
  const run_result r = dynamic("missing-folder/out", "");
  expect_clean_failure(r, "missing-folder", 1);
  EXPECT_TRUE(leftover_temporaries(dir_).empty());
}

}  // namespace
