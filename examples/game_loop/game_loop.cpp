// game_loop: 200 agents walking a 96 x 64 map of rooms whose doors open and close.
//
//   game_loop [DATA_DIR]   (the folder holding octile-4.lddb; else lddb's usual search)
//
// Every frame: doors may toggle (set_blocked); when they do, every agent is re-planned in
// one batch_solver call, and agents that reached their goal get a new one; each agent then
// takes one step. Alongside, one long query is spread over frames with a fixed budget of
// block expansions per frame (block_astar_begin / block_astar_continue). After kFrames
// frames it draws the map and prints a summary. Exit status 1 if any search or step fails.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "lddb/batch.hpp"
#include "lddb/data_dir.hpp"
#include "lddb/format.hpp"
#include "lddb/grid.hpp"
#include "lddb/search.hpp"
#include "lddb/find_path.hpp"

namespace {

constexpr int kWidth = 96, kHeight = 64;
constexpr int kAgents = 200;
constexpr int kFrames = 60;
constexpr int kDoorPeriod = 8;          // frames between door toggles
constexpr std::uint64_t kSliceBudget = 4;  // nodes the long query may expand per frame

struct door {
  lddb::point cell;
  int group;  // group 0 is open on even periods, group 1 on odd ones
  bool open = false;
};

struct agent {
  lddb::point pos, goal;
  std::vector<lddb::point> path;  // path[step] == pos while following it
  std::size_t step = 0;
  bool needs_plan = true;
};

// A small deterministic generator, so every run (and every CI log) is the same.
std::uint64_t rng_state = 12345;
int random_below(int n) {
  rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
  return static_cast<int>((rng_state >> 33) % static_cast<std::uint64_t>(n));
}

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "game_loop: %s\n", what.c_str());
  std::exit(1);
}

// Outer walls, a 3 x 2 grid of rooms, and a few pillars. Each wall between two rooms gets
// two doors, one of each group, so the rooms stay connected whichever group is open.
std::vector<door> build_map(lddb::grid_map& map) {
  auto wall = [&](int x0, int y0, int x1, int y1) {
    for (int y = y0; y <= y1; ++y)
      for (int x = x0; x <= x1; ++x) map.set_blocked(x, y, true);
  };
  wall(0, 0, kWidth - 1, 0), wall(0, kHeight - 1, kWidth - 1, kHeight - 1);
  wall(0, 0, 0, kHeight - 1), wall(kWidth - 1, 0, kWidth - 1, kHeight - 1);
  wall(32, 0, 32, kHeight - 1), wall(64, 0, 64, kHeight - 1), wall(0, 32, kWidth - 1, 32);
  for (int i = 0; i < 12; ++i) {  // 2 x 2 pillars, clear of the walls
    const int x = 3 + random_below(kWidth - 6), y = 3 + random_below(kHeight - 6);
    if (x % 32 > 2 && x % 32 < 30 && y % 32 > 2 && y % 32 < 30) wall(x, y, x + 1, y + 1);
  }
  std::vector<door> doors;
  for (int wx : {32, 64})
    for (int top : {0, 32}) doors.push_back({{wx, top + 8}, 0}), doors.push_back({{wx, top + 22}, 1});
  for (int left : {0, 32, 64}) doors.push_back({{left + 10, 32}, 0}), doors.push_back({{left + 21, 32}, 1});
  return doors;  // all closed: the cells are wall until the first frame opens group 0
}

bool is_door(const std::vector<door>& doors, lddb::point p) {
  for (const door& d : doors)
    if (d.cell == p) return true;
  return false;
}

lddb::point random_free_cell(const lddb::grid_map& map, const std::vector<door>& doors) {
  for (;;) {
    const lddb::point p{random_below(kWidth), random_below(kHeight)};
    if (!map.blocked(p.x, p.y) && !is_door(doors, p)) return p;  // never a goal a door can close on
  }
}

// A legal step of an octile path: to a neighbour (or staying put) on a free cell.
bool valid_step(const lddb::grid_map& map, lddb::point a, lddb::point b) {
  return std::abs(a.x - b.x) <= 1 && std::abs(a.y - b.y) <= 1 && !map.blocked(b.x, b.y);
}

}  // namespace

int main(int argc, char** argv) {
  // Open the database once; it is immutable and shared by every thread.
  const std::string path = lddb::find_database("octile-4.lddb", argc > 1 ? argv[1] : "");
  auto opened = lddb::database::open(path);
  if (!opened) fail(opened.message);
  const lddb::database& db = *opened.db;

  lddb::grid_map map(kWidth, kHeight, db.shape().block());  // blocks must match the database's
  std::vector<door> doors = build_map(map);
  std::vector<agent> agents(kAgents);
  for (agent& a : agents) a.pos = random_free_cell(map, doors), a.goal = random_free_cell(map, doors);

  lddb::search_options options(lddb::heuristic_kind::octile);
  lddb::batch_solver solver(2);               // worker threads and warm contexts, kept for the whole game
  solver.reserve(db, map);  // every worker's context sized for the whole map: no hitch on the first frame
  std::vector<lddb::query> queries;           // reused every frame: they keep their capacity
  std::vector<lddb::search_result> results;
  std::vector<std::size_t> who;               // queries[i] plans agents[who[i]]

  // The long query searches a snapshot: a sliced search needs its map unchanged until it
  // ends, while the live map's doors keep moving.
  lddb::search_context long_ctx;
  lddb::grid_map snapshot = map;
  long_ctx.reserve(db, snapshot);
  const lddb::point long_start{1, 1}, long_goal{kWidth - 2, kHeight - 2};
  int long_done_frame = -1;

  long replans = 0, solved = 0, batches = 0, door_changes = 0;
  double batch_us = 0;
  for (int frame = 0; frame < kFrames; ++frame) {
    // 1. Doors. A door never closes on an agent standing in it (its next search would start
    // on a blocked cell); it closes a later frame instead.
    bool changed = false;
    for (door& d : doors) {
      const bool want_open = (frame / kDoorPeriod) % 2 == d.group;
      if (want_open == d.open) continue;
      bool occupied = false;
      for (const agent& a : agents) occupied = occupied || a.pos == d.cell;
      if (!want_open && occupied) continue;
      map.set_blocked(d.cell.x, d.cell.y, !want_open);  // O(1); the next search sees it
      d.open = want_open, changed = true, ++door_changes;
    }
    if (frame == 0) snapshot = map;  // the long query's map: frame 0's doors

    // 2. Plans: everyone when the map changed, else only agents needing a new goal or plan.
    queries.clear(), who.clear();
    for (std::size_t i = 0; i < agents.size(); ++i) {
      agent& a = agents[i];
      if (a.pos == a.goal) a.goal = random_free_cell(map, doors), a.needs_plan = true;
      if (changed || a.needs_plan) queries.push_back({a.pos, a.goal}), who.push_back(i);
    }
    if (!queries.empty()) {
      results.resize(queries.size());
      const auto t0 = std::chrono::steady_clock::now();
      solver.solve(db, map, queries, options, results);
      batch_us += std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
      ++batches, replans += static_cast<long>(queries.size());
      for (std::size_t q = 0; q < queries.size(); ++q) {
        agent& a = agents[who[q]];
        const lddb::search_result& r = results[q];
        if (r.found()) {
          a.path.assign(r.path.begin(), r.path.end()), a.step = 0, a.needs_plan = false, ++solved;
        } else if (r.status == lddb::search_status::no_path) {
          a.path.clear(), a.needs_plan = true;  // wait in place and ask again next frame
        } else {
          fail("agent " + std::to_string(who[q]) + ": " + lddb::search_status_name(r.status) + ": " + r.message);
        }
      }
    }

    // 3. The long query: begin once, then a fixed number of expansions each frame.
    if (frame == 0) {
      const lddb::search_result r = lddb::block_astar_begin(db, snapshot, long_start, long_goal, options, long_ctx);
      if (r.status != lddb::search_status::in_progress) fail(std::string("long query: ") + lddb::search_status_name(r.status));
    } else if (long_done_frame < 0) {
      const lddb::search_result r = lddb::block_astar_continue(long_ctx, kSliceBudget);
      if (r.status != lddb::search_status::in_progress) {
        if (!r.found()) fail(std::string("long query: ") + lddb::search_status_name(r.status) + ": " + r.message);
        for (std::size_t i = 1; i < r.path.size(); ++i)
          if (!valid_step(snapshot, r.path[i - 1], r.path[i])) fail("long query: invalid step");
        // Slicing changes when the work is done, not the answer.
        lddb::search_context check_ctx;
        if (lddb::find_path(db, snapshot, long_start, long_goal, options, check_ctx).path != r.path)
          fail("long query: sliced path differs from block_astar's");
        long_done_frame = frame, ++solved;
        std::printf("long query (%d,%d) -> (%d,%d): found at frame %d, %zu cells, length %.2f, %llu nodes expanded\n",
                    long_start.x, long_start.y, long_goal.x, long_goal.y, frame, r.path.size(), r.length,
                    static_cast<unsigned long long>(r.stats.expanded));
      }
    }

    // 4. Movement: one cell per frame along the plan, checked against the live map.
    for (std::size_t i = 0; i < agents.size(); ++i) {
      agent& a = agents[i];
      if (a.needs_plan || a.step + 1 >= a.path.size()) continue;
      const lddb::point next = a.path[a.step + 1];
      if (!valid_step(map, a.pos, next)) fail("agent " + std::to_string(i) + ": invalid step");
      a.pos = next, ++a.step;
    }
  }
  if (long_done_frame < 0) fail("long query did not finish within the frames");

  // The last frame: '#' wall, '+' closed door, '-' open door, '@' an agent (or more).
  std::vector<std::string> rows(kHeight, std::string(kWidth, '.'));
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x)
      if (map.blocked(x, y)) rows[y][x] = '#';
  for (const door& d : doors) rows[d.cell.y][d.cell.x] = d.open ? '-' : '+';
  for (const agent& a : agents) rows[a.pos.y][a.pos.x] = '@';
  for (const std::string& row : rows) std::printf("%s\n", row.c_str());
  std::printf("frames %d, agents %d, door changes %ld, replans %ld in %ld batches, queries solved %ld, "
              "mean %.1f us per batch\n",
              kFrames, kAgents, door_changes, replans, batches, solved, batches ? batch_us / batches : 0.0);
  return 0;
}
