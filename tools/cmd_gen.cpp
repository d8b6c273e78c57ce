// tools/cmd_gen.cpp: `lddb gen`, one database for a movement rule and block size.
//
// The recipe comes either from the command line or, with --like, from the manifest of an
// existing database; either way generation is a pure function of the recipe, so
// `gen --like X` rebuilds X byte for byte. The progress bar goes to stderr, and only when
// stderr is a terminal, so logs and pipes stay clean.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "cli_common.hpp"
#include "commands.hpp"
#include "lddb/format.hpp"
#include "lddb/generator.hpp"
#include "lddb/block_shape.hpp"

namespace lddb::cli {

namespace {

struct gen_args {
  std::string rule_text;  // empty when --like is given
  int block = 4;
  std::string out;
  int threads = 0;
  std::optional<std::string> corners, diagonal, squeeze;
  bool no_symmetry = false;
  std::optional<int> zstd_level;
  std::optional<std::string> like;
  bool stats = false;  // print the size after each compression stage
};

const char* const kGenFooter = R"(Rules: tile, octile, any-angle, with options after a colon, e.g.
  octile:corners=one-side-free,diagonal=1.5   any-angle:squeeze=allowed
  octile corners: forbidden (default; both side cells of a diagonal free), one-side-free
  (one of them free), allowed (neither need be free; the target cell must be)
Examples:
  lddb gen --rule octile --block 4 --out lddb/octile-4.lddb
  lddb gen --rule any-angle --squeeze allowed --block 3 --out aa3.lddb --threads 2
  lddb gen --like lddb/tile-4.lddb --out tile-4-again.lddb
)";

using clock_type = std::chrono::steady_clock;

// Applies --corners/--diagonal/--squeeze to the rule named by --rule, rejecting an option
// the rule kind does not have.
rule rule_from_args(const gen_args& a) {
  if (a.rule_text.empty()) throw usage_error("--rule is required (or --like FILE to copy a database's recipe)");
  std::string why;
  std::optional<rule> r = rule::parse(a.rule_text, &why);
  if (!r) throw usage_error("--rule " + a.rule_text + ": " + why);
  const std::string kind = rule{r->kind}.name();
  if (a.corners) {
    if (r->kind != rule_kind::octile)
      throw usage_error("--corners applies only to octile rules, not " + kind);
    // The rule's own parser names the values, so --corners and corners= cannot drift apart.
    const std::optional<rule> named = rule::parse("octile:corners=" + *a.corners, &why);
    if (!named) throw usage_error("--corners " + *a.corners + ": " + why);
    r->corners = named->corners;
  }
  if (a.diagonal) {
    if (r->kind != rule_kind::octile)
      throw usage_error("--diagonal applies only to octile rules, not " + kind);
    const std::optional<cost_t> d = parse_diagonal_cost(*a.diagonal);
    if (!d) throw usage_error("--diagonal " + *a.diagonal + ": must be sqrt2 or a number in [1, 2]");
    r->diagonal = *d;
  }
  if (a.squeeze) {
    if (r->kind != rule_kind::any_angle)
      throw usage_error("--squeeze applies only to any-angle rules, not " + kind);
    r->squeeze = *a.squeeze == "allowed" ? squeezing::allowed : squeezing::forbidden;
  }
  return *r;
}

recipe recipe_from_like(const std::string& path) {
  database::open_result opened = database::open(path);
  if (!opened) throw failure("--like " + opened.message);
  try {
    recipe rc = recipe_from_manifest(opened.db->manifest());
    rc.movement = rule_as_written(rc.movement, opened.db->info().version);  // as the reader names it
    return rc;
  } catch (const std::exception& e) {
    throw failure("--like " + path + ": cannot read the recipe in its manifest: " + e.what());
  }
}

// "[=========>          ]  47%  30801/65536 patterns  0.8 s", redrawn at most 10 times a
// second on one terminal line.
class progress_bar {
 public:
  explicit progress_bar(std::string label) : label_(std::move(label)), start_(clock_type::now()) {}

  void update(std::uint64_t done, std::uint64_t total) {
    const auto now = clock_type::now();
    if (drawn_ && done < total && now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    drawn_ = true;
    constexpr int kWidth = 30;
    const double fraction = total == 0 ? 1.0 : static_cast<double>(done) / static_cast<double>(total);
    const int filled = static_cast<int>(fraction * kWidth);
    std::string bar(static_cast<std::size_t>(kWidth), ' ');
    for (int i = 0; i < filled; ++i) bar[static_cast<std::size_t>(i)] = '=';
    if (filled < kWidth) bar[static_cast<std::size_t>(filled)] = '>';
    const double seconds = std::chrono::duration<double>(now - start_).count();
    std::fprintf(stderr, "\r%s [%s] %3d%%  %llu/%llu patterns  %.1f s", label_.c_str(), bar.c_str(),
                 static_cast<int>(fraction * 100.0), static_cast<unsigned long long>(done),
                 static_cast<unsigned long long>(total), seconds);
    std::fflush(stderr);
  }

  // Replaces the bar with a note on what happens next (compression can take a while).
  void note(const std::string& text) {
    std::fprintf(stderr, "\r\033[K%s", text.c_str());
    std::fflush(stderr);
    drawn_ = true;
  }

  // Erases the bar so the summary line starts clean.
  void finish() {
    if (drawn_) std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
  }

 private:
  std::string label_;
  clock_type::time_point start_, last_{};
  bool drawn_ = false;
};

int run_gen(const gen_args& a) {
  recipe r;
  if (a.like) {
    r = recipe_from_like(*a.like);
    if (r.generator_version != kGeneratorVersion)
      std::cerr << "lddb gen: warning: " << *a.like << " was built by " << r.generator_version << ", this is "
                << kGeneratorVersion << "; the output may differ\n";
  } else {
    r.movement = rule_from_args(a);
    r.block = a.block;
    r.use_symmetry = !a.no_symmetry;
    if (a.zstd_level) r.zstd_level = *a.zstd_level;
  }
  if (r.block < block_shape::kMinBlock || r.block > block_shape::kMaxBlock)
    throw usage_error("block size " + std::to_string(r.block) + " is not in 2..5");
  check_output_path("--out", a.out);

  generate_options options;
  options.threads = a.threads;
  std::optional<progress_bar> bar;
  if (::isatty(STDERR_FILENO)) {
    bar.emplace(r.movement.name() + " b=" + std::to_string(r.block));
    options.progress = [&bar](std::uint64_t done, std::uint64_t total) { bar->update(done, total); };
  }

  const auto start = clock_type::now();
  generation_stats stats;
  database_image image;
  try {
    image = generate(r, options, &stats);
  } catch (...) {
    if (bar) bar->finish();
    throw;
  }
  if (bar) bar->note("writing " + a.out + " (zstd level " + std::to_string(r.zstd_level) + ") ...");

  std::string error;
  const bool written = write_database(image, a.out, &error);
  if (bar) bar->finish();
  if (!written) throw failure(error.empty() ? a.out + ": cannot write" : error);
  const double seconds = std::chrono::duration<double>(clock_type::now() - start).count();

  // Counted from the image itself, so the line is right whatever the stats hold.
  const block_shape shape(r.block, r.movement.on_vertices());
  const std::uint64_t canonical = image.cost_id.size();
  const std::uint64_t cost_tables = image.costs.size() / static_cast<std::uint64_t>(shape.pair_count());
  const std::uint64_t path_tables = image.path_offset.empty() ? 0 : image.path_offset.size() - 1;
  std::error_code ec;
  const std::uintmax_t bytes = std::filesystem::file_size(a.out, ec);
  std::printf("%s: rule %s, b=%d, %llu canonical patterns, %llu cost tables, %llu path tables, %llu bytes, %.2f s\n",
              a.out.c_str(), r.movement.name().c_str(), r.block,
              static_cast<unsigned long long>(canonical), static_cast<unsigned long long>(cost_tables),
              static_cast<unsigned long long>(path_tables),
              static_cast<unsigned long long>(ec ? 0 : bytes), seconds);
  if (a.stats) {
    const auto row = [](const char* stage, std::uint64_t v) {
      std::printf("  %-46s %12llu bytes\n", stage, static_cast<unsigned long long>(v));
    };
    std::printf("compression stages (costs 2 bytes each; paths as encoded):\n");
    row("costs, every pattern, every ordered pair", stats.cost_bytes_full);
    row("costs, canonical patterns only (symmetry)", stats.cost_bytes_symmetry);
    row("costs, each unordered pair once", stats.cost_bytes_pairs);
    row("costs, equal tables once", stats.cost_bytes_dedup);
    row("paths, canonical patterns", stats.path_bytes_canonical);
    row("paths, equal tables once", stats.path_bytes_dedup);
    row("file on disk (zstd)", ec ? 0 : bytes);
  }
  return kExitOk;
}

}  // namespace

void add_gen_command(CLI::App& app, command_action& chosen) {
  auto a = std::make_shared<gen_args>();
  auto* cmd = app.add_subcommand("gen", "Generate a database for a movement rule and block size");
  auto* rule_opt = cmd->add_option("--rule,-r", a->rule_text,
                                       "Movement rule: tile, octile, any-angle (options after ':')");
  auto* block_opt = cmd->add_option("--block,-b", a->block, "Block size b (b x b cells), 2..5")
                        ->check(whole_number(2, 5))
                        ->capture_default_str();
  cmd->add_option("--out,-o", a->out, "Output file (written atomically)")->required();
  cmd->add_option("--threads,-j", a->threads, "Worker threads; 0 = all cores")
      ->check(whole_number(0, 1024))
      ->capture_default_str();
  auto* corners_opt = cmd->add_option("--corners", a->corners, "Octile corner cutting")
                          ->check(CLI::IsMember({"forbidden", "one-side-free", "allowed"}));
  auto* diagonal_opt =
      cmd->add_option("--diagonal", a->diagonal, "Octile diagonal cost: sqrt2 or a number in [1, 2]");
  auto* squeeze_opt = cmd->add_option("--squeeze", a->squeeze, "Any-angle squeezing through double corners")
                          ->check(CLI::IsMember({"forbidden", "allowed"}));
  cmd->add_flag("--stats", a->stats, "Print the size after each compression stage");
  auto* nosym_opt = cmd->add_flag("--no-symmetry", a->no_symmetry,
                                      "Store every pattern instead of one per symmetry class");
  auto* zstd_opt = cmd->add_option("--zstd-level", a->zstd_level, "zstd level 1..22; 0 stores sections raw [" + std::to_string(recipe{}.zstd_level) + "]")
                       ->check(whole_number(0, 22));
  auto* like_opt = cmd->add_option("--like", a->like,
                                       "Rebuild with the recipe recorded in this database (byte-identical)");
  for (CLI::Option* o : {rule_opt, block_opt, corners_opt, diagonal_opt, squeeze_opt, nosym_opt, zstd_opt})
    like_opt->excludes(o);
  cmd->footer(kGenFooter);
  cmd->callback([a, &chosen] { chosen = [a] { return run_gen(*a); }; });
}

}  // namespace lddb::cli
