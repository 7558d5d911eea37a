"""The solver's analysis of a replay: a verdict per position, and the move that lost the deal.

The solver is clairvoyant (it knows the stock order), so "winnable" here means winnable by
someone who knew the stock; a player who did not may have had no way to tell the losing move
from the better one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pyramid_env.replay.format import Replay

DEFAULT_BUDGET: int | None = None
"""Positions the solver may expand per position analysed before answering ``unknown``: no
limit by default, the time limit decides (a hard deal's opening can take over a million
positions, a second or so with the compiled search)."""
DEFAULT_TIME_LIMIT = 10.0
"""Seconds the solver may spend per position analysed before answering ``unknown``."""


@dataclass(frozen=True, slots=True)
class Analysis:
    """The solver's verdict on every position of a replay, and the move that lost the deal.

    Attributes:
        verdicts: per position, ``'win'``, ``'loss'`` or ``'unknown'`` (a search limit ran out).
        searched: per position, whether the solver was asked (the others follow, see
            :func:`analyse`).
        losing_move: index in ``replay.moves`` of the first move after which a winnable deal
            was lost; ``None`` when never winnable, never lost, or unknowns hide the step.
        better_move: there, the first move of the solver's winning line (else ``None``).
        better_line: that whole line, from the position before the losing move.
        nodes: positions the solver expanded in all.
        seconds: wall time of the searches.
    """

    verdicts: tuple[str, ...]
    searched: tuple[bool, ...]
    losing_move: int | None
    better_move: str | None
    better_line: tuple[str, ...] | None
    nodes: int = 0
    seconds: float = 0.0

    def summary(self, replay: Replay) -> str:
        """One line on where the game was lost, in the page's words."""
        v = self.verdicts
        if self.losing_move is not None:
            k = self.losing_move
            return (
                f"move {k + 1} ({replay.moves[k]}): after this move the deal could no longer be "
                f"won; {self.better_move} would have kept it winnable (by a player who knew "
                "the stock)"
            )
        if v[0] == "loss":
            return "the deal could not be won from the start, even knowing the stock"
        if v[-1] == "win":
            return "the position stayed winnable throughout"
        return "the solver's limits ran out before it could place the losing move"

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form, for the page and for ``--json`` output."""
        return {
            "verdicts": list(self.verdicts),
            "searched": list(self.searched),
            "losing_move": self.losing_move,
            "better_move": self.better_move,
            "better_line": None if self.better_line is None else list(self.better_line),
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
        }


def analyse(
    replay: Replay,
    budget: int | None = DEFAULT_BUDGET,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    *,
    every: bool = False,
) -> Analysis:
    """The solver's verdict on each position of ``replay``, and the move that lost the deal.

    Along a game the verdicts read win..., then loss..., so the solver bisects for the step
    between them and the other verdicts follow exactly (the docs' evaluation page says why);
    an ``unknown`` makes it ask the positions around it instead.

    Args:
        replay: the game.
        budget: positions the solver may expand per position asked (``None``: no limit).
        time_limit: seconds per position asked (``None``: no limit).
        every: ask the solver about every position instead of inferring (slower).

    Returns:
        An :class:`Analysis`.
    """
    from pyramid_env.solver import solve  # the page alone does not need the solver

    states = list(replay.positions())
    n = len(states)
    asked: dict[int, Any] = {}

    def ask(i: int) -> str:
        asked[i] = solve(states[i], budget=budget, time_limit=time_limit, check=False)
        return asked[i].status.value

    lo, hi = -1, n  # the last position known winnable, the first known lost
    if every:
        for i in range(n):
            ask(i)
        wins = [i for i in asked if asked[i].status.value == "win"]
        losses = [i for i in asked if asked[i].status.value == "loss"]
        lo, hi = max(wins, default=-1), min(losses, default=n)
    else:
        while True:
            todo = [i for i in range(lo + 1, hi) if i not in asked]
            if not todo:
                break
            if lo < 0 and 0 in todo:
                i = 0
            elif hi == n and n - 1 in todo:
                i = n - 1
            else:
                mid = (lo + hi) / 2
                i = min(todo, key=lambda j: (abs(j - mid), j))
            verdict = ask(i)
            if verdict == "win":
                lo = max(lo, i)
            elif verdict == "loss":
                hi = min(hi, i)
    if lo >= hi:
        raise AssertionError(f"the solver calls position {hi} lost but the later {lo} won")
    verdicts = tuple(
        "win" if i <= lo else "loss" if i >= hi else asked[i].status.value for i in range(n)
    )
    losing = lo if 0 <= lo and hi == lo + 1 < n else None  # a win, then a loss, both seen
    line = asked[losing].line if losing is not None else None
    return Analysis(
        verdicts,
        tuple(i in asked for i in range(n)),
        losing,
        line[0] if line else None,
        tuple(line) if line is not None else None,
        sum(sol.nodes for sol in asked.values()),
        sum(sol.seconds for sol in asked.values()),
    )
