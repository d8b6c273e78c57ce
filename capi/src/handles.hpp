// capi/src/handles.hpp: the handle table and the per-thread error message behind lddb.h.
//
// A handle is (generation << 32) | (slot + 1): looking one up checks the slot, its kind and
// its generation under a mutex and hands back a shared_ptr, so a handle freed by another
// thread mid-call keeps its object alive until the call ends, and a stale or forged id
// is refused without touching memory it does not name.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>

#include "lddb/lddb.h"

namespace lddb::capi {

enum class kind : std::uint8_t { none = 0, database, map, context, batch, landmarks };
const char* kind_name(kind k);

// Sets the calling thread's message to "fn: what" and returns s.
lddb_status fail(lddb_status s, const char* fn, const std::string& what);
void clear_error();

// Copies `text` and its NUL into buf (argument `arg`, `size` bytes) the way lddb.h's string
// calls do: *needed (may be NULL) gets the size with the NUL; buf NULL with size 0 only asks
// it; a short buf gives BUFFER_TOO_SMALL naming `arg` and `what` the text is.
lddb_status copy_text(const char* fn, const char* arg, const char* what, const std::string& text, char* buf,
                      std::size_t size, std::size_t* needed);

std::uint64_t add_handle(kind k, std::shared_ptr<void> object);
// OK with *out set, or NULL_ARGUMENT / BAD_HANDLE / WRONG_HANDLE_KIND with the message
// naming `fn` and the argument.
lddb_status find_handle(std::uint64_t h, kind k, const char* fn, const char* arg, std::shared_ptr<void>* out);
lddb_status remove_handle(std::uint64_t h, kind k, const char* fn, const char* arg);

template <class T>
lddb_status find(std::uint64_t h, kind k, const char* fn, const char* arg, std::shared_ptr<T>* out) {
  std::shared_ptr<void> p;
  const lddb_status s = find_handle(h, k, fn, arg, &p);
  if (s == LDDB_OK) *out = std::static_pointer_cast<T>(p);
  return s;
}

// Runs body() with the message cleared; no exception leaves it.
template <class F>
lddb_status guarded(const char* fn, F&& body) noexcept {
  try {
    clear_error();
    return body();
  } catch (const std::bad_alloc&) {
    return fail(LDDB_OUT_OF_MEMORY, fn, "out of memory");
  } catch (const std::exception& e) {
    return fail(LDDB_INTERNAL_ERROR, fn, e.what());
  } catch (...) {
    return fail(LDDB_INTERNAL_ERROR, fn, "unknown exception");
  }
}

}  // namespace lddb::capi
