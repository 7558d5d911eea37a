"""``draw_deal``'s fast path: the same deal numbers, and the same generator state, as numpy's
``Generator.integers(2**63)``, so that no seed's episodes change (the determinism rule)."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.seeding import np_random

from pyramid_env.env import PyramidEnv, PyramidVectorEnv
from pyramid_env.env.settings import _RAW64, draw_deal, raw_words

KINDS = [np.random.PCG64, np.random.PCG64DXSM, np.random.Philox, np.random.SFC64]


def same_state(a: dict, b: dict) -> bool:
    """Two bit generator states alike (Philox's holds arrays)."""
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_state(a[k], b[k]) for k in a)
    return np.array_equal(a, b)


@pytest.mark.parametrize("kind", [*KINDS, np.random.MT19937], ids=lambda k: k.__name__)
@pytest.mark.parametrize("seed", [0, 1, 2**40 + 3, 987654321987])
def test_draw_deal_is_integers_of_2_pow_63_and_leaves_the_same_state(kind, seed):
    fast = np.random.Generator(kind(seed))
    slow = np.random.Generator(kind(seed))
    for j in range(3000):
        assert draw_deal(fast, None) == int(slow.integers(2**63)), j
        if j % 97 == 0:  # other draws between, the 32-bit buffered ones among them
            assert fast.integers(5) == slow.integers(5)
            assert fast.random() == slow.random()
            assert fast.integers(2**40) == slow.integers(2**40)
    assert same_state(fast.bit_generator.state, slow.bit_generator.state)
    # and the next draws of any kind agree
    assert fast.integers(2**63, size=8).tolist() == slow.integers(2**63, size=8).tolist()
    assert fast.random(4).tolist() == slow.random(4).tolist()


def test_the_fast_path_covers_gymnasiums_generator_but_not_mt19937():
    assert type(np_random(0)[0].bit_generator) in _RAW64
    assert np.random.MT19937 not in _RAW64  # its random_raw() is a 32-bit word
    assert set(KINDS) == _RAW64


def test_a_seed_deals_what_it_dealt_before_the_fast_path():
    # Pinned from int(np_random(seed)[0].integers(2**63)), the call draw_deal used to make.
    pinned = {0: 5874934615388537135, 1: 4720721261117928063, 42: 7138484576005690180}
    for seed, number in pinned.items():
        assert PyramidEnv().reset(seed=seed)[1]["deal"] == number
    vec = PyramidVectorEnv(3)
    _, info = vec.reset(seed=0)
    assert info["deal"].tolist() == [pinned[0], pinned[1], PyramidEnv().reset(seed=2)[1]["deal"]]
    # an autoreset's deal: game 0 of reset(seed=5) draws 7424841456459477716 first, then
    rng = np_random(5)[0]
    assert [draw_deal(rng, None) for _ in range(3)] == [
        7424841456459477716,
        7451938487489940730,
        4753039369592592096,
    ]


def test_a_deals_list_still_draws_through_integers():
    a, b = np_random(3)[0], np_random(3)[0]
    deals = range(10, 1000, 7)
    assert [draw_deal(a, deals) for _ in range(50)] == [
        deals[int(b.integers(len(deals)))] for _ in range(50)
    ]


@pytest.mark.parametrize("kind", [*KINDS, np.random.MT19937], ids=lambda k: k.__name__)
def test_raw_words_is_draw_deals_fast_path_or_none(kind):
    # The vector env's autoresets shift raw_words' word themselves: the same numbers.
    fast, slow = np.random.Generator(kind(7)), np.random.Generator(kind(7))
    word = raw_words(fast, None)
    if kind is np.random.MT19937:
        assert word is None
        return
    assert [word() >> 1 for _ in range(500)] == [draw_deal(slow, None) for _ in range(500)]
    assert same_state(fast.bit_generator.state, slow.bit_generator.state)
    assert raw_words(fast, range(5)) is None  # a deals list draws through integers
