// capi/src/handles.cpp: the handle table and the per-thread error message.
#include "handles.hpp"

#include <cstdio>
#include <cstring>
#include <mutex>
#include <vector>

namespace lddb::capi {
namespace {

thread_local std::string t_error;

struct slot {
  kind k = kind::none;
  std::uint32_t generation = 1;
  std::shared_ptr<void> object;
};

struct table {
  std::mutex m;
  std::vector<slot> slots;
  std::vector<std::uint32_t> free_slots;
};

table& handles() {
  static table* t = new table;  // never destroyed: handles may be freed during static destruction
  return *t;
}

std::string hex(std::uint64_t h) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(h));
  return buf;
}

}  // namespace

const char* kind_name(kind k) {
  switch (k) {
    case kind::database: return "database";
    case kind::map: return "map";
    case kind::context: return "context";
    case kind::batch: return "batch";
    case kind::landmarks: return "landmarks";
    case kind::none: break;
  }
  return "freed";
}

lddb_status fail(lddb_status s, const char* fn, const std::string& what) {
  try {
    t_error = std::string(fn) + ": " + what;
  } catch (...) {
    t_error.clear();  // no memory for the message: the status still says what happened
  }
  return s;
}

void clear_error() { t_error.clear(); }

lddb_status copy_text(const char* fn, const char* arg, const char* what, const std::string& text, char* buf,
                      std::size_t size, std::size_t* needed) {
  if (!buf && size != 0) return fail(LDDB_NULL_ARGUMENT, fn, std::string("argument '") + arg + "' is NULL but 'size' is not 0");
  if (needed) *needed = text.size() + 1;
  if (!buf) return LDDB_OK;
  if (size < text.size() + 1)
    return fail(LDDB_BUFFER_TOO_SMALL, fn,
                std::string("argument '") + arg + "' holds " + std::to_string(size) + " bytes; " + what + " needs " +
                    std::to_string(text.size() + 1));
  std::memcpy(buf, text.c_str(), text.size() + 1);
  return LDDB_OK;
}

std::uint64_t add_handle(kind k, std::shared_ptr<void> object) {
  table& t = handles();
  std::lock_guard lock(t.m);
  std::uint32_t index;
  if (!t.free_slots.empty()) {
    index = t.free_slots.back();
    t.free_slots.pop_back();
  } else {
    if (t.slots.size() >= 0xFFFFFFFEu) throw std::bad_alloc();
    t.free_slots.reserve(t.slots.size() + 1);  // so that remove_handle never allocates
    t.slots.emplace_back();
    index = static_cast<std::uint32_t>(t.slots.size() - 1);
  }
  slot& s = t.slots[index];
  s.k = k;
  s.object = std::move(object);
  return (std::uint64_t{s.generation} << 32) | (std::uint64_t{index} + 1);
}

namespace {
// The slot h names, or nullptr with the message set.
slot* locate(table& t, std::uint64_t h, kind k, const char* fn, const char* arg, lddb_status* st) {
  const std::uint64_t index = (h & 0xFFFFFFFFu);
  const std::uint32_t generation = static_cast<std::uint32_t>(h >> 32);
  if (h == 0) {
    *st = fail(LDDB_NULL_ARGUMENT, fn, std::string("argument '") + arg + "' is 0, not a " + kind_name(k) + " handle");
    return nullptr;
  }
  if (index == 0 || index > t.slots.size() || t.slots[index - 1].generation != generation ||
      t.slots[index - 1].k == kind::none) {
    *st = fail(LDDB_BAD_HANDLE, fn,
               std::string("argument '") + arg + "' (" + hex(h) + ") is not a live handle: freed, or never created");
    return nullptr;
  }
  slot& s = t.slots[index - 1];
  if (s.k != k) {
    *st = fail(LDDB_WRONG_HANDLE_KIND, fn,
               std::string("argument '") + arg + "' is a " + kind_name(s.k) + " handle, not a " + kind_name(k));
    return nullptr;
  }
  *st = LDDB_OK;
  return &s;
}
}  // namespace

lddb_status find_handle(std::uint64_t h, kind k, const char* fn, const char* arg, std::shared_ptr<void>* out) {
  table& t = handles();
  std::lock_guard lock(t.m);
  lddb_status st;
  if (slot* s = locate(t, h, k, fn, arg, &st)) *out = s->object;
  return st;
}

lddb_status remove_handle(std::uint64_t h, kind k, const char* fn, const char* arg) {
  std::shared_ptr<void> doomed;  // destroyed after the lock is released
  table& t = handles();
  {
    std::lock_guard lock(t.m);
    lddb_status st;
    slot* s = locate(t, h, k, fn, arg, &st);
    if (!s) return st;
    doomed = std::move(s->object);
    s->k = kind::none;
    if (++s->generation == 0) s->generation = 1;  // generation 0 would let a handle read as 0
    t.free_slots.push_back(static_cast<std::uint32_t>((h & 0xFFFFFFFFu) - 1));
  }
  return LDDB_OK;
}

}  // namespace lddb::capi

extern "C" LDDB_API const char* lddb_last_error(void) { return lddb::capi::t_error.c_str(); }
