// database_impl.hpp (private to lddb_format): what an open database holds: its bytes (a
// memory map or a copy, plus the decompressed sections) and the indexes built at open.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "layout.hpp"
#include "lddb/format.hpp"

namespace lddb {

namespace detail {

// A read-only memory map, unmapped when the database goes.
class mapping {
 public:
  mapping() = default;
  mapping(void* addr, std::size_t size) : addr_(addr), size_(size) {}
  mapping(mapping&& o) noexcept : addr_(std::exchange(o.addr_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  mapping& operator=(mapping&& o) noexcept {
    std::swap(addr_, o.addr_);
    std::swap(size_, o.size_);
    return *this;
  }
  ~mapping() {
    if (addr_) ::munmap(addr_, size_);
  }
  std::span<const std::uint8_t> bytes() const { return {static_cast<const std::uint8_t*>(addr_), size_}; }

 private:
  void* addr_ = nullptr;
  std::size_t size_ = 0;
};

// Uninitialised on purpose: zero-filling a buffer zstd is about to overwrite is wasted work.
struct owned_bytes {
  std::unique_ptr<std::uint8_t[]> data;
  std::size_t size = 0;
  std::span<const std::uint8_t> bytes() const { return {data.get(), size}; }
};

inline owned_bytes allocate(std::size_t n) { return {std::make_unique_for_overwrite<std::uint8_t[]>(n), n}; }

}  // namespace detail

struct database::impl {
  detail::mapping map;         // the file, when opened from a path
  detail::owned_bytes copy;    // the bytes, when opened from memory
  std::vector<detail::owned_bytes> decoded;  // zstd sections, decoded at open
  std::span<const std::uint8_t> manifest, entries, costs, paths;
  // ENTR is two planes of ids, id_width bytes each: cost ids, then path ids from
  // path_plane (= the canonical count) on. Read in place: no copy at open.
  bool wide_ids = false;  // id width 4, else 2
  std::size_t path_plane = 0;
  // Where each path table starts in `paths`, and the end: path_tables + 1 offsets, found
  // by parsing the section at open (the tables are self-delimiting).
  std::vector<std::uint32_t> path_start;
  // Per pattern code: canonical ordinal << 3 | the transform taking the code to its
  // canonical form. Built at open from (b, mask) alone, so it needs no trust in the file.
  std::vector<std::uint32_t> slot;
  std::vector<std::uint32_t> canonical;  // ordinal -> canonical code, ascending
  int boundary_count = 0, pair_count = 0;
  cost_encoding encoding = cost_encoding::fixed_point;
  int shift = 0;             // fixed_point: value << shift is in cost units
  cost_t diagonal = 0;       // octile_pair
  // Per transform t, an n x n matrix: the pair index of boundary points (a, b) after t
  // (0 on the diagonal, which views never read). Lets a cost_view skip the transforms.
  std::vector<std::uint16_t> pair_of;
  std::vector<cost_t> open_costs;  // n x n, decoded (database::open_costs)
  bool open_costs_finite = false;   // no kUnreachable off the diagonal

  cost_t decode(std::uint16_t v) const {
    return decode_stored_cost(v, encoding == cost_encoding::octile_pair, shift, diagonal);
  }
  std::uint32_t id_at(std::size_t i) const {
    return wide_ids ? layout::load_le<std::uint32_t>(entries.data() + 4 * i) : layout::load_le<std::uint16_t>(entries.data() + 2 * i);
  }
  std::uint32_t cost_id(std::uint32_t ordinal) const { return id_at(ordinal); }
  std::uint32_t path_id(std::uint32_t ordinal) const { return id_at(path_plane + ordinal); }
  std::uint16_t stored(std::uint32_t cost_table, int pair) const {
    return layout::load_le<std::uint16_t>(&costs[2 * (std::size_t{cost_table} * std::size_t(pair_count) + std::size_t(pair))]);
  }
  bool valid_query(std::uint32_t code, int a, int b) const;
  static open_result verify_and_adopt(std::unique_ptr<impl> self, std::span<const std::uint8_t> file,
                                      const std::string& name, const open_limits& limits);

  std::span<const std::uint8_t> path_table(std::uint32_t id) const {
    return paths.subspan(path_start[id], path_start[id + 1] - path_start[id]);
  }
};

}  // namespace lddb
