"""Honest search agents: they read only what a player knows, then search with the solver.

A player knows the pyramid, the cards turned face up so far (``turn.known``; cards removed from
the stock were face up when they went) and therefore the *set* of cards still unseen, never
their order. Two agents use that and the exact solver:

- ``scout`` draws through the first pass removing only Kings (a King goes alone, so removing it
  can never cost a pairing), until every stock card has been seen; from then on the position
  is fully known and it plays the solver's line. Under unlimited passes (``relaxed``,
  ``unlimited``) that wins exactly the deals the solver wins; under ``k`` passes it wins what
  the solver wins with ``k - 1`` passes from the position after the scouting pass.
- ``pimc`` (perfect-information Monte Carlo, "determinized" search): while some stock cards are
  unseen, at each decision it deals the unseen cards into the unseen places in ``samples``
  random orders (from the evaluation's seeded generator) and plays the move that keeps the
  most of those deals winnable by the solver's verdict; once everything is seen, the solver's
  line. Work it skips: samples lost whatever it plays; candidates once one is winnable in every
  sample that can be won (it tries them in the greedy agent's order, so it plays like greedy
  unless greedy's move loses something); moves a sample's own winning line starts with.

Honesty is by construction: while a card is hidden, the deal is read only by :func:`unseen`
(the pyramid, and stock places in ``turn.known`` or already removed) and by
:func:`determinize`, which keeps those and deals the rest at random; the solver's line is
followed only once nothing is hidden. ``turn.known`` must hold every stock card seen so far,
as ``PyramidEnv.known_stock()`` and evaluation give it (``Turn.from_state`` defaults to the
whole stock: the agents are then clairvoyant). Tests show the agents positions whose unseen
cards were shuffled and check they choose the same moves.
"""

from __future__ import annotations

import numpy as np

from pyramid_env.agents.base import Turn
from pyramid_env.agents.baselines import GreedyAgent
from pyramid_env.engine.deal import Deal
from pyramid_env.engine.layout import SLOTS
from pyramid_env.engine.moves import MOVES, MoveKind
from pyramid_env.engine.rules import Rules
from pyramid_env.engine.state import State, apply, face_up, is_won, legal_ids
from pyramid_env.solver import Verdict, solve

STOCK = 24


def unseen(s: State, known: int) -> tuple[list[int], list[int]]:
    """The stock places a player cannot see, and the cards that lie in them (as a set).

    Places: live stock positions outside ``known``. Cards: every card of the deck but the
    pyramid's and those of the stock places that are known or emptied (a removed stock card
    was face up when it went), sorted, so nothing about their order leaks.
    """
    places = [i for i in range(STOCK) if (s.left >> i) & 1 and not (known >> i) & 1]
    shown = set(s.deal.cards[:SLOTS])
    shown.update(
        s.deal.cards[SLOTS + i] for i in range(STOCK) if not (s.left >> i) & 1 or (known >> i) & 1
    )
    return places, sorted(set(range(52)) - shown)


def determinize(s: State, places: list[int], cards: list[int], rng: np.random.Generator) -> State:
    """``s`` with ``cards`` dealt into the unseen ``places`` in a random order (same position)."""
    order = list(s.deal.cards)
    for place, card in zip(places, rng.permutation(cards).tolist(), strict=True):
        order[SLOTS + place] = card
    t = State(Deal(tuple(order)), s.rules)
    t.pyr, t.left, t.ptr, t.drawn, t.recycles = s.fields()
    return t


def _king(action: int) -> bool:
    return MOVES[action].kind is MoveKind.KING


class _Line:
    """The solver's line from a fully known position, followed move by move.

    Used only once every live stock card is known, so reading the deal here is honest. It keeps
    the plan for the position the next planned move expects and solves again anywhere else (a
    new game, a position off the line). On a lost position it answers ``None``, and the agent's
    fallback move is told through :meth:`fell_back`: the position after it is lost too (no
    card is hidden any more), so it is not solved again; any other position is.
    """

    def __init__(self, budget: int | None) -> None:
        self.budget = budget
        self._plan: list[int] = []
        self._expect: tuple | None = None  # (cards, fields) the next planned move is for
        self._lost: tuple | None = None  # (cards, fields) known lost, after a fallback move

    def next(self, s: State) -> int | None:
        where = (s.deal.cards, s.fields())
        if where == self._lost:
            return None
        if not self._plan or self._expect != where:
            sol = solve(s, budget=self.budget, check=False)
            if sol.status is not Verdict.WIN or not sol.moves:
                self._plan = []
                return None
            self._plan = [m.id for m in reversed(sol.moves)]
        action = self._plan.pop()
        nxt = s.child(MOVES[action])
        self._expect = (nxt.deal.cards, nxt.fields())
        return action

    def fell_back(self, s: State, action: int) -> int:
        """Note that ``action`` was played from lost position ``s``; returns ``action``."""
        nxt = s.child(MOVES[action])
        self._lost = (nxt.deal.cards, nxt.fields())
        return action


class ScoutAgent:
    """Draw through the first pass removing only Kings, then play the solver's line.

    Honest: it reads the position only once every live stock card is in ``turn.known``.

    Args:
        budget: positions per solver call (``None``: no limit; the solver is fast on full
            information).
    """

    name = "scout"

    @staticmethod
    def supports(rules: Rules) -> bool:
        """Every rule set (under one pass it scouts the only pass: a weak player there)."""
        return True

    def __init__(self, budget: int | None = None) -> None:
        """See the class docstring."""
        self.greedy = GreedyAgent()
        self.line = _Line(budget)

    def act(self, turn: Turn, rng: np.random.Generator) -> int:
        """A King, a draw or recycle while scouting; the solver's line once all is seen."""
        s = turn.state
        if turn.known & s.left == s.left:  # every live stock card seen: nothing is hidden
            action = self.line.next(s)
            if action is not None:
                return action
            return self.line.fell_back(s, self.greedy.act(turn, rng))
        kings = [a for a in turn.removals if _king(a)]
        if kings:
            return kings[0]
        # Drawing on through the pass; past its end the stock is seen (known covers it).
        return turn.turns[0] if turn.turns else self.greedy.act(turn, rng)


class PimcAgent:
    """Determinized search over the unseen stock order, judged by the solver's verdicts.

    Plain determinized search scores a move by the samples the solver can still win after it,
    and the solver plays each sample's future knowing its whole order: it may answer different
    samples with different next moves although a player, seeing the same cards in both, could
    not tell them apart ("strategy fusion"). With ``consistent=True`` the move after the one
    scored must be the same in every sample the player cannot tell apart (the samples are
    grouped by the cards the move turns face up, if any); a move then scores, per group, the
    samples its best common follow-up keeps winnable. That removes the fusion of one decision
    for several times the verdicts.

    Args:
        samples: orders of the unseen cards drawn per decision.
        budget: positions per solver verdict; a verdict that runs out counts as a loss.
        consistent: one more decision chosen alike across indistinguishable samples.
        name: the name in tables.
    """

    name = "pimc"

    @staticmethod
    def supports(rules: Rules) -> bool:
        """Every rule set."""
        return True

    def __init__(
        self, samples: int = 32, budget: int = 30_000, consistent: bool = False, name: str = "pimc"
    ) -> None:
        """See the class docstring."""
        self.samples, self.budget, self.name = samples, budget, name
        self.consistent = consistent
        self.greedy = GreedyAgent()
        self.line = _Line(None)

    def act(self, turn: Turn, rng: np.random.Generator) -> int:
        """The move that keeps the most sampled deals winnable (greedy's order breaks ties)."""
        s = turn.state
        if turn.known & s.left == s.left:
            action = self.line.next(s)
            if action is not None:
                return action
            return self.line.fell_back(s, self.greedy.act(turn, rng))
        prefs = self.greedy.preferences(turn)
        if len(prefs) == 1 or _king(prefs[0]):  # nothing to choose, or a King: never wrong
            return prefs[0]
        places, cards = unseen(s, turn.known)
        worlds: list[State] = []
        first: list[int] = []  # the first move of each winnable sample's winning line
        for _ in range(self.samples):
            world = determinize(s, places, cards, rng)
            sol = self._solve(world)
            if sol is not None:
                worlds.append(world)
                first.append(sol)
        if not worlds:  # lost in every sample: nothing to gain by searching
            return prefs[0]
        if self.consistent:
            return self._consistent_choice(prefs, worlds, turn.known)
        best, best_wins = prefs[0], -1
        for action in prefs:
            wins = 0
            for k, (world, line_start) in enumerate(zip(worlds, first, strict=True)):
                if line_start == action or self._wins_after(world, action):
                    wins += 1
                elif wins + len(worlds) - k - 1 <= best_wins:
                    break  # cannot beat the best any more (a tie goes to the earlier move)
            if wins > best_wins:
                best, best_wins = action, wins
            if best_wins == len(worlds):
                break  # wins every sample that can be won: no move does better
        return best

    def _consistent_choice(self, prefs: list[int], worlds: list[State], known: int) -> int:
        """The move whose best follow-up, common to indistinguishable samples, wins most."""
        best, best_wins = prefs[0], -1
        for action in prefs:
            groups: dict[tuple[int, ...], list[State]] = {}
            for world in worlds:
                child = world.copy()
                apply(child, MOVES[action])
                if self._solve(child) is None:
                    continue  # lost after this move whatever comes next
                # What the player sees after the move: the cards at newly face-up places.
                up = face_up(child) & ~known
                seen = tuple(child.deal.cards[SLOTS + i] for i in range(STOCK) if up >> i & 1)
                groups.setdefault(seen, []).append(child)
            if sum(map(len, groups.values())) <= best_wins:
                continue  # cannot beat the best even if every follow-up wins
            wins = sum(self._best_follow_up(group) for group in groups.values())
            if wins > best_wins:
                best, best_wins = action, wins
            if best_wins == len(worlds):
                break
        return best

    def _best_follow_up(self, group: list[State]) -> int:
        """Most samples of ``group`` (same visible position) one common next move keeps winnable."""
        if is_won(group[0]):
            return len(group)
        best = 0
        for action in legal_ids(group[0]):
            wins = 0
            for k, child in enumerate(group):
                if self._wins_after(child, action):
                    wins += 1
                elif wins + len(group) - k - 1 <= best:
                    break
            best = max(best, wins)
            if best == len(group):
                break
        return best

    def _solve(self, world: State) -> int | None:
        """The first move of a winning line of ``world``, or ``None`` (lost or unknown)."""
        sol = solve(world, budget=self.budget, check=False)
        if sol.status is not Verdict.WIN:
            return None
        return sol.moves[0].id if sol.moves else -1

    def _wins_after(self, world: State, action: int) -> bool:
        child = world.copy()
        apply(child, MOVES[action])
        return self._solve(child) is not None


__all__ = ["PimcAgent", "ScoutAgent", "determinize", "unseen"]
