// The search commands' search options, one per row of lddb/option_table.hpp: --heuristic,
// --weight, --smooth / --raw, --max-expansions, --size, --class, --jumps / --no-jumps,
// --open-squares / --fixed-blocks, --square-levels.
#include <string>

#include "cli_search.hpp"
#include "lddb/option_table.hpp"

namespace lddb::cli {

namespace {

std::string help_of(const option_spec& spec) {
  std::string help(spec.help);
  if (spec.kind == option_kind::choice) help += " One of " + choices_text(spec) + ".";
  if (spec.diagnostic) help += " (For benchmarks.)";
  return help;
}

}  // namespace

void add_search_options(CLI::App* cmd, search_option_args& args) {
  for (const option_spec& spec : search_option_table()) {
    if (spec.tool.empty()) continue;
    const std::string name(spec.name), on = "--" + std::string(spec.tool);
    if (spec.kind == option_kind::flag) {
      cmd->add_flag(on, args.on[name], help_of(spec) + " On.");
      cmd->add_flag("--" + std::string(spec.tool_off), args.off[name], help_of(spec) + " Off.");
    } else {
      cmd->add_option(on, args.text[name], help_of(spec));
    }
  }
}

search_options read_search_options(const search_option_args& args, const rule& r) {
  search_options options;
  for (const option_spec& spec : search_option_table()) {
    const std::string name(spec.name), on = "--" + std::string(spec.tool);
    option_value v;
    if (spec.kind == option_kind::flag) {
      const auto is_set = [&](const std::map<std::string, bool>& m) {
        const auto it = m.find(name);
        return it != m.end() && it->second;
      };
      const bool set_on = is_set(args.on), set_off = is_set(args.off);
      if (set_on && set_off) throw usage_error(on + " and --" + std::string(spec.tool_off) + " exclude each other");
      if (!set_on && !set_off) continue;
      v.flag = set_on ? flag_state::on : flag_state::off;
    } else {
      const auto it = args.text.find(name);
      if (it == args.text.end() || !it->second) continue;
      if (std::string why = parse_search_option(spec, *it->second, v); !why.empty()) throw usage_error(on + " " + why);
    }
    if (std::string why = set_search_option(options, r, spec, v); !why.empty()) throw usage_error(on + " " + why);
  }
  return options;
}

}  // namespace lddb::cli
