"""lddb from Python: grid pathfinding through ctypes over the C API (lddb/lddb.h).

    import lddb
    lib = lddb.load()
    with lib.open_database("octile-4.lddb") as db, lib.create_map(64, 48, db.block_size()) as grid, \\
            lib.create_context() as ctx:
        grid.set_blocked(10, 5)
        r = ctx.find_path(db, grid, (1, 1), (60, 40), smooth=True)
        if r.found:
            print(r.cost, r.path)
        else:
            print(r.status, r.message)        # e.g. no_path: no path from (1,1) to (60,40)

Finding the library. load(path) opens `path`; load() opens $LDDB_LIBRARY when set, else
liblddb next to this package's install (PREFIX/lib, lib64 or lib/<multiarch> for
PREFIX/share/lddb/python/lddb/), else whatever the system's loader finds
(LD_LIBRARY_PATH, ldconfig). LibraryNotFound lists every place tried.

Errors. A call the library refuses raises lddb.Error, whose text is the library's message
(lddb_last_error(): the call, then the file or argument and the problem); a subclass per
kind: FileError (an OSError), CorruptDatabase, InvalidMap, InvalidArgument, HandleError
(ValueErrors). A bad keyword option raises TypeError or ValueError naming the keyword.

Search outcomes. A search that ran and found no path is a normal outcome in a game: it
comes back as a Result with found False and status NO_PATH (start and goal are not
connected) or BUDGET_EXHAUSTED (max_expansions reached; the path leads to the most promising
point), and the reason in .message. A query the search cannot run is the caller's mistake
and raises a SearchError (a ValueError) carrying the Result as .result: InvalidStart or
InvalidGoal (off the map or blocked: check grid.blocked first when clicks may land on
walls), RuleMismatch (a map cut into other blocks than the database's). Batch.solve raises
for none of its queries: each Result has its status, and Result.raise_for_status() raises
what solve would have.

Units. unit_size= (alias size=) and movement= on every search (find_path, solve, begin,
reserve, Batch.solve, options) choose the unit that moves: unit_size 0 to 8, the side of the
square it fills (cells for tile and octile, where 0 and 1 are one cell; for any-angle a
square whose top-left corner moves between vertices, 0 the point), and movement, the
terrain types it may stand on: a str of letters ("W" for boats, ".GSW" amphibious) or an
iterable of ints for a game's own types; default ground (".GS", the cells grid.blocked calls
free). Map.set_terrain(x, y, "W") and Map.terrain(x, y) set and read a cell's type;
load_map keeps the file's letters.

    r = ctx.find_path(db, grid, (1, 0), (5, 0), unit_size=2, movement="W")   # a 2 x 2 boat

Vertices. Under an any-angle rule start, goal and the path's points are vertices, the
corners of cells: (x, y) is cell (x, y)'s top-left corner, not the cell.
"""
from ._errors import (BUDGET_EXHAUSTED, BUFFER_TOO_SMALL, IN_PROGRESS, NO_PATH, OK, STATUS_NAMES, CorruptDatabase,
                      Error, FileError, HandleError, InvalidArgument, InvalidGoal, InvalidMap, InvalidStart,
                      LddbError, LibraryNotFound, RebuildNeeded, RuleMismatch, SearchError, Status,
                      UnpreparedMapWarning)
from ._library import Library, install_candidates, load
from ._objects import Batch, Context, CResult, Database, Landmarks, Map, Query, Result
from ._path import Path
from ._options import (ASTAR, BLOCK_ASTAR, LAZY_THETA_STAR, THETA_STAR, Algorithm, Heuristic, Options, Point,
                       Point2, Preparation)

__all__ = ["UnpreparedMapWarning",
           "Status", "STATUS_NAMES", "OK", "BUFFER_TOO_SMALL", "NO_PATH", "BUDGET_EXHAUSTED", "IN_PROGRESS",
           "Error", "FileError", "CorruptDatabase", "InvalidMap", "InvalidArgument", "HandleError",
           "LibraryNotFound", "SearchError", "InvalidStart", "InvalidGoal", "RuleMismatch", "RebuildNeeded", "LddbError",
           "Algorithm", "Heuristic", "Preparation", "BLOCK_ASTAR", "ASTAR", "THETA_STAR", "LAZY_THETA_STAR",
           "Point2", "Point", "Query", "Options", "CResult", "Result", "Path",
           "Library", "Database", "Map", "Landmarks", "Context", "Batch", "install_candidates", "load"]

# The classes and functions read as lddb.X, where users meet them (tracebacks, repr, pickle),
# not as the private module that defines them.
for _name in __all__:
    _obj = globals()[_name]
    if callable(_obj) and getattr(_obj, "__module__", "").startswith(__name__ + "._"):
        _obj.__module__ = __name__
del _name, _obj
