"""python_c_api: the C API from Python through ctypes (the package capi/python/lddb).

Needs the shared library in LDDB_LIBRARY (ctest passes lddb_c_shared). Builds a map from
Python, solves with Block A* and A*, and checks each path step by step here: every move a
legal octile move on free cells, the cost the sum of the moves. Then what a Python user
leans on: options by keyword, the reason a search has no path, the library's errors as
exceptions, `with`, and finding the library in an install's layout."""
import ctypes.util
import os
import shutil
import subprocess
import sys
import tempfile

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
    # A misspelt name: opening it says which databases the folder holds.
    raises(lambda: lib.open_database(lib.find_database("octile.lddb", os.path.join(SOURCE, "lddb"))), lddb.FileError,
           "octile-4.lddb")
    grid = lib.create_map(W, H, db.block_size())
    raises(lambda: grid.prepare_step(), lddb.InvalidArgument, "the map was never prepared")
    # A search on a map never prepared is said once a map, as a Python warning.
    import warnings
    with warnings.catch_warnings(record=True) as heard, lib.create_map(12, 12, db.block_size()) as bare, \
            lib.create_context() as c0:
        warnings.simplefilter("always")
        for _ in range(3):
            c0.find_path(db, bare, (1, 1), (10, 10))
        said = [w for w in heard if issubclass(w.category, lddb.UnpreparedMapWarning)]
        expect(len(said) == 1 and "12 x 12 map was never prepared" in str(said[0].message), [str(w.message) for w in heard])
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
        expect(r.found and r.status is lddb.Status.OK and r.message == "", f"status {r.status}: {r.message}")
        check_octile_path(blocked, r.path, start, goal, r.cost_fixed)
        expect(abs(r.cost - r.cost_fixed / ONE) < 1e-9, "cost in units")
        costs.append(r.cost_fixed)
    expect(costs[0] == costs[1], f"Block A* {costs[0]} and A* {costs[1]} differ")
    expect(r.searched == "astar", "solve(algorithm=ASTAR) says " + r.searched)

    # find_path: the preparation's choice, named in the result; the same optimal cost as A*.
    found = ctx.find_path(db, grid, start, goal)
    expect(found.searched == "block_astar", "find_path on a map never prepared ran " + found.searched)
    expect(found.cost_fixed == costs[1], f"find_path {found.cost_fixed} and A* {costs[1]} differ")
    rooms = lib.create_map(128, 128, db.block_size())
    for k in range(0, 128, 16):
        for i in range(128):
            if i % 16 != 8:  # walls with doors: a map of rooms, where the preparation picks jumps
                rooms.set_blocked(k, i, True)
                rooms.set_blocked(i, k, True)
    rooms.prepare(db)
    jumped = ctx.find_path(db, rooms, (2, 2), (120, 120))
    by_blocks = ctx.solve(db, rooms, (2, 2), (120, 120), jumps=0)
    expect(jumped.found and jumped.searched == "jump_point_search", f"rooms: {jumped.status} by {jumped.searched}")
    expect(by_blocks.searched == "block_astar", "jumps=0 ran " + by_blocks.searched)
    expect(jumped.cost_fixed == by_blocks.cost_fixed, f"rooms: jumps {jumped.cost_fixed}, blocks {by_blocks.cost_fixed}")
    raises(lambda: ctx.find_path(db, grid, start, goal, algorithm="astar"), TypeError, "find_path()")

    # Weighted search: a legal path within weight x the optimum; a weight below 1 refused.
    for algorithm in (lddb.BLOCK_ASTAR, lddb.ASTAR):
        r = ctx.solve(db, grid, start, goal, algorithm=algorithm, weight=2.0)
        expect(r.found, "weight 2: status " + r.status)
        check_octile_path(blocked, r.path, start, goal, r.cost_fixed)
        expect(r.cost_fixed <= 2 * costs[0], f"weight 2: cost {r.cost_fixed} > 2 x {costs[0]}")
    raises(lambda: ctx.solve(db, grid, start, goal, weight=0.5), lddb.InvalidArgument, "lddb_solve: options: weight 0.5")

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
    raises(lambda: ctx.solve(db, wide, *far, options=lib.options(open_squares=2, square_levels=5)),
           lddb.InvalidArgument, "square_levels 5")
    by_keyword = ctx.solve(db, wide, *far, open_squares=True, square_levels=4)
    expect(by_keyword == large, f"keywords {by_keyword.expansions} != options {large.expansions}")

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
        lm.repair(grid)
        expect(lm.current(grid), "repaired landmarks are current")
        r = ctx.solve(db, grid, start, goal, landmarks=lm)
        expect(r.status == "ok" and r.cost_fixed == costs[0], "repaired landmarks: " + r.status)
        # More frees than the map keeps a note of: the set compares the map with its own.
        for _ in range(1100):
            grid.set_blocked(0, 19, True)
            grid.set_blocked(0, 19, False)
        expect(not lm.current(grid), "freed cells make landmarks stale")
        lm.repair(grid)
        expect(lm.current(grid), "landmarks caught up past the journal")
        r = ctx.solve(db, grid, start, goal, landmarks=lm)
        expect(r.status == "ok" and r.cost_fixed == costs[0], "caught up landmarks: " + r.status)
        # Another map: the set cannot describe it, and says so.
        raises(lambda: lm.repair(wide), lddb.RebuildNeeded, "")
    expect(lm.closed, "landmarks closed by with")
    raises(lambda: ctx.solve(db, grid, start, goal, landmarks=lm), ValueError, "landmarks are closed")
    raises(lambda: lib.build_landmarks(db, grid, 0), lddb.InvalidArgument, "count 0")

    # Map.prepare: every later search on the map uses it; the same optimal costs, fewer
    # expansions in a maze of walls; use_prepared=False searches as if it were not there.
    maze = lib.create_map(96, 96, db.block_size())
    for y in range(86):  # a wall open only at its south end, between the ends
        maze.set_blocked(48, y)
    ends = ((38, 10), (58, 10))
    before = ctx.solve(db, maze, *ends)
    report = maze.prepare(db, mode="complete")
    expect(report.landmarks == 8 and report.landmarks_built == 8 and report.state == 0, repr(report))
    expect(report.bytes >= 96 * 96 * 4 * 8, repr(report))
    after = ctx.solve(db, maze, *ends)
    expect(after.found and after.cost_fixed == before.cost_fixed, f"prepared: {after.status} {after.cost_fixed}")
    expect(after.expansions < before.expansions, f"prepared expanded {after.expansions}, not {before.expansions}")
    off = ctx.solve(db, maze, *ends, use_prepared=False)
    expect(off.expansions == before.expansions, f"use_prepared=False expanded {off.expansions}")
    maze.set_blocked(48, 50, False)  # a door in the wall: stale until prepare_step repairs it
    expect(maze.preparation(db).state == 2, repr(maze.preparation(db)))
    stale = ctx.solve(db, maze, *ends, jumps=False)  # Block A*, whose expansions show the tables read
    expect(stale.expansions == ctx.solve(db, maze, *ends, use_prepared=False).expansions, "stale tables read")
    # The preparation's choice of jump point search on this map of walls: the same optimal cost.
    jumped = ctx.solve(db, maze, *ends)
    expect(maze.preparation(db).state == 2 and jumped.cost_fixed == stale.cost_fixed, f"jumps: {jumped.cost_fixed}")
    expect(ctx.solve(db, maze, *ends, jumps=True).expansions == jumped.expansions, "jumps=True as the preparation")
    raises(lambda: ctx.solve(db, maze, *ends, jumps="yes"), TypeError, "jumps must be None or a bool")
    while not maze.prepare_step(1000):
        pass
    expect(maze.preparation(db).state == 0, repr(maze.preparation(db)))
    # Paths come back as one int32 array (lddb.Path), not an object per point; one longer than
    # the context's buffer (1,024 points) grows it and comes whole.
    with lib.create_map(1500, 4, db.block_size()) as corridor:
        long_path = ctx.find_path(db, corridor, (0, 1), (1499, 1), smooth=False)
        expect(isinstance(long_path.path, lddb.Path) and len(long_path.path) == 1500
               and long_path.path.coords[:4].tolist() == [0, 1, 1, 1] and long_path.path[-1] == (1499, 1)
               and long_path.path == [(x, 1) for x in range(1500)] and long_path.path == ctx.path(),
               f"a path of {len(long_path.path)} points")
        again = ctx.find_path(db, corridor, (0, 1), (1499, 1), smooth=False)
        expect(again.path == long_path.path and list(again.path[1:3]) == [(1, 1), (2, 1)], "the grown buffer, reused")
    # The plan: jump point search on this map of walls (find_path said so), and its reasons.
    plan = maze.preparation(db)
    expect(plan.jumps and jumped.searched == "jump_point_search" and "jump point search" in repr(plan), repr(plan))
    expect(isinstance(plan.why, str) and plan.why != "", f"why: {plan.why!r}")
    raises(lambda: maze.prepare(db, mode="later"), ValueError, "mode 'later'")
    raises(lambda: grid.preparation(db), lddb.InvalidArgument, "not prepared")
    maze.close()

    # Sliced == one-shot; batch == one by one; a reserved context answers the same.
    one_shot = ctx.solve(db, grid, start, goal)
    with lib.create_context() as reserved:
        reserved.reserve(db, grid)
        expect(reserved.solve(db, grid, start, goal) == one_shot, "a reserved context answers differently")
        raises(lambda: reserved.reserve(db, grid, algorithm="nope"), ValueError, "algorithm")
    r = ctx.begin(db, grid, start, goal)
    slices = 0
    while r.status == "in_progress":
        r = ctx.resume(2)
        slices += 1
    expect(slices > 1 and r == one_shot, f"sliced {r.status} after {slices} slices != one-shot")
    queries = [((1, 1), (28, 2)), ((0, 19), (29, 0)), ((3, 3), (3, 3)), ((5, 5), (1, 1)), ((1, 1), (40, 1))]  # (5, 5) is blocked; (40, 1) off the map
    with lib.create_batch(2) as batch:
        batched = batch.solve(db, grid, queries)
    expect([g.status for g in batched] == ["ok", "ok", "ok", "invalid_start", "invalid_goal"],
           str([g.status for g in batched]))
    for (a, b), got in zip(queries, batched):
        if got.found:
            expect(got == ctx.solve(db, grid, a, b) and got.raise_for_status() is got, f"batch {a} -> {b}")
        else:  # a refused query: solve raises, with the same Result; raise_for_status raises alike
            e = raises(lambda: ctx.solve(db, grid, a, b), lddb.SearchError, "lddb_solve: ")
            expect(e.result == got and got.message and got.message in str(e), f"batch {a} -> {b}: {got} / {e}")
            raises(got.raise_for_status, type(e), got.message)

    reasons(lib, db, grid, ctx)
    units(lib, db, ctx)
    keyword_options(lib, db, grid, ctx, blocked)
    errors(lib, db, grid, ctx)
    ctx.close()
    db.close()
    loading()
    print("python_c_api: all checks passed")


def raises(call, kind, needle):
    """The exception call() raises: of `kind`, its text holding `needle`."""
    try:
        call()
    except kind as e:
        expect(needle in str(e), f"{type(e).__name__} '{e}' lacks '{needle}'")
        return e
    except Exception as e:  # noqa: BLE001 - any other kind is the failure reported
        fail(f"raised {type(e).__name__} '{e}', expected {kind.__name__} with '{needle}'")
    fail(f"nothing raised; expected {kind.__name__} with '{needle}'")


def reasons(lib, db, grid, ctx):
    """Why a search has no path: refused queries raise with the library's reason; a search
    that ran and found none returns it in the Result."""
    e = raises(lambda: ctx.solve(db, grid, (15, 0), (28, 2)), lddb.InvalidStart, "start cell (15,0) is blocked")
    expect(isinstance(e, ValueError) and str(e) == "lddb_solve: start cell (15,0) is blocked", str(e))
    expect(e.status is lddb.Status.INVALID_START and e.result.status == "invalid_start", repr(e.result))
    expect(not e.result.found and e.result.path == [] and e.result.cost == -1, repr(e.result))
    expect(e.result.message == "start cell (15,0) is blocked" == ctx.message(), e.result.message)
    e = raises(lambda: ctx.solve(db, grid, (1, 1), (40, 1)), lddb.InvalidGoal, "goal cell (40, 1) is off the 30 x 20 map")
    expect(e.result.status is lddb.Status.INVALID_GOAL, str(e.result.status))
    raises(lambda: ctx.begin(db, grid, (1, 1), (5, 5)), lddb.InvalidGoal, "goal cell (5,5) is blocked")
    with lib.create_map(12, 12, db.block_size()) as closed:  # a wall from top to bottom
        for y in range(12):
            closed.set_blocked(6, y)
        r = ctx.solve(db, closed, (1, 1), (10, 10))
        expect(r.status is lddb.Status.NO_PATH and not r.found and r.path == [], str(r.status))
        # The module's constants compare equal to the status and to lddb.h's number.
        expect(r.status == lddb.NO_PATH and lddb.NO_PATH == 10 and r.status != lddb.OK and lddb.OK == 0
               and r.status == "no_path", f"{r.status!r} against lddb.NO_PATH")
        expect(r.message == "no path from (1,1) to (10,10)", r.message)
        r = ctx.begin(db, closed, (1, 1), (10, 10))  # the sliced search sees it at once
        expect(r.status == "no_path" and r.message == "no path from (1,1) to (10,10)", f"{r.status} '{r.message}'")
    # Sliced, with a budget for the whole search: no reason while it runs, the budget's once it ends.
    r = ctx.begin(db, grid, (1, 1), (28, 2), max_expansions=3)
    expect(r.status == "in_progress" and r.message == "" and not r.found, f"{r.status} '{r.message}'")
    while r.status == "in_progress":
        r = ctx.continue_(1)
    expect(r.status is lddb.Status.BUDGET_EXHAUSTED and r.message.startswith("expansion budget of 3"), r.message)
    raises(lambda: ctx.continue_(1), lddb.InvalidArgument, "no search in progress")
    raises(lambda: ctx.continue_(-1), ValueError, "max_expansions -1")
    r = ctx.solve(db, grid, (1, 1), (28, 2), max_expansions=1)
    expect(r.status is lddb.Status.BUDGET_EXHAUSTED and not r.found and "budget" in r.message, f"{r.status} {r.message}")
    expect(r.path[0] == (1, 1), "a budget's path starts at the start")


def check_unit_path(rows, path, k, open_types, cost_fixed):
    """A k x k unit's octile path: every anchor's square on open types, one move a step, a
    diagonal's (k+1) x (k+1) box open (corners forbidden), the cost the sum of the moves."""
    def square(x, y, side):
        return all(0 <= y + dy < len(rows) and 0 <= x + dx < len(rows[0]) and rows[y + dy][x + dx] in open_types
                   for dy in range(side) for dx in range(side))
    total = 0
    expect(all(square(x, y, k) for x, y in path), f"a square off its types on {path}")
    for (x0, y0), (x1, y1) in zip(path, path[1:]):
        dx, dy = x1 - x0, y1 - y0
        expect(max(abs(dx), abs(dy)) == 1, f"step {(x0, y0)} -> {(x1, y1)} is not one move")
        if dx and dy:
            expect(square(min(x0, x1), min(y0, y1), k + 1), f"diagonal {(x0, y0)} -> {(x1, y1)} clips a closed cell")
            total += SQRT2
        else:
            total += ONE
    expect(total == cost_fixed, f"unit cost {cost_fixed} != sum of the steps {total}")


def units(lib, db, ctx):
    """size= and movement= on hand-counted octile maps; set_terrain/terrain; load_map's letters."""
    rows = ["..........", "..........", "@@@@@.@@@@", "..........", ".........."]
    with lib.create_map(10, 5, db.block_size()) as gap:
        for y, row in enumerate(rows):
            for x, t in enumerate(row):
                gap.set_terrain(x, y, t)
        ends = ((0, 0), (0, 3))
        for algorithm in ("block_astar", "astar"):
            one = ctx.solve(db, gap, *ends, algorithm=algorithm, size=1)
            expect(one.found and one.cost_fixed == 11 * ONE + SQRT2, f"one cell: {one.status} {one.cost_fixed}")
            expect(one == ctx.solve(db, gap, *ends, algorithm=algorithm), "size 1 is the default unit")
            two = ctx.solve(db, gap, *ends, algorithm=algorithm, size=2)
            expect(two.status is lddb.Status.NO_PATH, f"2 x 2 through a one-cell gap: {two.status}")
        raises(lambda: ctx.solve(db, gap, *ends, size=3), lddb.InvalidStart, "for a unit of size 3")
        old = lib.options(size=2, movement="W")  # a version 7 struct has no unit
        old.version = 7
        expect(ctx.solve(db, gap, *ends, options=old) == ctx.solve(db, gap, *ends), "version 7 options")
        gap.set_terrain(6, 2, ".")  # the gap widened: the unit's view follows
        rows[2] = "@@@@@..@@@"
        two = ctx.solve(db, gap, *ends, size=2)
        expect(two.found and two.cost_fixed == 13 * ONE, f"2 x 2 through a two-cell gap: {two.status} {two.cost_fixed}")
        check_unit_path(rows, two.path, 2, ".", two.cost_fixed)
        queries = [ends, ((0, 3), (8, 0)), ((9, 0), (0, 0))]  # (9, 0): the square would leave the map
        with lib.create_batch(2) as batch:
            got = batch.solve(db, gap, queries, size=2)
        expect([r.status for r in got] == ["ok", "ok", "invalid_start"], str([r.status for r in got]))
        expect(got[:2] == [ctx.solve(db, gap, a, b, size=2) for a, b in queries[:2]], "batch == one by one")
        expect("size 2" in got[2].message, got[2].message)

    with tempfile.TemporaryDirectory() as tmp:  # a U of water, read from a Moving AI file
        lake = ["TW...W.", ".W...W.", ".W...W.", ".W...W.", ".WWWWWG"]
        path = os.path.join(tmp, "lake.map")
        with open(path, "w") as f:
            f.write("type octile\nheight 5\nwidth 7\nmap\n" + "\n".join(lake) + "\n")
        with lib.load_map(path, db.block_size()) as water:
            expect([water.terrain(x, 0) for x in range(7)] == list(lake[0]), "load_map keeps the letters")
            expect(water.blocked(1, 0) and water.blocked(0, 0) and not water.blocked(6, 4), "letters' passability")
            ends = ((1, 0), (5, 0))
            raises(lambda: ctx.solve(db, water, *ends), lddb.InvalidStart, "start cell (1,0) is blocked")
            for boat in ("W", [ord("W")], b"W", (c for c in b"W")):
                r = ctx.solve(db, water, *ends, movement=boat)
                expect(r.found and r.cost_fixed == 12 * ONE, f"boat {boat!r}: {r.status} {r.cost_fixed}")
                check_unit_path(lake, r.path, 1, "W", r.cost_fixed)
            r = ctx.solve(db, water, *ends, movement=".GSW", algorithm="astar")
            expect(r.found and r.cost_fixed == 4 * ONE, f"amphibious: {r.status} {r.cost_fixed}")
            for y in range(1, 5):  # a road of the game's type 7 down column 0
                water.set_terrain(0, y, 7)
            expect(water.terrain(0, 2) == "\x07" and water.blocked(0, 2), repr(water.terrain(0, 2)))
            raises(lambda: ctx.solve(db, water, (0, 1), (0, 4)), lddb.InvalidStart, "(0,1)")
            r = ctx.solve(db, water, (0, 1), (0, 4), movement=[7])
            expect(r.found and r.cost_fixed == 3 * ONE and r.path == [(0, y) for y in range(1, 5)], repr(r))
            expect(ctx.solve(db, water, (0, 0), (0, 4), movement=[7, ord("T")]).cost_fixed == 4 * ONE, "types 7 and T")
            # Bad units and types, each named.
            raises(lambda: ctx.solve(db, water, *ends, size=9), lddb.InvalidArgument, "unit_size 9 is outside 0..8")
            raises(lambda: ctx.solve(db, water, *ends, size=-1), lddb.InvalidArgument, "unit_size -1")
            raises(lambda: ctx.solve(db, water, *ends, size="2"), TypeError, "size must be an int")
            raises(lambda: ctx.solve(db, water, *ends, movement=""), ValueError, "movement is empty")
            raises(lambda: ctx.solve(db, water, *ends, movement=[256]), ValueError, "movement type 256")
            raises(lambda: ctx.solve(db, water, *ends, movement=3), TypeError, "movement must be a str")
            raises(lambda: ctx.solve(db, water, *ends, movement="W\u0100"), ValueError, "movement type")
            raises(lambda: ctx.solve(db, water, *ends, movment="W"), TypeError, "did you mean 'movement'")
            raises(lambda: water.set_terrain(7, 0, "W"), lddb.InvalidArgument, "cell (7, 0) is off the map")
            raises(lambda: water.terrain(0, -1), lddb.InvalidArgument, "cell (0, -1) is off the map")
            raises(lambda: water.set_terrain(0, 0, "WW"), ValueError, "type 'WW'")
            raises(lambda: water.set_terrain(0, 0, -1), ValueError, "type -1")


def keyword_options(lib, db, grid, ctx, blocked):
    """Keywords as the C options say; each bad one named."""
    start, goal = (1, 1), (28, 2)
    base = ctx.solve(db, grid, start, goal, algorithm=lddb.ASTAR)
    for name in ("astar", "AStar", lddb.Algorithm.ASTAR, 1):
        expect(ctx.solve(db, grid, start, goal, algorithm=name) == base, f"algorithm={name!r}")
    expect(ctx.solve(db, grid, start, goal, options=lib.options(algorithm="astar")) == base, "options(algorithm=)")
    zero = ctx.solve(db, grid, start, goal, algorithm="astar", heuristic="zero")
    expect(zero.cost_fixed == base.cost_fixed and zero.expansions > base.expansions,
           f"heuristic zero: {zero.cost_fixed} in {zero.expansions}, octile {base.cost_fixed} in {base.expansions}")
    euclid = ctx.solve(db, grid, start, goal, algorithm="astar", heuristic="euclidean")
    expect(euclid.cost_fixed == base.cost_fixed, "heuristic euclidean: an admissible heuristic, the same cost")
    smooth = ctx.solve(db, grid, start, goal, smooth=True)
    expect(smooth.found and smooth.path[0] == start and smooth.path[-1] == goal and len(smooth.path) < len(base.path)
           and smooth.cost <= base.cost + 1e-9, f"smooth: {len(smooth.path)} points, cost {smooth.cost}")
    # options= and keywords: the keywords win; the options struct is not changed.
    opts = lib.options(algorithm="astar", weight=2.0)
    r = ctx.solve(db, grid, start, goal, options=opts, weight=1)
    expect(r == base and opts.weight == 2.0, f"weight 1 over options weight 2: {r.cost_fixed}")
    raises(lambda: ctx.solve(db, grid, start, goal, algorithm="theta"), lddb.InvalidArgument, "Theta*")
    raises(lambda: ctx.solve(db, grid, start, goal, algoritm="astar"), TypeError, "'algoritm' (did you mean 'algorithm'?")
    raises(lambda: ctx.solve(db, grid, start, goal, colour=3), TypeError, "'colour'")
    raises(lambda: lib.options(smoth=True), TypeError, "smoth")
    raises(lambda: ctx.solve(db, grid, start, goal, algorithm="dijkstra"), ValueError, "algorithm 'dijkstra'")
    raises(lambda: ctx.solve(db, grid, start, goal, algorithm=7), ValueError, "algorithm 7")
    raises(lambda: ctx.solve(db, grid, start, goal, heuristic="chebyshev"), ValueError, "heuristic 'chebyshev'")
    raises(lambda: ctx.solve(db, grid, start, goal, weight="2"), TypeError, "weight")
    raises(lambda: ctx.solve(db, grid, start, goal, weight=float("nan")), lddb.InvalidArgument, "weight nan")
    raises(lambda: ctx.solve(db, grid, start, goal, max_expansions=-1), ValueError, "max_expansions -1")
    raises(lambda: ctx.solve(db, grid, start, goal, max_expansions=2.5), TypeError, "max_expansions")
    raises(lambda: ctx.solve(db, grid, start, goal, landmarks=5), TypeError, "landmarks")
    raises(lambda: ctx.solve(db, grid, start, goal, open_squares=3), ValueError, "open_squares 3")
    raises(lambda: ctx.solve(db, grid, start, goal, square_levels=2**40), ValueError, "square_levels")
    raises(lambda: ctx.solve(db, grid, start, goal, smooth="yes"), TypeError, "smooth")
    raises(lambda: ctx.solve(db, grid, (1,), goal), TypeError, "start")
    raises(lambda: ctx.solve(db, grid, start, (2**40, 0)), ValueError, "goal x")
    raises(lambda: ctx.solve(db, grid, start, goal, options=3), TypeError, "options")
    # The keywords are the library's table of options: every row by its name and alias, each
    # setting the lddb_options field the row names, at the offset the library gives.
    rows = lib.keywords.rows
    expect(len(rows) >= 11, f"{len(rows)} rows in the table of options")
    for info in rows:
        name = info.name.decode()
        expect(name in lib.keywords.fields, f"keyword {name}")
        expect(getattr(lddb.Options, name).offset == info.offset, f"{name}: Options' field at {info.offset}")
        if info.alias:
            expect(lib.keywords.fields[info.alias.decode()][0] == name, f"alias {info.alias} of {name}")
    expect(lib.options(unit_size=2).unit_size == 2 and lib.options(size=2).unit_size == 2, "unit_size and size")
    expect(lib.options(jumps=False).jumps == 0 and lib.options(jumps=True).jumps == 1, "jumps")
    expect(lib.options(use_prepared=False).use_prepared == 0, "use_prepared")
    raises(lambda: lib.options(unit_siz=2), TypeError, "did you mean 'unit_size'?")
    mine = lib.options()  # the caller's own: changing it changes no other call's defaults
    mine.weight = 3.0
    expect(lib.options().weight == 1.0, "lib.options() is a fresh struct")
    with lib.create_batch(1) as batch:
        got = batch.solve(db, grid, [(start, goal)], algorithm="astar", heuristic="zero")
        expect(got == [zero], "batch with keywords")
        raises(lambda: batch.solve(db, grid, [(start, goal)], wieght=2), TypeError, "'wieght'")


def errors(lib, db, grid, ctx):
    """The library's refusals as exceptions with its message, naming the file or argument."""
    e = raises(lambda: lib.open_database("/nonexistent/none.lddb"), lddb.FileError, "/nonexistent/none.lddb")
    expect(isinstance(e, OSError) and str(e).startswith("lddb_database_open: ") and e.status == "io_error", str(e))
    with tempfile.TemporaryDirectory() as tmp:
        junk = os.path.join(tmp, "junk.lddb")
        with open(junk, "wb") as f:
            f.write(b"LDDB\x01\x00\x07")
        e = raises(lambda: lib.open_database(junk), lddb.CorruptDatabase, junk)
        expect(isinstance(e, ValueError) and str(e).startswith("lddb_database_open: "), str(e))
        expect(e.status is lddb.Status.CORRUPT_DATABASE and e.message == str(e), repr(e.status))
        bad_map = os.path.join(tmp, "bad.map")
        with open(bad_map, "w") as f:
            f.write("type octile\nheight 2\nwidth 3\nmap\n...\n")
        raises(lambda: lib.load_map(bad_map, 4), lddb.InvalidMap, bad_map)
    raises(lambda: lib.load_map("/nonexistent/none.map"), lddb.FileError, "none.map")
    raises(lambda: lib.create_map(0, 5), lddb.InvalidArgument, "width 0")
    raises(lambda: grid.set_blocked(99, 0), lddb.InvalidArgument, "cell (99, 0) is off the map")
    expect(grid.size() == (W, H), str(grid.size()))
    # with: closed at the end of the block, closing again does nothing, a closed object is refused.
    with lib.create_context() as c, lib.create_map(8, 8, db.block_size()) as m:
        expect(c.solve(db, m, (0, 0), (7, 7)).found and not c.closed and "0x" in repr(c), repr(c))
    expect(c.closed and m.closed and repr(m) == "<lddb.Map closed>", repr(m))
    c.close()
    raises(lambda: ctx.solve(db, m, (0, 0), (1, 1)), lddb.HandleError, "this Map is closed")
    raises(lambda: c.solve(db, grid, (0, 0), (1, 1)), lddb.HandleError, "this Context is closed")
    raises(lambda: m.set_blocked(0, 0), lddb.HandleError, "this Map is closed")
    raises(lambda: c.path(), lddb.HandleError, "this Context is closed")
    stale = lddb.Map(lib, db.handle)  # a database handle passed as a map
    e = raises(lambda: stale.set_blocked(1, 1), lddb.HandleError, "is a database handle, not a map")
    expect(e.status == "wrong_handle_kind" and isinstance(e, lddb.LddbError), str(e.status))
    stale._handle = 0  # the database's handle: not the Map's to free


def loading():
    """load() without LDDB_LIBRARY: beside an install's package (PREFIX/share/lddb/python/lddb ->
    PREFIX/lib), else a LibraryNotFound listing what it tried."""
    built = os.environ["LDDB_LIBRARY"]
    candidates = lddb.install_candidates("/opt/lddb/share/lddb/python/lddb")
    expect(os.path.join("/opt/lddb", "lib", "liblddb.so.1") in candidates, str(candidates))
    # The names read as lddb.X (tracebacks, repr), not as the module inside the package that defines them.
    for name in ("InvalidGoal", "Status", "Result", "Context", "load"):
        expect(getattr(lddb, name).__module__ == "lddb", f"{name} in {getattr(lddb, name).__module__}")
    raises(lambda: lddb.load("/nonexistent/liblddb.so.1"), lddb.LibraryNotFound, "/nonexistent/liblddb.so.1")
    env = {k: v for k, v in os.environ.items() if k not in ("LDDB_LIBRARY", "LD_LIBRARY_PATH")}
    probe = "import lddb\ntry:\n    print(lddb.load().path)\nexcept lddb.LibraryNotFound as e:\n    print(e)\n"
    with tempfile.TemporaryDirectory() as prefix:
        py = os.path.join(prefix, "share", "lddb", "python")
        os.makedirs(py)
        shutil.copytree(os.path.dirname(lddb.__file__), os.path.join(py, "lddb"),
                        ignore=shutil.ignore_patterns("__pycache__"))
        env["PYTHONPATH"] = py

        def run():
            out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=False)
            expect(out.returncode == 0, out.stderr)
            return out.stdout.strip()
        installed = os.path.join(prefix, "lib", "liblddb.so.1")
        missing = run()
        if ctypes.util.find_library("lddb"):
            print("python_c_api: note: a liblddb is installed on this system; the not-found message is not checked")
        else:
            expect(missing.startswith("cannot find liblddb") and installed in missing, missing)
        os.makedirs(os.path.dirname(installed))
        os.symlink(os.path.abspath(built), installed)
        expect(run() == installed, "loaded from the install")


if __name__ == "__main__":
    main()
