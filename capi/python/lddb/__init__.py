"""lddb from Python: grid pathfinding through ctypes over the C API (lddb/lddb.h).

    import lddb
    lib = lddb.load()
    with lib.open_database("octile-4.lddb") as db, lib.create_map(64, 48, db.block_size()) as grid, \\
            lib.create_context() as ctx:
        grid.set_blocked(10, 5)
        r = ctx.solve(db, grid, (1, 1), (60, 40), algorithm="astar", smooth=True)
        if r.found:
            print(r.cost, r.path)
        else:
            print(r.status, r.message)        # e.g. no_path: no path from (1,1) to (60,40)

Finding the library. load(path) opens `path`; load() opens $LDDB_LIBRARY when set, else
liblddb next to this file's install (PREFIX/lib, lib64 or lib/<multiarch> for
PREFIX/share/lddb/python/lddb.py), else whatever the system's loader finds
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
"""
import ctypes
import ctypes.util
import difflib
import enum
import os
import sys
import sysconfig
from typing import List, NamedTuple, Optional, Tuple

Point2 = Tuple[int, int]


class Status(str, enum.Enum):
    """lddb_status by name; equal to its name as a string (Status.NO_PATH == "no_path")."""
    OK = "ok"
    NULL_ARGUMENT = "null_argument"
    BAD_HANDLE = "bad_handle"
    WRONG_HANDLE_KIND = "wrong_handle_kind"
    BUFFER_TOO_SMALL = "buffer_too_small"
    IO_ERROR = "io_error"
    CORRUPT_DATABASE = "corrupt_database"
    RULE_MISMATCH = "rule_mismatch"
    INVALID_START = "invalid_start"
    INVALID_GOAL = "invalid_goal"
    NO_PATH = "no_path"
    BUDGET_EXHAUSTED = "budget_exhausted"
    IN_PROGRESS = "in_progress"
    INVALID_ARGUMENT = "invalid_argument"
    OUT_OF_MEMORY = "out_of_memory"
    INTERNAL_ERROR = "internal_error"
    INVALID_MAP = "invalid_map"

    def __str__(self) -> str:
        return self.value


_CODES = list(Status)  # in lddb_status order: _CODES[LDDB_NO_PATH] is Status.NO_PATH
STATUS_NAMES = [s.value for s in _CODES]  # the earlier list of names
OK, BUFFER_TOO_SMALL, NO_PATH, BUDGET_EXHAUSTED, IN_PROGRESS = 0, 4, 10, 11, 12
# Outcomes of a search that ran; a Result, not an exception.
_RAN = {Status.OK, Status.NO_PATH, Status.BUDGET_EXHAUSTED, Status.IN_PROGRESS}
# Queries the search refused: raised from solve and begin, with the Result.
_REFUSED = {Status.INVALID_START, Status.INVALID_GOAL, Status.RULE_MISMATCH}


class Algorithm(enum.IntEnum):
    BLOCK_ASTAR = 0      # any rule; needs the database and a map cut into its blocks
    ASTAR = 1            # tile and octile
    THETA_STAR = 2       # any-angle
    LAZY_THETA_STAR = 3  # any-angle


class Heuristic(enum.IntEnum):
    DEFAULT = 0  # the admissible one for the rule
    ZERO = 1
    MANHATTAN = 2
    OCTILE = 3
    EUCLIDEAN = 4


BLOCK_ASTAR, ASTAR, THETA_STAR, LAZY_THETA_STAR = tuple(Algorithm)
_ALGORITHM_NAMES = {"block_astar": 0, "astar": 1, "theta": 2, "theta_star": 2, "lazy_theta": 3, "lazy_theta_star": 3}


class Error(Exception):
    """A call the library refused. str() is the library's message; .status the Status (or
    the number, for a status this module does not know)."""

    def __init__(self, status, message: str, result: Optional["Result"] = None):
        super().__init__(message)
        self.status, self.message, self.result = status, message, result


class FileError(Error, OSError):
    """A file that cannot be opened or read."""


class CorruptDatabase(Error, ValueError):
    """Not an .lddb file, or one that fails verification."""


class InvalidMap(Error, ValueError):
    """A .map file that does not parse, or a map with no free cell where one is needed."""


class InvalidArgument(Error, ValueError):
    """A value out of its range: a size, an option, a count."""


class HandleError(Error, ValueError):
    """A closed object, or one of another kind where this one was expected."""


class LibraryNotFound(Error, OSError):
    """load() found no liblddb: the text lists where it looked."""


class SearchError(Error, ValueError):
    """A query the search cannot run; .result holds its Result."""


class InvalidStart(SearchError):
    """The start is off the map or blocked."""


class InvalidGoal(SearchError):
    """The goal is off the map or blocked."""


class RuleMismatch(SearchError):
    """The map is cut into other blocks than the database's, or the rules differ."""


LddbError = Error  # the earlier name
_ERRORS = {Status.IO_ERROR: FileError, Status.CORRUPT_DATABASE: CorruptDatabase, Status.INVALID_MAP: InvalidMap,
           Status.INVALID_ARGUMENT: InvalidArgument, Status.NULL_ARGUMENT: HandleError,
           Status.BAD_HANDLE: HandleError, Status.WRONG_HANDLE_KIND: HandleError,
           Status.INVALID_START: InvalidStart, Status.INVALID_GOAL: InvalidGoal, Status.RULE_MISMATCH: RuleMismatch}


def _status(code: int):
    return _CODES[code] if 0 <= code < len(_CODES) else code


def _error(code: int, message: str, result: Optional["Result"] = None) -> Error:
    status = _status(code)
    return _ERRORS.get(status, Error)(status, message, result)


class Point(ctypes.Structure):
    _fields_ = [("x", ctypes.c_int32), ("y", ctypes.c_int32)]


class Query(ctypes.Structure):
    _fields_ = [("start", Point), ("goal", Point)]


class Options(ctypes.Structure):
    """lddb_options; build one with Library.options(...) or pass keywords to solve."""
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
    """One search's answer. cost is in units of length (-1 without a path), cost_fixed the
    same in fixed point (2^32 per unit), length the Euclidean length of the path; message
    says why there is no path ("" when found)."""
    status: Status
    cost: float
    cost_fixed: int
    length: float
    expansions: int
    path: List[Point2]
    message: str = ""

    @property
    def found(self) -> bool:
        return self.status == Status.OK

    def raise_for_status(self) -> "Result":
        """Raises what Context.solve raises for this outcome (InvalidStart, ...); else self."""
        if self.status in _REFUSED or self.status == Status.INVALID_ARGUMENT:
            raise _error(_CODES.index(self.status), self.message, self)
        return self


# ----------------------------------------------------------------------------- options

def _int(key: str, value, low: int, high: int, hint: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{key} must be an int, not {type(value).__name__}")
    if not low <= value <= high:
        raise ValueError(f"{key} {value} is out of range: {hint}")
    return value


def _named(key: str, value, names: dict, enum_type) -> int:
    """An enum member, its number or its name (any case, '-' for '_')."""
    if isinstance(value, str):
        code = names.get(value.lower().replace("-", "_"))
        if code is None:
            raise ValueError(f"{key} {value!r} is not one of: {', '.join(names)}")
        return code
    return int(enum_type(_int(key, value, 0, len(enum_type) - 1, "one of " + ", ".join(names))))


def _typed(key: str, value, types, what: str, bools: bool = False):
    if not isinstance(value, types) or (isinstance(value, bool) and not bools):
        raise TypeError(f"{key} must be {what}, not {type(value).__name__}")
    return value


def _landmarks(key: str, v) -> int:
    if v is not None and not _typed(key, v, Landmarks, "Landmarks from build_landmarks or None").handle:
        raise ValueError(f"{key} are closed")
    return v.handle if v is not None else 0


# Each keyword's check and its value in the lddb_options field of the same name. The ranges of
# weight (1 to 16) and square_levels (1 to 4) are the library's to check: it names the field.
_FIELDS = {
    "algorithm": lambda k, v: _named(k, v, _ALGORITHM_NAMES, Algorithm),
    "heuristic": lambda k, v: _named(k, v, {h.name.lower(): int(h) for h in Heuristic}, Heuristic),
    "smooth": lambda k, v: 1 if _typed(k, v, int, "a bool", bools=True) else 0,
    "weight": lambda k, v: float(_typed(k, v, (int, float), "a number")),
    "max_expansions": lambda k, v: 0 if v is None else _int(k, v, 0, 2**64 - 1, "0 or None (no limit), or a count"),
    "landmarks": _landmarks,
    # True: open squares for every rule; False: the paper's fixed blocks.
    "open_squares": lambda k, v: (2 if v else 0) if isinstance(v, bool) else
    _int(k, v, 0, 2, "0 (fixed blocks), 1 (the rule's default) or 2 (every rule)"),
    "square_levels": lambda k, v: _int(k, v, 0, 2**31 - 1, "0 (the rule's default) or a level"),
}


def _apply(o: Options, where: str, kw: dict) -> Options:
    for key, value in kw.items():
        if key not in _FIELDS:
            near = difflib.get_close_matches(key, _FIELDS, 1)
            hint = f"did you mean {near[0]!r}? " if near else ""
            raise TypeError(f"{where}() got an unexpected keyword argument {key!r} ({hint}options: "
                            f"{', '.join(_FIELDS)})")
        setattr(o, key, _FIELDS[key](key, value))
    return o


def _point(p, name: str) -> Point:
    try:
        x, y = p
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be an (x, y) pair, not {p!r}") from None
    return Point(_int(name + " x", x, -2**31, 2**31 - 1, "an int32"), _int(name + " y", y, -2**31, 2**31 - 1, "an int32"))


# ----------------------------------------------------------------------------- the library

_H, _I32, _SIZE, _P = ctypes.c_uint64, ctypes.c_int32, ctypes.c_size_t, ctypes.POINTER
_SIZE_P, _STR = _P(_SIZE), ctypes.c_char_p
# Argument types; every call returns an lddb_status but lddb_last_error.
_SIGNATURES = {
    "lddb_last_error": [],
    "lddb_find_database": [_STR, _STR, _STR, _SIZE, _SIZE_P],
    "lddb_database_open": [_STR, _P(_H)],
    "lddb_database_close": [_H],
    "lddb_database_rule_name": [_H, _STR, _SIZE, _SIZE_P],
    "lddb_database_block_size": [_H, _P(_I32)],
    "lddb_map_create": [_I32, _I32, _I32, _P(_H)],
    "lddb_map_load": [_STR, _I32, _P(_H)],
    "lddb_map_free": [_H],
    "lddb_map_size": [_H, _P(_I32), _P(_I32)],
    "lddb_map_set_blocked": [_H, _I32, _I32, _I32],
    "lddb_map_blocked": [_H, _I32, _I32, _P(_I32)],
    "lddb_landmarks_build": [_H, _H, _I32, _I32, _P(_H)],
    "lddb_landmarks_free": [_H],
    "lddb_landmarks_current": [_H, _H, _P(_I32)],
    "lddb_context_create": [_P(_H)],
    "lddb_context_free": [_H],
    "lddb_context_message": [_H, _STR, _SIZE, _SIZE_P],
    "lddb_options_init": [_P(Options)],
    "lddb_solve": [_H, _H, _H, Point, Point, _P(Options), _P(CResult), _P(Point), _SIZE],
    "lddb_context_path": [_H, _P(Point), _SIZE, _SIZE_P],
    "lddb_search_begin": [_H, _H, _H, Point, Point, _P(Options), _P(CResult)],
    "lddb_search_continue": [_H, ctypes.c_uint64, _P(CResult)],
    "lddb_batch_create": [ctypes.c_uint32, _P(_H)],
    "lddb_batch_free": [_H],
    "lddb_batch_solve": [_H, _H, _H, _P(Query), _SIZE, _P(Options), _P(CResult), _P(Point), _SIZE, _SIZE_P],
    "lddb_batch_message": [_H, _SIZE, _STR, _SIZE, _SIZE_P],
}


class Library:
    """One loaded liblddb; makes the objects. Use load() rather than the constructor."""

    def __init__(self, path: str):
        self.path = path
        self._c = ctypes.CDLL(path)
        for name, argtypes in _SIGNATURES.items():
            try:
                fn = getattr(self._c, name)
            except AttributeError:
                raise LibraryNotFound(None, f"{path} has no {name}: it is older than this lddb.py") from None
            fn.restype, fn.argtypes = _STR if name == "lddb_last_error" else ctypes.c_int, argtypes

    def last_error(self) -> str:
        """lddb_last_error(): the message of this thread's last failed call."""
        return self._c.lddb_last_error().decode("utf-8", "replace")

    def check(self, status: int) -> int:
        """Raises the Error for a status other than OK, with the library's message."""
        if status != OK:
            raise _error(status, self.last_error())
        return status

    def find_database(self, file_name: str, folder: Optional[str] = None) -> str:
        """The path of a shipped database ("octile-4.lddb") in `folder`, else in lddb's order
        ($LDDB_DATA_DIR, share/lddb beside the program, then beside this library)."""
        name, where = os.fsencode(file_name), os.fsencode(folder) if folder else None
        needed = ctypes.c_size_t()
        self.check(self._c.lddb_find_database(name, where, None, 0, ctypes.byref(needed)))
        buf = ctypes.create_string_buffer(needed.value)
        self.check(self._c.lddb_find_database(name, where, buf, needed.value, None))
        return os.fsdecode(buf.value)

    def _string(self, fn, *args) -> str:
        """A string from one of lddb.h's copy-out calls (size query, then copy)."""
        needed = ctypes.c_size_t()
        self.check(fn(*args, None, 0, ctypes.byref(needed)))
        buf = ctypes.create_string_buffer(needed.value)
        self.check(fn(*args, buf, needed.value, None))
        return buf.value.decode("utf-8", "replace")

    def _new(self, cls, fn, *args):
        h = _H()
        self.check(fn(*args, ctypes.byref(h)))
        return cls(self, h.value)

    def open_database(self, path) -> "Database":
        return self._new(Database, self._c.lddb_database_open, os.fsencode(path))

    def create_map(self, width: int, height: int, block: int = 4) -> "Map":
        """All cells free; block: the block size of the database Block A* will use."""
        return self._new(Map, self._c.lddb_map_create, width, height, block)

    def load_map(self, path, block: int = 4) -> "Map":
        """A Moving AI .map file."""
        return self._new(Map, self._c.lddb_map_load, os.fsencode(path), block)

    def create_context(self) -> "Context":
        return self._new(Context, self._c.lddb_context_create)

    def create_batch(self, threads: int = 0) -> "Batch":
        return self._new(Batch, self._c.lddb_batch_create, threads)

    def build_landmarks(self, db: "Database", grid: "Map", count: int = 8, random: bool = False) -> "Landmarks":
        """A differential heuristic for `grid` under db's rule (lddb.h, lddb_landmarks_build)."""
        return self._new(Landmarks, self._c.lddb_landmarks_build, db.handle, grid.handle, count, 1 if random else 0)

    def options(self, algorithm=None, smooth=None, max_expansions=None, weight=None, landmarks=None,
                open_squares=None, square_levels=None, *, heuristic=None) -> Options:
        """lddb_options from the keywords solve takes (None: the library's default):
        algorithm ("block_astar", "astar", "theta", "lazy_theta" or an Algorithm),
        heuristic ("default", "zero", "manhattan", "octile", "euclidean" or a Heuristic),
        smooth, weight (from 1; above it, bounded-suboptimal), max_expansions (0 or None: no
        limit), landmarks (from build_landmarks), open_squares (0 / 1 / 2, or True / False)
        and square_levels (0, or 1 to 4); lddb.h's lddb_options says what each does."""
        given = dict(algorithm=algorithm, smooth=smooth, max_expansions=max_expansions, weight=weight,
                     landmarks=landmarks, open_squares=open_squares, square_levels=square_levels, heuristic=heuristic)
        return self._options(None, "options", {k: v for k, v in given.items() if v is not None})

    def _options(self, base: Optional[Options], where: str, kw: dict) -> Options:
        if base is not None and not isinstance(base, Options):
            raise TypeError(f"options must come from Library.options(), not {type(base).__name__}")
        o = Options() if base is None else Options.from_buffer_copy(base)
        if base is None:
            self.check(self._c.lddb_options_init(ctypes.byref(o)))
        return _apply(o, where, kw)


class _Handle:
    """A library object: closed by close(), by leaving a `with` block, or when collected."""
    _free = ""

    def __init__(self, lib: Library, handle: int):
        self.lib, self.handle = lib, handle

    @property
    def closed(self) -> bool:
        return not self.handle

    def close(self) -> None:
        """Frees the object; closing again does nothing."""
        if self.handle:
            h, self.handle = self.handle, 0
            self.lib.check(getattr(self.lib._c, self._free)(h))

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def __repr__(self) -> str:
        return f"<lddb.{type(self).__name__} {'closed' if self.closed else hex(self.handle)}>"


class Database(_Handle):
    """An opened .lddb file; immutable, shared by any number of threads."""
    _free = "lddb_database_close"

    def rule_name(self) -> str:
        return self.lib._string(self.lib._c.lddb_database_rule_name, self.handle)

    def block_size(self) -> int:
        b = ctypes.c_int32()
        self.lib.check(self.lib._c.lddb_database_block_size(self.handle, ctypes.byref(b)))
        return b.value


class Map(_Handle):
    _free = "lddb_map_free"

    def size(self) -> Tuple[int, int]:
        """(width, height) in cells."""
        w, h = ctypes.c_int32(), ctypes.c_int32()
        self.lib.check(self.lib._c.lddb_map_size(self.handle, ctypes.byref(w), ctypes.byref(h)))
        return w.value, h.value

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
    """One thread's search memory; keeps the last path and why the last search had none."""
    _free = "lddb_context_free"

    def solve(self, db: Database, grid: Map, start: Point2, goal: Point2, *, options: Optional[Options] = None,
              **kw) -> Result:
        """One search; keywords as Library.options takes them, over `options` when given.
        Returns the Result when the search ran (found or not); raises InvalidStart,
        InvalidGoal or RuleMismatch for a query it cannot run."""
        r, args = CResult(), self._query(db, grid, start, goal, options, "solve", kw)
        return self._outcome(self.lib._c.lddb_solve(*args, ctypes.byref(r), None, 0), r)

    def begin(self, db: Database, grid: Map, start: Point2, goal: Point2, *, options: Optional[Options] = None,
              **kw) -> Result:
        """Sliced Block A*: status IN_PROGRESS until continue_ ends it; raises as solve does."""
        r, args = CResult(), self._query(db, grid, start, goal, options, "begin", kw)
        return self._outcome(self.lib._c.lddb_search_begin(*args, ctypes.byref(r)), r)

    def continue_(self, max_expansions: int) -> Result:
        """At most max_expansions more blocks (0: to the end)."""
        r, budget = CResult(), _int("max_expansions", max_expansions, 0, 2**64 - 1, "0 (no limit) or a count")
        st = self.lib._c.lddb_search_continue(self.handle, budget, ctypes.byref(r))
        return self._outcome(st, r)

    def _query(self, db, grid, start, goal, options, where, kw) -> tuple:
        o = self.lib._options(options, where, kw)
        return self.handle, db.handle, grid.handle, _point(start, "start"), _point(goal, "goal"), ctypes.byref(o)

    def _outcome(self, st: int, r: CResult) -> Result:
        error = self.lib.last_error()  # before any other call clears it
        status = _status(st)
        if status not in _RAN and status not in _REFUSED:
            raise _error(st, error)
        done = status != Status.IN_PROGRESS
        result = Result(_status(r.status), r.cost, r.cost_fixed, r.length, r.expansions,
                        self.path() if done else [], self.message() if done else "")
        if status in _REFUSED:
            raise _error(st, error, result)
        return result

    def message(self) -> str:
        """Why the last search has no path ("" when it found one): lddb_context_message."""
        return self.lib._string(self.lib._c.lddb_context_message, self.handle)

    def path(self) -> List[Point2]:
        """The last path this context found (solve or a finished sliced search)."""
        n = ctypes.c_size_t()
        self.lib.check(self.lib._c.lddb_context_path(self.handle, None, 0, ctypes.byref(n)))
        buf = (Point * max(1, n.value))()
        self.lib.check(self.lib._c.lddb_context_path(self.handle, buf, n.value, ctypes.byref(n)))
        return [(buf[i].x, buf[i].y) for i in range(n.value)]


class Batch(_Handle):
    """Many queries on worker threads (threads 0: one per core)."""
    _free = "lddb_batch_free"

    def solve(self, db: Database, grid: Map, queries: List[Tuple[Point2, Point2]], *,
              options: Optional[Options] = None, **kw) -> List[Result]:
        """A Result per query, as Context.solve would give it, refused queries included
        (their status says so; Result.raise_for_status raises for them)."""
        c, n = self.lib._c, len(queries)
        o = self.lib._options(options, "solve", kw)
        qs = (Query * max(1, n))(*[Query(_point(a, "start"), _point(b, "goal")) for a, b in queries])
        rs = (CResult * max(1, n))()
        needed = ctypes.c_size_t()
        self.lib.check(c.lddb_batch_solve(self.handle, db.handle, grid.handle, qs, n, ctypes.byref(o), rs,
                                          None, 0, ctypes.byref(needed)))  # the size query
        points = (Point * max(1, needed.value))()
        self.lib.check(c.lddb_batch_solve(self.handle, db.handle, grid.handle, qs, n, ctypes.byref(o), rs,
                                          points, needed.value, ctypes.byref(needed)))
        return [Result(_status(r.status), r.cost, r.cost_fixed, r.length, r.expansions,
                       [(points[j].x, points[j].y) for j in range(r.path_offset, r.path_offset + r.path_count)],
                       "" if r.status == OK else self.lib._string(c.lddb_batch_message, self.handle, i))
                for i, r in enumerate(rs[:n])]


# ----------------------------------------------------------------------------- loading

_NAMES = {"darwin": ["liblddb.1.dylib", "liblddb.dylib"], "win32": ["lddb.dll", "liblddb.dll"]}.get(
    sys.platform, ["liblddb.so.1", "liblddb.so"])


def install_candidates(here: Optional[str] = None) -> List[str]:
    """Where an install puts liblddb relative to this file: PREFIX/share/lddb/python/lddb.py
    beside PREFIX/lib, lib64 or lib/<multiarch> (bin for Windows DLLs)."""
    here = here or os.path.dirname(os.path.abspath(__file__))
    prefix = os.path.normpath(os.path.join(here, os.pardir, os.pardir, os.pardir))
    multiarch = sysconfig.get_config_var("MULTIARCH")
    folders = ["lib", "lib64"] + ([os.path.join("lib", multiarch)] if multiarch else []) + ["bin"] * (os.name == "nt")
    return [os.path.join(prefix, f, name) for f in folders for name in _NAMES]


def load(path=None) -> Library:
    """liblddb at `path`; else at $LDDB_LIBRARY; else beside this file's install; else where
    the system's loader finds it. LibraryNotFound lists what was tried."""
    for explicit in (path, os.environ.get("LDDB_LIBRARY")):
        if explicit:
            try:
                return Library(os.fspath(explicit))
            except OSError as e:
                if isinstance(e, Error):
                    raise
                raise LibraryNotFound(None, f"cannot load {explicit}: {e}") from None
    tried = []
    for candidate in install_candidates():
        if os.path.exists(candidate):
            try:
                return Library(candidate)
            except OSError as e:  # present but unusable (another architecture, ...): go on
                tried.append(f"{candidate} ({e})")
        else:
            tried.append(candidate)
    found = ctypes.util.find_library("lddb")
    for name in ([found] if found else []) + _NAMES:
        try:
            return Library(name)
        except OSError as e:
            tried.append(f"{name} from the system's loader ({e})")
    raise LibraryNotFound(None, "cannot find liblddb: set LDDB_LIBRARY to its path or pass it to load(); tried:\n  " +
                          "\n  ".join(tried))
