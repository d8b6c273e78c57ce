"""The library's objects (Database, Map, Landmarks, Context, Batch) and a search's Result."""
import ctypes
from typing import TYPE_CHECKING, List, NamedTuple, Optional, Tuple

from ._errors import _CODES, _RAN, _REFUSED, BUFFER_TOO_SMALL, OK, HandleError, Status, _error, _status
from ._options import Options, Point, Point2, Preparation, _int, _point, terrain_type
from ._path import Path

if TYPE_CHECKING:
    from ._library import Library


# lddb.h's numbers, compared with what the C calls return.
_OK, _BUFFER_TOO_SMALL = int(OK), int(BUFFER_TOO_SMALL)

# lddb_search_kind, by value.
_SEARCHED = ("block_astar", "jump_point_search", "astar", "theta_star", "lazy_theta_star")


def _searched(kind: int) -> str:
    return _SEARCHED[kind] if 0 <= kind < len(_SEARCHED) else "unknown"


class Query(ctypes.Structure):
    _fields_ = [("start", Point), ("goal", Point)]


class CResult(ctypes.Structure):
    _fields_ = [("status", ctypes.c_int32), ("searched", ctypes.c_int32),
                ("cost", ctypes.c_double), ("length", ctypes.c_double),
                ("cost_fixed", ctypes.c_uint64), ("expansions", ctypes.c_uint64),
                ("path_count", ctypes.c_uint64), ("path_offset", ctypes.c_uint64)]


class Result(NamedTuple):
    """One search's answer. cost is in units of length (-1 without a path), cost_fixed the
    same in fixed point (2^32 per unit), length the Euclidean length of the path; message
    says why there is no path ("" when found); path holds the points (a Path: (x, y) pairs
    on demand, one int32 array underneath); searched names the search that answered
    ("block_astar", "jump_point_search", "astar", "theta_star", "lazy_theta_star"), and so
    what expansions counts."""
    status: Status
    cost: float
    cost_fixed: int
    length: float
    expansions: int
    path: Path
    message: str = ""
    searched: str = ""

    @property
    def found(self) -> bool:
        return self.status == Status.OK

    def raise_for_status(self) -> "Result":
        """Raises what Context.solve raises for this outcome (InvalidStart, ...); else self."""
        if self.status in _REFUSED or self.status == Status.INVALID_ARGUMENT:
            raise _error(_CODES.index(self.status), self.message, self)
        return self


class _Handle:
    """A library object: closed by close(), by leaving a `with` block, or when collected."""
    _free = ""

    def __init__(self, lib: "Library", handle: int):
        self.lib, self._handle = lib, handle

    @property
    def handle(self) -> int:
        """The C handle; HandleError once closed, rather than a 0 the library would refuse."""
        if not self._handle:
            raise HandleError(Status.BAD_HANDLE, f"this {type(self).__name__} is closed (by close() or at the end of "
                                                 "its with block)")
        return self._handle

    @property
    def closed(self) -> bool:
        return not self._handle

    def close(self) -> None:
        """Frees the object; closing again does nothing."""
        if self._handle:
            h, self._handle = self._handle, 0
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
        return f"<lddb.{type(self).__name__} {'closed' if self.closed else hex(self._handle)}>"


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

    def set_terrain(self, x: int, y: int, type) -> None:
        """The cell's terrain type: a letter ('W') or a game's own number (0 to 255). Blocks the
        cell unless the type is ground ('.', 'G', 'S'), frees it if it is; a search's
        movement= says which types its unit may stand on."""
        self.lib.check(self.lib._c.lddb_map_set_terrain(self.handle, x, y, terrain_type("type", type)))

    def terrain(self, x: int, y: int) -> str:
        """The cell's terrain type as one character ('.', 'W', ...; ord() of it for a number)."""
        t = ctypes.c_uint8()
        self.lib.check(self.lib._c.lddb_map_terrain(self.handle, x, y, ctypes.byref(t)))
        return chr(t.value)

    def set_rect(self, x: int, y: int, width: int, height: int, bits, free: bool = False) -> None:
        """Sets the width x height cells from (x, y) at once (lddb.h, lddb_map_set_rect): cell
        (x + i, y + j) takes bit k = j * width + i of `bits`, any bytes-like object (bytes,
        bytearray, memoryview, array, a NumPy array) read as bytes, bit k being
        bits[k // 8] >> (k % 8) & 1: least significant bit first, rows packed with no padding.
        A set bit blocks the cell, or frees it when free=True. The map ends as set_blocked on
        every cell, row by row, would leave it, at a fraction of the cost. InvalidArgument for
        a rectangle not wholly on the map or without a cell, or fewer than
        (width * height + 7) // 8 bytes; nothing changes then."""
        view = memoryview(bits)
        if not view.c_contiguous:
            raise ValueError("bits must be contiguous")
        view = view.cast("B") if view.format != "B" or view.ndim != 1 else view
        # A read-only buffer has no ctypes view of its own: its bytes are passed (copied once).
        data = bytes(view) if view.readonly else (ctypes.c_uint8 * len(view)).from_buffer(view)
        self.lib.check(self.lib._c.lddb_map_set_rect(self.handle, x, y, width, height, data, len(view),
                                                     1 if free else 0))

    def fill_rect(self, x: int, y: int, width: int, height: int, blocked: bool = True) -> None:
        """Blocks (or, with blocked=False, frees) every cell of the width x height rectangle
        from (x, y) at once (lddb.h, lddb_map_fill_rect); the same errors as set_rect."""
        self.lib.check(self.lib._c.lddb_map_fill_rect(self.handle, x, y, width, height, 1 if blocked else 0))

    _MODES = {"slices": 0, "complete": 1, "worker_thread": 2}

    def prepare(self, db: "Database", mode: str = "slices") -> Preparation:
        """Prepares the map for db's rule (lddb.h, lddb_prepare): every later search on it uses
        what pays here. mode: "slices" (what the first query can use now, the rest by
        prepare_step), "complete" or "worker_thread"."""
        if mode not in self._MODES:
            raise ValueError(f"mode {mode!r} is not one of: {', '.join(self._MODES)}")
        r = Preparation()
        self.lib.check(self.lib._c.lddb_prepare(db.handle, self.handle, self._MODES[mode], ctypes.byref(r)))
        return r

    def prepare_step(self, work: int = 0) -> bool:
        """Runs a slice of the pending preparation work (landmarks to build, repairs after
        set_blocked freed cells); True when nothing is left. Call it once a frame, after
        prepare(): InvalidArgument on a map never prepared."""
        ready = ctypes.c_int32()
        self.lib.check(self.lib._c.lddb_prepare_step(self.handle, work, ctypes.byref(ready)))
        return bool(ready.value)

    def preparation(self, db: "Database") -> Preparation:
        """The report of the map's preparation for db's rule, with its plan: .jumps (find_path
        answers by jump point search) and .why (the plan's reasons)."""
        r = Preparation()
        self.lib.check(self.lib._c.lddb_preparation_get(db.handle, self.handle, ctypes.byref(r)))
        jumps = ctypes.c_int32()
        r.why = self.lib._string(self.lib._c.lddb_preparation_plan, db.handle, self.handle, ctypes.byref(jumps))
        r.jumps = bool(jumps.value)
        return r


class Landmarks(_Handle):
    _free = "lddb_landmarks_free"

    def current(self, grid: Map) -> bool:
        """Still valid for grid: no cell freed since the build (else searches ignore it)."""
        c = ctypes.c_int32()
        self.lib.check(self.lib._c.lddb_landmarks_current(self.handle, grid.handle, ctypes.byref(c)))
        return bool(c.value)

    def repair(self, grid: Map) -> None:
        """Catches up with the cells freed since, so the set is current again: a cell that was
        free when the set was built costs nothing, one that was blocked lowers only the
        distances it makes shorter. Raises RebuildNeeded for another map (build a new set
        then)."""
        self.lib.check(self.lib._c.lddb_landmarks_repair(self.handle, grid.handle))


class Context(_Handle):
    """One thread's search memory; keeps the last path and why the last search had none."""
    _free = "lddb_context_free"

    def __init__(self, lib: "Library", handle: int):
        super().__init__(lib, handle)
        self._points, self._capacity = (Point * 1024)(), 1024  # where a search copies its path, grown as needed

    def _run(self, fn, args, r: CResult) -> Result:
        """A search that copies its path into the context's buffer, grown and copied again
        from the context when the path is longer than the buffer."""
        st = fn(*args, ctypes.byref(r), self._points, self._capacity)
        if st == _BUFFER_TOO_SMALL:
            self._capacity = max(int(r.path_count), 2 * self._capacity)
            self._points = (Point * self._capacity)()
            n = ctypes.c_size_t()
            self.lib.check(self.lib._c.lddb_context_path(self.handle, self._points, self._capacity, ctypes.byref(n)))
            st = r.status
        return self._outcome(st, r, copied=True)

    def reserve(self, db: Database, grid: Map, *, options: Optional[Options] = None, **kw) -> None:
        """Sizes the context for every query on grid by the search the options choose (Block A*
        by default), so that the first query costs what a warm one does."""
        o = self.lib._options(options, "reserve", kw)
        self.lib.check(self.lib._c.lddb_context_reserve(self.handle, db.handle, grid.handle, ctypes.byref(o)))

    def find_path(self, db: Database, grid: Map, start: Point2, goal: Point2, *,
                  options: Optional[Options] = None, **kw) -> Result:
        """The one call a game makes: a path under the database's rule by the search the map's
        preparation chose (Map.prepare), Block A* on a map never prepared; the Result's
        `searched` says which. Keywords as Library.options takes them, but no algorithm.
        Raises as solve does. Points are cells for tile and octile; for any-angle they are
        vertices, the corners of cells: (x, y) is cell (x, y)'s top-left corner, so a cell's
        centre is not a point a path can start at."""
        if "algorithm" in kw:
            raise TypeError("find_path() runs the search the map's preparation chose: use solve(algorithm=...) "
                            "for another")
        r, args = CResult(), self._query(db, grid, start, goal, options, "find_path", kw)
        return self._run(self.lib._c.lddb_find_path, args, r)

    def solve(self, db: Database, grid: Map, start: Point2, goal: Point2, *, options: Optional[Options] = None,
              **kw) -> Result:
        """One search; keywords as Library.options takes them, over `options` when given.
        Returns the Result when the search ran (found or not); raises InvalidStart,
        InvalidGoal or RuleMismatch for a query it cannot run."""
        r, args = CResult(), self._query(db, grid, start, goal, options, "solve", kw)
        return self._run(self.lib._c.lddb_solve, args, r)

    def begin(self, db: Database, grid: Map, start: Point2, goal: Point2, *, options: Optional[Options] = None,
              **kw) -> Result:
        """Sliced Block A*: status IN_PROGRESS until resume ends it; raises as solve does."""
        r, args = CResult(), self._query(db, grid, start, goal, options, "begin", kw)
        return self._outcome(self.lib._c.lddb_search_begin(*args, ctypes.byref(r)), r)

    def resume(self, max_expansions: int) -> Result:
        """The sliced search begun by begin(): at most max_expansions more blocks (0: to the end)."""
        r, budget = CResult(), _int("max_expansions", max_expansions, 0, 2**64 - 1, "0 (no limit) or a count")
        st = self.lib._c.lddb_search_continue(self.handle, budget, ctypes.byref(r))
        return self._outcome(st, r)

    continue_ = resume  # the earlier name

    def _query(self, db, grid, start, goal, options, where, kw) -> tuple:
        o = self.lib._options(options, where, kw)
        return self.handle, db.handle, grid.handle, _point(start, "start"), _point(goal, "goal"), ctypes.byref(o)

    def _outcome(self, st: int, r: CResult, copied: bool = False) -> Result:
        if st == _OK:  # the usual case, with no status object to look up
            path = Path._from_buffer(self._points, 0, r.path_count) if copied else self.path()
            return Result(Status.OK, r.cost, r.cost_fixed, r.length, r.expansions, path, "", _searched(r.searched))
        error = self.lib.last_error()  # before any other call clears it
        status = _status(st)
        if status not in _RAN and status not in _REFUSED:
            raise _error(st, error)
        done = status != Status.IN_PROGRESS
        if not done:
            path = Path()
        elif copied:
            path = Path._from_buffer(self._points, 0, int(r.path_count))
        else:
            path = self.path()
        message = self.message() if done else ""
        result = Result(_status(r.status), r.cost, r.cost_fixed, r.length, r.expansions, path, message,
                        _searched(r.searched))
        if status in _REFUSED:
            raise _error(st, error, result)
        return result

    def message(self) -> str:
        """Why the last search has no path ("" when it found one): lddb_context_message."""
        return self.lib._string(self.lib._c.lddb_context_message, self.handle)

    def path(self) -> Path:
        """The last path this context found (solve or a finished sliced search)."""
        n = ctypes.c_size_t()
        self.lib.check(self.lib._c.lddb_context_path(self.handle, None, 0, ctypes.byref(n)))
        buf = (Point * max(1, n.value))()
        self.lib.check(self.lib._c.lddb_context_path(self.handle, buf, n.value, ctypes.byref(n)))
        return Path._from_buffer(buf, 0, n.value)


class Batch(_Handle):
    """Many queries on worker threads (threads 0: one per core)."""
    _free = "lddb_batch_free"

    def solve(self, db: Database, grid: Map, queries: List[Tuple[Point2, Point2]], *,
              options: Optional[Options] = None, **kw) -> List[Result]:
        """A Result per query, as Context.solve would give it, refused queries included
        (their status says so; Result.raise_for_status raises for them). Every query is for
        the one unit of size= and movement=."""
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
                       Path._from_buffer(points, int(r.path_offset), int(r.path_count)),
                       "" if r.status == OK else self.lib._string(c.lddb_batch_message, self.handle, i),
                       _searched(r.searched))
                for i, r in enumerate(rs[:n])]
