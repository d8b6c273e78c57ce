// Rule names: printing and parsing them. See lddb/rule.hpp.
#include "lddb/rule.hpp"

#include <charconv>
#include <cstdio>
#include <optional>
#include <string>
#include <stdexcept>
#include <vector>

namespace lddb {

namespace {

std::string diagonal_text(cost_t d) {
  if (d == kSqrt2Cost) return "sqrt2";
  // Shortest decimal that parses back to the same fixed-point value.
  char buf[64];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*f", digits, cost_to_double(d));
    if (parse_diagonal_cost(buf) == d) break;
  }
  std::string s = buf;
  while (s.size() > 3 && s.back() == '0') s.pop_back();
  return s;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = s.find(sep, start);
    out.push_back(s.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return out;
}

}  // namespace

std::optional<cost_t> parse_diagonal_cost(std::string_view text) {
  if (text == "sqrt2" || text == "sqrt(2)") return kSqrt2Cost;
  double v = 0;
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  // Scaling by 2^32 is exact, so this is the range of rule_fields_error, tested before rounding.
  const double scaled = v * static_cast<double>(kCostOne);
  if (ec != std::errc{} || ptr != end ||
      !(scaled >= static_cast<double>(kMinDiagonalCost) && scaled <= static_cast<double>(kMaxDiagonalCost)))
    return std::nullopt;
  return static_cast<cost_t>(std::llround(scaled));
}

std::optional<std::string> rule_fields_error(std::uint64_t kind, std::uint64_t corners, std::uint64_t squeeze,
                                             std::uint64_t diagonal) {
  using std::to_string;
  if (kind > 2) return "rule kind " + to_string(kind) + " is unknown";
  if (corners > 2) return "corner cutting " + to_string(corners) + " is unknown";
  if (squeeze > 1) return "squeezing " + to_string(squeeze) + " is unknown";
  const auto k = static_cast<rule_kind>(kind);
  if (k != rule_kind::octile && corners != 0) return "corner cutting is set for a rule that is not octile";
  if (k != rule_kind::any_angle && squeeze != 0) return "squeezing is set for a rule that is not any-angle";
  if (k == rule_kind::octile ? (diagonal < kMinDiagonalCost || diagonal > kMaxDiagonalCost) : diagonal != kSqrt2Cost)
    return "diagonal cost " + to_string(diagonal) + " is outside its range";
  return std::nullopt;
}

rule rule_from_fields(std::uint64_t kind, std::uint64_t corners, std::uint64_t squeeze, std::uint64_t diagonal) {
  rule r;
  r.kind = static_cast<rule_kind>(kind);
  r.corners = static_cast<corner_cutting>(corners);
  r.squeeze = static_cast<squeezing>(squeeze);
  r.diagonal = diagonal;
  return r;
}

std::optional<std::string> rule::fields_error() const {
  return rule_fields_error(static_cast<std::uint64_t>(kind), static_cast<std::uint64_t>(corners),
                           static_cast<std::uint64_t>(squeeze), diagonal);
}

std::string rule::name() const {
  switch (kind) {
    case rule_kind::tile:
      return "tile";
    case rule_kind::octile: {
      std::string s = "octile";
      std::string opts;
      if (corners == corner_cutting::one_side_free) opts += "corners=one-side-free";
      if (corners == corner_cutting::allowed) opts += "corners=allowed";
      if (diagonal != kSqrt2Cost) opts += (opts.empty() ? "" : ",") + std::string("diagonal=") + diagonal_text(diagonal);
      return opts.empty() ? s : s + ":" + opts;
    }
    case rule_kind::any_angle:
      return squeeze == squeezing::allowed ? "any-angle:squeeze=allowed" : "any-angle";
  }
  return "unknown";
}

std::optional<rule> rule::parse(std::string_view text, std::string* why) {
  auto fail = [&](std::string msg) -> std::optional<rule> {
    if (why) *why = std::move(msg);
    return std::nullopt;
  };
  const std::size_t colon = text.find(':');
  const std::string_view kind_text = text.substr(0, colon);
  rule r;
  if (kind_text == "tile") {
    r = tile();
  } else if (kind_text == "octile") {
    r = octile();
  } else if (kind_text == "any-angle" || kind_text == "anyangle" || kind_text == "any_angle") {
    r = any_angle();
  } else {
    return fail("unknown rule '" + std::string(kind_text) + "' (expected tile, octile or any-angle)");
  }
  const std::vector<std::string_view> options =
      colon == std::string_view::npos ? std::vector<std::string_view>{} : split(text.substr(colon + 1), ',');
  for (std::string_view opt : options) {
    const std::size_t eq = opt.find('=');
    if (eq == std::string_view::npos) return fail("rule option '" + std::string(opt) + "' is not key=value");
    const std::string_view key = opt.substr(0, eq), value = opt.substr(eq + 1);
    if (r.kind == rule_kind::octile && key == "corners") {
      if (value == "forbidden") r.corners = corner_cutting::forbidden;
      else if (value == "one-side-free") r.corners = corner_cutting::one_side_free;
      else if (value == "allowed") r.corners = corner_cutting::allowed;
      else return fail("corners must be forbidden, one-side-free or allowed, not '" + std::string(value) + "'");
    } else if (r.kind == rule_kind::octile && key == "diagonal") {
      const auto d = parse_diagonal_cost(value);
      if (!d) return fail("diagonal must be sqrt2 or a number in [1, 2], not '" + std::string(value) + "'");
      r.diagonal = *d;
    } else if (r.kind == rule_kind::any_angle && key == "squeeze") {
      if (value == "forbidden") r.squeeze = squeezing::forbidden;
      else if (value == "allowed") r.squeeze = squeezing::allowed;
      else return fail("squeeze must be forbidden or allowed, not '" + std::string(value) + "'");
    } else {
      return fail("rule " + std::string(kind_text) + " has no option '" + std::string(key) + "'");
    }
  }
  if (auto error = r.fields_error()) return fail("rule '" + std::string(text) + "': " + *error);
  return r;
}

}  // namespace lddb
