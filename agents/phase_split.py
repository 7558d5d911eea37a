"""An honest agent in two phases: one agent while stock cards are hidden, another once all is seen.

Under limited passes, once every live stock card has been seen nothing is hidden and the rest
is a deterministic puzzle. ``experiments.phase_split`` measures such splits; behaviour cloning
(``experiments.train_bc`` with ``demos.phase = "known"``) measures a learner on the known phase
after greedy's first pass.
"""

from __future__ import annotations

import numpy as np

from pyramid_env.agents.base import Agent, Turn
from pyramid_env.agents.baselines import GreedyAgent
from pyramid_env.agents.honest import _Line, all_seen
from pyramid_env.engine.rules import Rules


class PhaseSplit:
    """One agent while cards are hidden, another (or the solver's line) once all is seen.

    Honest when both agents are: the solver reads the deal only once every live stock card is
    in ``turn.known``, as :class:`~pyramid_env.agents.ScoutAgent` does.

    Args:
        hidden: the agent for the first phase (``GreedyAgent``, ``PimcAgent``, a network).
        known: ``"solver"`` (its line), or the agent for the second phase; the env gives the
            observation form the two agents ask for (``env_kwargs``).
        name: the name in tables.
    """

    def __init__(self, hidden: Agent, known: str | Agent, name: str) -> None:
        """See the class docstring.

        Raises:
            ValueError: the two agents ask for different env settings (one env serves both).
        """
        self.hidden, self.known, self.name = hidden, known, name
        self.greedy = GreedyAgent()
        self.line = _Line(None)
        forms = [getattr(a, "env_kwargs", {}) for a in (hidden, known)]
        clash = {k for k in forms[0].keys() & forms[1].keys() if forms[0][k] != forms[1][k]}
        if clash:  # one env serves both phases
            raise ValueError(f"{name}: the two agents ask for different env settings {clash}")
        self.env_kwargs = forms[0] | forms[1]

    @staticmethod
    def supports(rules: Rules) -> bool:
        """Every rule set."""
        return True

    def act(self, turn: Turn, rng: np.random.Generator) -> int:
        """The first-phase agent's move while cards are hidden, then the second's."""
        if not all_seen(turn.state, turn.known):
            return self.hidden.act(turn, rng)
        if self.known != "solver":
            return self.known.act(turn, rng)
        return self.line.play(turn, rng, self.greedy)
