// layout.hpp (private to lddb_format): the byte layout of a .lddb file and the invariants
// that the writer and the reader both enforce, so that the writer can never produce a file
// the reader refuses. docs/format.md is the specification; the offsets below follow it.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#define XXH_INLINE_ALL  // compiled in: the reader gains no link dependency
#include <xxhash.h>

#include "lddb/format.hpp"
#include "lddb/cost.hpp"
#include "lddb/rule.hpp"
#include "lddb/point.hpp"
#include "lddb/block_shape.hpp"
#include "lddb/path_table.hpp"

namespace lddb::layout {

// ----------------------------------------------------------------------------- constants

inline constexpr std::array<std::uint8_t, 8> kMagic{0x89, 'L', 'D', 'D', 'B', '\r', '\n', 0x1A};
inline constexpr std::size_t kHeaderSize = 64;
inline constexpr std::size_t kEntrySize = 48;  // one section table entry
inline constexpr std::size_t kAlign = 64;      // every section starts on a multiple of this
inline constexpr std::size_t kMaxSections = 16;
inline constexpr std::uint32_t kByteOrderMark = 0x01020304;
inline constexpr std::uint8_t kOffsetWidth = 8, kCostWidth = 2;
// Table ids are u16 while every id fits (both table counts at most this), else u32.
inline constexpr std::uint32_t kMaxNarrowIdCount = 65536;
// The manifest is a short text; the bound keeps a hostile size from allocating.
inline constexpr std::uint64_t kMaxManifest = std::uint64_t{16} << 20;

// Header field offsets.
namespace at {
inline constexpr std::size_t magic = 0, version = 8, min_reader = 12, byte_order = 16;
inline constexpr std::size_t offset_width = 20, id_width = 21, cost_width = 22, reserved = 23;
inline constexpr std::size_t block = 24, point_kind = 25, rule_kind = 26, corners = 27, squeeze = 28;
inline constexpr std::size_t encoding = 29, scale_log2 = 30, symmetry_mask = 31, diagonal = 32;
inline constexpr std::size_t canonical = 40, cost_tables = 44, path_tables = 48, sections = 52;
inline constexpr std::size_t checksum = 56;
}  // namespace at

// Section entry field offsets, relative to the entry.
namespace entry_at {
inline constexpr std::size_t tag = 0, codec = 4, reserved = 5, offset = 8, stored_size = 16;
inline constexpr std::size_t raw_size = 24, checksum = 32, reserved2 = 40;
}  // namespace entry_at

// The sections every file holds, in the order the writer writes them.
inline constexpr std::array<std::uint32_t, 4> kRequiredTags{kTagManifest, kTagEntries, kTagCosts, kTagPaths};

// ----------------------------------------------------------------------------- little-endian bytes

// Explicit byte assembly, so the file reads the same on a big-endian host. Compilers turn
// these into single loads and stores on little-endian machines.
template <class T>
inline T load_le(const std::uint8_t* p) {
  T v = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i) v |= T(p[i]) << (8 * i);
  return v;
}
template <class T>
inline void store_le(std::uint8_t* p, T v) {
  for (std::size_t i = 0; i < sizeof(T); ++i) p[i] = std::uint8_t(v >> (8 * i));
}

inline std::uint64_t align_up(std::uint64_t n) { return (n + (kAlign - 1)) & ~std::uint64_t{kAlign - 1}; }

inline std::uint64_t xxh3(std::span<const std::uint8_t> bytes) { return XXH3_64bits(bytes.data(), bytes.size()); }

// XXH3-64 of header bytes [0, 56) followed by the section table: one hash seals both,
// so a reader trusts no table entry it has not verified.
inline std::uint64_t header_checksum(const std::uint8_t* header, std::span<const std::uint8_t> table) {
  std::array<std::uint8_t, at::checksum + kMaxSections * kEntrySize> buf{};
  const std::size_t n = std::min(table.size(), kMaxSections * kEntrySize);
  std::copy(header, header + at::checksum, buf.begin());
  std::copy(table.begin(), table.begin() + static_cast<std::ptrdiff_t>(n), buf.begin() + at::checksum);
  return XXH3_64bits(buf.data(), at::checksum + n);
}

// ----------------------------------------------------------------------------- header fields

// The header fields that describe the database, decoded but not yet trusted.
struct fields {
  int block = 0;
  std::uint8_t point_kind = 0, rule_kind = 0, corners = 0, squeeze = 0, encoding = 0, scale_log2 = 0;
  std::uint8_t symmetry_mask = 0;
  std::uint64_t diagonal = 0;
  std::uint32_t canonical = 0, cost_tables = 0, path_tables = 0;
};

// The canonical form is only well defined (canonical of canonical is itself) when the mask
// is a group: it holds the identity and is closed under composition. Composition is worked
// out on the four cells of a 2x2 block, on which the eight symmetries act as eight distinct
// permutations.
inline bool mask_is_group(std::uint8_t mask) {
  static const auto compose = [] {
    const block_shape cells2(2, false);
    std::array<std::array<int, block_shape::kTransforms>, block_shape::kTransforms> table{};
    for (int a = 0; a < block_shape::kTransforms; ++a)
      for (int b = 0; b < block_shape::kTransforms; ++b)
        for (int t = 0; t < block_shape::kTransforms; ++t) {
          bool same = true;
          for (int i = 0; i < 4; ++i) {
            const point p = cells2.point_at(i);
            same = same && cells2.transform_point(b, cells2.transform_point(a, p)) == cells2.transform_point(t, p);
          }
          if (same) table[a][b] = t;
        }
    return table;
  }();
  if (!(mask & 1u)) return false;
  for (int a = 0; a < block_shape::kTransforms; ++a)
    for (int b = 0; b < block_shape::kTransforms; ++b)
      if ((mask >> a & 1u) && (mask >> b & 1u) && !(mask >> compose[a][b] & 1u)) return false;
  return true;
}

// How many codes are canonical for block size b under `mask`, without enumerating them:
// by Burnside's lemma the orbits of a group acting on the 2^(b*b) patterns number the mean,
// over its transforms, of 2^(the transform's cycles on the b*b cells). Lets the reader
// check the header's canonical count (and so every count and size bounded by it) before it
// allocates anything. Requires mask_is_group(mask).
inline std::uint64_t canonical_count(int b, std::uint8_t mask) {
  // cycles[b][t]: the cycles of transform t on the cells of a b x b block, worked out once.
  static const auto cycles = [] {
    std::array<std::array<int, block_shape::kTransforms>, block_shape::kMaxBlock + 1> out{};
    for (int side = block_shape::kMinBlock; side <= block_shape::kMaxBlock; ++side) {
      const block_shape cells(side, false);
      for (int t = 0; t < block_shape::kTransforms; ++t) {
        std::array<bool, block_shape::kMaxBlock * block_shape::kMaxBlock> seen{};
        for (int i = 0; i < side * side; ++i) {
          if (seen[static_cast<std::size_t>(i)]) continue;
          ++out[static_cast<std::size_t>(side)][static_cast<std::size_t>(t)];
          for (int j = i; !seen[static_cast<std::size_t>(j)];
               j = cells.point_index(cells.transform_point(t, cells.point_at(j))))
            seen[static_cast<std::size_t>(j)] = true;
        }
      }
    }
    return out;
  }();
  std::uint64_t sum = 0, members = 0;
  for (int t = 0; t < block_shape::kTransforms; ++t) {
    if (!(mask >> t & 1u)) continue;
    sum += std::uint64_t{1} << cycles[static_cast<std::size_t>(b)][static_cast<std::size_t>(t)];
    ++members;
  }
  return sum / members;
}

inline rule rule_of(const fields& f) { return rule_from_fields(f.rule_kind, f.corners, f.squeeze, f.diagonal); }

// Range checks of every descriptive field; nullopt when all hold, else what is wrong. The
// rule's own fields are checked by rule_fields_error (lddb/rule.hpp), as everywhere else.
inline std::optional<std::string> fields_problem(const fields& f) {
  using std::to_string;
  if (f.block < block_shape::kMinBlock || f.block > block_shape::kMaxBlock)
    return "block size " + to_string(f.block) + " is outside 2..5";
  if (auto why = rule_fields_error(f.rule_kind, f.corners, f.squeeze, f.diagonal)) return why;
  const auto kind = static_cast<rule_kind>(f.rule_kind);
  if (f.point_kind > 1) return "point kind " + to_string(f.point_kind) + " is unknown";
  if ((f.point_kind == 1) != (kind == rule_kind::any_angle))
    return std::string("point kind ") + (f.point_kind ? "vertices" : "cells") + " does not match the rule";
  if (f.encoding > 1) return "cost encoding " + to_string(f.encoding) + " is unknown";
  if (f.scale_log2 > kCostShift) return "cost scale 2^-" + to_string(f.scale_log2) + " is finer than 2^-32";
  if (static_cast<cost_encoding>(f.encoding) == cost_encoding::octile_pair) {
    if (kind != rule_kind::octile) return "octile-pair cost encoding with a rule that is not octile";
    if (f.scale_log2 != 0) return "octile-pair cost encoding with a nonzero scale";
  }
  if (!mask_is_group(f.symmetry_mask)) return "symmetry mask " + to_string(f.symmetry_mask) + " is not a group of transforms";
  const std::uint64_t patterns = std::uint64_t{1} << (f.block * f.block);
  if (f.canonical == 0 || f.canonical > patterns)
    return "canonical pattern count " + to_string(f.canonical) + " is outside 1.." + to_string(patterns);
  if (const std::uint64_t want = canonical_count(f.block, f.symmetry_mask); f.canonical != want)
    return "declares " + to_string(f.canonical) + " canonical patterns; b=" + to_string(f.block) + " with symmetry mask " +
           to_string(f.symmetry_mask) + " has " + to_string(want);
  // Tables are deduplicated, so each is used by at least one canonical pattern.
  if (f.cost_tables == 0 || f.cost_tables > f.canonical)
    return "cost table count " + to_string(f.cost_tables) + " is outside 1.." + to_string(f.canonical);
  if (f.path_tables == 0 || f.path_tables > f.canonical)
    return "path table count " + to_string(f.path_tables) + " is outside 1.." + to_string(f.canonical);
  return std::nullopt;
}

// ----------------------------------------------------------------------------- section sizes

inline std::uint64_t bitmap_bytes(const block_shape& s) { return path_bitmap_bytes(s.pair_count()); }

// The width of a table id in ENTR, which the counts alone decide: one file, one encoding.
inline std::uint8_t id_width(const fields& f) {
  return f.cost_tables <= kMaxNarrowIdCount && f.path_tables <= kMaxNarrowIdCount ? 2 : 4;
}

// Exact raw sizes of the fixed-width sections.
inline std::uint64_t entries_size(const fields& f) { return 2 * std::uint64_t{id_width(f)} * f.canonical; }
inline std::uint64_t costs_size(const fields& f, const block_shape& s) {
  return 2 * std::uint64_t(s.pair_count()) * f.cost_tables;
}
// PATH is at most 2^32 - 1 bytes, so a reader may hold table offsets in 32 bits.
inline constexpr std::uint64_t kMaxPaths = 0xFFFFFFFF;
// The largest a PATH section can be: every table with every pair present at full length,
// and no more than kMaxPaths.
inline std::uint64_t paths_bound(const fields& f, const block_shape& s) {
  return std::min(kMaxPaths, std::uint64_t{f.path_tables} *
                                 (bitmap_bytes(s) + std::uint64_t(s.pair_count()) * (1 + inflections::kCapacity)));
}

// ----------------------------------------------------------------------------- contents

// The lookup index. slot[code] = canonical ordinal << 3 | the lowest-numbered transform t
// in the mask with transform_pattern(t, code) == the code's canonical form (the same t as
// block_shape::canonical); `codes` lists the canonical codes in ascending order.
// Codes are walked in ascending order: the first code met of each orbit is its least, hence
// canonical, and its orbit is filled in from it: 8 transforms per canonical code instead
// of 7 per code. Requires mask_is_group(mask).
inline void canonical_index(const block_shape& s, std::uint8_t mask, std::vector<std::uint32_t>& slot,
                            std::vector<std::uint32_t>& codes) {
  constexpr std::uint32_t kUnset = ~std::uint32_t{0};
  slot.assign(s.pattern_count(), kUnset);
  codes.clear();
  for (std::uint64_t c = 0; c < s.pattern_count(); ++c) {
    if (slot[c] != kUnset) continue;
    const auto ordinal = static_cast<std::uint32_t>(codes.size());
    codes.push_back(static_cast<std::uint32_t>(c));
    for (int t = 0; t < block_shape::kTransforms; ++t) {
      if (!(mask >> t & 1u)) continue;
      // The orbit member o = t(c) returns to c by t's inverse; keep the lowest such transform.
      const std::uint32_t o = s.transform_pattern(t, static_cast<std::uint32_t>(c));
      const auto back = static_cast<std::uint32_t>(block_shape::inverse(t));
      if (slot[o] == kUnset || (slot[o] & 7u) > back) slot[o] = ordinal << 3 | back;
    }
  }
}

// Whether cells p and q lie on one straight or 45-degree line: Block A* can fill in the
// cells between them one step at a time.
inline bool in_line(point p, point q) {
  const int dx = q.x - p.x, dy = q.y - p.y;
  return dx == 0 || dy == 0 || dx == dy || dx == -dy;
}

}  // namespace lddb::layout
