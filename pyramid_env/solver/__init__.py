"""Exact solver: won / lost for a deal or any position, a winning line, a shortest line.

It is clairvoyant (it knows the stock order) and plays through the engine's own move generator
and ``apply``/``undo``, one source of rules truth, adding search on top: verdicts
(:mod:`~pyramid_env.solver.search`) and A* (:mod:`~pyramid_env.solver.shortest`), compiled in
:mod:`~pyramid_env.solver.kernel` where numba is installed; this module is the API (the package's
modules: docs/layout.md). Every ``win`` line is replayed through the engine before it is
returned; ``unknown`` means an explicit ``budget`` or ``time_limit`` ran out.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from pyramid_env.engine import state as st
from pyramid_env.engine.deal import DealLike
from pyramid_env.engine.game import Game
from pyramid_env.engine.moves import MOVES, Move
from pyramid_env.engine.notation import format_move
from pyramid_env.engine.rules import Rules
from pyramid_env.solver import kernel
from pyramid_env.solver.free_stock import (
    FreeStock,
    concrete,
    free_stock_moves,
    free_stock_oracle,
    free_stock_rules,
)
from pyramid_env.solver.search import dfs, dfs_compiled
from pyramid_env.solver.shortest import astar, astar_compiled
from pyramid_env.solver.tables import Budget, DealTables, Limit


class Verdict(StrEnum):
    """The solver's answer."""

    WIN = "win"
    LOSS = "loss"
    UNKNOWN = "unknown"
    """A budget ran out; never a guess."""


@dataclass(frozen=True)
class Solution:
    """What :func:`solve` found.

    Attributes:
        status: win, loss or unknown.
        moves: the winning line as engine moves from the position solved (``None`` unless win).
        line: the same line as text (``'draw'``, ``'Kd'``, ``'5d+8s'``), for people and JSON.
        nodes: positions expanded.
        seconds: wall time of the search.
        shortest: whether ``moves`` is proven to have the fewest steps.
    """

    status: Verdict
    moves: tuple[Move, ...] | None = None
    line: tuple[str, ...] | None = None
    nodes: int = 0
    seconds: float = 0.0
    shortest: bool = False

    @property
    def won(self) -> bool | None:
        """The verdict as a player's question: True won, False lost, None where a budget ran out."""
        return None if self.status is Verdict.UNKNOWN else self.status is Verdict.WIN

    @property
    def steps(self) -> int | None:
        """Length of the winning line (draws, recycles and removals), ``None`` if no win."""
        return None if self.moves is None else len(self.moves)

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``{"status", "moves", "steps", "nodes", "seconds", "shortest"}``."""
        return {
            "status": self.status.value,
            "moves": list(self.line) if self.line is not None else None,
            "steps": self.steps,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "shortest": self.shortest,
        }


def _start_state(target: DealLike | Game | st.State, rules: Rules | str | None) -> st.State:
    if isinstance(target, Game):
        return target.state.copy()
    if isinstance(target, st.State):
        return target.copy()
    return st.State(target, rules)


def solve(
    target: DealLike | Game | st.State,
    rules: Rules | str | None = None,
    *,
    shortest: bool = False,
    budget: int | None = None,
    time_limit: float | None = None,
    check: bool = True,
    compiled: bool | None = None,
) -> Solution:
    """Solve a deal under ``rules``, or a ``Game``/``State`` from its current position.

    A deal is a number, a code, 52 cards as text or a ``Deal``. For a game or a state, ``rules``
    is ignored: the position's own rules apply.

    Args:
        target: what to solve.
        rules: preset name or ``Rules`` for a deal; default ``relaxed``.
        shortest: return a line with the fewest steps (draw, recycle and removal each count 1).
        budget: give up (status ``unknown``) after expanding this many positions (0..10**12).
        time_limit: give up (status ``unknown``) after this many seconds (> 0, up to 10**6).
        check: replay a winning line through the engine before returning it (an assertion).
        compiled: run the search in the numba kernel (:mod:`pyramid_env.solver.kernel`): the
            shortest search, and the verdict search where the stock is not free (under
            ``relaxed`` and ``unlimited`` the free-stock search answers at once); ``None``
            (default) uses it when numba is installed (the ``fast`` extra), ``False`` forces
            the pure-Python reference searches. Verdicts and line lengths are the same either
            way; ``nodes`` (and so what a ``budget`` buys) are not: the kernel expands more
            positions, far faster.

    Raises:
        ImportError: ``compiled=True`` without numba installed.
        PyramidError: a bad deal, a budget or time limit out of range.

    Returns:
        A :class:`Solution`.
    """
    if compiled and not kernel.AVAILABLE:
        raise ImportError('compiled=True needs numba: pip install "pyramid-env[fast]"')
    use_kernel = kernel.AVAILABLE if compiled is None else compiled
    s = _start_state(target, rules)
    limit = Limit(budget, time_limit)
    try:
        line = _search(s, limit, shortest, use_kernel)
    except Budget:
        return Solution(Verdict.UNKNOWN, nodes=limit.nodes, seconds=limit.seconds())
    seconds = limit.seconds()
    if line is None:
        return Solution(Verdict.LOSS, nodes=limit.nodes, seconds=seconds, shortest=shortest)
    moves = tuple(MOVES[i] for i in line)
    texts = _replay(s, moves, check)
    return Solution(Verdict.WIN, moves, texts, limit.nodes, seconds, shortest)


def winning_line(s: st.State, *, budget: int | None = None) -> list[int] | None:
    """A winning line from position ``s`` as move ids (``[]``: won), or ``None``.

    ``None`` is a loss, or a ``budget`` (positions) that ran out. :func:`solve`'s verdict
    search without what a search agent that calls it thousands of times a decision has no use
    for: the line's text, its replay, the :class:`Solution`. The compiled search when numba is
    installed.
    """
    try:
        return _search(s, Limit(budget, None), False, kernel.AVAILABLE)
    except Budget:
        return None


def _search(s: st.State, limit: Limit, shortest: bool, use_kernel: bool) -> list[int] | None:
    """The line (move ids) of the search :func:`solve` runs, or ``None`` if lost."""
    info = DealTables(s)
    status = st.status(s)
    if status is st.Status.WON:
        return []
    if status is st.Status.LOST:
        return None
    if shortest and use_kernel:
        return astar_compiled(s.copy(), info, limit)
    if shortest:
        return astar(s.copy(), info, limit)
    if free_stock_rules(s.rules):
        counts = info.stock_counts(s.left)
        free = FreeStock(s, info, limit)
        abstract = None if info.cannot_clear(s.pyr, counts) else free.solve(s.pyr, counts)
        return None if abstract is None else concrete(s, abstract)
    if use_kernel:
        return dfs_compiled(s, info, limit)
    return dfs(s.copy(), info, limit)


def _replay(s: st.State, moves: tuple[Move, ...], check: bool) -> tuple[str, ...]:
    """Play the line through the engine (checked); return its text form."""
    s = s.copy()
    texts = []
    for m in moves:
        texts.append(format_move(s, m))
        if check:
            st.apply_checked(s, m)
        else:
            st.apply(s, m)
    if check and not st.is_won(s):
        raise AssertionError("solver line does not win when replayed: " + " ".join(texts))
    return tuple(texts)


def is_winnable(game: Game | st.State, *, budget: int | None = None) -> bool | None:
    """Can the position still be won (knowing the stock)? ``None`` if the budget ran out."""
    sol = solve(game, budget=budget)
    return None if sol.status is Verdict.UNKNOWN else sol.status is Verdict.WIN


def best_move(
    game: Game | st.State, *, budget: int | None = 200_000, shortest: bool = True
) -> Move | None:
    """A move that keeps the position winnable, from a shortest line when the budget allows.

    Falls back to the first move of any winning line if the shortest search runs out of budget.
    Returns ``None`` when the position cannot be won (or nothing is left to do).
    """
    if shortest:
        sol = solve(game, shortest=True, budget=budget)
        if sol.status is not Verdict.UNKNOWN:
            return sol.moves[0] if sol.moves else None
    sol = solve(game)
    return sol.moves[0] if sol.moves else None


__all__ = [
    "DealTables",
    "FreeStock",
    "Solution",
    "Verdict",
    "best_move",
    "free_stock_moves",
    "free_stock_oracle",
    "free_stock_rules",
    "is_winnable",
    "solve",
    "winning_line",
]
