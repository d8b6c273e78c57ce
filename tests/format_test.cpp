// format_test: the .lddb writer and reader.
//
// Databases come from the real generator (b = 2..4). Lookups are checked against an
// independent reading of the database_image, written here from docs/format.md: its own
// transforms, canonical forms, cost decoding and path-table parser. Corruption tests patch
// files byte by byte; where a check sits behind a checksum, the test re-seals the checksum
// so that the deeper check is the one that fires.
#define XXH_INLINE_ALL
#include <xxhash.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <zstd.h>

#include <new>

#include "byte_patch.hpp"
#include "lddb/format.hpp"
#include "lddb/generator.hpp"
#include "lddb/block_shape.hpp"
#include "lddb/path_table.hpp"
#include "lddb/stored_cost.hpp"

// ============================================================================= allocations

// Every allocation through operator new (std::vector, std::make_unique_for_overwrite, ...)
// passes here, so a test can ask for the largest single request made while it watched:
// "refused before any large allocation" is then a measured fact, not a hope.
namespace alloc_watch {
std::atomic<bool> on{false};
std::atomic<std::size_t> largest{0};
struct scope {
  scope() {
    largest = 0;
    on = true;
  }
  ~scope() { on = false; }
  std::size_t largest_request() const { return largest.load(); }
};
}  // namespace alloc_watch

namespace alloc_watch {
void* allocate(std::size_t n) {
  if (on.load(std::memory_order_relaxed)) {
    std::size_t seen = largest.load(std::memory_order_relaxed);
    while (n > seen && !largest.compare_exchange_weak(seen, n)) {
    }
  }
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
}  // namespace alloc_watch

// The array forms too, which a sanitizer's runtime would otherwise provide itself.
void* operator new(std::size_t n) { return alloc_watch::allocate(n); }
void* operator new[](std::size_t n) { return alloc_watch::allocate(n); }
// The allocations above are malloc, so free is their match; GCC cannot see that once it inlines.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
#pragma GCC diagnostic pop

namespace {

using namespace lddb;
namespace fs = std::filesystem;
using bytes = std::vector<std::uint8_t>;

// ============================================================================= databases

struct sample {
  const char* name;
  recipe how;
};

// Built once per process: generation is the slow part and every test reads the same ones.
const database_image& image(const std::string& name) {
  static std::map<std::string, database_image> cache;
  static const std::vector<sample> samples = {
      {"tile-2", recipe{rule::tile(), 2, true, 0}},
      {"tile-3", recipe{rule::tile(), 3, true, 19}},
      {"octile-2", recipe{rule::octile(), 2, true, 0}},
      {"octile-2-nosym", recipe{rule::octile(), 2, false, 0}},
      {"octile-3", recipe{rule::octile(), 3, true, 19}},
      {"octile-3-stored", recipe{rule::octile(), 3, true, 0}},
      {"octile-3-nosym", recipe{rule::octile(), 3, false, 19}},
      {"octile-cut-3", recipe{rule::octile(corner_cutting::one_side_free, kCostOne * 3 / 2), 3, true, 19}},
      {"any-angle-3", recipe{rule::any_angle(), 3, true, 19}},
      {"any-angle-3-stored", recipe{rule::any_angle(), 3, true, 0}},
      {"octile-4", recipe{rule::octile(), 4, true, 19}},
      {"any-angle-4", recipe{rule::any_angle(), 4, true, 19}},
  };
  if (auto it = cache.find(name); it != cache.end()) return it->second;
  for (const sample& s : samples)
    if (name == s.name) return cache.emplace(name, generate(s.how, {})).first->second;
  throw std::invalid_argument("no sample database " + name);
}

const bytes& file_bytes(const std::string& name) {
  static std::map<std::string, bytes> cache;
  if (auto it = cache.find(name); it != cache.end()) return it->second;
  return cache.emplace(name, encode_database(image(name))).first->second;
}

std::string file_name(const std::string& name) { return "lddb/" + name + ".lddb"; }

database::open_result open_sample(const std::string& name) {
  return database::open_bytes(file_bytes(name), file_name(name));
}

// ============================================================================= byte patching

using byte_patch::get;
using byte_patch::put;

constexpr std::size_t kHeader = 64, kEntry = 48;
std::uint32_t section_count(const bytes& f) { return get<std::uint32_t>(f, 52); }

// Offset of the section table entry with this tag.
std::size_t entry_at(const bytes& f, std::uint32_t tag) {
  for (std::size_t i = 0; i < section_count(f); ++i)
    if (get<std::uint32_t>(f, kHeader + kEntry * i) == tag) return kHeader + kEntry * i;
  throw std::invalid_argument("no such section");
}
std::uint64_t section_offset(const bytes& f, std::uint32_t tag) { return get<std::uint64_t>(f, entry_at(f, tag) + 8); }
std::uint64_t section_size(const bytes& f, std::uint32_t tag) { return get<std::uint64_t>(f, entry_at(f, tag) + 16); }
std::uint8_t section_codec_of(const bytes& f, std::uint32_t tag) { return f.at(entry_at(f, tag) + 4); }

// Recomputes the header checksum: XXH3-64 of bytes [0, 56) followed by the section table.
void reseal_header(bytes& f) {
  const std::size_t table = std::min<std::size_t>(kEntry * section_count(f), f.size() - kHeader);
  bytes covered(f.begin(), f.begin() + 56);
  covered.insert(covered.end(), f.begin() + kHeader, f.begin() + static_cast<std::ptrdiff_t>(kHeader + table));
  put<std::uint64_t>(f, 56, XXH3_64bits(covered.data(), covered.size()));
}

// Recomputes one section's checksum, then the header's.
void reseal_section(bytes& f, std::uint32_t tag) {
  const std::size_t e = entry_at(f, tag);
  const std::uint64_t off = get<std::uint64_t>(f, e + 8), size = get<std::uint64_t>(f, e + 16);
  put<std::uint64_t>(f, e + 32, XXH3_64bits(f.data() + off, size));
  reseal_header(f);
}

// ============================================================================= assertions

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// Refused with this status, and a message naming the file and the problem.
void expect_refused(const database::open_result& r, status want, const std::string& name, const std::string& keyword) {
  EXPECT_FALSE(r) << "opened although it should fail with " << status_name(want);
  EXPECT_EQ(r.db, nullptr);
  EXPECT_EQ(status_name(r.code), std::string(status_name(want))) << r.message;
  EXPECT_TRUE(contains(r.message, name)) << "message does not name the file: " << r.message;
  EXPECT_TRUE(contains(r.message, keyword)) << "message lacks '" << keyword << "': " << r.message;
}

// Patch a copy of a sample and open it.
template <class Patch>
database::open_result open_patched(const std::string& name, Patch patch) {
  bytes f = file_bytes(name);
  patch(f);
  return database::open_bytes(f, file_name(name));
}

// ============================================================================= independent reading

// What a lookup must return, computed from the image and docs/format.md alone: it shares
// only boundary_point / boundary_index / pair_index (pure definitions) with the library.
class reference {
 public:
  explicit reference(const database_image& im)
      : im_(im), shape_(im.block, im.movement.on_vertices()), b_(im.block), side_(shape_.side()) {
    for (int t = 0; t < 8; ++t)
      for (int u = 0; u < 8; ++u)
        if (same_map(u, t)) inverse_[t] = u;
    for (std::uint64_t c = 0; c < shape_.pattern_count(); ++c) {
      canonical_of_.push_back(compute_canonical(static_cast<std::uint32_t>(c)));
      if (canonical_of_.back().first == c) canonical_.push_back(static_cast<std::uint32_t>(c));
    }
  }

  const block_shape& shape() const { return shape_; }
  const std::vector<std::uint32_t>& canonical_codes() const { return canonical_; }

  // Reflect x when t >= 4, then t % 4 clockwise quarter turns, on a square of `side`.
  static point xform(int t, point p, int side) {
    if (t >= 4) p.x = side - 1 - p.x;
    for (int r = 0; r < t % 4; ++r) p = point{side - 1 - p.y, p.x};
    return p;
  }
  std::uint32_t xform_code(int t, std::uint32_t code) const {
    std::uint32_t out = 0;
    for (int y = 0; y < b_; ++y)
      for (int x = 0; x < b_; ++x)
        if (code >> (y * b_ + x) & 1u) {
          const point q = xform(t, {x, y}, b_);
          out |= 1u << (q.y * b_ + q.x);
        }
    return out;
  }
  std::pair<std::uint32_t, int> canonical(std::uint32_t code) const { return canonical_of_[code]; }
  // The least code of the orbit, reached by the lowest-numbered transform in the mask.
  std::pair<std::uint32_t, int> compute_canonical(std::uint32_t code) const {
    std::pair<std::uint32_t, int> best{code, 0};
    for (int t = 1; t < 8; ++t)
      if (im_.symmetry_mask >> t & 1u)
        if (const std::uint32_t c = xform_code(t, code); c < best.first) best = {c, t};
    return best;
  }
  std::uint32_t ordinal(std::uint32_t canonical_code) const {
    return static_cast<std::uint32_t>(std::lower_bound(canonical_.begin(), canonical_.end(), canonical_code) - canonical_.begin());
  }
  int xform_boundary(int t, int a) const { return shape_.boundary_index(xform(t, shape_.boundary_point(a), side_)); }
  int inverse(int t) const { return inverse_[t]; }

  bool usable(std::uint32_t code, point p) const {
    auto blocked = [&](int x, int y) { return x < 0 || y < 0 || x >= b_ || y >= b_ || (code >> (y * b_ + x) & 1u); };
    if (!shape_.vertices()) return !blocked(p.x, p.y);
    return !(blocked(p.x - 1, p.y - 1) && blocked(p.x, p.y - 1) && blocked(p.x - 1, p.y) && blocked(p.x, p.y));
  }

  cost_t decode(std::uint16_t v) const {
    if (v == 0xFFFF) return kUnreachable;
    if (im_.encoding == cost_encoding::octile_pair) return (v & 0xFFu) * kCostOne + (v >> 8) * im_.movement.diagonal;
    return cost_t{v} << (32 - im_.scale_log2);
  }

  std::uint16_t stored(std::uint32_t code, int a, int b) const {
    if (a == b) return usable(code, shape_.boundary_point(a)) ? 0 : 0xFFFF;
    const auto [canon, t] = canonical(code);
    const std::uint32_t cost_id = im_.cost_id[ordinal(canon)];
    const int k = shape_.pair_index(xform_boundary(t, a), xform_boundary(t, b));
    return im_.costs[std::size_t{cost_id} * static_cast<std::size_t>(shape_.pair_count()) + static_cast<std::size_t>(k)];
  }
  cost_t cost(std::uint32_t code, int a, int b) const { return decode(stored(code, a, b)); }

  // nullopt when unreachable; else the inflection points from a to b.
  std::optional<std::vector<point>> path(std::uint32_t code, int a, int b) const {
    if (stored(code, a, b) == 0xFFFF) return std::nullopt;
    if (a == b) return std::vector<point>{};
    const auto [canon, t] = canonical(code);
    const int ca = xform_boundary(t, a), cb = xform_boundary(t, b);
    std::vector<point> pts = table_points(im_.path_id[ordinal(canon)], shape_.pair_index(ca, cb));
    for (point& p : pts) p = xform(inverse(t), p, side_);
    if (ca > cb) std::reverse(pts.begin(), pts.end());
    return pts;
  }

 private:
  bool same_map(int u, int t) const {
    for (int y = 0; y < side_; ++y)
      for (int x = 0; x < side_; ++x)
        if (!(xform(u, xform(t, {x, y}, side_), side_) == point{x, y})) return false;
    return true;
  }
  std::vector<point> table_points(std::uint32_t path_id, int k) const {
    const std::uint8_t* t = im_.paths.data() + im_.path_offset[path_id];
    const int pairs = shape_.pair_count();
    std::size_t pos = static_cast<std::size_t>((pairs + 7) / 8);
    for (int j = 0; j < pairs; ++j) {
      if (!(t[j / 8] >> (j % 8) & 1u)) continue;
      const int n = t[pos];
      if (j == k) {
        std::vector<point> pts;
        for (int i = 0; i < n; ++i) pts.push_back(point{t[pos + 1 + i] % side_, t[pos + 1 + i] / side_});
        return pts;
      }
      pos += 1 + static_cast<std::size_t>(n);
    }
    return {};
  }

  const database_image& im_;
  block_shape shape_;
  int b_, side_;
  std::array<int, 8> inverse_{};
  std::vector<std::uint32_t> canonical_;
  std::vector<std::pair<std::uint32_t, int>> canonical_of_;
};

std::vector<point> points_of(const inflections& f) { return {f.points.begin(), f.points.begin() + f.count}; }

// Every lookup of db against the reference; paths for every `path_stride`-th code.
void expect_same_lookups(const database& db, const database_image& im, std::uint32_t path_stride) {
  const reference ref(im);
  const block_shape& s = ref.shape();
  ASSERT_EQ(db.info().canonical_patterns, ref.canonical_codes().size());
  std::uint64_t mismatches = 0;
  for (std::uint64_t c = 0; c < s.pattern_count() && mismatches < 10; ++c) {
    const auto code = static_cast<std::uint32_t>(c);
    const auto [canon, t] = ref.canonical(code);
    const database::entry_ref e = db.entry(code);
    const std::uint32_t ord = ref.ordinal(canon);
    if (e.canonical_code != canon || e.canonical_index != ord || e.transform != t || e.cost_id != im.cost_id[ord] ||
        e.path_id != im.path_id[ord]) {
      ADD_FAILURE() << "entry(" << code << ") differs";
      ++mismatches;
    }
    for (int a = 0; a < s.boundary_count(); ++a) {
      for (int b = 0; b < s.boundary_count(); ++b) {
        if (db.stored_cost(code, a, b) != ref.stored(code, a, b) || db.cost(code, a, b) != ref.cost(code, a, b)) {
          ADD_FAILURE() << "cost(" << code << ", " << a << ", " << b << ") = " << db.cost(code, a, b) << ", expected "
                        << ref.cost(code, a, b);
          ++mismatches;
        }
        if (c % path_stride != 0) continue;
        inflections got;
        const bool found = db.path(code, a, b, &got);
        const auto want = ref.path(code, a, b);
        if (found != want.has_value() || (found && points_of(got) != *want)) {
          ADD_FAILURE() << "path(" << code << ", " << a << ", " << b << ") differs";
          ++mismatches;
        }
      }
    }
  }
  // The open block's costs, decoded at open for Block A*, against the reference.
  const int n = s.boundary_count();
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      EXPECT_EQ(db.open_costs()[a * n + b], a == b ? cost_t{0} : ref.cost(0, a, b)) << "open_costs " << a << ", " << b;
}

// ============================================================================= round trips

class RoundTrip : public ::testing::TestWithParam<const char*> {};

TEST_P(RoundTrip, EveryLookupMatchesTheImage) {
  const std::string name = GetParam();
  const database_image& im = image(name);
  const auto r = open_sample(name);
  ASSERT_TRUE(r) << r.message;
  EXPECT_EQ(r.code, status::ok);
  EXPECT_TRUE(r.message.empty());
  const database& db = *r.db;
  EXPECT_EQ(db.info().block, im.block);
  EXPECT_EQ(db.movement(), im.movement);
  EXPECT_EQ(db.info().vertices, im.movement.on_vertices());
  EXPECT_EQ(db.info().encoding, im.encoding);
  EXPECT_EQ(db.info().scale_log2, im.scale_log2);
  EXPECT_EQ(db.info().symmetry_mask, im.symmetry_mask);
  EXPECT_EQ(db.info().cost_tables * static_cast<std::size_t>(db.shape().pair_count()), im.costs.size());
  EXPECT_EQ(db.info().path_tables + std::size_t{1}, im.path_offset.size());
  EXPECT_EQ(db.info().version, kFormatVersion);
  // The default any-angle rule's meaning is new in 1.1; every other rule reads in 1.0.
  const bool strict_any_angle = im.movement == lddb::rule::any_angle();
  EXPECT_EQ(db.info().min_reader, strict_any_angle ? (format_version{1, 1}) : kMinReaderVersion);
  EXPECT_EQ(db.info().min_reader, lddb::min_reader_for(im.movement));
  EXPECT_EQ(db.info().file_size, file_bytes(name).size());
  EXPECT_EQ(db.info().sections.size(), 4u);
  EXPECT_EQ(db.manifest(), im.manifest);
  EXPECT_EQ(db.path(), file_name(name));
  expect_same_lookups(db, im, im.block >= 4 ? 13 : 1);
}

INSTANTIATE_TEST_SUITE_P(Samples, RoundTrip,
                         ::testing::Values("tile-2", "tile-3", "octile-2", "octile-2-nosym", "octile-3", "octile-3-stored", "octile-3-nosym",
                                           "octile-cut-3", "any-angle-3", "any-angle-3-stored", "octile-4", "any-angle-4"),
                         [](const auto& info) {
                           std::string n = info.param;
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

TEST(Format, SectionsAreInOrderAlignedAndCompressedOnlyWhenSmaller) {
  for (const char* name : {"octile-3", "any-angle-4", "octile-2"}) {
    const auto r = open_sample(name);
    ASSERT_TRUE(r) << r.message;
    const auto& secs = r.db->info().sections;
    const std::vector<std::string> order = {"MANI", "ENTR", "COST", "PATH"};
    ASSERT_EQ(secs.size(), order.size());
    for (std::size_t i = 0; i < secs.size(); ++i) {
      EXPECT_EQ(secs[i].name(), order[i]);
      EXPECT_EQ(secs[i].offset % 64, 0u);
      if (secs[i].codec == section_codec::zstd) EXPECT_LT(secs[i].stored_size, secs[i].raw_size);
      else EXPECT_EQ(secs[i].stored_size, secs[i].raw_size);
    }
    EXPECT_EQ(secs[0].codec, section_codec::stored) << "the manifest is always stored";
    EXPECT_EQ(secs.back().offset + secs.back().stored_size, r.db->info().file_size);
  }
  // With level 0 nothing is compressed.
  const auto r = open_sample("octile-3-stored");
  ASSERT_TRUE(r) << r.message;
  for (const auto& s : r.db->info().sections) EXPECT_EQ(s.codec, section_codec::stored) << s.name();
}

TEST(Format, HeaderBytesAreAsSpecified) {
  const bytes& f = file_bytes("octile-cut-3");
  const bytes magic = {0x89, 'L', 'D', 'D', 'B', '\r', '\n', 0x1A};
  EXPECT_TRUE(std::equal(magic.begin(), magic.end(), f.begin()));
  EXPECT_EQ(get<std::uint16_t>(f, 8), 1);
  EXPECT_EQ(get<std::uint16_t>(f, 10), 1);
  EXPECT_EQ(get<std::uint16_t>(f, 12), 1);
  EXPECT_EQ(get<std::uint16_t>(f, 14), 0);  // a 1.0 reader reads this rule as written
  EXPECT_EQ((bytes{f[16], f[17], f[18], f[19]}), (bytes{4, 3, 2, 1}));
  EXPECT_EQ((bytes{f[20], f[21], f[22], f[23]}), (bytes{8, 2, 2, 0}));  // u16 ids: few tables
  EXPECT_EQ(f[24], 3);  // b
  EXPECT_EQ(f[25], 0);  // cells
  EXPECT_EQ(f[26], 1);  // octile
  EXPECT_EQ(f[27], 1);  // one side free
  EXPECT_EQ(f[28], 0);
  EXPECT_EQ(f[31], 0xFF);
  EXPECT_EQ(get<std::uint64_t>(f, 32), kCostOne * 3 / 2);
  EXPECT_EQ(get<std::uint32_t>(f, 52), 4u);
  EXPECT_EQ(get<std::uint32_t>(f, kHeader), section_tag("MANI"));
  EXPECT_EQ(section_offset(f, kTagManifest), 256u);  // 64 + 4 * 48 = 256, already aligned
}

// ENTR holds two planes, all cost ids then all path ids, as u16 while both table counts
// are at most 65,536; PATH holds the tables back to back, with no index.
TEST(Format, EntriesAndPathsAreAsSpecified) {
  for (const char* name : {"octile-3-stored", "any-angle-3-stored", "octile-2-nosym"}) {
    SCOPED_TRACE(name);
    const database_image& im = image(name);
    const bytes& f = file_bytes(name);
    ASSERT_EQ(section_codec_of(f, kTagEntries), 0);
    const std::size_t canonical = im.cost_id.size();
    EXPECT_EQ(f[21], 2);
    EXPECT_EQ(get<std::uint64_t>(f, entry_at(f, kTagEntries) + 24), 4 * canonical);
    const std::uint64_t entr = section_offset(f, kTagEntries);
    for (std::size_t i = 0; i < canonical; ++i) {
      EXPECT_EQ(get<std::uint16_t>(f, entr + 2 * i), im.cost_id[i]) << "cost id " << i;
      EXPECT_EQ(get<std::uint16_t>(f, entr + 2 * (canonical + i)), im.path_id[i]) << "path id " << i;
    }
    ASSERT_EQ(section_codec_of(f, kTagPaths), 0);
    const std::uint64_t path = section_offset(f, kTagPaths);
    EXPECT_EQ(bytes(f.begin() + static_cast<std::ptrdiff_t>(path), f.end()), im.paths) << "PATH is the last section";
  }
}

// The path table's encoder, parser and lookup agree on the bytes of docs/format.md.
TEST(Format, PathTableEncoderParserAndLookupAgree) {
  const block_shape s(3, true);  // vertices: no straight-run rule to satisfy
  path_table_encoder enc(s.pair_count());
  const int first[] = {5, 6}, second[] = {9};
  enc.add(1, first, 2);
  enc.add(4, nullptr, 0);  // nothing stored
  enc.add(9, second, 1);
  const bytes table = enc.take();
  const std::size_t bitmap = path_bitmap_bytes(s.pair_count());
  ASSERT_EQ(table.size(), bitmap + 3 + 2);
  EXPECT_EQ(table[0], 0x02);
  EXPECT_EQ(table[1], 0x02);
  EXPECT_EQ(bytes(table.begin() + static_cast<std::ptrdiff_t>(bitmap), table.end()), (bytes{2, 5, 6, 1, 9}));
  EXPECT_FALSE(path_table_problem(table, s));
  auto points = [&](int pair) {
    const std::span<const std::uint8_t> p = path_table_points(table, s.pair_count(), pair);
    return bytes(p.begin(), p.end());
  };
  EXPECT_EQ(points(1), (bytes{5, 6}));
  EXPECT_EQ(points(9), (bytes{9}));
  EXPECT_TRUE(path_table_points(table, s.pair_count(), 4).empty());
  bytes longer = table;
  longer.push_back(0);
  EXPECT_EQ(path_table_problem(longer, s), "has 1 bytes after its last pair");
}

// Every rule's costs decode to what was encoded (any-angle: to its scale).
TEST(Format, StoredCostsDecodeToWhatWasEncoded) {
  auto decode = [](const rule& r, std::uint16_t v) {
    const cost_format f = cost_format_for(r);
    return decode_stored_cost(v, f.encoding == cost_encoding::octile_pair, kCostShift - f.scale_log2, r.diagonal);
  };
  EXPECT_EQ(decode(rule::tile(), encode_cell_cost(rule::tile(), 7, 0)), 7 * kCostOne);
  for (const rule& r : {rule::octile(), rule::octile(corner_cutting::forbidden, 3 * kCostOne / 2)})
    EXPECT_EQ(decode(r, encode_cell_cost(r, 3, 2)), 3 * kCostOne + 2 * r.diagonal) << r.name();
  const rule aa = rule::any_angle();
  const cost_t length = euclid_cost(2, 1);
  const cost_t back = decode(aa, encode_length_cost(aa, length));
  const cost_t half_unit = cost_t{1} << (kCostShift - cost_format_for(aa).scale_log2 - 1);
  EXPECT_LE(back > length ? back - length : length - back, half_unit);
  EXPECT_EQ(decode(aa, kStoredUnreachable), kUnreachable);
  EXPECT_THROW(encode_cell_cost(rule::octile(), 256, 0), std::runtime_error);
}

TEST(Format, EncodingIsAPureFunctionOfTheImage) {
  const database_image& im = image("any-angle-3");
  EXPECT_EQ(encode_database(im), encode_database(im));
  database_image copy = im;
  EXPECT_EQ(encode_database(copy), file_bytes("any-angle-3"));
}

TEST(Format, WriterRefusesAnInconsistentImage) {
  database_image bad = image("octile-2");
  bad.cost_id[0] = 1000;
  EXPECT_THROW(encode_database(bad), std::invalid_argument);
  bad = image("octile-2");
  bad.paths.push_back(0);  // a byte after the last table
  EXPECT_THROW(encode_database(bad), std::invalid_argument);
  bad = image("octile-2");
  bad.cost_id.pop_back();
  bad.path_id.pop_back();
  EXPECT_THROW(encode_database(bad), std::invalid_argument);
  bad = image("octile-2");
  bad.movement = rule::tile();  // octile-pair costs only for octile
  EXPECT_THROW(encode_database(bad), std::invalid_argument);
}

// ============================================================================= files on disk

class temp_dir {
 public:
  temp_dir() {
    std::string tmpl = (fs::temp_directory_path() / "lddb-format-test-XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
  }
  ~temp_dir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  std::vector<std::string> entries() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(path_)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }

 private:
  fs::path path_;
};

bytes read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}
void write_file(const std::string& path, const bytes& data) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
}

TEST(Files, WriteThenOpenFromDisk) {
  temp_dir dir;
  const std::string path = dir.file("octile-3.lddb");
  std::string error;
  ASSERT_TRUE(write_database(image("octile-3"), path, &error)) << error;
  EXPECT_EQ(read_file(path), file_bytes("octile-3"));
  const auto r = database::open(path);
  ASSERT_TRUE(r) << r.message;
  EXPECT_EQ(r.db->path(), path);
  expect_same_lookups(*r.db, image("octile-3"), 1);
}

TEST(Files, MappedDatabaseOutlivesTheDirectoryEntry) {
  temp_dir dir;
  const std::string path = dir.file("any-angle-3-stored.lddb");
  write_file(path, file_bytes("any-angle-3-stored"));
  const auto r = database::open(path);
  ASSERT_TRUE(r) << r.message;
  fs::remove(path);  // the mapping keeps the bytes
  expect_same_lookups(*r.db, image("any-angle-3-stored"), 1);
}

TEST(Files, WriteIntoAMissingDirectoryFailsCleanly) {
  temp_dir dir;
  const std::string path = dir.file("no-such-dir/octile-3.lddb");
  std::string error;
  EXPECT_FALSE(write_database(image("octile-3"), path, &error));
  EXPECT_TRUE(contains(error, path)) << error;
  EXPECT_FALSE(fs::exists(dir.file("no-such-dir")));
  EXPECT_TRUE(dir.entries().empty());
}

TEST(Files, WriteReplacesAnExistingFileWholly) {
  temp_dir dir;
  const std::string path = dir.file("db.lddb");
  write_file(path, bytes(1 << 20, 0xAB));  // longer than what replaces it
  std::string error;
  ASSERT_TRUE(write_database(image("octile-2"), path, &error)) << error;
  EXPECT_EQ(read_file(path), file_bytes("octile-2"));
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"db.lddb"}) << "a temporary file was left behind";
}

TEST(Files, FailedWriteLeavesTargetAndNoTemporary) {
  temp_dir dir;
  // A non-empty directory where the file should go: the rename must fail.
  const std::string path = dir.file("db.lddb");
  fs::create_directory(path);
  write_file(dir.file("db.lddb/keep"), bytes{1, 2, 3});
  std::string error;
  EXPECT_FALSE(write_database(image("octile-2"), path, &error));
  EXPECT_TRUE(contains(error, path)) << error;
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"db.lddb"});
  EXPECT_EQ(read_file(dir.file("db.lddb/keep")), (bytes{1, 2, 3}));

  // An image the reader would refuse is not written at all, and the old file stays.
  const std::string other = dir.file("other.lddb");
  write_file(other, bytes{9, 9});
  database_image bad = image("octile-2");
  bad.path_id[0] = 999;
  EXPECT_FALSE(write_database(bad, other, &error));
  EXPECT_TRUE(contains(error, other)) << error;
  EXPECT_EQ(read_file(other), (bytes{9, 9}));
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"db.lddb", "other.lddb"}));
}

TEST(Files, EmptyFileIsTruncated) {
  temp_dir dir;
  const std::string path = dir.file("empty.lddb");
  write_file(path, {});
  expect_refused(database::open(path), status::truncated, path, "empty");
  expect_refused(database::open_bytes({}, "mem.lddb"), status::truncated, "mem.lddb", "empty");
}

TEST(Files, DirectoryIsAnIoError) {
  temp_dir dir;
  const std::string path = dir.file("a-directory.lddb");
  fs::create_directory(path);
  expect_refused(database::open(path), status::io_error, path, "is a directory");
}

TEST(Files, MissingFileIsAnIoError) {
  temp_dir dir;
  const std::string path = dir.file("missing.lddb");
  expect_refused(database::open(path), status::io_error, path, "No such file");
  expect_refused(database::open(path), status::io_error, path, "its folder holds no .lddb file");
  expect_refused(database::open(dir.file("none/x.lddb")), status::io_error, "x.lddb", "is not there either");
  // A misspelt name: the message lists the databases that are there.
  const std::string shipped = std::string(LDDB_SOURCE_DIR) + "/lddb/";
  expect_refused(database::open(shipped + "octile.lddb"), status::io_error, "octile.lddb", "(its folder holds ");
  expect_refused(database::open(shipped + "octile.lddb"), status::io_error, "octile.lddb", "octile-4.lddb");
}

TEST(Files, TextFileIsWrongMagic) {
  temp_dir dir;
  const std::string path = dir.file("map.lddb");
  const std::string text = "type octile\nheight 4\nwidth 4\nmap\n....\n....\n....\n....\n";
  write_file(path, bytes(text.begin(), text.end()));
  expect_refused(database::open(path), status::wrong_magic, path, "not an .lddb file");
  // Even shorter than a header: still "not an .lddb file", not "truncated".
  write_file(path, bytes{'h', 'i', '\n'});
  expect_refused(database::open(path), status::wrong_magic, path, "not an .lddb file");
}

// ============================================================================= corruption

TEST(Corruption, TruncationAtEverySectionBoundary) {
  for (const char* name : {"octile-2", "any-angle-3"}) {
    const bytes& f = file_bytes(name);
    std::set<std::size_t> cuts = {1, 7, 8, 63, 64, 65, kHeader + kEntry * section_count(f) - 1,
                                  kHeader + kEntry * section_count(f), f.size() - 1};
    for (std::size_t i = 0; i < section_count(f); ++i) {
      const std::uint64_t off = get<std::uint64_t>(f, kHeader + kEntry * i + 8);
      const std::uint64_t end = off + get<std::uint64_t>(f, kHeader + kEntry * i + 16);
      for (std::uint64_t c : {off - 1, off, off + 1, end - 1, end, end + 1})
        if (c > 0 && c < f.size()) cuts.insert(c);
    }
    for (std::size_t cut : cuts) {
      SCOPED_TRACE("cut at " + std::to_string(cut));
      expect_refused(database::open_bytes(std::span(f).first(cut), file_name(name)), status::truncated, file_name(name),
                     "bytes");
    }
  }
}

TEST(Corruption, TruncationAtRandomOffsets) {
  std::mt19937_64 rng(20240611);
  for (const char* name : {"octile-3", "any-angle-4"}) {
    const bytes& f = file_bytes(name);
    std::uniform_int_distribution<std::size_t> pick(1, f.size() - 1);
    for (int i = 0; i < 200; ++i) {
      const std::size_t cut = pick(rng);
      SCOPED_TRACE("cut at " + std::to_string(cut));
      expect_refused(database::open_bytes(std::span(f).first(cut), file_name(name)), status::truncated, file_name(name),
                     "bytes");
    }
  }
}

TEST(Corruption, TruncatedFileOnDisk) {
  temp_dir dir;
  const std::string path = dir.file("cut.lddb");
  const bytes& f = file_bytes("octile-3");
  write_file(path, bytes(f.begin(), f.end() - 100));
  expect_refused(database::open(path), status::truncated, path, "ends at offset");
}

void expect_flip_detected(const std::string& name, std::size_t bit) {
  bytes f = file_bytes(name);
  f[bit / 8] ^= std::uint8_t(1u << (bit % 8));
  const auto r = database::open_bytes(f, file_name(name));
  EXPECT_FALSE(r) << "flipping bit " << bit << " (byte " << bit / 8 << ") went unnoticed";
  EXPECT_NE(r.code, status::ok);
  EXPECT_TRUE(contains(r.message, file_name(name))) << r.message;
}

TEST(Corruption, EveryBitFlipOfASmallFileIsDetected) {
  for (const char* name : {"octile-2", "octile-2-nosym"}) {
    const std::size_t bits = file_bytes(name).size() * 8;
    for (std::size_t bit = 0; bit < bits; ++bit) expect_flip_detected(name, bit);
  }
}

TEST(Corruption, RandomBitFlipsAreDetected) {
  std::mt19937_64 rng(7);
  for (const char* name : {"octile-3", "any-angle-3-stored", "octile-4", "any-angle-4"}) {
    std::uniform_int_distribution<std::size_t> pick(0, file_bytes(name).size() * 8 - 1);
    for (int i = 0; i < 2000; ++i) expect_flip_detected(name, pick(rng));
  }
}

TEST(Corruption, WrongMagic) {
  const auto r = open_patched("octile-3", [](bytes& f) { f[1] = 'X'; });
  expect_refused(r, status::wrong_magic, file_name("octile-3"), "not an .lddb file");
}

TEST(Corruption, TextModeTransferDamagesTheMagic) {
  // CRLF -> LF, as a text-mode copy does.
  const auto r = open_patched("octile-3", [](bytes& f) { f.erase(f.begin() + 5); });
  expect_refused(r, status::wrong_magic, file_name("octile-3"), "text-mode");
}

TEST(Corruption, HeaderChecksum) {
  const auto r = open_patched("octile-3", [](bytes& f) { f[44] ^= 1; });  // cost table count
  // A changed count is either out of range or caught by the checksum; here it is in range.
  expect_refused(r, status::checksum_mismatch, file_name("octile-3"), "header checksum mismatch");
}

TEST(Corruption, SectionChecksumNamesTheSection) {
  const auto r = open_patched("octile-3", [](bytes& f) { f[section_offset(f, kTagCosts) + 3] ^= 0x10; });
  expect_refused(r, status::checksum_mismatch, file_name("octile-3"), "section COST checksum mismatch (stored 0x");
}

// Corruption that the checksums do not catch (because a buggy or hostile writer sealed it)
// must still be refused by the structural checks, or give a database whose every lookup
// stays in bounds. Run under AddressSanitizer, this is a small fuzzer of the deep checks.
TEST(Corruption, ResealedRandomCorruptionIsRefusedOrHarmless) {
  std::mt19937_64 rng(99);
  int refused = 0, opened = 0;
  for (const char* name : {"octile-2", "octile-3-stored", "any-angle-3-stored", "any-angle-3"}) {
    const bytes& original = file_bytes(name);
    for (int round = 0; round < 1500; ++round) {
      bytes f = original;
      const std::uint32_t tag = std::array{kTagEntries, kTagCosts, kTagPaths}[rng() % 3];
      const std::uint64_t off = section_offset(f, tag), size = section_size(f, tag);
      for (int i = 1 + static_cast<int>(rng() % 3); i > 0; --i) f[off + rng() % size] = static_cast<std::uint8_t>(rng());
      if (rng() % 4 == 0) f[24 + rng() % 28] = static_cast<std::uint8_t>(rng());  // and a field of bytes 24..51
      reseal_section(f, tag);
      const auto r = database::open_bytes(f, file_name(name));
      if (!r) {
        ++refused;
        EXPECT_TRUE(contains(r.message, file_name(name))) << r.message;
        continue;
      }
      ++opened;
      const database& db = *r.db;
      inflections out;
      for (std::uint64_t code = 0; code < db.shape().pattern_count(); code += 1 + rng() % 7)
        for (int a = 0; a < db.shape().boundary_count(); ++a)
          for (int b = 0; b < db.shape().boundary_count(); ++b) {
            (void)db.cost(static_cast<std::uint32_t>(code), a, b);
            if (db.path(static_cast<std::uint32_t>(code), a, b, &out)) {
              ASSERT_LE(out.count, inflections::kCapacity);
              for (int i = 0; i < out.count; ++i) {
                ASSERT_GE(out.points[i].x, 0);
                ASSERT_LT(out.points[i].x, db.shape().side());
              }
            }
          }
    }
  }
  EXPECT_GT(refused, 0);
  EXPECT_GT(opened, 0) << "some corruption (a changed cost) is structurally valid";
}

// ----------------------------------------------------------------------------- versions

TEST(Versions, NewerMajorIsRefused) {
  const auto r = open_patched("octile-3", [](bytes& f) {
    put<std::uint16_t>(f, 8, 2);
    put<std::uint16_t>(f, 10, 0);
    put<std::uint16_t>(f, 12, 2);
    put<std::uint16_t>(f, 14, 0);
    reseal_header(f);
  });
  expect_refused(r, status::unsupported_version, file_name("octile-3"), "written by format 2.0; this reader reads 1.x");
}

TEST(Versions, NewerMinimumReaderIsRefused) {
  const auto r = open_patched("octile-3", [](bytes& f) {
    put<std::uint16_t>(f, 10, 5);  // file 1.5
    put<std::uint16_t>(f, 14, 4);  // needs reader 1.4
    reseal_header(f);
  });
  expect_refused(r, status::unsupported_version, file_name("octile-3"), "needs a reader of format 1.4");
}

// Format 1.1 changed what squeezing 0 means (docs/format.md, section 7): its files need a
// 1.1 reader, and a 1.0 file's any-angle reads as the rule whose answers it holds.
TEST(Versions, DefaultAnyAngleNeedsA11Reader) {
  const bytes& f = file_bytes("any-angle-3");
  EXPECT_EQ(get<std::uint16_t>(f, 10), 1);
  EXPECT_EQ(get<std::uint16_t>(f, 12), 1);
  EXPECT_EQ(get<std::uint16_t>(f, 14), 1);
  std::string why;
  EXPECT_FALSE(version_readable({1, 1}, {1, 1}, {1, 0}, &why));
  EXPECT_TRUE(contains(why, "needs a reader of format 1.1 or newer")) << why;
  const auto r = open_sample("any-angle-3");
  ASSERT_TRUE(r) << r.message;
  EXPECT_EQ(r.db->movement(), rule::any_angle());
  EXPECT_EQ(lddb::min_reader_for(rule::any_angle(lddb::squeezing::allowed)), (format_version{1, 0}));
  EXPECT_EQ(lddb::min_reader_for(rule::octile()), (format_version{1, 0}));
  EXPECT_EQ(lddb::min_reader_for(rule::octile(lddb::corner_cutting::allowed)), (format_version{1, 1}));
  EXPECT_EQ(lddb::min_reader_for(rule::tile()), (format_version{1, 0}));
  // The same bytes stamped 1.0 read as squeeze=allowed; other rules read as stored.
  const auto old = open_patched("any-angle-3", [](bytes& g) {
    put<std::uint16_t>(g, 10, 0);
    put<std::uint16_t>(g, 14, 0);
    reseal_header(g);
  });
  ASSERT_TRUE(old) << old.message;
  EXPECT_EQ(old.db->movement(), rule::any_angle(lddb::squeezing::allowed));
  EXPECT_EQ(old.db->check_rule(rule::any_angle(), &why), status::rule_mismatch);
  EXPECT_TRUE(contains(why, "any-angle:squeeze=allowed")) << why;
  EXPECT_EQ(lddb::rule_as_written(rule::octile(), {1, 0}), rule::octile());
  EXPECT_EQ(lddb::rule_as_written(rule::any_angle(), {1, 1}), rule::any_angle());
}

TEST(Versions, NewerMinorThatOldReadersMayReadOpens) {
  const auto r = open_patched("octile-3", [](bytes& f) {
    put<std::uint16_t>(f, 10, 7);  // file 1.7, still readable by 1.0
    reseal_header(f);
  });
  ASSERT_TRUE(r) << r.message;
  EXPECT_EQ(r.db->info().version, (format_version{1, 7}));
}

// Rebuilds a file with one more section at the end, laid out and sealed as the spec says:
// what a later 1.x writer could produce.
bytes with_extra_section(const bytes& f, std::uint32_t tag, const bytes& payload) {
  struct sec {
    bytes entry, data;
  };
  std::vector<sec> secs;
  for (std::size_t i = 0; i < section_count(f); ++i) {
    const std::size_t e = kHeader + kEntry * i;
    const std::uint64_t off = get<std::uint64_t>(f, e + 8), size = get<std::uint64_t>(f, e + 16);
    secs.push_back({bytes(f.begin() + e, f.begin() + e + kEntry), bytes(f.begin() + off, f.begin() + off + size)});
  }
  sec extra{bytes(kEntry, 0), payload};
  put<std::uint32_t>(extra.entry, 0, tag);
  put<std::uint64_t>(extra.entry, 16, payload.size());
  put<std::uint64_t>(extra.entry, 24, payload.size());
  put<std::uint64_t>(extra.entry, 32, XXH3_64bits(payload.data(), payload.size()));
  secs.push_back(extra);

  bytes out(f.begin(), f.begin() + kHeader);
  put<std::uint32_t>(out, 52, static_cast<std::uint32_t>(secs.size()));
  for (const sec& s : secs) out.insert(out.end(), s.entry.begin(), s.entry.end());
  for (std::size_t i = 0; i < secs.size(); ++i) {
    out.resize((out.size() + 63) / 64 * 64, 0);
    put<std::uint64_t>(out, kHeader + kEntry * i + 8, out.size());
    out.insert(out.end(), secs[i].data.begin(), secs[i].data.end());
  }
  reseal_header(out);
  return out;
}

TEST(Versions, UnknownSectionOfALaterMinorIsCheckedAndSkipped) {
  const std::string text = "added by format 1.1";
  bytes f = with_extra_section(file_bytes("octile-3"), section_tag("XTRA"), bytes(text.begin(), text.end()));
  put<std::uint16_t>(f, 10, 1);  // file 1.1, readable by 1.0
  reseal_header(f);
  const auto r = database::open_bytes(f, "x.lddb");
  ASSERT_TRUE(r) << r.message;
  ASSERT_EQ(r.db->info().sections.size(), 5u);
  EXPECT_EQ(r.db->info().sections.back().name(), "XTRA");
  expect_same_lookups(*r.db, image("octile-3"), 1);
  // Its checksum is still verified.
  f.back() ^= 1;
  expect_refused(database::open_bytes(f, "x.lddb"), status::checksum_mismatch, "x.lddb", "section XTRA checksum");
}

TEST(Versions, MissingRequiredSection) {
  const auto r = open_patched("octile-3", [](bytes& f) {
    put<std::uint32_t>(f, entry_at(f, kTagManifest), section_tag("XTRA"));
    reseal_header(f);
  });
  expect_refused(r, status::bad_section_table, file_name("octile-3"), "has no MANI section");
}

TEST(Versions, Policy) {
  std::string why;
  EXPECT_TRUE(version_readable({1, 0}, {1, 0}, {1, 0}, &why));
  EXPECT_TRUE(version_readable({1, 1}, {1, 0}, {1, 3}, &why)) << "a 1.3 reader reads a 1.1 file";
  EXPECT_TRUE(version_readable({1, 5}, {1, 2}, {1, 3}, &why)) << "a newer minor that allows 1.2 readers";
  EXPECT_TRUE(version_readable({1, 4}, {1, 4}, {1, 4}, &why));

  EXPECT_FALSE(version_readable({1, 4}, {1, 4}, {1, 3}, &why));
  EXPECT_TRUE(contains(why, "needs a reader of format 1.4 or newer; this reader is 1.3")) << why;
  EXPECT_FALSE(version_readable({2, 0}, {2, 0}, {1, 3}, &why));
  EXPECT_TRUE(contains(why, "written by format 2.0; this reader reads 1.x")) << why;
  EXPECT_FALSE(version_readable({0, 9}, {0, 1}, {1, 0}, &why));
  EXPECT_TRUE(contains(why, "0.9")) << why;
  EXPECT_FALSE(version_readable({1, 0}, {1, 0}, {2, 0}, &why)) << "a 2.x reader does not read 1.x";
  EXPECT_FALSE(version_readable({1, 1}, {1, 2}, {1, 5}, &why)) << "minimum reader above the file's own version";
  EXPECT_FALSE(version_readable({1, 1}, {0, 5}, {1, 5}, &why)) << "minimum reader of another major";
  EXPECT_TRUE(version_readable(kFormatVersion, kMinReaderVersion, kFormatVersion, nullptr));
}

// ----------------------------------------------------------------------------- header fields

TEST(Header, WrongByteOrder) {
  auto r = open_patched("octile-3", [](bytes& f) {
    put<std::uint32_t>(f, 16, 0x04030201);
    reseal_header(f);
  });
  expect_refused(r, status::wrong_byte_order, file_name("octile-3"), "big-endian");
  r = open_patched("octile-3", [](bytes& f) {
    f[21] = 8;  // 64-bit ids
    reseal_header(f);
  });
  expect_refused(r, status::wrong_byte_order, file_name("octile-3"), "widths");
  r = open_patched("octile-3", [](bytes& f) {
    f[21] = 3;
    reseal_header(f);
  });
  expect_refused(r, status::wrong_byte_order, file_name("octile-3"), "integer widths offset/id/cost 8/3/2");
}

// One width per file: 2 when both table counts are at most 65,536, else 4. A file that
// says 4 where its counts call for 2 is refused, though a reader could have read it.
TEST(Header, IdWidthMustBeTheOneTheCountsImply) {
  const auto r = open_patched("octile-3", [](bytes& f) {
    ASSERT_EQ(f[21], 2);
    f[21] = 4;
    reseal_header(f);
  });
  expect_refused(r, status::bad_header, file_name("octile-3"), "id width 4");
}

struct header_case {
  const char* what;
  std::size_t offset;
  std::uint8_t value;
  const char* keyword;
};

TEST(Header, FieldsOutOfRange) {
  const header_case cases[] = {
      {"reserved byte", 23, 1, "reserved"},
      {"block size 6", 24, 6, "block size 6"},
      {"block size 1", 24, 1, "block size 1"},
      {"vertices for octile", 25, 1, "point kind"},
      {"unknown rule", 26, 3, "rule kind"},
      {"unknown corner rule", 27, 3, "corner cutting"},
      {"squeezing on octile", 28, 1, "squeezing"},
      {"unknown encoding", 29, 2, "cost encoding"},
      {"scale on octile pairs", 30, 3, "scale"},
      {"no identity", 31, 0xFE, "symmetry mask"},
      {"not a group", 31, 0x03, "symmetry mask"},
  };
  for (const header_case& c : cases) {
    SCOPED_TRACE(c.what);
    const auto r = open_patched("octile-3", [&](bytes& f) {
      f[c.offset] = c.value;
      reseal_header(f);
    });
    expect_refused(r, status::bad_header, file_name("octile-3"), c.keyword);
  }
  // Fixed-point scales beyond 2^-32.
  const auto r = open_patched("any-angle-3", [](bytes& f) {
    f[30] = 33;
    reseal_header(f);
  });
  expect_refused(r, status::bad_header, file_name("any-angle-3"), "scale");
  // A diagonal cost outside [1, 2].
  const auto d = open_patched("octile-3", [](bytes& f) {
    put<std::uint64_t>(f, 32, 3 * kCostOne);
    reseal_header(f);
  });
  expect_refused(d, status::bad_header, file_name("octile-3"), "diagonal");
}

TEST(Header, HugeCountsAreRefused) {
  for (std::size_t field : {40u, 44u, 48u}) {
    SCOPED_TRACE("count at byte " + std::to_string(field));
    const auto r = open_patched("octile-3", [&](bytes& f) {
      put<std::uint32_t>(f, field, 0xFFFFFFFF);
      reseal_header(f);
    });
    expect_refused(r, status::bad_header, file_name("octile-3"), "count");
  }
  // The section count is checked before the checksum, which covers the table it sizes.
  const auto r = open_patched("octile-3", [](bytes& f) { put<std::uint32_t>(f, 52, 0xFFFFFFFF); });
  expect_refused(r, status::bad_section_table, file_name("octile-3"), "sections");
}

TEST(Header, CanonicalCountMustMatchTheMask) {
  // Without symmetry all 16 codes of b=2 are canonical. Claim a half-turn symmetry instead:
  // every size still matches, but the reader's own count of canonical codes does not.
  const auto r = open_patched("octile-2-nosym", [](bytes& f) {
    f[31] = 0x05;  // identity and the half turn
    reseal_header(f);
  });
  expect_refused(r, status::bad_header, file_name("octile-2-nosym"), "canonical patterns");
}

// ----------------------------------------------------------------------------- section table

TEST(SectionTable, OffsetOutsideTheFile) {
  const auto r = open_patched("octile-3", [](bytes& f) {
    put<std::uint64_t>(f, entry_at(f, kTagPaths) + 8, f.size() + 4096);
    reseal_header(f);
  });
  expect_refused(r, status::bad_section_table, file_name("octile-3"), "section PATH starts at offset");
}

TEST(SectionTable, OffsetPlusSizeWraps) {
  // An unknown section (no size rule of its own) whose size wraps past 2^64.
  const auto r = open_patched("octile-3", [](bytes& f) {
    const std::size_t e = entry_at(f, kTagManifest);
    put<std::uint32_t>(f, e, section_tag("XTRA"));
    const std::uint64_t huge = ~std::uint64_t{0} - 100;
    put<std::uint64_t>(f, e + 16, huge);
    put<std::uint64_t>(f, e + 24, huge);
    reseal_header(f);
  });
  expect_refused(r, status::bad_section_table, file_name("octile-3"), "overflows");
}

TEST(SectionTable, HugeDeclaredRawSizeIsRefusedBeforeAllocating) {
  // Were this allocated, the result would be an out-of-memory io_error, not this.
  for (std::uint64_t raw : {std::uint64_t{1} << 62, ~std::uint64_t{0}}) {
    const auto r = open_patched("any-angle-4", [&](bytes& f) {
      ASSERT_EQ(section_codec_of(f, kTagPaths), 1);
      put<std::uint64_t>(f, entry_at(f, kTagPaths) + 24, raw);
      reseal_header(f);
    });
    expect_refused(r, status::bad_section_table, file_name("any-angle-4"), "raw size");
  }
  // Fixed-size sections must have exactly their size.
  const auto r = open_patched("any-angle-4", [](bytes& f) {
    put<std::uint64_t>(f, entry_at(f, kTagCosts) + 24, get<std::uint64_t>(f, entry_at(f, kTagCosts) + 24) + 2);
    reseal_header(f);
  });
  expect_refused(r, status::bad_section_table, file_name("any-angle-4"), "section COST declares a raw size");
}

TEST(SectionTable, RawSizeDisagreeingWithTheFrame) {
  const auto r = open_patched("any-angle-4", [](bytes& f) {
    put<std::uint64_t>(f, entry_at(f, kTagPaths) + 24, get<std::uint64_t>(f, entry_at(f, kTagPaths) + 24) - 1);
    reseal_header(f);
  });
  expect_refused(r, status::decompress_failed, file_name("any-angle-4"), "PATH");
}

TEST(SectionTable, CorruptZstdFrame) {
  const auto r = open_patched("any-angle-4", [](bytes& f) {
    const std::uint64_t off = section_offset(f, kTagCosts), size = section_size(f, kTagCosts);
    for (std::uint64_t i = size / 3; i < size / 3 + 16; ++i) f[off + i] ^= 0x5A;
    reseal_section(f, kTagCosts);
  });
  expect_refused(r, status::decompress_failed, file_name("any-angle-4"), "COST");
}

TEST(SectionTable, MisplacedOrOverlappingSections) {
  for (std::int64_t shift : {-64, -1, 1, 64}) {
    SCOPED_TRACE("shift " + std::to_string(shift));
    const auto r = open_patched("octile-3", [&](bytes& f) {
      const std::size_t e = entry_at(f, kTagCosts);
      put<std::uint64_t>(f, e + 8, get<std::uint64_t>(f, e + 8) + static_cast<std::uint64_t>(shift));
      reseal_header(f);
    });
    expect_refused(r, status::bad_section_table, file_name("octile-3"), "section COST starts at offset");
  }
}

TEST(SectionTable, DuplicateAndUnknownCodec) {
  const std::string text = "a second manifest";
  const bytes twice = with_extra_section(file_bytes("octile-3"), kTagManifest, bytes(text.begin(), text.end()));
  auto r = database::open_bytes(twice, file_name("octile-3"));
  expect_refused(r, status::bad_section_table, file_name("octile-3"), "section MANI appears twice");
  r = open_patched("octile-3", [](bytes& f) {
    f[entry_at(f, kTagCosts) + 4] = 2;
    reseal_header(f);
  });
  expect_refused(r, status::bad_section_table, file_name("octile-3"), "codec");
  r = open_patched("octile-3", [](bytes& f) {
    f[entry_at(f, kTagCosts) + 6] = 1;
    reseal_header(f);
  });
  expect_refused(r, status::bad_section_table, file_name("octile-3"), "reserved");
}

TEST(SectionTable, PaddingAndTrailingBytes) {
  auto r = open_patched("octile-3", [](bytes& f) {
    f[section_offset(f, kTagCosts) - 1] = 1;  // the last padding byte before COST
  });
  expect_refused(r, status::bad_section_table, file_name("octile-3"), "padding");
  r = open_patched("octile-3", [](bytes& f) { f.push_back(0); });
  expect_refused(r, status::bad_section_table, file_name("octile-3"), "after the end of its last section");
}

// ----------------------------------------------------------------------------- memory budget

// A zstd frame (RFC 8878) of `size` zero bytes made of RLE blocks of 128 KiB, 4 bytes each:
// a few hundred kilobytes that really decompress to gigabytes, as a hostile file would hold.
bytes zero_frame(std::uint64_t size) {
  bytes f{0x28, 0xB5, 0x2F, 0xFD,  // magic
          0xC0,                    // descriptor: 8-byte content size, windowed, no checksum, no dictionary
          0x38};                   // window descriptor: 2^(10 + 7) = 128 KiB
  for (int i = 0; i < 8; ++i) f.push_back(static_cast<std::uint8_t>(size >> (8 * i)));
  constexpr std::uint64_t kBlock = 128 * 1024;
  std::uint64_t left = size;
  do {
    const std::uint64_t n = std::min(left, kBlock);
    left -= n;
    const std::uint64_t header = (left == 0 ? 1u : 0u) | (1u << 1) | (n << 3);  // last?, RLE, size
    for (int i = 0; i < 3; ++i) f.push_back(static_cast<std::uint8_t>(header >> (8 * i)));
    f.push_back(0);  // the byte repeated
  } while (left > 0);
  return f;
}

struct crafted_section {
  std::uint32_t tag;
  std::uint8_t codec;
  std::uint64_t raw_size;
  bytes payload;
};

// A file laid out and sealed exactly as docs/format.md says, from header fields and
// sections given here, with no help from the writer (which refuses to make such files).
bytes craft_file(const std::array<std::uint8_t, 8>& rule_bytes, std::uint64_t diagonal, std::uint32_t canonical,
                 std::uint32_t cost_tables, std::uint32_t path_tables, const std::vector<crafted_section>& sections) {
  bytes f(kHeader + kEntry * sections.size(), 0);
  const std::uint8_t magic[8] = {0x89, 'L', 'D', 'D', 'B', '\r', '\n', 0x1A};
  std::copy(std::begin(magic), std::end(magic), f.begin());
  put<std::uint16_t>(f, 8, 1);   // version 1.0
  put<std::uint16_t>(f, 12, 1);  // minimum reader 1.0
  put<std::uint32_t>(f, 16, 0x01020304);
  f[20] = 8;
  f[21] = cost_tables > 65536 || path_tables > 65536 ? 4 : 2;
  f[22] = 2;
  std::copy(rule_bytes.begin(), rule_bytes.end(), f.begin() + 24);  // block .. symmetry mask
  put<std::uint64_t>(f, 32, diagonal);
  put<std::uint32_t>(f, 40, canonical);
  put<std::uint32_t>(f, 44, cost_tables);
  put<std::uint32_t>(f, 48, path_tables);
  put<std::uint32_t>(f, 52, static_cast<std::uint32_t>(sections.size()));
  for (std::size_t i = 0; i < sections.size(); ++i) {
    const crafted_section& s = sections[i];
    f.resize((f.size() + 63) / 64 * 64, 0);
    const std::size_t e = kHeader + kEntry * i;
    put<std::uint32_t>(f, e, s.tag);
    f[e + 4] = s.codec;
    put<std::uint64_t>(f, e + 8, f.size());
    put<std::uint64_t>(f, e + 16, s.payload.size());
    put<std::uint64_t>(f, e + 24, s.raw_size);
    put<std::uint64_t>(f, e + 32, XXH3_64bits(s.payload.data(), s.payload.size()));
    f.insert(f.end(), s.payload.begin(), s.payload.end());
  }
  reseal_header(f);
  return f;
}

TEST(Budget, ZeroFramesAreRealZstd) {
  for (std::uint64_t size : {std::uint64_t{1}, std::uint64_t{131072}, std::uint64_t{300001}}) {
    const bytes frame = zero_frame(size);
    EXPECT_EQ(ZSTD_getFrameContentSize(frame.data(), frame.size()), size);
    EXPECT_EQ(ZSTD_findFrameCompressedSize(frame.data(), frame.size()), frame.size());
    bytes out(size + 1, 0xAA);
    EXPECT_EQ(ZSTD_decompress(out.data(), out.size(), frame.data(), frame.size()), size);
    EXPECT_TRUE(std::all_of(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(size), [](std::uint8_t v) { return v == 0; }));
  }
}

// Any-angle b = 5 without symmetry: 2^25 canonical patterns, so up to 2^25 cost and path
// tables are legal, and a 420 KB file of zstd frames may declare (and really decompress to)
// 13.8 GB: ids all 0, every cost 0, every path table an empty bitmap. Every field, size,
// placement and checksum is valid. Only the reader's memory budget stands in the way, and
// it must refuse before allocating anything large.
TEST(Budget, LegalButHugeFileIsRefusedBeforeAllocating) {
  constexpr std::uint32_t kCodes = 1u << 25;
  const block_shape shape(5, true);
  const std::uint64_t pairs = static_cast<std::uint64_t>(shape.pair_count());  // 190
  const std::uint64_t entries = 2 * 4 * std::uint64_t{kCodes};                 // u32 ids
  const std::uint64_t costs = 2 * pairs * kCodes;
  const std::uint64_t paths = (pairs + 7) / 8 * kCodes;  // one empty bitmap per table
  const std::string manifest = "crafted";
  const std::uint8_t scale = cost_format_for(rule::any_angle()).scale_log2;
  const bytes f = craft_file({5, 1, 2, 0, 0, 0, scale, 0x01}, kSqrt2Cost, kCodes, kCodes, kCodes,
                             {{kTagManifest, 0, manifest.size(), bytes(manifest.begin(), manifest.end())},
                              {kTagEntries, 1, entries, zero_frame(entries)},
                              {kTagCosts, 1, costs, zero_frame(costs)},
                              {kTagPaths, 1, paths, zero_frame(paths)}});
  ASSERT_LT(f.size(), 512u * 1024);
  ASSERT_GT(entries + costs + paths, kDefaultMaxDecodedBytes);
  database::open_result r;
  std::size_t largest = 0;
  {
    alloc_watch::scope watch;
    r = database::open_bytes(f, "huge.lddb");
    largest = watch.largest_request();
  }
  expect_refused(r, status::too_large, "huge.lddb",
                 "section COST decompresses to " + std::to_string(costs) + " bytes (" + std::to_string(entries + costs) +
                     " with the sections before it), more than the " + std::to_string(kDefaultMaxDecodedBytes) +
                     " bytes this reader may decompress");
  // The copy of the file itself is the largest thing open_bytes allocates.
  EXPECT_LE(largest, f.size()) << "open allocated " << largest << " bytes at once";

  // The same from disk (memory-mapped: not even the copy).
  temp_dir dir;
  const std::string path = dir.file("huge.lddb");
  write_file(path, f);
  {
    alloc_watch::scope watch;
    r = database::open(path);
    largest = watch.largest_request();
  }
  expect_refused(r, status::too_large, path, "section COST");
  EXPECT_LT(largest, std::size_t{64} * 1024) << "open allocated " << largest << " bytes at once";
}

// The canonical count is checked against the block size and symmetry mask before any
// section is read, so a header cannot inflate the counts that bound the sections.
TEST(Budget, CanonicalCountIsCheckedFromTheHeaderAlone) {
  constexpr std::uint32_t kCodes = 1u << 25;
  const std::uint64_t costs = 2 * 120 * std::uint64_t{kCodes};
  const bytes f = craft_file({5, 0, 0, 0, 0, 0, 0, 0xFF}, kSqrt2Cost, kCodes, kCodes, kCodes,
                             {{kTagManifest, 0, 1, bytes{'x'}},
                              {kTagEntries, 1, 8 * std::uint64_t{kCodes}, zero_frame(8 * std::uint64_t{kCodes})},
                              {kTagCosts, 1, costs, zero_frame(costs)},
                              {kTagPaths, 1, 15 * std::uint64_t{kCodes}, zero_frame(15 * std::uint64_t{kCodes})}});
  database::open_result r;
  std::size_t largest = 0;
  {
    alloc_watch::scope watch;
    r = database::open_bytes(f, "inflated.lddb", open_limits{~std::uint64_t{0}});  // no budget at all
    largest = watch.largest_request();
  }
  // 4,211,744 is the count the generator finds for b = 5 (docs/databases.md).
  expect_refused(r, status::bad_header, "inflated.lddb",
                 "declares 33554432 canonical patterns; b=5 with symmetry mask 255 has 4211744");
  EXPECT_LE(largest, f.size());
}

TEST(Budget, LimitCountsTheDecompressedSectionsOnly) {
  const bytes& f = file_bytes("any-angle-3");
  std::uint64_t decoded = 0;
  std::string last_zstd;
  for (std::uint32_t tag : {kTagManifest, kTagEntries, kTagCosts, kTagPaths})
    if (section_codec_of(f, tag) == 1) {
      decoded += get<std::uint64_t>(f, entry_at(f, tag) + 24);
      last_zstd = section_info{tag}.name();
    }
  ASSERT_GT(decoded, 0u);
  ASSERT_EQ(section_codec_of(f, kTagEntries), 1);  // so a zero budget fails at ENTR, the first it decodes
  const auto exact = database::open_bytes(f, "aa3.lddb", open_limits{decoded});
  ASSERT_TRUE(exact) << exact.message;
  expect_same_lookups(*exact.db, image("any-angle-3"), 1);
  expect_refused(database::open_bytes(f, "aa3.lddb", open_limits{decoded - 1}), status::too_large, "aa3.lddb",
                 "section " + last_zstd + " decompresses to");
  expect_refused(database::open_bytes(f, "aa3.lddb", open_limits{0}), status::too_large, "aa3.lddb",
                 "section ENTR decompresses to " + std::to_string(get<std::uint64_t>(f, entry_at(f, kTagEntries) + 24)) +
                     " bytes, more than the 0 bytes this reader may decompress (database::open_limits)");
  // Stored sections are read in place: no budget needed.
  const bytes& stored = file_bytes("octile-3-stored");
  for (std::size_t i = 0; i < section_count(stored); ++i) ASSERT_EQ(stored[kHeader + kEntry * i + 4], 0);
  const auto none = database::open_bytes(stored, "stored.lddb", open_limits{0});
  EXPECT_TRUE(none) << none.message;
  EXPECT_STREQ(status_name(status::too_large), "too_large");
}

// ----------------------------------------------------------------------------- section contents

TEST(Contents, EntryIdOutOfRange) {
  // The cost-id plane, then the path-id plane, u16 each.
  auto r = open_patched("octile-3-stored", [](bytes& f) {
    put<std::uint16_t>(f, section_offset(f, kTagEntries) + 2 * 3, get<std::uint16_t>(f, 44));  // = cost table count
    reseal_section(f, kTagEntries);
  });
  expect_refused(r, status::bad_section, file_name("octile-3-stored"), "section ENTR: canonical pattern 3 (code");
  EXPECT_TRUE(contains(r.message, "refers to cost table")) << r.message;
  r = open_patched("octile-3-stored", [](bytes& f) {
    const std::uint32_t canonical = get<std::uint32_t>(f, 40), last = canonical - 1;
    put<std::uint16_t>(f, section_offset(f, kTagEntries) + 2 * (canonical + last), get<std::uint16_t>(f, 48));
    reseal_section(f, kTagEntries);
  });
  expect_refused(r, status::bad_section, file_name("octile-3-stored"), "refers to path table");
  EXPECT_TRUE(contains(r.message, "canonical pattern " + std::to_string(get<std::uint32_t>(file_bytes("octile-3-stored"), 40) - 1)))
      << r.message;
}

// ----------------------------------------------------------------------------- PATH

// Replaces the bytes of PATH, the last section of a stored sample, and re-seals: what a
// buggy writer that still computes checksums would produce.
bytes with_paths(const std::string& name, const bytes& paths) {
  bytes f = file_bytes(name);
  const std::size_t e = entry_at(f, kTagPaths);
  const std::uint64_t off = get<std::uint64_t>(f, e + 8);
  if (f.at(e + 4) != 0 || off + get<std::uint64_t>(f, e + 16) != f.size())
    throw std::logic_error(name + ": PATH is not a stored last section");
  f.resize(off);
  f.insert(f.end(), paths.begin(), paths.end());
  put<std::uint64_t>(f, e + 16, paths.size());
  put<std::uint64_t>(f, e + 24, paths.size());
  reseal_section(f, kTagPaths);
  return f;
}

// Path table t of a sample, as the image holds it.
bytes table_of(const database_image& im, std::size_t t) {
  return bytes(im.paths.begin() + im.path_offset[t], im.paths.begin() + im.path_offset[t + 1]);
}

// The first table with a present pair, and the offset in PATH of that pair's count.
std::pair<std::size_t, std::size_t> first_present_pair(const database_image& im, std::size_t bitmap) {
  for (std::size_t t = 0; t + 1 < im.path_offset.size(); ++t)
    if (im.path_offset[t + 1] - im.path_offset[t] > bitmap) return {t, im.path_offset[t] + bitmap};
  throw std::logic_error("no path table with a present pair");
}

TEST(Contents, PathsRewrittenUnchangedStillOpen) {
  // The helper itself changes nothing but what each test asks for.
  const auto r = database::open_bytes(with_paths("any-angle-3-stored", image("any-angle-3-stored").paths), "x.lddb");
  ASSERT_TRUE(r) << r.message;
  EXPECT_EQ(database::open_bytes(with_paths("octile-3-stored", image("octile-3-stored").paths), "x.lddb").code, status::ok);
}

TEST(Contents, PathSectionWithATableTooFew) {
  const std::string name = "octile-3-stored";
  const database_image& im = image(name);
  const std::size_t tables = im.path_offset.size() - 1;
  // The last table is missing.
  bytes paths(im.paths.begin(), im.paths.begin() + im.path_offset[tables - 1]);
  expect_refused(database::open_bytes(with_paths(name, paths), file_name(name)), status::bad_section, file_name(name),
                 "section PATH holds " + std::to_string(tables - 1) + " path tables; the header declares " +
                     std::to_string(tables));
  // The header declares one table more than PATH holds.
  const auto r = open_patched(name, [&](bytes& f) {
    put<std::uint32_t>(f, 48, static_cast<std::uint32_t>(tables + 1));
    reseal_header(f);
  });
  expect_refused(r, status::bad_section, file_name(name),
                 "section PATH holds " + std::to_string(tables) + " path tables; the header declares " +
                     std::to_string(tables + 1));
}

TEST(Contents, PathSectionWithATableTooMany) {
  const std::string name = "any-angle-3-stored";
  const database_image& im = image(name);
  const std::size_t tables = im.path_offset.size() - 1;
  bytes paths = im.paths;
  const bytes extra = table_of(im, first_present_pair(im, 9).first);  // a well-formed table
  paths.insert(paths.end(), extra.begin(), extra.end());
  expect_refused(database::open_bytes(with_paths(name, paths), file_name(name)), status::bad_section, file_name(name),
                 "section PATH has " + std::to_string(extra.size()) + " bytes after path table " +
                     std::to_string(tables - 1) + ", the last of the " + std::to_string(tables));
}

TEST(Contents, PathSectionWithTrailingBytes) {
  const std::string name = "octile-3-stored";
  const database_image& im = image(name);
  for (const bytes& tail : {bytes{0}, bytes{0, 0, 0, 0, 0, 0, 0, 0, 0}, bytes{0xFF}}) {
    bytes paths = im.paths;
    paths.insert(paths.end(), tail.begin(), tail.end());
    expect_refused(database::open_bytes(with_paths(name, paths), file_name(name)), status::bad_section, file_name(name),
                   "section PATH has " + std::to_string(tail.size()) + (tail.size() == 1 ? " byte" : " bytes") +
                       " after path table " + std::to_string(im.path_offset.size() - 2) + ", the last");
  }
}

TEST(Contents, PathSectionWithATruncatedTable) {
  const std::string name = "any-angle-3-stored";  // b=3 vertices: 66 pairs, a 9-byte bitmap
  const database_image& im = image(name);
  const auto [t, count_at] = first_present_pair(im, 9);
  // Cut inside the first present pair's points, then right after the bitmap, then inside it.
  const std::pair<std::size_t, std::string> cuts[] = {
      {count_at + 1, "ends inside pair"},
      {count_at, "ends before pair"},
      {im.path_offset[t] + 4, "ends 4 bytes into its 9-byte bitmap"},
  };
  for (const auto& [cut, keyword] : cuts) {
    SCOPED_TRACE(keyword);
    const bytes paths(im.paths.begin(), im.paths.begin() + static_cast<std::ptrdiff_t>(cut));
    expect_refused(database::open_bytes(with_paths(name, paths), file_name(name)), status::bad_section, file_name(name),
                   "section PATH: path table " + std::to_string(t) + " " + keyword);
  }
}

TEST(Contents, PathPointOutsideTheBlock) {
  const std::string name = "any-angle-3-stored";
  const database_image& im = image(name);
  const auto [t, count_at] = first_present_pair(im, 9);
  bytes paths = im.paths;
  paths[count_at + 1] = 200;
  expect_refused(database::open_bytes(with_paths(name, paths), file_name(name)), status::bad_section, file_name(name),
                 "section PATH: path table " + std::to_string(t) + " gives pair");
  const auto r = database::open_bytes(with_paths(name, paths), file_name(name));
  EXPECT_TRUE(contains(r.message, "point index 200 (the block has 16 points)")) << r.message;
  // 16 is the first index outside a 4x4 grid of vertices.
  paths[count_at + 1] = 16;
  expect_refused(database::open_bytes(with_paths(name, paths), file_name(name)), status::bad_section, file_name(name),
                 "point index 16");
}

TEST(Contents, PathCountOutOfRange) {
  const std::string name = "any-angle-3-stored";
  const database_image& im = image(name);
  const auto [t, count_at] = first_present_pair(im, 9);
  for (const std::uint8_t n : {0, 37, 255}) {
    bytes paths = im.paths;
    paths[count_at] = n;
    expect_refused(database::open_bytes(with_paths(name, paths), file_name(name)), status::bad_section, file_name(name),
                   "section PATH: path table " + std::to_string(t) + " gives pair");
    const auto r = database::open_bytes(with_paths(name, paths), file_name(name));
    EXPECT_TRUE(contains(r.message, " " + std::to_string(n) + " points")) << r.message;
  }
}

TEST(Contents, PathBitmapBitsBeyondTheLastPair) {
  const std::string name = "any-angle-3-stored";  // 66 pairs: bits 2..7 of byte 8 are unused
  const database_image& im = image(name);
  bytes paths = im.paths;
  const std::size_t last = im.path_offset.size() - 2;
  paths[im.path_offset[last] + 8] |= 0x80;
  expect_refused(database::open_bytes(with_paths(name, paths), file_name(name)), status::bad_section, file_name(name),
                 "section PATH: path table " + std::to_string(last) + " sets bitmap bits beyond the last pair");
}

TEST(Contents, RuleMismatch) {
  const auto r = open_sample("octile-4");
  ASSERT_TRUE(r) << r.message;
  std::string message;
  EXPECT_EQ(r.db->check_rule(rule::octile(), &message), status::ok);
  EXPECT_EQ(r.db->check_rule(rule::any_angle(), &message), status::rule_mismatch);
  EXPECT_EQ(message, "lddb/octile-4.lddb holds rule 'octile' but the query asks for 'any-angle'");
  EXPECT_EQ(r.db->check_rule(rule::octile(corner_cutting::one_side_free), &message), status::rule_mismatch);
  EXPECT_TRUE(contains(message, "corners=one-side-free")) << message;
}

// ----------------------------------------------------------------------------- id width

// Ids are u32 only when a table count passes 65,536, which takes b = 5: b <= 4 has at most
// 2^16 canonical patterns. A synthetic tile database: 120 cost tables and `path_tables`
// path tables, path table t with a single present pair (t mod 120) turning at one cell;
// canonical pattern i uses path table i mod path_tables and the cost table of its pair.
constexpr std::uint32_t kCanonical5 = 4211744;  // 5x5 patterns up to the 8 symmetries

// The one inflection point stored for pair k: the corner (a.x, b.y) of its boundary points
// a < b, so that the path runs straight from a to it and from it to b, as a cell path must.
point wide_turn(const block_shape& s, int k) {
  for (int a = 0; a < s.boundary_count(); ++a)
    for (int b = a + 1; b < s.boundary_count(); ++b)
      if (s.pair_index(a, b) == k) return {s.boundary_point(a).x, s.boundary_point(b).y};
  return {};
}

// Whether pair k's boundary points are in one straight or 45-degree line.
bool wide_in_line(const block_shape& s, int k) {
  for (int a = 0; a < s.boundary_count(); ++a)
    for (int b = a + 1; b < s.boundary_count(); ++b)
      if (s.pair_index(a, b) == k) {
        const int dx = s.boundary_point(b).x - s.boundary_point(a).x, dy = s.boundary_point(b).y - s.boundary_point(a).y;
        return dx == 0 || dy == 0 || dx == dy || dx == -dy;
      }
  return false;
}

database_image wide_image(std::uint32_t path_tables) {
  database_image im;
  im.movement = rule::tile();
  im.block = 5;
  const block_shape s(5, false);
  const auto pairs = static_cast<std::size_t>(s.pair_count());  // 120
  // Cost table j reaches pair j and every pair whose boundary points are in line: a
  // reachable pair out of line needs its inflection points stored (docs/format.md, §4).
  for (std::size_t j = 0; j < pairs; ++j)
    for (std::size_t k = 0; k < pairs; ++k)
      im.costs.push_back(j == k || wide_in_line(s, static_cast<int>(k)) ? static_cast<std::uint16_t>(k + 1)
                                                                       : kStoredUnreachable);
  im.cost_id.resize(kCanonical5);
  im.path_id.resize(kCanonical5);
  for (std::uint32_t i = 0; i < kCanonical5; ++i) {
    im.path_id[i] = i % path_tables;
    im.cost_id[i] = im.path_id[i] % static_cast<std::uint32_t>(pairs);
  }
  const std::size_t bitmap = (pairs + 7) / 8;
  im.path_offset.assign(1, 0);
  for (std::uint32_t t = 0; t < path_tables; ++t) {
    const std::size_t at = im.paths.size(), k = t % pairs;
    im.paths.resize(at + bitmap + 2, 0);
    im.paths[at + k / 8] = static_cast<std::uint8_t>(1u << (k % 8));
    im.paths[at + bitmap] = 1;
    im.paths[at + bitmap + 1] = static_cast<std::uint8_t>(s.point_index(wide_turn(s, static_cast<int>(k))));
    im.path_offset.push_back(static_cast<std::uint32_t>(im.paths.size()));
  }
  im.manifest = "synthetic b=5 database with " + std::to_string(path_tables) + " path tables";
  im.zstd_level = 1;
  return im;
}

// Slow (seconds): each encode and open indexes all 2^25 patterns of b = 5.
TEST(IdWidth, FourBytesOnlyAboveSixtyFiveThousandFiveHundredThirtySixTables) {
  for (const std::uint32_t tables : {65536u, 65537u}) {
    SCOPED_TRACE(std::to_string(tables) + " path tables");
    const std::uint8_t width = tables > 65536 ? 4 : 2;
    bytes f;
    {
      const database_image im = wide_image(tables);
      f = encode_database(im);
    }
    EXPECT_EQ(f[21], width);
    EXPECT_EQ(get<std::uint64_t>(f, entry_at(f, kTagEntries) + 24), 2 * std::uint64_t{width} * kCanonical5);
    {
      const auto r = database::open_bytes(f, "wide.lddb");
      ASSERT_TRUE(r) << r.message;
      const database& db = *r.db;
      EXPECT_EQ(db.info().path_tables, tables);
      const block_shape& s = db.shape();
      // Probes: every 997th code, and the first code of the ordinal that uses the highest
      // path id (tables - 1, the id that needs every bit of its width).
      std::vector<std::uint32_t> probes;
      for (std::uint32_t code = 0; code < (1u << 25); code += 997) probes.push_back(code);
      std::uint32_t top = 0;
      while (db.entry(top).canonical_index != tables - 1) ++top;
      probes.push_back(top);
      for (std::size_t i = 0; i < probes.size(); ++i) {
        const database::entry_ref e = db.entry(probes[i]);
        ASSERT_EQ(e.cost_id, e.path_id % 120) << probes[i];
        ASSERT_EQ(e.path_id, e.canonical_index % tables) << probes[i];
        if (i % 64 != 0 && i + 1 != probes.size()) continue;
        // The one stored path of the canonical pattern (transform 0: coordinates as stored).
        const int k = static_cast<int>(e.path_id % 120);
        for (int a = 0; a < s.boundary_count(); ++a)
          for (int b = a + 1; b < s.boundary_count(); ++b) {
            if (s.pair_index(a, b) != k) continue;
            inflections out;
            ASSERT_TRUE(db.path(e.canonical_code, a, b, &out));
            ASSERT_EQ(out.count, 1);
            EXPECT_EQ(out.points[0], wide_turn(s, k));
            EXPECT_EQ(db.cost(e.canonical_code, a, b), cost_t{static_cast<std::uint64_t>(k + 1)} << 32);
          }
      }
      EXPECT_EQ(db.entry(top).path_id, tables - 1);
    }
    // The other width is refused, before any section is read.
    put<std::uint8_t>(f, 21, static_cast<std::uint8_t>(6 - width));
    reseal_header(f);
    expect_refused(database::open_bytes(f, "wide.lddb"), status::bad_header, "wide.lddb",
                   "id width " + std::to_string(6 - width) + " with 120 cost tables and " + std::to_string(tables) +
                       " path tables; the counts call for " + std::to_string(width));
  }
}

// ============================================================================= lookups

TEST(Lookups, InvalidQueriesAreUnreachable) {
  const auto r = open_sample("octile-3");
  ASSERT_TRUE(r) << r.message;
  const database& db = *r.db;
  inflections out;
  EXPECT_EQ(db.cost(1u << 9, 0, 1), kUnreachable);
  EXPECT_EQ(db.cost(0, -1, 1), kUnreachable);
  EXPECT_EQ(db.cost(0, 0, 8), kUnreachable);
  EXPECT_FALSE(db.path(0, 0, 8, &out));
  EXPECT_EQ(out.count, 0);
  EXPECT_EQ(db.cost(0, 3, 3), 0u);
  EXPECT_EQ(db.cost(0x1FF, 3, 3), kUnreachable);  // all blocked
  EXPECT_EQ(db.cost(0, 0, 2), 2 * kCostOne);      // across the empty top row
}

TEST(Lookups, ManyThreadsAgreeWithOne) {
  const auto r = open_sample("any-angle-4");
  ASSERT_TRUE(r) << r.message;
  const database& db = *r.db;
  const int n = db.shape().boundary_count();
  // A digest of every cost and path, so threads can be compared cheaply.
  auto digest = [&](std::uint32_t first, std::uint32_t step) {
    std::vector<std::uint64_t> out;
    for (std::uint32_t code = first; code < (1u << 16); code += step) {
      std::uint64_t h = code;
      inflections f;
      for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b) {
          h = h * 1000003 ^ db.cost(code, a, b);
          if (db.path(code, a, b, &f))
            for (int i = 0; i < f.count; ++i) h = h * 31 + static_cast<std::uint64_t>(f.points[i].x * 7 + f.points[i].y);
        }
      out.push_back(h);
    }
    return out;
  };
  constexpr std::uint32_t kStep = 5;
  const std::vector<std::uint64_t> single = digest(0, kStep);
  std::vector<std::vector<std::uint64_t>> results(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) threads.emplace_back([&, t] { results[t] = digest(0, kStep); });
  for (auto& t : threads) t.join();
  for (const auto& res : results) EXPECT_EQ(res, single);
}

// Found by fuzz_db (docs/reliability.md, F2): a file with valid checksums whose stored
// cell paths jump a knight's move between inflection points. Block A* fills the cells
// between waypoints along straight or 45-degree runs and never reached the next one; the
// reader now refuses such a table.
TEST(Corruption, CellPathsThatAreNotStraightRunsAreRefused) {
  for (const char* name : {"tile-3-path-knight-move.lddb"}) {
    const std::string path = std::string(LDDB_SOURCE_DIR) + "/tests/fuzz/corpus/fuzz_db/" + name;
    const auto opened = database::open(path);
    ASSERT_FALSE(opened) << name;
    EXPECT_EQ(opened.code, status::bad_section) << name << ": " << opened.message;
    EXPECT_NE(opened.message.find("neither straight nor diagonal"), std::string::npos) << opened.message;
    EXPECT_EQ(opened.message.rfind(path, 0), 0u) << opened.message;
  }
}

// A pair stored without inflection points runs straight from one boundary point to the
// other; when the two are out of line (a knight's move apart, say) and the cost table
// still reaches the pair, the file is refused: Block A* could not fill that path in.
TEST(Corruption, ReachablePairsOutOfLineNeedInflectionPoints) {
  // Made here: in every cost table of tile-3 and octile-3, the first unreachable pair
  // whose boundary points are out of line is given a cost.
  for (const char* name : {"tile-3", "octile-3"}) {
    database_image im = image(name);
    const block_shape shape(im.block, false);
    const int n = shape.boundary_count(), pairs = shape.pair_count();
    int patched = 0;
    for (std::size_t t = 0; t * static_cast<std::size_t>(pairs) < im.costs.size(); ++t)
      for (int a = 0; a < n; ++a)
        for (int b = a + 1; b < n; ++b) {
          const point p = shape.boundary_point(a), q = shape.boundary_point(b);
          const int dx = q.x - p.x, dy = q.y - p.y;
          std::uint16_t& c = im.costs[t * static_cast<std::size_t>(pairs) + static_cast<std::size_t>(shape.pair_index(a, b))];
          if (dx == 0 || dy == 0 || dx == dy || dx == -dy || c != kStoredUnreachable) continue;
          c = 3;
          ++patched;
          a = b = n;  // one pair per table
        }
    ASSERT_GT(patched, 0) << name;
    const auto opened = database::open_bytes(encode_database(im), file_name(name));
    expect_refused(opened, status::bad_section, file_name(name), "neither straight nor diagonal, but path table");
  }
  // Found by fuzz_db (docs/reliability.md, F2); both passed the reader before this check.
  for (const char* name : {"octile-3-found-by-fuzzer.lddb", "tile-3-crooked-direct-pair-bad-checksums.lddb"}) {
    const std::string path = std::string(LDDB_SOURCE_DIR) + "/tests/fuzz/corpus/fuzz_db/" + name;
    std::ifstream in(path, std::ios::binary);
    bytes f((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_FALSE(f.empty()) << path;
    for (std::size_t i = 0; i < section_count(f); ++i)  // the second file kept the fuzzer's stale checksums
      reseal_section(f, get<std::uint32_t>(f, kHeader + kEntry * i));
    expect_refused(database::open_bytes(f, path), status::bad_section, path, "stores no inflection points");
  }
}

TEST(Lookups, OpenAndVerifyTime) {
  // Informational: the target for b=4 is 5 ms in an optimised build (mmap, verify, index).
  temp_dir dir;
  for (const char* name : {"octile-4", "any-angle-4"}) {
    const std::string path = dir.file(std::string(name) + ".lddb");
    write_file(path, file_bytes(name));
    constexpr int kRuns = 20;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < kRuns; ++i) ASSERT_TRUE(database::open(path));
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() / kRuns;
    std::printf("[ timing   ] open + verify %s (%zu bytes): %.2f ms\n", name, file_bytes(name).size(), ms);
  }
}

}  // namespace
