"""Fixed seed sets (disjoint ranges of deal numbers) and the solver's labels for them.

=========  ========================  =========================================================
set        deal numbers              use
=========  ========================  =========================================================
``test``   0 .. 1,999                report results (``pyramid-env benchmark`` takes the first
                                     1,000 by default)
``val``    2,000 .. 2,999            choose hyperparameters and checkpoints
``train``  1,000,000 .. 2**63 - 1    train (``PyramidEnv(deals="train")`` draws from it)
=========  ========================  =========================================================

Deal numbers mean the same cards forever (``pyramid_env.engine.deal``), so a seed set is the
same deals on every machine and version. The gap 3,000 .. 999,999 is kept free for future sets.

Labels: for every deal of ``val`` and ``test`` and every preset, the solver's verdict (it knows
the stock order), the length of the line it found and, where the shortest search finished in its
time limit, the shortest length. They ship in ``pyramid_env/labels/<preset>.csv``, written by
``experiments/make_labels.py``; evaluation reads them to normalise win rates by what the solver
can win without solving again.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

SEED_SETS: dict[str, range] = {
    "test": range(0, 2_000),
    "val": range(2_000, 3_000),
    "train": range(1_000_000, 2**63),
}
LABELLED = ("val", "test")
_SLICE = re.compile(r"^(\w+)\[(-?\d*):(-?\d*)\]$")
_SPAN = re.compile(r"^(\d+)-(\d+)$")


def seed_set(spec: str | range | list[int]) -> range | list[int]:
    """The deal numbers named by ``spec``.

    ``"test"``, ``"val"``, ``"train"``; a slice of one, ``"test[:1000]"`` or
    ``"val[100:200]"``; an inclusive span ``"0-99"``; a comma list ``"3,5,8"``; or a range or
    list of numbers, returned as they are.

    Raises:
        ValueError: an unknown set name or a malformed spec, named in the message.
    """
    if not isinstance(spec, str):
        return spec
    text = spec.strip()
    m = _SLICE.match(text)
    name = m.group(1) if m else text
    if m or name.isalpha():
        if name not in SEED_SETS:
            raise ValueError(f"unknown seed set {name!r}: one of {', '.join(SEED_SETS)}")
        whole = SEED_SETS[name]
        if not m:
            return whole
        lo, hi = (int(g) if g else None for g in m.groups()[1:])
        return whole[lo:hi]
    m = _SPAN.match(text)
    if m:
        lo, hi = int(m.group(1)), int(m.group(2))
        if hi < lo:
            raise ValueError(f"seed span {text!r} ends before it starts")
        return range(lo, hi + 1)
    try:
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise ValueError(
            f"bad seed spec {spec!r}: a set name ({', '.join(SEED_SETS)}), 'test[:1000]', "
            "'0-99' or '3,5,8'"
        ) from None


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
