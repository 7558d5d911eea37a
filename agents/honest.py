"""Honest search agents: they read only what a player knows, then search with the solver.

A player knows the pyramid, the cards turned face up so far (``turn.known``) and so the *set*
of cards still unseen, never their order. ``scout`` draws through the first pass removing only
Kings, then plays the solver's line on the now known position; ``pimc`` deals the unseen cards
into the unseen places in random orders and plays the move that keeps the most of those deals
winnable (the agents page tells both). While a card is hidden they read the deal only through
:func:`unseen`, :func:`determinize` and :func:`orders` (in :mod:`~pyramid_env.agents.base`,
imported here), so they play alike on the real deal and on the worlds evaluation shows them.
"""

from __future__ import annotations

import math

import numpy as np

from pyramid_env.agents.base import (
    SearchResult,
    Turn,
    all_seen,
    carry,
    delayed,
    determinize,
    orders,
    unseen,
    waits,
)
from pyramid_env.agents.baselines import CarefulAgent, GreedyAgent
from pyramid_env.engine.layout import SLOTS
from pyramid_env.engine.moves import MOVES, MoveKind
from pyramid_env.engine.rules import Rules
from pyramid_env.engine.state import STOCK_SIZE, State, apply, face_up, is_won, legal_ids
from pyramid_env.solver import winning_line

ORDERS: dict[str, type[GreedyAgent]] = {"greedy": GreedyAgent, "greedy-careful": CarefulAgent}
"""The heuristics whose order of the moves ``pimc``'s search can follow."""


def _king(action: int) -> bool:
    return MOVES[action].kind is MoveKind.KING


def _winnable_samples(worlds: list[State], budget: int | None) -> list[list[int] | None]:
    """The solver's line for each of ``worlds``: ``None`` where lost (or out of budget).

    The profiler (``experiments/bench_search.py``) names a sampled order's verdict by this
    function's name, so the solver is called from here and not from a comprehension.
    """
    lines: list[list[int] | None] = []
    for world in worlds:
        lines.append(winning_line(world, budget=budget))
    return lines


MORE = 8
"""With ``live``, at most this many times ``samples`` orders are drawn for a decision."""


def search(
    s: State,
    known: int,
    candidates: list[int],
    samples: int,
    budget: int | None,
    rng: np.random.Generator,
    ties: bool = False,
    exact: bool = False,
    screen: int | None = None,
    live: int = 0,
    slack: bool = False,
    handicap: dict[int, int] | None = None,
) -> SearchResult:
    """Determinized search over ``candidates`` (in order of preference) from position ``s``.

    ``pimc``'s search; only the visible part of ``s`` (stock places ``known``) and the unseen
    cards' set are read, ``samples`` orders of those drawn from ``rng``. Verdicts have ``budget``
    positions (``screen`` before the move; running out counts as lost). ``ties``: count every
    candidate until it falls behind. ``exact``: few unseen cards in every order (:func:`orders`).
    ``live``: where 0 < winnable < ``live``, draw ``samples`` more, up to ``MORE`` x ``samples``.
    ``slack``: ties go to the move most often won with a pass fewer (:func:`_slack`).
    ``handicap``: samples a move must win beyond the others' to be chosen (``margin``).
    """
    if exact and (every := math.factorial(len(unseen(s, known)[1]))) <= samples:
        samples, live = every, 0  # each order is dealt once: no more to draw
    screen = budget if screen is None else screen
    worlds = orders(s, known, samples, rng, exact)
    lines = _winnable_samples(worlds, screen)
    while 0 < _count(lines) < live and len(worlds) < MORE * samples:
        more = orders(s, known, samples, rng)
        worlds += more
        lines += _winnable_samples(more, screen)
    return _score(worlds, lines, candidates, budget, ties, slack=slack, handicap=handicap)[0]


def _count(lines: list[list[int] | None]) -> int:
    return sum(line is not None for line in lines)


def _score(
    worlds: list[State],
    lines: list[list[int] | None],
    candidates: list[int],
    budget: int | None,
    ties: bool = False,
    solves: int | None = None,
    slack: bool = False,
    handicap: dict[int, int] | None = None,
) -> tuple[SearchResult, list[list[int] | None]]:
    """:func:`search`'s count over ``worlds`` whose lines (``None``: lost) are given.

    Also returns, per world, a winning line after the move chosen (``None``: lost after it),
    which a search that keeps its worlds to the next decision need not ask again (not with
    ``slack``, whose choice among ties comes after). ``solves``: the verdicts the lines took
    (default: one a world).
    """
    samples, cut = len(worlds), handicap or {}
    solves = samples if solves is None else solves
    wins: dict[int, int] = {}
    complete: list[int] = []
    live = [k for k, line in enumerate(lines) if line is not None]
    after: list[list[int] | None] = [None] * samples
    if not live:
        return SearchResult(candidates[0], wins, complete, 0, samples, solves), after
    best, best_wins, n = candidates[0], -1, len(live)
    ties = ties or slack  # the tied moves are all counted, to be told apart by their slack
    for action in candidates:
        count, done = -cut.get(action, 0), True  # counted from minus its handicap
        follow: list[tuple[int, list[int]]] = []
        for k, index in enumerate(live):
            line = lines[index]
            assert line is not None
            if line and line[0] == action:
                count += 1
                follow.append((index, line[1:]))
                continue
            child = worlds[index].copy()
            apply(child, MOVES[action])
            solves += 1
            rest = winning_line(child, budget=budget)
            if rest is not None:
                count += 1
                follow.append((index, rest))
            elif count + n - k - 1 < best_wins or (not ties and count + n - k - 1 == best_wins):
                done = False
                break  # cannot reach (or, without ties, beat) the best any more
        wins[action] = count + cut.get(action, 0)
        if done:
            complete.append(action)
        if count > best_wins:
            best, best_wins = action, count
            after = [None] * samples
            for index, rest in follow:
                after[index] = rest
        if best_wins == n and not ties:
            break  # keeps every winnable sample: no move does better
    top = [a for a in complete if wins[a] - cut.get(a, 0) == best_wins] if slack else []
    if len(top) > 1 and worlds[live[0]].recycles_left:  # else no pass to spare
        margins = [_slack(worlds, live, a, budget) for a in top]
        won = [m for m, _ in margins]
        best = top[won.index(max(won))]
        solves += sum(asked for _, asked in margins)
    return SearchResult(best, wins, complete, n, samples, solves), after


def _slack(
    worlds: list[State], live: list[int], action: int, budget: int | None
) -> tuple[int, int]:
    """How many of the ``live`` worlds are still won after ``action`` with one recycle fewer.

    A margin between moves that keep as many samples winnable: the one that needs fewer passes
    leaves room for the mistakes a player makes while cards are unseen. Where the move spends
    the last recycle there is none to spare (0). Also returns the verdicts asked.
    """
    count = asked = 0
    for index in live:
        child = worlds[index].copy()
        apply(child, MOVES[action])
        if child.recycles_left:
            child.recycles += 1
            count += winning_line(child, budget=budget) is not None
            asked += 1
    return count, asked


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
            line = winning_line(s, budget=self.budget)
            if not line:
                self._plan = []
                return None
            self._plan = line[::-1]
        action = self._plan.pop()
        nxt = s.child(MOVES[action])
        self._expect = (nxt.deal.cards, nxt.fields())
        return action

    def fell_back(self, s: State, action: int) -> int:
        """Note that ``action`` was played from lost position ``s``; returns ``action``."""
        nxt = s.child(MOVES[action])
        self._lost = (nxt.deal.cards, nxt.fields())
        return action

    def play(self, turn: Turn, rng: np.random.Generator, fallback: GreedyAgent) -> int:
        """The line's next move; on a lost position ``fallback``'s, noted (:meth:`fell_back`)."""
        action = self.next(turn.state)
        if action is not None:
            return action
        return self.fell_back(turn.state, fallback.act(turn, rng))


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
        if all_seen(turn.state, turn.known):
            return self.line.play(turn, rng, self.greedy)
        return scouting_move(turn, self.greedy, rng)


def scouting_move(turn: Turn, fallback: GreedyAgent, rng: np.random.Generator) -> int:
    """Scout's move while a card is unseen: a King, else draw or recycle, else ``fallback``'s."""
    kings = [a for a in turn.removals if _king(a)]
    if kings:
        return kings[0]
    # Drawing on through the pass; past its end the stock is seen (known covers it).
    return turn.turns[0] if turn.turns else fallback.act(turn, rng)


class PimcAgent:
    """Determinized search over the unseen stock order, judged by the solver's verdicts.

    With ``consistent=True`` the move after the one scored must be the same in every sample a
    player cannot tell apart (grouped by the cards the move turns face up), which removes the
    "strategy fusion" of one decision for several times the verdicts (the results page).

    Where passes are unlimited (``free_scout``) it plays :class:`ScoutAgent`'s strategy: a
    player learns the whole stock for free there, so no sampling is needed (and none wins more).

    Args:
        samples: orders of the unseen cards drawn per decision.
        budget: positions per solver verdict; a verdict that runs out counts as a loss.
        consistent: one more decision chosen alike across indistinguishable samples.
        name: the name in tables.
        free_scout: under unlimited passes, scout's strategy instead of the search.
        order: the heuristic whose order of the moves the search tries (and breaks ties by):
            ``"greedy"`` or ``"greedy-careful"``.
        exact: where the unseen cards have no more than ``samples`` orders, search each once.
        extra: a decision where no move keeps every winnable sample is searched again with
            this many fresh samples (0: never), the first search's move tried first.
        keep: keep the sampled worlds and their lines from one decision to the next
            (:func:`carry` deals a revealed card into place): fewer verdicts asked.
        delay: try the draw before removals of pyramid cards alone (:func:`delayed`), so a
            tie goes to the draw and such a removal waits until a card more is seen.
        screen: positions per verdict on a sample before the move (``None``: ``budget``); a
            sample that runs out is left out of the count, like a lost one.
        live: where some but fewer than this many samples are winnable, draw ``samples`` more
            at a time until this many are (at most ``MORE`` times ``samples``).
        slack: break ties at the best count by the samples still won with a pass fewer.
        margin: with ``delay``, samples a pyramid pair must win beyond the draw's to be played.
    """

    name = "pimc"

    @staticmethod
    def supports(rules: Rules) -> bool:
        """Every rule set."""
        return True

    def __init__(
        self,
        samples: int = 32,
        budget: int = 30_000,
        consistent: bool = False,
        name: str = "pimc",
        free_scout: bool = True,
        order: str = "greedy",
        exact: bool = False,
        extra: int = 0,
        keep: bool = False,
        delay: bool = False,
        screen: int | None = None,
        live: int = 0,
        slack: bool = False,
        margin: int = 0,
    ) -> None:
        """See the class docstring."""
        if order not in ORDERS:
            raise ValueError(f"unknown order {order!r}: one of {', '.join(ORDERS)}")
        if keep and consistent:
            raise ValueError("keep is for the plain search, not consistent=True")
        if live and (keep or consistent):
            raise ValueError(f"live={live} is for the plain search, not keep or consistent")
        if slack and (keep or consistent):
            raise ValueError("slack=True is for the plain search, not keep or consistent")
        if screen is not None and screen < 1:
            raise ValueError(f"screen={screen}: positions per verdict, at least 1 (or None)")
        if margin < 0 or (margin and (keep or consistent or not delay)):
            raise ValueError(f"margin={margin}: 0 or more, with delay=True and the plain search")
        if live < 0:
            raise ValueError(f"live={live}: winnable samples wanted, 0 (off) or more")
        self.samples, self.budget, self.name = samples, budget, name
        self.consistent, self.free_scout = consistent, free_scout
        self.order, self.exact, self.extra, self.keep = order, exact, extra, keep
        self.delay, self.screen, self.live, self.slack = delay, screen, live, slack
        self.margin = margin
        self.greedy = ORDERS[order]()
        self.line = _Line(None)
        # keep: (pyramid, the cards unseen then, the worlds' stocks); lines by (deal, fields).
        self._worlds: tuple[tuple[int, ...], frozenset[int], list[list[int]]] | None = None
        self._lines: dict[tuple, list[int] | None] = {}

    def act(self, turn: Turn, rng: np.random.Generator) -> int:
        """The move that keeps the most sampled deals winnable (greedy's order breaks ties)."""
        s = turn.state
        if all_seen(s, turn.known):
            return self.line.play(turn, rng, self.greedy)
        if self.free_scout and s.rules.passes is None:
            return scouting_move(turn, self.greedy, rng)
        prefs = self.greedy.preferences(turn)
        if len(prefs) == 1 or _king(prefs[0]):  # nothing to choose, or a King: never wrong
            return prefs[0]
        if self.delay:
            prefs = delayed(prefs)
        if self.consistent:
            worlds = orders(s, turn.known, self.samples, rng)
            lines = _winnable_samples(worlds, self._screen)
            worlds = [w for w, line in zip(worlds, lines, strict=True) if line is not None]
            if not worlds:  # lost in every sample: nothing to gain by searching
                return prefs[0]
            return self._consistent_choice(prefs, worlds, turn.known)
        opts = {"exact": self.exact, "screen": self.screen, "live": self.live, "slack": self.slack}
        if self.margin and any(MOVES[a].kind in (MoveKind.DRAW, MoveKind.RECYCLE) for a in prefs):
            opts["handicap"] = {a: self.margin for a in prefs if waits(a)}  # against the draw
        if self.keep:
            found = self._kept_search(s, turn.known, prefs, rng)
        else:
            found = search(s, turn.known, prefs, self.samples, self.budget, rng, **opts)
        if not self.extra or not found.winnable or found.wins[found.action] == found.winnable:
            return found.action
        # A hard decision: no move kept every winnable sample. Ask more orders.
        again = [found.action, *(a for a in prefs if a != found.action)]
        action = search(s, turn.known, again, self.extra, self.budget, rng, **opts).action
        if action != found.action:
            self._lines = {}  # the kept lines follow the first search's move
        return action

    @property
    def _screen(self) -> int | None:
        """Positions per verdict on a sample before the move."""
        return self.budget if self.screen is None else self.screen

    def _kept_search(
        self, s: State, known: int, prefs: list[int], rng: np.random.Generator
    ) -> SearchResult:
        """:func:`search` over the worlds kept from the last decision, topped up with new ones.

        A world's verdict is asked again only where its line is not known for this position
        (a card it had wrong was revealed, or another move than the one scored was played).
        """
        places, cards = unseen(s, known)
        pyramid = s.deal.cards[:SLOTS]
        kept = self._worlds
        if self.exact and math.factorial(len(cards)) <= self.samples:
            worlds = orders(s, known, self.samples, rng, exact=True)
        else:
            stocks = []
            if kept is not None and kept[0] == pyramid and kept[1].issuperset(cards):
                stocks = [carry(stock, s, places, cards) for stock in kept[2]]
            worlds = [s.restocked(stock) for stock in stocks[: self.samples]]
            worlds += [
                determinize(s, places, cards, rng) for _ in range(self.samples - len(worlds))
            ]
        keys = [(w.deal.cards, w.fields()) for w in worlds]
        todo = [w for w, key in zip(worlds, keys, strict=True) if key not in self._lines]
        solved = iter(_winnable_samples(todo, self._screen))
        lines = [self._lines[key] if key in self._lines else next(solved) for key in keys]
        found, after = _score(worlds, lines, prefs, self.budget, solves=len(todo))
        self._worlds = (pyramid, frozenset(cards), [list(w.deal.stock) for w in worlds])
        self._lines = {}
        for world, rest in zip(worlds, after, strict=True):
            child = world.child(MOVES[found.action])
            self._lines[(child.deal.cards, child.fields())] = rest
        return found

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
                seen = tuple(child.deal.cards[SLOTS + i] for i in range(STOCK_SIZE) if up >> i & 1)
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
        line = winning_line(world, budget=self.budget)
        if line is None:
            return None
        return line[0] if line else -1

    def _wins_after(self, world: State, action: int) -> bool:
        child = world.copy()
        apply(child, MOVES[action])
        return self._solve(child) is not None


__all__ = [
    "MORE",
    "PimcAgent",
    "ScoutAgent",
    "SearchResult",
    "all_seen",
    "delayed",
    "determinize",
    "orders",
    "scouting_move",
    "search",
    "unseen",
]
