// lddb/rule.hpp: a movement rule as a value: its kind and options, its canonical name.
//
// A database records the rule it was built for and a query is checked against it. What a
// rule allows is in lddb/moves.hpp (cells) and lddb/segments.hpp (vertices); docs/rules.md
// states every rule in words.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "lddb/cost.hpp"

namespace lddb {

enum class rule_kind : std::uint8_t { tile = 0, octile = 1, any_angle = 2 };

// Octile: may a diagonal move pass beside blocked cells?
enum class corner_cutting : std::uint8_t {
  forbidden = 0,      // both side cells must be free (Moving AI / GPPC; the default)
  one_side_free = 1,  // at least one side cell must be free
  allowed = 2,        // the side cells do not matter (some games); the target must be free
};

// Any-angle: may a path get from one free side of a double corner (a vertex between two
// diagonally opposite blocked cells) to the other through that vertex?
enum class squeezing : std::uint8_t {
  forbidden = 0,  // no: the GPPC any-angle rule (the default; lddb/segments.hpp)
  allowed = 1,    // yes: the rule of most older Theta* code
};

// A movement rule is a value: a database records it and a query is checked against it.
struct rule {
  rule_kind kind = rule_kind::octile;
  corner_cutting corners = corner_cutting::forbidden;  // octile only
  squeezing squeeze = squeezing::forbidden;            // any-angle only
  cost_t diagonal = kSqrt2Cost;                        // octile only; tile and any-angle keep the default

  static rule tile() { return rule{rule_kind::tile}; }
  static rule octile(corner_cutting c = corner_cutting::forbidden, cost_t diag = kSqrt2Cost) {
    return rule{rule_kind::octile, c, squeezing::forbidden, diag};
  }
  static rule any_angle(squeezing s = squeezing::forbidden) {
    return rule{rule_kind::any_angle, corner_cutting::forbidden, s};
  }

  // Any-angle searches the cell corners; tile and octile search the cells.
  bool on_vertices() const { return kind == rule_kind::any_angle; }

  // The symmetries of the square (see block_shape) this rule is invariant under, one bit
  // per transform. Every rule we have today is invariant under all eight; a variant that
  // is not (a cheaper move east, say) must clear the bits it breaks, and the generator
  // and reader then never use them.
  std::uint8_t symmetry_mask() const { return 0xFF; }

  // "tile", "octile", "octile:corners=one-side-free,diagonal=1.5", "octile:corners=allowed",
  // "any-angle",
  // "any-angle:squeeze=allowed". Defaults are omitted, so the name is canonical.
  std::string name() const;
  // Inverse of name(); also accepts the options in any order. nullopt with *why set on error.
  static std::optional<rule> parse(std::string_view text, std::string* why = nullptr);
  // rule_fields_error on this rule's fields: nullopt when they form a rule, else what is wrong.
  std::optional<std::string> fields_error() const;

  friend bool operator==(const rule&, const rule&) = default;
};

// An octile diagonal move costs between one and two straight moves.
inline constexpr cost_t kMinDiagonalCost = kCostOne, kMaxDiagonalCost = 2 * kCostOne;

// The one check of a rule's stored fields, as raw numbers (the header bytes, the recipe
// manifest and the text form all validate through it): each field known, the diagonal cost
// in [1, 2] for octile, and every field that does not apply to the kind at its default, so
// that one rule has one encoding. nullopt when they form a rule, else what is wrong.
std::optional<std::string> rule_fields_error(std::uint64_t kind, std::uint64_t corners, std::uint64_t squeeze,
                                             std::uint64_t diagonal);
// The rule those fields name; call only when rule_fields_error returned nullopt.
rule rule_from_fields(std::uint64_t kind, std::uint64_t corners, std::uint64_t squeeze, std::uint64_t diagonal);

// Parses a diagonal cost such as "1.5" or "sqrt2" into cost units (must lie in [1, 2]).
std::optional<cost_t> parse_diagonal_cost(std::string_view text);

}  // namespace lddb
