/* first_path.c: the first path through lddb's C API (lddb/lddb.h, C99).
 *
 *   cc -std=c99 first_path.c -o first_path $(pkg-config --cflags --libs lddb)
 *   ./first_path PREFIX/share/lddb/octile-4.lddb
 *
 * Builds a 40 x 20 map with two walls, solves one query with Block A*, and prints the path
 * as points and drawn on the map. Exit status 1 when anything fails. */
#include <stdio.h>
#include <stdlib.h>

#include "lddb/lddb.h"

#define W 40
#define H 20

static int failed(const char* what) {
  fprintf(stderr, "first_path: %s: %s\n", what, lddb_last_error());
  return 1;
}

int main(int argc, char** argv) {
  lddb_database db;
  lddb_map map;
  lddb_context ctx;
  lddb_result r;
  lddb_point start = {2, 2}, goal = {37, 17};
  lddb_point* path;
  int32_t block = 0, blocked = 0;
  char picture[H][W + 1];
  int x, y;
  size_t i;
  if (argc != 2) {
    fprintf(stderr, "usage: first_path DATABASE.lddb\n");
    return 2;
  }
  /* The map's blocks must have the database's size, so ask the database first. */
  if (lddb_database_open(argv[1], &db) != LDDB_OK) return failed("open");
  if (lddb_database_block_size(db, &block) != LDDB_OK) return failed("block size");
  if (lddb_map_create(W, H, block, &map) != LDDB_OK) return failed("map");
  for (y = 0; y < 15; ++y) lddb_map_set_blocked(map, 12, y, 1);     /* open at the bottom */
  for (y = 5; y < H; ++y) lddb_map_set_blocked(map, 26, y, 1);      /* open at the top */
  if (lddb_context_create(&ctx) != LDDB_OK) return failed("context");
  /* Sized for every query on this map up front (NULL: Block A*, the default search), so the
   * first query costs what later ones do. A game calls it after loading, off the clock. */
  if (lddb_context_reserve(ctx, db, map, NULL) != LDDB_OK) return failed("reserve");

  /* The search the map's preparation chose (Block A* here: the map is not prepared). NULL,
   * 0: only learn the path's length, then copy it into a buffer of that size. The
   * context keeps the path, so lddb_context_path could fetch it without a second search. */
  if (lddb_find_path(ctx, db, map, start, goal, NULL, &r, NULL, 0) != LDDB_OK) return failed("find_path");
  path = malloc(sizeof *path * (size_t)r.path_count);
  if (path == NULL || lddb_context_path(ctx, path, (size_t)r.path_count, &i) != LDDB_OK) return failed("path");

  printf("first_path: %llu cells, cost %.3f, %llu nodes expanded\n", (unsigned long long)r.path_count, r.cost,
         (unsigned long long)r.expansions);
  for (i = 0; i < r.path_count; ++i) printf("%s(%d,%d)", i ? " " : "", (int)path[i].x, (int)path[i].y);
  printf("\n");

  for (y = 0; y < H; ++y) {
    for (x = 0; x < W; ++x) {
      lddb_map_blocked(map, x, y, &blocked);
      picture[y][x] = blocked ? '#' : '.';
    }
    picture[y][W] = '\0';
  }
  for (i = 0; i < r.path_count; ++i) picture[path[i].y][path[i].x] = '*';
  picture[start.y][start.x] = 'S';
  picture[goal.y][goal.x] = 'G';
  for (y = 0; y < H; ++y) printf("%s\n", picture[y]);

  free(path);
  lddb_context_free(ctx);
  lddb_map_free(map);
  lddb_database_close(db);
  return 0;
}
