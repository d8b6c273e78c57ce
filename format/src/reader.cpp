// The .lddb reader: maps a file, verifies every byte of it before use, then answers lookups
// in place. Verification runs in an order where each step only reads bytes an earlier step
// has shown to exist (docs/format.md, "Verification"), so a hostile file gets a message,
// never an out-of-bounds read. Lookups are const, allocate nothing and share no mutable
// state, so any number of threads may call them at once.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <array>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <new>
#include <optional>
#include <system_error>
#include <utility>
#include <vector>

#include "layout.hpp"
#include "lddb/format.hpp"
#include "lddb/block_shape.hpp"
#include "lddb/path_table.hpp"

namespace lddb {

using layout::load_le;

// ============================================================================= names and policy

const char* status_name(status s) {
  switch (s) {
    case status::ok: return "ok";
    case status::io_error: return "io_error";
    case status::truncated: return "truncated";
    case status::wrong_magic: return "wrong_magic";
    case status::unsupported_version: return "unsupported_version";
    case status::wrong_byte_order: return "wrong_byte_order";
    case status::bad_header: return "bad_header";
    case status::bad_section_table: return "bad_section_table";
    case status::checksum_mismatch: return "checksum_mismatch";
    case status::decompress_failed: return "decompress_failed";
    case status::bad_section: return "bad_section";
    case status::rule_mismatch: return "rule_mismatch";
    case status::too_large: return "too_large";
  }
  return "unknown";
}

std::string section_info::name() const {
  std::string s;
  for (int i = 0; i < 4; ++i) {
    const char c = static_cast<char>(tag >> (8 * i));
    if (c < 0x20 || c > 0x7E) {  // not a printable tag: show the number instead
      char buf[16];
      std::snprintf(buf, sizeof buf, "0x%08" PRIx32, tag);
      return buf;
    }
    s += c;
  }
  return s;
}

namespace {
std::string version_text(format_version v) { return std::to_string(v.major) + "." + std::to_string(v.minor); }
}  // namespace

// A reader reads exactly its own major version. Within it, minor versions only add what
// older readers may ignore, unless the writer says otherwise by raising the minimum reader.
bool version_readable(format_version file, format_version min_reader, format_version reader, std::string* why) {
  auto refuse = [&](std::string msg) {
    if (why) *why = std::move(msg);
    return false;
  };
  if (file.major == 0) return refuse("written by format " + version_text(file) + ", a pre-release format no reader supports");
  if (file.major != reader.major)
    return refuse("written by format " + version_text(file) + "; this reader reads " + std::to_string(reader.major) + ".x");
  if (min_reader.major != file.major || min_reader > file)
    return refuse("declares minimum reader version " + version_text(min_reader) + ", which does not fit its own version " +
                  version_text(file));
  if (min_reader > reader)
    return refuse("needs a reader of format " + version_text(min_reader) + " or newer; this reader is " + version_text(reader));
  return true;
}

// ============================================================================= the database's bytes

namespace {

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

owned_bytes allocate(std::size_t n) { return {std::make_unique_for_overwrite<std::uint8_t[]>(n), n}; }

}  // namespace

struct database::impl {
  mapping map;         // the file, when opened from a path
  owned_bytes copy;    // the bytes, when opened from memory
  std::vector<owned_bytes> decoded;  // zstd sections, decoded at open
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
    return wide_ids ? load_le<std::uint32_t>(entries.data() + 4 * i) : load_le<std::uint16_t>(entries.data() + 2 * i);
  }
  std::uint32_t cost_id(std::uint32_t ordinal) const { return id_at(ordinal); }
  std::uint32_t path_id(std::uint32_t ordinal) const { return id_at(path_plane + ordinal); }
  std::uint16_t stored(std::uint32_t cost_table, int pair) const {
    return load_le<std::uint16_t>(&costs[2 * (std::size_t{cost_table} * std::size_t(pair_count) + std::size_t(pair))]);
  }
  bool valid_query(std::uint32_t code, int a, int b) const;
  static open_result verify_and_adopt(std::unique_ptr<impl> self, std::span<const std::uint8_t> file,
                                      const std::string& name, const open_limits& limits);

  std::span<const std::uint8_t> path_table(std::uint32_t id) const {
    return paths.subspan(path_start[id], path_start[id + 1] - path_start[id]);
  }
};

// ============================================================================= verification

namespace {

struct failure {
  status code;
  std::string what;  // the problem, without the file name
};
using problem = std::optional<failure>;

std::string hex(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016" PRIx64, v);
  return buf;
}
std::string num(std::uint64_t v) { return std::to_string(v); }
std::string errno_text(int e) { return std::generic_category().message(e); }

// One pass over the file, step by step; each step may rely on everything before it.
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

  // ------------------------------------------------------------------- header

  problem check_magic() {
    // Compare what is there first: a short text file is "not an .lddb file", not "truncated".
    const std::size_t n = std::min(file_.size(), layout::kMagic.size());
    if (!std::equal(layout::kMagic.begin(), layout::kMagic.begin() + static_cast<std::ptrdiff_t>(n), file_.begin())) {
      if (n >= 5 && std::memcmp(at(1), "LDDB", 4) == 0)
        return failure{status::wrong_magic, "magic number damaged (a text-mode transfer?)"};
      return failure{status::wrong_magic, "not an .lddb file (wrong magic number)"};
    }
    if (file_.size() < layout::kHeaderSize)
      return failure{status::truncated, "is " + num(file_.size()) + " bytes, shorter than the 64-byte header"};
    return std::nullopt;
  }

  problem check_version() {
    info_.version = {load_le<std::uint16_t>(at(layout::at::version)), load_le<std::uint16_t>(at(layout::at::version + 2))};
    info_.min_reader = {load_le<std::uint16_t>(at(layout::at::min_reader)),
                        load_le<std::uint16_t>(at(layout::at::min_reader + 2))};
    std::string why;
    if (!version_readable(info_.version, info_.min_reader, kFormatVersion, &why))
      return failure{status::unsupported_version, why};
    return std::nullopt;
  }

  problem check_byte_order() {
    const std::uint32_t bom = load_le<std::uint32_t>(at(layout::at::byte_order));
    if (bom == 0x04030201) return failure{status::wrong_byte_order, "byte-order mark says big-endian; .lddb is little-endian"};
    if (bom != layout::kByteOrderMark) return failure{status::wrong_byte_order, "bad byte-order mark " + hex(bom)};
    const std::uint8_t ow = *at(layout::at::offset_width), iw = *at(layout::at::id_width), cw = *at(layout::at::cost_width);
    if (ow != layout::kOffsetWidth || (iw != 2 && iw != 4) || cw != layout::kCostWidth)
      return failure{status::wrong_byte_order, "integer widths offset/id/cost " + num(ow) + "/" + num(iw) + "/" + num(cw) +
                                                   " bytes; this reader needs 8/2 or 4/2"};
    return std::nullopt;
  }

  problem check_header() {
    if (auto p = check_byte_order()) return p;
    if (*at(layout::at::reserved) != 0) return failure{status::bad_header, "reserved header byte 23 is not zero"};
    namespace a = layout::at;
    f_.block = *at(a::block);
    f_.point_kind = *at(a::point_kind);
    f_.rule_kind = *at(a::rule_kind);
    f_.corners = *at(a::corners);
    f_.squeeze = *at(a::squeeze);
    f_.encoding = *at(a::encoding);
    f_.scale_log2 = *at(a::scale_log2);
    f_.symmetry_mask = *at(a::symmetry_mask);
    f_.diagonal = load_le<std::uint64_t>(at(a::diagonal));
    f_.canonical = load_le<std::uint32_t>(at(a::canonical));
    f_.cost_tables = load_le<std::uint32_t>(at(a::cost_tables));
    f_.path_tables = load_le<std::uint32_t>(at(a::path_tables));
    if (auto why = layout::fields_problem(f_)) return failure{status::bad_header, "header: " + *why};
    if (const std::uint8_t iw = *at(a::id_width), want = layout::id_width(f_); iw != want)
      return failure{status::bad_header, "header: id width " + num(iw) + " with " + num(f_.cost_tables) + " cost tables and " +
                                             num(f_.path_tables) + " path tables; the counts call for " + num(want)};
    shape_.emplace(f_.block, f_.point_kind == 1);
    fill_info();

    const std::uint32_t count = load_le<std::uint32_t>(at(a::sections));
    if (count > layout::kMaxSections)
      return failure{status::bad_section_table, "declares " + num(count) + " sections; at most 16 are allowed"};
    table_end_ = layout::kHeaderSize + layout::kEntrySize * count;
    if (file_.size() < table_end_)
      return failure{status::truncated, "is " + num(file_.size()) + " bytes, shorter than its section table (" +
                                            num(table_end_) + " bytes with the header)"};
    const std::uint64_t stored = load_le<std::uint64_t>(at(a::checksum));
    const std::uint64_t computed = layout::header_checksum(at(0), file_.subspan(layout::kHeaderSize, table_end_ - layout::kHeaderSize));
    if (stored != computed)
      return failure{status::checksum_mismatch, "header checksum mismatch (stored " + hex(stored) + ", computed " + hex(computed) + ")"};
    return std::nullopt;
  }

  void fill_info() {
    info_.movement = layout::rule_of(f_);
    info_.block = f_.block;
    info_.vertices = f_.point_kind == 1;
    info_.encoding = static_cast<cost_encoding>(f_.encoding);
    info_.scale_log2 = f_.scale_log2;
    info_.symmetry_mask = f_.symmetry_mask;
    info_.canonical_patterns = f_.canonical;
    info_.cost_tables = f_.cost_tables;
    info_.path_tables = f_.path_tables;
    info_.file_size = file_.size();
  }

  // ------------------------------------------------------------------- section table

  section_info read_entry(std::size_t i) const {
    namespace e = layout::entry_at;
    const std::uint8_t* p = at(layout::kHeaderSize + layout::kEntrySize * i);
    section_info s;
    s.tag = load_le<std::uint32_t>(p + e::tag);
    s.codec = static_cast<section_codec>(p[e::codec]);
    s.offset = load_le<std::uint64_t>(p + e::offset);
    s.stored_size = load_le<std::uint64_t>(p + e::stored_size);
    s.raw_size = load_le<std::uint64_t>(p + e::raw_size);
    s.checksum = load_le<std::uint64_t>(p + e::checksum);
    return s;
  }

  bool entry_reserved_zero(std::size_t i) const {
    const std::uint8_t* p = at(layout::kHeaderSize + layout::kEntrySize * i);
    return p[5] == 0 && p[6] == 0 && p[7] == 0 && load_le<std::uint64_t>(p + layout::entry_at::reserved2) == 0;
  }

  // The raw size a known section must have (exact) or may have (at most); nullopt for an
  // unknown tag, which a later minor version may add and this reader skips.
  struct size_rule {
    std::uint64_t size;
    bool exact;
  };
  std::optional<size_rule> raw_size_rule(std::uint32_t tag) const {
    if (tag == kTagManifest) return size_rule{layout::kMaxManifest, false};
    if (tag == kTagEntries) return size_rule{layout::entries_size(f_), true};
    if (tag == kTagCosts) return size_rule{layout::costs_size(f_, *shape_), true};
    if (tag == kTagPaths) return size_rule{layout::paths_bound(f_, *shape_), false};
    return std::nullopt;
  }

  problem check_sizes(const section_info& s, const std::string& name) const {
    if (auto r = raw_size_rule(s.tag); r && (r->exact ? s.raw_size != r->size : s.raw_size > r->size))
      return failure{status::bad_section_table, "section " + name + " declares a raw size of " + num(s.raw_size) +
                                                    " bytes; the header counts allow " + (r->exact ? "exactly " : "at most ") +
                                                    num(r->size)};
    if (s.codec == section_codec::stored && s.stored_size != s.raw_size)
      return failure{status::bad_section_table, "stored section " + name + " has stored size " + num(s.stored_size) +
                                                    " but raw size " + num(s.raw_size)};
    // The writer compresses a section only when that makes it smaller.
    if (s.codec == section_codec::zstd && s.stored_size >= s.raw_size)
      return failure{status::bad_section_table, "zstd section " + name + " is not smaller than its raw size"};
    return std::nullopt;
  }

  // The zstd sections with a required tag are decompressed at open (others never are): their
  // raw sizes, each already within the header's bounds, must also fit the caller's budget,
  // checked here, before a single byte is decompressed or allocated.
  problem check_budget(const section_info& s, const std::string& name) {
    if (s.codec != section_codec::zstd ||
        std::find(layout::kRequiredTags.begin(), layout::kRequiredTags.end(), s.tag) == layout::kRequiredTags.end())
      return std::nullopt;
    decoded_ += s.raw_size;  // no overflow: check_sizes kept each below 2^35, and there are at most 16
    if (decoded_ <= limits_.max_decoded_bytes) return std::nullopt;
    return failure{status::too_large, "section " + name + " decompresses to " + num(s.raw_size) + " bytes" +
                                          (decoded_ != s.raw_size ? " (" + num(decoded_) + " with the sections before it)" : "") +
                                          ", more than the " + num(limits_.max_decoded_bytes) +
                                          " bytes this reader may decompress (database::open_limits)"};
  }

  problem check_padding(std::uint64_t from, std::uint64_t to) const {
    for (std::uint64_t i = from; i < to; ++i)
      if (*at(i) != 0) return failure{status::bad_section_table, "nonzero padding byte at offset " + num(i)};
    return std::nullopt;
  }

  problem check_placement(const section_info& s, const std::string& name, std::uint64_t prev_end) const {
    const std::uint64_t expected = layout::align_up(prev_end);
    if (s.offset != expected)
      return failure{status::bad_section_table, "section " + name + " starts at offset " + num(s.offset) +
                                                    "; sections follow each other at the next multiple of 64, here " +
                                                    num(expected)};
    if (s.stored_size > UINT64_MAX - s.offset)
      return failure{status::bad_section_table, "section " + name + " size " + num(s.stored_size) + " overflows its offset"};
    if (s.offset + s.stored_size > file_.size())
      return failure{status::truncated, "is " + num(file_.size()) + " bytes but section " + name + " ends at offset " +
                                            num(s.offset + s.stored_size)};
    return check_padding(prev_end, s.offset);
  }

  problem check_section_table() {
    const std::size_t count = (table_end_ - layout::kHeaderSize) / layout::kEntrySize;
    std::uint64_t end = table_end_;
    for (std::size_t i = 0; i < count; ++i) {
      const section_info s = read_entry(i);
      const std::string name = s.name();
      if (static_cast<std::uint8_t>(s.codec) > 1)
        return failure{status::bad_section_table, "section " + name + " has unknown codec " + num(static_cast<std::uint8_t>(s.codec))};
      if (!entry_reserved_zero(i)) return failure{status::bad_section_table, "section " + name + " has nonzero reserved bytes"};
      if (auto p = check_sizes(s, name)) return p;
      if (auto p = check_budget(s, name)) return p;
      if (auto p = check_placement(s, name, end)) return p;
      for (std::size_t r = 0; r < layout::kRequiredTags.size(); ++r) {
        if (s.tag != layout::kRequiredTags[r]) continue;
        if (known_[r]) return failure{status::bad_section_table, "section " + name + " appears twice"};
        known_[r] = info_.sections.size();
      }
      info_.sections.push_back(s);
      end = s.offset + s.stored_size;
    }
    for (std::size_t r = 0; r < layout::kRequiredTags.size(); ++r)
      if (!known_[r])
        return failure{status::bad_section_table, "has no " + section_info{layout::kRequiredTags[r]}.name() + " section"};
    if (file_.size() != end)
      return failure{status::bad_section_table, "has " + num(file_.size() - end) + " bytes after the end of its last section"};
    return std::nullopt;
  }

  problem check_section_checksums() const {
    for (const section_info& s : info_.sections) {
      const std::uint64_t computed = layout::xxh3(file_.subspan(s.offset, s.stored_size));
      if (computed != s.checksum)
        return failure{status::checksum_mismatch, "section " + s.name() + " checksum mismatch (stored " + hex(s.checksum) +
                                                      ", computed " + hex(computed) + ")"};
    }
    return std::nullopt;
  }

  // ------------------------------------------------------------------- decoding

  problem decode_zstd(const section_info& s, std::span<const std::uint8_t>& out) {
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

  problem decode_sections() {
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

  // ------------------------------------------------------------------- contents

  // The index depends only on (b, mask), so building it needs no trust in the sections.
  // The header's canonical count was checked against (b, mask) at step 7; counting the
  // codes here checks that count once more, against the index lookups will use.
  problem build_index() {
    layout::canonical_index(*shape_, f_.symmetry_mask, out_.slot, out_.canonical);
    if (out_.canonical.size() != f_.canonical)
      return failure{status::bad_header, "header declares " + num(f_.canonical) + " canonical patterns; b=" + num(f_.block) +
                                             " with symmetry mask " + num(f_.symmetry_mask) + " has " +
                                             num(out_.canonical.size())};
    return std::nullopt;
  }

  // The ids of one plane must all be below `limit`: a branch-free maximum first (the usual,
  // passing case), then the first offender for the message.
  template <class Id>
  static std::optional<std::size_t> first_id_at_or_above(const std::uint8_t* plane, std::size_t n, std::uint32_t limit) {
    Id top = 0;
    for (std::size_t i = 0; i < n; ++i) top = std::max(top, load_le<Id>(plane + sizeof(Id) * i));
    if (top < limit) return std::nullopt;
    for (std::size_t i = 0;; ++i)
      if (load_le<Id>(plane + sizeof(Id) * i) >= limit) return i;
  }

  problem check_entries() {
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
  problem check_paths() {
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
  problem check_direct_pairs() {
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

// Opens without blocking (a FIFO would), refuses what is not a regular file, and maps it.
problem map_file(const std::string& path, mapping& out) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return failure{status::io_error, "cannot open: " + errno_text(errno)};
  struct ::stat st {};
  problem p;
  if (::fstat(fd, &st) != 0) p = failure{status::io_error, "cannot stat: " + errno_text(errno)};
  else if (S_ISDIR(st.st_mode)) p = failure{status::io_error, "is a directory"};
  else if (!S_ISREG(st.st_mode)) p = failure{status::io_error, "is not a regular file"};
  else if (st.st_size == 0) p = failure{status::truncated, "is empty; an .lddb file starts with a 64-byte header"};
  if (!p) {
    void* addr = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (addr == MAP_FAILED) p = failure{status::io_error, "cannot map: " + errno_text(errno)};
    else out = mapping(addr, static_cast<std::size_t>(st.st_size));
  }
  ::close(fd);  // the mapping keeps the file alive
  return p;
}

}  // namespace

// ============================================================================= opening

database::database() = default;
database::~database() = default;

namespace {
database::open_result failed(const std::string& name, const failure& f) {
  database::open_result r;
  r.code = f.code;
  r.message = name + ": " + f.what;
  return r;
}
}  // namespace

database::open_result database::open(const std::string& path) { return open(path, open_limits{}); }

database::open_result database::open_bytes(std::span<const std::uint8_t> bytes, const std::string& name) {
  return open_bytes(bytes, name, open_limits{});
}

database::open_result database::open(const std::string& path, const open_limits& limits) {
  try {
    auto self = std::make_unique<database::impl>();
    if (auto p = map_file(path, self->map)) return failed(path, *p);
    const std::span<const std::uint8_t> file = self->map.bytes();
    return impl::verify_and_adopt(std::move(self), file, path, limits);
  } catch (const std::bad_alloc&) {
    return failed(path, {status::io_error, "not enough memory to open it"});
  } catch (const std::exception& e) {
    return failed(path, {status::io_error, std::string("cannot open: ") + e.what()});
  }
}

database::open_result database::open_bytes(std::span<const std::uint8_t> bytes, const std::string& name,
                                            const open_limits& limits) {
  try {
    if (bytes.empty()) return failed(name, {status::truncated, "is empty; an .lddb file starts with a 64-byte header"});
    auto self = std::make_unique<database::impl>();
    self->copy = allocate(bytes.size());
    std::copy(bytes.begin(), bytes.end(), self->copy.data.get());
    const std::span<const std::uint8_t> file = self->copy.bytes();
    return impl::verify_and_adopt(std::move(self), file, name, limits);
  } catch (const std::bad_alloc&) {
    return failed(name, {status::io_error, "not enough memory to open it"});
  } catch (const std::exception& e) {
    return failed(name, {status::io_error, std::string("cannot open: ") + e.what()});
  }
}

// Shared by open and open_bytes once `self` owns the bytes. A member of impl, which as a
// nested class may set the database's private fields.
database::open_result database::impl::verify_and_adopt(std::unique_ptr<impl> self, std::span<const std::uint8_t> file,
                                                       const std::string& name, const open_limits& limits) {
  std::shared_ptr<database> db(new database());
  verifier check(file, db->info_, *self, db->shape_, limits);
  if (auto p = check.run()) return failed(name, *p);
  const block_shape& shape = *db->shape_;
  self->boundary_count = shape.boundary_count();
  self->pair_count = shape.pair_count();
  self->encoding = db->info_.encoding;
  self->shift = kCostShift - db->info_.scale_log2;
  self->diagonal = db->info_.movement.diagonal;
  const int n = self->boundary_count;
  self->pair_of.assign(static_cast<std::size_t>(block_shape::kTransforms * n * n), 0);
  for (int t = 0; t < block_shape::kTransforms; ++t)
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b)
        if (a != b)
          self->pair_of[static_cast<std::size_t>((t * n + a) * n + b)] =
              static_cast<std::uint16_t>(shape.pair_index(shape.transform_boundary(t, a), shape.transform_boundary(t, b)));
  db->path_ = name;
  db->impl_ = std::move(self);
  impl& m = *db->impl_;
  const cost_view open = db->view(0);
  m.open_costs.assign(static_cast<std::size_t>(n * n), 0);
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      if (a != b) m.open_costs[static_cast<std::size_t>(a * n + b)] = open.cost(a, b);
  m.open_costs_finite = std::none_of(m.open_costs.begin(), m.open_costs.end(), [](cost_t c) { return c == kUnreachable; });
  database::open_result r;
  r.db = std::move(db);
  return r;
}

// ============================================================================= lookups

std::string database::manifest() const { return std::string(impl_->manifest.begin(), impl_->manifest.end()); }

status database::check_rule(const rule& wanted, std::string* message) const {
  if (wanted == info_.movement) return status::ok;
  if (message) *message = path_ + " holds rule '" + info_.movement.name() + "' but the query asks for '" + wanted.name() + "'";
  return status::rule_mismatch;
}

bool database::impl::valid_query(std::uint32_t code, int a, int b) const {
  return code < slot.size() && static_cast<unsigned>(a) < static_cast<unsigned>(boundary_count) &&
         static_cast<unsigned>(b) < static_cast<unsigned>(boundary_count);
}

std::uint16_t database::stored_cost(std::uint32_t code, int a, int b) const {
  const impl& m = *impl_;
  const block_shape& s = *shape_;
  if (!m.valid_query(code, a, b)) return kStoredUnreachable;
  if (a == b) return s.point_usable(code, s.boundary_point(a)) ? 0 : kStoredUnreachable;
  const std::uint32_t slot = m.slot[code];
  const int t = static_cast<int>(slot & 7u);
  return m.stored(m.cost_id(slot >> 3), s.pair_index(s.transform_boundary(t, a), s.transform_boundary(t, b)));
}

cost_t database::cost(std::uint32_t code, int a, int b) const { return impl_->decode(stored_cost(code, a, b)); }

bool database::path(std::uint32_t code, int a, int b, inflections* out) const {
  out->count = 0;
  const impl& m = *impl_;
  const block_shape& s = *shape_;
  if (stored_cost(code, a, b) == kStoredUnreachable) return false;  // also refuses invalid queries
  if (a == b) return true;
  const std::uint32_t slot = m.slot[code];
  const int t = static_cast<int>(slot & 7u);
  const int ca = s.transform_boundary(t, a), cb = s.transform_boundary(t, b);
  const int k = s.pair_index(ca, cb);
  // An absent pair is a straight path: no inflection points.
  const std::span<const std::uint8_t> points = path_table_points(m.path_table(m.path_id(slot >> 3)), m.pair_count, k);
  const int n = static_cast<int>(points.size());
  const int back = block_shape::inverse(t);
  for (int i = 0; i < n; ++i)
    out->points[static_cast<std::size_t>(i)] = s.transform_point(back, s.point_at(points[static_cast<std::size_t>(i)]));
  // Stored from the lower canonical boundary index to the higher.
  if (ca > cb) std::reverse(out->points.begin(), out->points.begin() + n);
  out->count = n;
  return true;
}

database::cost_view database::view(std::uint32_t code) const {
  const impl& m = *impl_;
  cost_view v;
  const std::uint32_t slot = m.slot[code];
  const int n = m.boundary_count;
  v.table_ = m.costs.data() + 2 * std::size_t{m.cost_id(slot >> 3)} * std::size_t(m.pair_count);
  v.pairs_ = m.pair_of.data() + static_cast<std::size_t>((slot & 7u) * static_cast<std::uint32_t>(n * n));
  v.n_ = n;
  v.octile_ = m.encoding == cost_encoding::octile_pair;
  v.shift_ = m.shift;
  v.diagonal_ = m.diagonal;
  return v;
}

const cost_t* database::open_costs() const { return impl_->open_costs.data(); }
bool database::open_costs_finite() const { return impl_->open_costs_finite; }

database::entry_ref database::entry(std::uint32_t code) const {
  const impl& m = *impl_;
  if (code >= m.slot.size()) return entry_ref{0, 0, 0, 0, 0};
  const std::uint32_t slot = m.slot[code], ordinal = slot >> 3;
  return entry_ref{m.canonical[ordinal], ordinal, m.cost_id(ordinal), m.path_id(ordinal), static_cast<int>(slot & 7u)};
}

}  // namespace lddb
