/* tests/consumer/consumer.c: a C99 program built against the installed liblddb.so through
 * pkg-config (scripts/install_check.sh), as an engine's C binding would use it. Usage:
 * consumer-c DATABASE.lddb; prints the path's cost and length, exit status 1 on failure. */
#include <stdio.h>

#include "lddb/lddb.h"

int main(int argc, char** argv) {
  lddb_database db;
  lddb_map map;
  lddb_context ctx;
  lddb_result r;
  lddb_point path[1024];
  lddb_point start = {1, 1}, goal = {60, 40};
  int32_t block = 0;
  int y;
  if (argc != 2) {
    fprintf(stderr, "usage: consumer-c DATABASE.lddb\n");
    return 2;
  }
  if (lddb_database_open(argv[1], &db) != LDDB_OK || lddb_database_block_size(db, &block) != LDDB_OK ||
      lddb_map_create(64, 48, block, &map) != LDDB_OK || lddb_context_create(&ctx) != LDDB_OK) {
    fprintf(stderr, "consumer-c: %s\n", lddb_last_error());
    return 1;
  }
  for (y = 0; y < 40; ++y) lddb_map_set_blocked(map, 30, y, 1); /* a wall, open at its south end */
  if (lddb_solve(ctx, db, map, start, goal, NULL, &r, path, 1024) != LDDB_OK) {
    fprintf(stderr, "consumer-c: %s\n", lddb_last_error());
    return 1;
  }
  printf("consumer-c: %s: path of %llu cells, cost %.3f, length %.3f\n", argv[1], (unsigned long long)r.path_count,
         r.cost, r.length);
  lddb_context_free(ctx);
  lddb_map_free(map);
  lddb_database_close(db);
  return 0;
}
