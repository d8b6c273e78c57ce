"""A path as the library hands it back: one array of int32 coordinates, not a Python object
per point."""
from array import array
from typing import Iterator, Tuple


class Path:
    """A path's points, (x, y) pairs, kept as one array of int32 (x0, y0, x1, y1, ...) copied
    from the library's buffer in one step. len(), indexing and iteration give (x, y) tuples,
    made only when asked; a Path equals a list of pairs with the same points. `coords` is the
    array itself, for code that wants no tuple at all: numpy.frombuffer(path.coords,
    dtype=numpy.int32).reshape(-1, 2) views it without a copy."""
    __slots__ = ("coords",)

    def __init__(self, coords: array = None):
        self.coords = coords if coords is not None else array("i")

    @classmethod
    def _from_buffer(cls, points, first: int, count: int) -> "Path":
        """count points of a ctypes array of lddb_point from index `first`."""
        coords = array("i")
        if count:  # one copy, straight from the buffer's bytes
            coords.frombytes(memoryview(points).cast("B")[8 * first:8 * (first + count)])
        return cls(coords)

    def __len__(self) -> int:
        return len(self.coords) // 2

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("path index out of range")
        return self.coords[2 * i], self.coords[2 * i + 1]

    def __iter__(self) -> Iterator[Tuple[int, int]]:
        c = self.coords
        return zip(c[0::2], c[1::2])

    def __eq__(self, other) -> bool:
        if isinstance(other, Path):
            return self.coords == other.coords
        try:
            return len(self) == len(other) and all(a == tuple(b) for a, b in zip(self, other))
        except TypeError:
            return NotImplemented

    def __ne__(self, other) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = None  # mutable, as a list

    def tolist(self):
        """The points as a list of (x, y) tuples."""
        return list(self)

    def __repr__(self) -> str:
        return f"Path({self.tolist()!r})"
