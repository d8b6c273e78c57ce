"""Search options: the algorithm and heuristic enums, the C structs a query passes (lddb_point,
lddb_options) and the keyword options solve takes, each checked with an error naming the keyword."""
import ctypes
import difflib
import enum
from typing import Tuple

Point2 = Tuple[int, int]


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


class Point(ctypes.Structure):
    _fields_ = [("x", ctypes.c_int32), ("y", ctypes.c_int32)]


class Options(ctypes.Structure):
    """lddb_options; build one with Library.options(...) or pass keywords to solve."""
    _fields_ = [("struct_size", ctypes.c_uint32), ("version", ctypes.c_uint32),
                ("algorithm", ctypes.c_int32), ("heuristic", ctypes.c_int32),
                ("smooth", ctypes.c_int32), ("open_squares", ctypes.c_int32),
                ("max_expansions", ctypes.c_uint64), ("weight", ctypes.c_double),
                ("landmarks", ctypes.c_uint64), ("square_levels", ctypes.c_int32),
                ("use_prepared", ctypes.c_int32), ("jumps", ctypes.c_int32),
                ("unit_size", ctypes.c_int32), ("movement", ctypes.c_uint8 * 32)]


class Preparation(ctypes.Structure):
    """lddb_preparation: what Map.prepare made (landmarks, open squares), its time and memory."""
    _fields_ = [("landmarks", ctypes.c_int32), ("landmarks_built", ctypes.c_int32),
                ("open_squares", ctypes.c_int32), ("state", ctypes.c_int32),
                ("prepare_ms", ctypes.c_double), ("total_ms", ctypes.c_double), ("bytes", ctypes.c_uint64)]
    STATES = ("ready", "building", "stale", "set_aside")

    def __repr__(self) -> str:
        return (f"Preparation({self.landmarks_built} of {self.landmarks} landmarks, open squares "
                f"{'on' if self.open_squares else 'off'}, {self.prepare_ms:.1f} ms, {self.bytes / 2**20:.1f} MiB, "
                f"{self.STATES[self.state] if 0 <= self.state < len(self.STATES) else self.state})")


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


def terrain_type(key: str, t) -> int:
    """A terrain type: a one-character str ('W') or an int from 0 to 255."""
    if isinstance(t, str):
        if len(t) != 1 or ord(t) > 255:
            raise ValueError(f"{key} {t!r} is not one character from U+0000 to U+00FF (a type is a byte)")
        return ord(t)
    return _int(key, t, 0, 255, "a terrain type is a byte, 0 to 255")


def _movement(key: str, v):
    """The 256-bit class of lddb_options.movement from a str of letters (".GSW") or an
    iterable of types (ints, or bytes); None: ground."""
    types = ".GS" if v is None else v
    if not isinstance(types, str):
        try:
            types = list(types)
        except TypeError:
            raise TypeError(f"{key} must be a str of letters or an iterable of ints, not {type(v).__name__}") from None
    if not types:
        raise ValueError(f"{key} is empty: no cell would be open to the unit (None: ground)")
    bits = (ctypes.c_uint8 * 32)()
    for t in types:
        t = terrain_type(key + " type", t)
        bits[t >> 3] |= 1 << (t & 7)
    return bits


def _landmarks(key: str, v) -> int:
    from ._objects import Landmarks  # here, not at the top: _objects imports this module
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
    "use_prepared": lambda k, v: 1 if _typed(k, v, int, "a bool", bools=True) else 0,
    # None: the map's preparation's choice; True / False: jump point search or Block A*.
    "jumps": lambda k, v: -1 if v is None else (1 if _typed(k, v, int, "None or a bool", bools=True) else 0),
    # The unit (lddb_options.unit_size and movement); the library checks the size's range.
    "size": lambda k, v: _int(k, v, -2**31, 2**31 - 1, "an int32"),
    "movement": _movement,
}
# Keywords whose lddb_options field has another name.
_FIELD_NAMES = {"size": "unit_size"}


def _apply(o: Options, where: str, kw: dict) -> Options:
    for key, value in kw.items():
        if key not in _FIELDS:
            near = difflib.get_close_matches(key, _FIELDS, 1)
            hint = f"did you mean {near[0]!r}? " if near else ""
            raise TypeError(f"{where}() got an unexpected keyword argument {key!r} ({hint}options: "
                            f"{', '.join(_FIELDS)})")
        setattr(o, _FIELD_NAMES.get(key, key), _FIELDS[key](key, value))
    return o


def _point(p, name: str) -> Point:
    try:
        x, y = p
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be an (x, y) pair, not {p!r}") from None
    return Point(_int(name + " x", x, -2**31, 2**31 - 1, "an int32"), _int(name + " y", y, -2**31, 2**31 - 1, "an int32"))
