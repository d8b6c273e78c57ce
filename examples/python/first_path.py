"""first_path.py: one path through lddb's Python binding (the package lddb, ctypes over liblddb.so).

    PYTHONPATH=PREFIX/share/lddb/python python3 first_path.py PREFIX/share/lddb/octile-4.lddb

lddb.load() finds PREFIX/lib/liblddb.so.1 from the package's own folder (LDDB_LIBRARY=... names
another). Builds a 40 x 20 map with a wall, prepares it, finds one path (find_path), prints it,
then asks for a cell inside the wall to show how a refused query reads.
Exit status 1 when the search finds no path.
"""
import sys

import lddb


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: first_path.py DATABASE.lddb", file=sys.stderr)
        return 2
    try:
        lib = lddb.load()
        db = lib.open_database(sys.argv[1])
    except lddb.Error as e:  # LibraryNotFound, FileError, CorruptDatabase: the text names the file
        print(f"first_path.py: {e}", file=sys.stderr)
        return 2
    with db, lib.create_map(40, 20, db.block_size()) as grid, lib.create_context() as ctx:
        for y in range(3, 20):
            grid.set_blocked(20, y)  # a wall, open at the top
        grid.prepare(db)  # what pays for this map; a map searched unprepared draws a warning
        result = ctx.find_path(db, grid, (2, 17), (37, 17))
        if not result.found:  # no_path or budget_exhausted: a normal outcome, with its reason
            print(f"first_path.py: {result.status}: {result.message}", file=sys.stderr)
            return 1
        print(f"first_path.py: {db.rule_name()}, {len(result.path)} cells, cost {result.cost:.3f}")
        print(" ".join(f"({x},{y})" for x, y in result.path))
        try:
            ctx.find_path(db, grid, (2, 17), (20, 10))
        except lddb.InvalidGoal as e:  # a query the search cannot run raises
            print(f"first_path.py: refused as expected: {e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
