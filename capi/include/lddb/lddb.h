/* lddb/lddb.h: the C API of lddb (library lddb_c), for C and for other languages
 * (P/Invoke, GDExtension, Rust FFI, Python ctypes: the package capi/python/lddb).
 *
 * Handles. Databases, maps, contexts and batch solvers are opaque 64-bit ids, never
 * pointers: every call looks its handle up in a table that records the kind and a
 * generation, so 0, a freed handle or a handle of another kind gives LDDB_NULL_ARGUMENT,
 * LDDB_BAD_HANDLE or LDDB_WRONG_HANDLE_KIND instead of a crash. Freeing 0 or a handle
 * already freed returns LDDB_NULL_ARGUMENT or LDDB_BAD_HANDLE and does nothing else.
 *
 * Ownership. The caller owns every handle it creates and frees it with the matching
 * *_free / *_close. Freeing a handle another thread is using at that moment is safe: the
 * object lives until that call returns. Buffers (paths, arrays) always belong to the caller;
 * the library never keeps a pointer to them past the call.
 *
 * Threading. Every call may be made from any thread. A database is immutable and may be
 * shared by any number of threads. A map may be shared for solving, but must not be
 * changed (lddb_map_set_blocked, lddb_map_set_terrain) while a search on it runs. A context
 * holds one thread's search state: use one per thread (calls on one context from two
 * threads at once are serialised, not run in parallel). A batch solver runs one batch at a
 * time.
 *
 * Status. Every call returns an lddb_status; anything but LDDB_OK comes with a message for
 * the calling thread, lddb_last_error(), that names the argument or file and the problem.
 * Each call but lddb_last_error and lddb_status_name clears the message first. Outputs are written only on LDDB_OK, except where a
 * call says otherwise (solves fill their result for every search outcome; a short buffer
 * still reports the count needed).
 *
 * Points are cells (x = column, y = row, (0,0) top-left) for the tile and octile rules and
 * cell corners (vertices) for any-angle rules; for a unit larger than a cell (lddb_options,
 * unit_size) the unit's top-left cell or corner. Costs are in units of length (a straight
 * move costs 1); cost_fixed is the same cost in the library's fixed point (2^32 = 1). */
#ifndef LDDB_LDDB_H
#define LDDB_LDDB_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#  if defined(LDDB_C_BUILD_SHARED)
#    define LDDB_API __declspec(dllexport)
#  else
#    define LDDB_API
#  endif
#else
#  define LDDB_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef enum lddb_status {
  LDDB_OK = 0,
  LDDB_NULL_ARGUMENT = 1,     /* a pointer argument or a handle was NULL / 0 */
  LDDB_BAD_HANDLE = 2,        /* freed, or never created */
  LDDB_WRONG_HANDLE_KIND = 3, /* e.g. a map where a database was expected */
  LDDB_BUFFER_TOO_SMALL = 4,  /* the count needed is reported; nothing was copied */
  LDDB_IO_ERROR = 5,          /* cannot open or read the file */
  LDDB_CORRUPT_DATABASE = 6,  /* not an .lddb file, or one that fails verification */
  LDDB_RULE_MISMATCH = 7,     /* database rule or block size does not fit the query */
  LDDB_INVALID_START = 8,     /* off the map or blocked */
  LDDB_INVALID_GOAL = 9,
  LDDB_NO_PATH = 10,          /* start and goal are valid but not connected */
  LDDB_BUDGET_EXHAUSTED = 11, /* max_expansions reached: the path leads to the most promising point */
  LDDB_IN_PROGRESS = 12,      /* a sliced search has more work to do */
  LDDB_INVALID_ARGUMENT = 13, /* a value out of its range (size, block, algorithm, option...) */
  LDDB_OUT_OF_MEMORY = 14,
  LDDB_INTERNAL_ERROR = 15,   /* a bug: please report the message */
  LDDB_INVALID_MAP = 16,      /* a .map file that does not parse */
  LDDB_REBUILD_NEEDED = 17    /* landmarks that cannot be repaired: build a new set */
} lddb_status;

typedef uint64_t lddb_database; /* 0 is never a valid handle */
typedef uint64_t lddb_map;
typedef uint64_t lddb_context;
typedef uint64_t lddb_batch;
typedef uint64_t lddb_landmarks;

typedef struct lddb_point {
  int32_t x, y;
} lddb_point;

typedef struct lddb_query { /* fixed: a batch's unit is its options' (lddb_batch_solve) */
  lddb_point start, goal;
} lddb_query;

/* lddb_solve's search (lddb_find_path reads no algorithm: it runs the one the map's
 * preparation chose). */
typedef enum lddb_algorithm {
  LDDB_BLOCK_ASTAR = 0,     /* any rule; needs a database and a map cut into its blocks. In
                               lddb_solve: what lddb_find_path runs (Block A*, or jump point
                               search where the map's preparation chose it; `jumps` = 0
                               forces Block A* itself) */
  LDDB_ASTAR = 1,           /* tile and octile rules */
  LDDB_THETA_STAR = 2,      /* any-angle rules */
  LDDB_LAZY_THETA_STAR = 3  /* any-angle rules */
} lddb_algorithm;

typedef enum lddb_heuristic {
  LDDB_HEURISTIC_DEFAULT = 0, /* the rule's own: manhattan (tile), octile (octile), euclidean
                                 (any-angle). Another one must be admissible for the rule (never
                                 overestimate its costs, lddb/search.hpp heuristic_admissible:
                                 tile any; octile zero, octile, euclidean when the diagonal costs
                                 sqrt 2 or more, manhattan when it costs 2; any-angle zero and
                                 euclidean), else INVALID_ARGUMENT, whatever the weight */
  LDDB_HEURISTIC_ZERO = 1,
  LDDB_HEURISTIC_MANHATTAN = 2,
  LDDB_HEURISTIC_OCTILE = 3,
  LDDB_HEURISTIC_EUCLIDEAN = 4
} lddb_heuristic;

/* lddb_options.smooth (version 5). */
#define LDDB_SMOOTH_DEFAULT (-1) /* the rule's default: any-angle smoothed, tile and octile raw */
#define LDDB_SMOOTH_OFF 0        /* the search's own path: every cell for tile and octile */
#define LDDB_SMOOTH_ON 1

#define LDDB_OPTIONS_VERSION 8

/* Set by lddb_options_init; later versions only append fields, and the library reads only
 * the fields that struct_size covers. */
typedef struct lddb_options {
  uint32_t struct_size;    /* sizeof(lddb_options) */
  uint32_t version;        /* LDDB_OPTIONS_VERSION */
  int32_t algorithm;       /* lddb_algorithm; default LDDB_BLOCK_ASTAR */
  int32_t heuristic;       /* lddb_heuristic; default LDDB_HEURISTIC_DEFAULT */
  int32_t smooth;          /* LDDB_SMOOTH_ON: line-of-sight smoothing (lddb/search.hpp,
                              search_options::smooth); cell paths then keep only their turning
                              points (their cost stays), any-angle paths lose needless
                              waypoints and cost is recomputed from their segments.
                              LDDB_SMOOTH_OFF: the search's own path. LDDB_SMOOTH_DEFAULT
                              (negative; lddb_options_init's since version 5): the rule's
                              default, smoothed for any-angle only. A struct of version 4 or
                              less keeps its meaning: nonzero smooths, 0 does not. */
  int32_t open_squares;    /* Block A*: 0 the paper's fixed blocks; 1 (default) the rule's
                              default (open squares for any-angle only); 2 (version 4) open
                              squares for every rule: a free square of blocks is one node */
  uint64_t max_expansions; /* 0: no limit; else stop with LDDB_BUDGET_EXHAUSTED */
  /* Version 2. */
  double weight;           /* bounded-suboptimal search, from 1 (default: optimal) to 16: the
                              order is g + weight * h, and a tile or octile path costs at most
                              weight x the optimum (lddb/search.hpp, search_options::weight);
                              out of range (or NaN): INVALID_ARGUMENT */
  /* Version 3. */
  lddb_landmarks landmarks; /* 0 (default): none; else a set from lddb_landmarks_build for the
                               database's rule (another rule: INVALID_ARGUMENT). Ignored for a
                               query while the set is not current for the map. */
  /* Version 4. */
  int32_t square_levels;   /* Block A* with open squares: the largest, as L for 2^L x 2^L
                              blocks, 1 to 4; 0 (default): the rule's (4 for tile and
                              octile, 2 for any-angle; lddb/search.hpp,
                              search_diagnostics::square_levels); else INVALID_ARGUMENT */
  /* Version 6. */
  int32_t use_prepared;    /* 1 (default): use what lddb_prepare made for the map under the
                              database's rule (its landmarks unless `landmarks` names a set,
                              its open-square choice when open_squares is 1); 0: search as if
                              the map were not prepared */
  /* Version 7. */
  int32_t jumps;           /* Block A* under tile, octile with corners=forbidden, or any-angle: LDDB_JUMPS_DEFAULT
                              (negative, lddb_options_init's) the map's preparation's choice
                              (jump point search on maps without scattered obstacles, none on
                              a map not prepared); 0 Block A* always; 1 jump point search
                              (lddb/find_path.hpp: search_diagnostics::search). Other rules: ignored */
  /* Version 8: the unit that moves (lddb/unit.hpp). Every search, sliced and batched ones
   * too, searches the map as that unit sees it, with the same database; start and goal
   * (and the path's points) are the unit's top-left cell (tile, octile) or top-left corner
   * (any-angle). A start or goal where the unit cannot stand is INVALID_START / _GOAL, the
   * message naming the unit. A struct of version 7 or less searches with the default unit. */
  int32_t unit_size;       /* 0 (default) to LDDB_MAX_UNIT_SIZE, else INVALID_ARGUMENT. Tile and
                              octile: the unit fills unit_size x unit_size cells (0 and 1 are
                              the one-cell unit); a move is legal when the cells the square
                              sweeps are open to it, and a diagonal obeys the rule's corner
                              cutting as a one-cell unit's does. Any-angle: a unit_size x
                              unit_size square whose top-left corner moves between vertices
                              (0: the point of the any-angle rules); it may touch closed
                              cells but not pass a gap, nor stand in a corridor, exactly its
                              side wide, as a point may not run between two closed cells */
  uint8_t movement[32];    /* the movement class: the terrain types (lddb_map_set_terrain) the
                              unit may stand on, as 256 bits: type t is in it when
                              movement[t >> 3] & (1u << (t & 7)). lddb_options_init sets
                              ground, the types '.', 'G' and 'S' (the cells lddb_map_blocked
                              calls free); lddb_movement_add / _set_letters / _clear change it.
                              An empty set (all 32 bytes 0) is read as ground too: no class
                              without a type would open any cell */
} lddb_options;
#define LDDB_JUMPS_DEFAULT (-1)
#define LDDB_MAX_UNIT_SIZE 8

/* Terrain types (one byte a cell). The Moving AI letters by their character: '.' and 'G'
 * ground, 'S' swamp (all three ground), 'W' water, 'T' trees, '@' and 'O' out of bounds;
 * any other value is the game's own. */
#define LDDB_TERRAIN_FREE ((uint8_t)'.')    /* what lddb_map_set_blocked(.., 0) writes */
#define LDDB_TERRAIN_BLOCKED ((uint8_t)'@') /* what lddb_map_set_blocked(.., 1) writes */

/* lddb_result.searched: the search that answered, and so what `expansions` counts. */
typedef enum lddb_search_kind {
  LDDB_SEARCHED_BLOCK_ASTAR = 0,        /* blocks and open squares */
  LDDB_SEARCHED_JUMP_POINT_SEARCH = 1,  /* jump points */
  LDDB_SEARCHED_ASTAR = 2,              /* cells */
  LDDB_SEARCHED_THETA_STAR = 3,         /* vertices */
  LDDB_SEARCHED_LAZY_THETA_STAR = 4     /* vertices */
} lddb_search_kind;

typedef struct lddb_result {
  int32_t status;        /* lddb_status of the search: LDDB_OK when a path was found */
  int32_t searched;      /* lddb_search_kind: the search that answered */
  double cost;           /* the rule's cost of the returned path (lddb/search.hpp,
                              search_result::cost; for a smoothed any-angle path the sum of its
                              segments' lengths, equal to length within 2^-33 a segment); -1
                              without one */
  double length;         /* Euclidean length of the waypoints */
  uint64_t cost_fixed;   /* cost in fixed point (2^32 per unit); UINT64_MAX without a path */
  uint64_t expansions;   /* nodes expanded */
  uint64_t path_count;   /* points in the path */
  uint64_t path_offset;  /* batch: index of its first point in the paths array; else 0 */
} lddb_result;

/* The message of the calling thread's last failed call ("" after a success). Valid until
 * the thread's next lddb call. Never NULL. */
LDDB_API const char* lddb_last_error(void);
/* A constant name such as "no_path"; "unknown" for other values. Never NULL. */
LDDB_API const char* lddb_status_name(lddb_status status);

/* Databases. open: NULL_ARGUMENT, IO_ERROR, CORRUPT_DATABASE (every check of the file's
 * verification fails with it), OUT_OF_MEMORY. The open verifies the whole file.
 * rule_name copies the rule's canonical name ("octile", "any-angle", ...) with its NUL into
 * buf; *needed (may be NULL) gets the size with the NUL; buf NULL and size 0 only asks the
 * size; a short buf gives BUFFER_TOO_SMALL. */
LDDB_API lddb_status lddb_database_open(const char* path, lddb_database* out);
LDDB_API lddb_status lddb_database_close(lddb_database db);
LDDB_API lddb_status lddb_database_rule_name(lddb_database db, char* buf, size_t size, size_t* needed);
LDDB_API lddb_status lddb_database_block_size(lddb_database db, int32_t* out);

/* The path of a shipped database (file_name: "tile-4.lddb", "octile-4.lddb",
 * "any-angle-4.lddb") in the folder `dir`, or with dir NULL or "" in the first folder of
 * lddb's order (lddb/data_dir.hpp): $LDDB_DATA_DIR, share/lddb beside the running program,
 * share/lddb beside the library holding the C API (PREFIX/lib/liblddb.so gives
 * PREFIX/share/lddb, wherever the install was moved), the configured install's. The path is
 * not checked: lddb_database_open reports a missing file, naming it and the databases its
 * folder holds (a misspelt name shows the right one). buf, size and *needed
 * as for rule_name: buf NULL with size 0 only asks the size, a short buf gives
 * BUFFER_TOO_SMALL with *needed set. file_name NULL: NULL_ARGUMENT. */
LDDB_API lddb_status lddb_find_database(const char* file_name, const char* dir, char* buf, size_t size,
                                        size_t* needed);

/* Maps, all cells free on creation. width and height 1..16384, block 2..5 (the block size
 * of the database Block A* will use; other searches ignore it): else INVALID_ARGUMENT.
 * load: a Moving AI .map file, keeping each cell's letter as its terrain type; IO_ERROR when
 * unreadable, INVALID_MAP when it does not parse.
 * set_blocked/blocked: INVALID_ARGUMENT for a cell off the map. blocked is 1 when the cell's
 * type is not ground ('.', 'G', 'S'): closed to the default unit. set_blocked changes the
 * type only when the cell's passability changes: blocking writes LDDB_TERRAIN_BLOCKED,
 * freeing LDDB_TERRAIN_FREE.
 * set_terrain/terrain: the cell's terrain type (LDDB_TERRAIN_*; lddb_options.movement says
 * which types a unit may stand on). set_terrain also blocks the cell when the type is not
 * ground and frees it when it is; a map that holds only '.' and '@' keeps no types, the
 * first other one costs a byte a cell. Each unit (size and class) searches have asked
 * about keeps a view of the map, about 1.6 bytes a cell, which set_blocked and set_terrain
 * keep current (work about the square of the unit's side, a view).
 * Like set_blocked, not while a search or batch reads the map. INVALID_ARGUMENT for a cell
 * off the map; NULL `type`: NULL_ARGUMENT. */
LDDB_API lddb_status lddb_map_create(int32_t width, int32_t height, int32_t block, lddb_map* out);
LDDB_API lddb_status lddb_map_load(const char* path, int32_t block, lddb_map* out);
LDDB_API lddb_status lddb_map_free(lddb_map map);
LDDB_API lddb_status lddb_map_size(lddb_map map, int32_t* width, int32_t* height);
LDDB_API lddb_status lddb_map_set_blocked(lddb_map map, int32_t x, int32_t y, int32_t blocked);
LDDB_API lddb_status lddb_map_blocked(lddb_map map, int32_t x, int32_t y, int32_t* blocked);
LDDB_API lddb_status lddb_map_set_terrain(lddb_map map, int32_t x, int32_t y, uint8_t type);
LDDB_API lddb_status lddb_map_terrain(lddb_map map, int32_t x, int32_t y, uint8_t* type);

/* A rectangle of cells at once: a door, a building, a whole new map. set_rect: the width x
 * height cells from (x, y), cell (x + i, y + j) taking bit k = j * width + i of `bits`
 * (bits[k / 8] >> (k % 8) & 1: least significant bit first, rows packed with no padding, as
 * the GPPC dynamic track's patches are); a set bit blocks the cell, or frees it when
 * bits_mean_free is not 0. bits_size: the bytes `bits` holds, at least
 * (width * height + 7) / 8. fill_rect: every cell of the rectangle blocked (blocked not 0)
 * or free. Each ends as lddb_map_set_blocked on every cell, row by row, would (terrain
 * types and what the map keeps for searches included), at a fraction of its cost: words of
 * 64 cells at a time, cells that keep their state almost free. INVALID_ARGUMENT for a
 * width or height below 1, a rectangle not wholly on the map or a short bits_size; NULL
 * bits: NULL_ARGUMENT; nothing changes then. Like set_blocked, not while a search or batch
 * reads the map. */
LDDB_API lddb_status lddb_map_set_rect(lddb_map map, int32_t x, int32_t y, int32_t width, int32_t height,
                                       const uint8_t* bits, size_t bits_size, int32_t bits_mean_free);
LDDB_API lddb_status lddb_map_fill_rect(lddb_map map, int32_t x, int32_t y, int32_t width, int32_t height,
                                        int32_t blocked);

/* Landmarks (lddb/landmarks.hpp): a differential heuristic for one map under the rule of
 * `db`, given to searches through lddb_options.landmarks. build places `count` (1..32)
 * landmarks, farthest-first (placement 0) or at random (1), and computes a distance table for
 * each: 4 bytes a cell a landmark, tens of milliseconds for 8 on a 512 x 512 map, on the
 * calling thread (the map must not change meanwhile). Tile and octile searches stay optimal.
 * current: *current = 1 while the set still holds for `map` (the map it was built on, with
 * no cell freed since; blocking cells keeps it), else 0; a search given a set that is not
 * current uses the rule's own heuristic until the game repairs or rebuilds the set.
 * repair: catches up with the cells `map` freed since the set was current and returns OK
 * with the set current again: a cell that was free when the set was built (a door shut and
 * opened again) costs nothing; one that was blocked lowers the tables (a Dijkstra per
 * landmark over the points whose distance falls: microseconds for a small door, up to tens
 * of milliseconds for a new door that reroutes much of a 512 x 512 map, docs/benchmarks.md).
 * REBUILD_NEEDED when `map` is not the map the set was built on: the set stays not
 * current, build a new one. Not while a search or batch reads the set.
 * Bad counts or placements: INVALID_ARGUMENT; a map whose cells are all blocked:
 * INVALID_MAP. */
LDDB_API lddb_status lddb_landmarks_build(lddb_database db, lddb_map map, int32_t count, int32_t placement,
                                          lddb_landmarks* out);
LDDB_API lddb_status lddb_landmarks_free(lddb_landmarks landmarks);
LDDB_API lddb_status lddb_landmarks_current(lddb_landmarks landmarks, lddb_map map, int32_t* current);
LDDB_API lddb_status lddb_landmarks_repair(lddb_landmarks landmarks, lddb_map map);

/* Preparation (lddb/prepare.hpp): one call after a map is loaded, and every search on it
 * under the database's rule uses what pays for that map (landmarks where walls bend paths,
 * open squares where the open ground is wide; chosen by measured rules), kept current as
 * the map changes. mode: LDDB_PREPARE_SLICES builds what the first query can use (tens of
 * milliseconds at 512 x 512) and leaves the rest to lddb_prepare_step; LDDB_PREPARE_COMPLETE
 * builds everything first; LDDB_PREPARE_WORKER_THREAD returns at once and builds on a thread
 * of its own. report may be NULL. After set_blocked frees cells the searches go without
 * landmarks until lddb_prepare_step has repaired them: call it once a frame (work 0: the
 * default slice, about a millisecond); *ready (may be NULL) = 1 when nothing is pending;
 * INVALID_ARGUMENT on a map never prepared (nothing to continue).
 * lddb_preparation_get: the report of the map's preparation for the database's rule
 * (INVALID_ARGUMENT when it has none). Like lddb_map_set_blocked, not while a search or batch reads the map.
 * INVALID_ARGUMENT for an unknown mode, RULE_MISMATCH for a map cut into other blocks than
 * the database's. */
#define LDDB_PREPARE_SLICES 0
#define LDDB_PREPARE_COMPLETE 1
#define LDDB_PREPARE_WORKER_THREAD 2
#define LDDB_PREPARATION_READY 0    /* everything planned is built and current */
#define LDDB_PREPARATION_BUILDING 1 /* landmarks still to build; searches use those done */
#define LDDB_PREPARATION_STALE 2    /* cells freed since: lddb_prepare_step repairs */
#define LDDB_PREPARATION_SET_ASIDE 3 /* the map changes often: landmarks set aside until it holds still */
typedef struct lddb_preparation {
  int32_t landmarks;        /* landmarks planned (0: none) */
  int32_t landmarks_built;  /* whose tables are complete */
  int32_t open_squares;     /* 1: the map's searches use open squares */
  int32_t state;            /* LDDB_PREPARATION_* */
  double prepare_ms;        /* the lddb_prepare call */
  double total_ms;          /* with every lddb_prepare_step and the worker thread since */
  uint64_t bytes;           /* memory held now */
} lddb_preparation;
LDDB_API lddb_status lddb_prepare(lddb_database db, lddb_map map, int32_t mode, lddb_preparation* report);
LDDB_API lddb_status lddb_prepare_step(lddb_map map, uint64_t work, int32_t* ready);
LDDB_API lddb_status lddb_preparation_get(lddb_database db, lddb_map map, lddb_preparation* report);
/* The plan of the map's preparation for the database's rule, beside lddb_preparation: *jumps
 * (may be NULL) = 1 where lddb_find_path answers by jump point search, and `why`, the plan's
 * reasons as text (buf, size and *needed as for lddb_database_rule_name). INVALID_ARGUMENT
 * for a map not prepared for the rule, as lddb_preparation_get. */
LDDB_API lddb_status lddb_preparation_plan(lddb_database db, lddb_map map, int32_t* jumps, char* why, size_t size,
                                           size_t* needed);

/* Contexts: one thread's reusable search memory; it also keeps the last path solved. */
LDDB_API lddb_status lddb_context_create(lddb_context* out);
LDDB_API lddb_status lddb_context_free(lddb_context ctx);

/* Sizes ctx for every query on `map` by the search options->algorithm chooses, for the unit
 * options names (its view of the map built now, not by its first query) (NULL: the
 * defaults, Block A*), so that no later query on that map grows the context's tables and
 * the first costs what a warm one does (lddb/search.hpp, search_context::reserve; also
 * builds the map's component labels). Block A* needs the database for its rule and block
 * size: about 450 bytes a map block (7.1 MiB for 512 x 512 cells at b = 4), up to about
 * 820 on open ground (open squares); A* 48 bytes a cell, Theta* 48 or 96 a vertex. Call it after
 * loading and after set_blocked frees many cells; a sliced query in progress survives it.
 * The context's copy of the last path still grows with the longest path. BAD_HANDLE,
 * WRONG_HANDLE_KIND, INVALID_ARGUMENT (options as lddb_solve reads them), RULE_MISMATCH
 * (Block A* on a map cut into other blocks than the database's), OUT_OF_MEMORY. */
LDDB_API lddb_status lddb_context_reserve(lddb_context ctx, lddb_database db, lddb_map map, const lddb_options* options);

/* Defaults into the `size` bytes at *options: a program passes sizeof its own struct, so
 * that a library newer than its header writes no byte past it. The struct is filled as the
 * newest version that fits in `size` (struct_size = size, version: 8 from 96 bytes, 7 from
 * 64); INVALID_ARGUMENT for a size below 64 bytes, NULL_ARGUMENT for NULL. */
LDDB_API lddb_status lddb_options_init_size(lddb_options* options, uint32_t size);
/* Defaults into *options: a macro, so that the size is the caller's struct's. The function
 * of this name, which programs built against a header of version 7 call, fills 64 bytes,
 * the size of their struct. */
LDDB_API lddb_status lddb_options_init(lddb_options* options);
#define lddb_options_init(options) lddb_options_init_size((options), (uint32_t)sizeof *(options))

/* The movement class of options (version 8 or later; an older struct has no room for it:
 * INVALID_ARGUMENT, nothing written). add puts one type into the class: after
 * lddb_options_init, lddb_movement_add(&o, 'W') gives ground and water (amphibious).
 * set_letters makes the class exactly the characters of the NUL-terminated `letters`:
 * "W" for boats, ".GSW" amphibious; "" empties it, which reads as ground. clear empties it,
 * for a game that then adds its own numbered types one by one (until it adds one, the
 * empty class reads as ground). NULL options or letters: NULL_ARGUMENT. */
LDDB_API lddb_status lddb_movement_add(lddb_options* options, uint8_t type);
LDDB_API lddb_status lddb_movement_set_letters(lddb_options* options, const char* letters);
LDDB_API lddb_status lddb_movement_clear(lddb_options* options);

/* The search options, one row each (lddb/option_table.hpp: the table every language's
 * options come from; the Python package builds its keywords from it). `algorithm` is the
 * call's choice, not a row. */
typedef enum lddb_option_kind {
  LDDB_OPTION_CHOICE = 0,    /* an int32: a name of `choices` by its number from 0 (0: default) */
  LDDB_OPTION_FLAG = 1,      /* an int32: `unset` (the default), `off` or `on` */
  LDDB_OPTION_COUNT = 2,     /* a uint64 from 0 (0: no limit) */
  LDDB_OPTION_INTEGER = 3,   /* an int32 from `low` to `high` */
  LDDB_OPTION_NUMBER = 4,    /* a double from `low` to `high` */
  LDDB_OPTION_MOVEMENT = 5,  /* 32 bytes: a set of terrain types (lddb_options.movement) */
  LDDB_OPTION_LANDMARKS = 6  /* an lddb_landmarks handle (0: none) */
} lddb_option_kind;
typedef struct lddb_option_info {
  uint32_t version;     /* the lddb_options version that added the field */
  uint32_t offset;      /* offsetof(lddb_options, <name>) */
  const char* name;     /* the field's name; the library's string, never freed */
  const char* alias;    /* another name a binding may accept ("size" for unit_size); "" for none */
  const char* choices;  /* LDDB_OPTION_CHOICE: the names by number, comma-separated; else "" */
  const char* help;     /* what it does, a sentence or two */
  int32_t kind;         /* lddb_option_kind */
  int32_t diagnostic;   /* 1: for benchmarks and tests, which a game leaves as they are */
  int32_t unset, off, on; /* LDDB_OPTION_FLAG: the field's three values */
  int32_t reserved;     /* 0 */
  double low, high;     /* LDDB_OPTION_INTEGER and _NUMBER: the range */
} lddb_option_info;
/* How many options lddb_option_describe describes. */
LDDB_API size_t lddb_option_count(void);
/* Option `index` (0 to lddb_option_count() - 1) into the first `info_size` bytes of *info
 * (a program passes sizeof its own struct). NULL_ARGUMENT, INVALID_ARGUMENT (index). */
LDDB_API lddb_status lddb_option_describe(size_t index, lddb_option_info* info, size_t info_size);

/* A warning: a search by lddb_find_path (or LDDB_BLOCK_ASTAR) on a map never prepared. Its
 * answer is right, but the map's searches run Block A* alone, without what lddb_prepare
 * would choose for the map (jump point search, landmarks): often several times slower. The
 * handler hears of each map once, `message` naming the call and the map; it may be called
 * from the thread of any search, a batch's workers included, and must not call lddb back.
 * NULL (the default) hears nothing. The Python package turns it into an
 * lddb.UnpreparedMapWarning. */
typedef void (*lddb_warning_fn)(const char* message, void* user);
LDDB_API lddb_status lddb_set_warning_handler(lddb_warning_fn fn, void* user);

/* One search under the database's rule, by options->algorithm (A* and the Theta*s read only
 * the rule from db). options may be NULL (defaults). Returns the search's outcome (OK,
 * NO_PATH, INVALID_START, INVALID_GOAL, RULE_MISMATCH, BUDGET_EXHAUSTED), and then
 * *result holds it too; or an argument error (NULL_ARGUMENT, BAD_HANDLE,
 * WRONG_HANDLE_KIND, INVALID_ARGUMENT for an unknown algorithm or heuristic, a weight or
 * unit_size out of range or an algorithm the rule does not have), with *result untouched.
 * The path: path NULL with capacity 0 only reports result->path_count; a buffer shorter
 * than the path gives BUFFER_TOO_SMALL (result->status still has the outcome and
 * result->path_count the count needed); else the points are copied. Either way the context
 * keeps the path for lddb_context_path. */
LDDB_API lddb_status lddb_solve(lddb_context ctx, lddb_database db, lddb_map map, lddb_point start,
                                lddb_point goal, const lddb_options* options, lddb_result* result,
                                lddb_point* path, size_t capacity);

/* The one call a game makes (lddb/find_path.hpp): a path under the database's rule by the
 * search the map's preparation chose (lddb_prepare): jump point search where it measured
 * faster, else Block A*, and Block A* on a map never prepared. result->searched says which.
 * options->algorithm is not read; every other option is, as lddb_solve reads it. Returns
 * and fills *result and path as lddb_solve does. Under an any-angle rule start, goal and the
 * path's points are vertices, the corners of cells: (x, y) is cell (x, y)'s top-left corner. */
LDDB_API lddb_status lddb_find_path(lddb_context ctx, lddb_database db, lddb_map map, lddb_point start,
                                    lddb_point goal, const lddb_options* options, lddb_result* result,
                                    lddb_point* path, size_t capacity);

/* Copies the context's last path (from lddb_solve or a finished sliced search): *count gets
 * its length; path NULL with capacity 0 only reports it; a short buffer gives
 * BUFFER_TOO_SMALL. */
LDDB_API lddb_status lddb_context_path(lddb_context ctx, lddb_point* path, size_t capacity, size_t* count);

/* Why the context's last search (lddb_solve, or a sliced search once it has ended) has no
 * path, e.g. "start cell (15,0) is blocked" or "no path from (1,1) to (9,9)": the text
 * lddb_last_error() gave after that call, without the call's name, kept until the context's
 * next search. "" after a path was found, before any search and while a sliced search is in
 * progress. Copied as lddb_database_rule_name copies: *needed (may be NULL) gets the size with
 * the NUL; buf NULL with size 0 only asks the size; a short buf gives BUFFER_TOO_SMALL. */
LDDB_API lddb_status lddb_context_message(lddb_context ctx, char* buf, size_t size, size_t* needed);

/* Sliced Block A*, for a frame budget. begin checks and prepares the query on ctx (the
 * algorithm option must be LDDB_BLOCK_ASTAR; smoothing applies when it ends) and returns
 * IN_PROGRESS or a final outcome; each continue expands at most max_expansions blocks
 * (0: no limit) and returns IN_PROGRESS until the search ends, with the same outcome,
 * result and path as lddb_solve. The context keeps the database and map alive until then;
 * the map must not change meanwhile. continue on a context with no query in progress:
 * INVALID_ARGUMENT. Paths are fetched with lddb_context_path. */
LDDB_API lddb_status lddb_search_begin(lddb_context ctx, lddb_database db, lddb_map map, lddb_point start,
                                       lddb_point goal, const lddb_options* options, lddb_result* result);
LDDB_API lddb_status lddb_search_continue(lddb_context ctx, uint64_t max_expansions, lddb_result* result);

/* Batches: count queries solved on `threads` worker threads (0: one per core), the calling
 * thread included. results[i] answers queries[i] exactly as lddb_solve would, with its
 * path at paths[results[i].path_offset ...]. Returns OK when every result was written
 * (each carries its own outcome), even if some found no path. paths may be NULL with
 * path_capacity 0 to ask only the counts; *paths_needed (may be NULL) gets the total
 * number of points; a short paths buffer gives BUFFER_TOO_SMALL with results filled and no
 * point copied. count 0 returns OK at once (queries and results may then be NULL).
 * Every query of a batch is for the unit of `options` (lddb_query has no version, and an
 * array of it a fixed stride, so it gains no field): a batch per unit size and class. */
LDDB_API lddb_status lddb_batch_create(uint32_t threads, lddb_batch* out);
LDDB_API lddb_status lddb_batch_free(lddb_batch batch);
LDDB_API lddb_status lddb_batch_solve(lddb_batch batch, lddb_database db, lddb_map map, const lddb_query* queries,
                                      size_t count, const lddb_options* options, lddb_result* results,
                                      lddb_point* paths, size_t path_capacity, size_t* paths_needed);
/* The message of results[index] of the batch's last lddb_batch_solve, as lddb_context_message
 * gives it for one search ("" for a path found). An index past that call's count:
 * INVALID_ARGUMENT. */
LDDB_API lddb_status lddb_batch_message(lddb_batch batch, size_t index, char* buf, size_t size, size_t* needed);

#ifdef __cplusplus
}
#endif

#endif /* LDDB_LDDB_H */
