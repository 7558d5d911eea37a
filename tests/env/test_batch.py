"""The batched rules (pyramid_env.env.batch) against the engine, move for move."""

import numpy as np
import pytest

from pyramid_env.engine import PRESETS, deal, get_rules
from pyramid_env.engine import state as st
from pyramid_env.engine.cards import RANK
from pyramid_env.engine.moves import MOVES
from pyramid_env.env import batch as B
from pyramid_env.env.batch import Batch, bitlen
from pyramid_env.testing import rule_variants

VARIANTS = rule_variants()


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.name)
def test_masks_moves_and_dead_test_equal_the_engine(rules):
    cross_check(rules)


@pytest.mark.parametrize("preset", ["two-card", "msc"])
def test_flags_not_modes(preset):
    # A second playable stock card that may not pair with the waste top: no preset has it,
    # but both statements read the flags, not the mode, so they agree on it too.
    cross_check(get_rules(preset), stock_pairs=0)


def cross_check(rules, **changes):
    """Random playouts: the batch's masks, tests and moves equal the engine's, row by row."""
    knobs = rules.knobs._replace(**changes)
    n = 16
    rng = np.random.default_rng(0)

    def opening(number):
        s = st.State(int(number), rules)
        s.knobs = knobs
        return s

    states = [opening(d) for d in rng.integers(1 << 40, size=n)]
    batch = Batch.empty(n, rules)
    batch.knobs = knobs
    for i, s in enumerate(states):
        batch.set_row(i, s)
    checked = 0
    for _ in range(150):
        mask, removal, no_help = batch.legal()
        for dead_ends in (False, True):  # the episode end, both ways
            over = B.is_over(mask, removal, no_help, dead_ends)
            assert over.tolist() == [st.is_over(s, st.legal_ids(s), dead_ends) for s in states]
        assert np.array_equal(batch.face_up(), [st.face_up(s) for s in states])
        acts = np.zeros(n, np.int64)
        for i, s in enumerate(states):
            ids = st.legal_ids(s)
            assert np.flatnonzero(mask[i]).tolist() == ids, (i, str(s))
            assert removal[i] == any(k > 1 for k in ids)
            if not st.is_won(s):
                assert no_help[i] == st.nothing_can_help(s), (i, str(s))
            if ids:
                acts[i] = ids[int(rng.integers(len(ids)))]
                st.apply(s, MOVES[acts[i]])
                checked += 1
            else:  # over: start another deal in this row
                states[i] = s = opening(rng.integers(1 << 40))
        rows = mask.any(axis=1)
        batch.apply(acts, rows)
        for i in np.flatnonzero(~rows):
            batch.set_row(i, states[i])
        for i, s in enumerate(states):
            assert batch.state(i, s.copy()).fields() == s.fields(), (i, MOVES[acts[i]])
    assert checked > 1000


def test_bitlen_is_exact():
    xs = np.array([0, 1, 2, 3, 4, 7, 8, (1 << 28) - 1, 1 << 28, (1 << 52) + 1], np.int64)
    assert bitlen(xs).tolist() == [int(x).bit_length() for x in xs]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_set_deal_is_the_opening_state(preset):
    rules = get_rules(preset)
    a, b = Batch.empty(3, rules), Batch.empty(3, rules)
    for i, n in enumerate((0, 7, 2**63 + 5)):
        s = st.State(n, rules)
        a.set_deal(i, s.deal)
        b.set_row(i, s)
        assert a.state(i, s.copy()).fields() == s.fields()
    for name in ("pyr", "left", "ptr", "drawn", "recycles", "prank", "srank", "stock_of"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    ranks = [RANK[c] for c in deal(7).stock]  # the stock positions of each rank, as bitmasks
    assert a.stock_of[1].tolist() == [
        sum(1 << k for k, r in enumerate(ranks) if r == q) for q in range(14)
    ]
