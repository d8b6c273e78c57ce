/* tests/consumer/consumer.c: a C99 program built against the installed liblddb.so through
 * pkg-config (scripts/install_check.sh), as an engine's C binding would use it. Usage:
 * consumer-c [DATABASE.lddb...]; with none, tile-4, octile-4 and any-angle-4 as
 * lddb_find_database finds them. Prints each path's cost and length, exit status 1 on
 * failure. */
#include <stdio.h>

#include "lddb/lddb.h"

static int run(const char* file) {
  lddb_database db;
  lddb_map map;
  lddb_context ctx;
  lddb_result r;
  lddb_point path[1024];
  lddb_point start = {1, 1}, goal = {60, 40};
  int32_t block = 0;
  if (lddb_database_open(file, &db) != LDDB_OK || lddb_database_block_size(db, &block) != LDDB_OK ||
      lddb_map_create(64, 48, block, &map) != LDDB_OK || lddb_context_create(&ctx) != LDDB_OK ||
      lddb_map_fill_rect(map, 30, 0, 1, 40, 1) != LDDB_OK) { /* a wall, open at its south end */
    fprintf(stderr, "consumer-c: %s\n", lddb_last_error());
    return 1;
  }
  if (lddb_solve(ctx, db, map, start, goal, NULL, &r, path, 1024) != LDDB_OK) {
    fprintf(stderr, "consumer-c: %s\n", lddb_last_error());
    return 1;
  }
  printf("consumer-c: %s: path of %llu points, cost %.3f, length %.3f\n", file, (unsigned long long)r.path_count,
         r.cost, r.length);
  lddb_context_free(ctx);
  lddb_map_free(map);
  lddb_database_close(db);
  return 0;
}

int main(int argc, char** argv) {
  static const char* shipped[] = {"tile-4.lddb", "octile-4.lddb", "any-angle-4.lddb"};
  char found[4096];
  int failed = 0, i;
  if (argc > 1) {
    for (i = 1; i < argc; ++i) failed |= run(argv[i]);
    return failed;
  }
  for (i = 0; i < 3; ++i) {
    if (lddb_find_database(shipped[i], NULL, found, sizeof found, NULL) != LDDB_OK) {
      fprintf(stderr, "consumer-c: %s\n", lddb_last_error());
      return 1;
    }
    failed |= run(found);
  }
  return failed;
}
