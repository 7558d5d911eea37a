"""The command line's number types: what ``int()`` and ``float()`` take that no one means.

``int("\u0665")`` is 5 and ``int("5_000")`` is 5000; ``float("nan")`` is a number. An option
given such text is a typo or a test of the program, so these types take ASCII digits only, and
seconds that are finite and positive; argparse reports the rest with exit status 2. Kept apart
from :mod:`pyramid_env.options` (which knows the agents) so that any command's module may use
them without importing the others.
"""

from __future__ import annotations

import argparse
import re

from pyramid_env.engine.errors import shorten

_INTEGER = re.compile(r"[+-]?[0-9]{1,40}")  # ASCII digits: int() would take "٥" and "5_000"
_DECIMAL = re.compile(r"[+-]?([0-9]{1,40}(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]{1,3})?")


def integer(text: str) -> int:
    """An option's whole number: ASCII digits, an optional sign, at most 40 digits.

    ``int()`` alone would take Arabic-Indic digits and ``5_000``, which no one means for a
    deal number; the range of each option is checked where its value is used.
    """
    if not _INTEGER.fullmatch(text.strip()):
        raise argparse.ArgumentTypeError(
            f"{shorten(text)} is not a whole number (digits 0-9, at most 40)"
        )
    return int(text)


def positive(text: str) -> int:
    """An option's whole number >= 1 (a budget: 0 or less would give up before starting)."""
    value = integer(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not a whole number >= 1")
    return value


def seconds(text: str) -> float:
    """An option's number of seconds: a finite decimal number > 0 (no nan, no inf)."""
    if not _DECIMAL.fullmatch(text.strip()) or not float(text) > 0:
        raise argparse.ArgumentTypeError(f"{shorten(text)} is not a number of seconds > 0")
    return float(text)


__all__ = ["integer", "positive", "seconds"]
