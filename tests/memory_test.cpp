// What a large map's search state holds in memory (lddb/search.hpp, reserve_options): on a
// 2048 x 2048 map prepared for jump point search, with the landmarks set aside as on a map
// that changes, the map, its labels and one reserved context stay within 64 MiB (16 bytes
// a cell), a further context within 16 MiB, however many queries they answer; and every
// answer is the one a context that was not reserved gives. A static map with its default
// preparation (landmarks in 16 bits) stays within 64 MiB as well. Resident memory is read from
// /proc/self/statm (Linux; skipped elsewhere), and the test is skipped where memory is not
// the product's own: under a sanitizer (its shadow of every allocation) or valgrind (whose
// calloc writes every page).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "lddb/format.hpp"
#include "lddb/grid.hpp"
#include "lddb/mapgen.hpp"
#include "lddb/prepare.hpp"
#include "lddb/search.hpp"
#include "lddb/find_path.hpp"
#include "lddb/splitmix.hpp"

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#endif

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define LDDB_MEMORY_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define LDDB_MEMORY_TEST_SANITIZED 1
#endif
#endif
#ifndef LDDB_MEMORY_TEST_SANITIZED
#define LDDB_MEMORY_TEST_SANITIZED 0
#endif

namespace {

using lddb::grid_map;
using lddb::point;

constexpr long long kMiB = 1 << 20;

// The process's resident set in bytes, or -1 where /proc/self/statm is not there.
long long resident() {
  std::ifstream in("/proc/self/statm");
  long long pages = 0, res = 0;
  if (!(in >> pages >> res)) return -1;
  return res * 4096;
}

// The process's peak resident set since the last reset_peak (VmHWM), or -1.
long long peak_resident() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stoll(line.substr(6)) * 1024;
  return -1;
}
// Starts the peak again from the resident set now (Linux 4.0 on); false where it cannot.
bool reset_peak() {
  std::ofstream out("/proc/self/clear_refs");
  out << "5";
  out.flush();
  return static_cast<bool>(out) && peak_resident() >= 0;
}

// Why resident memory says nothing of the product's own here, or nullptr.
const char* not_measurable() {
  if (resident() < 0) return "no /proc/self/statm";
  if (LDDB_MEMORY_TEST_SANITIZED || RUNNING_ON_VALGRIND) return "memory measured under a sanitizer or valgrind";
  return nullptr;
}

std::vector<std::pair<point, point>> spread_queries(const grid_map& map, int n, std::uint64_t seed) {
  std::vector<point> free;
  for (int y = 1; y < map.height(); y += 7)
    for (int x = 1; x < map.width(); x += 7)
      if (!map.blocked(x, y)) free.push_back({x, y});
  std::vector<std::pair<point, point>> qs;
  for (int i = 0; i < n; ++i) {
    const point a = free[lddb::splitmix64(seed) % free.size()];
    qs.push_back({a, free[lddb::splitmix64(seed) % free.size()]});
  }
  return qs;
}

TEST(memory, ALargeMapWithAReservedContextStaysWithin16BytesACell) {
  if (const char* why = not_measurable()) GTEST_SKIP() << why;
  const auto opened = lddb::database::open(std::string(LDDB_SOURCE_DIR) + "/lddb/octile-4.lddb");
  ASSERT_TRUE(opened) << opened.message;
  const lddb::database& db = *opened.db;

  const long long base = resident();
  grid_map map = lddb::make_rooms_map(2048, 2048, 64, 11);
  lddb::prepare_options po;
  po.landmarks = 0;  // as on a map that changes: the preparation sets its landmarks aside
  lddb::prepare(db, map, po);
  ASSERT_TRUE(lddb::find_path_search(db, map, lddb::search_options{}) == lddb::search_kind::jump_point_search);

  lddb::search_context ctx;
  ctx.reserve(db, map);
  const auto qs = spread_queries(map, 400, 5);
  const lddb::search_options options(lddb::default_heuristic(db.movement()));
  lddb::search_result out, want;
  lddb::search_context plain;
  int found = 0;
  for (const auto& [s, g] : qs) {
    lddb::find_path(db, map, s, g, options, ctx, out);
    lddb::find_path(db, map, s, g, options, plain, want);
    ASSERT_EQ(out.status, want.status);
    ASSERT_EQ(out.cost, want.cost);
    ASSERT_EQ(out.path, want.path);
    found += out.found();
  }
  EXPECT_GT(found, 300);
  plain = lddb::search_context();  // its records go: what is left is the map and ctx
  const long long one = resident() - base;
  std::printf("map, labels and one reserved context after %zu queries: %.1f MiB\n", qs.size(),
              static_cast<double>(one) / kMiB);
  EXPECT_LE(one, 64 * kMiB);

  const long long before = resident();
  lddb::search_context further;
  further.reserve(db, map);
  for (const auto& [s, g] : qs) lddb::find_path(db, map, s, g, options, further, out);
  const long long more = resident() - before;
  std::printf("a further reserved context after %zu queries: %.1f MiB\n", qs.size(), static_cast<double>(more) / kMiB);
  EXPECT_LE(more, 16 * kMiB);
}

// A map that holds still keeps its landmarks: with the default preparation (16-bit tables,
// as many as fit kLandmarkBytes) the map, its labels, the landmarks and one reserved
// context stay within 64 MiB too, and so does the peak while the landmarks are built.
TEST(memory, AStaticMapWithItsDefaultPreparationStaysWithin16BytesACell) {
  if (const char* why = not_measurable()) GTEST_SKIP() << why;
  const auto opened = lddb::database::open(std::string(LDDB_SOURCE_DIR) + "/lddb/octile-4.lddb");
  ASSERT_TRUE(opened) << opened.message;
  const lddb::database& db = *opened.db;

  const long long base = resident();
  // Where the peak cannot be reset it counts from the process's start: ctest runs each test
  // in a process of its own, and the other test here peaks lower.
  if (!reset_peak()) std::printf("the peak counts from the process's start (no /proc/self/clear_refs)\n");
  grid_map map = lddb::make_maze_map(2048, 2048, 16, 11);  // a map where landmarks pay
  lddb::prepare_options po;
  po.mode = lddb::prepare_mode::complete;
  const lddb::preparation_report report = lddb::prepare(db, map, po);
  ASSERT_GT(report.landmarks_built, 0) << report.plan.why;

  lddb::search_context ctx;
  ctx.reserve(db, map);
  const lddb::search_options options(lddb::default_heuristic(db.movement()));
  lddb::search_result out;
  int found = 0;
  for (const auto& [s, g] : spread_queries(map, 200, 9)) {
    lddb::find_path(db, map, s, g, options, ctx, out);
    found += out.found();
  }
  EXPECT_GT(found, 150);
  const long long all = resident() - base;
  const long long peak = peak_resident() - base;  // the builder's work arrays at their most
  std::printf("map, labels, %d landmarks (%.1f MiB) and one reserved context: %.1f MiB (%.1f MiB at the peak)\n",
              report.landmarks_built, static_cast<double>(report.bytes) / kMiB, static_cast<double>(all) / kMiB,
              static_cast<double>(peak) / kMiB);
  EXPECT_LE(all, 64 * kMiB);
  EXPECT_LE(peak, 64 * kMiB);
}

}  // namespace
