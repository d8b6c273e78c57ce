// tests/test_db.hpp: the rules the search tests run, and their databases, opened once per
// process: the shipped ones (lddb/, b = 4) for the three default rules, and every other
// rule's generated in memory at b = 3 (small enough to build in a second).
#pragma once

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "lddb/format.hpp"
#include "lddb/generator.hpp"
#include "lddb/rule.hpp"

namespace lddb_test {

// Every rule the search tests run: the three defaults and each variant of corner cutting,
// diagonal cost and squeezing.
inline std::vector<lddb::rule> search_rules() {
  using lddb::rule;
  return {rule::tile(),
          rule::octile(),
          rule::octile(lddb::corner_cutting::one_side_free),
          rule::octile(lddb::corner_cutting::allowed),
          rule::octile(lddb::corner_cutting::forbidden, *lddb::parse_diagonal_cost("1.5")),
          rule::any_angle(),
          rule::any_angle(lddb::squeezing::allowed)};
}

inline const lddb::database& db_for(const lddb::rule& r) {
  static std::map<std::string, std::shared_ptr<const lddb::database>> cache;
  const std::string key = r.name();
  if (auto it = cache.find(key); it != cache.end()) return *it->second;
  lddb::database::open_result opened;
  if (r == lddb::rule::tile() || r == lddb::rule::octile() || r == lddb::rule::any_angle()) {
    opened = lddb::database::open(std::string(LDDB_SOURCE_DIR) + "/lddb/" + key + "-4.lddb");
  } else {
    lddb::recipe rc;
    rc.movement = r;
    rc.block = 3;
    rc.zstd_level = 3;
    opened = lddb::database::open_bytes(lddb::encode_database(lddb::generate(rc, {})), "generated " + key);
  }
  if (!opened) throw std::runtime_error("cannot open the database for " + key + ": " + opened.message);
  return *cache.emplace(key, opened.db).first->second;
}

}  // namespace lddb_test
