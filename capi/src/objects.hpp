// capi/src/objects.hpp: what the C handles hold, and the one search routine that
// lddb_solve, the sliced search and the batch share so that they answer alike.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "lddb/batch.hpp"
#include "lddb/format.hpp"
#include "lddb/grid.hpp"
#include "lddb/landmarks.hpp"
#include "lddb/lddb.h"
#include "lddb/search.hpp"

namespace lddb::capi {

// A context: the search state of one thread and its last answer. The mutex serialises
// calls that share a context by mistake, instead of letting them race.
struct context_object {
  context_object() { result.status = search_status::found; }  // no search yet: nothing to explain
  std::mutex m;
  search_context ctx;
  search_result result;
  std::vector<point> path;  // the last answer's path (smoothed by the search when its options say)
  cost_t cost = kUnreachable;
  // A sliced query in progress keeps what it reads alive.
  bool in_progress = false;
  std::shared_ptr<const database> db;
  std::shared_ptr<const grid_map> map;
  std::shared_ptr<const landmark_set> landmarks;
};

struct batch_object {
  explicit batch_object(unsigned threads) : solver(threads) {}
  std::mutex m;
  batch_solver solver;
  std::vector<search_result> results;
  std::vector<std::vector<point>> paths;
  std::vector<cost_t> costs;
};

// lddb_options read and checked: the search's options and which search to run.
struct setup {
  lddb_algorithm algorithm = LDDB_BLOCK_ASTAR;
  search_options options;
  std::shared_ptr<const landmark_set> landmarks;  // held for the call; options.landmarks points at it
};
// OK, or INVALID_ARGUMENT naming the field.
lddb_status read_options(const char* fn, const lddb_options* in, const rule& r, setup* out);

// Runs the setup's search (which smooths the path when its options say) and prices it.
void run_search(const setup& s, const database& db, const grid_map& map, point start, point goal,
                search_context& ctx, search_result& r, std::vector<point>& path, cost_t& cost);
// After a search ended (also from block_astar_continue): the final path and its cost.
void finish_search(const search_result& r, std::vector<point>& path, cost_t& cost);

lddb_status status_of(search_status s);
void fill_result(const search_result& r, const std::vector<point>& path, cost_t cost, lddb_result* out);

}  // namespace lddb::capi
