#include "search/block_astar/carry.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "lddb/stored_cost.hpp"

namespace lddb::block_astar_impl {

cost_t carry_metric::cost(int dx, int dy) const {
  const cost_t ax = std::abs(dx), ay = std::abs(dy);
  switch (kind) {
    case ring_metric::manhattan:
      return (ax + ay) * straight;
    case ring_metric::octile: {
      const cost_t lo = ax < ay ? ax : ay, hi = ax < ay ? ay : ax;
      return lo * diagonal + (hi - lo) * straight;
    }
    case ring_metric::euclid:
      break;
  }
  return as_stored_length(euclid_cost(dx, dy), scale_log2);
}

void carry_ring_brute(const carry_metric& m, int last, const cost_t* g, cost_t* out, std::int32_t* from) {
  const int n = 4 * last;
  for (int t = 0; t < n; ++t) {
    int tx = 0, ty = 0;
    ring_point(last, t, tx, ty);
    cost_t best = kUnreachable;
    std::int32_t arg = -1;
    for (int s = 0; s < n; ++s) {
      if (g[s] == kUnreachable) continue;
      int sx = 0, sy = 0;
      ring_point(last, s, sx, sy);
      const cost_t v = g[s] + m.cost(tx - sx, ty - sy);
      if (v < best) {
        best = v;
        arg = s;
      }
    }
    out[t] = best;
    from[t] = arg;
  }
}

namespace {

// Sources in a target side's frame: h[x], x = 0..last, from ring index arg[x], with
//   same side:     x = the place on the side, cost along the side |x - j|;
//   opposite side: x = the place facing, cost across D = last and |x - j| along;
//   a side meeting the target side at a corner: x = the distance from that corner.
// Every route is priced by the same integer sums as carry_metric::cost, so out equals g
// plus a real cost exactly.
struct ring_frame {
  const cost_t* g;
  int last, n;
  cost_t* out;
  std::int32_t* from;
  // Ring index i, for -n < i < 2n.
  int wrap(int i) const { return i >= n ? i - n : i < 0 ? i + n : i; }
  void relax(int t, cost_t v, std::int32_t s) const {
    if (v < out[t]) {
      out[t] = v;
      from[t] = s;
    }
  }
};

// Gathers h[x] = g[ring index base + step * x] for x = 0..last; false when none is finite.
bool gather(const ring_frame& f, int base, int step, carry_scratch& s) {
  s.h.resize(f.last + 1);
  s.arg.resize(f.last + 1);
  bool any = false;
  for (int x = 0; x <= f.last; ++x) {
    const int i = f.wrap(base + step * x);
    s.h[x] = f.g[i];
    s.arg[x] = i;
    any = any || f.g[i] != kUnreachable;
  }
  return any;
}

// out[t(j)] against min over x of h[x] + offset + slope * |x - j|: a 1-D L1 distance
// transform, one pass each way, carrying the best source along.
void line_transform(const ring_frame& f, int base, const carry_scratch& s, cost_t slope, cost_t offset) {
  const int last = f.last;
  cost_t best = kUnreachable;
  std::int32_t arg = -1;
  for (int j = 0; j <= last; ++j) {
    if (best != kUnreachable) best += slope;
    if (s.h[j] < best) {
      best = s.h[j];
      arg = s.arg[j];
    }
    if (best != kUnreachable) f.relax(f.wrap(base + j), best + offset, arg);
  }
  best = kUnreachable;
  for (int j = last; j >= 0; --j) {
    if (best != kUnreachable) best += slope;
    if (s.h[j] < best) {
      best = s.h[j];
      arg = s.arg[j];
    }
    if (best != kUnreachable) f.relax(f.wrap(base + j), best + offset, arg);
  }
}

// Sources at distance a from a corner, targets at distance b from it on the other side:
// octile cost max(a, b) * straight + min(a, b) * c. For a <= b that is straight * b plus
// a prefix minimum of h[a] + c * a; for a > b, c * b plus a suffix minimum of
// h[a] + straight * a. Target b is ring index base + step * b.
void corner_transform(const ring_frame& f, int base, int step, const carry_scratch& s, cost_t straight, cost_t c) {
  const int last = f.last;
  const auto target = [&](int b) { return f.wrap(base + step * b); };
  cost_t best = kUnreachable;
  std::int32_t arg = -1;
  for (int b = 0; b <= last; ++b) {
    if (s.h[b] != kUnreachable && s.h[b] + c * cost_t(b) < best) {
      best = s.h[b] + c * cost_t(b);
      arg = s.arg[b];
    }
    if (best != kUnreachable) f.relax(target(b), best + straight * cost_t(b), arg);
  }
  best = kUnreachable;
  for (int b = last - 1; b >= 0; --b) {
    const int a = b + 1;
    if (s.h[a] != kUnreachable && s.h[a] + straight * cost_t(a) < best) {
      best = s.h[a] + straight * cost_t(a);
      arg = s.arg[a];
    }
    if (best != kUnreachable) f.relax(target(b), best + c * cost_t(b), arg);
  }
}

// Euclid between two sides: row r (a target) against column k (the k-th finite source,
// at place pos[k]). With the exact square root the matrix hd[k] + |v(r, pos[k])| is Monge
// (across: a convex function of pos - r; at a corner: the mixed derivative of
// sqrt(a^2 + b^2) is -ab / r^3 <= 0), so the leftmost row minima move right as r grows
// and divide and conquer finds them all in O(n log n). Row r may use columns lo(r) ..
// hi(r), both non-decreasing in r (a staircase keeps the minima monotone); col[r] = -1 and
// val[r] = infinity where it has none.
template <class Squared, class Lo, class Hi>
void monotone_minima(const carry_scratch& s, Squared sq, Lo lo, Hi hi, int r0, int r1, int k0, int k1,
                     std::int32_t* col, double* val) {
  while (r0 <= r1) {
    const int mid = (r0 + r1) / 2;
    double best = std::numeric_limits<double>::infinity();
    int bk = -1;
    for (int k = std::max(k0, lo(mid)), end = std::min(k1, hi(mid)); k <= end; ++k) {
      const double v = s.hd[k] + std::sqrt(static_cast<double>(sq(mid, s.pos[k]))) * static_cast<double>(kCostOne);
      if (bk < 0 || v < best) {
        best = v;
        bk = k;
      }
    }
    col[mid] = bk;
    val[mid] = best;
    if (bk < 0) {  // the staircase's empty rows are a prefix or a suffix: no bound from mid
      monotone_minima(s, sq, lo, hi, r0, mid - 1, k0, k1, col, val);
      r0 = mid + 1;
      continue;
    }
    monotone_minima(s, sq, lo, hi, r0, mid - 1, k0, bk, col, val);
    r0 = mid + 1;  // the upper half, as a loop
    k0 = bk;
  }
}

// Rounding to stored units moves a cost by up to half a unit, which can break the Monge
// property: the exact minimum is a candidate, not the answer. So each row tries its
// neighbours (the window) under the rounded cost, and is proven when the exact least
// outside the window, less the rounding, cannot beat that; a row that is not (rare: only
// where several routes come within a unit of each other) is priced in full.
constexpr int kEuclidWindow = 1;

// across: sources facing the targets at distance last, else meeting them at a corner.
// Row r is ring index base + step * r.
void euclid_transform(const ring_frame& f, const carry_metric& m, bool across, int base, int step,
                      carry_scratch& s) {
  const int last = f.last;
  s.pos.clear();
  s.hd.clear();
  for (int x = 0; x <= last; ++x)
    if (s.h[x] != kUnreachable) {
      s.pos.push_back(x);
      s.hd.push_back(static_cast<double>(s.h[x]));
    }
  const int cols = static_cast<int>(s.pos.size());
  s.col.resize(last + 1);
  s.col2.resize(last + 1);
  s.before.resize(last + 1);
  s.after.resize(last + 1);
  const auto sq = [&](int r, int x) -> std::int64_t {
    return across ? std::int64_t(x - r) * (x - r) + std::int64_t(last) * last : std::int64_t(x) * x + std::int64_t(r) * r;
  };
  const auto none = [](int) { return 0; };
  const auto all = [&](int) { return cols - 1; };
  monotone_minima(s, sq, none, all, 0, last, 0, cols - 1, s.col.data(), s.before.data());  // values unused
  // The exact least of each row outside its window, before it and after it.
  const auto window_lo = [&](int r) { return s.col[r] - kEuclidWindow; };
  const auto window_hi = [&](int r) { return s.col[r] + kEuclidWindow; };
  monotone_minima(s, sq, none, [&](int r) { return window_lo(r) - 1; }, 0, last, 0, cols - 1, s.col2.data(),
                  s.before.data());
  monotone_minima(s, sq, [&](int r) { return window_hi(r) + 1; }, all, 0, last, 0, cols - 1, s.col2.data(),
                  s.after.data());
  const auto cost = [&](int x, int r) { return across ? m.cost(x - r, last) : m.cost(x, r); };
  // A rounded cost is at least the exact length less half a unit and the rounding to a
  // cost unit; the rest covers the doubles' error (the minima are within a few cost units
  // of the exact ones).
  const double slack = std::ldexp(1.0, kCostShift - m.scale_log2 - 1) + 4096.0, sure = 1.0 - 0x1p-40;
  for (int r = 0; r <= last; ++r) {
    const int t = f.wrap(base + step * r);
    const int k0 = std::max(0, window_lo(r)), k1 = std::min(cols - 1, window_hi(r));
    for (int k = k0; k <= k1; ++k) f.relax(t, s.h[s.pos[k]] + cost(s.pos[k], r), s.arg[s.pos[k]]);
    // Proven when no route outside the window comes within the rounding of it.
    if (std::min(s.before[r], s.after[r]) * sure >= static_cast<double>(f.out[t]) + slack) continue;
    for (int k = 0; k < cols; ++k) f.relax(t, s.h[s.pos[k]] + cost(s.pos[k], r), s.arg[s.pos[k]]);
  }
}

}  // namespace

void carry_ring(const carry_metric& m, int last, const cost_t* g, cost_t* out, std::int32_t* from,
                carry_scratch& scratch) {
  // Octile's transforms need diagonal >= straight (a non-negative slope across); Manhattan
  // is octile with diagonal = 2 * straight, to the bit.
  const bool euclid = m.kind == ring_metric::euclid;
  const cost_t straight = euclid ? kCostOne : m.straight;
  const cost_t diagonal = m.kind == ring_metric::manhattan ? 2 * m.straight : m.diagonal;
  if (!euclid && diagonal < straight) {
    carry_ring_brute(m, last, g, out, from);
    return;
  }
  const int n = 4 * last;
  std::fill(out, out + n, kUnreachable);
  std::fill(from, from + n, -1);
  const ring_frame f{g, last, n, out, from};
  const cost_t c = diagonal - straight;
  for (int side = 0; side < 4; ++side) {
    const int base = side * last;  // the target side's first corner; its ring runs base + j
    // The same side: straight along it (euclid too: an integer length rounds exactly).
    if (gather(f, base, 1, scratch)) line_transform(f, base, scratch, straight, 0);
    // The opposite side, facing place x at ring index base + 3 * last - x.
    if (gather(f, base + 3 * last - (side > 0 ? n : 0), -1, scratch)) {
      if (euclid)
        euclid_transform(f, m, true, base, 1, scratch);
      else
        line_transform(f, base, scratch, c, cost_t(last) * straight);
    }
    // The side before, meeting this one at its first corner: a source a from it is ring
    // index base - a, a target b from it base + b.
    if (gather(f, base, -1, scratch)) {
      if (euclid)
        euclid_transform(f, m, false, base, 1, scratch);
      else
        corner_transform(f, base, 1, scratch, straight, c);
    }
    // The side after, meeting this one at its last corner base + last.
    if (gather(f, base + last, 1, scratch)) {
      if (euclid)
        euclid_transform(f, m, false, base + last, -1, scratch);
      else
        corner_transform(f, base + last, -1, scratch, straight, c);
    }
  }
}

}  // namespace lddb::block_astar_impl
