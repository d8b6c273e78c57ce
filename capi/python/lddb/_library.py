"""Loading liblddb: the C signatures, the Library that makes the objects, and load(), which
looks in LDDB_LIBRARY, then beside the package's install, then through the system's loader."""
import ctypes
import ctypes.util
import os
import sys
import sysconfig
from typing import List, Optional

import warnings

from ._errors import OK, Error, LibraryNotFound, UnpreparedMapWarning, _error
from ._objects import Batch, Context, CResult, Database, Landmarks, Map, Query
from ._options import Keywords, OptionInfo, Options, Point, Preparation

_H, _I32, _SIZE, _P = ctypes.c_uint64, ctypes.c_int32, ctypes.c_size_t, ctypes.POINTER
_WARNING_FN = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_void_p)  # lddb_warning_fn
_SIZE_P, _STR = _P(_SIZE), ctypes.c_char_p
# Argument types.
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
    "lddb_map_set_terrain": [_H, _I32, _I32, ctypes.c_uint8],
    "lddb_map_terrain": [_H, _I32, _I32, _P(ctypes.c_uint8)],
    "lddb_map_set_rect": [_H, _I32, _I32, _I32, _I32, ctypes.c_void_p, _SIZE, _I32],
    "lddb_map_fill_rect": [_H, _I32, _I32, _I32, _I32, _I32],
    "lddb_landmarks_build": [_H, _H, _I32, _I32, _P(_H)],
    "lddb_landmarks_free": [_H],
    "lddb_landmarks_current": [_H, _H, _P(_I32)],
    "lddb_landmarks_repair": [_H, _H],
    "lddb_prepare": [_H, _H, _I32, _P(Preparation)],
    "lddb_prepare_step": [_H, ctypes.c_uint64, _P(_I32)],
    "lddb_preparation_get": [_H, _H, _P(Preparation)],
    "lddb_preparation_plan": [_H, _H, _P(_I32), _STR, _SIZE, _SIZE_P],
    "lddb_context_create": [_P(_H)],
    "lddb_context_free": [_H],
    "lddb_context_reserve": [_H, _H, _H, _P(Options)],
    "lddb_context_message": [_H, _STR, _SIZE, _SIZE_P],
    "lddb_options_init_size": [_P(Options), ctypes.c_uint32],
    "lddb_option_count": [],
    "lddb_option_describe": [_SIZE, _P(OptionInfo), _SIZE],
    "lddb_solve": [_H, _H, _H, Point, Point, _P(Options), _P(CResult), _P(Point), _SIZE],
    "lddb_find_path": [_H, _H, _H, Point, Point, _P(Options), _P(CResult), _P(Point), _SIZE],
    "lddb_context_path": [_H, _P(Point), _SIZE, _SIZE_P],
    "lddb_search_begin": [_H, _H, _H, Point, Point, _P(Options), _P(CResult)],
    "lddb_search_continue": [_H, ctypes.c_uint64, _P(CResult)],
    "lddb_batch_create": [ctypes.c_uint32, _P(_H)],
    "lddb_batch_free": [_H],
    "lddb_batch_solve": [_H, _H, _H, _P(Query), _SIZE, _P(Options), _P(CResult), _P(Point), _SIZE, _SIZE_P],
    "lddb_batch_message": [_H, _SIZE, _STR, _SIZE, _SIZE_P],
    "lddb_set_warning_handler": [_WARNING_FN, ctypes.c_void_p],
}
# Every call returns an lddb_status but these.
_RESTYPES = {"lddb_last_error": _STR, "lddb_option_count": _SIZE}


class Library:
    """One loaded liblddb; makes the objects. Use load() rather than the constructor."""

    def __init__(self, path: str):
        self.path = path
        self._c = ctypes.CDLL(path)
        for name, argtypes in _SIGNATURES.items():
            try:
                fn = getattr(self._c, name)
            except AttributeError:
                raise LibraryNotFound(None, f"{path} has no {name}: it is older than this lddb package") from None
            fn.restype, fn.argtypes = _RESTYPES.get(name, ctypes.c_int), argtypes
        self.keywords = Keywords(self._option_rows())
        self._defaults: Optional[Options] = None  # the default lddb_options, made on first use
        self._by_keywords: dict = {}  # lddb_options made from keywords, by the keywords
        # The library's warnings (a map searched unprepared) as Python warnings.
        self.check(self._c.lddb_set_warning_handler(_WARN_CALLBACK, None))

    def _option_rows(self) -> List[OptionInfo]:
        """The library's table of search options, one lddb_option_info a row."""
        rows = []
        for index in range(self._c.lddb_option_count()):
            info = OptionInfo()
            self.check(self._c.lddb_option_describe(index, ctypes.byref(info), ctypes.sizeof(info)))
            rows.append(info)
        return rows

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
                open_squares=None, square_levels=None, **kw) -> Options:
        """lddb_options from the keywords solve takes (None: the library's default): algorithm
        ("block_astar", "astar", "theta", "lazy_theta" or an Algorithm) and the library's
        table of options (self.keywords.rows; lddb.h's lddb_options says what each does):
        heuristic ("default", "zero", "manhattan", "octile", "euclidean" or a Heuristic),
        weight (from 1; above it, bounded-suboptimal), smooth, max_expansions (0 or None: no
        limit), the unit that moves: unit_size (or size; 0 to 8: the side of the square it
        fills, cells for tile and octile, 0 a point for any-angle; start, goal and path are
        its top-left cell or corner) and movement (the terrain types it may stand on: a str
        of letters, "W" for boats, ".GSW" amphibious, or an iterable of ints for a game's own
        types; default ground, ".GS"), landmarks (from build_landmarks); and for benchmarks
        jumps, open_squares (True / False), square_levels (0, or 1 to 4) and use_prepared."""
        given = dict(algorithm=algorithm, smooth=smooth, max_expansions=max_expansions, weight=weight,
                     landmarks=landmarks, open_squares=open_squares, square_levels=square_levels, **kw)
        o = self._options(None, "options", {k: v for k, v in given.items() if v is not None})
        return Options.from_buffer_copy(o)  # the caller's own to change: not the one kept for calls

    def _options(self, base: Optional[Options], where: str, kw: dict) -> Options:
        if base is not None and not isinstance(base, Options):
            raise TypeError(f"options must come from Library.options(), not {type(base).__name__}")
        if base is not None and not kw:
            return base  # read, never written, by the call: no copy needed
        if base is None and not kw:  # the defaults, made once: no call writes them
            if self._defaults is None:
                d = Options()
                self.check(self._c.lddb_options_init_size(ctypes.byref(d), ctypes.sizeof(d)))
                self._defaults = d
            return self._defaults
        # The same keywords again (a game's call each frame): the struct made for them before;
        # no call writes it. Only plain values make a key: an object (landmarks, a list of
        # types) is read and checked each time.
        key = None
        if base is None and all(type(v) in (int, float, bool, str) or v is None for v in kw.values()):
            key = tuple(sorted(kw.items()))
            cached = self._by_keywords.get(key)
            if cached is not None:
                return cached
        o = Options() if base is None else Options.from_buffer_copy(base)
        if base is None:
            self.check(self._c.lddb_options_init_size(ctypes.byref(o), ctypes.sizeof(o)))
        o = self.keywords.apply(o, where, kw)
        if key is not None and len(self._by_keywords) < 64:
            self._by_keywords[key] = o
        return o


def _warn(message: bytes, user) -> None:
    warnings.warn(message.decode("utf-8", "replace"), UnpreparedMapWarning, stacklevel=2)


# One callback for the module's life: every Library hands the same one to the library, which
# may outlive any one Library object (two of them share a loaded liblddb).
_WARN_CALLBACK = _WARNING_FN(_warn)


_NAMES = {"darwin": ["liblddb.1.dylib", "liblddb.dylib"], "win32": ["lddb.dll", "liblddb.dll"]}.get(
    sys.platform, ["liblddb.so.1", "liblddb.so"])


def install_candidates(here: Optional[str] = None) -> List[str]:
    """Where an install puts liblddb relative to the package's folder `here` (by default this
    file's): PREFIX/share/lddb/python/lddb beside PREFIX/lib, lib64 or lib/<multiarch> (bin for
    Windows DLLs)."""
    here = here or os.path.dirname(os.path.abspath(__file__))
    prefix = os.path.normpath(os.path.join(here, os.pardir, os.pardir, os.pardir, os.pardir))
    multiarch = sysconfig.get_config_var("MULTIARCH")
    folders = ["lib", "lib64"] + ([os.path.join("lib", multiarch)] if multiarch else []) + ["bin"] * (os.name == "nt")
    return [os.path.join(prefix, f, name) for f in folders for name in _NAMES]


def load(path=None) -> Library:
    """liblddb at `path`; else at $LDDB_LIBRARY; else beside the package's install; else where
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
