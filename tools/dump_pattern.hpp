// tools/dump_pattern.hpp: `lddb dump --pattern CODE [--pair A,B]`: one pattern's entry of a
// database: the block drawn as a picture, its cost matrix between boundary points and the
// inflection points of each stored path, as text or JSON.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "lddb/format.hpp"

namespace lddb::cli {

struct pair_detail {
  int a = 0, b = 0;
  cost_t cost = kUnreachable;
  std::uint16_t stored = 0;
  std::vector<point> points;  // inflection points, a to b
};

struct pattern_detail {
  std::uint32_t code = 0;
  database::entry_ref entry{};
  std::vector<std::string> picture;
  std::string legend;
  std::vector<std::vector<cost_t>> matrix;  // empty when a single pair was asked for
  std::vector<pair_detail> pairs;
};

// --pattern's text (decimal or 0x hex) as a code of `db`; throws usage_error naming it.
std::uint32_t parse_pattern(const std::string& text, const database& db);
// --pair's text "A,B" as two different boundary indices of `db`; throws usage_error naming it.
std::pair<int, int> parse_pair(const std::string& text, const database& db);
// Pattern `code` of `db`: every reachable pair, or only the pair `only`.
pattern_detail describe_pattern(const database& db, std::uint32_t code, std::optional<std::pair<int, int>> only);
void print_pattern(const database& db, const pattern_detail& d);
nlohmann::ordered_json pattern_json(const database& db, const pattern_detail& d);

}  // namespace lddb::cli
