// lddb/format.hpp: the .lddb file: writing it, verifying it, and reading it in place.
//
// The byte-by-byte specification is docs/format.md. In short: a 64-byte header, a table of
// 48-byte section entries, then the sections, each aligned to 64 bytes. Everything is
// little-endian. Stored sections are used in place from the memory map; zstd sections are
// decompressed once, at open. Every offset, size, count and checksum is verified before
// anything is used, so a corrupt or hostile file gives an error, never a bad read.
//
// The reader has no dependency beyond zstd (and xxHash, compiled in from its header).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "lddb/cost.hpp"
#include "lddb/rule.hpp"
#include "lddb/point.hpp"
#include "lddb/block_shape.hpp"
#include "lddb/stored_cost.hpp"

namespace lddb {

// ----------------------------------------------------------------------------- versions

struct format_version {
  std::uint16_t major = 0, minor = 0;
  friend auto operator<=>(const format_version&, const format_version&) = default;
};
// What this code writes, and the oldest reader that can read what it writes.
inline constexpr format_version kFormatVersion{1, 1};
inline constexpr format_version kMinReaderVersion{1, 0};
// What this reader understands: files whose major is kFormatVersion.major and whose
// minimum reader version is at most kFormatVersion.

// Format 1.1 gave two stored rule values a new meaning (docs/format.md, section 7):
// any-angle with squeeze 0 is the competition's rule (no passing between the sides of a
// double corner), and octile corners 2 lets a diagonal pass between two blocked cells. A
// file for such a rule needs a 1.1 reader; every other file can still be read by 1.0.
format_version min_reader_for(const rule& r);
// The rule a file's stored fields name, in the meaning of the version that wrote them:
// a 1.0 file's any-angle with squeeze 0 let a path turn at a double corner, which gives
// exactly the least costs of any-angle:squeeze=allowed (its paths are legal under that
// rule too), so it reads as any-angle:squeeze=allowed.
rule rule_as_written(const rule& stored, format_version written);

// ----------------------------------------------------------------------------- status

enum class status : std::uint8_t {
  ok = 0,
  io_error,           // cannot open, stat or map the file; a directory
  truncated,          // shorter than its header, table or a section says
  wrong_magic,        // not an .lddb file
  unsupported_version,// newer major, or needs a newer reader
  wrong_byte_order,   // byte-order mark or integer widths differ
  bad_header,         // a header field out of its range
  bad_section_table,  // offsets outside the file, overlaps, misalignment, overflow
  checksum_mismatch,  // header or section checksum
  decompress_failed,  // a zstd section does not decode to its declared size
  bad_section,        // a section's contents break an invariant (ids, counts, paths)
  rule_mismatch,      // the database's rule is not the one asked for
  too_large,          // intact as far as checked, but decoding it needs more memory than open_limits allow
};
const char* status_name(status s);

// ----------------------------------------------------------------------------- sections

// Section tags, four ASCII bytes read as a little-endian u32.
constexpr std::uint32_t section_tag(const char (&s)[5]) {
  return std::uint32_t(std::uint8_t(s[0])) | std::uint32_t(std::uint8_t(s[1])) << 8 |
         std::uint32_t(std::uint8_t(s[2])) << 16 | std::uint32_t(std::uint8_t(s[3])) << 24;
}
inline constexpr std::uint32_t kTagManifest = section_tag("MANI");  // Boost text archive, opaque here
inline constexpr std::uint32_t kTagEntries = section_tag("ENTR");   // all cost ids, then all path ids (u16 or u32)
inline constexpr std::uint32_t kTagCosts = section_tag("COST");     // cost tables: u16 per boundary pair
inline constexpr std::uint32_t kTagPaths = section_tag("PATH");     // self-delimiting path tables, see docs/format.md

enum class section_codec : std::uint8_t { stored = 0, zstd = 1 };

// ----------------------------------------------------------------------------- the image

// Everything a .lddb file holds, in memory: what the generator produces and the writer
// writes. Tables are already deduplicated and in their final order.
struct database_image {
  rule movement;
  int block = 4;
  std::uint8_t symmetry_mask = 0xFF;
  // How costs are stored: cost_format_for(movement) (lddb/stored_cost.hpp).
  cost_encoding encoding = cost_encoding::fixed_point;
  std::uint8_t scale_log2 = 0;
  // Canonical patterns in ascending code order; entry i gives the cost table and path table
  // of the i-th canonical pattern.
  std::vector<std::uint32_t> cost_id, path_id;
  std::vector<std::uint16_t> costs;        // cost_tables * pair_count
  // path_tables + 1 offsets into paths. In memory only: the file does not store them (path
  // tables are self-delimiting), but the writer checks that each table fills its slice.
  std::vector<std::uint32_t> path_offset;
  std::vector<std::uint8_t> paths;
  std::string manifest;                    // opaque bytes (the generator's recipe)
  int zstd_level = 9;
};

// Writes atomically: to "<path>.tmp-<pid>", fsync, then rename over path. On failure the
// target is untouched and *error says why. Output is a pure function of the image.
bool write_database(const database_image& image, const std::string& path, std::string* error);
// The same bytes, in memory.
std::vector<std::uint8_t> encode_database(const database_image& image);

// ----------------------------------------------------------------------------- the reader

struct section_info {
  std::uint32_t tag = 0;
  section_codec codec = section_codec::stored;
  std::uint64_t offset = 0, stored_size = 0, raw_size = 0, checksum = 0;
  std::string name() const;  // the tag as text
};

struct header_info {
  format_version version, min_reader;
  rule movement;
  int block = 0;
  bool vertices = false;
  cost_encoding encoding = cost_encoding::fixed_point;
  std::uint8_t scale_log2 = 0;
  std::uint8_t symmetry_mask = 0;
  std::uint32_t canonical_patterns = 0, cost_tables = 0, path_tables = 0;
  std::uint64_t file_size = 0;
  std::vector<section_info> sections;
};

// One lookup's path: the inflection points between a and b (not a and b themselves), in
// order from a to b, as points of the block (cells or vertices, block coordinates).
struct inflections {
  static constexpr int kCapacity = (block_shape::kMaxBlock + 1) * (block_shape::kMaxBlock + 1);
  int count = 0;
  std::array<point, kCapacity> points{};
};

// What open may allocate for a file. The header's counts bound every section (a database
// of b = 5 without symmetry may legally declare 13 GB of tables in a 500 KB file of zstd
// frames), so a reader of untrusted files needs a budget of its own: a file whose
// decompressed (zstd) sections would exceed it is refused with status::too_large before
// anything is decompressed. Stored sections are read in place from the map and do not
// count. The default fits every database the generator builds with symmetry, up to
// any-angle b = 5 (1.33 GB decoded; docs/databases.md), with room to spare.
inline constexpr std::uint64_t kDefaultMaxDecodedBytes = std::uint64_t{2} << 30;  // 2 GiB
struct open_limits {
  std::uint64_t max_decoded_bytes = kDefaultMaxDecodedBytes;  // sum of the zstd sections' raw sizes
};

// An open, verified database. Immutable: every const method is safe from any number of
// threads at once.
class database {
 public:
  struct open_result;
  // Maps and verifies the file. On failure the result holds a status and a message that
  // names the file and the problem.
  static open_result open(const std::string& path);
  // The same, on bytes in memory (copied); `name` stands for the file in messages.
  static open_result open_bytes(std::span<const std::uint8_t> bytes, const std::string& name);
  // The same two with a memory budget other than the default (open_limits).
  static open_result open(const std::string& path, const open_limits& limits);
  static open_result open_bytes(std::span<const std::uint8_t> bytes, const std::string& name,
                                const open_limits& limits);

  ~database();
  database(const database&) = delete;
  database& operator=(const database&) = delete;

  const header_info& info() const { return info_; }
  const block_shape& shape() const { return *shape_; }
  const rule& movement() const { return info_.movement; }
  const std::string& path() const { return path_; }
  // The manifest section's bytes (a Boost.Serialization text archive).
  std::string manifest() const;

  // status::ok, or rule_mismatch with a message naming the file and both rules.
  status check_rule(const rule& wanted, std::string* message) const;

  // Least cost between boundary points a and b (boundary_index) in the block whose
  // pattern_code is `code`, in cost units; kUnreachable when no path inside the block
  // joins them. a == b gives 0 when the point is usable.
  cost_t cost(std::uint32_t code, int a, int b) const;
  // The raw stored value (encoding-dependent) for the same query, for dump tools.
  std::uint16_t stored_cost(std::uint32_t code, int a, int b) const;
  // The inflection points of the stored least-cost path from a to b. Returns false when
  // b is unreachable from a.
  bool path(std::uint32_t code, int a, int b, inflections* out) const;

  // One block pattern's costs, resolved once for a run of lookups: Block A* takes a view
  // per block expansion instead of repeating the pattern lookup for every pair.
  class cost_view {
   public:
    // Stored value (encoding-dependent) between boundary points a != b.
    std::uint16_t stored(int a, int b) const {
      const std::uint8_t* p = table_ + 2 * std::size_t{pairs_[a * n_ + b]};
      return static_cast<std::uint16_t>(p[0] | (p[1] << 8));
    }
    // Least cost between boundary points a != b, in cost units, or kUnreachable.
    cost_t cost(int a, int b) const { return decode(stored(a, b)); }
    cost_t decode(std::uint16_t v) const { return decode_stored_cost(v, octile_, shift_, diagonal_); }

   private:
    friend class database;
    const std::uint8_t* table_ = nullptr;   // the canonical pattern's cost table
    const std::uint16_t* pairs_ = nullptr;  // n x n: pair index under the pattern's transform
    int n_ = 0;
    bool octile_ = false;
    int shift_ = 0;
    cost_t diagonal_ = 0;
  };
  cost_view view(std::uint32_t code) const;
  // The costs of the open block (pattern_code 0), decoded at open: row a, column b
  // (boundary indices) of an n x n matrix, 0 on the diagonal. Most blocks of a game map are
  // open, and Block A* reads these without a pattern lookup.
  const cost_t* open_costs() const;
  // True when every open-block cost between two boundary points is finite (so for every
  // rule so far): Block A* then reads the table without testing for kUnreachable.
  bool open_costs_finite() const;

  // Ids behind a pattern, for dump tools and tests.
  struct entry_ref {
    std::uint32_t canonical_code, canonical_index, cost_id, path_id;
    int transform;
  };
  entry_ref entry(std::uint32_t code) const;

  struct impl;

 private:
  database();
  header_info info_;
  // Built once, in place, while the file is verified; always set in an open database.
  std::optional<block_shape> shape_;
  std::string path_;
  std::unique_ptr<impl> impl_;
};

struct database::open_result {
  std::shared_ptr<const database> db;
  status code = status::ok;
  std::string message;
  explicit operator bool() const { return db != nullptr; }
};

// Is a file of version `file` needing at least `min_reader` readable by a reader of
// version `reader`? On false, *why explains. Exposed so the policy can be tested for
// versions that do not exist yet.
bool version_readable(format_version file, format_version min_reader, format_version reader, std::string* why);

}  // namespace lddb
