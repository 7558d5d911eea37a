"""The solver as an agent: the clairvoyant upper bound.

It sees the whole stock order (it reads ``turn.state`` in full, whatever the env's
``observe_stock``), so it wins every deal that can be won at all: the ceiling against which the
benchmark normalises the other agents. On a deal the solver calls lost it plays on as the greedy
agent, so its pyramid-cards-left figure stays meaningful.
"""

from __future__ import annotations

import numpy as np

from pyramid_env.agents.base import Turn
from pyramid_env.agents.baselines import GreedyAgent
from pyramid_env.engine.deal import Deal
from pyramid_env.engine.moves import MOVES
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

    def __init__(self, shortest: bool = False, time_limit: float | None = None) -> None:
        """See the class docstring."""
        self.shortest, self.time_limit = shortest, time_limit
        self.fallback = GreedyAgent()
        self.unknown = 0
        self._plan: list[int] = []
        self._expect: int | None = None  # the position key the next planned move is for
        self._gave_up: Deal | None = None  # the deal judged lost (or unknown): play greedy

    def act(self, turn: Turn, rng: np.random.Generator) -> int:
        """The next move of the winning line; greedy if the deal cannot be won."""
        s = turn.state
        if self._gave_up is not None and self._gave_up is s.deal:
            return self.fallback.act(turn, rng)
        if not self._plan or self._expect != s.key():
            sol = solve(s, shortest=self.shortest, time_limit=self.time_limit, check=False)
            if sol.status is not Verdict.WIN or not sol.moves:
                self.unknown += sol.status is Verdict.UNKNOWN
                self._gave_up, self._plan = s.deal, []
                return self.fallback.act(turn, rng)
            self._plan = [m.id for m in reversed(sol.moves)]
        action = self._plan.pop()
        nxt = s.child(MOVES[action])
        self._expect = nxt.key()
        return action


__all__ = ["SolverAgent"]
