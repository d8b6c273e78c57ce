"""What a path costs handed back to Python: Context.find_path against the C call it makes.

On an open octile map, prepared, a raw path of every cell, `--points` cells long (400 by default), is
found over and over: the C call alone through ctypes (lddb_find_path into a buffer), then
Context.find_path with prebuilt options, with none (the default: the path smoothed to its
turning points) and with keywords, and, as the package made paths
before, the C call followed by a list of (x, y) tuples read point by point from the buffer.
Prints microseconds a call, best of --repeats runs of --calls calls, and each against the C
call.

Usage: LDDB_LIBRARY=build/capi/liblddb_c_shared.so PYTHONPATH=capi/python \\
           python3 bench/bench_python_path.py [--points N] [--calls N] [--repeats N]
"""
import argparse
import ctypes
import time

import lddb
from lddb._objects import CResult
from lddb._options import Point


def best_us(call, calls: int, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(calls):
            call()
        best = min(best, (time.perf_counter() - t0) / calls * 1e6)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--points", type=int, default=400)
    ap.add_argument("--calls", type=int, default=2000)
    ap.add_argument("--repeats", type=int, default=5)
    a = ap.parse_args()
    lib = lddb.load()
    with lib.open_database(lib.find_database("octile-4.lddb")) as db, lib.create_context() as ctx, \
            lib.create_map(a.points + 8, 16, db.block_size()) as grid:
        grid.prepare(db, mode="complete")  # a map as a game has it: jump point search answers
        ctx.reserve(db, grid)
        start, goal = (2, 8), (a.points + 1, 8)
        opts = lib.options(smooth=False)
        r = ctx.find_path(db, grid, start, goal, options=opts)
        assert r.found and len(r.path) == a.points, (r.status, len(r.path))
        c, res = lib._c, CResult()
        buf = (Point * (2 * a.points))()
        s, g = Point(*start), Point(*goal)

        def c_call():
            c.lddb_find_path(ctx.handle, db.handle, grid.handle, s, g, ctypes.byref(opts), ctypes.byref(res), buf,
                             len(buf))

        def tuples_call():  # the C call, then a tuple a point, as the package did before
            c.lddb_find_path(ctx.handle, db.handle, grid.handle, s, g, ctypes.byref(opts), ctypes.byref(res), buf,
                             len(buf))
            return [(buf[i].x, buf[i].y) for i in range(res.path_count)]

        rows = [("C call (ctypes, into a buffer)", c_call),
                ("Context.find_path(options=)", lambda: ctx.find_path(db, grid, start, goal, options=opts)),
                ("Context.find_path() (smoothed)", lambda: ctx.find_path(db, grid, start, goal)),
                ("Context.find_path(smooth=False)", lambda: ctx.find_path(db, grid, start, goal, smooth=False)),
                ("C call + a tuple a point", tuples_call)]
        base = None
        print(f"path of {a.points} points; microseconds a call, best of {a.repeats} x {a.calls} calls")
        for name, call in rows:
            us = best_us(call, a.calls, a.repeats)
            base = base or us
            print(f"{name:34s} {us:8.2f}  {us / base:5.2f}x")


if __name__ == "__main__":
    main()
