// Verification, steps on the header and the section table: magic, version, byte order,
// the header's fields, every section entry's sizes, placement and budget, and the checksums.
#include <algorithm>
#include <cstring>
#include <string>

#include "layout.hpp"
#include "verifier.hpp"

namespace lddb::detail {

using layout::load_le;

problem verifier::check_magic() {
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

problem verifier::check_version() {
  info_.version = {load_le<std::uint16_t>(at(layout::at::version)), load_le<std::uint16_t>(at(layout::at::version + 2))};
  info_.min_reader = {load_le<std::uint16_t>(at(layout::at::min_reader)),
                      load_le<std::uint16_t>(at(layout::at::min_reader + 2))};
  std::string why;
  if (!version_readable(info_.version, info_.min_reader, kFormatVersion, &why))
    return failure{status::unsupported_version, why};
  return std::nullopt;
}

problem verifier::check_byte_order() {
  const std::uint32_t bom = load_le<std::uint32_t>(at(layout::at::byte_order));
  if (bom == 0x04030201) return failure{status::wrong_byte_order, "byte-order mark says big-endian; .lddb is little-endian"};
  if (bom != layout::kByteOrderMark) return failure{status::wrong_byte_order, "bad byte-order mark " + hex(bom)};
  const std::uint8_t ow = *at(layout::at::offset_width), iw = *at(layout::at::id_width), cw = *at(layout::at::cost_width);
  if (ow != layout::kOffsetWidth || (iw != 2 && iw != 4) || cw != layout::kCostWidth)
    return failure{status::wrong_byte_order, "integer widths offset/id/cost " + num(ow) + "/" + num(iw) + "/" + num(cw) +
                                                 " bytes; this reader needs 8/2 or 4/2"};
  return std::nullopt;
}

problem verifier::check_header() {
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

void verifier::fill_info() {
  info_.movement = rule_as_written(layout::rule_of(f_), info_.version);
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

section_info verifier::read_entry(std::size_t i) const {
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

bool verifier::entry_reserved_zero(std::size_t i) const {
  const std::uint8_t* p = at(layout::kHeaderSize + layout::kEntrySize * i);
  return p[5] == 0 && p[6] == 0 && p[7] == 0 && load_le<std::uint64_t>(p + layout::entry_at::reserved2) == 0;
}

std::optional<verifier::size_rule> verifier::raw_size_rule(std::uint32_t tag) const {
  if (tag == kTagManifest) return size_rule{layout::kMaxManifest, false};
  if (tag == kTagEntries) return size_rule{layout::entries_size(f_), true};
  if (tag == kTagCosts) return size_rule{layout::costs_size(f_, *shape_), true};
  if (tag == kTagPaths) return size_rule{layout::paths_bound(f_, *shape_), false};
  return std::nullopt;
}

problem verifier::check_sizes(const section_info& s, const std::string& name) const {
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
problem verifier::check_budget(const section_info& s, const std::string& name) {
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

problem verifier::check_padding(std::uint64_t from, std::uint64_t to) const {
  for (std::uint64_t i = from; i < to; ++i)
    if (*at(i) != 0) return failure{status::bad_section_table, "nonzero padding byte at offset " + num(i)};
  return std::nullopt;
}

problem verifier::check_placement(const section_info& s, const std::string& name, std::uint64_t prev_end) const {
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

problem verifier::check_section_table() {
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

problem verifier::check_section_checksums() const {
  for (const section_info& s : info_.sections) {
    const std::uint64_t computed = layout::xxh3(file_.subspan(s.offset, s.stored_size));
    if (computed != s.checksum)
      return failure{status::checksum_mismatch, "section " + s.name() + " checksum mismatch (stored " + hex(s.checksum) +
                                                    ", computed " + hex(computed) + ")"};
  }
  return std::nullopt;
}

}  // namespace lddb::detail
