// fuzz_db: the .lddb reader and verifier (lddb::database::open_bytes and open), then every
// lookup of an opened database, then Block A* on a small map with it.
//
// The input is the bytes of a .lddb file. It is opened twice when needed: as it is (which
// exercises the checks up to and including the checksums) and, when that fails on a
// checksum, once more with every checksum recomputed here from docs/format.md, so that
// mutations reach the checks behind the checksums (sizes, zstd frames, ENTR ids, PATH
// tables) instead of all stopping at the first hash.
//
// Properties (any break traps):
//  * open() on the same bytes through a file (memfd path, mmap) gives the same status and
//    message as open_bytes() (checked for one input in four);
//  * a refused file has a status other than ok and a message that names it;
//  * an opened database answers every lookup inside its ranges consistently: stored_cost
//    and view agree, costs are symmetric, a == b gives 0 exactly when the point is usable,
//    path() succeeds exactly when the pair is reachable, its inflection points lie in the
//    block, and the path from b to a is the path from a to b reversed; out-of-range
//    lookups answer "unreachable"; entry(code) names the canonical code that
//    block_shape::canonical computes by itself;
//  * Block A* with the database on a small random map finishes, and a path it returns
//    starts at the start and ends at the goal. (The database may be hostile, so the path
//    need not be legal; it must not crash, hang or read out of bounds.)
//    Set LDDB_FUZZ_DB_NO_SEARCH=1 to leave the search out (to fuzz the reader alone).
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "fuzz_common.hpp"
#include "lddb/format.hpp"
#include "lddb/grid.hpp"
#include "lddb/mapgen.hpp"
#include "lddb/search.hpp"
#include "lddb/find_path.hpp"
#include "lddb/segments.hpp"
#include "lddb/block_shape.hpp"

namespace {

using fuzz::require;

std::uint64_t le(const std::uint8_t* p, int n) {
  std::uint64_t v = 0;
  for (int i = 0; i < n; ++i) v |= std::uint64_t{p[i]} << (8 * i);
  return v;
}
void put_le64(std::uint8_t* p, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}

// Recomputes every checksum the file format has (docs/format.md sections 2 and 3): each
// section's XXH3-64 over its stored bytes, then the header's over bytes [0, 56) followed
// by the section table. Entries that point outside the file are left alone.
std::vector<std::uint8_t> with_checksums_fixed(std::span<const std::uint8_t> in) {
  std::vector<std::uint8_t> f(in.begin(), in.end());
  if (f.size() < 64) return f;
  const std::uint64_t count = std::min<std::uint64_t>(le(&f[52], 4), 16);
  const std::size_t table_end = 64 + 48 * static_cast<std::size_t>(count);
  if (f.size() < table_end) return f;
  for (std::size_t i = 0; i < count; ++i) {
    std::uint8_t* e = &f[64 + 48 * i];
    const std::uint64_t off = le(e + 8, 8), size = le(e + 16, 8);
    if (off <= f.size() && size <= f.size() - off) put_le64(e + 32, XXH3_64bits(f.data() + off, size));
  }
  std::vector<std::uint8_t> sealed(f.begin(), f.begin() + 56);
  sealed.insert(sealed.end(), f.begin() + 64, f.begin() + static_cast<std::ptrdiff_t>(table_end));
  put_le64(&f[56], XXH3_64bits(sealed.data(), sealed.size()));
  return f;
}

std::string suffix_after(const std::string& message, const std::string& name) {
  return message.compare(0, name.size(), name) == 0 ? message.substr(name.size()) : "<" + message + ">";
}

// Opens the bytes in memory and, for one input in four (chosen by the bytes' hash, so a
// rerun does the same), through a file too, and checks that both ways agree. Verifying a
// b = 4 database costs milliseconds under the sanitizers; doing it twice for every input
// would halve the executions for little.
lddb::database::open_result open_both(std::span<const std::uint8_t> bytes) {
  const std::string name = "fuzz-input.lddb";
  // A budget well under libFuzzer's memory limit (2 GiB by default): the default budget
  // (2 GiB) would let a small, honest-looking file that decodes big end the run as an
  // out-of-memory "crash" although the reader behaves as designed.
  lddb::open_limits limits;
  limits.max_decoded_bytes = std::uint64_t{256} << 20;
  lddb::database::open_result mem = lddb::database::open_bytes(bytes, name, limits);
  require(static_cast<bool>(mem) == (mem.code == lddb::status::ok), "open_bytes: db set iff status ok");
  if (!mem) require(mem.message.rfind(name + ": ", 0) == 0, "message does not name the input: " + mem.message);
  if (XXH3_64bits(bytes.data(), bytes.size()) % 4 != 0) return mem;
  const fuzz::memory_file file(bytes);
  const lddb::database::open_result mapped = lddb::database::open(file.path(), limits);
  require(mem.code == mapped.code, std::string("open_bytes says ") + lddb::status_name(mem.code) + ", open says " +
                                       lddb::status_name(mapped.code) + " (" + mapped.message + ")");
  require(static_cast<bool>(mapped) == (mapped.code == lddb::status::ok), "open: db set iff status ok");
  if (!mem) {
    require(suffix_after(mem.message, name) == suffix_after(mapped.message, file.path()),
            "open and open_bytes give different messages: '" + mem.message + "' vs '" + mapped.message + "'");
  } else {
    const lddb::header_info &a = mem.db->info(), &b = mapped.db->info();
    require(a.block == b.block && a.movement == b.movement && a.canonical_patterns == b.canonical_patterns &&
                a.cost_tables == b.cost_tables && a.path_tables == b.path_tables && a.file_size == b.file_size &&
                a.sections.size() == b.sections.size(),
            "open and open_bytes read different headers");
    require(mem.db->manifest() == mapped.db->manifest(), "open and open_bytes read different manifests");
  }
  return mem;
}

void check_lookups(const lddb::database& db, std::uint64_t seed) {
  const lddb::block_shape& shape = db.shape();
  const lddb::header_info& info = db.info();
  require(info.block == shape.block() && info.block >= 2 && info.block <= 5, "block size out of range");
  require(shape.vertices() == db.movement().on_vertices() && info.vertices == shape.vertices(), "point kind");
  require(db.check_rule(db.movement(), nullptr) == lddb::status::ok, "check_rule refuses the database's own rule");
  const int n = shape.boundary_count(), side = shape.side();
  const std::uint64_t patterns = shape.pattern_count();

  // Every code for b <= 3; 48 spread codes (plus both extremes) above.
  std::vector<std::uint32_t> codes;
  if (patterns <= 512) {
    for (std::uint64_t c = 0; c < patterns; ++c) codes.push_back(static_cast<std::uint32_t>(c));
  } else {
    codes = {0, static_cast<std::uint32_t>(patterns - 1)};
    std::uint64_t s = seed;
    for (int i = 0; i < 48; ++i) {
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      codes.push_back(static_cast<std::uint32_t>((s >> 20) % patterns));
    }
  }
  for (const std::uint32_t code : codes) {
    const lddb::database::entry_ref e = db.entry(code);
    const auto canon = shape.canonical(code, info.symmetry_mask);
    require(e.canonical_code == canon.code, "entry(" + std::to_string(code) + ") names canonical code " +
                                                std::to_string(e.canonical_code) + ", block_shape says " +
                                                std::to_string(canon.code));
    require(e.cost_id < info.cost_tables && e.path_id < info.path_tables && e.canonical_index < info.canonical_patterns,
            "entry ids out of range");
    const lddb::database::cost_view view = db.view(code);
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b) {
        const std::uint16_t s = db.stored_cost(code, a, b);
        if (a == b) {
          const bool usable = shape.point_usable(code, shape.boundary_point(a));
          require(s == (usable ? 0 : lddb::kStoredUnreachable), "stored_cost(a, a) is not 0 / unreachable by usability");
        } else {
          require(s == view.stored(a, b), "stored_cost and view disagree");
          require(db.cost(code, a, b) == view.cost(a, b), "cost and view.cost disagree");
          require(s == db.stored_cost(code, b, a), "stored costs are not symmetric");
        }
        lddb::inflections fwd, back;
        const bool ok = db.path(code, a, b, &fwd);
        require(ok == (s != lddb::kStoredUnreachable), "path() succeeds exactly when the pair is reachable");
        require(fwd.count >= 0 && fwd.count <= lddb::inflections::kCapacity, "inflection count out of range");
        if (!ok || a == b) {
          require(fwd.count == 0, "no inflections expected");
          continue;
        }
        for (int k = 0; k < fwd.count; ++k) {
          const lddb::point p = fwd.points[static_cast<std::size_t>(k)];
          require(p.x >= 0 && p.y >= 0 && p.x < side && p.y < side, "inflection point outside the block");
        }
        require(db.path(code, b, a, &back) && back.count == fwd.count, "reverse path differs in length");
        for (int k = 0; k < fwd.count; ++k)
          require(back.points[static_cast<std::size_t>(k)] == fwd.points[static_cast<std::size_t>(fwd.count - 1 - k)],
                  "reverse path is not the forward path reversed");
      }
    // Out-of-range boundary indices answer "unreachable".
    lddb::inflections none;
    require(db.stored_cost(code, -1, 0) == lddb::kStoredUnreachable && db.stored_cost(code, 0, n) == lddb::kStoredUnreachable,
            "out-of-range boundary index answered");
    require(!db.path(code, n, 0, &none) && none.count == 0, "out-of-range path answered");
  }
  require(db.stored_cost(static_cast<std::uint32_t>(patterns), 0, 1) == lddb::kStoredUnreachable,
          "out-of-range pattern code answered");
}

void run_search(const lddb::database& db, std::uint64_t seed) {
  const int b = db.info().block;
  const int w = 3 * b + static_cast<int>(seed % 5), h = 2 * b + static_cast<int>((seed >> 3) % 7);
  const lddb::grid_map map = lddb::make_random_map(w, h, static_cast<int>((seed >> 6) % 30), seed, b);
  const bool vertices = db.movement().on_vertices();
  lddb::search_context ctx;
  std::uint64_t s = seed;
  // A usable endpoint near a random spot (the first one in row-major order from it).
  auto endpoint = [&](std::uint64_t r) {
    const int ex = vertices ? 1 : 0;
    const int n = (w + ex) * (h + ex);
    for (int k = 0; k < n; ++k) {
      const int i = static_cast<int>((r + static_cast<std::uint64_t>(k)) % static_cast<std::uint64_t>(n));
      const lddb::point p{i % (w + ex), i / (w + ex)};
      if (vertices ? lddb::vertex_usable(map, p.x, p.y) : !map.blocked(p.x, p.y)) return p;
    }
    return lddb::point{0, 0};
  };
  for (int q = 0; q < 8; ++q) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    const lddb::point start = endpoint(s >> 20), goal = endpoint(s >> 40);
    const lddb::search_result r =
        lddb::find_path(db, map, start, goal, lddb::search_options(lddb::default_heuristic(db.movement())), ctx);
    if (r.found()) {
      require(!r.path.empty() && r.path.front() == start && r.path.back() == goal,
              "Block A* with a verified database returned a path that does not join start and goal");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> bytes(data, size);
  lddb::database::open_result opened = open_both(bytes);
  if (!opened && opened.code == lddb::status::checksum_mismatch) {
    const std::vector<std::uint8_t> fixed = with_checksums_fixed(bytes);
    opened = open_both(fixed);
  }
  if (!opened) return 0;
  const std::uint64_t seed = XXH3_64bits(data, size);
  check_lookups(*opened.db, seed);
  static const bool no_search = [] {
    const char* v = std::getenv("LDDB_FUZZ_DB_NO_SEARCH");
    return v && *v && std::strcmp(v, "0") != 0;
  }();
  if (!no_search) run_search(*opened.db, seed);
  return 0;
}
