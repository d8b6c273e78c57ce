"""first_path.py: one path through lddb's Python binding (lddb.py, ctypes over liblddb.so).

    LDDB_LIBRARY=PREFIX/lib/liblddb.so PYTHONPATH=PREFIX/share/lddb/python \
        python3 first_path.py PREFIX/share/lddb/octile-4.lddb

Builds a 40 x 20 map with a wall, solves one query with Block A* and prints the path.
Exit status 1 when the search finds no path.
"""
import sys

import lddb


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: first_path.py DATABASE.lddb", file=sys.stderr)
        return 2
    lib = lddb.load()  # the library named by LDDB_LIBRARY
    db = lib.open_database(sys.argv[1])
    grid = lib.create_map(40, 20, db.block_size())  # blocks of the database's size
    for y in range(3, 20):
        grid.set_blocked(20, y)  # a wall, open at the top
    ctx = lib.create_context()
    result = ctx.solve(db, grid, (2, 17), (37, 17))
    if result.status != "ok":
        print(f"first_path.py: {result.status}", file=sys.stderr)
        return 1
    print(f"first_path.py: {db.rule_name()}, {len(result.path)} cells, cost {result.cost:.3f}")
    print(" ".join(f"({x},{y})" for x, y in result.path))
    return 0


if __name__ == "__main__":
    sys.exit(main())
