// tests/test_db.hpp: the databases the search tests run on, opened once per process: the
// shipped ones (lddb/, b = 4) for the three default rules, and every other rule's
// generated in memory at b = 3 (small enough to build in a second).
#pragma once

#include <map>
#include <memory>
#include <stdexcept>
#include <string>

#include "lddb/format.hpp"
#include "lddb/generator.hpp"
#include "lddb/rule.hpp"

namespace lddb_test {

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
