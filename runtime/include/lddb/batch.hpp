// lddb/batch.hpp: many queries at once, for games that move many agents in one frame.
//
// A batch_solver owns a few persistent worker threads and one search_context per worker,
// so the contexts stay warm from one call to the next and a warm call allocates nothing:
//
//   lddb::batch_solver solver(2);                           // once; 0 = every core
//   std::vector<lddb::query> queries = ...;                 // one per agent
//   std::vector<lddb::search_result> results(queries.size());  // reused frame after frame
//   solver.solve(*db, map, queries, options, results);      // results[i] answers queries[i]
//
// Each query is solved on its own, by Block A* with whichever worker takes it; searches are
// deterministic and do not depend on what a context held before, so results[i] is the
// same for every thread count and every run (tests/batch_test.cpp). The calling thread is
// worker 0: a solver of one thread starts no thread at all.
//
// Workers take the next unsolved query from a shared counter, so a few long queries do
// not leave the other threads idle. Which worker solves which query therefore varies; a
// context grows to what the largest query it has met needs, so a call allocates nothing
// once every context has met the largest query of the batch. reserve(db, map) sizes every
// worker's context for the whole map beforehand (search_context::reserve), so that even
// the first call grows no context and faults in no fresh page; what is left to grow is
// the results' own vectors (reuse them).
//
// An exception thrown while solving (std::bad_alloc, or anything a for_each task throws)
// stops the workers taking new queries and is rethrown to the caller once every worker is
// idle again; the results are then unspecified, and the solver stays usable.
//
// One call at a time: a second thread calling solve() on the same solver waits for the
// first call to end. The database, the map, the queries and the results must stay alive
// and unchanged (the map too: no set_blocked) until the call returns.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <type_traits>
#include <utility>

#include "lddb/format.hpp"
#include "lddb/grid.hpp"
#include "lddb/search.hpp"

namespace lddb {

// One query of a batch: cells for tile and octile, vertices for any-angle.
struct query {
  point start, goal;
  // This query's unit (search_options::unit); unset: the options' own.
  std::optional<lddb::unit> unit = std::nullopt;
};

class batch_solver {
 public:
  // `threads` workers, the calling thread included (0: std::thread::hardware_concurrency,
  // at least 1). Starts threads - 1 threads, which wait for work until the solver is
  // destroyed. Throws std::system_error when a thread cannot be started.
  explicit batch_solver(unsigned threads = 0);
  ~batch_solver();  // stops and joins the workers
  batch_solver(const batch_solver&) = delete;
  batch_solver& operator=(const batch_solver&) = delete;

  unsigned threads() const;

  // find_path on every query: results[i] = find_path(db, map, queries[i].start,
  // queries[i].goal, options, ...), answered into results[i] so that its vectors keep their
  // capacity. Throws std::invalid_argument unless results.size() == queries.size(). An
  // empty batch returns at once.
  void solve(const database& db, const grid_map& map, std::span<const query> queries, const search_options& options,
             std::span<search_result> results);

  // The general form: calls task(i, ctx) once for every i in [0, count), spread over the
  // workers, ctx being the search_context of the worker that runs it; returns when all
  // have run. Tasks run concurrently, so each must touch only what belongs to its index,
  // and must not call this solver again. Allocates nothing of its own (the task is passed
  // by reference, not stored).
  template <class Task>
  void for_each(std::size_t count, Task&& task) {
    using T = std::remove_reference_t<Task>;
    run(count, [](void* t, std::size_t i, search_context& ctx) { (*static_cast<T*>(t))(i, ctx); },
        const_cast<void*>(static_cast<const void*>(std::addressof(task))));
  }

  // search_context::reserve(db, map) on every worker's context, spread over the workers
  // like a batch. Memory:
  // threads() times what one context reserves. Throws as search_context::reserve (a map
  // whose block size is not the database's: std::invalid_argument). Only while no call is
  // running.
  void reserve(const database& db, const grid_map& map);

  // Worker w's context (w < threads()), e.g. for memory_bytes() or to warm it up. Only
  // while no call is running.
  search_context& context(unsigned worker);
  const search_context& context(unsigned worker) const;

 private:
  using task_fn = void (*)(void* task, std::size_t index, search_context& ctx);
  void run(std::size_t count, task_fn fn, void* task);
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace lddb
