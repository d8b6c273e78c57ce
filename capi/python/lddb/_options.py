"""Search options: the algorithm and heuristic enums, the C structs a query passes (lddb_point,
lddb_options) and the keyword options solve takes, built from the library's table of options
(lddb_option_describe), each checked with an error naming the keyword."""
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
        jumps = ", jump point search" if getattr(self, "jumps", False) else ""
        return (f"Preparation({self.landmarks_built} of {self.landmarks} landmarks, open squares "
                f"{'on' if self.open_squares else 'off'}{jumps}, {self.prepare_ms:.1f} ms, "
                f"{self.bytes / 2**20:.1f} MiB, "
                f"{self.STATES[self.state] if 0 <= self.state < len(self.STATES) else self.state})")


def _int(key: str, value, low: int, high: int, hint: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{key} must be an int, not {type(value).__name__}")
    if not low <= value <= high:
        raise ValueError(f"{key} {value} is out of range: {hint}")
    return value


def _named(key: str, value, names: dict, enum_type=None) -> int:
    """A choice by its name (any case, '-' for '_'), its number or an enum member."""
    if isinstance(value, str):
        code = names.get(value.lower().replace("-", "_"))
        if code is None:
            raise ValueError(f"{key} {value!r} is not one of: {', '.join(names)}")
        return code
    number = _int(key, value, 0, max(names.values()), "one of " + ", ".join(names))
    return int(enum_type(number)) if enum_type else number


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
    if v is not None and _typed(key, v, Landmarks, "Landmarks from build_landmarks or None").closed:
        raise ValueError(f"{key} are closed")
    return v.handle if v is not None else 0


class OptionInfo(ctypes.Structure):
    """lddb_option_info: one row of the library's table of search options."""
    _fields_ = [("version", ctypes.c_uint32), ("offset", ctypes.c_uint32),
                ("name", ctypes.c_char_p), ("alias", ctypes.c_char_p), ("choices", ctypes.c_char_p),
                ("help", ctypes.c_char_p), ("kind", ctypes.c_int32), ("diagnostic", ctypes.c_int32),
                ("unset", ctypes.c_int32), ("off", ctypes.c_int32), ("on", ctypes.c_int32),
                ("reserved", ctypes.c_int32), ("low", ctypes.c_double), ("high", ctypes.c_double)]


_CHOICE, _FLAG, _COUNT, _INTEGER, _NUMBER, _MOVEMENT, _LANDMARKS = range(7)


def _flag(info: OptionInfo):
    """None: unset (the default); True / False: on / off; or one of the field's own ints."""
    values = {info.unset, info.off, info.on}

    def convert(key: str, v):
        if v is None:
            return info.unset
        if isinstance(v, bool):
            return info.on if v else info.off
        if isinstance(v, int):
            if v in values:
                return v
            raise ValueError(f"{key} {v} is none of the field's values {sorted(values)} (or None, True, False)")
        raise TypeError(f"{key} must be None or a bool (None: the default), not {v!r}")
    return convert


def _converter(info: OptionInfo):
    """The check of one row's keyword, giving the value of its lddb_options field. Ranges
    are the library's to check: its message names the field."""
    kind = info.kind
    if kind == _CHOICE:
        names = {n: k for k, n in enumerate(info.choices.decode().split(","))}
        return lambda k, v: _named(k, v, names)
    if kind == _FLAG:
        return _flag(info)
    if kind == _COUNT:
        return lambda k, v: 0 if v is None else _int(k, v, 0, 2**64 - 1, "0 or None (no limit), or a count")
    if kind == _INTEGER:
        return lambda k, v: _int(k, v, -2**31, 2**31 - 1, "an int32")
    if kind == _NUMBER:
        return lambda k, v: float(_typed(k, v, (int, float), "a number"))
    if kind == _MOVEMENT:
        return _movement
    if kind == _LANDMARKS:
        return _landmarks
    raise TypeError(f"option {info.name.decode()} is of a kind ({kind}) this package does not know: it is older "
                    "than its library")


class Keywords:
    """The keyword options, read from the library's table (lddb_option_describe): each
    keyword's check and the lddb_options field it sets. `algorithm` is solve's own."""

    def __init__(self, rows):
        self.rows = list(rows)
        self.fields = {"algorithm": ("algorithm", lambda k, v: _named(k, v, _ALGORITHM_NAMES, Algorithm))}
        for info in self.rows:
            name, convert = info.name.decode(), _converter(info)
            self.fields[name] = (name, convert)
            if info.alias:
                self.fields[info.alias.decode()] = (name, convert)

    def apply(self, o: Options, where: str, kw: dict) -> Options:
        for key, value in kw.items():
            if key not in self.fields:
                near = difflib.get_close_matches(key, self.fields, 1)
                hint = f"did you mean {near[0]!r}? " if near else ""
                raise TypeError(f"{where}() got an unexpected keyword argument {key!r} ({hint}options: "
                                f"{', '.join(self.fields)})")
            field, convert = self.fields[key]
            setattr(o, field, convert(key, value))
        return o


def _point(p, name: str) -> Point:
    if type(p) is tuple and len(p) == 2:  # the usual (x, y) of ints, checked without a call each
        x, y = p
        if type(x) is int and type(y) is int and -2**31 <= x < 2**31 and -2**31 <= y < 2**31:
            return Point(x, y)
    try:
        x, y = p
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be an (x, y) pair, not {p!r}") from None
    return Point(_int(name + " x", x, -2**31, 2**31 - 1, "an int32"), _int(name + " y", y, -2**31, 2**31 - 1, "an int32"))
