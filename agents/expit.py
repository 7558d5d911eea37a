"""Expert iteration's search: honest determinized search guided by a Q-and-value network.

The search is :class:`~pyramid_env.agents.honest.PimcAgent`'s; a network reading what the
player sees (``obs_mode="counts"``) estimates each move's share of winnable samples (a Q head)
and the position's (a value head), and so decides which candidates to examine, whether to search
at all, and how many samples to spend. :func:`search` is the one search, making the training
targets (``experiments/train_expit.py``) and playing (:class:`ExpitSearchAgent`). While a card
is hidden the deal is read only through :func:`~pyramid_env.agents.honest.unseen` and
:func:`~pyramid_env.agents.honest.determinize`. The learned-agents page tells the method.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from pyramid_env.agents.base import Turn
from pyramid_env.agents.baselines import CarefulAgent, GreedyAgent
from pyramid_env.agents.honest import SearchResult, _king, _Line, all_seen, search
from pyramid_env.agents.policy import MLPPolicy
from pyramid_env.engine.errors import PyramidError
from pyramid_env.engine.rules import Rules

ORDERS: dict[str, type[GreedyAgent]] = {"greedy": GreedyAgent, "greedy-careful": CarefulAgent}
"""The heuristics whose order of the legal moves the search and the network start from."""


def order_agent(name: str) -> GreedyAgent:
    """The heuristic called ``name`` (:data:`ORDERS`), whose ``preferences`` order the moves.

    Its order decides which move the search tries first (and so its ties), and the network
    alone plays its favourite among the moves rated alike. A network trained on one order's
    search records it in its metadata (``order``; ``"greedy"`` if absent, the first networks').

    Raises:
        PyramidError: ``name`` is none of :data:`ORDERS`.
    """
    if name not in ORDERS:
        raise PyramidError(f"order {name!r} is not one of {', '.join(ORDERS)}")
    return ORDERS[name]()


def q_and_value(net: MLPPolicy, obs: np.ndarray) -> tuple[np.ndarray, float]:
    """The network's Q head (327 chances, one per move) and value head, from one pass.

    A move's Q estimates the share of the unseen cards' orders in which the solver can still
    win after it, as the search counts it; the value, that share before the move.
    """
    out = 1.0 / (1.0 + np.exp(-np.asarray(net.forward(obs), np.float64)))
    return out[:-1], float(out[-1])


def favourite(q: np.ndarray, legal: list[int], prefs: list[int], delta: float) -> int:
    """The first move in greedy's order ``prefs`` whose Q is within ``delta`` of the best.

    Greedy's order decides among moves the network rates alike, so the network overrules
    greedy only where it thinks greedy's move worse by ``delta``: "any move that keeps every
    order winnable" is often a draw, and a player that draws whenever that is safe runs out
    of passes; with ``delta`` 1 this is greedy itself.
    """
    best = max(q[a] for a in legal)
    return next(a for a in prefs if q[a] >= best - delta)


def candidates(prefs: list[int], legal: list[int], q: np.ndarray | None, top_k: int) -> list[int]:
    """Greedy's favourite and the ``top_k`` best moves by Q, in greedy's order ``prefs``.

    All of ``prefs`` with ``top_k`` 0 or no network. The network chooses which moves the
    search examines; greedy's fixed order breaks the search's ties.
    """
    if q is None or not top_k or top_k >= len(legal):
        return prefs
    keep = {prefs[0], *sorted(legal, key=lambda a: -q[a])[:top_k]}
    return [a for a in prefs if a in keep]


class ExpitSearchAgent:
    """Honest determinized search spent where a Q-and-value network says it matters.

    While cards are hidden it examines greedy's move and the network's ``top_k`` best (0: all)
    on ``samples`` orders of the unseen cards, and looks again with ``more`` where the decision
    is contested (another move beats greedy's, or the network rates one ``margin`` above it);
    below the value head's ``hopeless`` it plays greedy's move unsearched (proving every sample
    lost costs the most). ``budget``: positions per solver verdict. Once nothing is hidden, the
    solver's line. "Greedy" is the heuristic ``net`` (an :class:`MLPPolicy` with a value head,
    ``obs_mode="counts"``) was trained with: its metadata's ``order`` (:func:`order_agent`).
    """

    name = "expit-search"

    def __init__(
        self,
        net: MLPPolicy,
        samples: int = 4,
        more: int = 32,
        budget: int = 30_000,
        top_k: int = 3,
        margin: float = 0.1,
        hopeless: float = 0.0,
        name: str = "expit-search",
    ) -> None:
        """See the class docstring."""
        if not net.meta.get("value_head"):
            raise PyramidError("ExpitSearchAgent needs a network with a value head")
        self.net, self.name = net, name
        self.samples, self.more, self.budget, self.top_k = samples, more, budget, top_k
        self.margin, self.hopeless = margin, hopeless
        self.env_kwargs = {"obs_mode": net.meta.get("obs_mode", "counts")}
        self.greedy = order_agent(net.meta.get("order", "greedy"))
        self.line = _Line(None)

    @staticmethod
    def supports(rules: Rules) -> bool:
        """Every rule set (the network is trained for one; the benchmark runs it on that one)."""
        return True

    def act(self, turn: Turn, rng: np.random.Generator) -> int:
        """The searched move, or greedy's where the search is not worth its cost."""
        s = turn.state
        if all_seen(s, turn.known):  # nothing hidden: the solver's line (greedy's where lost)
            return self.line.play(turn, rng, self.greedy)
        if len(turn.legal) == 1:
            return turn.legal[0]
        kings = [a for a in turn.removals if _king(a)]
        if kings:  # a King goes alone: removing it never costs a pairing
            return kings[0]
        prefs = self.greedy.preferences(turn)
        q, value = q_and_value(self.net, turn.obs)
        if value < self.hopeless:
            return prefs[0]
        moves = candidates(prefs, turn.legal, q, self.top_k)
        suspect = max(q[a] for a in turn.legal) - q[prefs[0]] >= self.margin
        n = self.more if suspect else self.samples
        res = search(s, turn.known, moves, n, self.budget, rng)
        if n < self.more and res.action != prefs[0]:  # another move beat greedy's: look again
            res = search(s, turn.known, moves, self.more, self.budget, rng)
        return res.action


class ExpitPolicyAgent:
    """An expert-iteration network alone: no search, no solver; numpy only.

    Plays greedy's favourite among the legal moves the network's Q head rates within ``delta``
    of the best (:func:`favourite`; on ``obs_mode="counts"``); "greedy" is the heuristic the
    network was trained with (its metadata's ``order``, :func:`order_agent`). Honest: the
    network reads the observation, and the heuristic only what a player knows.

    Args:
        net: an :class:`MLPPolicy` written by ``experiments/train_expit.py``.
        delta: see :func:`favourite` (default: the one chosen on val, in ``net.meta``).
        name: the name in tables.
    """

    name = "expit"

    def __init__(self, net: MLPPolicy, delta: float | None = None, name: str = "expit") -> None:
        """See the class docstring."""
        self.net, self.name = net, name
        self.delta = net.meta.get("delta", 0.2) if delta is None else delta
        self.env_kwargs = {"obs_mode": net.meta.get("obs_mode", "counts")}
        self.greedy = order_agent(net.meta.get("order", "greedy"))

    def act(self, turn: Turn, rng: np.random.Generator) -> int:
        """The network's favourite legal move."""
        if len(turn.legal) == 1:
            return turn.legal[0]
        q, _ = q_and_value(self.net, turn.obs)
        return favourite(q, turn.legal, self.greedy.preferences(turn), self.delta)


_NETS: dict[str, MLPPolicy] = {}  # per worker process: a round's network, loaded once


def _load_net(path: str | None) -> MLPPolicy | None:
    if path is None:
        return None
    if path not in _NETS:
        _NETS[path] = MLPPolicy.load(path)
    return _NETS[path]


def record_games(
    deals: list[int],
    rules: Rules,
    net: str | None,
    samples: int,
    budget: int,
    seed: int,
    round_: int = 0,
    top_k: int = 0,
    learner: float = 0.0,
    max_steps: int = 1000,
    order: str = "greedy",
) -> list[dict[str, Any]]:
    """Expert iteration's self-play: the guided search plays ``deals``, every decision kept.

    At each decision with a choice the search examines the ``order`` heuristic's move and the
    network's (``net``, ``None`` in round 0) ``top_k`` best (0: all) on ``samples`` orders, and
    plays its choice, or with chance ``learner`` the network's favourite (DAgger: the network
    learns where its own play leads). Seeded from ``(seed, round_, deal)``, so the games do not
    depend on chunking.

    Returns:
        Per deal: ``actions``; ``q`` (per step, ``[move, share]`` for each move examined, the
        share of samples winnable after it: the Q head's target); ``values`` (per step, the
        share before: the value head's target; ``None`` where nothing was searched); ``won``,
        ``searched`` decisions, ``solves`` and ``cpu`` seconds.
    """
    from pyramid_env.engine.state import is_won
    from pyramid_env.env import PyramidEnv

    policy = _load_net(net)
    greedy = order_agent(order)
    env = PyramidEnv(rules, obs_mode="counts", max_steps=max_steps)
    out = []
    for n in deals:
        start = time.process_time()
        rng = np.random.default_rng([seed, round_, n])
        obs, _ = env.reset(options={"deal": n})
        actions: list[int] = []
        qs: list[list[list[float]]] = []
        values: list[float | None] = []
        searched = solves = 0
        done = False
        while not done and (legal := env.legal_actions()):
            s, known = env.state, env.known_stock()
            turn = Turn(s, legal, known, obs)
            kings = [a for a in turn.removals if _king(a)]
            if len(legal) == 1 or kings:
                action = kings[0] if kings else legal[0]
                q, value = [], None
            else:
                prefs = greedy.preferences(turn)
                q_net = None if policy is None else q_and_value(policy, obs)[0]
                moves = candidates(prefs, legal, q_net, top_k)
                # Nothing hidden: one "sample", the position itself.
                hidden = not all_seen(s, known)
                res = search(s, known, moves, samples if hidden else 1, budget, rng, ties=True)
                action = res.action
                # Lost in every sample: lost after every move too.
                counts = res.wins if res.winnable else dict.fromkeys(moves, 0)
                q = [[a, w / res.samples] for a, w in counts.items()]
                value = res.winnable / res.samples
                if q_net is not None and learner and rng.random() < learner:
                    action = favourite(q_net, legal, prefs, policy.meta.get("delta", 0.2))
                searched, solves = searched + hidden, solves + res.solves
            actions.append(action)
            qs.append(q)
            values.append(value)
            obs, _, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
        out.append(
            {
                "actions": actions,
                "q": qs,
                "values": values,
                "won": bool(is_won(env.state)),
                "searched": searched,
                "solves": solves,
                "cpu": time.process_time() - start,
            }
        )
    return out


__all__ = [
    "ORDERS",
    "ExpitPolicyAgent",
    "ExpitSearchAgent",
    "SearchResult",
    "candidates",
    "favourite",
    "order_agent",
    "q_and_value",
    "record_games",
    "search",
]
