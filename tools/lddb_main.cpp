// tools/lddb_main.cpp: the `lddb` command-line program.
//
//   lddb gen     build a database for a movement rule and block size
//   lddb verify  check that database files are intact
//   lddb dump    show what a database holds, down to one pattern's entry
//   lddb info    open and verify every database shipped in lddb/ and summarise them
//
// This file only wires CLI11 to the subcommands (tools/cmd_*.cpp) and turns every error
// into one line on stderr and an exit status below 128.
#include <cstdio>
#include <exception>
#include <iostream>
#include <new>
#include <string>

#include <CLI/CLI.hpp>

#include "cli_common.hpp"
#include "lddb/generator.hpp"

namespace {

using namespace lddb::cli;

const char* const kGenFooter = R"(Rules: tile, octile, any-angle, with options after a colon, e.g.
  octile:corners=one-side-free,diagonal=1.5   any-angle:squeeze=allowed
Examples:
  lddb gen --rule octile --block 4 --out lddb/octile-4.lddb
  lddb gen --rule any-angle --squeeze allowed --block 3 --out aa3.lddb --threads 2
  lddb gen --like lddb/tile-4.lddb --out tile-4-again.lddb
)";

const char* const kDumpFooter = R"(Examples:
  lddb dump lddb/octile-4.lddb
  lddb dump lddb/any-angle-4.lddb --pattern 0x0660
  lddb dump lddb/any-angle-4.lddb --pattern 0x0660 --pair 0,9
  lddb dump lddb/tile-4.lddb --json | python3 -m json.tool
)";

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"lddb: build, check and inspect Local Distance Databases for Block A* grid pathfinding"};
  app.set_version_flag("--version", std::string(lddb::kGeneratorVersion));
  app.require_subcommand(1);
  app.footer("Run `lddb <command> --help` for a command's options.");

  // ---- gen
  gen_args gen;
  auto* gen_cmd = app.add_subcommand("gen", "Generate a database for a movement rule and block size");
  auto* rule_opt = gen_cmd->add_option("--rule,-r", gen.rule_text,
                                       "Movement rule: tile, octile, any-angle (options after ':')");
  auto* block_opt = gen_cmd->add_option("--block,-b", gen.block, "Block size b (b x b cells), 2..5")
                        ->check(CLI::Range(2, 5))
                        ->capture_default_str();
  gen_cmd->add_option("--out,-o", gen.out, "Output file (written atomically)")->required();
  gen_cmd->add_option("--threads,-j", gen.threads, "Worker threads; 0 = all cores")
      ->check(CLI::Range(0, 1024))
      ->capture_default_str();
  auto* corners_opt = gen_cmd->add_option("--corners", gen.corners, "Octile corner cutting")
                          ->check(CLI::IsMember({"forbidden", "one-side-free"}));
  auto* diagonal_opt =
      gen_cmd->add_option("--diagonal", gen.diagonal, "Octile diagonal cost: sqrt2 or a number in [1, 2]");
  auto* squeeze_opt = gen_cmd->add_option("--squeeze", gen.squeeze, "Any-angle squeezing through double corners")
                          ->check(CLI::IsMember({"forbidden", "allowed"}));
  auto* nosym_opt = gen_cmd->add_flag("--no-symmetry", gen.no_symmetry,
                                      "Store every pattern instead of one per symmetry class");
  auto* zstd_opt = gen_cmd->add_option("--zstd-level", gen.zstd_level, "zstd level 1..22; 0 stores sections raw [19]")
                       ->check(CLI::Range(0, 22));
  auto* like_opt = gen_cmd->add_option("--like", gen.like,
                                       "Rebuild with the recipe recorded in this database (byte-identical)");
  for (CLI::Option* o : {rule_opt, block_opt, corners_opt, diagonal_opt, squeeze_opt, nosym_opt, zstd_opt})
    like_opt->excludes(o);
  gen_cmd->footer(kGenFooter);

  // ---- verify
  std::vector<std::string> verify_files;
  auto* verify_cmd = app.add_subcommand("verify", "Check that database files are intact (exit 0 only if all are)");
  verify_cmd->add_option("FILE", verify_files, "Database files")->required();

  // ---- dump
  dump_args dump;
  auto* dump_cmd = app.add_subcommand("dump", "Show a database's header, manifest, sections, statistics and entries");
  dump_cmd->add_option("FILE", dump.file, "Database file")->required();
  dump_cmd->add_flag("--json", dump.json, "Print JSON instead of text");
  dump_cmd->add_flag("--no-stats", dump.no_stats, "Skip the statistics that read every table");
  auto* pattern_opt =
      dump_cmd->add_option("--pattern,-p", dump.pattern, "Show one block pattern (pattern_code, decimal or 0x hex)");
  dump_cmd->add_option("--pair", dump.pair, "With --pattern: only the pair A,B of boundary indices")
      ->needs(pattern_opt);
  dump_cmd->footer(kDumpFooter);

  // ---- info
  info_args info;
  auto* info_cmd = app.add_subcommand("info", "Open and verify every database shipped in lddb/ and summarise them");
  info_cmd->add_option("--dir", info.dir, "Database folder (default: $LDDB_DATA_DIR, else the source tree's lddb/)");

  // CLI11 would only say "a subcommand is required" for a misspelt one; name it instead.
  if (argc > 1 && argv[1][0] != '-') {
    const std::string first = argv[1];
    if (first != "gen" && first != "verify" && first != "dump" && first != "info") {
      std::cerr << "lddb: error: unknown command '" << first << "' (expected gen, verify, dump or info)\n"
                << "(run `lddb --help` for usage)\n";
      return kExitUsage;
    }
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string where = "lddb";
    for (const CLI::App* sub : app.get_subcommands()) where += " " + sub->get_name();
    std::cerr << where << ": error: " << e.what() << "\n(run `" << where << " --help` for usage)\n";
    return kExitUsage;
  }

  std::string where = "lddb";
  try {
    if (gen_cmd->parsed()) {
      where = "lddb gen";
      return run_gen(gen);
    }
    if (verify_cmd->parsed()) {
      where = "lddb verify";
      return run_verify(verify_files);
    }
    if (dump_cmd->parsed()) {
      where = "lddb dump";
      return run_dump(dump);
    }
    if (info_cmd->parsed()) {
      where = "lddb info";
      return run_info(info);
    }
  } catch (const usage_error& e) {
    std::cout.flush();
    std::cerr << where << ": error: " << e.what() << "\n";
    return kExitUsage;
  } catch (const failure& e) {
    std::cout.flush();
    std::cerr << where << ": error: " << e.what() << "\n";
    return kExitFailure;
  } catch (const std::bad_alloc&) {
    std::cout.flush();
    std::cerr << where << ": error: out of memory\n";
    return kExitFailure;
  } catch (const std::exception& e) {
    std::cout.flush();
    std::cerr << where << ": error: " << e.what() << "\n";
    return kExitFailure;
  } catch (...) {
    std::cerr << where << ": error: unexpected failure\n";
    return kExitFailure;
  }
  return kExitUsage;
}
