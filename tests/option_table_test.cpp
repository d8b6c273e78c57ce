// option_table_test: the table of search options (lddb/option_table.hpp) drives the C API
// and the lddb tool, and each row does what it says in each.
//
//   Table.RowsAreWholeAndCheckTheirValues  names unique; each row writes its field; ranges refused
//   CApi.DescribesEveryRowAtItsField       lddb_option_describe: every row, at offsetof its field
//   CApi.ReadsEveryRow                     a value in each lddb_options field changes the search
//   Tool.OffersEveryRow                    lddb solve, bench and render take every row's option
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <functional>
#include <map>
#include <string>

#include "cli_support.hpp"
#include "lddb/lddb.h"
#include "lddb/option_table.hpp"

namespace {

using namespace lddb;

// The fields of lddb_options, written out here apart from the library's own list.
const std::map<std::string, std::size_t> kOffsets = {
    {"heuristic", offsetof(lddb_options, heuristic)},
    {"smooth", offsetof(lddb_options, smooth)},
    {"open_squares", offsetof(lddb_options, open_squares)},
    {"max_expansions", offsetof(lddb_options, max_expansions)},
    {"weight", offsetof(lddb_options, weight)},
    {"landmarks", offsetof(lddb_options, landmarks)},
    {"square_levels", offsetof(lddb_options, square_levels)},
    {"use_prepared", offsetof(lddb_options, use_prepared)},
    {"jumps", offsetof(lddb_options, jumps)},
    {"unit_size", offsetof(lddb_options, unit_size)},
    {"movement", offsetof(lddb_options, movement)},
};

TEST(Table, RowsAreWholeAndCheckTheirValues) {
  std::map<std::string, int> seen;
  for (const option_spec& spec : search_option_table()) {
    const std::string name(spec.name);
    EXPECT_EQ(seen[name]++, 0) << name;
    if (!spec.alias.empty()) {
      EXPECT_EQ(seen[std::string(spec.alias)]++, 0) << spec.alias;
    }
    EXPECT_EQ(find_search_option(name), &spec);
    EXPECT_FALSE(spec.help.empty()) << name;
    if (spec.kind == option_kind::flag && !spec.tool.empty()) {
      EXPECT_FALSE(spec.tool_off.empty()) << name;
    }
    // A value other than the default writes a field: the options differ from the defaults.
    option_value v;
    v.integer = static_cast<std::int64_t>(spec.kind == option_kind::integer ? spec.high : 1);
    v.count = 5;
    v.number = spec.high;
    v.flag = spec.name == "use_prepared" ? flag_state::off : flag_state::on;
    v.movement = movement_class::of("W");
    const landmark_set* fake = reinterpret_cast<const landmark_set*>(&spec);  // never read: no rule check is made on it
    search_options o;
    const rule r = rule::tile();  // every heuristic is admissible under tile
    if (spec.kind != option_kind::landmarks) {
      EXPECT_EQ(set_search_option(o, r, spec, v), "") << name;
    } else {
      o.landmarks = fake;
    }
    const search_options d;
    const bool changed = o.heuristic != d.heuristic || o.weight != d.weight || o.smooth != d.smooth ||
                         o.max_expansions != d.max_expansions || !(o.unit == d.unit) || o.landmarks != d.landmarks ||
                         o.diagnostics.search != d.diagnostics.search ||
                         o.diagnostics.open_squares != d.diagnostics.open_squares ||
                         o.diagnostics.square_levels != d.diagnostics.square_levels ||
                         o.diagnostics.use_prepared != d.diagnostics.use_prepared;
    EXPECT_TRUE(changed) << name << " wrote nothing";
  }
  const option_spec& weight = *find_search_option("weight");
  search_options o;
  option_value v;
  v.number = 16.5;
  EXPECT_EQ(set_search_option(o, rule::octile(), weight, v), "16.5 is out of range: a finite number from 1 to 16");
  EXPECT_EQ(parse_search_option(weight, "1.5x", v).find("'1.5x' is not a number"), 0u);
  const option_spec& size = *find_search_option("size");  // the alias
  EXPECT_EQ(size.name, "unit_size");
  EXPECT_EQ(parse_search_option(size, "9", v), "");
  EXPECT_EQ(set_search_option(o, rule::octile(), size, v), "9 is outside 0..8");
  EXPECT_NE(parse_search_option(size, "-1", v), "");
  const option_spec& heuristic = *find_search_option("heuristic");
  EXPECT_EQ(parse_search_option(heuristic, "manhattan", v), "");
  EXPECT_EQ(v.integer, 2);
  EXPECT_EQ(set_search_option(o, rule::octile(), heuristic, v).find("manhattan overestimates costs under rule octile"),
            0u);
  EXPECT_EQ(parse_search_option(heuristic, "wishful", v),
            "'wishful' is not one of default, zero, manhattan, octile or euclidean");
  EXPECT_NE(parse_search_option(*find_search_option("movement"), "", v), "");
}

TEST(CApi, DescribesEveryRowAtItsField) {
  ASSERT_EQ(lddb_option_count(), search_option_table().size());
  ASSERT_EQ(kOffsets.size(), search_option_table().size()) << "a row of the table without a field here";
  for (std::size_t k = 0; k < lddb_option_count(); ++k) {
    lddb_option_info info;
    ASSERT_EQ(lddb_option_describe(k, &info, sizeof info), LDDB_OK) << lddb_last_error();
    const option_spec& spec = search_option_table()[k];
    EXPECT_EQ(info.name, spec.name);
    EXPECT_EQ(info.alias, spec.alias);
    EXPECT_EQ(info.kind, static_cast<int>(spec.kind));
    ASSERT_EQ(kOffsets.count(info.name), 1u) << info.name;
    EXPECT_EQ(info.offset, kOffsets.at(info.name)) << info.name;
    EXPECT_GE(info.version, 1u);
    EXPECT_LE(info.version, static_cast<std::uint32_t>(LDDB_OPTIONS_VERSION));
  }
  lddb_option_info info;
  EXPECT_EQ(lddb_option_describe(lddb_option_count(), &info, sizeof info), LDDB_INVALID_ARGUMENT);
  EXPECT_NE(std::string(lddb_last_error()).find("lddb_option_describe: argument 'index'"), std::string::npos);
  EXPECT_EQ(lddb_option_describe(0, nullptr, sizeof info), LDDB_NULL_ARGUMENT);
}

// Each field, set through the table's row, changes what lddb_solve does: a row the C API
// did not read would leave the answer as the defaults give it.
TEST(CApi, ReadsEveryRow) {
  lddb_database db = 0;
  lddb_map map = 0, open = 0;
  lddb_context ctx = 0;
  ASSERT_EQ(lddb_database_open(LDDB_SOURCE_DIR "/lddb/octile-4.lddb", &db), LDDB_OK) << lddb_last_error();
  ASSERT_EQ(lddb_map_create(32, 32, 4, &map), LDDB_OK);
  ASSERT_EQ(lddb_map_create(32, 32, 4, &open), LDDB_OK);
  ASSERT_EQ(lddb_context_create(&ctx), LDDB_OK);
  for (int y = 2; y < 30; ++y) lddb_map_set_blocked(map, 16, y, 1);  // a wall to go round
  lddb_preparation report;
  ASSERT_EQ(lddb_prepare(db, open, 0, &report), LDDB_OK) << lddb_last_error();
  const lddb_point from{2, 16}, to{29, 16};
  lddb_point path[1024];
  auto solve = [&](const lddb_options& o, lddb_map m, lddb_result* r) {
    return lddb_solve(ctx, db, m, from, to, &o, r, path, 1024);
  };
  lddb_options base;
  lddb_options_init(&base);
  lddb_result plain{}, on_open{};
  ASSERT_EQ(solve(base, map, &plain), LDDB_OK) << lddb_last_error();
  ASSERT_EQ(solve(base, open, &on_open), LDDB_OK) << lddb_last_error();
  ASSERT_EQ(on_open.searched, LDDB_SEARCHED_JUMP_POINT_SEARCH);  // the preparation's choice

  // What each row's value must change; every row has one.
  std::map<std::string, std::function<void(lddb_options&)>> set;
  std::map<std::string, std::function<bool(lddb_status, const lddb_result&)>> changed;
  set["heuristic"] = [](lddb_options& o) { o.heuristic = LDDB_HEURISTIC_ZERO; };
  changed["heuristic"] = [&](lddb_status s, const lddb_result& r) { return s == LDDB_OK && r.expansions > plain.expansions; };
  set["weight"] = [](lddb_options& o) { o.weight = 17; };
  set["square_levels"] = [](lddb_options& o) { o.square_levels = 5; };
  set["unit_size"] = [](lddb_options& o) { o.unit_size = 9; };
  for (const char* refused : {"weight", "square_levels", "unit_size"})
    changed[refused] = [refused](lddb_status s, const lddb_result&) {
      return s == LDDB_INVALID_ARGUMENT &&
             std::string(lddb_last_error()).find(std::string("options: ") + refused) != std::string::npos;
    };
  set["smooth"] = [](lddb_options& o) { o.smooth = LDDB_SMOOTH_ON; };
  changed["smooth"] = [&](lddb_status s, const lddb_result& r) { return s == LDDB_OK && r.path_count < plain.path_count; };
  set["max_expansions"] = [](lddb_options& o) { o.max_expansions = 1; };
  changed["max_expansions"] = [](lddb_status s, const lddb_result&) { return s == LDDB_BUDGET_EXHAUSTED; };
  set["movement"] = [](lddb_options& o) { lddb_movement_set_letters(&o, "W"); };
  changed["movement"] = [](lddb_status s, const lddb_result&) { return s == LDDB_INVALID_START; };
  set["landmarks"] = [](lddb_options& o) { o.landmarks = 12345; };
  changed["landmarks"] = [](lddb_status s, const lddb_result&) { return s == LDDB_BAD_HANDLE; };
  set["jumps"] = [](lddb_options& o) { o.jumps = 1; };
  changed["jumps"] = [](lddb_status s, const lddb_result& r) {
    return s == LDDB_OK && r.searched == LDDB_SEARCHED_JUMP_POINT_SEARCH;
  };
  set["open_squares"] = [](lddb_options& o) { o.open_squares = 2; };
  changed["open_squares"] = [&](lddb_status s, const lddb_result& r) { return s == LDDB_OK && r.expansions < plain.expansions; };
  set["use_prepared"] = [](lddb_options& o) { o.use_prepared = 0; };
  changed["use_prepared"] = [](lddb_status s, const lddb_result& r) {
    return s == LDDB_OK && r.searched == LDDB_SEARCHED_BLOCK_ASTAR;
  };
  for (const option_spec& spec : search_option_table()) {
    const std::string name(spec.name);
    ASSERT_TRUE(set.count(name) && changed.count(name)) << "no check for the row " << name;
    lddb_options o = base;
    set[name](o);
    lddb_result r{};
    const lddb_map m = name == "use_prepared" ? open : map;
    const lddb_status s = solve(o, m, &r);
    EXPECT_TRUE(changed[name](s, r)) << name << ": status " << s << ", " << r.expansions << " expansions, "
                                     << r.path_count << " points, searched " << r.searched << "; "
                                     << lddb_last_error();
    // An older struct, one version before the field, keeps the default.
    lddb_option_info info;
    ASSERT_EQ(lddb_option_describe(static_cast<std::size_t>(&spec - search_option_table().data()), &info, sizeof info),
              LDDB_OK);
    if (info.version > 1 && info.version <= 8) {
      o.version = info.version - 1;
      lddb_result older{};
      const lddb_status so = solve(o, m, &older);
      if (name == "use_prepared") {
        EXPECT_EQ(older.searched, LDDB_SEARCHED_JUMP_POINT_SEARCH) << name;
      } else {
        EXPECT_EQ(so, LDDB_OK) << name << ": " << lddb_last_error();
        EXPECT_EQ(older.expansions, plain.expansions) << name;
      }
    }
  }
  lddb_context_free(ctx);
  lddb_map_free(open);
  lddb_map_free(map);
  lddb_database_close(db);
}

TEST(Tool, OffersEveryRow) {
  const auto scratch = cli_support::fresh_scratch_dir("option_table_test_scratch");
  for (const char* command : {"solve", "bench", "render"}) {
    const cli_support::run_result help = cli_support::run_in(scratch, std::string(command) + " --help");
    ASSERT_EQ(help.status, 0) << help.all();
    for (const option_spec& spec : search_option_table()) {
      if (spec.tool.empty()) continue;
      EXPECT_NE(help.out.find("--" + std::string(spec.tool) + " "), std::string::npos) << command << " " << spec.tool;
      if (spec.kind == option_kind::flag) {
        EXPECT_NE(help.out.find("--" + std::string(spec.tool_off) + " "), std::string::npos) << spec.tool_off;
        const std::string required = std::string(command) == "solve"   ? " --map x.map --from 0,0 --to 1,1"
                                     : std::string(command) == "bench" ? " --scen x.scen"
                                                                       : " --map x.map --out x.svg --from 0,0 --to 1,1";
        const cli_support::run_result both = cli_support::run_in(
            scratch, command + required + " --" + std::string(spec.tool) + " --" + std::string(spec.tool_off));
        EXPECT_EQ(both.status, 2) << both.all();
        EXPECT_NE(both.err.find("exclude each other"), std::string::npos) << both.all();
      }
    }
  }
}

}  // namespace
