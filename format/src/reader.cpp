// The .lddb reader: maps a file, has it verified (verifier.hpp) before use, then answers
// lookups in place. Lookups are const, allocate nothing and share no mutable state, so any
// number of threads may call them at once.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "database_impl.hpp"
#include "verifier.hpp"
#include "lddb/format.hpp"
#include "lddb/block_shape.hpp"
#include "lddb/path_table.hpp"

namespace lddb {

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

format_version min_reader_for(const rule& r) {
  const bool strict_any_angle = r.kind == rule_kind::any_angle && r.squeeze == squeezing::forbidden;
  const bool corners_allowed = r.kind == rule_kind::octile && r.corners == corner_cutting::allowed;
  return strict_any_angle || corners_allowed ? format_version{1, 1} : kMinReaderVersion;
}

rule rule_as_written(const rule& stored, format_version written) {
  rule r = stored;
  if (written < format_version{1, 1} && r.kind == rule_kind::any_angle) r.squeeze = squeezing::allowed;
  return r;
}

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

// ============================================================================= opening

namespace {

using detail::failure;
using detail::problem;

// For a file that is not there: the databases its folder does hold, so that a misspelt
// name ("octile.lddb") shows the right one. At most 12, in order.
std::string databases_beside(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path folder = fs::path(path).parent_path().empty() ? fs::path(".") : fs::path(path).parent_path();
  if (!fs::is_directory(folder, ec)) return " (the folder " + folder.string() + " is not there either)";
  std::vector<std::string> names;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".lddb") names.push_back(it->path().filename().string());
  if (names.empty()) return " (its folder holds no .lddb file)";
  std::sort(names.begin(), names.end());
  std::string list;
  for (std::size_t k = 0; k < names.size() && k < 12; ++k) list += (k ? ", " : "") + names[k];
  return " (its folder holds " + list + (names.size() > 12 ? ", ..." : "") + ")";
}

// Opens without blocking (a FIFO would), refuses what is not a regular file, and maps it.
problem map_file(const std::string& path, detail::mapping& out) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    return failure{status::io_error,
                   "cannot open: " + detail::errno_text(err) + (err == ENOENT ? databases_beside(path) : "")};
  }
  struct ::stat st {};
  problem p;
  if (::fstat(fd, &st) != 0) p = failure{status::io_error, "cannot stat: " + detail::errno_text(errno)};
  else if (S_ISDIR(st.st_mode)) p = failure{status::io_error, "is a directory"};
  else if (!S_ISREG(st.st_mode)) p = failure{status::io_error, "is not a regular file"};
  else if (st.st_size == 0) p = failure{status::truncated, "is empty; an .lddb file starts with a 64-byte header"};
  if (!p) {
    void* addr = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (addr == MAP_FAILED) p = failure{status::io_error, "cannot map: " + detail::errno_text(errno)};
    else out = detail::mapping(addr, static_cast<std::size_t>(st.st_size));
  }
  ::close(fd);  // the mapping keeps the file alive
  return p;
}

}  // namespace

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
    self->copy = detail::allocate(bytes.size());
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
  detail::verifier check(file, db->info_, *self, db->shape_, limits);
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
