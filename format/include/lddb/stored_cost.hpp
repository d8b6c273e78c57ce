// lddb/stored_cost.hpp: how a database stores a cost in 16 bits (docs/format.md, §4 "Costs").
//
// The format decides, per rule, the encoding and scale (cost_format_for); the generator
// encodes through encode_cell_cost and encode_length_cost, and the reader decodes through
// decode_stored_cost, so the two directions cannot disagree.
#pragma once

#include <cstdint>

#include "lddb/cost.hpp"
#include "lddb/rule.hpp"

namespace lddb {

enum class cost_encoding : std::uint8_t {
  // value * 2^-scale_log2 units of length.
  fixed_point = 0,
  // exact octile form: low byte = straight moves, high byte = diagonal moves;
  // cost = straight * kCostOne + diagonal * rule.diagonal.
  octile_pair = 1,
};
inline constexpr std::uint16_t kStoredUnreachable = 0xFFFF;

// How a database stores costs for a rule: (encoding, scale_log2).
struct cost_format {
  cost_encoding encoding;
  std::uint8_t scale_log2;
};
// Tile: steps, exactly. Octile: the move counts, exactly. Any-angle: lengths rounded to a
// fixed-point scale.
cost_format cost_format_for(const rule& r);

// The stored value of a cell path of `straight` straight and `diagonal` diagonal moves
// under rule r. Throws std::runtime_error when it does not fit the encoding.
std::uint16_t encode_cell_cost(const rule& r, int straight, int diagonal);
// The stored value of a path of `length` cost units under rule r (fixed point: rounded to
// the rule's scale). Throws std::runtime_error when it does not fit.
std::uint16_t encode_length_cost(const rule& r, cost_t length);

// The cost, in cost units, of stored value v of each encoding: kUnreachable for
// kStoredUnreachable. Fixed point: v << shift, shift = kCostShift - scale_log2. Octile
// pair: the two move counts priced at kCostOne and `diagonal`. A hot loop picks one of the
// two once; decode_stored_cost picks per value.
inline cost_t decode_fixed_point(std::uint16_t v, int shift) {
  return v == kStoredUnreachable ? kUnreachable : cost_t{v} << shift;
}
inline cost_t decode_octile_pair(std::uint16_t v, cost_t diagonal) {
  return v == kStoredUnreachable ? kUnreachable : cost_t(v & 0xFFu) * kCostOne + cost_t(v >> 8u) * diagonal;
}
inline cost_t decode_stored_cost(std::uint16_t v, bool octile_pair, int shift, cost_t diagonal) {
  return octile_pair ? decode_octile_pair(v, diagonal) : decode_fixed_point(v, shift);
}

// A length in cost units as a fixed-point database of scale_log2 would store and decode
// it (rounded to the nearest 2^-scale_log2), for costs computed at run time that must
// compare exactly with stored ones (Block A*'s open squares).
inline cost_t as_stored_length(cost_t length, int scale_log2) {
  return round_to_units(length, scale_log2) << (kCostShift - scale_log2);
}

}  // namespace lddb
