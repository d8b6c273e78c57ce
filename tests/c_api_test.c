/* c_api_test: lddb/lddb.h from C99. Solves with every algorithm on the shipped databases
 * and checks each path with its own code (not the library's): every step legal under the
 * rule, the cost the sum of the steps; then the size query and short buffers, sliced ==
 * one-shot, batch == one by one, budgets, no path and why, landmarks, loading a .map file, and
 * units of several sizes and movement classes on hand-counted maps. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lddb/lddb.h"

static int failures = 0;
#define CHECK(cond)                                                                   \
  do {                                                                                \
    if (!(cond)) {                                                                    \
      ++failures;                                                                     \
      fprintf(stderr, "%s:%d: CHECK(%s) failed; last error: %s\n", __FILE__, __LINE__, \
              #cond, lddb_last_error());                                              \
    }                                                                                 \
  } while (0)
#define CHECK_STATUS(call, want)                                                                 \
  do {                                                                                           \
    lddb_status got_ = (call);                                                                   \
    if (got_ != (want)) {                                                                        \
      ++failures;                                                                                \
      fprintf(stderr, "%s:%d: %s returned %s, expected %s; last error: %s\n", __FILE__, __LINE__, \
              #call, lddb_status_name(got_), lddb_status_name(want), lddb_last_error());          \
    }                                                                                            \
  } while (0)

#define W 41
#define H 31
#define MAX_PATH 4096
static const uint64_t kOne = (uint64_t)1 << 32;
static const uint64_t kSqrt2 = 6074001000ull;

enum rule_kind { TILE, OCTILE, ANY_ANGLE };
static unsigned char cells[H][W]; /* the test's own copy of the map: 1 = blocked */

static int blocked(int x, int y) { return x < 0 || y < 0 || x >= W || y >= H || cells[y][x]; }

static unsigned rng_state = 12345u;
static unsigned rng(void) {
  rng_state = rng_state * 1103515245u + 12345u;
  return (rng_state >> 16) & 0x7fff;
}

/* A wall across the middle with a gap at its south end, and scattered blocked cells. */
static lddb_map build_map(void) {
  lddb_map map = 0;
  int x, y;
  CHECK_STATUS(lddb_map_create(W, H, 4, &map), LDDB_OK);
  for (y = 0; y < H; ++y)
    for (x = 0; x < W; ++x) {
      int b = (x == 20 && y < 25) || (rng() % 7 == 0);
      if (x < 4 && y < 4) b = 0;                       /* around the start */
      if (x > W - 5 && y > H - 5) b = 0;               /* around the goal */
      cells[y][x] = (unsigned char)b;
      CHECK_STATUS(lddb_map_set_blocked(map, x, y, b), LDDB_OK);
    }
  {
    int32_t w = 0, h = 0, got = -1;
    CHECK_STATUS(lddb_map_size(map, &w, &h), LDDB_OK);
    CHECK(w == W && h == H);
    CHECK_STATUS(lddb_map_blocked(map, 20, 3, &got), LDDB_OK);
    CHECK(got == 1);
  }
  return map;
}

/* Cell rules: each step one legal move (octile diagonals with both side cells free), on
 * free cells; cost = straight moves + diagonal moves at sqrt(2). */
static void check_cell_path(enum rule_kind rule, const lddb_point* p, size_t n, const lddb_result* r) {
  uint64_t cost = 0;
  size_t i;
  CHECK(n >= 1);
  for (i = 0; i < n; ++i) CHECK(!blocked(p[i].x, p[i].y));
  for (i = 1; i < n; ++i) {
    int dx = p[i].x - p[i - 1].x, dy = p[i].y - p[i - 1].y;
    int ax = abs(dx), ay = abs(dy);
    CHECK(ax <= 1 && ay <= 1 && ax + ay >= 1);
    if (ax + ay == 2) {
      CHECK(rule == OCTILE);
      CHECK(!blocked(p[i - 1].x + dx, p[i - 1].y) && !blocked(p[i - 1].x, p[i - 1].y + dy));
      cost += kSqrt2;
    } else {
      cost += kOne;
    }
  }
  CHECK(r->cost_fixed == cost);
  CHECK(fabs(r->cost - (double)cost / (double)kOne) < 1e-9);
}

/* Any-angle: every segment, sampled finely, passes through no blocked cell's interior;
 * the length is the sum of the segments, and the cost agrees with it. */
static void check_vertex_path(const lddb_point* p, size_t n, const lddb_result* r) {
  double length = 0;
  size_t i;
  CHECK(n >= 1);
  for (i = 0; i < n; ++i) CHECK(p[i].x >= 0 && p[i].y >= 0 && p[i].x <= W && p[i].y <= H);
  for (i = 1; i < n; ++i) {
    double dx = p[i].x - p[i - 1].x, dy = p[i].y - p[i - 1].y, seg = sqrt(dx * dx + dy * dy);
    int k, steps = (int)(seg * 97) + 1;
    CHECK(seg > 0);
    for (k = 1; k < steps; ++k) {
      double t = (double)k / steps, px = p[i - 1].x + t * dx, py = p[i - 1].y + t * dy;
      if (px != floor(px) && py != floor(py)) CHECK(!blocked((int)floor(px), (int)floor(py)));
    }
    length += seg;
  }
  CHECK(fabs(r->length - length) < 1e-9);
  CHECK(fabs(r->cost - length) < 1e-3 * (length + 1));
}

static void check_path(enum rule_kind rule, const lddb_point* p, size_t n, const lddb_result* r, int smoothed) {
  if (rule == ANY_ANGLE) {
    check_vertex_path(p, n, r);
  } else if (!smoothed) {
    check_cell_path(rule, p, n, r);
  }
}

static int same_points(const lddb_point* a, const lddb_point* b, size_t n) {
  size_t i;
  for (i = 0; i < n; ++i)
    if (a[i].x != b[i].x || a[i].y != b[i].y) return 0;
  return 1;
}

static lddb_point pt(int x, int y) {
  lddb_point p;
  p.x = x;
  p.y = y;
  return p;
}

/* One query with every algorithm the rule has: the size query, a short buffer, the path,
 * the context's copy, smoothing, and sliced == one-shot for Block A*. */
static void solve_all(lddb_context ctx, lddb_database db, lddb_map map, enum rule_kind rule) {
  static lddb_point path[MAX_PATH], again[MAX_PATH];
  const int cell_algorithms[2] = {LDDB_BLOCK_ASTAR, LDDB_ASTAR};
  const int vertex_algorithms[3] = {LDDB_BLOCK_ASTAR, LDDB_THETA_STAR, LDDB_LAZY_THETA_STAR};
  const int algorithm_count = rule == ANY_ANGLE ? 3 : 2;
  const lddb_point start = pt(1, 1), goal = pt(W - 2, H - 2);
  uint64_t optimal = 0;
  int a, k;
  for (a = 0; a < algorithm_count; ++a) {
    const int algorithm = rule == ANY_ANGLE ? vertex_algorithms[a] : cell_algorithms[a];
    lddb_options o;
    lddb_result r, sized;
    size_t n, count = 0;
    CHECK_STATUS(lddb_options_init(&o), LDDB_OK);
    o.algorithm = algorithm;
    CHECK_STATUS(lddb_solve(ctx, db, map, start, goal, &o, &sized, NULL, 0), LDDB_OK);
    n = (size_t)sized.path_count;
    CHECK(n >= 2 && n <= MAX_PATH);
    if (n < 2 || n > MAX_PATH) return;
    path[0] = pt(-7, -7);
    CHECK_STATUS(lddb_solve(ctx, db, map, start, goal, &o, &r, path, n - 1), LDDB_BUFFER_TOO_SMALL);
    CHECK(r.path_count == n && r.status == LDDB_OK);
    CHECK(path[0].x == -7 && path[0].y == -7);   /* nothing written */
    CHECK(strstr(lddb_last_error(), "path") != NULL);
    CHECK_STATUS(lddb_solve(ctx, db, map, start, goal, &o, &r, path, MAX_PATH), LDDB_OK);
    CHECK(strcmp(lddb_last_error(), "") == 0);
    CHECK(r.status == LDDB_OK && r.path_count == n && r.cost_fixed == sized.cost_fixed && r.expansions > 0);
    CHECK(path[0].x == start.x && path[0].y == start.y && path[n - 1].x == goal.x && path[n - 1].y == goal.y);
    check_path(rule, path, n, &r, 0);
    /* Tile and octile: Block A* and A* are both optimal. */
    if (rule != ANY_ANGLE) {
      if (a == 0) optimal = r.cost_fixed;
      else CHECK(r.cost_fixed == optimal);
    }
    CHECK_STATUS(lddb_context_path(ctx, NULL, 0, &count), LDDB_OK);
    CHECK(count == n);
    CHECK_STATUS(lddb_context_path(ctx, again, 1, &count), LDDB_BUFFER_TOO_SMALL);
    CHECK_STATUS(lddb_context_path(ctx, again, MAX_PATH, &count), LDDB_OK);
    CHECK(count == n && same_points(path, again, n));

    /* Smoothed: same ends, never costlier. */
    o.smooth = LDDB_SMOOTH_ON;
    CHECK_STATUS(lddb_solve(ctx, db, map, start, goal, &o, &sized, again, MAX_PATH), LDDB_OK);
    CHECK(sized.path_count >= 2 && sized.path_count <= n);
    CHECK(again[0].x == start.x && again[sized.path_count - 1].x == goal.x);
    CHECK(sized.cost <= r.cost + 1e-6);
    check_path(rule, again, (size_t)sized.path_count, &sized, 1);
    /* Raw: the search's own path, never shorter than the default one. */
    o.smooth = LDDB_SMOOTH_OFF;
    CHECK_STATUS(lddb_solve(ctx, db, map, start, goal, &o, &sized, again, MAX_PATH), LDDB_OK);
    CHECK(sized.path_count >= n && sized.length >= r.length - 1e-9);
    check_path(rule, again, (size_t)sized.path_count, &sized, 0);
    o.smooth = LDDB_SMOOTH_DEFAULT;

    if (algorithm == LDDB_BLOCK_ASTAR) { /* sliced, a few blocks a call, == one-shot */
      lddb_result s;
      lddb_status st = lddb_search_begin(ctx, db, map, start, goal, &o, &s);
      CHECK(st == LDDB_IN_PROGRESS);
      for (k = 0; st == LDDB_IN_PROGRESS && k < 100000; ++k) st = lddb_search_continue(ctx, 3, &s);
      CHECK(st == LDDB_OK && k > 1);
      CHECK(s.cost_fixed == r.cost_fixed && s.expansions == r.expansions && s.path_count == r.path_count);
      CHECK(s.length == r.length);
      CHECK_STATUS(lddb_context_path(ctx, again, MAX_PATH, &count), LDDB_OK);
      CHECK(count == n && same_points(path, again, n));
      CHECK_STATUS(lddb_search_continue(ctx, 3, &s), LDDB_INVALID_ARGUMENT); /* nothing in progress */
    }
    /* A budget of one expansion stops early, with a partial path. */
    o.max_expansions = 1;
    CHECK_STATUS(lddb_solve(ctx, db, map, start, goal, &o, &r, path, MAX_PATH), LDDB_BUDGET_EXHAUSTED);
    CHECK(r.status == LDDB_BUDGET_EXHAUSTED && r.path_count >= 1 && path[0].x == start.x);
    CHECK(strlen(lddb_last_error()) > 0);
  }
}

/* A batch == the same queries one by one, with paths laid end to end. */
static void batch_matches_single(lddb_context ctx, lddb_database db, lddb_map map, int vertices) {
  enum { N = 24 };
  static lddb_point paths[N * MAX_PATH / 8], single[MAX_PATH];
  lddb_query q[N];
  lddb_result results[N], r;
  lddb_batch batch = 0;
  size_t needed = 0, i;
  for (i = 0; i < N; ++i) {
    q[i].start = pt((int)(rng() % (W + vertices)), (int)(rng() % (H + vertices)));
    q[i].goal = pt((int)(rng() % (W + vertices)), (int)(rng() % (H + vertices)));
  }
  q[N - 1].goal = pt(W + 5, 0); /* off the map: its own result says so */
  CHECK_STATUS(lddb_batch_create(2, &batch), LDDB_OK);
  CHECK_STATUS(lddb_batch_solve(batch, db, map, q, N, NULL, results, NULL, 0, &needed), LDDB_OK);
  CHECK(needed > 0 && needed <= sizeof paths / sizeof paths[0]);
  CHECK_STATUS(lddb_batch_solve(batch, db, map, q, N, NULL, results, paths, needed - 1, &needed),
               LDDB_BUFFER_TOO_SMALL);
  CHECK_STATUS(lddb_batch_solve(batch, db, map, q, N, NULL, results, paths, sizeof paths / sizeof paths[0], &needed),
               LDDB_OK);
  CHECK(results[N - 1].status == LDDB_INVALID_GOAL && results[N - 1].path_count == 0);
  for (i = 0; i < N; ++i) {
    lddb_status st = lddb_solve(ctx, db, map, q[i].start, q[i].goal, NULL, &r, single, MAX_PATH);
    CHECK(st == (lddb_status)results[i].status && r.status == results[i].status);
    CHECK(r.cost_fixed == results[i].cost_fixed && r.expansions == results[i].expansions);
    CHECK(r.path_count == results[i].path_count);
    CHECK(same_points(single, paths + results[i].path_offset, (size_t)r.path_count));
    if (i > 0) CHECK(results[i].path_offset == results[i - 1].path_offset + results[i - 1].path_count);
  }
  CHECK_STATUS(lddb_batch_solve(batch, db, map, NULL, 0, NULL, NULL, NULL, 0, NULL), LDDB_OK);
  CHECK_STATUS(lddb_batch_free(batch), LDDB_OK);
}

static void no_path_and_bad_points(lddb_context ctx, lddb_database db, lddb_map map) {
  lddb_result r;
  lddb_map closed = 0;
  int x, y;
  CHECK_STATUS(lddb_map_create(12, 12, 4, &closed), LDDB_OK);
  for (y = 0; y < 12; ++y)
    for (x = 0; x < 12; ++x)
      if (x == 6) CHECK_STATUS(lddb_map_set_blocked(closed, x, y, 1), LDDB_OK);
  CHECK_STATUS(lddb_solve(ctx, db, closed, pt(1, 1), pt(10, 10), NULL, &r, NULL, 0), LDDB_NO_PATH);
  CHECK(r.status == LDDB_NO_PATH && r.path_count == 0 && r.cost < 0);
  CHECK_STATUS(lddb_solve(ctx, db, map, pt(20, 3), pt(1, 1), NULL, &r, NULL, 0), LDDB_INVALID_START);
  CHECK_STATUS(lddb_solve(ctx, db, map, pt(1, 1), pt(-1, 1), NULL, &r, NULL, 0), LDDB_INVALID_GOAL);
  CHECK(strstr(lddb_last_error(), "(-1, 1)") != NULL);
  CHECK_STATUS(lddb_solve(ctx, db, map, pt(2147483647, 1), pt(1, 1), NULL, &r, NULL, 0), LDDB_INVALID_START);
  CHECK_STATUS(lddb_map_free(closed), LDDB_OK);
}

/* Why a search found no path: lddb_last_error() right after the call names it, and the
 * context keeps the same text (without the call's name) until its next search; a batch
 * keeps one per query, the same as one by one. */
static void search_messages(lddb_context ctx, lddb_database db, lddb_map map) {
  static const char prefix[] = "lddb_solve: ";
  char err[256], msg[256], tiny[4];
  size_t needed = 0;
  int32_t b = 0;
  lddb_result r, rs[3];
  lddb_query q[3];
  lddb_options o;
  lddb_batch batch = 0;
  lddb_map closed = 0;
  lddb_status st;
  int y;
  CHECK(blocked(20, 3) && blocked(20, 5)); /* in the wall */
  CHECK_STATUS(lddb_solve(ctx, db, map, pt(20, 3), pt(1, 1), NULL, &r, NULL, 0), LDDB_INVALID_START);
  strncpy(err, lddb_last_error(), sizeof err - 1);
  err[sizeof err - 1] = '\0';
  CHECK(strncmp(err, prefix, strlen(prefix)) == 0 && strstr(err, "start") && strstr(err, "(20,3)") &&
        strstr(err, "blocked"));
  CHECK_STATUS(lddb_map_blocked(map, 1, 1, &b), LDDB_OK); /* another call clears the thread's message... */
  CHECK(strcmp(lddb_last_error(), "") == 0);
  CHECK_STATUS(lddb_context_message(ctx, msg, sizeof msg, &needed), LDDB_OK); /* ...the context keeps it */
  CHECK(strcmp(msg, err + strlen(prefix)) == 0 && needed == strlen(msg) + 1);
  CHECK_STATUS(lddb_context_message(ctx, NULL, 0, &needed), LDDB_OK);
  CHECK(needed == strlen(msg) + 1);
  CHECK_STATUS(lddb_context_message(ctx, tiny, sizeof tiny, &needed), LDDB_BUFFER_TOO_SMALL);
  CHECK(needed == strlen(msg) + 1);

  CHECK_STATUS(lddb_solve(ctx, db, map, pt(1, 1), pt(20, 5), NULL, &r, NULL, 0), LDDB_INVALID_GOAL);
  CHECK(strstr(lddb_last_error(), "goal") && strstr(lddb_last_error(), "(20,5)"));

  CHECK_STATUS(lddb_map_create(12, 12, 4, &closed), LDDB_OK);
  for (y = 0; y < 12; ++y) CHECK_STATUS(lddb_map_set_blocked(closed, 6, y, 1), LDDB_OK);
  CHECK_STATUS(lddb_solve(ctx, db, closed, pt(1, 1), pt(10, 10), NULL, &r, NULL, 0), LDDB_NO_PATH);
  CHECK(strstr(lddb_last_error(), "no path") && strstr(lddb_last_error(), "(10,10)"));
  CHECK_STATUS(lddb_context_message(ctx, msg, sizeof msg, &needed), LDDB_OK);
  CHECK(strstr(msg, "no path") == msg);
  /* Sliced, with a budget for the whole search: nothing to explain while it runs, the
   * outcome's text once it ends. */
  CHECK_STATUS(lddb_options_init(&o), LDDB_OK);
  o.max_expansions = 3;
  st = lddb_search_begin(ctx, db, map, pt(1, 1), pt(W - 2, H - 2), &o, &r);
  CHECK(st == LDDB_IN_PROGRESS);
  CHECK_STATUS(lddb_context_message(ctx, msg, sizeof msg, &needed), LDDB_OK);
  CHECK(strcmp(msg, "") == 0 && needed == 1);
  for (y = 0; st == LDDB_IN_PROGRESS && y < 10000; ++y) st = lddb_search_continue(ctx, 1, &r);
  CHECK(st == LDDB_BUDGET_EXHAUSTED && strstr(lddb_last_error(), "lddb_search_continue: expansion budget"));
  CHECK_STATUS(lddb_context_message(ctx, msg, sizeof msg, &needed), LDDB_OK);
  CHECK(strstr(msg, "expansion budget") == msg);
  CHECK_STATUS(lddb_solve(ctx, db, closed, pt(1, 1), pt(2, 2), NULL, &r, NULL, 0), LDDB_OK);
  CHECK_STATUS(lddb_context_message(ctx, msg, sizeof msg, &needed), LDDB_OK);
  CHECK(strcmp(msg, "") == 0 && needed == 1);
  CHECK_STATUS(lddb_map_free(closed), LDDB_OK);

  q[0].start = pt(20, 3), q[0].goal = pt(1, 1);
  q[1].start = pt(1, 1), q[1].goal = pt(2, 2);
  q[2].start = pt(1, 1), q[2].goal = pt(20, 5);
  CHECK_STATUS(lddb_batch_create(2, &batch), LDDB_OK);
  CHECK_STATUS(lddb_batch_solve(batch, db, map, q, 3, NULL, rs, NULL, 0, NULL), LDDB_OK);
  for (y = 0; y < 3; ++y) {
    char single[256];
    CHECK(lddb_solve(ctx, db, map, q[y].start, q[y].goal, NULL, &r, NULL, 0) == (lddb_status)rs[y].status);
    CHECK_STATUS(lddb_context_message(ctx, single, sizeof single, NULL), LDDB_OK);
    CHECK_STATUS(lddb_batch_message(batch, (size_t)y, msg, sizeof msg, &needed), LDDB_OK);
    CHECK(strcmp(msg, single) == 0 && needed == strlen(msg) + 1);
    CHECK((rs[y].status == LDDB_OK) == (msg[0] == '\0'));
  }
  CHECK_STATUS(lddb_batch_message(batch, 3, msg, sizeof msg, &needed), LDDB_INVALID_ARGUMENT);
  CHECK(strstr(lddb_last_error(), "'index' 3") != NULL);
  CHECK_STATUS(lddb_batch_free(batch), LDDB_OK);
}

static void load_map_file(lddb_context ctx, lddb_database db) {
  const char* name = "c_api_test.map";
  FILE* f = fopen(name, "w");
  lddb_map map = 0;
  lddb_result r;
  int32_t b = -1;
  CHECK(f != NULL);
  if (!f) return;
  fputs("type octile\nheight 3\nwidth 5\nmap\n.....\n.@@@.\n.....\n", f);
  fclose(f);
  CHECK_STATUS(lddb_map_load(name, 4, &map), LDDB_OK);
  CHECK_STATUS(lddb_map_blocked(map, 2, 1, &b), LDDB_OK);
  CHECK(b == 1);
  CHECK_STATUS(lddb_solve(ctx, db, map, pt(0, 1), pt(4, 1), NULL, &r, NULL, 0), LDDB_OK);
  CHECK(r.cost_fixed == 6 * kOne); /* around the wall: no corner cutting beside (1, 1) and (3, 1) */
  CHECK_STATUS(lddb_map_free(map), LDDB_OK);
  remove(name);
}

/* Landmarks: the same paths' costs with fewer or as many expansions, by every algorithm,
 * one-shot, sliced and in a batch; a set goes stale when a cell is freed (and is then
 * ignored), stays current when one is blocked; another rule's set is refused. */
static void landmarks(lddb_context ctx, lddb_database db, lddb_database other, lddb_map map, enum rule_kind rule) {
  static lddb_point path[MAX_PATH];
  const lddb_point start = pt(1, 1), goal = pt(W - 2, H - 2);
  lddb_landmarks lm = 0, wrong = 0;
  lddb_options plain, with;
  lddb_result a, b, s;
  lddb_query q[2];
  lddb_result batch[2];
  lddb_batch solver = 0;
  int32_t current = -1, was = 0;
  lddb_status st;
  int k;
  CHECK_STATUS(lddb_landmarks_build(db, map, 4, 0, &lm), LDDB_OK);
  CHECK_STATUS(lddb_landmarks_current(lm, map, &current), LDDB_OK);
  CHECK(current == 1);
  CHECK_STATUS(lddb_options_init(&plain), LDDB_OK);
  with = plain;
  with.landmarks = lm;
  CHECK(with.version == 8);
  for (k = 0; k < (rule == ANY_ANGLE ? 3 : 2); ++k) {
    plain.algorithm = with.algorithm = k == 0 ? LDDB_BLOCK_ASTAR : rule == ANY_ANGLE ? LDDB_THETA_STAR + k - 1 : LDDB_ASTAR;
    CHECK_STATUS(lddb_solve(ctx, db, map, start, goal, &plain, &a, NULL, 0), LDDB_OK);
    CHECK_STATUS(lddb_solve(ctx, db, map, start, goal, &with, &b, path, MAX_PATH), LDDB_OK);
    check_path(rule, path, (size_t)b.path_count, &b, 0);
    if (k == 0 || rule != ANY_ANGLE) CHECK(b.cost_fixed == a.cost_fixed); /* Theta*s are not optimal */
  }
  plain.algorithm = with.algorithm = LDDB_BLOCK_ASTAR;
  CHECK_STATUS(lddb_solve(ctx, db, map, start, goal, &with, &b, NULL, 0), LDDB_OK);
  st = lddb_search_begin(ctx, db, map, start, goal, &with, &s);
  for (k = 0; st == LDDB_IN_PROGRESS && k < 100000; ++k) st = lddb_search_continue(ctx, 2, &s);
  CHECK(st == LDDB_OK && s.cost_fixed == b.cost_fixed && s.expansions == b.expansions);
  q[0].start = q[1].goal = start;
  q[0].goal = q[1].start = goal;
  CHECK_STATUS(lddb_batch_create(2, &solver), LDDB_OK);
  CHECK_STATUS(lddb_batch_solve(solver, db, map, q, 2, &with, batch, NULL, 0, NULL), LDDB_OK);
  CHECK(batch[0].cost_fixed == b.cost_fixed && batch[0].expansions == b.expansions);
  CHECK_STATUS(lddb_batch_free(solver), LDDB_OK);
  /* Blocking keeps the set; freeing a cell makes it stale, and the search then runs as
   * without it. */
  CHECK_STATUS(lddb_map_blocked(map, W / 2, 0, &was), LDDB_OK);
  CHECK_STATUS(lddb_map_set_blocked(map, W / 2, 0, 1), LDDB_OK);
  CHECK_STATUS(lddb_landmarks_current(lm, map, &current), LDDB_OK);
  CHECK(current == 1);
  CHECK_STATUS(lddb_map_set_blocked(map, W / 2, 0, 0), LDDB_OK);
  CHECK_STATUS(lddb_landmarks_current(lm, map, &current), LDDB_OK);
  CHECK(current == 0);
  CHECK_STATUS(lddb_solve(ctx, db, map, start, goal, &plain, &a, NULL, 0), LDDB_OK);
  CHECK_STATUS(lddb_solve(ctx, db, map, start, goal, &with, &b, NULL, 0), LDDB_OK);
  CHECK(a.cost_fixed == b.cost_fixed && a.expansions == b.expansions);
  CHECK_STATUS(lddb_map_set_blocked(map, W / 2, 0, was), LDDB_OK);
  /* A set for another rule, bad counts and placements. */
  CHECK_STATUS(lddb_landmarks_build(other, map, 2, 1, &wrong), LDDB_OK);
  with.landmarks = wrong;
  CHECK_STATUS(lddb_solve(ctx, db, map, start, goal, &with, &b, NULL, 0), LDDB_INVALID_ARGUMENT);
  CHECK(strstr(lddb_last_error(), "landmarks") != NULL);
  CHECK_STATUS(lddb_landmarks_build(db, map, 0, 0, &wrong), LDDB_INVALID_ARGUMENT);
  CHECK_STATUS(lddb_landmarks_build(db, map, 33, 0, &wrong), LDDB_INVALID_ARGUMENT);
  CHECK_STATUS(lddb_landmarks_build(db, map, 2, 2, &wrong), LDDB_INVALID_ARGUMENT);
  CHECK_STATUS(lddb_landmarks_free(with.landmarks), LDDB_OK);
  CHECK_STATUS(lddb_landmarks_free(lm), LDDB_OK);
  CHECK_STATUS(lddb_landmarks_free(lm), LDDB_BAD_HANDLE);
}

/* Open squares for every rule (open_squares 2) up to 16 x 16 blocks (square_levels 4) on
 * an open map: the cell rules' costs are the fixed blocks' (both optimal) with fewer
 * expansions, any-angle paths stay legal; a level out of range is refused. */
static void large_squares(lddb_context ctx, lddb_database db, enum rule_kind rule) {
  static lddb_point path[MAX_PATH];
  const lddb_point start = pt(130, 3), goal = pt(3, 140);
  lddb_map open = 0;
  lddb_options fixed, squares;
  lddb_result a, b, small;
  CHECK_STATUS(lddb_map_create(150, 150, 4, &open), LDDB_OK);
  CHECK_STATUS(lddb_map_set_blocked(open, 70, 70, 1), LDDB_OK);
  CHECK_STATUS(lddb_options_init(&fixed), LDDB_OK);
  fixed.open_squares = 0;
  squares = fixed;
  squares.open_squares = 2;
  squares.square_levels = 2;
  CHECK_STATUS(lddb_solve(ctx, db, open, start, goal, &fixed, &a, NULL, 0), LDDB_OK);
  CHECK_STATUS(lddb_solve(ctx, db, open, start, goal, &squares, &small, NULL, 0), LDDB_OK);
  squares.square_levels = 4;
  CHECK_STATUS(lddb_solve(ctx, db, open, start, goal, &squares, &b, path, MAX_PATH), LDDB_OK);
  CHECK(b.expansions < small.expansions && small.expansions < a.expansions);
  if (rule != ANY_ANGLE) CHECK(b.cost_fixed == a.cost_fixed && small.cost_fixed == a.cost_fixed);
  CHECK(b.path_count >= 2 && path[0].x == start.x && path[0].y == start.y);
  CHECK(path[b.path_count - 1].x == goal.x && path[b.path_count - 1].y == goal.y);
  squares.square_levels = 5;
  CHECK_STATUS(lddb_solve(ctx, db, open, start, goal, &squares, &b, NULL, 0), LDDB_INVALID_ARGUMENT);
  squares.square_levels = -1;
  CHECK_STATUS(lddb_solve(ctx, db, open, start, goal, &squares, &b, NULL, 0), LDDB_INVALID_ARGUMENT);
  CHECK_STATUS(lddb_map_free(open), LDDB_OK);
}

/* ------------------------------------------------------------------ units (options version 8) */

#define UW 10
#define UH 5
/* A map drawn in terrain letters; the test's copy is `rows`. */
static lddb_map draw_map(const char* const* rows, int w, int h) {
  lddb_map map = 0;
  int x, y;
  CHECK_STATUS(lddb_map_create(w, h, 4, &map), LDDB_OK);
  for (y = 0; y < h; ++y)
    for (x = 0; x < w; ++x) CHECK_STATUS(lddb_map_set_terrain(map, x, y, (uint8_t)rows[y][x]), LDDB_OK);
  return map;
}

/* Is the square of side k from cell (x, y) on the map and of types in `open`? */
static int square_open(const char* const* rows, int w, int h, const char* open, int x, int y, int k) {
  int dx, dy;
  for (dy = 0; dy < k; ++dy)
    for (dx = 0; dx < k; ++dx) {
      int cx = x + dx, cy = y + dy;
      if (cx < 0 || cy < 0 || cx >= w || cy >= h || !strchr(open, rows[cy][cx])) return 0;
    }
  return 1;
}

/* A k x k unit's cell path: every anchor's square open, one move a step, a diagonal with
 * the (k+1) x (k+1) box it sweeps open (corners forbidden, the shipped octile rule); the cost
 * the sum of the steps. Any-angle: each segment, sampled, moves the open square over no
 * closed cell. */
static void check_unit_path(const char* const* rows, int w, int h, const char* open, enum rule_kind rule, int k,
                            const lddb_point* p, size_t n, const lddb_result* r) {
  uint64_t cost = 0;
  size_t i;
  CHECK(n >= 1);
  if (rule == ANY_ANGLE) {
    for (i = 1; i < n; ++i) {
      double dx = p[i].x - p[i - 1].x, dy = p[i].y - p[i - 1].y;
      int s, steps = (int)(sqrt(dx * dx + dy * dy) * 97) + 1;
      for (s = 0; s <= steps; ++s) {
        double t = (double)s / steps, px = p[i - 1].x + t * dx, py = p[i - 1].y + t * dy;
        int cx, cy;
        if (k == 0) {
          if (px != floor(px) && py != floor(py)) CHECK(square_open(rows, w, h, open, (int)px, (int)py, 1));
          continue;
        }
        for (cy = (int)floor(py); cy < (int)ceil(py + k); ++cy)
          for (cx = (int)floor(px); cx < (int)ceil(px + k); ++cx) CHECK(square_open(rows, w, h, open, cx, cy, 1));
      }
    }
    return;
  }
  for (i = 0; i < n; ++i) CHECK(square_open(rows, w, h, open, p[i].x, p[i].y, k < 1 ? 1 : k));
  for (i = 1; i < n; ++i) {
    int dx = p[i].x - p[i - 1].x, dy = p[i].y - p[i - 1].y;
    CHECK(abs(dx) <= 1 && abs(dy) <= 1 && abs(dx) + abs(dy) >= 1);
    if (dx && dy) {
      CHECK(rule == OCTILE);
      const int bx = dx > 0 ? p[i - 1].x : p[i].x, by = dy > 0 ? p[i - 1].y : p[i].y;
      CHECK(square_open(rows, w, h, open, bx, by, (k < 1 ? 1 : k) + 1));
      cost += kSqrt2;
    } else {
      cost += kOne;
    }
  }
  CHECK(r->cost_fixed == cost);
}

static int in_class(const lddb_options* o, uint8_t t) { return (o->movement[t >> 3] >> (t & 7)) & 1; }

static lddb_status unit_solve(lddb_context ctx, lddb_database db, lddb_map map, lddb_point a, lddb_point b,
                              const lddb_options* o, lddb_result* r, lddb_point* path) {
  return lddb_solve(ctx, db, map, a, b, o, r, path, MAX_PATH);
}

/* A wall with a one-cell gap: a one-cell unit (and a point) passes, a 2 x 2 one only once
 * set_terrain widens the gap; a 3 x 3 one at (0,0) would stand in the wall. Costs counted by
 * hand: the 2 x 2 unit must stand at x = 5 while it covers the wall's row. */
static void unit_sizes(lddb_context ctx, lddb_database db, enum rule_kind rule) {
  static const char* rows[UH] = {"..........", "..........", "@@@@@.@@@@", "..........", ".........."};
  static const char* wide[UH] = {"..........", "..........", "@@@@@..@@@", "..........", ".........."};
  static lddb_point path[MAX_PATH];
  const lddb_point start = pt(0, 0), goal = pt(0, 3);
  const uint64_t one_cell = rule == OCTILE ? 11 * kOne + kSqrt2 : 13 * kOne;
  lddb_map map = draw_map(rows, UW, UH);
  lddb_options o, plain;
  lddb_result r, s;
  lddb_query q[3];
  lddb_result rs[3];
  lddb_batch batch = 0;
  lddb_status st;
  int a, k;
  CHECK_STATUS(lddb_options_init(&o), LDDB_OK);
  CHECK(o.unit_size == 0 && in_class(&o, '.') && in_class(&o, 'G') && in_class(&o, 'S') && !in_class(&o, 'W'));
  plain = o;
  for (a = 0; a < 2; ++a) { /* Block A*, then A* or Theta* */
    o.algorithm = a == 0 ? LDDB_BLOCK_ASTAR : rule == ANY_ANGLE ? LDDB_THETA_STAR : LDDB_ASTAR;
    for (k = 0; k <= 2; ++k) {
      /* Any-angle: a square cannot pass a gap, nor stand in a corridor, exactly its side. */
      const lddb_status want = k == 0 || (k == 1 && rule != ANY_ANGLE) ? LDDB_OK
                               : k == 2 && rule == ANY_ANGLE        ? LDDB_INVALID_START
                                                                    : LDDB_NO_PATH;
      o.unit_size = k;
      st = unit_solve(ctx, db, map, start, goal, &o, &r, path);
      CHECK(st == want);
      if (st != LDDB_OK) continue;
      check_unit_path(rows, UW, UH, ".", rule, k, path, (size_t)r.path_count, &r);
      if (rule != ANY_ANGLE) CHECK(r.cost_fixed == one_cell);
    }
  }
  o.algorithm = LDDB_BLOCK_ASTAR;
  o.unit_size = 3;
  CHECK_STATUS(unit_solve(ctx, db, map, start, goal, &o, &r, path), LDDB_INVALID_START);
  CHECK(strstr(lddb_last_error(), "size 3") != NULL);
  /* A version 7 struct has no unit: what lies where unit_size and movement are now is not read. */
  o.unit_size = 2;
  CHECK_STATUS(lddb_movement_set_letters(&o, "W"), LDDB_OK);
  CHECK_STATUS(unit_solve(ctx, db, map, start, goal, &o, &r, path), LDDB_INVALID_START); /* (0,0) is not water */
  o.version = 7;
  o.struct_size = (uint32_t)offsetof(lddb_options, movement); /* version 7's sizeof, padding included */
  CHECK_STATUS(unit_solve(ctx, db, map, start, goal, &o, &r, path), LDDB_OK);
  CHECK_STATUS(unit_solve(ctx, db, map, start, goal, &plain, &s, path), LDDB_OK);
  CHECK(r.cost_fixed == s.cost_fixed && r.expansions == s.expansions && r.path_count == s.path_count);
  CHECK_STATUS(lddb_movement_add(&o, 'W'), LDDB_INVALID_ARGUMENT); /* no room for it: nothing written */

  /* The gap widened: the map's unit views follow set_terrain. */
  CHECK_STATUS(lddb_map_set_terrain(map, 6, 2, '.'), LDDB_OK);
  o = plain;
  o.unit_size = rule == ANY_ANGLE ? 1 : 2;
  CHECK_STATUS(unit_solve(ctx, db, map, start, goal, &o, &r, path), LDDB_OK);
  check_unit_path(wide, UW, UH, ".", rule, o.unit_size, path, (size_t)r.path_count, &r);
  if (rule != ANY_ANGLE) CHECK(r.cost_fixed == 13 * kOne);
  st = lddb_search_begin(ctx, db, map, start, goal, &o, &s); /* sliced == one-shot */
  for (k = 0; st == LDDB_IN_PROGRESS && k < 100000; ++k) st = lddb_search_continue(ctx, 1, &s);
  CHECK(st == LDDB_OK && s.cost_fixed == r.cost_fixed);
  o.unit_size = rule == ANY_ANGLE ? 2 : 3;
  CHECK(unit_solve(ctx, db, map, pt(0, 0), pt(0, 2), &o, &r, path) != LDDB_OK);
  /* A batch moves the options' unit: each result as one by one. */
  o.unit_size = rule == ANY_ANGLE ? 1 : 2;
  q[0].start = start, q[0].goal = goal;
  q[1].start = goal, q[1].goal = pt(8, 0);
  q[2].start = pt(UW - 1 + (rule == ANY_ANGLE), 0), q[2].goal = goal; /* the square would leave the map */
  CHECK_STATUS(lddb_batch_create(2, &batch), LDDB_OK);
  CHECK_STATUS(lddb_batch_solve(batch, db, map, q, 3, &o, rs, NULL, 0, NULL), LDDB_OK);
  CHECK(rs[0].status == LDDB_OK && rs[1].status == LDDB_OK && rs[2].status == LDDB_INVALID_START);
  for (k = 0; k < 3; ++k) {
    CHECK(unit_solve(ctx, db, map, q[k].start, q[k].goal, &o, &r, path) == (lddb_status)rs[k].status);
    CHECK(r.cost_fixed == rs[k].cost_fixed && r.expansions == rs[k].expansions);
  }
  CHECK_STATUS(lddb_batch_free(batch), LDDB_OK);
  CHECK_STATUS(lddb_map_free(map), LDDB_OK);
}

/* Movement classes on a U of water: a boat goes round it, an amphibious unit crosses the
 * ground between its arms, a ground unit cannot stand in it; a game's numbered type. */
static void unit_classes(lddb_context ctx, lddb_database db, enum rule_kind rule) {
  static const char* rows[5] = {".W...W.", ".W...W.", ".W...W.", ".W...W.", ".WWWWW."};
  static lddb_point path[MAX_PATH];
  const int size = rule == ANY_ANGLE ? 0 : 1; /* a point; one cell (as size 0 is) */
  lddb_map map = draw_map(rows, 7, 5);
  lddb_options o;
  lddb_result r;
  uint8_t type = 0;
  int32_t b = 0, y;
  CHECK_STATUS(lddb_map_terrain(map, 1, 4, &type), LDDB_OK);
  CHECK(type == 'W');
  CHECK_STATUS(lddb_map_blocked(map, 1, 4, &b), LDDB_OK);
  CHECK(b == 1);
  CHECK_STATUS(lddb_options_init(&o), LDDB_OK);
  o.unit_size = size;
  /* On ground: cell (1,0) is water; vertex (1,0) touches the ground of column 0, cut off by water. */
  CHECK_STATUS(unit_solve(ctx, db, map, pt(1, 0), pt(5, 0), &o, &r, path),
               rule == ANY_ANGLE ? LDDB_NO_PATH : LDDB_INVALID_START);
  CHECK_STATUS(lddb_movement_set_letters(&o, "W"), LDDB_OK);
  CHECK(in_class(&o, 'W') && !in_class(&o, '.') && !in_class(&o, 'S'));
  CHECK_STATUS(unit_solve(ctx, db, map, pt(1, 0), pt(5, 0), &o, &r, path), LDDB_OK);
  check_unit_path(rows, 7, 5, "W", rule, size, path, (size_t)r.path_count, &r);
  if (rule != ANY_ANGLE) CHECK(r.cost_fixed == 12 * kOne); /* down the arm, along the bottom, up */
  else CHECK(r.cost > sqrt(17.0) + 7 - 1e-6 && r.cost < 12 + 1e-6); /* at best (1,0) (2,4) (5,4) (5,0) */
  CHECK_STATUS(lddb_options_init(&o), LDDB_OK);
  o.unit_size = size;
  CHECK_STATUS(lddb_movement_add(&o, 'W'), LDDB_OK); /* ground and water */
  CHECK_STATUS(unit_solve(ctx, db, map, pt(1, 0), pt(5, 0), &o, &r, path), LDDB_OK);
  check_unit_path(rows, 7, 5, ".W", rule, size, path, (size_t)r.path_count, &r);
  CHECK(r.cost_fixed == 4 * kOne);
  /* A numbered type: a road of type 7 down the first column. set_blocked keeps a type that
   * is closed already (7 is not ground), and writes '.' when it frees the cell. */
  for (y = 0; y < 5; ++y) CHECK_STATUS(lddb_map_set_terrain(map, 0, y, 7), LDDB_OK);
  CHECK_STATUS(lddb_movement_clear(&o), LDDB_OK);
  CHECK_STATUS(lddb_movement_add(&o, 7), LDDB_OK);
  CHECK_STATUS(lddb_map_set_blocked(map, 0, 2, 1), LDDB_OK);
  CHECK_STATUS(lddb_map_terrain(map, 0, 2, &type), LDDB_OK);
  CHECK(type == 7);
  CHECK_STATUS(unit_solve(ctx, db, map, pt(0, 0), pt(0, 4), &o, &r, path), LDDB_OK);
  CHECK(r.cost_fixed == 4 * kOne);
  CHECK_STATUS(lddb_map_set_blocked(map, 0, 2, 0), LDDB_OK);
  CHECK_STATUS(lddb_map_terrain(map, 0, 2, &type), LDDB_OK);
  CHECK(type == LDDB_TERRAIN_FREE);
  CHECK_STATUS(unit_solve(ctx, db, map, pt(0, 0), pt(0, 4), &o, &r, path), LDDB_NO_PATH);
  /* Every bit clear reads as ground: the default unit's answer. */
  CHECK_STATUS(lddb_movement_clear(&o), LDDB_OK);
  o.unit_size = 0;
  CHECK_STATUS(unit_solve(ctx, db, map, pt(2, 0), pt(4, 0), &o, &r, path), LDDB_OK);
  CHECK(r.cost_fixed == 2 * kOne);
  CHECK_STATUS(lddb_map_free(map), LDDB_OK);
}

/* Rectangles: the test's cells packed row-major, least significant bit first, give the map
 * build_map made cell by cell; the same bits read as free cells give its inverse; a fill
 * blocks a rectangle across the first word boundary of a row and nothing else. */
static void rectangles(void) {
  uint8_t bits[(W * H + 7) / 8];
  lddb_map map = 0;
  int32_t got = 0;
  int x, y, same = 1, inverse = 1, filled = 1;
  memset(bits, 0, sizeof bits);
  for (y = 0; y < H; ++y)
    for (x = 0; x < W; ++x)
      if (cells[y][x]) bits[(y * W + x) / 8] |= (uint8_t)(1u << ((y * W + x) % 8));
  CHECK_STATUS(lddb_map_create(W, H, 4, &map), LDDB_OK);
  CHECK_STATUS(lddb_map_set_rect(map, 0, 0, W, H, bits, sizeof bits, 0), LDDB_OK);
  for (y = 0; y < H; ++y)
    for (x = 0; x < W; ++x) same &= lddb_map_blocked(map, x, y, &got) == LDDB_OK && got == cells[y][x];
  CHECK(same);
  CHECK_STATUS(lddb_map_set_rect(map, 0, 0, W, H, bits, sizeof bits, 1), LDDB_OK);
  for (y = 0; y < H; ++y)
    for (x = 0; x < W; ++x) inverse &= lddb_map_blocked(map, x, y, &got) == LDDB_OK && got == !cells[y][x];
  CHECK(inverse);
  CHECK_STATUS(lddb_map_fill_rect(map, 0, 0, W, H, 0), LDDB_OK);
  CHECK_STATUS(lddb_map_fill_rect(map, 30, 2, 11, 3, 1), LDDB_OK);
  for (y = 0; y < H; ++y)
    for (x = 0; x < W; ++x) filled &= lddb_map_blocked(map, x, y, &got) == LDDB_OK && got == (x >= 30 && y >= 2 && y < 5);
  CHECK(filled);
  CHECK_STATUS(lddb_map_fill_rect(map, 31, 2, 11, 3, 1), LDDB_INVALID_ARGUMENT);
  CHECK_STATUS(lddb_map_free(map), LDDB_OK);
}

int main(void) {
  const char* names[3] = {"tile-4.lddb", "octile-4.lddb", "any-angle-4.lddb"};
  const char* rules[3] = {"tile", "octile", "any-angle"};
  lddb_context ctx = 0;
  lddb_map map = build_map();
  int i;
  CHECK_STATUS(lddb_context_create(&ctx), LDDB_OK);
  rectangles();
  for (i = 0; i < 3; ++i) {
    char path[1024], rule[64];
    lddb_database db = 0;
    size_t needed = 0;
    int32_t block = 0;
    snprintf(path, sizeof path, "%s/lddb/%s", LDDB_SOURCE_DIR, names[i]);
    CHECK_STATUS(lddb_database_open(path, &db), LDDB_OK);
    CHECK_STATUS(lddb_database_rule_name(db, NULL, 0, &needed), LDDB_OK);
    CHECK(needed == strlen(rules[i]) + 1);
    CHECK_STATUS(lddb_database_rule_name(db, rule, 2, &needed), LDDB_BUFFER_TOO_SMALL);
    CHECK_STATUS(lddb_database_rule_name(db, rule, sizeof rule, &needed), LDDB_OK);
    CHECK(strcmp(rule, rules[i]) == 0);
    CHECK_STATUS(lddb_database_block_size(db, &block), LDDB_OK);
    CHECK(block == 4);
    solve_all(ctx, db, map, (enum rule_kind)i);
    {
      lddb_database other = 0;
      snprintf(path, sizeof path, "%s/lddb/%s", LDDB_SOURCE_DIR, names[(i + 1) % 3]);
      CHECK_STATUS(lddb_database_open(path, &other), LDDB_OK);
      landmarks(ctx, db, other, map, (enum rule_kind)i);
      CHECK_STATUS(lddb_database_close(other), LDDB_OK);
    }
    batch_matches_single(ctx, db, map, i == ANY_ANGLE);
    large_squares(ctx, db, (enum rule_kind)i);
    unit_sizes(ctx, db, (enum rule_kind)i);
    unit_classes(ctx, db, (enum rule_kind)i);
    if (i == OCTILE) {
      no_path_and_bad_points(ctx, db, map);
      search_messages(ctx, db, map);
      load_map_file(ctx, db);
    }
    CHECK_STATUS(lddb_database_close(db), LDDB_OK);
  }
  CHECK_STATUS(lddb_context_free(ctx), LDDB_OK);
  CHECK_STATUS(lddb_map_free(map), LDDB_OK);
  if (failures) {
    fprintf(stderr, "c_api_test: %d checks failed\n", failures);
    return 1;
  }
  printf("c_api_test: all checks passed\n");
  return 0;
}
