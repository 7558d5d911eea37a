"""The published rulebooks the presets follow, by the ids the code and README call them.

Docstrings and comments all over the package say where a rule comes from in three digits:
"000's dead-deal test", "the counter does not go down (002)", "a win bonus (004)". This table is
where those ids are defined, once: what each rulebook is (in our own short words, not its
publisher's), which presets follow it, and what it contributes. README's presets table and
the ``PRESETS`` comments in :mod:`pyramid_env.engine.rules` refer to it, and
``tests/engine/test_rulebook_ids.py`` checks that every id mentioned in the code or README is
one of these, and that README's table names the same rulebook for each preset.

The ``msc`` preset follows no rulebook: it is Microsoft Solitaire Collection's Pyramid as the
public solver behind our msc-1500 test decks (mchung94/pyramid-solver) plays it, so it is known
from an oracle, not from a text, and has no id here (:func:`rulebook_of` gives ``None``).

Pure Python, standard library only, and imports nothing from the package, so any module (the
rules included) can import it.
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
