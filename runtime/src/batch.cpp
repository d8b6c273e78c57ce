// batch_solver: persistent workers, one search_context each. See lddb/batch.hpp.
//
// A call publishes its task (function, data, count) and bumps a generation number under
// the mutex; each worker wakes, takes indices from an atomic counter until they run out,
// and reports back by decrementing `running`. The caller works as worker 0 meanwhile, then
// waits for `running` to reach zero, so no worker can still be busy with one call when the
// next begins. Nothing here allocates after construction (mutexes and condition variables
// do not), except an exception_ptr when a task throws.
#include "lddb/batch.hpp"
#include "lddb/find_path.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace lddb {

struct batch_solver::impl {
  std::vector<search_context> contexts;  // one per worker; [0] is the caller's
  std::vector<std::thread> threads;      // workers 1 .. n-1

  std::mutex call_mutex;  // one call at a time

  std::mutex mutex;  // guards the fields below it and publishes the task
  std::condition_variable wake;  // workers: a new generation, or stop
  std::condition_variable idle;  // caller: running reached zero
  std::uint64_t generation = 0;
  unsigned running = 0;
  bool stop = false;
  std::exception_ptr error;  // the first exception of the call

  // The current call's task, written before the generation is bumped.
  task_fn fn = nullptr;
  void* task = nullptr;
  std::size_t count = 0;
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};

  void work(unsigned w) {
    search_context& ctx = contexts[w];
    while (!failed.load(std::memory_order_relaxed)) {
      const std::size_t i = next.fetch_add(1, std::memory_order_relaxed);
      if (i >= count) return;
      try {
        fn(task, i, ctx);
      } catch (...) {
        std::lock_guard lock(mutex);
        if (!error) error = std::current_exception();
        failed.store(true, std::memory_order_relaxed);
        return;
      }
    }
  }

  void shut_down() {
    {
      std::lock_guard lock(mutex);
      stop = true;
    }
    wake.notify_all();
    for (std::thread& t : threads)
      if (t.joinable()) t.join();
    threads.clear();
  }

  void worker_main(unsigned w) {
    std::uint64_t seen = 0;
    for (;;) {
      {
        std::unique_lock lock(mutex);
        wake.wait(lock, [&] { return stop || generation != seen; });
        if (stop) return;
        seen = generation;
      }
      work(w);
      std::lock_guard lock(mutex);
      if (--running == 0) idle.notify_one();
    }
  }
};

batch_solver::batch_solver(unsigned threads) : impl_(std::make_unique<impl>()) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  impl_->contexts.resize(threads);
  impl_->threads.reserve(threads - 1);
  try {
    for (unsigned w = 1; w < threads; ++w) impl_->threads.emplace_back([m = impl_.get(), w] { m->worker_main(w); });
  } catch (...) {
    impl_->shut_down();  // the threads already started
    throw;
  }
}

batch_solver::~batch_solver() { impl_->shut_down(); }

unsigned batch_solver::threads() const { return static_cast<unsigned>(impl_->contexts.size()); }

search_context& batch_solver::context(unsigned worker) { return impl_->contexts.at(worker); }
const search_context& batch_solver::context(unsigned worker) const { return impl_->contexts.at(worker); }

void batch_solver::run(std::size_t count, task_fn fn, void* task) {
  if (count == 0) return;
  impl& m = *impl_;
  std::lock_guard call(m.call_mutex);
  // Waking threads for a single index would only cost time.
  const unsigned helpers = count > 1 ? static_cast<unsigned>(m.threads.size()) : 0;
  {
    std::lock_guard lock(m.mutex);
    m.fn = fn;
    m.task = task;
    m.count = count;
    m.next.store(0, std::memory_order_relaxed);
    m.failed.store(false, std::memory_order_relaxed);
    m.error = nullptr;
    m.running = helpers;
    if (helpers) ++m.generation;
  }
  if (helpers) m.wake.notify_all();
  m.work(0);
  std::exception_ptr error;
  {
    std::unique_lock lock(m.mutex);
    m.idle.wait(lock, [&] { return m.running == 0; });
    error = std::move(m.error);
    m.error = nullptr;
  }
  if (error) std::rethrow_exception(error);
}

void batch_solver::reserve(const database& db, const grid_map& map) {
  std::vector<search_context>& contexts = impl_->contexts;
  for_each(contexts.size(), [&](std::size_t i, search_context&) { contexts[i].reserve(db, map); });
}

void batch_solver::solve(const database& db, const grid_map& map, std::span<const query> queries,
                         const search_options& options, std::span<search_result> results) {
  if (results.size() != queries.size())
    throw std::invalid_argument("batch_solver::solve: " + std::to_string(queries.size()) + " queries but " +
                                std::to_string(results.size()) + " results");
  for_each(queries.size(), [&](std::size_t i, search_context& ctx) {
    const query& q = queries[i];
    if (q.unit && !(*q.unit == options.unit)) {
      search_options own = options;
      own.unit = *q.unit;
      find_path(db, map, q.start, q.goal, own, ctx, results[i]);
    } else {
      find_path(db, map, q.start, q.goal, options, ctx, results[i]);
    }
  });
}

}  // namespace lddb
