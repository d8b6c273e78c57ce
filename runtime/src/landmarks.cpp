// Landmark tables: a Dijkstra per landmark over the rule's unit moves (landmark_dial.hpp).
// See lddb/landmarks.hpp.
#include "lddb/landmarks.hpp"

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "lddb/moves.hpp"
#include "lddb/splitmix.hpp"
#include "landmark_dial.hpp"

namespace lddb {

const char* landmark_placement_name(landmark_placement p) {
  return p == landmark_placement::farthest ? "farthest" : "random";
}

std::optional<landmark_placement> parse_landmark_placement(std::string_view text) {
  if (text == "farthest") return landmark_placement::farthest;
  if (text == "random") return landmark_placement::random;
  return std::nullopt;
}

cost_t landmark_set::lower_bound(point a, point b) const {
  if (count_ == 0 || !has_point(a) || !has_point(b)) return 0;
  const std::uint32_t* da = distances(a);
  const std::uint32_t* db = distances(b);
  std::uint32_t best = 0;
  for (int i = 0; i < count_; ++i) {
    if (da[i] == kUnreached || db[i] == kUnreached) continue;
    const std::uint32_t d = da[i] > db[i] ? da[i] - db[i] : db[i] - da[i];
    if (d > best) best = d;
  }
  return static_cast<cost_t>(best) << shift_;
}

namespace {

// Any-angle: cos(pi/8) bounds a segment's length over its octile length from below; the
// factor 1 - 2^-10 keeps the bound under Block A*'s stored lengths too, which round each
// length to the nearest 2^-11 of a unit (docs/format.md), so fall short of it by at most
// 2^-12 of it.
constexpr double kAnyAngleScale = 0.92387953251128675613 * (1.0 - 1.0 / 1024.0);

enum class phase : std::uint8_t { probe, place, search, finished };


}  // namespace

struct landmark_builder::state {
  grid_map map;
  rule r;
  int count;
  landmark_placement placement;
  std::uint64_t rng;
  landmark_set set;
  bool vertices = false;
  std::size_t n = 0;                  // points: cells or vertices
  std::array<std::ptrdiff_t, 8> offset{};
  // The Dijkstra under way: its distances, row-major (4 bytes a point, where the table's
  // column would touch a cache line of K values a point; copied into the table when done),
  // and its queues.
  std::vector<std::uint32_t> dist;
  landmark_dial::queues queues;
  // The legal moves of every point (landmark_dial::legal_moves), read once for the map
  // instead of once a point for every Dijkstra: 1 byte a point, while building.
  std::vector<std::uint8_t> legal;
  // Placement: the best probe so far and the distance from each point to its nearest landmark.
  std::vector<std::uint32_t> best_probe, nearest;
  std::size_t best_reached = 0, reached = 0;
  int probes = 0;
  phase at = phase::probe;
  int placed = 0;  // landmarks whose search is over and whose table is filled
  std::vector<point> given;  // landmarks placed by the caller
  std::uint64_t total_work = 0, work_done = 0;

  state(const rule& rr, const grid_map& m, int k, landmark_placement p, std::uint64_t seed)
      : map(m), r(rr), count(k), placement(p), rng(seed) {}

  point at_index(std::size_t i) const {
    const std::size_t stride = static_cast<std::size_t>(set.stride_);
    return {static_cast<int>(i % stride), static_cast<int>(i / stride)};
  }
  std::size_t index_of(point p) const {
    return static_cast<std::size_t>(p.y) * static_cast<std::size_t>(set.stride_) + static_cast<std::size_t>(p.x);
  }
  void start_search(std::size_t source) {
    landmark_dial::clear(queues);
    dist.assign(n, landmark_set::kUnreached);
    dist[source] = 0;
    queues.queue[2].push_back(source);
    reached = 0;
  }
  // Settles points until `budget` runs out; true when the search is over.
  bool run_search(std::uint64_t& budget) {
    const std::uint64_t before = reached;
    const bool over = landmark_dial::run(
        queues, budget, reached, [this](std::size_t i) -> std::uint32_t& { return dist[i]; },
        [this](std::size_t i) { return static_cast<unsigned>(legal[i]); },
        offset.data(), set.unit_);
    work_done += reached - before;
    return over;
  }

  // A seeded random start: a free cell, or for vertices the top-left corner of one (a
  // vertex whose own cell is free is an endpoint under every any-angle rule).
  std::size_t random_start() {
    const std::uint64_t cells = static_cast<std::uint64_t>(map.width()) * static_cast<std::uint64_t>(map.height());
    const std::uint64_t from = splitmix64(rng) % cells;
    for (std::uint64_t j = 0; j < cells; ++j) {
      const std::uint64_t c = (from + j) % cells;
      const int x = static_cast<int>(c % static_cast<std::uint64_t>(map.width()));
      const int y = static_cast<int>(c / static_cast<std::uint64_t>(map.width()));
      if (!map.blocked(x, y)) return index_of({x, y});
    }
    throw std::logic_error("no free cell");  // the constructor checked
  }

  // The next landmark: the reached point farthest from the probe or the landmarks so far
  // (least index on ties), or a random reached point.
  std::size_t choose() {
    if (!given.empty()) return index_of(given[static_cast<std::size_t>(placed)]);
    const std::vector<std::uint32_t>& d = placed == 0 ? best_probe : nearest;
    if (placement == landmark_placement::random) {
      const std::size_t from = static_cast<std::size_t>(splitmix64(rng) % n);
      for (std::size_t j = 0; j < n; ++j) {
        const std::size_t i = (from + j) % n;
        if (best_probe[i] != landmark_set::kUnreached && (placed == 0 || nearest[i] != 0)) return i;
      }
      return static_cast<std::size_t>(from);  // fewer points than landmarks: any reached one
    }
    std::size_t best = 0;
    std::uint32_t best_d = 0;
    bool any = false;
    for (std::size_t i = 0; i < n; ++i)
      if (best_probe[i] != landmark_set::kUnreached && (!any || d[i] > best_d)) {
        best = i;
        best_d = d[i];
        any = true;
      }
    return best;
  }
};

landmark_builder::landmark_builder(const rule& r, const grid_map& map, int count, landmark_placement placement,
                                   std::uint64_t seed) {
  if (count < 1 || count > landmark_set::kMaxLandmarks)
    throw std::invalid_argument("landmark count must be 1.." + std::to_string(landmark_set::kMaxLandmarks) +
                                ", not " + std::to_string(count));
  if (map.blocked_count() == static_cast<std::uint64_t>(map.width()) * static_cast<std::uint64_t>(map.height()))
    throw std::invalid_argument("landmarks need a free cell, and every cell of the map is blocked");
  s_ = std::make_unique<state>(r, map, count, placement, seed);
  state& s = *s_;
  landmark_set& set = s.set;
  set.rule_ = r;
  set.count_ = count;
  set.map_identity_ = map.identity();
  set.cells_freed_ = map.cells_freed();
  set.cells_blocked_ = map.cells_blocked();
  s.vertices = r.on_vertices();
  set.stride_ = map.width() + (s.vertices ? 1 : 0);
  set.rows_ = map.height() + (s.vertices ? 1 : 0);
  s.n = static_cast<std::size_t>(set.stride_) * static_cast<std::size_t>(set.rows_);
  set.tiles_x_ = (set.stride_ + 3) >> 2;
  const std::size_t tiled = static_cast<std::size_t>(set.tiles_x_) * static_cast<std::size_t>((set.rows_ + 3) >> 2) * 16;
  // The finest unit at which the longest possible distance (every point on the way, each
  // by the dearer move) still fits 32 bits below kUnreached.
  const double scale = s.vertices ? kAnyAngleScale : 1.0;
  const double diagonal = r.kind == rule_kind::octile ? static_cast<double>(r.diagonal) / static_cast<double>(kCostOne)
                          : s.vertices                 ? std::sqrt(2.0)
                                                       : 1.0;
  for (int shift = 0; shift <= kCostShift; ++shift) {
    const double per_unit = std::ldexp(1.0, kCostShift - shift);  // stored units a unit of length
    const std::uint64_t straight = static_cast<std::uint64_t>(std::floor(scale * per_unit));
    const std::uint64_t diag =
        r.kind == rule_kind::octile ? (r.diagonal >> shift) : static_cast<std::uint64_t>(std::floor(scale * diagonal * per_unit));
    if (static_cast<double>(s.n + 1) * static_cast<double>(std::max(straight, diag)) < 4294967295.0) {
      set.shift_ = shift;
      set.unit_[0] = static_cast<std::uint32_t>(straight);
      set.unit_[1] = static_cast<std::uint32_t>(diag);
      break;
    }
  }
  for (int k = 0; k < 8; ++k)
    s.offset[static_cast<std::size_t>(k)] = static_cast<std::ptrdiff_t>(kSteps[static_cast<std::size_t>(k)][1]) * set.stride_ +
                                            kSteps[static_cast<std::size_t>(k)][0];
  move_tables tables;
  if (s.vertices) {
    rule relaxed = r;  // the moves of the relaxed rule: its distances bound the default rule's too
    relaxed.squeeze = squeezing::allowed;
    const auto& m = tables.vertices_for(relaxed);
    set.moves_.assign(m.begin(), m.end());
  } else {
    const auto& m = tables.cells_for(r);
    set.moves_.assign(m.begin(), m.end());
  }
  s.legal.resize(s.n);
  for (int y = 0; y < set.rows_; ++y)
    for (int x = 0; x < set.stride_; ++x)
      s.legal[s.index_of({x, y})] = static_cast<std::uint8_t>(landmark_dial::legal_moves(map, set.moves_.data(), s.vertices, {x, y}));
  set.table_.assign(tiled * static_cast<std::size_t>(count), landmark_set::kUnreached);
  s.start_search(s.random_start());
  s.total_work = static_cast<std::uint64_t>(count + 1) * s.n;
}

landmark_builder::landmark_builder(const rule& r, const grid_map& map, const std::vector<point>& points)
    : landmark_builder(r, map, static_cast<int>(points.size())) {
  state& s = *s_;
  for (const point& p : points)
    if (!s.set.has_point(p))
      throw std::invalid_argument("landmark (" + std::to_string(p.x) + "," + std::to_string(p.y) + ") is off the " +
                                  std::to_string(s.set.stride_) + "x" + std::to_string(s.set.rows_) +
                                  (s.vertices ? " vertices" : " cells") + " of the map");
  s.given = points;
  s.nearest.assign(s.n, landmark_set::kUnreached);
  s.at = phase::place;
  s.total_work = static_cast<std::uint64_t>(s.count) * s.n;
}

landmark_builder::~landmark_builder() = default;
landmark_builder::landmark_builder(landmark_builder&&) noexcept = default;
landmark_builder& landmark_builder::operator=(landmark_builder&&) noexcept = default;

bool landmark_builder::done() const { return !s_ || s_->at == phase::finished; }

double landmark_builder::progress() const {
  if (done()) return 1.0;
  const double p = static_cast<double>(s_->work_done) / static_cast<double>(s_->total_work);
  return p < 1.0 ? p : 0.999;
}

bool landmark_builder::step(std::uint64_t work) {
  if (done()) return true;
  state& s = *s_;
  if (work == 0) work = 1;
  while (work > 0 && s.at != phase::finished) {
    switch (s.at) {
      case phase::probe: {
        if (!s.run_search(work)) return false;
        ++s.probes;
        if (s.reached > s.best_reached) {
          s.best_reached = s.reached;
          s.best_probe.swap(s.dist);
        }
        // A start in a small pocket would put every landmark there: try again (at most 8
        // times) until a probe reaches half the free points.
        const std::uint64_t free_cells = static_cast<std::uint64_t>(s.map.width()) * static_cast<std::uint64_t>(s.map.height()) -
                                         s.map.blocked_count();
        if (s.probes < 8 && s.best_reached * 2 < free_cells) {
          s.start_search(s.random_start());
        } else {
          s.nearest.assign(s.n, landmark_set::kUnreached);
          s.at = phase::place;
        }
        break;
      }
      case phase::place: {
        const std::size_t l = s.choose();
        s.set.points_.push_back(s.at_index(l));
        s.start_search(l);
        s.at = phase::search;
        work -= std::min<std::uint64_t>(work, s.n / 8 + 1);  // the scan
        break;
      }
      case phase::search: {
        if (!s.run_search(work)) return false;
        std::uint32_t* column = s.set.table_.data() + s.placed;
        const std::size_t k = static_cast<std::size_t>(s.count);
        for (int y = 0, i = 0; y < s.set.rows_; ++y)
          for (int x = 0; x < s.set.stride_; ++x, ++i) {
            const std::uint32_t d = s.dist[static_cast<std::size_t>(i)];
            column[s.set.slot({x, y}) * k] = d;
            s.nearest[static_cast<std::size_t>(i)] = std::min(s.nearest[static_cast<std::size_t>(i)], d);
          }
        ++s.placed;
        s.at = s.placed == s.count ? phase::finished : phase::place;
        break;
      }
      case phase::finished:
        break;
    }
  }
  if (s.at == phase::finished) {
    s.dist = {};
    s.legal = {};
    s.best_probe = {};
    s.nearest = {};
    s.queues = {};
  }
  return s.at == phase::finished;
}

landmark_set landmark_builder::take() {
  if (!done() || !s_) throw std::logic_error("landmark_builder::take: the set is not built yet");
  landmark_set out = std::move(s_->set);
  s_.reset();
  return out;
}

const landmark_set& landmark_builder::partial() const {
  if (!s_) throw std::logic_error("landmark_builder::partial: the set was taken");
  return s_->set;
}

const grid_map& landmark_builder::source() const {
  if (!s_) throw std::logic_error("landmark_builder::source: the set was taken");
  return s_->map;
}

int landmark_builder::built() const {
  if (!s_) return 0;
  return s_->at == phase::finished ? s_->count : s_->placed;
}

std::size_t landmark_builder::memory_bytes() const {
  if (!s_) return 0;
  const state& s = *s_;
  std::size_t n = s.set.memory_bytes() + s.legal.capacity() +
                  (s.dist.capacity() + s.best_probe.capacity() + s.nearest.capacity()) * sizeof(std::uint32_t);
  for (const auto& q : s.queues.queue) n += q.capacity() * sizeof(std::uint64_t);
  return n;
}

landmark_set landmark_set::build(const rule& r, const grid_map& map, int count, landmark_placement placement,
                                 std::uint64_t seed) {
  landmark_builder b(r, map, count, placement, seed);
  while (!b.step(std::uint64_t{1} << 40)) {
  }
  return b.take();
}

landmark_set landmark_set::build(const rule& r, const grid_map& map, const std::vector<point>& points) {
  landmark_builder b(r, map, points);
  while (!b.step(std::uint64_t{1} << 40)) {
  }
  return b.take();
}

}  // namespace lddb
