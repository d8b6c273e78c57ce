// Algorithm 2 and the public entry points: a query begins (start and goal blocks, OPEN
// seeded from the start), advances in slices of expansions, and ends found, without a
// path, or stopped by its budget.
#include <algorithm>
#include <limits>
#include <string>
#include <utility>

#include "search/context.hpp"
#include "prepare/prepared.hpp"
#include "lddb/segments.hpp"
#include "search/block_astar/search.hpp"

namespace lddb {

namespace block_astar_impl {

namespace {
constexpr std::uint64_t kNoLimit = ~std::uint64_t{0};
}  // namespace

block_search::block_search(block_search_state& st)
    : db_(*st.query.db),
      map_(*st.query.map),
      rule_(db_.movement()),
      shape_(db_.shape()),
      q_(st.query),
      st_(st),
      b_(shape_.block()),
      n_(shape_.boundary_count()),
      tie_(rule_.kind == rule_kind::octile),
      // Vertex rules only: a cell block's rows (12 points at b = 4) are too short to gain.
      avx2_(q_.options.diagnostics.vector_kernels && cpu_has_avx2() && rule_.on_vertices() && n_ % 4 == 0),
      heuristic_(heuristic_for(q_.options, rule_), rule_, q_.start, q_.goal, usable_landmarks(q_.options, map_)),
      weight_(key_weight(q_.options.weight, rule_, db_.info().scale_log2)) {}

void build_links(block_search_state& st, const database& db) {
  // Cell rules store exact costs (whole steps, or octile pairs); any-angle lengths are
  // rounded to the nearest stored unit.
  const rule& r = db.movement();
  const block_shape& shape = db.shape();
  const int scale = db.info().scale_log2;
  const cost_t unit = r.on_vertices() ? cost_t{1} << (kCostShift - scale) : 0;
  if (st.links_block == shape.block() && st.links_rule == r && st.floor_unit == unit) return;
  st.links.build(r, shape, unit);
  st.floor_unit = unit;
  build_block_shape(st.shapes, shape);
  st.squares_built = false;
  st.links_rule = r;
  st.links_block = shape.block();
}

void build_squares(block_search_state& st, const database& db) {
  build_links(st, db);
  if (st.squares_built) return;
  const int scale = db.info().scale_log2;
  st.square_levels = build_square_shapes(st.shapes, db.movement(), db.shape(), scale);
  st.large_levels = build_large_shapes(st.large, db.movement(), db.shape(), scale, st.square_levels);
  st.squares_built = true;
}

bool block_search::begin(search_result& r) {
  if (map_.block() != b_) {
    r.status = search_status::rule_mismatch;
    r.message = "map is cut into " + std::to_string(map_.block()) + "x" + std::to_string(map_.block()) +
                " blocks but " + db_.path() + " holds " + std::to_string(b_) + "x" + std::to_string(b_) +
                " blocks: cut the map into " + std::to_string(b_) + "x" + std::to_string(b_) +
                " blocks (the block size a map is made or loaded with, in every language; set_block_size in C++)";
    return false;
  }
  if (!prepare_endpoints(rule_, map_, q_.start, q_.goal, q_.options, r)) return false;
  if (components_apart(rule_, map_, q_.start, q_.goal, q_.options)) {
    no_path(r);
    return false;
  }
  st_.pool.reset();
  st_.squares_used = 0;
  st_.large_used = 0;
  st_.open.clear();
  st_.candidate.clear();
  // Tile and octile search without squares by default: their shapes wait for a query
  // that asks for them (or for search_context::reserve).
  const bool wants_squares = q_.options.diagnostics.open_squares.value_or(rule_.on_vertices());
  if (wants_squares)
    build_squares(st_, db_);
  else
    build_links(st_, db_);
  // Squares need their level in the top bits of a block id.
  st_.squares = wants_squares && st_.square_levels > 0 &&
                static_cast<std::uint64_t>(map_.blocks_x()) * static_cast<std::uint64_t>(map_.blocks_y()) <
                    (std::uint64_t{1} << kSquareIdShift);
  st_.top_level = std::min(q_.options.diagnostics.square_levels.value_or(rule_.on_vertices() ? 2 : kMaxSquareLevel),
                           st_.large_levels);

  // Under the default any-angle rule a start or goal on a double corner belongs to the
  // side of its own (south-east) cell (lddb/segments.hpp): on a block boundary only the
  // block holding that cell takes it; inside a block, block_graph's endpoint_state.
  const bool own_side = rule_.on_vertices() && rule_.squeeze == squeezing::forbidden;
  auto takes = [&](point p, point local) { return !own_side || (local.x < b_ && local.y < b_) || !double_corner(map_, p.x, p.y); };
  // Goal blocks first, so a start block that also holds the goal sees it.
  std::array<std::pair<point, point>, kMaxStarts> holders;
  const int goal_holders = containing_blocks(rule_, map_, q_.goal, holders);
  for (int j = 0, k = 0; j < goal_holders; ++j) {
    const auto [block, local] = holders[static_cast<std::size_t>(j)];
    if (!takes(q_.goal, local)) continue;
    const int s = slot_of(block.x, block.y);
    const block_graph graph(rule_, shape_, slot(s).code, block_graph::visibility::lazy);
    const int state = graph.endpoint_state(shape_.point_index(local));
    if (state < 0) continue;
    q_.goal_state[static_cast<std::size_t>(k)] = state;
    slot(s).goal_index = k;
    graph.search(state, st_.goal_paths[static_cast<std::size_t>(k++)]);
  }
  const int start_holders = containing_blocks(rule_, map_, q_.start, holders);
  for (int j = 0, k = 0; j < start_holders; ++j) {
    const auto [block, local] = holders[static_cast<std::size_t>(j)];
    if (!takes(q_.start, local)) continue;
    const int s = slot_of(block.x, block.y);
    block_slot& start = slot(s);
    const block_graph graph(rule_, shape_, start.code, block_graph::visibility::lazy);
    const int state = graph.endpoint_state(shape_.point_index(local));
    if (state < 0) continue;
    q_.start_slot[static_cast<std::size_t>(k)] = s;
    block_graph::paths& paths = st_.start_paths[static_cast<std::size_t>(k)];
    graph.search(state, paths);
    cost_t value = kUnreachable, value_tie = kUnreachable;
    for (int i = 0; i < n_; ++i) {
      const cost_t c = paths.cost[static_cast<std::size_t>(shape_.point_index(shape_.boundary_point(i)))];
      if (c == kUnreachable || c >= start.g[static_cast<std::size_t>(i)]) continue;
      start.g[static_cast<std::size_t>(i)] = c;
      start.parent[static_cast<std::size_t>(i)] = {via::start, static_cast<std::uint8_t>(k), 0};
      start.ingress |= 1u << i;
      const cost_t hi = h(global(start, i)), ti = tie_(hi), f = key(c, hi);
      if (f < value || (f == value && ti < value_tie)) {
        value = f;
        value_tie = ti;
      }
    }
    // Start and goal in the same block: the path inside it is a candidate (it may still
    // be beaten by one that leaves the block and comes back).
    if (start.goal_index >= 0) {
      const cost_t c = paths.cost[static_cast<std::size_t>(q_.goal_state[static_cast<std::size_t>(start.goal_index)])];
      if (c < q_.length) {
        q_.length = c;
        q_.direct_start = k;
        q_.best_goal_slot = -1;
      }
    }
    if (value != kUnreachable) st_.open.push_or_decrease(st_.pool.slots(), s, value, value_tie, q_.stats);
    ++k;
  }

  r.status = search_status::in_progress;
  return true;
}

// Weighted search without re-expansions (ARA*'s argument, Likhachev, Gordon and Thrun 2003,
// for points expanded a node at a time). An expansion relaxes every move out of the points
// it takes in or hands on; with them expanded, a point whose key g + weight * h is at most
// OPEN's least key has g <= weight x its least g, whatever node it is in: the first point
// of a least-cost path to it that is not yet expanded with such a g is in OPEN, and its key
// is at most weight x (least g + h) of the point, h being consistent (tile and octile
// exactly; any-angle through key_weight's margin). Such a point is closed: it is not
// improved again, so its node is not expanded again for it, which is most of what a weight
// saves in Block A*. The other points of the node stay open as at weight 1.
void block_search::close(int s, point_set expanded) {
  block_slot& cur = slot(s);
  if (is_large(cur)) return;  // a large square's points stay open: it may be expanded again
  const cost_t least = st_.open.empty() ? kUnreachable : st_.open.top().f;
  const cost_t* const g = store(cur).g;
  for (point_set m = expanded; m; m &= m - 1) {
    const int i = __builtin_ctzll(m);
    if (key(g[i], h(global(cur, i))) <= least) cur.closed |= point_set{1} << i;
  }
}

// The stopping rule holds the weighted bound as it is: until the best path is found, some
// OPEN node holds a point of a least-cost path to the goal whose key is at most weight x
// the least cost (at weight 1 with its least g; above 1 see close()). The search stops when
// the least key reaches the best length found.
bool block_search::advance(std::uint64_t limit, search_result& r) {
  const expansion expand = pick_expansion();
  for (std::uint64_t done = 0;; ++done) {
    if (st_.open.empty() || st_.open.top().f >= q_.length) break;
    if (done == limit) {
      r.status = search_status::in_progress;
      r.stats = q_.stats;
      return false;
    }
    const int s = st_.open.pop(st_.pool.slots(), q_.stats);
    block_slot& cur = slot(s);
    const point_set ingress = cur.ingress;
    cur.ingress = 0;
    if (cur.goal_index >= 0) {  // a path to the goal through each ingress point
      const block_graph::paths& gp = st_.goal_paths[static_cast<std::size_t>(cur.goal_index)];
      for (point_set m = ingress; m; m &= m - 1) {
        const int y = __builtin_ctzll(m);
        const cost_t d = gp.cost[static_cast<std::size_t>(shape_.point_index(shape_.boundary_point(y)))];
        if (d == kUnreachable) continue;
        const cost_t total = cur.g[static_cast<std::size_t>(y)] + d;
        if (total < q_.length) {
          q_.length = total;
          q_.best_goal_slot = s;
          q_.best_point = y;
          q_.direct_start = -1;
        }
      }
    }
    const point_set expanded = (this->*expand)(s, ingress);
    if (!weight_.is_one()) close(s, expanded);
  }
  r.stats = q_.stats;
  if (q_.options.diagnostics.record_expanded) r.expanded = std::move(q_.expanded);
  if (q_.length == kUnreachable) {
    searched_whole_component(rule_, map_, q_.options);
    no_path(r);
    return true;
  }
  r.status = search_status::found;
  reconstruct(r);
  // A smoothed path gets its length from finish_path, and a vertex path its cost too: the
  // raw path's would be thrown away.
  const bool smoothed = smooths(q_.options, rule_) && !r.path.empty();
  if (!smoothed || !rule_.on_vertices()) r.cost = path_cost();
  if (!smoothed) r.length = path_length(r.path);
  finish_path(rule_, map_, q_.options, r, st_.pull);
  return true;
}

void block_search::no_path(search_result& r) const {
  r.status = search_status::no_path;
  set_message(r.message, "no path from (%d,%d) to (%d,%d)", q_.start.x, q_.start.y, q_.goal.x, q_.goal.y);
}

void block_search::give_up(search_result& r) {
  r.status = search_status::budget_exhausted;
  r.stats = q_.stats;
  if (q_.options.diagnostics.record_expanded) r.expanded = std::move(q_.expanded);
  set_message(r.message, "expansion budget of %llu blocks exhausted",
              static_cast<unsigned long long>(q_.options.max_expansions));
  // The most promising point: in the node at the top of OPEN, the point whose g + h gave
  // the node its key.
  const open_list::entry top = st_.open.top();  // advance() stopped with it on top
  r.lower_bound = weight_.is_one() ? top.f : 0;  // an inflated key bounds nothing
  const block_slot& node = slot(top.slot());
  int best = -1;
  if (is_large(node)) {
    const large_nodes& L = large_of(node);
    for (int i = 0; i < large_shape_of(node).count && best < 0; ++i)
      if (((L.ingress[static_cast<std::size_t>(i / 64)] >> (i % 64)) & 1u) && L.g[static_cast<std::size_t>(i)] != kUnreachable &&
          key(L.g[static_cast<std::size_t>(i)], h(global(node, i))) == top.f)
        best = i;
  } else {
    const cost_t* const g = store(node).g;
    for (int i = 0; i < shape_of(node).count && best < 0; ++i)
      if (((node.ingress >> i) & 1u) && g[i] != kUnreachable && key(g[i], h(global(node, i))) == top.f) best = i;
  }
  if (best < 0) return;  // not reached: the key always comes from an ingress point
  r.cost = cost_back(top.slot(), best);
  r.path.clear();
  walk_back(top.slot(), best, r.path);
  to_path(r.path);
  r.length = path_length(r.path);
  finish_path(rule_, map_, q_.options, r, st_.pull);
}

namespace {

// One slice of the query begun in q: at most max_expansions (0: as far as the budget
// allows), the whole query's budget capping it.
void run_slice(block_search& search, block_query& q, std::uint64_t max_expansions, search_result& r) {
  std::uint64_t limit = max_expansions == 0 ? kNoLimit : max_expansions;
  bool budget_caps = false;
  if (q.options.max_expansions != 0) {
    const std::uint64_t left = q.options.max_expansions > q.stats.expanded ? q.options.max_expansions - q.stats.expanded : 0;
    if (left <= limit) {
      limit = left;
      budget_caps = true;
    }
  }
  if (search.advance(limit, r)) {
    q.active = false;
    return;
  }
  if (budget_caps) {
    search.give_up(r);
    q.active = false;
  }
}

// Begins a query; sliced: block_astar_begin, which stops there, else the whole query.
void begin_query(const database& db, const grid_map& map, point start, point goal, const search_options& options,
                 bool sliced, search_context& ctx, search_result& r) {
  auto& impl = detail::context_access::state(ctx);
  if (!impl.block) impl.block = new block_search_state();
  block_query& q = impl.block->query;
  q.active = false;
  r.clear();
  r.searched = search_kind::block_astar;
  if (options.expected_rule && !(*options.expected_rule == db.movement())) {
    r.status = search_status::rule_mismatch;
    db.check_rule(*options.expected_rule, &r.message);
    return;
  }
  q.db = &db;
  q.map = &map;
  q.start = start;
  q.goal = goal;
  search_options scratch;
  q.prepared_landmarks = nullptr;
  q.options = detail::with_prepared(options, db.movement(), map, scratch, sliced ? &q.prepared_landmarks : nullptr);
  q.stats = {};
  q.length = kUnreachable;
  q.best_goal_slot = q.best_point = q.direct_start = -1;
  q.expanded.clear();
  block_search search(*impl.block);
  q.active = search.begin(r);
  // A whole query goes on with the same search: setting one up again costs more than many
  // a short query's path.
  if (q.active && !sliced) run_slice(search, q, 0, r);
}

void continue_query(search_context& ctx, std::uint64_t max_expansions, search_result& r) {
  auto& impl = detail::context_access::state(ctx);
  r.clear();
  r.searched = search_kind::block_astar;
  if (!impl.block || !impl.block->query.active) {
    r.status = search_status::no_path;
    r.message = "block_astar_continue: no query in progress in this context (call block_astar_begin first)";
    return;
  }
  block_search search(*impl.block);
  run_slice(search, impl.block->query, max_expansions, r);
}

}  // namespace
}  // namespace block_astar_impl

void destroy_state(block_search_state* s) { delete s; }

std::size_t state_bytes(const block_search_state* s) {
  if (!s) return 0;
  std::size_t n = sizeof(*s) + s->pool.bytes() + s->open.bytes() +
                  s->candidate.capacity() * sizeof(block_search_state::key) + s->touched.capacity() * sizeof(int) +
                  s->pull.bytes();
  n += s->links.links.capacity() * sizeof(block_astar_impl::link) +
       s->square_state.capacity() * sizeof(block_astar_impl::square_nodes);
  for (const block_astar_impl::large_nodes& l : s->large_state)
    n += sizeof(l) + l.g.capacity() * sizeof(cost_t) + l.parent.capacity() * sizeof(block_astar_impl::wide_parent) +
         l.neighbour.capacity() * sizeof(int) +
         (l.link_ok.capacity() + l.exitable.capacity() + l.ingress.capacity()) * sizeof(std::uint64_t);
  for (const block_astar_impl::large_shape& q : s->large)
    n += q.links.capacity() * sizeof(block_astar_impl::large_link) + q.index.capacity() * sizeof(int) +
         q.points.capacity() * sizeof(point) + q.ring_tests.capacity() * sizeof(block_astar_impl::large_shape::ring_test);
  for (const block_astar_impl::node_shape& q : s->shapes)
    n += q.links.capacity() * sizeof(block_astar_impl::link) + q.cost.capacity() * sizeof(cost_t) +
         q.index.capacity() * sizeof(int);
  return n;
}

search_result block_astar_begin(const database& db, const grid_map& map, point start, point goal,
                                const search_options& options, search_context& ctx) {
  search_result r;
  if (on_unit_view(db.movement(), map, options, r, [&](const grid_map& view, const search_options& o) {
        block_astar_impl::begin_query(db, view, start, goal, o, true, ctx, r);
      }))
    return r;
  block_astar_impl::begin_query(db, map, start, goal, options, true, ctx, r);
  return r;
}

search_result block_astar_continue(search_context& ctx, std::uint64_t max_expansions) {
  search_result r;
  block_astar_impl::continue_query(ctx, max_expansions, r);
  return r;
}

void block_astar(const database& db, const grid_map& map, point start, point goal, const search_options& options,
                 search_context& ctx, search_result& out) {
  out.searched = search_kind::block_astar;
  if (on_unit_view(db.movement(), map, options, out, [&](const grid_map& view, const search_options& o) {
        block_astar(db, view, start, goal, o, ctx, out);
      }))
    return;
  block_astar_impl::begin_query(db, map, start, goal, options, false, ctx, out);
}

search_result block_astar(const database& db, const grid_map& map, point start, point goal,
                          const search_options& options, search_context& ctx) {
  search_result r;
  block_astar(db, map, start, goal, options, ctx, r);
  return r;
}

}  // namespace lddb
