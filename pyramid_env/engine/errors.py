"""The library's exceptions: one family, so a caller catches bad input with one ``except``.

Every error raised for input the library cannot take (a malformed card or deal, an unknown or
mistyped rule knob, an env option out of range, a move the rules forbid) is a
:class:`PyramidError`. It subclasses ``ValueError``, as bad values conventionally do, and its
message names the field, the value given and what is allowed.
"""

from __future__ import annotations

import numbers
import operator
from collections.abc import Mapping, Sequence


class PyramidError(ValueError):
    """Bad input to pyramid-env: the message names the field, the value and what is allowed."""


class CardError(PyramidError):
    """A card, a deal or a position given as text or numbers is malformed."""


class RulesError(PyramidError):
    """A rule knob that does not exist, or a value it cannot take."""


class IllegalMove(PyramidError):
    """A move that the rules do not allow here; the message says why."""


def describe(value: object, limit: int = 80) -> str:
    """``repr`` of a value with its type where the repr alone could mislead (``'5'`` vs 5).

    A repr longer than ``limit`` is cut, with its length: a message never echoes megabytes.
    """
    return f"{shorten(value, limit)} ({type(value).__name__})"


def shorten(value: object, limit: int = 80) -> str:
    """``repr(value)``, cut to ``limit`` characters with the full length said when longer."""
    try:
        text = repr(value)
    except RecursionError:  # a structure nested thousands deep
        return f"<a {type(value).__name__} nested too deeply to show>"
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text):,} characters)"


def is_int(value: object) -> bool:
    """Whether ``value`` is an integer a caller means as a number: numpy's count, bool does not.

    ``True`` is an ``int`` to Python, but a caller passing it for a count or an id has made a
    mistake (``passes=True`` would read as one pass), so it is refused everywhere. Checked with
    ``numbers.Integral`` so numpy integers count without the engine importing numpy.
    """
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def as_int(value: object, field: str, allowed: str, error: type[PyramidError]) -> int:
    """``value`` as a plain ``int`` (numpy integers normalised), else ``error`` naming ``field``.

    Normalising here, at the boundary, keeps numpy scalars out of the engine's state, hashes and
    saves (``json`` cannot write ``np.int64``).

    Raises:
        PyramidError: of class ``error``, ``"{field}={value!r} ({type}) {allowed}"``.
    """
    if is_int(value):
        return operator.index(value)
    raise error(f"{field}={describe(value)} {allowed}")


__all__ = [
    "CardError", "IllegalMove", "PyramidError", "RulesError", "as_int", "describe", "is_int",
    "shorten",
]  # fmt: skip


def check_file_fields(
    data: object,
    kind: str,
    fmt: str,
    version: int,
    fields: Sequence[str],
    required: Sequence[str],
    writer: str,
    noun: str,
) -> None:
    """The envelope of a versioned JSON file (a save, a replay): one statement of its checks.

    ``data`` must be a dict with ``format`` ``fmt`` and ``version`` ``version``, no field outside
    ``fields`` and every field of ``required``; the messages name ``kind`` (``"save"``), the
    function that writes such a dict (``writer``) and what the file is called (``noun``).

    Raises:
        CardError: the first thing wrong, named.
    """
    if not isinstance(data, Mapping):
        raise CardError(f"{kind} {describe(data)} must be a dict, as {writer} writes")
    got, number = data.get("format"), data.get("version")
    if got != fmt or not is_int(number) or number != version:
        raise CardError(
            f"not a {fmt} v{version} {noun}: format={shorten(got)}, version={shorten(number)}"
        )
    unknown = sorted(repr(k) for k in set(data) - set(fields))
    if unknown:
        raise CardError(
            f"{kind} has unknown field(s) {', '.join(unknown)}; a {kind} has: {', '.join(fields)}"
        )
    missing = [k for k in required if k not in data]
    if missing:
        raise CardError(f"{kind} is missing field(s): {', '.join(missing)}")
