"""Reset's options and seeds: a chosen deal (number, code or cards) is dealt exactly, bad options
are refused naming the allowed ones, and a refused reset leaves the env as it was.
``pytest -m slow`` runs the properties with many more examples.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import event
from hypothesis import strategies as st

from pyramid_env.engine import deal
from pyramid_env.engine.deal import Deal
from pyramid_env.env import PyramidEnv
from tests.conftest import refused
from tests.env.input_strategies import (
    BAD,
    GOOD_OPTIONS,
    INT_DTYPES,
    RANDOM,
    check_playing_invariants,
    deal_oracle,
    fuzz,
    np_ints,
    options_oracle,
    outcome,
    reset_options,
    same,
    snapshot,
)


@pytest.mark.parametrize("options", [{"deal_number": 7}, {"seed": 7}, {"Deal": 7}])
def test_unknown_reset_options_are_refused_naming_the_allowed(options):
    msg = refused(PyramidEnv().reset, options=options)
    assert repr(next(iter(options))) in msg and "'deal', 'code', 'cards'" in msg


def test_two_deal_options_at_once_are_refused():
    msg = refused(PyramidEnv().reset, options={"deal": 7, "code": deal(7).code})
    assert "'deal', 'code'" in msg


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_numpy_deal_numbers_deal_that_deal(dtype):
    _, info = PyramidEnv().reset(options={"deal": dtype(7)})
    assert info["deal"] == 7 and type(info["deal"]) is int and info["code"] == deal(7).code


@pytest.mark.parametrize("value", [True, np.True_, 7.0, -1, 2**64, None, "7", [7]])
def test_bad_deal_numbers_are_refused(value):
    msg = refused(PyramidEnv().reset, options={"deal": value})
    assert "options['deal']" in msg and "0..2**64-1" in msg


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("code", 42),
        ("code", "7"),
        ("code", deal(7).text),
        ("cards", 42),
        ("cards", None),
        ("cards", deal(7).code),
        ("cards", [1.0] * 52),
        ("cards", list(range(51))),
    ],
)
def test_code_and_cards_of_the_wrong_kind_are_refused(key, value):
    refused(PyramidEnv().reset, options={key: value})


def test_cards_as_text_ints_or_arrays_deal_exactly_those_cards():
    d = deal(123)
    for value in (d.text, list(d.cards), tuple(d.cards), np.array(d.cards, np.uint8)):
        _, info = PyramidEnv().reset(options={"cards": value})
        assert info["code"] == d.code and info["deal"] is None


def test_a_refused_reset_leaves_the_env_as_it_was():
    env = PyramidEnv()
    env.reset(seed=3)
    env.step(0)
    before, rng = snapshot(env), env.np_random.bit_generator.state
    refused(env.reset, seed=5, options={"deal": -1})
    assert snapshot(env) == before and env.np_random.bit_generator.state == rng


def test_seeds_numpy_ints_count_bools_do_not():
    a, info = PyramidEnv().reset(seed=np.int64(9))
    b, _ = PyramidEnv().reset(seed=9)
    assert same(a, b) and info["seed"] == 9 and type(info["seed"]) is int
    refused(PyramidEnv().reset, seed=True)
    # Ours, naming the seed, where Gymnasium's would be gymnasium.error.Error.
    for bad in (1.5, -1, "3"):
        refused(PyramidEnv().reset, seed=bad, match="seed=")


def _reset(options, seed, reset_first):
    env = PyramidEnv("msc", max_steps=30)
    if reset_first:
        env.reset(seed=1)
        env.step(0)
    before = snapshot(env)
    verdict = options_oracle(options)
    expected = verdict if verdict in (BAD, RANDOM) else deal_oracle(*verdict)
    kind, result = outcome(env.reset, seed=seed, options=options)
    event(
        f"reset: {'refused' if expected is BAD else 'random' if expected is RANDOM else 'chosen'}"
    )
    if expected is BAD:
        assert kind == "error", (options, result)
        assert snapshot(env) == before
        return
    assert kind == "ok", (options, result)
    obs, info = result
    if expected is not RANDOM:
        assert info["code"] == expected  # exactly the deal asked for
        key, value = verdict
        if key == "deal":
            assert info["deal"] == (value.number if isinstance(value, Deal) else int(value))
    check_playing_invariants(env, obs, info, False)
    twin = PyramidEnv("msc", max_steps=30)
    obs2, info2 = twin.reset(seed=seed, options=options)
    if seed is not None or expected is not RANDOM:
        assert same(obs, obs2) and info["code"] == info2["code"]
    for a in (0, 0, 1):
        out = env.step(a)
        check_playing_invariants(env, out[0], out[4], out[2])


SEEDS = st.one_of(st.none(), st.integers(0, 2**32), np_ints(0, 1000))
test_reset_options, test_reset_options_slow = fuzz(
    options=reset_options(), seed=SEEDS, reset_first=st.booleans()
)(_reset)
test_reset_valid_options, test_reset_valid_options_slow = fuzz(
    options=GOOD_OPTIONS, seed=SEEDS, reset_first=st.booleans()
)(_reset)
