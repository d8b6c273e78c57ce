// tools/cmd_verify_info.cpp: `lddb verify` (are these files intact?) and `lddb info`
// (open and verify every database shipped in lddb/, one summary row each).
//
// Both rely on database::open, which checks every header field, offset, size and
// checksum before it returns a database; nothing here re-implements those checks.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

#include "cli_common.hpp"
#include "commands.hpp"
#include "lddb/data_dir.hpp"
#include "lddb/format.hpp"

namespace lddb::cli {

namespace {

struct info_args {
  std::optional<std::string> dir;
};


namespace fs = std::filesystem;

std::uint64_t in_memory_size(const header_info& h) {
  std::uint64_t total = 0;
  for (const section_info& s : h.sections) total += s.raw_size;
  return total;
}

// The databases the repository ships: each default rule at b = 4 (docs/databases.md).
std::vector<rule> shipped_rules() { return {rule::tile(), rule::octile(), rule::any_angle()}; }
constexpr int kShippedBlock = 4;

std::string self_path() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("lddb") : p.string();
}

// --dir, else the order of lddb/data_dir.hpp ($LDDB_DATA_DIR, ../share/lddb beside the
// program, the install's, the source tree's).
fs::path data_dir(const info_args& a, std::string* source) {
  const data_dir_choice d = find_data_dir(a.dir ? *a.dir : std::string());
  *source = d.source == "given" ? "from --dir" : d.source;
  return d.path;
}

int run_verify(const std::vector<std::string>& files) {
  int bad = 0;
  for (const std::string& file : files) {
    const database::open_result opened = database::open(file);
    if (opened) {
      const header_info& h = opened.db->info();
      std::printf("%s: ok (%s, b=%d, %llu bytes)\n", file.c_str(), h.movement.name().c_str(), h.block,
                  static_cast<unsigned long long>(h.file_size));
    } else {
      ++bad;
      std::printf("%s: %s: %s\n", file.c_str(), status_name(opened.code),
                  strip_file_prefix(opened.message, file).c_str());
    }
  }
  std::fflush(stdout);
  if (bad && files.size() > 1) std::fprintf(stderr, "lddb verify: %d of %zu files failed\n", bad, files.size());
  return bad ? kExitFailure : kExitOk;
}

int run_info(const info_args& a) {
  std::string source;
  const fs::path dir = data_dir(a, &source);
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw failure("database folder " + dir.string() + " (" + source + ") does not exist or is not a folder");

  // The shipped names first, in their fixed order, then any other .lddb file found. A
  // folder given with --dir is the user's own: only what it holds is listed (a shipped name
  // in it must still hold its rule), and nothing is missing.
  const bool own_folder = a.dir.has_value();
  std::vector<std::string> names;
  std::map<std::string, std::pair<rule, int>> expected;
  for (const rule& r : shipped_rules()) {
    const std::string name = database_file_name(r, kShippedBlock);
    if (own_folder && !fs::exists(dir / name, ec)) continue;
    names.push_back(name);
    expected.emplace(name, std::make_pair(r, kShippedBlock));
  }
  std::set<std::string> extra;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (e.path().extension() == ".lddb" && !expected.count(name)) extra.insert(name);
  }
  names.insert(names.end(), extra.begin(), extra.end());
  if (names.empty()) throw failure("database folder " + dir.string() + " (" + source + ") holds no .lddb file");

  std::printf("LDDB databases in %s (%s)\n\n", dir.string().c_str(), source.c_str());
  std::vector<std::vector<std::string>> rows{{"file", "rule", "b", "on disk", "in memory", "canonical",
                                              "cost tables", "path tables", "open+verify", "status"}};
  std::vector<std::string> problems;
  int intact = 0;
  for (const std::string& name : names) {
    const fs::path path = dir / name;
    if (!fs::exists(path, ec)) {
      const auto& [r, b] = expected.at(name);
      rows.push_back({name, r.name(), std::to_string(b), "-", "-", "-", "-", "-", "-", "MISSING"});
      problems.push_back(name + " is missing; generate it with:\n    " + self_path() + " gen --rule " + r.name() +
                         " --block " + std::to_string(b) + " --out " + path.string());
      continue;
    }
    const auto start = std::chrono::steady_clock::now();
    const database::open_result opened = database::open(path.string());
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    char time_text[32];
    std::snprintf(time_text, sizeof time_text, "%.2f ms", ms);
    if (!opened) {
      rows.push_back({name, "?", "?", "-", "-", "-", "-", "-", time_text, status_name(opened.code)});
      problems.push_back(name + ": " + status_name(opened.code) + ": " +
                         strip_file_prefix(opened.message, path.string()));
      continue;
    }
    const header_info& h = opened.db->info();
    std::string state = "ok";
    if (const auto it = expected.find(name); it != expected.end()) {
      const auto& [r, b] = it->second;
      if (h.movement != r || h.block != b) {
        state = "WRONG RULE";
        problems.push_back(name + " holds " + h.movement.name() + " b=" + std::to_string(h.block) +
                           ", expected " + r.name() + " b=" + std::to_string(b));
      }
    }
    if (state == "ok") ++intact;
    rows.push_back({name, h.movement.name(), std::to_string(h.block), format_bytes(h.file_size),
                    format_bytes(in_memory_size(h)), std::to_string(h.canonical_patterns),
                    std::to_string(h.cost_tables), std::to_string(h.path_tables), time_text, state});
  }
  print_table(stdout, rows, {2, 3, 4, 5, 6, 7, 8});
  std::printf("\n%d of %zu databases intact.\n", intact, names.size());
  for (const std::string& p : problems) std::printf("%s\n", p.c_str());
  return problems.empty() ? kExitOk : kExitFailure;
}

}  // namespace

void add_verify_command(CLI::App& app, command_action& chosen) {
  auto a = std::make_shared<std::vector<std::string>>();
  auto* cmd = app.add_subcommand("verify", "Check that database files are intact (exit 0 only if all are)");
  cmd->add_option("FILE", *a, "Database files")->required();
  cmd->callback([a, &chosen] { chosen = [a] { return run_verify(*a); }; });
}

void add_info_command(CLI::App& app, command_action& chosen) {
  auto a = std::make_shared<info_args>();
  auto* cmd = app.add_subcommand("info", "Open and verify every database shipped in lddb/ and summarise them");
  cmd->add_option("--dir", a->dir,
                  "A folder of your own: list the .lddb files it holds (default: the shipped databases' folder: "
                  "$LDDB_DATA_DIR, else share/lddb beside the program, beside liblddb, the install's, and the source tree's lddb/ "
                  "for a build tree only)");
  cmd->callback([a, &chosen] { chosen = [a] { return run_info(*a); }; });
}

}  // namespace lddb::cli
