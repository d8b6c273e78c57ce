// Names and defaults shared by every search. See lddb/search.hpp.
#include "lddb/search.hpp"

namespace lddb {

heuristic_kind default_heuristic(const rule& r) {
  switch (r.kind) {
    case rule_kind::tile:
      return heuristic_kind::manhattan;
    case rule_kind::octile:
      return heuristic_kind::octile;  // uses the rule's own diagonal cost: admissible for any
    case rule_kind::any_angle:
      return heuristic_kind::euclidean;
  }
  return heuristic_kind::zero;
}

const char* heuristic_name(heuristic_kind h) {
  switch (h) {
    case heuristic_kind::zero:
      return "zero";
    case heuristic_kind::manhattan:
      return "manhattan";
    case heuristic_kind::octile:
      return "octile";
    case heuristic_kind::euclidean:
      return "euclidean";
  }
  return "unknown";
}

const char* search_status_name(search_status s) {
  switch (s) {
    case search_status::found:
      return "found";
    case search_status::no_path:
      return "no_path";
    case search_status::invalid_start:
      return "invalid_start";
    case search_status::invalid_goal:
      return "invalid_goal";
    case search_status::rule_mismatch:
      return "rule_mismatch";
    case search_status::budget_exhausted:
      return "budget_exhausted";
  }
  return "unknown";
}

}  // namespace lddb
