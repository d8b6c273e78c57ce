// A simple subgoal graph kept current by local repair: subgoal_graph.hpp says what and why.
#include "subgoal_graph.hpp"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <queue>

namespace subgoals {

using lddb::cost_t;
using lddb::point;

namespace {
constexpr int kBucket = 16;
constexpr cost_t kDiag = lddb::kSqrt2Cost;
constexpr cost_t kOne = lddb::kCostOne;

cost_t octile(point a, point b) {
  const int dx = std::abs(a.x - b.x), dy = std::abs(a.y - b.y);
  return static_cast<cost_t>(std::min(dx, dy)) * kDiag + static_cast<cost_t>(std::abs(dx - dy)) * kOne;
}
}  // namespace

subgoal_graph::subgoal_graph(const lddb::grid_map& m)
    : m_(m), w_(m.width()), h_(m.height()), bw_((w_ + kBucket - 1) / kBucket), bh_((h_ + kBucket - 1) / kBucket) {
  id_.assign(static_cast<std::size_t>(w_) * h_, -1);
  row_words_ = static_cast<std::size_t>(w_ + 63) / 64;
  col_words_ = static_cast<std::size_t>(h_ + 63) / 64;
  sg_rows_.assign(row_words_ * h_, 0);
  sg_cols_.assign(col_words_ * w_, 0);
  buckets_.resize(static_cast<std::size_t>(bw_) * bh_);
  for (int y = 0; y < h_; ++y)
    for (int x = 0; x < w_; ++x)
      if (is_subgoal_cell(x, y)) {
        const auto i = static_cast<std::int32_t>(at_.size());
        id_[static_cast<std::size_t>(y) * w_ + x] = i;
        set_sg_bit(x, y, true);
        at_.push_back({x, y});
        out_.emplace_back();
        read_.push_back({});
        alive_.push_back(1);
        ++live_;
      }
  for (std::int32_t i = 0; i < static_cast<std::int32_t>(at_.size()); ++i) {
    explore(at_[i], nullptr, out_[i], read_[i]);
    enter_buckets(i);
  }
}

std::uint64_t subgoal_graph::sg_bits(const std::vector<std::uint64_t>& lines, std::size_t words, int extent, int line,
                                     int from) const {
  if (from >= extent || from <= -64) return 0;
  const std::uint64_t* l = lines.data() + static_cast<std::size_t>(line) * words;
  if (from < 0) return l[0] << (-from);
  const std::size_t i = static_cast<std::size_t>(from) >> 6;
  const int sh = from & 63;
  std::uint64_t v = l[i] >> sh;
  if (sh && i + 1 < words) v |= l[i + 1] << (64 - sh);
  return v;
}

void subgoal_graph::set_sg_bit(int x, int y, bool on) {
  std::uint64_t& r = sg_rows_[static_cast<std::size_t>(y) * row_words_ + static_cast<std::size_t>(x >> 6)];
  std::uint64_t& c = sg_cols_[static_cast<std::size_t>(x) * col_words_ + static_cast<std::size_t>(y >> 6)];
  const std::uint64_t rb = std::uint64_t{1} << (x & 63), cb = std::uint64_t{1} << (y & 63);
  if (on) {
    r |= rb;
    c |= cb;
  } else {
    r &= ~rb;
    c &= ~cb;
  }
}

bool subgoal_graph::is_subgoal_cell(int x, int y) const {
  if (!free(x, y)) return false;
  for (int dy = -1; dy <= 1; dy += 2)
    for (int dx = -1; dx <= 1; dx += 2)
      if (!free(x + dx, y + dy) && free(x + dx, y) && free(x, y + dy)) return true;
  return false;
}

void subgoal_graph::explore(point p, const point* target, std::vector<edge>& out, box& read) const {
  out.clear();
  read = {p.x, p.y, p.x, p.y};
  const auto touch = [&](int x, int y) {
    read.x0 = std::min(read.x0, x);
    read.y0 = std::min(read.y0, y);
    read.x1 = std::max(read.x1, x);
    read.y1 = std::max(read.y1, y);
  };
  // A stop: a subgoal (its index) or the target (-2); -1 otherwise.
  const auto stop_of = [&](int x, int y) -> std::int32_t {
    if (target && target->x == x && target->y == y) return -2;
    return sg_at(x, y);
  };
  // Clearance from (x, y) along (cx, cy): free non-stop cells before the first blocked cell
  // or stop; `hit` the stop there (or -1). 64 cells a step: the map's blocked bits and the
  // subgoals' bits of the line.
  const auto clearance = [&](int x, int y, int cx, int cy, std::int32_t& hit) {
    const bool rows = cy == 0;
    const int line = rows ? y : x, at = rows ? x : y, dir = rows ? cx : cy;
    int stop;
    if (dir > 0) {
      for (int pos = at + 1;; pos += 64) {
        const std::uint64_t b = (rows ? m_.row_bits(pos, line) : m_.column_bits(line, pos)) |
                                (rows ? sg_bits(sg_rows_, row_words_, w_, line, pos)
                                      : sg_bits(sg_cols_, col_words_, h_, line, pos));
        if (b) {
          stop = pos + std::countr_zero(b);
          break;
        }
      }
    } else {
      for (int pos = at - 1;; pos -= 64) {
        const std::uint64_t b = (rows ? m_.row_bits(pos - 63, line) : m_.column_bits(line, pos - 63)) |
                                (rows ? sg_bits(sg_rows_, row_words_, w_, line, pos - 63)
                                      : sg_bits(sg_cols_, col_words_, h_, line, pos - 63));
        if (b) {
          stop = pos - 63 + (63 - std::countl_zero(b));
          break;
        }
      }
    }
    if (target && (rows ? target->y == y : target->x == x)) {
      const int t = rows ? target->x : target->y;
      if (dir > 0 ? (t > at && t <= stop) : (t < at && t >= stop)) stop = t;
    }
    const int sx = rows ? stop : x, sy = rows ? y : stop;
    touch(sx, sy);
    hit = free(sx, sy) ? stop_of(sx, sy) : -1;
    return (dir > 0 ? stop - at : at - stop) - 1;
  };
  std::int32_t hit;
  static constexpr int kCard[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
  for (const auto& c : kCard) {
    const int k = clearance(p.x, p.y, c[0], c[1], hit);
    if (hit != -1) out.push_back({hit, static_cast<cost_t>(k + 1) * kOne});
  }
  for (int dy = -1; dy <= 1; dy += 2)
    for (int dx = -1; dx <= 1; dx += 2) {
      std::int32_t ignore;
      int max_x = clearance(p.x, p.y, dx, 0, ignore), max_y = clearance(p.x, p.y, 0, dy, ignore);
      int x = p.x, y = p.y;
      for (int i = 1;; ++i) {
        touch(x + dx, y);
        touch(x, y + dy);
        touch(x + dx, y + dy);
        if (!free(x + dx, y) || !free(x, y + dy) || !free(x + dx, y + dy)) break;
        x += dx;
        y += dy;
        if ((hit = stop_of(x, y)) != -1) {
          out.push_back({hit, static_cast<cost_t>(i) * kDiag});
          break;
        }
        const cost_t base = static_cast<cost_t>(i) * kDiag;
        int j = clearance(x, y, dx, 0, hit);
        if (j <= max_x && hit != -1) {
          out.push_back({hit, base + static_cast<cost_t>(j + 1) * kOne});
          --j;
        }
        max_x = std::min(max_x, j);
        j = clearance(x, y, 0, dy, hit);
        if (j <= max_y && hit != -1) {
          out.push_back({hit, base + static_cast<cost_t>(j + 1) * kOne});
          --j;
        }
        max_y = std::min(max_y, j);
      }
    }
}

void subgoal_graph::enter_buckets(std::int32_t i) {
  const box& b = read_[i];
  for (int by = std::max(0, b.y0) / kBucket; by <= std::min(h_ - 1, b.y1) / kBucket; ++by)
    for (int bx = std::max(0, b.x0) / kBucket; bx <= std::min(w_ - 1, b.x1) / kBucket; ++bx)
      buckets_[static_cast<std::size_t>(by) * bw_ + bx].push_back(i);
}

void subgoal_graph::leave_buckets(std::int32_t i) {
  const box& b = read_[i];
  for (int by = std::max(0, b.y0) / kBucket; by <= std::min(h_ - 1, b.y1) / kBucket; ++by)
    for (int bx = std::max(0, b.x0) / kBucket; bx <= std::min(w_ - 1, b.x1) / kBucket; ++bx) {
      auto& v = buckets_[static_cast<std::size_t>(by) * bw_ + bx];
      auto it = std::find(v.begin(), v.end(), i);
      if (it != v.end()) {
        *it = v.back();
        v.pop_back();
      }
    }
}

void subgoal_graph::add_subgoal(int x, int y) {
  std::int32_t i;
  if (!free_ids_.empty()) {
    i = free_ids_.back();
    free_ids_.pop_back();
    at_[i] = {x, y};
    alive_[i] = 1;
  } else {
    i = static_cast<std::int32_t>(at_.size());
    at_.push_back({x, y});
    out_.emplace_back();
    read_.push_back({x, y, x, y});
    alive_.push_back(1);
  }
  read_[i] = {x, y, x, y};
  id_[static_cast<std::size_t>(y) * w_ + x] = i;
  set_sg_bit(x, y, true);
  ++live_;
}

void subgoal_graph::remove_subgoal(std::int32_t i) {
  leave_buckets(i);
  id_[static_cast<std::size_t>(at_[i].y) * w_ + at_[i].x] = -1;
  set_sg_bit(at_[i].x, at_[i].y, false);
  alive_[i] = 0;
  out_[i].clear();
  free_ids_.push_back(i);
  --live_;
}

void subgoal_graph::reexplore(std::int32_t i) {
  leave_buckets(i);
  explore(at_[i], nullptr, out_[i], read_[i]);
  enter_buckets(i);
  ++reexplored;
}

void subgoal_graph::cell_changed(int x, int y) {
  // 1. Subgoal status around the cell.
  std::vector<std::int32_t> fresh;
  for (int yy = y - 1; yy <= y + 1; ++yy)
    for (int xx = x - 1; xx <= x + 1; ++xx) {
      if (xx < 0 || yy < 0 || xx >= w_ || yy >= h_) continue;
      const bool now = is_subgoal_cell(xx, yy);
      const std::int32_t was = sg_at(xx, yy);
      if (now && was < 0) {
        add_subgoal(xx, yy);
        fresh.push_back(sg_at(xx, yy));
      } else if (!now && was >= 0) {
        remove_subgoal(was);
      }
    }
  // 2. The subgoals whose exploration read the 3 x 3 neighbourhood.
  std::vector<std::int32_t> touched;
  for (int by = std::max(0, y - 1) / kBucket; by <= std::min(h_ - 1, y + 1) / kBucket; ++by)
    for (int bx = std::max(0, x - 1) / kBucket; bx <= std::min(w_ - 1, x + 1) / kBucket; ++bx)
      for (std::int32_t i : buckets_[static_cast<std::size_t>(by) * bw_ + bx]) {
        const box& b = read_[i];
        if (b.x0 <= x + 1 && b.x1 >= x - 1 && b.y0 <= y + 1 && b.y1 >= y - 1) touched.push_back(i);
      }
  std::sort(touched.begin(), touched.end());
  touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
  for (std::int32_t i : touched)
    if (alive_[i]) reexplore(i);
  for (std::int32_t i : fresh)
    if (!std::binary_search(touched.begin(), touched.end(), i)) {
      explore(at_[i], nullptr, out_[i], read_[i]);
      enter_buckets(i);
    }
  // Edges into a removed subgoal: dropped at query time (alive_), and every subgoal whose
  // exploration stopped there read its cell, so it was explored again above.
}

cost_t subgoal_graph::find(point s, point g, std::vector<point>& path) {
  path.clear();
  if (s.x == g.x && s.y == g.y) {
    path.push_back(s);
    return 0;
  }
  box ignore;
  explore(s, &g, scratch_s_, ignore);
  for (const edge& e : scratch_s_)
    if (e.to == -2) {  // the goal directly: diagonal first
      path.push_back(s);
      const int dx = g.x - s.x, dy = g.y - s.y, i = std::min(std::abs(dx), std::abs(dy));
      const point bend{s.x + (dx > 0 ? i : -i), s.y + (dy > 0 ? i : -i)};
      if (!(bend.x == s.x && bend.y == s.y) && !(bend.x == g.x && bend.y == g.y)) path.push_back(bend);
      path.push_back(g);
      return e.cost;
    }
  explore(g, nullptr, scratch_g_, ignore);
  const std::size_t n = at_.size();
  if (g_.size() < n + 1) {
    g_.resize(n + 1);
    parent_.resize(n + 1);
    seen_.resize(n + 1, 0);
    to_goal_.resize(n + 1);
    goal_mark_.resize(n + 1, 0);
  }
  if (++stamp_ == 0) {
    std::fill(seen_.begin(), seen_.end(), 0);
    std::fill(goal_mark_.begin(), goal_mark_.end(), 0);
    stamp_ = 1;
  }
  const auto G = static_cast<std::int32_t>(n);
  for (const edge& e : scratch_g_) {
    if (e.to < 0) continue;
    if (goal_mark_[e.to] != stamp_ || e.cost < to_goal_[e.to]) to_goal_[e.to] = e.cost;
    goal_mark_[e.to] = stamp_;
  }
  using item = std::pair<cost_t, std::int32_t>;  // f, node
  std::priority_queue<item, std::vector<item>, std::greater<item>> open;
  const auto relax = [&](std::int32_t v, cost_t gv, std::int32_t from) {
    if (seen_[v] == stamp_ && g_[v] <= gv) return;
    seen_[v] = stamp_;
    g_[v] = gv;
    parent_[v] = from;
    open.push({gv + (v == G ? 0 : octile(at_[v], g)), v});
  };
  for (const edge& e : scratch_s_)
    if (e.to >= 0) relax(e.to, e.cost, -1);
  while (!open.empty()) {
    const auto [f, u] = open.top();
    open.pop();
    if (u == G) break;
    if (f > g_[u] + octile(at_[u], g)) continue;  // stale
    const cost_t gu = g_[u];
    if (goal_mark_[u] == stamp_) relax(G, gu + to_goal_[u], u);
    for (const edge& e : out_[u])
      if (e.to >= 0 && alive_[e.to]) relax(e.to, gu + e.cost, u);
  }
  if (seen_[G] != stamp_) return kNoPath;
  // Turning points: start, each subgoal with the bends between, goal.
  std::vector<point> chain{g};
  for (std::int32_t v = parent_[G]; v >= 0; v = parent_[v]) chain.push_back(at_[v]);
  chain.push_back(s);
  std::reverse(chain.begin(), chain.end());
  path.push_back(s);
  for (std::size_t k = 1; k < chain.size(); ++k) {
    // Every leg goes diagonal first from the point that explored it: the start's and the
    // subgoals' forward, the goal's backward.
    const bool from_goal = k + 1 == chain.size();
    const point a = from_goal ? chain[k] : chain[k - 1], b = from_goal ? chain[k - 1] : chain[k];
    const int dx = b.x - a.x, dy = b.y - a.y, i = std::min(std::abs(dx), std::abs(dy));
    const point bend{a.x + (dx > 0 ? i : -i), a.y + (dy > 0 ? i : -i)};
    if (!(bend.x == a.x && bend.y == a.y) && !(bend.x == b.x && bend.y == b.y)) path.push_back(bend);
    path.push_back(chain[k]);
  }
  return g_[G];
}

std::size_t subgoal_graph::edges() const {
  std::size_t e = 0;
  for (std::size_t i = 0; i < out_.size(); ++i)
    if (alive_[i]) e += out_[i].size();
  return e;
}

std::size_t subgoal_graph::memory_bytes() const {
  std::size_t b = id_.size() * 4 + at_.size() * (sizeof(point) + sizeof(box) + sizeof(std::vector<edge>) + 1);
  for (const auto& o : out_) b += o.capacity() * sizeof(edge);
  for (const auto& v : buckets_) b += v.capacity() * 4 + sizeof(v);
  return b;
}

}  // namespace subgoals
