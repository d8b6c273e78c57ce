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
  detail::build_components(db.movement(), map);
}

void search_context::reserve(const rule& r, const grid_map& map) {
  reserve_state(impl_->node, r, map);
  detail::build_components(r, map);
}

}  // namespace lddb
