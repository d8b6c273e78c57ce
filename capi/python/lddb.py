"""lddb through ctypes: a small binding of the C API (lddb/lddb.h).

Loads the shared library named by the LDDB_LIBRARY environment variable, or the path given
to load(). A call given bad arguments raises LddbError with the library's status and
message; a search's outcome (no_path, invalid_start, ...) comes back in Result.status.
Contexts also run sliced Block A* (begin / continue_), and Batch solves many queries.

    import lddb
    lib = lddb.load()                         # or lddb.load("/path/to/liblddb_c_shared.so")
    db = lib.open_database("lddb/octile-4.lddb")
    grid = lib.create_map(64, 48, db.block_size())
    grid.set_blocked(10, 5, True)
    ctx = lib.create_context()
    result = ctx.solve(db, grid, (1, 1), (60, 40))  # -> Result(status, cost, length, path...)
"""
import ctypes
import os
from typing import List, NamedTuple, Optional, Tuple

STATUS_NAMES = [
    "ok", "null_argument", "bad_handle", "wrong_handle_kind", "buffer_too_small", "io_error",
    "corrupt_database", "rule_mismatch", "invalid_start", "invalid_goal", "no_path",
    "budget_exhausted", "in_progress", "invalid_argument", "out_of_memory", "internal_error",
    "invalid_map",
]
OK, BUFFER_TOO_SMALL, NO_PATH, BUDGET_EXHAUSTED, IN_PROGRESS = 0, 4, 10, 11, 12
# Search outcomes: returned in Result rather than raised.
OUTCOMES = {0, 7, 8, 9, 10, 11, 12}
BLOCK_ASTAR, ASTAR, THETA_STAR, LAZY_THETA_STAR = 0, 1, 2, 3


class Point(ctypes.Structure):
    _fields_ = [("x", ctypes.c_int32), ("y", ctypes.c_int32)]


class Query(ctypes.Structure):
    _fields_ = [("start", Point), ("goal", Point)]


class Options(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("version", ctypes.c_uint32),
                ("algorithm", ctypes.c_int32), ("heuristic", ctypes.c_int32),
                ("smooth", ctypes.c_int32), ("open_squares", ctypes.c_int32),
                ("max_expansions", ctypes.c_uint64), ("weight", ctypes.c_double),
                ("landmarks", ctypes.c_uint64), ("square_levels", ctypes.c_int32)]


class CResult(ctypes.Structure):
    _fields_ = [("status", ctypes.c_int32), ("reserved", ctypes.c_int32),
                ("cost", ctypes.c_double), ("length", ctypes.c_double),
                ("cost_fixed", ctypes.c_uint64), ("expansions", ctypes.c_uint64),
                ("path_count", ctypes.c_uint64), ("path_offset", ctypes.c_uint64)]


class Result(NamedTuple):
    status: str
    cost: float
    cost_fixed: int
    length: float
    expansions: int
    path: List[Tuple[int, int]]


class LddbError(Exception):
    def __init__(self, status: int, message: str):
        self.status = STATUS_NAMES[status] if 0 <= status < len(STATUS_NAMES) else str(status)
        super().__init__(f"{self.status}: {message}")


_H = ctypes.c_uint64
_SIGNATURES = {
    "lddb_last_error": (ctypes.c_char_p, []),
    "lddb_find_database": (ctypes.c_int, [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t,
                                          ctypes.POINTER(ctypes.c_size_t)]),
    "lddb_database_open": (ctypes.c_int, [ctypes.c_char_p, ctypes.POINTER(_H)]),
    "lddb_database_close": (ctypes.c_int, [_H]),
    "lddb_database_rule_name": (ctypes.c_int, [_H, ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t)]),
    "lddb_database_block_size": (ctypes.c_int, [_H, ctypes.POINTER(ctypes.c_int32)]),
    "lddb_map_create": (ctypes.c_int, [ctypes.c_int32, ctypes.c_int32, ctypes.c_int32, ctypes.POINTER(_H)]),
    "lddb_map_load": (ctypes.c_int, [ctypes.c_char_p, ctypes.c_int32, ctypes.POINTER(_H)]),
    "lddb_map_free": (ctypes.c_int, [_H]),
    "lddb_map_set_blocked": (ctypes.c_int, [_H, ctypes.c_int32, ctypes.c_int32, ctypes.c_int32]),
    "lddb_map_blocked": (ctypes.c_int, [_H, ctypes.c_int32, ctypes.c_int32, ctypes.POINTER(ctypes.c_int32)]),
    "lddb_landmarks_build": (ctypes.c_int, [_H, _H, ctypes.c_int32, ctypes.c_int32, ctypes.POINTER(_H)]),
    "lddb_landmarks_free": (ctypes.c_int, [_H]),
    "lddb_landmarks_current": (ctypes.c_int, [_H, _H, ctypes.POINTER(ctypes.c_int32)]),
    "lddb_context_create": (ctypes.c_int, [ctypes.POINTER(_H)]),
    "lddb_context_free": (ctypes.c_int, [_H]),
    "lddb_options_init": (ctypes.c_int, [ctypes.POINTER(Options)]),
    "lddb_solve": (ctypes.c_int, [_H, _H, _H, Point, Point, ctypes.POINTER(Options), ctypes.POINTER(CResult),
                                  ctypes.POINTER(Point), ctypes.c_size_t]),
    "lddb_context_path": (ctypes.c_int, [_H, ctypes.POINTER(Point), ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t)]),
    "lddb_search_begin": (ctypes.c_int, [_H, _H, _H, Point, Point, ctypes.POINTER(Options), ctypes.POINTER(CResult)]),
    "lddb_search_continue": (ctypes.c_int, [_H, ctypes.c_uint64, ctypes.POINTER(CResult)]),
    "lddb_batch_create": (ctypes.c_int, [ctypes.c_uint32, ctypes.POINTER(_H)]),
    "lddb_batch_free": (ctypes.c_int, [_H]),
    "lddb_batch_solve": (ctypes.c_int, [_H, _H, _H, ctypes.POINTER(Query), ctypes.c_size_t, ctypes.POINTER(Options),
                                        ctypes.POINTER(CResult), ctypes.POINTER(Point), ctypes.c_size_t,
                                        ctypes.POINTER(ctypes.c_size_t)]),
}


class Library:
    def __init__(self, path: str):
        self._c = ctypes.CDLL(path)
        for name, (restype, argtypes) in _SIGNATURES.items():
            fn = getattr(self._c, name)
            fn.restype, fn.argtypes = restype, argtypes

    def check(self, status: int) -> int:
        if status != OK:
            raise LddbError(status, self._c.lddb_last_error().decode("utf-8", "replace"))
        return status

    def find_database(self, file_name: str, folder: Optional[str] = None) -> str:
        """The path of a shipped database ("octile-4.lddb") in `folder`, else in lddb's order
        ($LDDB_DATA_DIR, share/lddb beside the program, then beside this library)."""
        needed = ctypes.c_size_t()
        name, where = os.fsencode(file_name), os.fsencode(folder) if folder else None
        self.check(self._c.lddb_find_database(name, where, None, 0, ctypes.byref(needed)))
        buf = ctypes.create_string_buffer(needed.value)
        self.check(self._c.lddb_find_database(name, where, buf, needed.value, None))
        return os.fsdecode(buf.value)

    def open_database(self, path: str) -> "Database":
        h = _H()
        self.check(self._c.lddb_database_open(os.fsencode(path), ctypes.byref(h)))
        return Database(self, h.value)

    def create_map(self, width: int, height: int, block: int = 4) -> "Map":
        h = _H()
        self.check(self._c.lddb_map_create(width, height, block, ctypes.byref(h)))
        return Map(self, h.value)

    def load_map(self, path: str, block: int = 4) -> "Map":
        h = _H()
        self.check(self._c.lddb_map_load(os.fsencode(path), block, ctypes.byref(h)))
        return Map(self, h.value)

    def create_context(self) -> "Context":
        h = _H()
        self.check(self._c.lddb_context_create(ctypes.byref(h)))
        return Context(self, h.value)

    def create_batch(self, threads: int = 0) -> "Batch":
        h = _H()
        self.check(self._c.lddb_batch_create(threads, ctypes.byref(h)))
        return Batch(self, h.value)

    def build_landmarks(self, db: "Database", grid: "Map", count: int = 8, random: bool = False) -> "Landmarks":
        """A differential heuristic for `grid` under db's rule (lddb.h, lddb_landmarks_build)."""
        h = _H()
        self.check(self._c.lddb_landmarks_build(db.handle, grid.handle, count, 1 if random else 0, ctypes.byref(h)))
        return Landmarks(self, h.value)

    def options(self, algorithm: int = BLOCK_ASTAR, smooth: bool = False, max_expansions: int = 0,
                weight: float = 1.0, landmarks: Optional["Landmarks"] = None, open_squares: int = 1,
                square_levels: int = 0) -> Options:
        """weight > 1: bounded-suboptimal search (lddb.h, lddb_options.weight); landmarks: a
        set from build_landmarks; open_squares 0 / 1 / 2 and square_levels 0..4 as in lddb.h."""
        o = Options()
        self.check(self._c.lddb_options_init(ctypes.byref(o)))
        o.algorithm, o.smooth, o.max_expansions, o.weight = algorithm, int(smooth), max_expansions, weight
        o.landmarks = landmarks.handle if landmarks else 0
        o.open_squares, o.square_levels = open_squares, square_levels
        return o

    def outcome(self, status: int) -> None:
        """Raises for argument errors; search outcomes pass (they are in the result)."""
        if status not in OUTCOMES:
            self.check(status)


def _result(r: CResult, path: List[Tuple[int, int]]) -> Result:
    return Result(STATUS_NAMES[r.status], r.cost, r.cost_fixed, r.length, r.expansions, path)


class _Handle:
    _free = ""

    def __init__(self, lib: Library, handle: int):
        self.lib, self.handle = lib, handle

    def close(self) -> None:
        if self.handle:
            self.lib.check(getattr(self.lib._c, self._free)(self.handle))
            self.handle = 0

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


class Database(_Handle):
    _free = "lddb_database_close"

    def rule_name(self) -> str:
        needed = ctypes.c_size_t()
        self.lib.check(self.lib._c.lddb_database_rule_name(self.handle, None, 0, ctypes.byref(needed)))
        buf = ctypes.create_string_buffer(needed.value)
        self.lib.check(self.lib._c.lddb_database_rule_name(self.handle, buf, needed.value, None))
        return buf.value.decode()

    def block_size(self) -> int:
        b = ctypes.c_int32()
        self.lib.check(self.lib._c.lddb_database_block_size(self.handle, ctypes.byref(b)))
        return b.value


class Map(_Handle):
    _free = "lddb_map_free"

    def set_blocked(self, x: int, y: int, blocked: bool = True) -> None:
        self.lib.check(self.lib._c.lddb_map_set_blocked(self.handle, x, y, 1 if blocked else 0))

    def blocked(self, x: int, y: int) -> bool:
        b = ctypes.c_int32()
        self.lib.check(self.lib._c.lddb_map_blocked(self.handle, x, y, ctypes.byref(b)))
        return bool(b.value)


class Landmarks(_Handle):
    _free = "lddb_landmarks_free"

    def current(self, grid: Map) -> bool:
        """Still valid for grid: no cell freed since the build (else searches ignore it)."""
        c = ctypes.c_int32()
        self.lib.check(self.lib._c.lddb_landmarks_current(self.handle, grid.handle, ctypes.byref(c)))
        return bool(c.value)


class Context(_Handle):
    _free = "lddb_context_free"

    def solve(self, db: Database, grid: Map, start: Tuple[int, int], goal: Tuple[int, int],
              algorithm: int = BLOCK_ASTAR, smooth: bool = False, max_expansions: int = 0,
              options: Optional[Options] = None, weight: float = 1.0,
              landmarks: Optional[Landmarks] = None) -> Result:
        """Search outcomes (no_path, invalid_start, ...) come back in Result.status; argument
        errors raise LddbError."""
        options = options or self.lib.options(algorithm, smooth, max_expansions, weight, landmarks)
        r = CResult()
        self.lib.outcome(self.lib._c.lddb_solve(self.handle, db.handle, grid.handle, Point(*start), Point(*goal),
                                                ctypes.byref(options), ctypes.byref(r), None, 0))
        return _result(r, self.path())

    def path(self) -> List[Tuple[int, int]]:
        """The last path this context found (lddb_solve or a finished sliced search)."""
        n = ctypes.c_size_t()
        self.lib.check(self.lib._c.lddb_context_path(self.handle, None, 0, ctypes.byref(n)))
        buf = (Point * max(1, n.value))()
        self.lib.check(self.lib._c.lddb_context_path(self.handle, buf, n.value, ctypes.byref(n)))
        return [(buf[i].x, buf[i].y) for i in range(n.value)]

    def begin(self, db: Database, grid: Map, start: Tuple[int, int], goal: Tuple[int, int],
              options: Optional[Options] = None) -> Result:
        """Sliced Block A*: status "in_progress" until continue_ ends it."""
        r = CResult()
        options = options or self.lib.options()
        self.lib.outcome(self.lib._c.lddb_search_begin(self.handle, db.handle, grid.handle, Point(*start),
                                                       Point(*goal), ctypes.byref(options), ctypes.byref(r)))
        return _result(r, [] if r.status == IN_PROGRESS else self.path())

    def continue_(self, max_expansions: int) -> Result:
        r = CResult()
        self.lib.outcome(self.lib._c.lddb_search_continue(self.handle, max_expansions, ctypes.byref(r)))
        return _result(r, [] if r.status == IN_PROGRESS else self.path())


class Batch(_Handle):
    _free = "lddb_batch_free"

    def solve(self, db: Database, grid: Map, queries: List[Tuple[Tuple[int, int], Tuple[int, int]]],
              options: Optional[Options] = None) -> List[Result]:
        c, n = self.lib._c, len(queries)
        options = options or self.lib.options()
        qs = (Query * max(1, n))(*[Query(Point(*a), Point(*b)) for a, b in queries])
        rs = (CResult * max(1, n))()
        needed = ctypes.c_size_t()
        self.lib.check(c.lddb_batch_solve(self.handle, db.handle, grid.handle, qs, n, ctypes.byref(options), rs,
                                          None, 0, ctypes.byref(needed)))  # the size query
        points = (Point * max(1, needed.value))()
        self.lib.check(c.lddb_batch_solve(self.handle, db.handle, grid.handle, qs, n, ctypes.byref(options), rs,
                                          points, needed.value, ctypes.byref(needed)))
        return [_result(r, [(points[i].x, points[i].y) for i in range(r.path_offset, r.path_offset + r.path_count)])
                for r in rs[:n]]


def load(path: Optional[str] = None) -> Library:
    """The library at `path`, else at $LDDB_LIBRARY."""
    path = path or os.environ.get("LDDB_LIBRARY")
    if not path:
        raise LddbError(13, "no library: pass its path to load() or set LDDB_LIBRARY")
    return Library(path)
