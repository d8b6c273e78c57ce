// search_context: owns one state per search family, created on first use.
#include "search/context.hpp"
#include "lddb/find_path.hpp"
#include "prepare/prepared.hpp"

#include <functional>
#include <initializer_list>
#include <stdexcept>
#include <string>

namespace lddb {

search_context::search_context() : impl_(std::make_unique<impl>()) {}
search_context::~search_context() = default;
search_context::search_context(search_context&&) noexcept = default;
search_context& search_context::operator=(search_context&&) noexcept = default;

std::size_t search_context::memory_bytes() const {
  return sizeof(impl) + state_bytes(impl_->block) + state_bytes(impl_->node) + state_bytes(impl_->jump);
}

namespace {

// One state's part of reserve: sizes it, writing its pages or not; and the bytes it holds.
struct reserved_state {
  std::function<void(bool)> reserve;
  std::function<std::size_t()> bytes;
};

// Every state's tables allocated first, unwritten; then, in the order given, the pages of
// each state that still fits in `budget` with those written before it (within the
// capacity just allocated, so nothing moves).
void reserve_in_order(std::size_t budget, std::initializer_list<reserved_state> states) {
  for (const reserved_state& s : states) s.reserve(false);
  for (const reserved_state& s : states) {
    const std::size_t bytes = s.bytes();
    if (bytes == 0 || bytes > budget) continue;
    s.reserve(true);
    budget -= bytes;
  }
}

}  // namespace

void search_context::reserve(const database& db, const grid_map& map, const reserve_options& options) {
  if (map.block() != db.shape().block())
    throw std::invalid_argument("search_context::reserve: the map is cut into " + std::to_string(map.block()) + "x" +
                                std::to_string(map.block()) + " blocks but " + db.path() + " holds " +
                                std::to_string(db.shape().block()) + "x" + std::to_string(db.shape().block()) +
                                " blocks");
  // Where the map's preparation has find_path answer by jump point search, that search's
  // records; Block A*'s own state only where find_path runs it, unless every search is
  // asked for.
  const bool jumps = find_path_search(db, map, search_options{}) == search_kind::jump_point_search;
  const bool blocks = options.every_search || !jumps;
  impl& im = *impl_;
  // The search that default queries run first.
  reserve_in_order(options.prefault_bytes,
                   {{[&](bool write) {
                       if (jumps) reserve_state(im.jump, im.node, db.movement(), map, write);
                     },
                     [&] { return jumps ? state_bytes(im.jump) : 0; }},
                    {[&](bool write) {
                       if (blocks) reserve_state(im.block, db, map, write);
                     },
                     [&] { return blocks ? state_bytes(im.block) : 0; }}});
  detail::build_components(db.movement(), map);
}

void search_context::reserve(const rule& r, const grid_map& map, const reserve_options& options) {
  impl& im = *impl_;
  const bool jumps = jump_point_search_supports(r);
  reserve_in_order(options.prefault_bytes,
                   {{[&](bool write) { reserve_state(im.node, r, map, write); }, [&] { return state_bytes(im.node); }},
                    {[&](bool write) {
                       if (jumps) reserve_state(im.jump, im.node, r, map, write);
                     },
                     [&] { return jumps ? state_bytes(im.jump) : 0; }}});
  detail::build_components(r, map);
}

}  // namespace lddb
