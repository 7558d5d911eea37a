"""Fixed seed sets (disjoint ranges of deal numbers) and the solver's labels for them.

``test`` is deals 0..1,999 (to report results; the benchmark takes the first 1,000), ``val``
2,000..2,999 (to choose hyperparameters and checkpoints), ``train`` 1,000,000..2**63-1
(``PyramidEnv(deals="train")``); 3,000..999,999 is kept free for future sets. Deal numbers mean
the same cards forever, so a set is the same deals on every machine and version. The labels, for
every ``val`` and ``test`` deal under every preset: the solver's verdict, its line's length and
the shortest length where found in time (``pyramid_env/labels/<preset>.csv``, written by
``experiments/make_labels.py``), so that evaluation need not solve them again.
"""

from __future__ import annotations

import csv
import numbers
import re
import sys
from collections import Counter
from dataclasses import dataclass
from functools import cache
from importlib import resources

from pyramid_env.engine.deal import MAX_DEAL
from pyramid_env.engine.errors import PyramidError, describe, shorten

SEED_SETS: dict[str, range] = {
    "test": range(0, 2_000),
    "val": range(2_000, 3_000),
    "train": range(1_000_000, 2**63),
}
LABELLED = ("val", "test")
# ASCII digits only: int() would take "٥" and "5_000", which no one types for a deal number.
_SLICE = re.compile(r"^(\w+)\[(-?\d*):(-?\d*)\]$", re.ASCII)
_SPAN = re.compile(r"^(\d+)-(\d+)$", re.ASCII)
_LIST = re.compile(r"^\s*[+-]?\d+\s*(,\s*[+-]?\d+\s*)*$", re.ASCII)


DEALS = MAX_DEAL + 1  # deal numbers are 0 .. 2**64 - 1 (pyramid_env.engine.deal)
_SPEC_HELP = "a set name (test, val, train), 'test[:1000]', 'val[100:200]', '0-99' or '3,5,8'"


def seed_set(
    spec: str | range | list[int] | tuple[int, ...], field: str = "seeds"
) -> range | list[int]:
    """The deal numbers named by ``spec``: never empty, each in 0 .. 2**64 - 1, no repeats.

    ``"test"``, ``"val"``, ``"train"``; a slice of one, ``"test[:1000]"`` or
    ``"val[100:200]"``; an inclusive span ``"0-99"``; a comma list ``"3,5,8"``; or a range or
    a list of numbers (numpy integers too). Sets stay ranges, so ``"train"`` (about 9.2e18
    deals) costs nothing until a caller asks for its members.

    Args:
        spec: the deals, in one of the forms above.
        field: the argument's name, for error messages (``"seeds"``, ``"deals"``).

    Raises:
        PyramidError: an unknown set name, a malformed spec, a spec that selects no deal, a
            number out of range or repeated; the message names the spec and what is allowed.
    """
    if hasattr(spec, "tolist") and not isinstance(spec, str | range):  # a numpy array
        spec = spec.tolist()
    if isinstance(spec, str):
        deals = _parse(spec, field)
    elif isinstance(spec, range):
        deals = spec
        if spec.step != 1 or spec.start < 0 or spec.stop > DEALS:
            raise PyramidError(
                f"{field}={spec!r}: a range of deal numbers must be within 0..2**64-1, step 1"
            )
        if spec.stop - spec.start > sys.maxsize:
            raise PyramidError(f"{field}={spec!r} is too large (at most 2**63-1 deals)")
    elif isinstance(spec, list | tuple):
        deals = [_deal_number(x, field) for x in spec]
        if len(set(deals)) != len(deals):
            twice = sorted(n for n, k in Counter(deals).items() if k > 1)[:5]
            raise PyramidError(f"{field}: deal numbers repeated: {twice} (each deal once)")
    else:
        raise PyramidError(
            f"{field}={describe(spec)}: give {_SPEC_HELP}, a range or a list of deal numbers"
        )
    if len(deals) == 0:
        raise PyramidError(f"{field}={shorten(spec)} selects no deal")
    return deals


def _deal_number(x: object, field: str) -> int:
    """One deal number of a list spec, checked (numpy integers accepted, bools refused)."""
    if isinstance(x, bool) or not isinstance(x, numbers.Integral):
        raise PyramidError(f"{field}: {describe(x)} is not a deal number (an int)")
    if not 0 <= int(x) < DEALS:
        raise PyramidError(f"{field}: deal number {x} is out of range 0..2**64-1")
    return int(x)


def _parse(spec: str, field: str) -> range | list[int]:
    text = spec.strip()
    m = _SLICE.match(text)
    name = m.group(1) if m else text
    if m or name.isalpha():
        if name not in SEED_SETS:
            known = ", ".join(SEED_SETS)
            raise PyramidError(f"{field}: unknown seed set {shorten(name)}: one of {known}")
        whole = SEED_SETS[name]
        if not m:
            return whole
        lo, hi = (int(g) if g else None for g in m.groups()[1:])
        part = whole[lo:hi]
        if len(part) == 0:
            raise PyramidError(
                f"{field}: seed spec {shorten(spec)} selects no deal: {name} has "
                f"{len(whole):,} deals, numbered {whole[0]}..{whole[-1]}; the slice counts from 0 "
                "within it"
            )
        return part
    m = _SPAN.match(text)
    if m:
        lo, hi = int(m.group(1)), int(m.group(2))
        if hi < lo:
            raise PyramidError(f"{field}: seed span {shorten(text)} ends before it starts")
        if hi >= DEALS:
            raise PyramidError(f"{field}: seed span {shorten(text)}: deal numbers end at 2**64-1")
        if hi - lo + 1 > sys.maxsize:  # len() of the range would overflow
            raise PyramidError(
                f"{field}: seed span {shorten(text)} has {hi - lo + 1:,} deals; at most 2**63-1"
            )
        return range(lo, hi + 1)
    if not _LIST.match(text):
        raise PyramidError(f"bad seed spec {shorten(spec)} for {field}: {_SPEC_HELP}")
    return seed_set([int(x) for x in text.split(",")], field)


@dataclass(frozen=True, slots=True)
class Label:
    """What the solver knows about one deal under one preset.

    Attributes:
        won: winnable by a player who sees the stock order; ``None`` if the solver ran out of
            its time limit (none do in the shipped files; kept so a file can say so).
        steps: steps of the winning line the solver found (not always the shortest).
        shortest: the fewest steps that win, or ``None`` where the shortest search was not run
            or did not finish in its time limit.
    """

    won: bool | None
    steps: int | None = None
    shortest: int | None = None


def _int(text: str) -> int | None:
    return int(text) if text else None


@cache
def labels(preset: str) -> dict[int, Label]:
    """The shipped labels of ``preset`` (deal number -> :class:`Label`); empty if none ship."""
    path = resources.files("pyramid_env") / "labels" / f"{preset}.csv"
    if not path.is_file():
        return {}
    out = {}
    with path.open() as f:
        for row in csv.DictReader(f):
            won = {"win": True, "loss": False}.get(row["verdict"])
            out[int(row["deal"])] = Label(won, _int(row["steps"]), _int(row["shortest"]))
    return out


__all__ = ["LABELLED", "SEED_SETS", "Label", "labels", "seed_set"]
