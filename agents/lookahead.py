"""Lookahead agents for free-stock rules: a short search over what every player can know.

Under ``relaxed`` and ``unlimited`` any live stock card can be brought to the waste top by
drawing and recycling, so for winning a position is just the pyramid and the count of live stock
cards per rank, both public. :class:`LookaheadAgent` searches ``depth`` moves of that abstract
game (a King, a pyramid pair, a pyramid card with a stock card of the partner rank), drops lines
the solver's exact pruning test calls hopeless, scores the rest by the removal bound
(``lookahead``) or a learned value network (``value-relaxed``), and plays its best line's first
move, drawing towards the stock card it wants. It never reads the stock order (a test checks).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pyramid_env.agents.base import Turn
from pyramid_env.agents.policy import MLPPolicy
from pyramid_env.engine.cards import RANK
from pyramid_env.engine.layout import COVER_MASK, SLOTS
from pyramid_env.engine.moves import KING_AT, PAIR_AT, WASTE
from pyramid_env.engine.rules import Rules
from pyramid_env.solver import DealTables, free_stock_moves, free_stock_rules

_LOST = -1e9
_WON = 1e9
FEATURES = SLOTS + SLOTS * 13 + SLOTS + 13 * 5
"""Length of :func:`features`: 485."""
_EYE = np.eye(13, dtype=np.float32)
_SLOT = np.arange(SLOTS, dtype=np.int64)
_COVER = np.array(COVER_MASK, dtype=np.int64)
_COUNTS = np.arange(5)


def features(pyr: int, prank: tuple[int, ...], counts: list[int]) -> np.ndarray:
    """The abstract position as 485 floats, the value network's input.

    Per slot: card present (28); its rank one-hot, zero when gone (28 x 13); exposed (28). Per
    rank: live stock cards, one-hot over 0..4 (13 x 5).
    """
    return features_batch([pyr], prank, [counts])[0]


def features_batch(pyrs: list[int], prank: tuple[int, ...], counts: list[list[int]]) -> np.ndarray:
    """:func:`features` of many positions of one deal at once, shape ``(len(pyrs), 485)``."""
    pyr = np.array(pyrs, np.int64)[:, None]
    present = ((pyr >> _SLOT) & 1).astype(np.float32)
    exposed = present * ((pyr & _COVER) == 0)
    ranks = present[:, :, None] * _EYE[np.array(prank) - 1]
    c = np.minimum(np.array(counts, np.int64)[:, 1:14], 4)
    stock = (c[:, :, None] == _COUNTS).astype(np.float32)
    n = len(pyrs)
    return np.concatenate([present, ranks.reshape(n, -1), exposed, stock.reshape(n, -1)], axis=1)


def after_counts(counts: list[int], q: int) -> list[int]:
    """Live stock cards per rank after a move that used a stock card of rank ``q`` (0: none)."""
    if not q:
        return counts
    c = list(counts)
    c[q] -= 1
    return c


class LookaheadAgent:
    """Depth-limited search over the free-stock abstraction (see the module docstring).

    Args:
        depth: abstract moves searched ahead (1 = pick the best next position).
        value: a value network (an :class:`MLPPolicy` with one output, a logit of "still
            winnable") for the leaves; ``None`` scores a leaf by minus its removal bound.
        name: the name shown in tables.

    Raises:
        ValueError: from :meth:`act`, under rules where the stock is not free.
    """

    env_kwargs: dict[str, Any] = {}

    def __init__(self, depth: int = 2, value: MLPPolicy | None = None, name: str = "") -> None:
        """See the class docstring."""
        if depth < 1:
            raise ValueError(f"depth must be at least 1, not {depth}")
        self.depth = depth
        self.value = value
        self.name = name or ("lookahead" if value is None else "value")
        self._tables: tuple[Any, DealTables] | None = None

    @staticmethod
    def supports(rules: Rules) -> bool:
        """Free-stock rules only: elsewhere the stock order matters and this search is wrong."""
        return free_stock_rules(rules)

    def act(self, turn: Turn, rng: np.random.Generator) -> int:
        """The first move of the best abstract line, made concrete (see the module docstring)."""
        s = turn.state
        if not free_stock_rules(s.rules):
            raise ValueError(
                f"{self.name} searches free-stock rules only (relaxed, unlimited), "
                f"not {s.rules.name}: there the stock order matters"
            )
        if self._tables is None or self._tables[0] is not s.deal:
            self._tables = (s.deal, DealTables(s))
        tables = self._tables[1]
        counts = tables.stock_counts(s.left)
        moves = free_stock_moves(s.pyr, tables.prank, counts, s.rules.covering_pair)
        if not moves:
            return turn.legal[0]  # nothing can be removed ever: draw on (or the game is over)
        scores = self._scores(tables, moves, counts, self.depth - 1, s.rules.covering_pair)
        pyr, q, i, j = moves[int(np.argmax(scores))]
        if not q:
            return (KING_AT[i] if j < 0 else PAIR_AT[i, j]).id
        top = s.card_at(WASTE)
        if top is not None and RANK[top] == q:
            return PAIR_AT[i, WASTE].id
        return turn.turns[0] if turn.turns else turn.legal[0]

    def _scores(
        self, tables: DealTables, moves: list, counts: list[int], depth: int, covering: bool
    ) -> list[float]:
        """Score of each move: the best leaf reachable within ``depth`` more moves.

        The tree is built first and its leaves valued in one batch (one network call a turn).
        """
        leaves: list[tuple[int, list[int]]] = []
        tree = self._tree(tables, moves, counts, depth, covering, leaves)
        values = self._leaf_values(tables, leaves) if leaves else []
        return [_best(node, values) for node in tree]

    def _tree(
        self,
        tables: DealTables,
        moves: list,
        counts: list[int],
        depth: int,
        covering: bool,
        leaves: list[tuple[int, list[int]]],
    ) -> list:
        """Per move: a score (won, lost), the index of a leaf, or the list of its children."""
        out: list = []
        for pyr, q, _, _ in moves:
            after = after_counts(counts, q)
            if pyr == 0:
                out.append(_WON)
            elif tables.cannot_clear(pyr, after):
                out.append(_LOST)
            elif depth == 0:
                out.append(len(leaves))
                leaves.append((pyr, after))
            else:
                nxt = free_stock_moves(pyr, tables.prank, after, covering)
                out.append(self._tree(tables, nxt, after, depth - 1, covering, leaves) or _LOST)
        return out

    def _leaf_values(self, tables: DealTables, leaves: list[tuple[int, list[int]]]) -> list:
        if self.value is None:
            return [-float(tables.bound(pyr)) for pyr, _ in leaves]
        pyrs, counts = zip(*leaves, strict=True)
        x = features_batch(list(pyrs), tables.prank, list(counts))
        # Rounded so that leaves which differ only in the last bits tie: a BLAS gives other last
        # bits on one thread and on two, or on other CPUs' kernels, and a near tie then went
        # either way. Ties go to the first line in move order, the same on every machine.
        return np.round(self.value.logits(x)[:, 0].astype(np.float64), 4).tolist()


def _best(node: float | int | list, values: list[float]) -> float:
    """A tree node's score: a fixed score, a leaf's value, or the best child's score."""
    if isinstance(node, float):
        return node
    if isinstance(node, int):
        return values[node]
    return max(_best(child, values) for child in node)
