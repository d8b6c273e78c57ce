"""Statuses and exceptions: lddb_status by name, and the Error raised for each kind of refusal."""
import enum
from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:
    from ._objects import Result


class Status(str, enum.Enum):
    """lddb_status by name; equal to its name as a string (Status.NO_PATH == "no_path") and
    to its lddb.h number (Status.NO_PATH == 10), so lddb.NO_PATH compares with either."""
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
    REBUILD_NEEDED = "rebuild_needed"

    def __str__(self) -> str:
        return self.value

    def __int__(self) -> int:
        return self._code

    __index__ = __int__

    def __eq__(self, other) -> bool:
        if isinstance(other, int) and not isinstance(other, bool):
            return self._code == other
        return str.__eq__(self, other)

    def __ne__(self, other) -> bool:
        return not self.__eq__(other)

    __hash__ = str.__hash__  # as its name's: a Status and its name are one dict key


_CODES = list(Status)  # in lddb_status order: _CODES[LDDB_NO_PATH] is Status.NO_PATH
for _code, _member in enumerate(_CODES):
    _member._code = _code  # lddb.h's number, read by __eq__ and __int__
STATUS_NAMES = [s.value for s in _CODES]  # the earlier list of names
# The statuses a caller compares with, equal to both Result.status and lddb.h's numbers.
OK, BUFFER_TOO_SMALL, NO_PATH, BUDGET_EXHAUSTED, IN_PROGRESS = (Status.OK, Status.BUFFER_TOO_SMALL, Status.NO_PATH,
                                                                Status.BUDGET_EXHAUSTED, Status.IN_PROGRESS)
# Outcomes of a search that ran; a Result, not an exception.
_RAN = {Status.OK, Status.NO_PATH, Status.BUDGET_EXHAUSTED, Status.IN_PROGRESS}
# Queries the search refused: raised from solve and begin, with the Result.
_REFUSED = {Status.INVALID_START, Status.INVALID_GOAL, Status.RULE_MISMATCH}



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


class RebuildNeeded(Error):
    """Landmarks that cannot catch up with the map (more cells freed than the map keeps a
    note of, or another map): build a new set."""


class UnpreparedMapWarning(UserWarning):
    """find_path (or Block A*) ran on a map never prepared (Map.prepare): the answer is right,
    but without what pays for the map. Said once a map."""


LddbError = Error  # the earlier name
_ERRORS = {Status.IO_ERROR: FileError, Status.CORRUPT_DATABASE: CorruptDatabase, Status.INVALID_MAP: InvalidMap,
           Status.INVALID_ARGUMENT: InvalidArgument, Status.NULL_ARGUMENT: HandleError,
           Status.BAD_HANDLE: HandleError, Status.WRONG_HANDLE_KIND: HandleError,
           Status.REBUILD_NEEDED: RebuildNeeded,
           Status.INVALID_START: InvalidStart, Status.INVALID_GOAL: InvalidGoal, Status.RULE_MISMATCH: RuleMismatch}


def _status(code: int):
    return _CODES[code] if 0 <= code < len(_CODES) else code


def _error(code: int, message: str, result: Optional["Result"] = None) -> Error:
    status = _status(code)
    return _ERRORS.get(status, Error)(status, message, result)
