"""The batched rules (pyramid_env.env.batch) against the engine, move for move."""

import numpy as np
import pytest

from pyramid_env.engine import PRESETS, deal, get_rules
from pyramid_env.engine import state as st
from pyramid_env.engine.cards import RANK
from pyramid_env.engine.moves import MOVES
from pyramid_env.env.batch import Batch, bitlen

VARIANTS = [get_rules(p) for p in PRESETS] + [
    get_rules("relaxed", goal="all"),
    get_rules("relaxed", draw_count=3),
    get_rules("msc", goal="all", draw_count=3),
    get_rules("two-card", draw_count=3, passes=2),
    get_rules("relaxed", dead_deal_ends_game=False),
]


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: f"{r.name}-{r.draw_count}-{r.goal}")
def test_masks_moves_and_dead_test_equal_the_engine(rules):
    n = 16
    rng = np.random.default_rng(0)
    states = [st.State(int(d), rules) for d in rng.integers(1 << 40, size=n)]
    batch = Batch.empty(n, rules)
    for i, s in enumerate(states):
        batch.set_row(i, s)
    checked = 0
    for _ in range(150):
        mask, removal, hopeless = batch.legal()
        acts = np.zeros(n, np.int64)
        for i, s in enumerate(states):
            ids = st.legal_ids(s)
            assert np.flatnonzero(mask[i]).tolist() == ids, (i, str(s))
            assert removal[i] == any(k > 1 for k in ids)
            if not st.is_won(s):
                assert hopeless[i] == st.hopeless(s), (i, str(s))
            if ids:
                acts[i] = ids[int(rng.integers(len(ids)))]
                st.apply(s, MOVES[acts[i]])
                checked += 1
            else:  # over: start another deal in this row
                states[i] = s = st.State(int(rng.integers(1 << 40)), rules)
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
