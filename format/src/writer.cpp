// The .lddb writer: encodes a database_image into the bytes docs/format.md specifies and
// writes them atomically. The writer checks the image against the same invariants the
// reader verifies (layout.hpp), so it never writes a file the reader would refuse.
#include <fcntl.h>
#include <unistd.h>
#include <zstd.h>

#include <cerrno>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include "layout.hpp"
#include "lddb/format.hpp"
#include "lddb/block_shape.hpp"
#include "lddb/path_table.hpp"

namespace lddb {
namespace {

using bytes = std::vector<std::uint8_t>;
using layout::store_le;

// ----------------------------------------------------------------------------- checking the image

[[noreturn]] void refuse(const std::string& why) { throw std::invalid_argument("invalid database image: " + why); }

std::uint32_t count32(std::size_t n, const char* what) {
  if (n > std::numeric_limits<std::uint32_t>::max()) refuse(std::string(what) + " does not fit 32 bits");
  return static_cast<std::uint32_t>(n);
}

layout::fields fields_of(const database_image& im) {
  layout::fields f;
  f.block = im.block;
  f.point_kind = im.movement.on_vertices() ? 1 : 0;
  f.rule_kind = static_cast<std::uint8_t>(im.movement.kind);
  f.corners = static_cast<std::uint8_t>(im.movement.corners);
  f.squeeze = static_cast<std::uint8_t>(im.movement.squeeze);
  f.encoding = static_cast<std::uint8_t>(im.encoding);
  f.scale_log2 = im.scale_log2;
  f.symmetry_mask = im.symmetry_mask;
  f.diagonal = im.movement.diagonal;
  f.canonical = count32(im.cost_id.size(), "canonical pattern count");
  f.path_tables = im.path_offset.empty() ? 0 : count32(im.path_offset.size() - 1, "path table count");
  // cost_tables needs the shape's pair count; set by check_image once the block is known.
  return f;
}

void check_tables(const database_image& im, const layout::fields& f, const block_shape& shape) {
  if (im.path_id.size() != im.cost_id.size()) refuse("cost_id and path_id differ in length");
  std::vector<std::uint32_t> slot, codes;
  layout::canonical_index(shape, f.symmetry_mask, slot, codes);
  const std::uint64_t canonical = codes.size();
  if (canonical != f.canonical)
    refuse(std::to_string(f.canonical) + " entries, but b=" + std::to_string(f.block) + " with this mask has " +
           std::to_string(canonical) + " canonical patterns");
  for (std::size_t i = 0; i < im.cost_id.size(); ++i)
    if (im.cost_id[i] >= f.cost_tables || im.path_id[i] >= f.path_tables)
      refuse("entry " + std::to_string(i) + " refers to a table that does not exist");
  // The file holds no table offsets (tables are self-delimiting); the image's offsets are
  // checked so that each table parses to exactly its slice, hence the concatenation parses
  // back into the same tables.
  if (im.path_offset.front() != 0 || im.path_offset.back() != im.paths.size())
    refuse("path_offset must start at 0 and end at paths.size()");
  if (im.paths.size() > layout::kMaxPaths) refuse("paths exceed 2^32 - 1 bytes");
  for (std::size_t t = 0; t + 1 < im.path_offset.size(); ++t) {
    if (im.path_offset[t] > im.path_offset[t + 1]) refuse("path_offset decreases at table " + std::to_string(t));
    const std::span<const std::uint8_t> table(im.paths.data() + im.path_offset[t], im.path_offset[t + 1] - im.path_offset[t]);
    if (auto why = path_table_problem(table, shape)) refuse("path table " + std::to_string(t) + " " + *why);
  }
}

// Throws std::invalid_argument unless the image makes a file the reader accepts.
layout::fields check_image(const database_image& im) {
  layout::fields f = fields_of(im);
  if (f.block < block_shape::kMinBlock || f.block > block_shape::kMaxBlock) refuse("block size must be 2..5");
  const block_shape shape(im.block, im.movement.on_vertices());
  if (im.costs.size() % static_cast<std::size_t>(shape.pair_count()) != 0)
    refuse("costs hold a partial table (" + std::to_string(im.costs.size()) + " values, " +
           std::to_string(shape.pair_count()) + " pairs a table)");
  f.cost_tables = count32(im.costs.size() / static_cast<std::size_t>(shape.pair_count()), "cost table count");
  if (auto why = layout::fields_problem(f)) refuse(*why);
  check_tables(im, f, shape);
  return f;
}

// ----------------------------------------------------------------------------- sections

struct section {
  std::uint32_t tag;
  section_codec codec;
  bytes stored;
  std::uint64_t raw_size;
};

// One zstd frame with its content size and no zstd checksum (the section table has one).
// Single-threaded compression at a fixed level is deterministic for a given zstd version.
bytes zstd_compress(const bytes& raw, int level) {
  const std::unique_ptr<ZSTD_CCtx, decltype(&ZSTD_freeCCtx)> cctx(ZSTD_createCCtx(), ZSTD_freeCCtx);
  if (!cctx) throw std::bad_alloc();
  ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_compressionLevel, level);
  ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_contentSizeFlag, 1);
  ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_checksumFlag, 0);
  bytes out(ZSTD_compressBound(raw.size()));
  const std::size_t n = ZSTD_compress2(cctx.get(), out.data(), out.size(), raw.data(), raw.size());
  if (ZSTD_isError(n)) throw std::runtime_error(std::string("zstd compression failed: ") + ZSTD_getErrorName(n));
  out.resize(n);
  return out;
}

// Compressed only when that makes it smaller: readers rely on zstd sections being so.
section make_section(std::uint32_t tag, bytes raw, int level) {
  const std::uint64_t raw_size = raw.size();
  if (level > 0) {
    bytes packed = zstd_compress(raw, level);
    if (packed.size() < raw.size()) return {tag, section_codec::zstd, std::move(packed), raw_size};
  }
  return {tag, section_codec::stored, std::move(raw), raw_size};
}

// Two planes: every cost id in canonical order, then every path id, each id_width bytes.
bytes entries_bytes(const database_image& im, std::uint8_t width) {
  const std::size_t n = im.cost_id.size();
  bytes out(2 * width * n);
  for (std::size_t i = 0; i < n; ++i) {
    if (width == 2) {
      store_le<std::uint16_t>(&out[2 * i], static_cast<std::uint16_t>(im.cost_id[i]));
      store_le<std::uint16_t>(&out[2 * (n + i)], static_cast<std::uint16_t>(im.path_id[i]));
    } else {
      store_le<std::uint32_t>(&out[4 * i], im.cost_id[i]);
      store_le<std::uint32_t>(&out[4 * (n + i)], im.path_id[i]);
    }
  }
  return out;
}

bytes costs_bytes(const database_image& im) {
  bytes out(2 * im.costs.size());
  for (std::size_t i = 0; i < im.costs.size(); ++i) store_le<std::uint16_t>(&out[2 * i], im.costs[i]);
  return out;
}

std::vector<section> make_sections(const database_image& im, const layout::fields& f) {
  const int level = im.zstd_level;
  std::vector<section> s;
  // The manifest stays stored so that a plain `strings` or hex dump shows how the file was built.
  s.push_back(make_section(kTagManifest, bytes(im.manifest.begin(), im.manifest.end()), 0));
  s.push_back(make_section(kTagEntries, entries_bytes(im, layout::id_width(f)), level));
  s.push_back(make_section(kTagCosts, costs_bytes(im), level));
  s.push_back(make_section(kTagPaths, im.paths, level));
  return s;
}

// ----------------------------------------------------------------------------- header

void write_header(std::uint8_t* h, const layout::fields& f, std::size_t section_count) {
  namespace at = layout::at;
  std::copy(layout::kMagic.begin(), layout::kMagic.end(), h + at::magic);
  store_le<std::uint16_t>(h + at::version, kFormatVersion.major);
  store_le<std::uint16_t>(h + at::version + 2, kFormatVersion.minor);
  const format_version min_reader = min_reader_for(layout::rule_of(f));
  store_le<std::uint16_t>(h + at::min_reader, min_reader.major);
  store_le<std::uint16_t>(h + at::min_reader + 2, min_reader.minor);
  store_le<std::uint32_t>(h + at::byte_order, layout::kByteOrderMark);
  h[at::offset_width] = layout::kOffsetWidth;
  h[at::id_width] = layout::id_width(f);
  h[at::cost_width] = layout::kCostWidth;
  h[at::block] = static_cast<std::uint8_t>(f.block);
  h[at::point_kind] = f.point_kind;
  h[at::rule_kind] = f.rule_kind;
  h[at::corners] = f.corners;
  h[at::squeeze] = f.squeeze;
  h[at::encoding] = f.encoding;
  h[at::scale_log2] = f.scale_log2;
  h[at::symmetry_mask] = f.symmetry_mask;
  store_le<std::uint64_t>(h + at::diagonal, f.diagonal);
  store_le<std::uint32_t>(h + at::canonical, f.canonical);
  store_le<std::uint32_t>(h + at::cost_tables, f.cost_tables);
  store_le<std::uint32_t>(h + at::path_tables, f.path_tables);
  store_le<std::uint32_t>(h + at::sections, static_cast<std::uint32_t>(section_count));
}

void write_entry(std::uint8_t* e, const section& s, std::uint64_t offset) {
  namespace at = layout::entry_at;
  store_le<std::uint32_t>(e + at::tag, s.tag);
  e[at::codec] = static_cast<std::uint8_t>(s.codec);
  store_le<std::uint64_t>(e + at::offset, offset);
  store_le<std::uint64_t>(e + at::stored_size, s.stored.size());
  store_le<std::uint64_t>(e + at::raw_size, s.raw_size);
  store_le<std::uint64_t>(e + at::checksum, layout::xxh3(s.stored));
}

// ----------------------------------------------------------------------------- files

std::string errno_text(int e) { return std::generic_category().message(e); }

bool write_all(int fd, const bytes& data) {
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) errno = EIO;  // no progress and no reason given
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

// Makes the rename itself durable. Best effort: some file systems refuse fsync on a directory.
void sync_directory_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

}  // namespace

std::vector<std::uint8_t> encode_database(const database_image& image) {
  const layout::fields f = check_image(image);
  const std::vector<section> sections = make_sections(image, f);

  const std::uint64_t table_end = layout::kHeaderSize + layout::kEntrySize * sections.size();
  std::vector<std::uint64_t> offsets;
  std::uint64_t end = table_end;
  for (const section& s : sections) {
    offsets.push_back(layout::align_up(end));
    end = offsets.back() + s.stored.size();
  }

  bytes out(end, 0);  // zero-filled: reserved fields and padding must be zero
  write_header(out.data(), f, sections.size());
  for (std::size_t i = 0; i < sections.size(); ++i) {
    write_entry(&out[layout::kHeaderSize + layout::kEntrySize * i], sections[i], offsets[i]);
    std::copy(sections[i].stored.begin(), sections[i].stored.end(), out.begin() + static_cast<std::ptrdiff_t>(offsets[i]));
  }
  const std::span<const std::uint8_t> table(out.data() + layout::kHeaderSize, table_end - layout::kHeaderSize);
  store_le<std::uint64_t>(&out[layout::at::checksum], layout::header_checksum(out.data(), table));
  return out;
}

bool write_database(const database_image& image, const std::string& path, std::string* error) {
  auto fail = [&](const std::string& why) {
    if (error) *error = path + ": " + why;
    return false;
  };
  bytes data;
  try {
    data = encode_database(image);
  } catch (const std::exception& e) {
    return fail(std::string("cannot encode the database: ") + e.what());
  }

  // Write beside the target and rename over it: readers see the old file or the new one,
  // never a partial one, and a failure leaves the target as it was.
  const std::string tmp = path + ".tmp-" + std::to_string(::getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return fail("cannot create " + tmp + ": " + errno_text(errno));
  const bool written = write_all(fd, data);
  const int write_errno = errno;
  const bool synced = written && ::fsync(fd) == 0;
  const int sync_errno = errno;
  const bool closed = ::close(fd) == 0;
  const int close_errno = errno;
  if (!written || !synced || !closed) {
    ::unlink(tmp.c_str());
    const int e = !written ? write_errno : !synced ? sync_errno : close_errno;
    return fail("cannot write " + tmp + ": " + errno_text(e));
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int e = errno;
    ::unlink(tmp.c_str());
    return fail("cannot rename " + tmp + " over it: " + errno_text(e));
  }
  sync_directory_of(path);
  return true;
}

}  // namespace lddb
