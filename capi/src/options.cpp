// capi/src/options.cpp: lddb_options read through the search options' table
// (lddb/option_table.hpp), and the table itself for bindings (lddb_option_describe).
#include <algorithm>
#include <bit>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "handles.hpp"
#include "lddb/option_table.hpp"
#include "objects.hpp"

namespace lddb::capi {

namespace {

// Where each option of the table lies in lddb_options, the version that added it, and a
// flag's three values. The table says what an option is; this says how C spells it.
struct c_field {
  std::string_view name;
  std::uint32_t offset;
  std::uint32_t version;
  std::int32_t unset, off, on;  // a flag's values
};
constexpr c_field kFields[] = {
    {"heuristic", offsetof(lddb_options, heuristic), 1, 0, 0, 0},
    {"weight", offsetof(lddb_options, weight), 2, 0, 0, 0},
    // LDDB_SMOOTH_DEFAULT since version 5; before it, any value but 0 smooths.
    {"smooth", offsetof(lddb_options, smooth), 1, LDDB_SMOOTH_DEFAULT, LDDB_SMOOTH_OFF, LDDB_SMOOTH_ON},
    {"max_expansions", offsetof(lddb_options, max_expansions), 1, 0, 0, 0},
    // Read only from version 8: a version 7 struct's padding lies where unit_size is now.
    {"unit_size", offsetof(lddb_options, unit_size), 8, 0, 0, 0},
    {"movement", offsetof(lddb_options, movement), 8, 0, 0, 0},
    {"landmarks", offsetof(lddb_options, landmarks), 3, 0, 0, 0},
    {"jumps", offsetof(lddb_options, jumps), 7, LDDB_JUMPS_DEFAULT, 0, 1},
    // 1 (or a value that is neither 0 nor 2) is the rule's default.
    {"open_squares", offsetof(lddb_options, open_squares), 1, 1, 0, 2},
    {"square_levels", offsetof(lddb_options, square_levels), 4, 0, 0, 0},
    {"use_prepared", offsetof(lddb_options, use_prepared), 6, 1, 0, 1},
};

const c_field* find_field(std::string_view name) {
  for (const c_field& f : kFields)
    if (f.name == name) return &f;
  return nullptr;
}

// The field of each row of the table, looked up once: every query's options are read.
const c_field* field_of(const option_spec& spec) {
  static const std::vector<const c_field*> by_row = [] {
    std::vector<const c_field*> v;
    for (const option_spec& s : search_option_table()) v.push_back(find_field(s.name));
    return v;
  }();
  const std::size_t row = static_cast<std::size_t>(&spec - search_option_table().data());
  return row < by_row.size() ? by_row[row] : nullptr;
}

template <class T>
T field_value(const lddb_options& o, const c_field& f) {
  T v;
  std::memcpy(&v, reinterpret_cast<const unsigned char*>(&o) + f.offset, sizeof v);
  return v;
}

// A flag's int: its off and on values, else unset, but that a field whose unset value is
// negative reads any value that is not (nor off) as on.
flag_state flag_of(std::int32_t v, const c_field& f) {
  if (v == f.off) return flag_state::off;
  if (v == f.on) return flag_state::on;
  if (f.unset < 0 && v >= 0) return flag_state::on;
  return flag_state::unset;
}

// The value of one option from the caller's struct; OK or why not.
lddb_status value_of(const char* fn, const lddb_options& o, const option_spec& spec, const c_field& f,
                     setup* out, option_value& v) {
  switch (spec.kind) {
    case option_kind::choice:
    case option_kind::integer:
      v.integer = field_value<std::int32_t>(o, f);
      break;
    case option_kind::flag: {
      const auto raw = field_value<std::int32_t>(o, f);
      v.flag = spec.name == "smooth" && o.version < 5 ? (raw != 0 ? flag_state::on : flag_state::off) : flag_of(raw, f);
      break;
    }
    case option_kind::count:
      v.count = field_value<std::uint64_t>(o, f);
      break;
    case option_kind::number:
      v.number = field_value<double>(o, f);
      break;
    case option_kind::movement: {
      movement_class m;  // per byte, then its set bits: a query's set-up reads 32 bytes, not 256 bits
      for (int byte = 0; byte < 32; ++byte)
        for (unsigned bits = o.movement[byte]; bits != 0; bits &= bits - 1)
          m.add(static_cast<terrain>(byte * 8 + std::countr_zero(bits)));
      v.movement = m;  // empty: ground, lddb.h says
      break;
    }
    case option_kind::landmarks: {
      const auto handle = field_value<std::uint64_t>(o, f);
      if (handle == 0) break;
      std::shared_ptr<landmark_set> l;
      if (const lddb_status st = find(handle, kind::landmarks, fn, "options->landmarks", &l)) return st;
      out->landmarks = l;
      v.landmarks = l.get();
      break;
    }
  }
  return LDDB_OK;
}

}  // namespace

lddb_status read_options(const char* fn, const lddb_options* in, const rule& r, setup* out) {
  lddb_options o;
  lddb_options_init(&o);
  if (in) {
    if (in->struct_size < offsetof(lddb_options, algorithm) || in->version == 0)
      return fail(LDDB_INVALID_ARGUMENT, fn,
                  "options: struct_size " + std::to_string(in->struct_size) + " / version " +
                      std::to_string(in->version) + " unset: call lddb_options_init first");
    // Only the fields the caller's struct covers: an older caller's shorter struct keeps
    // the defaults of the fields it does not know.
    std::memcpy(&o, in, std::min<std::size_t>(in->struct_size, sizeof o));
  }
  // The algorithm is the call's choice, not a search option.
  if (o.algorithm < LDDB_BLOCK_ASTAR || o.algorithm > LDDB_LAZY_THETA_STAR)
    return fail(LDDB_INVALID_ARGUMENT, fn, "options: unknown algorithm " + std::to_string(o.algorithm));
  const auto alg = static_cast<lddb_algorithm>(o.algorithm);
  if (alg == LDDB_ASTAR && r.on_vertices())
    return fail(LDDB_INVALID_ARGUMENT, fn, "options: A* searches cells, but the rule " + r.name() +
                                               " is any-angle: use Block A*, Theta* or Lazy Theta*");
  if ((alg == LDDB_THETA_STAR || alg == LDDB_LAZY_THETA_STAR) && !r.on_vertices())
    return fail(LDDB_INVALID_ARGUMENT, fn, "options: Theta* searches vertices, but the rule " + r.name() +
                                               " is a cell rule: use Block A* or A*");
  out->algorithm = alg;
  out->options = search_options();
  for (const option_spec& spec : search_option_table()) {
    const c_field* f = field_of(spec);
    if (f == nullptr) return fail(LDDB_INTERNAL_ERROR, fn, "option " + std::string(spec.name) + " has no C field");
    if (o.version < f->version) continue;  // the struct predates it: its default
    option_value v;
    if (const lddb_status st = value_of(fn, o, spec, *f, out, v)) return st;
    if (std::string why = set_search_option(out->options, r, spec, v); !why.empty())
      return fail(LDDB_INVALID_ARGUMENT, fn, "options: " + std::string(spec.name) + " " + why);
  }
  return LDDB_OK;
}

}  // namespace lddb::capi

using namespace lddb;
using namespace lddb::capi;

LDDB_API size_t lddb_option_count(void) { return search_option_table().size(); }

LDDB_API lddb_status lddb_option_describe(size_t index, lddb_option_info* info, size_t info_size) {
  static const char* fn = "lddb_option_describe";
  return guarded(fn, [&] {
    if (!info) return fail(LDDB_NULL_ARGUMENT, fn, "argument 'info' is NULL");
    const std::span<const option_spec> table = search_option_table();
    if (index >= table.size())
      return fail(LDDB_INVALID_ARGUMENT, fn,
                  "argument 'index' is " + std::to_string(index) + ": there are " + std::to_string(table.size()) +
                      " options (lddb_option_count)");
    const option_spec& spec = table[index];
    const c_field* f = field_of(spec);
    if (f == nullptr) return fail(LDDB_INTERNAL_ERROR, fn, "option " + std::string(spec.name) + " has no C field");
    // The names are string literals of the table, so NUL-terminated and never freed.
    lddb_option_info d;
    std::memset(&d, 0, sizeof d);
    d.version = f->version;
    d.name = spec.name.data();
    d.alias = spec.alias.data();
    d.choices = spec.choices.data();
    d.help = spec.help.data();
    d.kind = static_cast<std::int32_t>(spec.kind);
    d.diagnostic = spec.diagnostic ? 1 : 0;
    d.offset = f->offset;
    d.unset = f->unset;
    d.off = f->off;
    d.on = f->on;
    d.low = spec.low;
    d.high = spec.high;
    std::memcpy(info, &d, std::min(info_size, sizeof d));
    return LDDB_OK;
  });
}
