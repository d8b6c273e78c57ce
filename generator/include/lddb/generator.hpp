// lddb/generator.hpp: builds a Local Distance Database.
//
// For a movement rule and block size b, every one of the 2^(b*b) obstacle patterns is
// reduced to its canonical form under the rule's symmetries; for each canonical pattern
// the generator computes the least cost between every pair of boundary points (paths
// stay inside the block; outside counts as blocked) and the inflection points of one
// least-cost path per pair, chosen by a fixed tie-break so output is reproducible to the
// byte. Equal tables are stored once; the result is a database_image for the writer.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "lddb/format.hpp"
#include "lddb/rule.hpp"
#include "lddb/block_shape.hpp"

namespace lddb {

inline constexpr const char* kGeneratorVersion = "lddb-gen 1.1";

// Everything that determines a database's bytes. Serialised (Boost XML archive) into
// the file's manifest, so `lddb gen --like FILE` can rebuild the identical file.
struct recipe {
  rule movement = rule::octile();
  int block = 4;
  bool use_symmetry = true;  // reduce patterns by the rule's symmetries
  // Higher levels trade generation time for size; 0 stores every section uncompressed.
  int zstd_level = 9;
  std::string generator_version = kGeneratorVersion;

  friend bool operator==(const recipe&, const recipe&) = default;
};

std::string recipe_to_manifest(const recipe& r);
// Throws std::runtime_error with a readable message on a malformed manifest.
recipe recipe_from_manifest(const std::string& text);

// One pattern's entry, as computed before deduplication.
struct pattern_entry {
  std::vector<std::uint16_t> costs;  // stored encoding, pair_count values (pair_index order)
  std::vector<std::uint8_t> paths;   // encoded path table (docs/format.md, section PATH)
};

// Solves one pattern directly (no symmetry): the entry its canonical form would get if
// it were canonical. Throws std::runtime_error if a cost does not fit the encoding.
pattern_entry solve_pattern(const rule& r, const block_shape& shape, std::uint32_t code);

struct generate_options {
  int threads = 0;  // 0: all hardware threads
  // Called now and then from the calling thread with (patterns done, patterns total).
  std::function<void(std::uint64_t, std::uint64_t)> progress;
};

// Sizes after each compression stage, for reports. Cost bytes count 2 bytes a cost; the
// file's own section table gives the final, zstd stage.
struct generation_stats {
  std::uint64_t patterns = 0, canonical_patterns = 0, cost_tables = 0, path_tables = 0;
  std::uint64_t cost_bytes_full = 0;       // every pattern, every ordered pair
  std::uint64_t cost_bytes_symmetry = 0;   // canonical patterns only
  std::uint64_t cost_bytes_pairs = 0;      // ... and each unordered pair once
  std::uint64_t cost_bytes_dedup = 0;      // ... and equal tables once
  std::uint64_t path_bytes_canonical = 0;  // path tables of canonical patterns
  std::uint64_t path_bytes_dedup = 0;      // equal path tables once
  double seconds = 0;
};

database_image generate(const recipe& r, const generate_options& options, generation_stats* stats = nullptr);

}  // namespace lddb
