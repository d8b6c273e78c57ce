// lddb/cost.hpp: fixed-point cost arithmetic.
//
// Costs are fixed-point integers (cost_t, one unit of length = kCostOne), so every search
// compares the same integers on every platform and thread count.
#pragma once

#include <cmath>
#include <cstdint>

namespace lddb {

using cost_t = std::uint64_t;
inline constexpr int kCostShift = 32;
inline constexpr cost_t kCostOne = cost_t{1} << kCostShift;
inline constexpr cost_t kUnreachable = ~cost_t{0};
// round(sqrt(2) * 2^32), the default octile diagonal.
inline constexpr cost_t kSqrt2Cost = 6074001000ull;

// Euclidean length of a lattice vector in cost units, rounded to nearest. sqrt is
// correctly rounded by IEEE 754 and the scaling is exact, so the result is the same on
// every platform. For lengths below 2^20 the scaled value is below 2^52, where adding
// 0.5 is exact, so truncating that sum rounds exactly like llround, without the call; and
// it is below 2^63, so it converts as a signed value, in one instruction.
// euclid_cost_of_squared takes dx * dx + dy * dy, already a double.
inline cost_t euclid_cost_of_squared(double squared) {
  return static_cast<cost_t>(static_cast<std::int64_t>(std::sqrt(squared) * static_cast<double>(kCostOne) + 0.5));
}
inline cost_t euclid_cost(std::int64_t dx, std::int64_t dy) {
  return euclid_cost_of_squared(static_cast<double>(dx * dx + dy * dy));
}

// A length in cost units rounded to the nearest multiple of 2^-scale_log2, counted in those
// multiples: how an any-angle database stores a length (the generator), and how Block A*
// prices the straight segments of an open square so that they match the database's.
inline cost_t round_to_units(cost_t c, int scale_log2) {
  const int shift = kCostShift - scale_log2;
  return (c + (cost_t{1} << (shift - 1))) >> shift;
}

inline double cost_to_double(cost_t c) { return static_cast<double>(c) / static_cast<double>(kCostOne); }

}  // namespace lddb
