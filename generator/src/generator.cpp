// Enumerates the patterns, solves the canonical ones on all threads and deduplicates the
// tables in canonical-code order, so the image is the same whatever the thread count.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <stdexcept>
#include <thread>
#include <unordered_set>
#include <vector>

#include "lddb/generator.hpp"
#include "lddb/block_shape.hpp"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace lddb {

namespace {

// Codes are handed out in chunks; a wave of chunks is solved in parallel and then merged
// in order, which bounds memory for b = 5 (33 million patterns).
constexpr std::uint64_t kChunkCodes = 4096;

struct chunk_result {
  std::vector<std::uint32_t> codes;        // canonical codes, ascending
  std::vector<std::uint16_t> costs;        // codes.size() * pair_count
  std::vector<std::uint8_t> paths;         // concatenated path tables
  std::vector<std::uint32_t> path_end;     // end offset of each table in paths
};

void solve_chunk(const rule& r, const block_shape& shape, std::uint8_t mask, std::uint64_t first,
                 std::uint64_t last, chunk_result& out) {
  for (std::uint64_t c = first; c < last; ++c) {
    const auto code = static_cast<std::uint32_t>(c);
    if (shape.canonical(code, mask).code != code) continue;
    pattern_entry e = solve_pattern(r, shape, code);
    out.codes.push_back(code);
    out.costs.insert(out.costs.end(), e.costs.begin(), e.costs.end());
    out.paths.insert(out.paths.end(), e.paths.begin(), e.paths.end());
    out.path_end.push_back(static_cast<std::uint32_t>(out.paths.size()));
  }
}

// Tables are identified by content. The sets hold table ids; hashing and equality read
// the table through the image, so each table is stored once, in the image itself.
class table_store {
 public:
  explicit table_store(database_image& img, int pair_count)
      : img_(img),
        pairs_(static_cast<std::size_t>(pair_count)),
        costs_(0, cost_hash{this}, cost_equal{this}),
        paths_(0, path_hash{this}, path_equal{this}) {
    img_.path_offset.assign(1, 0);
  }

  std::uint32_t add_costs(const std::uint16_t* table) {
    const auto id = static_cast<std::uint32_t>(img_.costs.size() / pairs_);
    img_.costs.insert(img_.costs.end(), table, table + pairs_);
    const auto [it, inserted] = costs_.insert(id);
    if (!inserted) img_.costs.resize(img_.costs.size() - pairs_);
    return *it;
  }

  std::uint32_t add_paths(const std::uint8_t* begin, const std::uint8_t* end) {
    const auto id = static_cast<std::uint32_t>(img_.path_offset.size() - 1);
    img_.paths.insert(img_.paths.end(), begin, end);
    if (img_.paths.size() > 0xFFFFFFFFull) throw std::runtime_error("path section exceeds 4 GiB");
    img_.path_offset.push_back(static_cast<std::uint32_t>(img_.paths.size()));
    const auto [it, inserted] = paths_.insert(id);
    if (!inserted) {
      img_.path_offset.pop_back();
      img_.paths.resize(img_.path_offset.back());
    }
    return *it;
  }

 private:
  std::span<const std::uint16_t> cost_table(std::uint32_t id) const {
    return {img_.costs.data() + id * pairs_, pairs_};
  }
  std::span<const std::uint8_t> path_table(std::uint32_t id) const {
    return {img_.paths.data() + img_.path_offset[id], img_.path_offset[id + 1] - img_.path_offset[id]};
  }
  struct cost_hash {
    const table_store* s;
    std::size_t operator()(std::uint32_t id) const {
      const auto t = s->cost_table(id);
      return XXH3_64bits(t.data(), t.size_bytes());
    }
  };
  struct cost_equal {
    const table_store* s;
    bool operator()(std::uint32_t a, std::uint32_t b) const {
      return std::ranges::equal(s->cost_table(a), s->cost_table(b));
    }
  };
  struct path_hash {
    const table_store* s;
    std::size_t operator()(std::uint32_t id) const {
      const auto t = s->path_table(id);
      return XXH3_64bits(t.data(), t.size_bytes());
    }
  };
  struct path_equal {
    const table_store* s;
    bool operator()(std::uint32_t a, std::uint32_t b) const {
      return std::ranges::equal(s->path_table(a), s->path_table(b));
    }
  };

  database_image& img_;
  std::size_t pairs_;
  std::unordered_set<std::uint32_t, cost_hash, cost_equal> costs_;
  std::unordered_set<std::uint32_t, path_hash, path_equal> paths_;
};

}  // namespace

database_image generate(const recipe& rc, const generate_options& options, generation_stats* stats) {
  if (rc.block < block_shape::kMinBlock || rc.block > block_shape::kMaxBlock)
    throw std::invalid_argument("block size must be 2..5, not " + std::to_string(rc.block));
  if (rc.zstd_level < 0 || rc.zstd_level > 22)
    throw std::invalid_argument("zstd level must be 0..22, not " + std::to_string(rc.zstd_level));
  const auto started = std::chrono::steady_clock::now();
  const block_shape shape(rc.block, rc.movement.on_vertices());
  const std::uint8_t mask = rc.use_symmetry ? rc.movement.symmetry_mask() : std::uint8_t{1};
  const int pair_count = shape.pair_count();
  const cost_format fmt = cost_format_for(rc.movement);

  database_image img;
  img.movement = rc.movement;
  img.block = rc.block;
  img.symmetry_mask = mask;
  img.encoding = fmt.encoding;
  img.scale_log2 = fmt.scale_log2;
  img.zstd_level = rc.zstd_level;
  img.manifest = recipe_to_manifest(rc);
  table_store store(img, pair_count);

  const unsigned threads = options.threads > 0 ? static_cast<unsigned>(options.threads)
                                               : std::max(1u, std::thread::hardware_concurrency());
  const std::uint64_t total = shape.pattern_count();
  const std::uint64_t chunks = (total + kChunkCodes - 1) / kChunkCodes;
  const std::uint64_t wave = std::uint64_t{threads} * 8;
  std::uint64_t canonical = 0, path_bytes_raw = 0;

  for (std::uint64_t wave_start = 0; wave_start < chunks; wave_start += wave) {
    const std::uint64_t wave_end = std::min(chunks, wave_start + wave);
    std::vector<chunk_result> results(wave_end - wave_start);
    std::atomic<std::uint64_t> next{wave_start};
    std::exception_ptr failure;
    std::atomic<bool> failed{false};
    auto work = [&] {
      try {
        for (std::uint64_t c; !failed && (c = next++) < wave_end;)
          solve_chunk(rc.movement, shape, mask, c * kChunkCodes, std::min(total, (c + 1) * kChunkCodes),
                      results[c - wave_start]);
      } catch (...) {
        if (!failed.exchange(true)) failure = std::current_exception();
      }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();
    if (failure) std::rethrow_exception(failure);

    for (const chunk_result& r : results) {
      std::uint32_t path_begin = 0;
      for (std::size_t k = 0; k < r.codes.size(); ++k) {
        img.cost_id.push_back(store.add_costs(r.costs.data() + k * static_cast<std::size_t>(pair_count)));
        img.path_id.push_back(store.add_paths(r.paths.data() + path_begin, r.paths.data() + r.path_end[k]));
        path_bytes_raw += r.path_end[k] - path_begin;
        path_begin = r.path_end[k];
      }
      canonical += r.codes.size();
    }
    if (options.progress) options.progress(std::min(total, wave_end * kChunkCodes), total);
  }

  if (stats) {
    const std::uint64_t n = static_cast<std::uint64_t>(shape.boundary_count());
    stats->patterns = total;
    stats->canonical_patterns = canonical;
    stats->cost_tables = img.costs.size() / static_cast<std::size_t>(pair_count);
    stats->path_tables = img.path_offset.size() - 1;
    stats->cost_bytes_full = total * n * (n - 1) * 2;
    stats->cost_bytes_symmetry = canonical * n * (n - 1) * 2;
    stats->cost_bytes_pairs = canonical * static_cast<std::uint64_t>(pair_count) * 2;
    stats->cost_bytes_dedup = img.costs.size() * 2;
    stats->path_bytes_canonical = path_bytes_raw;
    stats->path_bytes_dedup = img.paths.size();
    stats->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  }
  return img;
}

}  // namespace lddb
