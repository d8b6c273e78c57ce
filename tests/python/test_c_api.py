"""python_c_api: the C API from Python through ctypes (capi/python/lddb.py).

Needs the shared library in LDDB_LIBRARY (ctest passes lddb_c_shared). Builds a map from
Python, solves with Block A* and A*, and checks each path step by step here: every move a
legal octile move on free cells, the cost the sum of the moves."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(SOURCE, "capi", "python"))
import lddb  # noqa: E402

ONE = 1 << 32
SQRT2 = 6074001000
W, H = 30, 20


def fail(what):
    print("python_c_api: FAILED: " + what)
    sys.exit(1)


def expect(cond, what):
    if not cond:
        fail(what)


def check_octile_path(blocked, path, start, goal, cost_fixed):
    expect(path[0] == start and path[-1] == goal, f"path ends {path[0]} .. {path[-1]}")
    total = 0
    for (x0, y0), (x1, y1) in zip(path, path[1:]):
        dx, dy = x1 - x0, y1 - y0
        expect(max(abs(dx), abs(dy)) == 1, f"step {(x0, y0)} -> {(x1, y1)} is not one move")
        expect((x1, y1) not in blocked, f"step onto blocked cell {(x1, y1)}")
        if dx and dy:
            expect((x0 + dx, y0) not in blocked and (x0, y0 + dy) not in blocked,
                   f"diagonal {(x0, y0)} -> {(x1, y1)} cuts a corner")
            total += SQRT2
        else:
            total += ONE
    expect(total == cost_fixed, f"cost {cost_fixed} != sum of the steps {total}")


def main():
    lib = lddb.load()
    db = lib.open_database(os.path.join(SOURCE, "lddb", "octile-4.lddb"))
    expect(db.rule_name() == "octile", "rule name " + db.rule_name())
    expect(lib.find_database("tile-4.lddb", "/games/data") == "/games/data/tile-4.lddb",
           "find_database in a folder given: " + lib.find_database("tile-4.lddb", "/games/data"))
    grid = lib.create_map(W, H, db.block_size())
    blocked = set()
    for y in range(H - 3):  # a wall with a gap at its south end
        blocked.add((15, y))
    for x, y in [(5, 5), (6, 6), (22, 10), (23, 10), (24, 10)]:
        blocked.add((x, y))
    for x, y in blocked:
        grid.set_blocked(x, y, True)
    expect(grid.blocked(15, 0) and not grid.blocked(0, 0), "cells read back")
    ctx = lib.create_context()
    start, goal = (1, 1), (28, 2)
    costs = []
    for algorithm in (lddb.BLOCK_ASTAR, lddb.ASTAR):
        r = ctx.solve(db, grid, start, goal, algorithm=algorithm)
        expect(r.status == "ok", "status " + r.status)
        check_octile_path(blocked, r.path, start, goal, r.cost_fixed)
        expect(abs(r.cost - r.cost_fixed / ONE) < 1e-9, "cost in units")
        costs.append(r.cost_fixed)
    expect(costs[0] == costs[1], f"Block A* {costs[0]} and A* {costs[1]} differ")

    # Weighted search: a legal path within weight x the optimum; a weight below 1 refused.
    for algorithm in (lddb.BLOCK_ASTAR, lddb.ASTAR):
        r = ctx.solve(db, grid, start, goal, algorithm=algorithm, weight=2.0)
        expect(r.status == "ok", "weight 2: status " + r.status)
        check_octile_path(blocked, r.path, start, goal, r.cost_fixed)
        expect(r.cost_fixed <= 2 * costs[0], f"weight 2: cost {r.cost_fixed} > 2 x {costs[0]}")
    try:
        ctx.solve(db, grid, start, goal, weight=0.5)
        fail("weight 0.5 was accepted")
    except lddb.LddbError as e:
        expect(e.status == "invalid_argument" and "weight" in str(e), str(e))

    # Open squares for every rule, up to the largest: the same optimal cost on an open map.
    wide = lib.create_map(150, 150, db.block_size())
    far = ((130, 3), (3, 140))
    fixed = ctx.solve(db, wide, *far, options=lib.options(open_squares=0))
    small = ctx.solve(db, wide, *far, options=lib.options(open_squares=2, square_levels=2))
    large = ctx.solve(db, wide, *far, options=lib.options(open_squares=2, square_levels=4))
    expect(large.status == "ok" and large.cost_fixed == fixed.cost_fixed, f"squares: {large.status} {large.cost_fixed}")
    check_octile_path(set(), large.path, *far, large.cost_fixed)
    expect(large.expansions < small.expansions < fixed.expansions,
           f"expanded {large.expansions} (levels 4), {small.expansions} (levels 2), {fixed.expansions} (blocks)")
    try:
        ctx.solve(db, wide, *far, options=lib.options(open_squares=2, square_levels=5))
        fail("square_levels 5 was accepted")
    except lddb.LddbError as e:
        expect(e.status == "invalid_argument" and "square_levels" in str(e), str(e))

    # Landmarks: the same optimal costs; stale once a cell is freed, current while cells are blocked.
    with lib.build_landmarks(db, grid, 4) as lm:
        expect(lm.current(grid), "fresh landmarks are current")
        for algorithm in (lddb.BLOCK_ASTAR, lddb.ASTAR):
            r = ctx.solve(db, grid, start, goal, algorithm=algorithm, landmarks=lm)
            expect(r.status == "ok" and r.cost_fixed == costs[0], f"landmarks: {r.status} {r.cost_fixed}")
            check_octile_path(blocked, r.path, start, goal, r.cost_fixed)
        grid.set_blocked(0, 19, True)
        expect(lm.current(grid), "blocking keeps landmarks current")
        grid.set_blocked(0, 19, False)
        expect(not lm.current(grid), "freeing a cell makes landmarks stale")
        r = ctx.solve(db, grid, start, goal, landmarks=lm)
        expect(r.status == "ok" and r.cost_fixed == costs[0], "stale landmarks: " + r.status)
    try:
        lib.build_landmarks(db, grid, 0)
        fail("0 landmarks were accepted")
    except lddb.LddbError as e:
        expect(e.status == "invalid_argument" and "count 0" in str(e), str(e))

    # Sliced == one-shot; batch == one by one.
    one_shot = ctx.solve(db, grid, start, goal)
    r = ctx.begin(db, grid, start, goal)
    slices = 0
    while r.status == "in_progress":
        r = ctx.continue_(2)
        slices += 1
    expect(slices > 1 and r == one_shot, f"sliced {r.status} after {slices} slices != one-shot")
    queries = [((1, 1), (28, 2)), ((0, 19), (29, 0)), ((3, 3), (3, 3)), ((5, 5), (1, 1)), ((1, 1), (40, 1))]  # (5, 5) is blocked; (40, 1) off the map
    with lib.create_batch(2) as batch:
        batched = batch.solve(db, grid, queries)
    for (a, b), got in zip(queries, batched):
        expect(got == ctx.solve(db, grid, a, b), f"batch answer for {a} -> {b} differs: {got.status}")
    expect([g.status for g in batched] == ["ok", "ok", "ok", "invalid_start", "invalid_goal"],
           str([g.status for g in batched]))

    r = ctx.solve(db, grid, (15, 0), goal)
    expect(r.status == "invalid_start" and r.path == [], "a blocked start: " + r.status)
    try:
        lib.create_map(0, 5)
        fail("a 0-wide map was accepted")
    except lddb.LddbError as e:
        expect(e.status == "invalid_argument" and "width 0" in str(e), str(e))
    grid.close()
    try:
        ctx.solve(db, grid, start, goal)  # grid.handle is 0 now
        fail("a closed map was accepted")
    except lddb.LddbError as e:
        expect(e.status == "null_argument" and "'map'" in str(e), str(e))
    stale = lddb.Map(lib, db.handle)  # a database handle passed as a map
    try:
        stale.set_blocked(1, 1)
        fail("a database handle was accepted as a map")
    except lddb.LddbError as e:
        expect(e.status == "wrong_handle_kind", str(e))
    stale.handle = 0
    ctx.close()
    db.close()
    print("python_c_api: all checks passed")


if __name__ == "__main__":
    main()
