// verifier.hpp (private to lddb_format): the verification of a file at open, in the order
// of docs/format.md, "Verification": each step only reads bytes an earlier step has shown to
// exist, so a hostile file gets a message, never an out-of-bounds read.
#pragma once

#include <zstd.h>

#include <array>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <system_error>

#include "database_impl.hpp"
#include "layout.hpp"
#include "lddb/block_shape.hpp"
#include "lddb/format.hpp"

namespace lddb::detail {

struct failure {
  status code;
  std::string what;  // the problem, without the file name
};
using problem = std::optional<failure>;

inline std::string hex(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016" PRIx64, v);
  return buf;
}
inline std::string num(std::uint64_t v) { return std::to_string(v); }
inline std::string errno_text(int e) { return std::generic_category().message(e); }

// One pass over the file, step by step; each step may rely on everything before it. The
// header and section table steps are in verify_header.cpp, decompression and the
// sections' contents in verify_sections.cpp.
class verifier {
 public:
  // The block shape is built once, straight into the database that will own it.
  verifier(std::span<const std::uint8_t> file, header_info& info, database::impl& out, std::optional<block_shape>& shape,
           const open_limits& limits)
      : file_(file), info_(info), out_(out), shape_(shape), limits_(limits) {}

  problem run() {
    if (auto p = check_magic()) return p;
    if (auto p = check_version()) return p;
    if (auto p = check_header()) return p;
    if (auto p = check_section_table()) return p;
    if (auto p = check_section_checksums()) return p;
    if (auto p = decode_sections()) return p;
    if (auto p = build_index()) return p;
    if (auto p = check_entries()) return p;
    if (auto p = check_paths()) return p;
    return check_direct_pairs();
  }

 private:
  const std::uint8_t* at(std::size_t offset) const { return file_.data() + offset; }

  // Header and section table (verify_header.cpp).
  problem check_magic();
  problem check_version();
  problem check_byte_order();
  problem check_header();
  void fill_info();
  section_info read_entry(std::size_t i) const;
  bool entry_reserved_zero(std::size_t i) const;
  // The raw size a known section must have (exact) or may have (at most); nullopt for an
  // unknown tag, which a later minor version may add and this reader skips.
  struct size_rule {
    std::uint64_t size;
    bool exact;
  };
  std::optional<size_rule> raw_size_rule(std::uint32_t tag) const;
  problem check_sizes(const section_info& s, const std::string& name) const;
  problem check_budget(const section_info& s, const std::string& name);
  problem check_padding(std::uint64_t from, std::uint64_t to) const;
  problem check_placement(const section_info& s, const std::string& name, std::uint64_t prev_end) const;
  problem check_section_table();
  problem check_section_checksums() const;

  // Decompression and the sections' contents (verify_sections.cpp).
  problem decode_zstd(const section_info& s, std::span<const std::uint8_t>& out);
  problem decode_sections();
  problem build_index();
  problem check_entries();
  problem check_paths();
  problem check_direct_pairs();

  std::span<const std::uint8_t> file_;
  header_info& info_;
  database::impl& out_;
  layout::fields f_;
  std::optional<block_shape>& shape_;
  const open_limits& limits_;
  std::uint64_t decoded_ = 0;  // raw bytes of the zstd sections met so far that open decompresses
  std::uint64_t table_end_ = 0;
  std::array<std::optional<std::size_t>, layout::kRequiredTags.size()> known_{};  // index in info_.sections
  std::unique_ptr<ZSTD_DCtx, decltype(&ZSTD_freeDCtx)> dctx_{nullptr, ZSTD_freeDCtx};
};

}  // namespace lddb::detail
