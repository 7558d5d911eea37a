"""The agent protocol: what an agent sees each turn, and what it must answer.

An agent maps a :class:`Turn` to an action id (the env's ``Discrete(327)`` ids). Policies read
``turn.obs``, rule-reading agents ``turn.state``. Honest by construction: evaluation shows an
agent not declared ``clairvoyant = True`` a :class:`PlayerView`, whose ``state`` has the stock
cards outside ``turn.known`` dealt at random, so it cannot read the hidden order; only the
clairvoyant ones (the solver, the ceiling) get the real deal. Its ``rng`` is seeded from
(agent seed, deal number): results do not depend on the order of the deals or the process.
"""

from __future__ import annotations

import hashlib
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from pyramid_env.engine import state as st
from pyramid_env.engine.layout import SLOTS
from pyramid_env.engine.moves import MOVES, NUM_MOVES, RECYCLE, MoveKind

WORLDS_STREAM = 0x574F524C  # appended to a view's key: its generator is not the agent's


@dataclass(frozen=True, slots=True)
class Turn:
    """One decision point.

    Attributes:
        state: the engine position (read it, never change it): for an agent that is not
            clairvoyant, evaluation's :class:`PlayerView` deals the unseen stock cards at random.
        legal: the legal action ids, sorted (never empty: evaluation stops at the episode's end).
        known: stock cycle positions the agent may know (bit ``i`` is deal card ``29 + i``).
        obs: the env observation in the agent's ``obs_mode``; ``None`` when built from the
            engine alone (:meth:`from_state`).
    """

    state: st.State
    legal: list[int]
    known: int
    obs: Any = None
    _mask: list[np.ndarray] = field(default_factory=list, repr=False, compare=False)

    @classmethod
    def from_state(cls, s: st.State, known: int | None = None) -> Turn:
        """A turn straight from an engine position (``known`` defaults to the whole stock)."""
        return cls(s, st.legal_ids(s), s.left if known is None else known)

    @property
    def mask(self) -> np.ndarray:
        """``legal`` as a bool array of length 327 (built on first use)."""
        if not self._mask:
            m = np.zeros(NUM_MOVES, bool)
            m[self.legal] = True
            self._mask.append(m)
        return self._mask[0]

    @property
    def removals(self) -> list[int]:
        """The legal removals (Kings and pairs): every legal id but draw and recycle."""
        return [a for a in self.legal if a > RECYCLE.id]

    @property
    def turns(self) -> list[int]:
        """Draw or recycle, whichever is legal (at most one of them is)."""
        return [a for a in self.legal if a <= RECYCLE.id]


def unseen(s: st.State, known: int) -> tuple[list[int], list[int]]:
    """The stock places a player cannot see, and the cards that lie in them (as a set).

    Places: live stock positions outside ``known``. Cards: the cards in those places, sorted
    (the deck less the pyramid and the stock cards seen or gone), so their order does not leak.
    """
    hidden = s.left & ~known
    places = [i for i in range(st.STOCK_SIZE) if hidden >> i & 1]
    cards = s.deal.cards
    return places, sorted([cards[SLOTS + i] for i in places])


def all_seen(s: st.State, known: int) -> bool:
    """Every live stock card has been seen (is in ``known``): nothing is hidden any more.

    From here on a player knows the rest of the deal, so reading it (the solver's line) is
    honest.
    """
    return known & s.left == s.left


def determinize(
    s: st.State, places: list[int], cards: list[int], rng: np.random.Generator
) -> st.State:
    """``s`` with ``cards`` dealt into the unseen ``places`` in a random order (same position)."""
    stock = list(s.deal.stock)
    for place, card in zip(places, rng.permutation(cards).tolist(), strict=True):
        stock[place] = card
    return s.restocked(stock)


def orders(
    s: st.State, known: int, samples: int, rng: np.random.Generator, exact: bool = False
) -> list[st.State]:
    """``samples`` worlds: ``s`` with its unseen cards dealt in random orders.

    With ``exact``, where the unseen cards have no more than ``samples`` orders, each order
    once instead (the exact share, no sampling noise; ``rng`` is not drawn from).
    """
    places, cards = unseen(s, known)
    if exact and math.factorial(len(cards)) <= samples:
        stock = list(s.deal.stock)
        worlds = []
        for order in itertools.permutations(cards):
            for place, card in zip(places, order, strict=True):
                stock[place] = card
            worlds.append(s.restocked(stock))
        return worlds
    return [determinize(s, places, cards, rng) for _ in range(samples)]


def carry(stock: list[int], s: st.State, places: list[int], cards: list[int]) -> list[int]:
    """A world kept from an earlier decision of this game, dealt again to agree with ``s``.

    ``stock``: a world from when the unseen cards were a superset of ``cards``. These go into
    the unseen ``places`` in the order ``stock`` had them: from a uniformly random earlier world
    this deals a uniformly random world now (a random order less the revealed cards is a random
    order), and a world that had the revealed cards right stays as it was. Of ``s`` only the
    visible part is read.
    """
    where = {card: i for i, card in enumerate(stock)}
    new = list(s.deal.stock)
    for place, card in zip(places, sorted(cards, key=where.__getitem__), strict=True):
        new[place] = card
    return new


def waits(action: int) -> bool:
    """Whether ``action`` removes two pyramid cards alone: a move that commutes with the draw."""
    move = MOVES[action]
    return move.kind is MoveKind.PAIR and move.b < SLOTS


def delayed(prefs: list[int]) -> list[int]:
    """``prefs`` with the draw (or recycle) moved ahead of the pairs of pyramid cards alone.

    Such a pair commutes with the draw: drawing first, then pairing, reaches the same position
    with one more card seen, so a player loses nothing by waiting (unless the pair frees a card
    for the top card the draw covers, which the search's count sees). Tried first, the draw
    wins the search's ties against them; every other move keeps its place against the draw.
    """
    turns = [a for a in prefs if MOVES[a].kind in (MoveKind.DRAW, MoveKind.RECYCLE)]
    if not turns:
        return prefs
    turn = prefs.index(turns[0])
    ahead = prefs[:turn]
    waiting = [a for a in ahead if waits(a)]
    others = [a for a in ahead if a not in waiting]
    return [*others, turns[0], *waiting, *prefs[turn + 1 :]]


@dataclass(slots=True)
class SearchResult:
    """What one decision's search found.

    Attributes:
        action: the move chosen (most samples kept winnable; the earlier candidate on ties).
        wins: per examined candidate, the samples still winnable after it; a candidate cut
            short because it could no longer reach the best count has the count so far.
        complete: candidates whose count is final (tried on every winnable sample, or won
            them all): :meth:`best` is the moves tied at the best count among these.
        winnable: sampled deals the solver could win before the move (0: lost in every one).
        samples: deals sampled.
        solves: solver calls made.
    """

    action: int
    wins: dict[int, int]
    complete: list[int]
    winnable: int
    samples: int
    solves: int

    def best(self) -> list[int]:
        """The moves tied at the best final count (empty when every sample was lost)."""
        if not self.winnable:
            return []
        top = max(self.wins[a] for a in self.complete)
        return [a for a in self.complete if self.wins[a] == top]


def is_clairvoyant(agent: Any) -> bool:
    """Whether ``agent`` is declared to read the stock order (``clairvoyant = True``)."""
    return bool(getattr(agent, "clairvoyant", False))


class PlayerView:
    """What one game shows an agent: the real position if it is clairvoyant, else a world.

    A world is the position with the stock cards outside ``known`` dealt into the places a
    player cannot see: one of the deals a player cannot tell apart, so an agent cannot read
    the hidden order, whatever it does. Each card gets a random rank once per view, from a
    generator seeded by ``key`` (not the agent's ``rng``); a world lays the unseen cards out
    in that order, so each world is uniformly random and depends only on the key and the
    position. With nothing hidden the real position is shown (a player then knows it all).

    Args:
        agent: the agent shown the game; ``clairvoyant = True`` gets the real position.
        key: seeds the worlds (evaluation gives ``(agent seed, deal number)``).
    """

    def __init__(self, agent: Any, key: Sequence[int]) -> None:
        """See the class docstring."""
        self.clairvoyant = is_clairvoyant(agent)
        self._key = [*key, WORLDS_STREAM]
        self._rank: list[float] | None = None
        self._last: tuple[Any, int, st.State] | None = None  # (real deal, hidden, world)
        self._dealt: list[str] | None = None

    def world(self, s: st.State, known: int) -> st.State:
        """The position this agent is shown: ``s`` itself, or ``s`` with its unseen cards dealt."""
        hidden = s.left & ~known
        if self.clairvoyant or not hidden:
            return s
        last = self._last
        if last is not None and last[0] is s.deal and last[1] == hidden:
            # The same cards hidden as last turn: the same world at this position (what
            # s.restocked would build, without its cost).
            new = s.copy()
            for name in self._dealt or ():
                setattr(new, name, getattr(last[2], name))
            return new
        if self._rank is None:  # drawn on the first hidden turn only
            self._rank = np.random.default_rng(self._key).random(52).tolist()
        stock = list(s.deal.stock)
        places = [i for i in range(st.STOCK_SIZE) if hidden >> i & 1]
        cards = [stock[i] for i in places]  # unseen (the order to come is the ranks')
        cards.sort(key=self._rank.__getitem__)
        for place, card in zip(places, cards, strict=True):
            stock[place] = card
        new = s.restocked(stock)
        if self._dealt is None:  # the slots restocked replaces: deal, stock ranks
            self._dealt = [n for n in type(s).__slots__ if getattr(new, n) is not getattr(s, n)]
        self._last = (s.deal, hidden, new)
        return new

    def turn(self, s: st.State, legal: list[int], known: int, obs: Any = None) -> Turn:
        """The :class:`Turn` to hand the agent at position ``s`` (``legal``: its legal ids)."""
        return Turn(self.world(s, known), legal, known, obs)


@runtime_checkable
class Agent(Protocol):
    """Anything with a ``name`` and ``act(turn, rng) -> action id`` is an agent.

    ``env_kwargs`` (optional attribute): env arguments the agent needs, such as the
    ``obs_mode`` a policy was trained on; evaluation builds the env with them.
    """

    name: str

    def act(self, turn: Turn, rng: np.random.Generator) -> int:
        """The action to play: one of ``turn.legal``."""
        ...


def agent_config(agent: Any) -> dict[str, Any]:
    """What an agent's play depends on, as far as it can be read: its settings, as JSON values.

    An agent's own ``config()`` if it has one (for an agent with counters or caches among its
    public attributes); else its public attributes: numbers, strings, paths and lists or dicts
    of them as they are, a network by a digest of its weights (``MLPPolicy.digest()``, a torch
    module's or an SB3 model's parameters), an agent inside it (a fallback, greedy's weights)
    by its own config, anything else by its class name. Evaluation keeps it with a run's
    stored results, so that resuming a store with an agent of the same name but other
    settings or weights is refused instead of mixing the two runs' games.
    """
    config = getattr(agent, "config", None)
    if callable(config):
        return dict(config())
    attrs = getattr(agent, "__dict__", {})
    return {k: _config_value(v) for k, v in sorted(attrs.items()) if not k.startswith("_")}


def _config_value(v: Any) -> Any:
    if v is None or isinstance(v, bool | int | float | str):
        return v
    if isinstance(v, Path):
        return str(v)
    if isinstance(v, list | tuple):
        return [_config_value(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _config_value(x) for k, x in v.items()}
    if isinstance(v, np.ndarray):
        return _sha(v.tobytes(), str(v.dtype), str(v.shape))
    if callable(getattr(v, "digest", None)):
        return v.digest()
    kind = f"{type(v).__module__}.{type(v).__qualname__}"
    if callable(getattr(v, "act", None)):
        return {"class": kind, **agent_config(v)}
    module = v if callable(getattr(v, "state_dict", None)) else getattr(v, "policy", None)
    if callable(getattr(module, "state_dict", None)):  # a torch module, or an SB3 model's policy
        tensors = module.state_dict().items()
        return _sha(*(k.encode() + t.detach().cpu().numpy().tobytes() for k, t in tensors))
    return f"<{kind}>"


def _sha(*parts: bytes | str) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part if isinstance(part, bytes) else part.encode())
    return h.hexdigest()[:16]


__all__ = [
    "Agent",
    "PlayerView",
    "SearchResult",
    "Turn",
    "agent_config",
    "all_seen",
    "carry",
    "determinize",
    "is_clairvoyant",
    "orders",
    "unseen",
]
