// search_context: owns one state per search family, created on first use.
#include "context.hpp"

namespace lddb {

search_context::search_context() : impl_(std::make_unique<impl>()) {}
search_context::~search_context() = default;
search_context::search_context(search_context&&) noexcept = default;
search_context& search_context::operator=(search_context&&) noexcept = default;

std::size_t search_context::memory_bytes() const {
  return sizeof(impl) + state_bytes(impl_->block) + state_bytes(impl_->node);
}

}  // namespace lddb
