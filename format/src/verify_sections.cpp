// Verification, steps on the sections: zstd sections decompressed (once, at open), then
// the contents: the lookup index, the table ids in ENTR, the path tables, and the pairs a
// cost table reaches without a stored path.
#include <zstd.h>

#include <algorithm>
#include <array>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "layout.hpp"
#include "lddb/path_table.hpp"
#include "verifier.hpp"

namespace lddb::detail {

using layout::load_le;

problem verifier::decode_zstd(const section_info& s, std::span<const std::uint8_t>& out) {
  const std::string name = s.name();
  const std::span<const std::uint8_t> frame = file_.subspan(s.offset, s.stored_size);
  const unsigned long long declared = ZSTD_getFrameContentSize(frame.data(), frame.size());
  if (declared == ZSTD_CONTENTSIZE_ERROR)
    return failure{status::decompress_failed, "section " + name + " is not a zstd frame"};
  if (declared != s.raw_size)  // also catches ZSTD_CONTENTSIZE_UNKNOWN
    return failure{status::decompress_failed, "section " + name + " frame declares " +
                                                  (declared == ZSTD_CONTENTSIZE_UNKNOWN ? std::string("no") : num(declared)) +
                                                  " content size; the table says " + num(s.raw_size)};
  const std::size_t frame_size = ZSTD_findFrameCompressedSize(frame.data(), frame.size());
  if (ZSTD_isError(frame_size) || frame_size != frame.size())
    return failure{status::decompress_failed, "section " + name + " is not exactly one zstd frame"};
  // The raw size is bounded by the header counts (check_sizes) and the caller's budget
  // (check_budget), so this allocation is too.
  owned_bytes raw = allocate(s.raw_size);
  if (!dctx_) dctx_.reset(ZSTD_createDCtx());
  if (!dctx_) throw std::bad_alloc();
  const std::size_t n = ZSTD_decompressDCtx(dctx_.get(), raw.data.get(), raw.size, frame.data(), frame.size());
  if (ZSTD_isError(n))
    return failure{status::decompress_failed, "section " + name + " does not decompress: " + ZSTD_getErrorName(n)};
  if (n != s.raw_size)
    return failure{status::decompress_failed, "section " + name + " decompresses to " + num(n) + " bytes, not " + num(s.raw_size)};
  out = raw.bytes();
  out_.decoded.push_back(std::move(raw));
  return std::nullopt;
}

problem verifier::decode_sections() {
  std::span<const std::uint8_t>* targets[] = {&out_.manifest, &out_.entries, &out_.costs, &out_.paths};
  for (std::size_t r = 0; r < layout::kRequiredTags.size(); ++r) {
    const section_info& s = info_.sections[*known_[r]];
    if (s.codec == section_codec::stored) {
      *targets[r] = file_.subspan(s.offset, s.stored_size);  // used in place, no copy
    } else if (auto p = decode_zstd(s, *targets[r])) {
      return p;
    }
  }
  return std::nullopt;
}

// The index depends only on (b, mask), so building it needs no trust in the sections.
// The header's canonical count was checked against (b, mask) at step 7; counting the
// codes here checks that count once more, against the index lookups will use.
problem verifier::build_index() {
  layout::canonical_index(*shape_, f_.symmetry_mask, out_.slot, out_.canonical);
  if (out_.canonical.size() != f_.canonical)
    return failure{status::bad_header, "header declares " + num(f_.canonical) + " canonical patterns; b=" + num(f_.block) +
                                           " with symmetry mask " + num(f_.symmetry_mask) + " has " +
                                           num(out_.canonical.size())};
  return std::nullopt;
}

namespace {

// The ids of one plane must all be below `limit`: a branch-free maximum first (the usual,
// passing case), then the first offender for the message.
template <class Id>
std::optional<std::size_t> first_id_at_or_above(const std::uint8_t* plane, std::size_t n, std::uint32_t limit) {
  Id top = 0;
  for (std::size_t i = 0; i < n; ++i) top = std::max(top, load_le<Id>(plane + sizeof(Id) * i));
  if (top < limit) return std::nullopt;
  for (std::size_t i = 0;; ++i)
    if (load_le<Id>(plane + sizeof(Id) * i) >= limit) return i;
}

}  // namespace

problem verifier::check_entries() {
  out_.wide_ids = layout::id_width(f_) == 4;
  out_.path_plane = f_.canonical;
  const std::uint8_t* cost_plane = out_.entries.data();
  const std::uint8_t* path_plane = cost_plane + std::size_t{layout::id_width(f_)} * f_.canonical;
  const auto check = out_.wide_ids ? first_id_at_or_above<std::uint32_t> : first_id_at_or_above<std::uint16_t>;
  auto refuse = [&](std::size_t i, const char* kind, std::uint32_t id, std::uint32_t count) {
    return failure{status::bad_section, "section ENTR: canonical pattern " + num(i) + " (code " + num(out_.canonical[i]) +
                                            ") refers to " + kind + " table " + num(id) + "; there are " + num(count)};
  };
  if (const auto i = check(cost_plane, f_.canonical, f_.cost_tables))
    return refuse(*i, "cost", out_.cost_id(static_cast<std::uint32_t>(*i)), f_.cost_tables);
  if (const auto i = check(path_plane, f_.canonical, f_.path_tables))
    return refuse(*i, "path", out_.path_id(static_cast<std::uint32_t>(*i)), f_.path_tables);
  return std::nullopt;
}

// The tables are self-delimiting: parsing them in turn finds where each starts. The
// section must hold exactly path_tables of them and nothing after. path_tables is at
// most the canonical count (step 7), which bounds the offsets' allocation.
problem verifier::check_paths() {
  const std::span<const std::uint8_t> paths = out_.paths;
  std::vector<std::uint32_t>& start = out_.path_start;
  start.resize(std::size_t{f_.path_tables} + 1);
  std::size_t pos = 0;  // fits 32 bits: PATH is at most 2^32 - 1 bytes (step 11)
  for (std::uint32_t t = 0; t < f_.path_tables; ++t) {
    start[t] = static_cast<std::uint32_t>(pos);
    if (pos == paths.size())
      return failure{status::bad_section, "section PATH holds " + num(t) + (t == 1 ? " path table" : " path tables") +
                                              "; the header declares " + num(f_.path_tables)};
    if (auto why = parse_path_table(paths, pos, *shape_))
      return failure{status::bad_section, "section PATH: path table " + num(t) + " " + *why};
  }
  start[f_.path_tables] = static_cast<std::uint32_t>(pos);
  if (pos != paths.size())
    return failure{status::bad_section, "section PATH has " + num(paths.size() - pos) +
                                            (paths.size() - pos == 1 ? " byte" : " bytes") + " after path table " +
                                            num(f_.path_tables - 1) + ", the last of the " + num(f_.path_tables) +
                                            " the header declares"};
  return std::nullopt;
}

// A cell path stored without inflection points is the straight or 45-degree run between
// its two boundary points, and Block A* fills it in cell by cell. So a pattern whose
// cost table reaches a pair of boundary points that are not in line must find that pair
// in its path table. (Path tables are shared between patterns, so parse_path_table alone
// cannot tell.) One mask per table, then one AND per pattern: cheap even for b = 5.
problem verifier::check_direct_pairs() {
  const block_shape& s = *shape_;
  if (s.vertices()) return std::nullopt;  // any-angle: every segment is a straight line
  const int pairs = s.pair_count(), n = s.boundary_count();
  constexpr int kWords = 2;  // cells: at most 16 boundary points, 120 pairs
  if (pairs > 64 * kWords) return std::nullopt;
  using mask = std::array<std::uint64_t, kWords>;
  auto set = [](mask& m, int k) { m[static_cast<std::size_t>(k / 64)] |= std::uint64_t{1} << (k % 64); };
  mask crooked{};  // pairs whose boundary points are not in one straight or diagonal line
  std::vector<std::pair<int, int>> ends(static_cast<std::size_t>(pairs));
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b) {
      const int k = s.pair_index(a, b);
      ends[static_cast<std::size_t>(k)] = {a, b};
      if (!layout::in_line(s.boundary_point(a), s.boundary_point(b))) set(crooked, k);
    }
  std::vector<mask> reached(f_.cost_tables), missing(f_.path_tables);
  for (std::uint32_t t = 0; t < f_.cost_tables; ++t) {
    const std::uint8_t* row = out_.costs.data() + 2 * std::size_t{t} * std::size_t(pairs);
    for (int k = 0; k < pairs; ++k)
      if (load_le<std::uint16_t>(row + 2 * k) != kStoredUnreachable) set(reached[t], k);
  }
  for (std::uint32_t t = 0; t < f_.path_tables; ++t) {
    const std::span<const std::uint8_t> table = out_.path_table(t);
    for (std::size_t w = 0; w < kWords; ++w) {
      std::uint64_t present = 0;
      for (int k = 64 * static_cast<int>(w); k < std::min(pairs, 64 * static_cast<int>(w + 1)); ++k)
        present |= std::uint64_t{path_pair_present(table, k)} << (k % 64);
      missing[t][w] = crooked[w] & ~present;
    }
  }
  for (std::uint32_t i = 0; i < f_.canonical; ++i) {
    const std::uint32_t c = out_.cost_id(i), t = out_.path_id(i);
    for (std::size_t w = 0; w < kWords; ++w) {
      const std::uint64_t bad = reached[c][w] & missing[t][w];
      if (!bad) continue;
      const int k = 64 * static_cast<int>(w) + __builtin_ctzll(bad);
      const point p = s.boundary_point(ends[static_cast<std::size_t>(k)].first);
      const point q = s.boundary_point(ends[static_cast<std::size_t>(k)].second);
      return failure{status::bad_section,
                     "canonical pattern " + num(i) + " (code " + num(out_.canonical[i]) + "): cost table " + num(c) +
                         " reaches pair " + num(static_cast<std::uint64_t>(k)) + " from (" + std::to_string(p.x) + "," +
                         std::to_string(p.y) + ") to (" + std::to_string(q.x) + "," + std::to_string(q.y) +
                         "), which is neither straight nor diagonal, but path table " + num(t) +
                         " stores no inflection points for it"};
    }
  }
  return std::nullopt;
}

}  // namespace lddb::detail
