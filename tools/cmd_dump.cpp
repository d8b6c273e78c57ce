// tools/cmd_dump.cpp: `lddb dump`, everything a database holds, as text or JSON.
//
// Header, manifest (and the recipe it decodes to), section table, statistics, and on
// request one pattern's entry: the block drawn as a picture, its cost matrix and the
// inflection points of each stored path. Everything is read through the public reader
// (database::cost / path / entry), so dump shows what a search would see.
#include <cinttypes>
#include <cstdio>
#include <iostream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli_common.hpp"
#include "commands.hpp"
#include "dump_pattern.hpp"
#include "lddb/format.hpp"
#include "lddb/generator.hpp"
#include "lddb/block_shape.hpp"

namespace lddb::cli {

namespace {

struct dump_args {
  std::string file;
  bool json = false;
  bool no_stats = false;
  std::optional<std::string> pattern;  // as typed: decimal or 0x hex
  std::optional<std::string> pair;     // as typed: "A,B"
};

const char* const kDumpFooter = R"(--pattern CODE: a block's pattern_code, in decimal or 0x hex. Bit y*b+x set means cell
  (x,y) of the b x b block is blocked (x from the left, y from the top, both from 0); the
  file's b is its block size. E.g. 0x0660 for b = 4 sets bits 5, 6, 9 and 10, the four
  cells in the middle (# blocked, . free; as dump draws it):
        x=0 1 2 3
    y=0   . . . .
    y=1   . # # .
    y=2   . # # .
    y=3   . . . .
Examples:
  lddb dump lddb/octile-4.lddb
  lddb dump lddb/any-angle-4.lddb --pattern 0x0660
  lddb dump lddb/any-angle-4.lddb --pattern 0x0660 --pair 0,9
  lddb dump lddb/tile-4.lddb --json | python3 -m json.tool
)";

using json = nlohmann::ordered_json;

// ----------------------------------------------------------------------------- names

std::string version_text(format_version v) { return std::to_string(v.major) + "." + std::to_string(v.minor); }

std::string encoding_name(cost_encoding e) {
  switch (e) {
    case cost_encoding::fixed_point: return "fixed-point";
    case cost_encoding::octile_pair: return "octile-pair";
  }
  return "unknown(" + std::to_string(static_cast<int>(e)) + ")";
}

std::string encoding_description(const header_info& h) {
  switch (h.encoding) {
    case cost_encoding::fixed_point:
      return "fixed-point, u16 value x 2^-" + std::to_string(h.scale_log2) + " units of length";
    case cost_encoding::octile_pair:
      return "octile-pair, u16 = straight moves (low byte) + diagonal moves (high byte)";
  }
  return encoding_name(h.encoding);
}

std::string codec_name(section_codec c) {
  switch (c) {
    case section_codec::stored: return "stored";
    case section_codec::zstd: return "zstd";
  }
  return "codec" + std::to_string(static_cast<int>(c));
}

std::string hex(std::uint64_t v, int digits) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%0*" PRIx64, digits, v);
  return buf;
}

int popcount8(std::uint8_t m) { return __builtin_popcount(m); }

std::string ratio_text(const section_info& s) {
  if (s.stored_size == 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", static_cast<double>(s.raw_size) / static_cast<double>(s.stored_size));
  return buf;
}

std::uint64_t in_memory_size(const header_info& h) {
  std::uint64_t total = 0;
  for (const section_info& s : h.sections) total += s.raw_size;
  return total;
}

// ----------------------------------------------------------------------------- statistics

// Over the distinct tables: each cost table and each path table is read once, through the
// first canonical pattern that uses it.
struct table_stats {
  std::uint64_t cost_tables = 0, path_tables = 0;
  std::uint64_t pairs = 0, unreachable = 0;  // over cost tables, unordered pairs
  double cost_sum = 0;                       // over reachable pairs
  std::uint64_t path_pairs = 0, inflection_sum = 0;
  int max_inflections = 0;

  double unreachable_fraction() const { return pairs ? static_cast<double>(unreachable) / static_cast<double>(pairs) : 0; }
  double mean_cost() const { return pairs > unreachable ? cost_sum / static_cast<double>(pairs - unreachable) : 0; }
  double mean_inflections() const {
    return path_pairs ? static_cast<double>(inflection_sum) / static_cast<double>(path_pairs) : 0;
  }
};

table_stats compute_stats(const database& db) {
  const header_info& h = db.info();
  const block_shape& shape = db.shape();
  const int n = shape.boundary_count();
  std::vector<bool> cost_seen(h.cost_tables, false), path_seen(h.path_tables, false);
  table_stats st;
  inflections inf;
  const std::uint64_t patterns = shape.pattern_count();
  for (std::uint64_t c = 0; c < patterns; ++c) {
    const auto code = static_cast<std::uint32_t>(c);
    const database::entry_ref e = db.entry(code);
    if (e.canonical_code != code) continue;
    const bool new_cost = e.cost_id < cost_seen.size() && !cost_seen[e.cost_id];
    const bool new_path = e.path_id < path_seen.size() && !path_seen[e.path_id];
    if (!new_cost && !new_path) continue;
    if (new_cost) cost_seen[e.cost_id] = true, ++st.cost_tables;
    if (new_path) path_seen[e.path_id] = true, ++st.path_tables;
    for (int i = 0; i < n; ++i) {
      for (int j = i + 1; j < n; ++j) {
        const cost_t cost = db.cost(code, i, j);
        if (new_cost) {
          ++st.pairs;
          if (cost == kUnreachable) ++st.unreachable;
          else st.cost_sum += cost_to_double(cost);
        }
        if (new_path && cost != kUnreachable && db.path(code, i, j, &inf)) {
          ++st.path_pairs;
          st.inflection_sum += static_cast<std::uint64_t>(inf.count);
          st.max_inflections = std::max(st.max_inflections, inf.count);
        }
      }
    }
  }
  return st;
}

// ----------------------------------------------------------------------------- the whole file

std::optional<recipe> decode_recipe(const std::string& manifest, std::string* why) {
  try {
    return recipe_from_manifest(manifest);
  } catch (const std::exception& e) {
    *why = e.what();
    return std::nullopt;
  }
}

json header_json(const database& db) {
  const header_info& h = db.info();
  const block_shape& shape = db.shape();
  json j;
  j["format_version"] = version_text(h.version);
  j["min_reader_version"] = version_text(h.min_reader);
  j["rule"] = h.movement.name();
  j["block"] = h.block;
  j["points"] = h.vertices ? "vertices" : "cells";
  j["boundary_points"] = shape.boundary_count();
  j["pairs"] = shape.pair_count();
  j["patterns"] = shape.pattern_count();
  j["cost_encoding"] = encoding_name(h.encoding);
  j["scale_log2"] = h.scale_log2;
  j["symmetry_mask"] = "0x" + hex(h.symmetry_mask, 2);
  j["canonical_patterns"] = h.canonical_patterns;
  j["cost_tables"] = h.cost_tables;
  j["path_tables"] = h.path_tables;
  j["file_size"] = h.file_size;
  return j;
}

int run_dump(const dump_args& a) {
  const database::open_result opened = database::open(a.file);
  if (!opened) throw failure(opened.message.empty() ? a.file + ": " + status_name(opened.code) : opened.message);
  const database& db = *opened.db;
  const header_info& h = db.info();

  std::optional<std::uint32_t> code;
  std::optional<std::pair<int, int>> pair;
  if (a.pattern) code = parse_pattern(*a.pattern, db);
  if (a.pair) pair = parse_pair(*a.pair, db);

  const std::string manifest = db.manifest();
  std::string recipe_error;
  std::optional<recipe> rec = decode_recipe(manifest, &recipe_error);
  if (rec) rec->movement = rule_as_written(rec->movement, db.info().version);  // as the header reads
  std::optional<table_stats> stats;
  if (!a.no_stats) stats = compute_stats(db);
  std::optional<pattern_detail> detail;
  if (code) detail = describe_pattern(db, *code, pair);

  if (a.json) {
    json j;
    j["file"] = a.file;
    j["header"] = header_json(db);
    j["manifest"] = manifest;
    if (rec) {
      j["recipe"] = {{"rule", rec->movement.name()},          {"block", rec->block},
                     {"use_symmetry", rec->use_symmetry},     {"zstd_level", rec->zstd_level},
                     {"generator_version", rec->generator_version}};
    } else {
      j["recipe"] = nullptr;
      j["recipe_error"] = recipe_error;
    }
    json sections = json::array();
    for (const section_info& s : h.sections) {
      sections.push_back({{"tag", s.name()},
                          {"codec", codec_name(s.codec)},
                          {"offset", s.offset},
                          {"stored_size", s.stored_size},
                          {"raw_size", s.raw_size},
                          {"ratio", s.stored_size ? static_cast<double>(s.raw_size) / static_cast<double>(s.stored_size) : 0.0},
                          {"checksum", hex(s.checksum, 16)}});
    }
    j["sections"] = sections;
    json sj;
    sj["canonical_patterns"] = h.canonical_patterns;
    sj["cost_tables"] = h.cost_tables;
    sj["path_tables"] = h.path_tables;
    sj["file_size"] = h.file_size;
    sj["in_memory_size"] = in_memory_size(h);
    if (stats) {
      sj["unreachable_pair_fraction"] = stats->unreachable_fraction();
      sj["mean_cost"] = stats->mean_cost();
      sj["mean_inflections"] = stats->mean_inflections();
      sj["max_inflections"] = stats->max_inflections;
      sj["tables_read"] = {{"cost", stats->cost_tables}, {"path", stats->path_tables}};
    }
    j["stats"] = sj;
    if (detail) j["pattern"] = pattern_json(db, *detail);
    std::cout << j.dump(2) << "\n";
    return kExitOk;
  }

  const block_shape& shape = db.shape();
  if (detail) {  // what was asked for, first and alone; `lddb dump FILE` shows the rest
    std::printf("file            %s\n", a.file.c_str());
    std::printf("rule            %s, %dx%d blocks (the whole header: lddb dump %s)\n", h.movement.name().c_str(),
                h.block, h.block, a.file.c_str());
    print_pattern(db, *detail);
    return kExitOk;
  }
  std::printf("file            %s\n", a.file.c_str());
  std::printf("format          %s (readable by lddb %s and later)\n", version_text(h.version).c_str(),
              version_text(h.min_reader).c_str());
  std::printf("rule            %s\n", h.movement.name().c_str());
  std::printf("block           %dx%d cells; points are %s (%d boundary points, %d pairs)\n", h.block, h.block,
              h.vertices ? "vertices" : "cells", shape.boundary_count(), shape.pair_count());
  std::printf("cost encoding   %s\n", encoding_description(h).c_str());
  std::printf("symmetry mask   0x%s (%d of 8 transforms)\n", hex(h.symmetry_mask, 2).c_str(), popcount8(h.symmetry_mask));
  if (rec) {
    std::printf("recipe          rule %s, b=%d, symmetry %s, zstd level %d, built by %s\n", rec->movement.name().c_str(),
                rec->block, rec->use_symmetry ? "on" : "off", rec->zstd_level, rec->generator_version.c_str());
  } else {
    std::printf("recipe          unreadable: %s\n", recipe_error.c_str());
  }
  std::printf("\nmanifest (%zu bytes)\n", manifest.size());
  {
    std::istringstream lines(manifest);
    std::string line;
    while (std::getline(lines, line)) std::printf("  %s\n", line.c_str());
  }

  std::printf("\nsections\n");
  std::vector<std::vector<std::string>> rows{{"", "tag", "codec", "offset", "stored", "raw", "ratio", "checksum"}};
  for (const section_info& s : h.sections)
    rows.push_back({"", s.name(), codec_name(s.codec), std::to_string(s.offset), std::to_string(s.stored_size),
                    std::to_string(s.raw_size), ratio_text(s), hex(s.checksum, 16)});
  print_table(stdout, rows, {3, 4, 5, 6});

  std::printf("\nstatistics\n");
  std::printf("  canonical patterns   %u of %llu\n", h.canonical_patterns,
              static_cast<unsigned long long>(shape.pattern_count()));
  std::printf("  cost tables          %u\n", h.cost_tables);
  std::printf("  path tables          %u\n", h.path_tables);
  std::printf("  file size            %llu bytes (%s)\n", static_cast<unsigned long long>(h.file_size),
              format_bytes(h.file_size).c_str());
  std::printf("  in-memory size       %llu bytes (%s; sum of raw section sizes)\n",
              static_cast<unsigned long long>(in_memory_size(h)), format_bytes(in_memory_size(h)).c_str());
  if (stats) {
    std::printf("  unreachable pairs    %.2f%% (over %llu cost tables x %d pairs)\n", 100.0 * stats->unreachable_fraction(),
                static_cast<unsigned long long>(stats->cost_tables), shape.pair_count());
    std::printf("  mean cost            %.4f (reachable pairs)\n", stats->mean_cost());
    std::printf("  mean inflections     %.4f per reachable pair, at most %d (over %llu path tables)\n",
                stats->mean_inflections(), stats->max_inflections,
                static_cast<unsigned long long>(stats->path_tables));
  }
  return kExitOk;
}

}  // namespace

void add_dump_command(CLI::App& app, command_action& chosen) {
  auto a = std::make_shared<dump_args>();
  auto* cmd = app.add_subcommand("dump", "Show a database's header, manifest, sections, statistics and entries");
  cmd->add_option("FILE", a->file, "Database file")->required();
  cmd->add_flag("--json", a->json, "Print JSON instead of text");
  cmd->add_flag("--no-stats", a->no_stats, "Skip the statistics that read every table");
  auto* pattern_opt =
      cmd->add_option("--pattern,-p", a->pattern, "Show one block pattern (pattern_code, decimal or 0x hex)");
  cmd->add_option("--pair", a->pair, "With --pattern: only the pair A,B of boundary indices")
      ->needs(pattern_opt);
  cmd->footer(kDumpFooter);
  cmd->callback([a, &chosen] { chosen = [a] { return run_dump(*a); }; });
}

}  // namespace lddb::cli
