"""The solver as an agent: the clairvoyant upper bound, and a teacher for imitation.

Both agents see the whole stock order (they read ``turn.state`` in full, whatever the env's
``observe_stock``), so they win every deal that can be won: the benchmark's ceiling. On a deal
that cannot be won they play on as the greedy agent, so their cards-left figures stay
meaningful. ``solver`` replays the solver's winning line; ``solver-greedy`` plays greedy's
favourite move among those that keep the deal winnable, which makes it a far easier teacher to
imitate than the solver's own lines, which wander through the stock.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pyramid_env.agents.base import Turn
from pyramid_env.agents.baselines import GreedyAgent
from pyramid_env.engine.deal import Deal
from pyramid_env.engine.moves import MOVES, WASTE, MoveKind
from pyramid_env.engine.state import State, is_won
from pyramid_env.solver import Verdict, solve


class SolverAgent:
    """Plays a winning line found by the exact solver; greedy on deals it cannot win.

    The line is found once per deal, at the first turn, and replayed; if the position ever
    differs from the one the line expects (a turn built by hand mid-game), it solves again
    from there.

    Args:
        shortest: play a shortest line (much slower; see the solver's README section).
        time_limit: seconds per solve; when it runs out the deal counts as unknown and the
            agent plays greedy (``unknown`` counts them).
    """

    name = "solver"
    clairvoyant = True  # reads the stock order from the engine state

    def __init__(self, shortest: bool = False, time_limit: float | None = None) -> None:
        """See the class docstring."""
        self.shortest, self.time_limit = shortest, time_limit
        self.fallback = GreedyAgent()
        self.unknown = 0
        self._plan: list[int] = []
        self._expect: int | None = None  # the position key the next planned move is for
        self._deal: Deal | None = None  # the deal the plan is for
        self._gave_up: Deal | None = None  # the deal judged lost (or unknown): play greedy

    def config(self) -> dict[str, Any]:
        """The settings play depends on (not the ``unknown`` counter)."""
        return {"shortest": self.shortest, "time_limit": self.time_limit}

    def act(self, turn: Turn, rng: np.random.Generator) -> int:
        """The next move of the winning line; greedy if the deal cannot be won."""
        s = turn.state
        if self._gave_up is not None and self._gave_up is s.deal:
            return self.fallback.act(turn, rng)
        if not self._plan or self._expect != s.key() or self._deal is not s.deal:
            sol = solve(s, shortest=self.shortest, time_limit=self.time_limit, check=False)
            if sol.status is not Verdict.WIN or not sol.moves:
                self.unknown += sol.status is Verdict.UNKNOWN
                self._gave_up, self._plan = s.deal, []
                return self.fallback.act(turn, rng)
            self._plan = [m.id for m in reversed(sol.moves)]
            self._deal = s.deal  # keys do not name the deal: a plan belongs to one
        action = self._plan.pop()
        nxt = s.child(MOVES[action])
        self._expect = nxt.key()
        return action


class SolverGreedyAgent:
    """The greedy agent's preferred move among those that keep the deal winnable.

    Args:
        time_limit: seconds per solver call; a candidate whose verdict runs out is skipped.
    """

    name = "solver-greedy"
    clairvoyant = True

    def __init__(self, time_limit: float | None = 5.0) -> None:
        """See the class docstring."""
        self.time_limit = time_limit
        self.greedy = GreedyAgent()
        self._lost: Deal | None = None
        self._winnable: int | None = None  # key of the last position known to be winnable
        self._deal: Deal | None = None  # ... and its deal (keys do not name the deal)

    def act(self, turn: Turn, rng: np.random.Generator) -> int:
        """The first of the greedy agent's preferences after which the deal is still winnable."""
        s = turn.state
        prefs = self.greedy.preferences(turn)
        if self._lost is s.deal:
            return prefs[0]
        if (self._winnable != s.key() or self._deal is not s.deal) and not self._wins(s):
            self._lost = s.deal  # one verdict, instead of one per candidate move
            return prefs[0]
        for action in prefs:
            move = MOVES[action]
            child = s.child(move)
            # A pyramid King never hurts, so it needs no verdict.
            if (move.kind is MoveKind.KING and move.a < WASTE) or self._wins(child):
                self._winnable, self._deal = child.key(), s.deal
                return action
        self._lost = s.deal  # (only if every verdict ran out of time)
        return prefs[0]

    def _wins(self, s: State) -> bool:
        if is_won(s):
            return True
        return solve(s, time_limit=self.time_limit, check=False).status is Verdict.WIN


__all__ = ["SolverAgent", "SolverGreedyAgent"]
