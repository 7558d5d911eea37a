"""The published rulebooks the presets follow, by the ids the code and README call them.

The code says where a rule comes from in three digits ("000's dead-deal test", "a win bonus
(004)"); this table defines those ids once: what each rulebook is (in our words), which presets
follow it and what it contributes. ``tests/engine/test_rulebook_ids.py`` checks that every id the
code, the README and the docs mention is one of these. ``msc`` follows no rulebook (it is known
from an oracle, the public solver behind our msc-1500 decks), so :func:`rulebook_of` gives
``None`` for it. Standard library only and no package imports, so any module can import it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Rulebook:
    """One published rulebook.

    Attributes:
        id: three digits, ``"000"`` .. ``"004"``: how code and README refer to it.
        title: what the source is, in our words (README uses the same words).
        presets: the presets that follow it: first the one it defines, then any variant of
            it that it describes (``"one-pass"``, 000's strict variant).
        note: one line on what it contributes to the engine and its tests.
    """

    id: str
    title: str
    presets: tuple[str, ...]
    note: str


RULEBOOKS: dict[str, Rulebook] = {
    book.id: book
    for book in (
        Rulebook(
            "000",
            "the rules page of cardgames.io's Pyramid",
            ("relaxed", "one-pass"),
            "unlimited recycling, the covering pair, the dead-deal test that ends the game, "
            "the hint; its strict variant (one pass) and its full-clear variant (goal all)",
        ),
        Rulebook(
            "001",
            "Poozee's Pyramid Solitaire",
            ("two-card",),
            "the drawn card and the waste top both play and pair; 3 passes (1-3 offered); "
            "score 10 / 5 / +100; a worked opening and statistics of 100,000 opening layouts",
        ),
        Rulebook(
            "002",
            "the help of the Pyramide app",
            ("unlimited",),
            "1 card on the waste at the start, unlimited passes, undo of the last 100 actions "
            "that keeps the move counter; the worked deal PY1-N-AAAAAAS",
        ),
        Rulebook(
            "003",
            "the help page of a web Pyramid game",
            ("two-pass",),
            "2 passes (one turn of the waste); strategy advice for the heuristic agent",
        ),
        Rulebook(
            "004",
            "Hevagames' Pyramid Solitaire",
            ("three-pass",),
            "3 passes (two redeals); score 10 / 2 and a win bonus 600 - 2 / move - 0.5 / s; "
            "undo counts as a move; strategy advice for the heuristic agent",
        ),
    )
}
"""The rulebooks by id, in id order."""


def rulebook_of(preset: str) -> Rulebook | None:
    """The rulebook a preset follows (``"one-pass"`` -> 000), or ``None`` (``"msc"``).

    Args:
        preset: a preset's name, as in ``PRESETS``; any other name gives ``None`` too.
    """
    for book in RULEBOOKS.values():
        if preset in book.presets:
            return book
    return None
