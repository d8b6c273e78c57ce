// search_context: owns one state per search family, created on first use.
#include "context.hpp"
#include "prepared.hpp"

#include <stdexcept>
#include <string>

namespace lddb {

search_context::search_context() : impl_(std::make_unique<impl>()) {}
search_context::~search_context() = default;
search_context::search_context(search_context&&) noexcept = default;
search_context& search_context::operator=(search_context&&) noexcept = default;

std::size_t search_context::memory_bytes() const {
  return sizeof(impl) + state_bytes(impl_->block) + state_bytes(impl_->node);
}

namespace {

// Builds the map's component labels for the rule, as the first query would (O(cells)),
// through the one call that builds them: same_component on any free cell.
void build_components(const rule& r, const grid_map& map) {
  for (int y = 0; y < map.height(); ++y)
    for (int x = 0; x < map.width(); ++x)
      if (!map.blocked(x, y)) {
        (void)map.same_component(connectivity_of(r), x, y, x, y);
        return;
      }
}

}  // namespace

void search_context::reserve(const database& db, const grid_map& map) {
  if (map.block() != db.shape().block())
    throw std::invalid_argument("search_context::reserve: the map is cut into " + std::to_string(map.block()) + "x" +
                                std::to_string(map.block()) + " blocks but " + db.path() + " holds " +
                                std::to_string(db.shape().block()) + "x" + std::to_string(db.shape().block()) +
                                " blocks");
  reserve_state(impl_->block, db, map);
  // Where the map's preparation has Block A* hand its queries to jump point search
  // (search_options::jumps), that search's records too.
  const detail::preparations* ps = map.preparations();
  const detail::prepared_rule* p = ps != nullptr ? ps->find(db.movement()) : nullptr;
  if (p != nullptr && p->plan.jumps) reserve_state(impl_->node, db.movement(), map);
  build_components(db.movement(), map);
}

void search_context::reserve(const rule& r, const grid_map& map) {
  reserve_state(impl_->node, r, map);
  build_components(r, map);
}

}  // namespace lddb
