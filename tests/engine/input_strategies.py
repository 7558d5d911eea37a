"""Shared by the engine's input tests: Hypothesis settings, rule variants, junk and valid knob
values, positions reached by random play, and an opening board as text."""

import random

import numpy as np
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from pyramid_env.engine import (
    MOVES,
    Scoring,
    State,
    apply,
    deal,
    format_board,
    legal_ids,
)
from pyramid_env.engine.deal import MAX_DEAL
from pyramid_env.engine.invariants import rule_variants
from pyramid_env.engine.rules import Goal, StockPlay, UndoMoves

FAST = settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(FAST, max_examples=5000)  # the ``slow``-marked twins

VARIANTS = rule_variants()

JUNK = [
    None, True, False, 0, 1, 2, 3, -1, 1.0, 0.5, float("nan"), "", "1", "True", "False", "x",
    "waste-top", "all", "keep", [], {}, (), b"1", np.int64(2), np.int64(-2), np.uint8(1),
    np.bool_(True), np.float64(1.0), object(),
]  # fmt: skip
GOOD_KNOBS = {
    "name": ["mine", "msc", "msc passes=1", "relaxed", "x y"],
    "passes": [None, 1, 2, 3, 7, np.int64(2), np.int32(1)],
    "covering_pair": [True, False, np.bool_(False)],
    "stock_play": [*StockPlay, *(e.value for e in StockPlay)],
    "waste_start": [0, 1, np.int64(1)],
    "goal": [*Goal, *(e.value for e in Goal)],
    "draw_count": [1, 3, np.int8(3)],
    "dead_deal_ends_game": [True, False],
    "scoring": [Scoring(), {}, {"stock_card": 4}, {"win_bonus": 1.5, "clear_bonus": 9}],
    "undo_limit": [None, 0, 5, np.uint16(100)],
    "undo_moves": [*UndoMoves, *(e.value for e in UndoMoves)],
}


def opening_board(rules="relaxed", n=5):
    return format_board(State(n, rules))


@st.composite
def positions(draw):
    """A position reached by random play: a deal, a rule set, and up to 150 random moves."""
    rules = draw(st.sampled_from(VARIANTS))
    s = State(deal(draw(st.integers(0, MAX_DEAL))), rules)
    rng = random.Random(draw(st.integers(0, 2**32)))
    for _ in range(draw(st.integers(0, 150))):
        ids = legal_ids(s)
        if not ids:
            break
        apply(s, MOVES[rng.choice(ids)])
    return s


BAD_TOKENS = ["Zz", "??", "1", "Kdd", "X", "...", "face", "-", "K"]
