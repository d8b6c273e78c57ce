// Costs as stored: the encoding per rule and the encoders. See lddb/stored_cost.hpp.
#include "lddb/stored_cost.hpp"

#include <stdexcept>
#include <string>

namespace lddb {

namespace {

// Any-angle lengths in units of 2^-11: lengths below 32 units fit (checked_store refuses more).
constexpr std::uint8_t kAnyAngleScaleLog2 = 11;

std::uint16_t checked_store(std::uint64_t value, const rule& r) {
  if (value >= kStoredUnreachable) throw std::runtime_error("a cost of rule " + r.name() + " does not fit in 16 bits");
  return static_cast<std::uint16_t>(value);
}

}  // namespace

cost_format cost_format_for(const rule& r) {
  switch (r.kind) {
    case rule_kind::tile:
      return {cost_encoding::fixed_point, 0};
    case rule_kind::octile:
      return {cost_encoding::octile_pair, 0};
    case rule_kind::any_angle:
      return {cost_encoding::fixed_point, kAnyAngleScaleLog2};
  }
  throw std::logic_error("unknown rule kind");
}

std::uint16_t encode_cell_cost(const rule& r, int straight, int diagonal) {
  const cost_format f = cost_format_for(r);
  if (f.encoding == cost_encoding::octile_pair) {
    if (straight > 255 || diagonal > 255) throw std::runtime_error("octile path too long for its encoding");
    return checked_store(static_cast<std::uint64_t>(straight | (diagonal << 8)), r);
  }
  const cost_t length = static_cast<cost_t>(straight) * kCostOne + static_cast<cost_t>(diagonal) * r.diagonal;
  return checked_store(round_to_units(length, f.scale_log2), r);
}

std::uint16_t encode_length_cost(const rule& r, cost_t length) {
  const cost_format f = cost_format_for(r);
  if (f.encoding != cost_encoding::fixed_point)
    throw std::logic_error("rule " + r.name() + " stores move counts, not lengths");
  return checked_store(round_to_units(length, f.scale_log2), r);
}

}  // namespace lddb
