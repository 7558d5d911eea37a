"""Every input boundary of the env: constructor arguments, reset options, seeds and actions.

The project's rule: bad input raises a ``PyramidError`` naming the field, the value and what is
allowed; nothing is silently replaced by a default. The explicit tests pin each finding of
issue 14; the Hypothesis properties throw valid and invalid values of every kind (numpy ints,
floats, bools, None, strings, wrong keys, wrong lengths) at ``PyramidEnv`` and
``PyramidVectorEnv`` and check that each input either works, keeping the invariants (the
observation in its space, the mask equal to the engine's legal moves while playing, the same
seed giving the same episode, a chosen deal dealt exactly), or raises a ``PyramidError`` with a
message, leaving the env as it was. ``pytest -m slow`` runs the properties with many more
examples.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from pyramid_env.engine import IllegalMove, deal, get_rules, legal_ids
from pyramid_env.engine.deal import Deal, decode_code, encode_code, parse_cards
from pyramid_env.engine.errors import PyramidError
from pyramid_env.env import N_ACTIONS, PyramidEnv, PyramidVectorEnv
from pyramid_env.env.pyramid_env import ENV_ARGS, OBS_MODES, REWARDS, RULE_KNOBS

ONLY_DRAW = [True] + [False] * (N_ACTIONS - 1)
FAST, SLOW = 100, 1500  # examples per property: default run, and ``pytest -m slow``


def fuzz(fast: int = FAST, **strategies):
    """Two tests from one property: ``fast`` examples by default, ``SLOW`` under ``-m slow``."""

    def wrap(body):
        def make(n):
            return settings(
                max_examples=n, deadline=None, suppress_health_check=[HealthCheck.too_slow]
            )(given(**strategies)(body))

        return make(fast), pytest.mark.slow(make(SLOW))

    return wrap


def refused(call, *args, **kwargs) -> str:
    """The message of the ``PyramidError`` that ``call`` raises (failing on anything else)."""
    with pytest.raises(PyramidError) as err:
        call(*args, **kwargs)
    assert str(err.value).strip()
    return str(err.value)


def outcome(call, *args, **kwargs):
    """``("ok", result)`` or ``("error", message)`` for a ``PyramidError``; others propagate."""
    try:
        return "ok", call(*args, **kwargs)
    except PyramidError as err:
        assert str(err).strip(), "an error without a message"
        return "error", str(err)


# -- oracles: what the rules of issue 14 say about a value, written independently ---------------
def is_int(v) -> bool:
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


def action_oracle(v) -> int | None:
    """The action id a value stands for, or None if it must be refused."""
    if isinstance(v, np.ndarray):
        if v.shape == () and v.dtype.kind in "iu":
            v = int(v)
        else:
            return None
    if not is_int(v) or not 0 <= int(v) < N_ACTIONS:
        return None
    return int(v)


BAD = object()  # the oracle's verdict for input that must be refused
RANDOM = object()  # no deal chosen: drawn from the generator


def deal_oracle(key, value):
    """The deal code a reset option must deal, or ``BAD``."""
    if key == "deal":
        if isinstance(value, Deal):
            return value.code
        return deal(int(value)).code if is_int(value) and 0 <= value < 2**64 else BAD
    if key == "code":
        if not isinstance(value, str):
            return BAD
        try:
            return encode_code(decode_code(value))
        except PyramidError:
            return BAD
    if isinstance(value, str):
        try:
            return encode_code(parse_cards(value))
        except PyramidError:
            return BAD
    if isinstance(value, np.ndarray):
        if value.ndim != 1 or value.dtype.kind not in "iu":
            return BAD
        value = value.tolist()
    if not isinstance(value, list | tuple) or len(value) != 52:
        return BAD
    if not all(is_int(c) and 0 <= c < 52 for c in value) or len(set(map(int, value))) != 52:
        return BAD
    return encode_code([int(c) for c in value])


def options_oracle(options):
    """``RANDOM``, ``BAD``, or ``(key, value)`` of the one deal option."""
    if options is None:
        return RANDOM
    if not isinstance(options, Mapping):
        return BAD
    keys = list(options)
    if any(k not in ("deal", "code", "cards") for k in keys) or len(keys) > 1:
        return BAD
    return (keys[0], options[keys[0]]) if keys else RANDOM


# -- strategies ---------------------------------------------------------------------------------
INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


def np_ints(lo: int, hi: int) -> st.SearchStrategy:
    """Numpy integers of every width with values in ``lo..hi`` (where the dtype holds some)."""
    fits = [d for d in INT_DTYPES if np.iinfo(d).min <= hi and np.iinfo(d).max >= lo]
    return st.sampled_from(fits).flatmap(
        lambda d: st.integers(max(lo, int(np.iinfo(d).min)), min(hi, int(np.iinfo(d).max))).map(d)
    )


JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from([np.True_, np.False_]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=4),
    st.lists(st.integers(0, 5), max_size=2),
    st.just({}),
)
ACTIONS = st.one_of(
    st.integers(-20, N_ACTIONS + 20),
    st.integers(-(2**70), 2**70),
    np_ints(-20, N_ACTIONS + 20),
    st.integers(0, N_ACTIONS - 1).map(np.array),  # 0-d arrays, as a policy's predict gives
    st.integers(0, N_ACTIONS - 1).map(lambda a: np.array([a])),  # shape (1,): refused
    st.integers(0, N_ACTIONS - 1).map(float),  # 3.0: refused, not rounded
    st.integers(0, N_ACTIONS - 1).map(np.float64),
    st.integers(0, N_ACTIONS - 1).map(str),
    JUNK,
)
DEAL_NUMBERS = st.one_of(
    st.integers(0, 2**64 - 1),
    st.integers(0, 2**64 - 1),
    st.integers(0, 10**6),
    st.integers(2**64 - 3, 2**64 + 3),
    st.integers(-5, 50),
    np_ints(0, 2**64 - 1),
    np_ints(-5, 5),
    st.integers(0, 50).map(float),
    st.integers(0, 50).map(str),
    st.integers(0, 50).map(deal),  # a Deal object
    JUNK,
)


@st.composite
def codes(draw):
    code = deal(draw(st.integers(0, 2**64 - 1))).code
    kind = draw(st.sampled_from(["ok"] * 5 + ["spaced", "typo", "cut", "number", "junk"]))
    if kind == "spaced":
        return f"  {code} "
    if kind == "typo":
        i = draw(st.integers(3, len(code) - 1))
        ch = draw(st.sampled_from("0aZ-!"))
        return code[:i] + ch + code[i + 1 :]
    if kind == "cut":
        return code[: draw(st.integers(0, len(code) - 1))]
    if kind == "number":
        return draw(st.integers(0, 99))
    return draw(JUNK)


@st.composite
def cards(draw):
    d = deal(draw(st.integers(0, 10**6)))
    c = list(d.cards)
    good = ["text", "list", "tuple", "array", "np-ints"]
    bad = ["short", "twice", "float", "bool", "big", "2d", "number", "junk"]
    kind = draw(st.sampled_from(good * 2 + bad))
    if kind == "text":
        return d.text
    if kind == "list":
        return c
    if kind == "tuple":
        return tuple(c)
    if kind == "array":
        return np.array(c, dtype=draw(st.sampled_from(INT_DTYPES)))
    if kind == "np-ints":
        return [np.int64(x) for x in c]
    if kind == "short":
        return c[: draw(st.integers(0, 51))]
    if kind == "twice":
        i, j = draw(st.integers(0, 51)), draw(st.integers(0, 51))
        c[i] = c[j]
        return c
    i = draw(st.integers(0, 51))
    if kind == "float":
        c[i] = float(c[i])
    elif kind == "bool":
        c[i] = True
    elif kind == "big":
        c[i] = draw(st.sampled_from([52, -1, 2**64]))
    elif kind == "2d":
        return np.array(c).reshape(4, 13)
    elif kind == "number":
        return draw(st.integers(0, 99))
    else:
        return draw(JUNK)
    return c


OPTION_VALUES = {"deal": DEAL_NUMBERS, "code": codes(), "cards": cards()}


def _cards_as(n: int, form: str):
    c = deal(n).cards
    return {
        "text": deal(n).text,
        "list": list(c),
        "tuple": c,
        "array": np.array(c, np.uint8),
        "np-ints": [np.int16(x) for x in c],
    }[form]


# Only values that must be accepted: so that the "deals exactly that deal" checks always run.
GOOD_OPTION_VALUES = {
    "deal": st.one_of(
        st.integers(0, 2**64 - 1), np_ints(0, 2**64 - 1), st.integers(0, 99).map(deal)
    ),
    "code": st.tuples(st.integers(0, 2**64 - 1), st.sampled_from(["", " ", "\n"])).map(
        lambda t: t[1] + deal(t[0]).code + t[1]
    ),
    "cards": st.tuples(
        st.integers(0, 10**6), st.sampled_from(["text", "list", "tuple", "array", "np-ints"])
    ).map(lambda t: _cards_as(*t)),
}
GOOD_OPTIONS = st.one_of(
    st.none(),
    st.just({}),
    *(v.map(lambda x, k=k: {k: x}) for k, v in GOOD_OPTION_VALUES.items()),
)


@st.composite
def reset_options(draw):
    kind = draw(st.sampled_from(["none", "empty", *["one"] * 6, "two", "unknown", "junk"]))
    if kind == "none":
        return None
    if kind == "empty":
        return {}
    if kind == "junk":
        return draw(st.one_of(st.lists(st.integers(), max_size=2), st.text(max_size=3)))
    if kind == "one":
        key = draw(st.sampled_from(list(OPTION_VALUES)))
        return {key: draw(OPTION_VALUES[key])}
    if kind == "two":
        a, b = draw(
            st.lists(st.sampled_from(list(OPTION_VALUES)), min_size=2, max_size=2, unique=True)
        )
        return {a: draw(OPTION_VALUES[a]), b: draw(OPTION_VALUES[b])}
    key = draw(
        st.one_of(
            st.sampled_from(["deal_number", "seed", "Deal", "deals", "options"]),
            st.text(max_size=6),
            st.integers(),
        )
    )
    if key in OPTION_VALUES:
        key = "deal_number"
    return {key: draw(st.integers(0, 9))}


# Values of every argument: mostly valid ones (so that whole kwargs sets are often accepted and
# the episode invariants get checked), and invalid ones of every kind. Rule knobs, ``rules`` and
# ``deals`` are validated by the engine and ``seeds.seed_set``: there the property asks only for
# "works, or a PyramidError".
GOOD = {
    "rules": st.sampled_from(["relaxed", "msc", "two-card", "one-pass", None, get_rules("msc")]),
    "observe_stock": st.sampled_from(["seen", "full"]),
    "reward": st.sampled_from(REWARDS),
    "max_steps": st.one_of(st.integers(1, 3000), np_ints(1, 300)),
    "obs_mode": st.sampled_from(OBS_MODES),
    "illegal_action": st.sampled_from(["penalty", "raise"]),
    "illegal_reward": st.one_of(
        st.floats(-10, 10), st.integers(-5, 5), st.floats(-1, 1).map(np.float32), np_ints(0, 3)
    ),
    "terminate_on_dead": st.sampled_from([True, False, np.True_, np.False_]),
    "render_mode": st.sampled_from([None, "ansi"]),
    "deals": st.sampled_from(
        [None, "test[:10]", "val", "train", "3,5,8", "0-4", range(5, 9), [3, 5, np.int64(8)]]
    ),
    "max_idle_passes": st.one_of(st.none(), st.integers(1, 5), np_ints(1, 5)),
    "passes": st.sampled_from([None, 1, 3]),
    "draw_count": st.sampled_from([1, 3]),
    "goal": st.sampled_from(["pyramid", "all"]),
    "covering_pair": st.sampled_from([True, False]),
}
_BAD_INTS = st.one_of(
    st.integers(-(2**70), 0), np_ints(-3, 0), JUNK, st.integers(1, 100).map(float)
)
BAD = {
    "rules": st.sampled_from(["nope", "MSC", 5, ["msc"], b"msc"]),
    "observe_stock": st.one_of(st.sampled_from(["all", "SEEN"]), JUNK),
    "reward": st.one_of(st.just("x"), JUNK),
    "max_steps": _BAD_INTS,
    "obs_mode": st.one_of(st.just("dictionary"), JUNK),
    "illegal_action": st.one_of(st.just("ignore"), JUNK),
    "illegal_reward": st.one_of(st.sampled_from([math.nan, math.inf, -math.inf, "0"]), JUNK),
    "terminate_on_dead": st.one_of(st.sampled_from([0, 1, "True"]), JUNK),
    "render_mode": st.one_of(st.sampled_from(["rgb", "text"]), JUNK),
    "deals": st.sampled_from(
        [
            (4, 7),
            [],
            "nope",
            "test[5:5]",
            [1, -2],
            5,
            [1.5],
            [True, 2],
            range(0),
            [2**64],
            [1, 1],
            np.arange(3),
            {3, 4},
            "3,x",
        ]
    ),
    "max_idle_passes": _BAD_INTS,
    "passes": st.sampled_from([0, -1, "2", 2.5, True, np.int64(2)]),
    "draw_count": st.sampled_from([2, "1", None]),
    "goal": st.sampled_from(["x", 3, None]),
    "covering_pair": st.sampled_from(["yes", None]),
}
ENV_CHOICES = {
    "observe_stock": ("seen", "full"),
    "reward": REWARDS,
    "obs_mode": OBS_MODES,
    "illegal_action": ("penalty", "raise"),
    "render_mode": (None, "ansi"),
}


def arg_oracle(name, value) -> bool | None:
    """Whether an env argument must be accepted; None where the engine or seed sets decide."""
    if name in ENV_CHOICES:
        return (value is None or isinstance(value, str)) and value in ENV_CHOICES[name]
    if name == "max_steps":
        return is_int(value) and value >= 1
    if name == "max_idle_passes":
        return value is None or (is_int(value) and value >= 1)
    if name == "illegal_reward":
        return (
            isinstance(value, numbers.Real) and not isinstance(value, bool) and math.isfinite(value)
        )
    if name == "terminate_on_dead":
        return isinstance(value, bool | np.bool_)
    if name in GOOD or name in RULE_KNOBS:
        return None  # rules, deals and rule knobs
    return False  # an unknown name


@st.composite
def env_kwargs(draw, bad: bool):
    """Keyword arguments; without ``bad``, only valid values of known names."""
    names = draw(st.lists(st.sampled_from(list(GOOD)), max_size=6, unique=True))
    kwargs = {n: draw(st.one_of(GOOD[n], BAD[n]) if bad else GOOD[n]) for n in names}
    if bad and draw(st.integers(0, 5)) == 0:  # now and then a misspelt or unknown name
        name = draw(
            st.one_of(
                st.sampled_from(["max_step", "seed", "num_env", "rule", "Reward"]),
                st.from_regex(r"[a-z][a-z_]{0,9}", fullmatch=True),
            )
        )
        kwargs[name] = draw(st.integers(0, 3))
    return kwargs


# -- invariants ---------------------------------------------------------------------------------
def same(a, b) -> bool:
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return np.array_equal(np.asarray(a), np.asarray(b))


def check_playing_invariants(env: PyramidEnv, obs, info, terminated: bool) -> None:
    """Observation in its space; the mask is the engine's legal moves until the episode ends."""
    assert env.observation_space.contains(obs)
    mask = env.action_masks()
    assert np.array_equal(info["action_mask"].astype(bool), mask)
    if terminated:
        assert mask.tolist() == ONLY_DRAW
        return
    expected = np.zeros(N_ACTIONS, bool)
    expected[legal_ids(env.state)] = True
    # At reset a deal can be over already (dead at once): then only action 0, as after the end.
    over_at_once = not env.legal_actions() and mask.tolist() == ONLY_DRAW
    assert np.array_equal(mask, expected) or over_at_once


def snapshot(env: PyramidEnv):
    return None if env.state is None else (env.state.fields(), env._steps, env._moves)


# -- finding 1: reset options -------------------------------------------------------------------
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
        with pytest.raises(PyramidError, match="seed="):
            PyramidEnv().reset(seed=bad)


# -- finding 2: constructor arguments -----------------------------------------------------------
@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"max_steps": 0}, "max_steps"),
        ({"max_steps": 1.5}, "max_steps"),
        ({"max_steps": "100"}, "max_steps"),
        ({"max_steps": True}, "max_steps"),
        ({"max_steps": None}, "max_steps"),
        ({"illegal_reward": "x"}, "illegal_reward"),
        ({"illegal_reward": float("nan")}, "illegal_reward"),
        ({"illegal_reward": float("-inf")}, "illegal_reward"),
        ({"illegal_reward": True}, "illegal_reward"),
        ({"terminate_on_dead": 1}, "terminate_on_dead"),
        ({"terminate_on_dead": "yes"}, "terminate_on_dead"),
        ({"deals": []}, "deals"),
        ({"deals": range(0)}, "deals"),
        ({"deals": "nope"}, "deals"),
        ({"deals": 5}, "deals"),
        ({"deals": [1, -2]}, "deals"),
        ({"deals": [1.5]}, "deals"),
        ({"deals": range(0, 2**64)}, "deals"),
        ({"observe_stock": ["seen"]}, "observe_stock"),
        ({"reward": np.array(["cards"])}, "reward"),
        ({"rules": 5}, "rules"),
        ({"max_idle_passes": 0}, "max_idle_passes"),
    ],
)
def test_bad_arguments_are_refused_naming_the_field(kwargs, field):
    msg = refused(PyramidEnv, **kwargs)
    assert field in msg
    assert refused(PyramidEnv, dict(kwargs)) == msg  # RLlib's env_config form: the same error


def test_arguments_are_normalised_once():
    env = PyramidEnv(
        max_steps=np.int32(50),
        illegal_reward=np.float32(-0.5),
        terminate_on_dead=np.False_,
        max_idle_passes=np.uint8(3),
        deals=[np.int64(4), 7],
    )
    assert type(env.max_steps) is int and type(env.max_idle_passes) is int
    assert type(env.illegal_reward) is float and env.terminate_on_dead is False
    assert env.deals == [4, 7] and all(type(n) is int for n in env.deals)
    assert env.reset(seed=0)[1]["deal"] in (4, 7)


@pytest.mark.parametrize("name", ["max_step", "seed", "num_envs", "Reward"])
def test_unknown_argument_names_list_the_env_arguments_and_the_rule_knobs(name):
    msg = refused(PyramidEnv, **{name: 1})
    assert repr(name) in msg and "env arguments: rules, observe_stock" in msg
    assert "rule knobs: " in msg and "passes" in msg
    assert refused(PyramidEnv, {name: 1}) == msg


def test_the_config_dict_refuses_what_it_cannot_take():
    assert "max_steps" in refused(PyramidEnv, {"max_steps": 10}, max_steps=20)
    assert "passes" in refused(PyramidEnv, {"passes": 1}, passes=2)
    refused(PyramidEnv, {1: "x"})
    refused(PyramidEnv, {"rules": {"rules": "msc"}})
    env = PyramidEnv({"rules": "msc", "max_steps": 10}, reward="win")  # beside it: merged
    assert env.rules.name == "msc" and env.max_steps == 10 and env.reward_kind == "win"


def test_rule_knobs_reach_the_engine_and_its_errors_are_pyramid_errors():
    assert PyramidEnv(passes=2).rules.passes == 2
    assert "passes" in refused(PyramidEnv, passes=0)
    assert "goal" in refused(PyramidEnv, goal="x")
    assert "nope" in refused(PyramidEnv, "nope")


# -- finding 3: step's action -------------------------------------------------------------------
@pytest.mark.parametrize(
    "action", [1.5, 3.0, np.float64(2.0), "3", None, [1], (1,), True, np.True_, np.array([3])]
)
def test_non_integer_actions_are_refused(action):
    env = PyramidEnv()
    env.reset(seed=0)
    before = snapshot(env)
    msg = refused(env.step, action)
    assert "action" in msg and "0..326" in msg and snapshot(env) == before


@pytest.mark.parametrize("action", [-1, N_ACTIONS, 2**70, np.int64(-1), np.uint16(400)])
def test_out_of_range_actions_are_refused(action):
    env = PyramidEnv()
    env.reset(seed=0)
    assert "out of range 0..326" in refused(env.step, action)


def test_numpy_integer_actions_and_0d_arrays_work():
    env = PyramidEnv()
    env.reset(seed=0)
    for a in (np.int64(0), np.uint8(0), np.array(0), env.action_space.sample()):
        env.step(a)


# -- finding 4: the vector env ------------------------------------------------------------------
def test_vector_reset_takes_codes_and_cards_per_game():
    vec = PyramidVectorEnv(3)
    codes_ = [deal(n).code for n in (11, 12, 13)]
    _, info = vec.reset(options={"code": codes_})
    assert info["code"].tolist() == codes_ and info["deal"].tolist() == [None] * 3
    texts = [deal(n).text for n in (14, 15, 16)]
    _, info = vec.reset(options={"cards": texts})
    assert info["code"].tolist() == [deal(n).code for n in (14, 15, 16)]
    _, info = vec.reset(options={"cards": np.array([deal(n).cards for n in (1, 2, 3)])})
    assert info["code"].tolist() == [deal(n).code for n in (1, 2, 3)]
    _, info = vec.reset(options={"deal": np.arange(3, dtype=np.uint32)})
    assert info["deal"].tolist() == [0, 1, 2]


@pytest.mark.parametrize(
    "options",
    [
        {"deal_number": [1, 2, 3]},
        {"seed": [1, 2, 3]},
        {"deal": [1, 2]},
        {"deal": [1, 2, 3, 4]},
        {"deal": 7},
        {"cards": deal(1).text},
        {"deal": [1, 2, True]},
        {"deal": b"abc"},
        {"deal": [1, 2], "code": []},
        {"code": [deal(1).code, deal(2).code, 3]},
        "deal",
    ],
)
def test_vector_reset_refuses_bad_options(options):
    vec = PyramidVectorEnv(3)
    vec.reset(seed=1)
    masks = vec.action_masks()
    refused(vec.reset, options=options)
    assert np.array_equal(vec.action_masks(), masks)  # nothing changed


def test_vector_seed_lists_are_checked():
    vec = PyramidVectorEnv(3)
    assert "3 games" in refused(vec.reset, seed=[1, 2])
    refused(vec.reset, seed=[1, 2, True])
    _, info = vec.reset(seed=np.array([4, 5, 6]))
    assert info["seed"].tolist() == [4, 5, 6]
    _, info2 = vec.reset(seed=np.int64(4))
    assert info2["seed"].tolist() == [4, 5, 6] and info2["deal"].tolist() == info["deal"].tolist()


def test_vector_step_before_reset_is_refused():
    vec = PyramidVectorEnv(2)
    assert vec.action_masks()[:, 0].all() and vec.action_masks().sum() == 2  # as PyramidEnv's
    with pytest.raises(RuntimeError, match=r"call reset\(\) before step\(\)"):
        vec.step([0, 0])


@pytest.mark.parametrize(
    "actions",
    [
        [0],
        [0, 0, 0],
        np.zeros(3, int),
        np.zeros((2, 1), int),
        np.zeros(2),
        [0, 1.0],
        [0, None],
        [0, True],
        np.array([True, False]),
        None,
        0,
        "00",
        [0, N_ACTIONS],
        np.array([-1, 0]),
        np.array([0, 2**40], np.uint64),
        [0, "1"],
        np.array([0, None], dtype=object),
    ],
)
def test_vector_step_refuses_bad_actions(actions):
    vec = PyramidVectorEnv(2, illegal_action="penalty")
    vec.reset(seed=0)
    masks = vec.action_masks()
    refused(vec.step, actions)
    assert np.array_equal(vec.action_masks(), masks)


def test_vector_step_takes_any_integer_array_and_lists_of_numpy_ints():
    vec = PyramidVectorEnv(2)
    vec.reset(seed=0)
    for actions in (
        [0, 0],
        (0, 0),
        [np.int64(0), np.uint8(0)],
        np.zeros(2, np.uint16),
        np.zeros(2, np.int8),
        np.array([0, 0], dtype=object),
    ):
        vec.step(actions)


def test_vector_constructor_checks_its_own_arguments():
    for n in (0, -1, 1.5, "4", True, None):
        assert "num_envs" in refused(PyramidVectorEnv, n)
    assert PyramidVectorEnv(np.int64(2)).num_envs == 2
    assert "human" in refused(PyramidVectorEnv, 2, render_mode="human")
    assert "human" in refused(PyramidVectorEnv, 2, rules={"render_mode": "human"})
    assert "max_step" in refused(PyramidVectorEnv, 2, max_step=3)
    assert PyramidVectorEnv(2, max_episode_steps=7).proto.max_steps == 7
    assert PyramidVectorEnv(2, max_steps=5, max_episode_steps=7).proto.max_steps == 5
    refused(PyramidVectorEnv, 2, max_episode_steps=0)


# -- finding 5: gym.make and gym.make_vec surface the same errors -------------------------------
@pytest.mark.parametrize(
    "kwargs",
    [
        {"max_steps": 0},
        {"reward": "x"},
        {"illegal_reward": "x"},
        {"terminate_on_dead": 1},
        {"deals": []},
        {"passes": 0},
        {"obs_mode": None},
        {"rules": "nope"},
    ],
)
def test_make_and_make_vec_raise_the_classes_errors_unchanged(kwargs):
    msg = refused(PyramidEnv, **kwargs)
    assert refused(gym.make, "PyramidSolitaire-v0", **kwargs) == msg
    assert refused(gym.make_vec, "PyramidSolitaire-v0", 2, **kwargs) == msg
    sync = {"vectorization_mode": "sync"}
    assert refused(gym.make_vec, "PyramidSolitaire-v0", 2, **sync, **kwargs) == msg
    assert refused(PyramidVectorEnv, 2, **kwargs) == msg


def test_make_and_make_vec_name_an_unknown_argument():
    for call in (
        lambda: gym.make("PyramidSolitaire-MSC-v0", max_step=3),
        lambda: gym.make_vec("PyramidSolitaire-MSC-v0", 2, max_step=3),
        lambda: gym.make_vec("PyramidSolitaire-MSC-v0", 2, vectorization_mode="sync", max_step=3),
    ):
        msg = refused(call)
        assert "'max_step'" in msg and "max_steps" in msg and "rule knobs" in msg
    assert "num_envs" in refused(gym.make_vec, "PyramidSolitaire-v0", 0)
    assert gym.make_vec("PyramidSolitaire-v0", 2, max_episode_steps=9).proto.max_steps == 9


# -- properties: PyramidEnv ---------------------------------------------------------------------
def _constructor(kwargs):
    verdicts = [arg_oracle(n, v) for n, v in kwargs.items()]
    kind, result = outcome(PyramidEnv, **kwargs)
    event(f"constructor: {kind}")
    if False in verdicts:
        assert kind == "error", (kwargs, result)
    elif all(verdicts):
        assert kind == "ok", (kwargs, result)
    # The config-dict form and the vector env say the same.
    kind2, result2 = outcome(PyramidEnv, dict(kwargs))
    assert kind2 == kind and (kind == "ok" or result2 == result)
    if not {"num_envs", "max_episode_steps"} & kwargs.keys():  # the vector env's own names
        vkind, vresult = outcome(PyramidVectorEnv, 2, **kwargs)
        assert vkind == kind
        if kind == "error" and all(n in ENV_ARGS or n in RULE_KNOBS for n in kwargs):
            assert vresult == result  # (an unknown name: the message names the vector class)
    if kind == "error":
        return
    env = result
    assert type(env.max_steps) is int and type(env.illegal_reward) is float
    assert type(env.terminate_on_dead) is bool
    assert env.max_idle_passes is None or type(env.max_idle_passes) is int
    twin = PyramidEnv(**kwargs)
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=5)
    obs2, info2 = twin.reset(seed=5)
    assert same(obs, obs2) and same(info, info2)  # same seed, same game
    if env.deals is not None:
        assert info["deal"] in env.deals
    check_playing_invariants(env, obs, info, False)
    for _ in range(15):
        a = int(rng.choice(np.flatnonzero(env.action_masks())))
        out, out2 = env.step(a), twin.step(a)
        assert all(same(x, y) for x, y in zip(out, out2, strict=True))
        check_playing_invariants(env, out[0], out[4], out[2])
        if out[2] or out[3]:
            break


test_constructor_arguments, test_constructor_arguments_slow = fuzz(kwargs=env_kwargs(True))(
    _constructor
)
test_constructor_valid_arguments, test_constructor_valid_arguments_slow = fuzz(
    kwargs=env_kwargs(False)
)(_constructor)


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


def _actions(data, illegal_action, seed):
    env = PyramidEnv("relaxed", illegal_action=illegal_action, max_steps=40)
    twin = PyramidEnv("relaxed", illegal_action=illegal_action, max_steps=40)
    obs, info = env.reset(seed=seed)
    twin.reset(seed=seed)
    terminated = False
    for _ in range(25):
        legal = env.legal_actions()
        if legal and data.draw(st.booleans()):
            action = data.draw(st.sampled_from(legal))
        else:
            action = data.draw(ACTIONS)
        expected = action_oracle(action)
        event(
            "action: "
            + ("bad" if expected is None else "legal" if expected in legal else "illegal")
        )
        before = snapshot(env)
        if expected is None:
            refused(env.step, action)
            assert snapshot(env) == before
            continue
        if expected not in legal and illegal_action == "raise":
            with pytest.raises(IllegalMove):
                env.step(action)
            assert snapshot(env) == before
            continue
        out = env.step(action)
        assert all(same(x, y) for x, y in zip(out, twin.step(expected), strict=True))
        obs, reward, terminated, truncated, info = out
        if expected not in legal:  # a no-op with the penalty
            assert reward == env.illegal_reward and "illegal_action" in info
            assert snapshot(env)[0] == before[0]
        check_playing_invariants(env, obs, info, terminated)
        if terminated or truncated:
            obs, info = env.reset(seed=seed + 1)
            twin.reset(seed=seed + 1)


test_step_actions, test_step_actions_slow = fuzz(
    data=st.data(),
    illegal_action=st.sampled_from(["penalty", "raise"]),
    seed=st.integers(0, 10**6),
)(_actions)


# -- properties: PyramidVectorEnv ---------------------------------------------------------------
def vec_snapshot(vec: PyramidVectorEnv):
    g = vec._games
    return (
        tuple(x.tobytes() for x in (g.pyr, g.left, g.ptr, g.recycles, vec._steps, vec._ended)),
        tuple(d.cards if d is not None else None for d in vec._deals),
    )


def check_vector_invariants(vec: PyramidVectorEnv, obs, infos, over) -> None:
    """Each game: mask = the engine's legal moves while playing, action 0 alone once over."""
    assert vec.observation_space.contains(obs)
    masks = vec.action_masks()
    assert np.array_equal(infos["action_mask"].astype(bool), masks)
    for i in range(vec.num_envs):
        if over[i]:
            assert masks[i].tolist() == ONLY_DRAW
            continue
        expected = np.zeros(N_ACTIONS, bool)
        expected[legal_ids(vec._state(i))] = True
        assert np.array_equal(masks[i], expected) or masks[i].tolist() == ONLY_DRAW


@st.composite
def vector_options(draw, n, valid):
    """Per-game option lists; ``valid``: only lists that must be accepted."""
    if valid:
        key = draw(st.sampled_from(list(GOOD_OPTION_VALUES)))
        entries = [draw(GOOD_OPTION_VALUES[key]) for _ in range(n)]
        return None if draw(st.integers(0, 5)) == 0 else {key: entries}
    kind = draw(st.sampled_from(["per-game", "per-game", "per-game", "other"]))
    if kind == "other":
        return draw(reset_options())
    key = draw(st.sampled_from(list(OPTION_VALUES)))
    size = draw(st.sampled_from([n, n, n, n - 1, n + 1]))
    entries = [draw(OPTION_VALUES[key]) for _ in range(size)]
    form = draw(st.sampled_from(["list", "tuple", "array", "scalar"]))
    if form == "tuple":
        return {key: tuple(entries)}
    if form == "array" and key == "deal" and all(is_int(e) and 0 <= e < 2**63 for e in entries):
        return {key: np.array(entries, dtype=np.int64)}
    if form == "scalar" and entries:
        return {key: entries[0]}
    return {key: entries}


def vector_options_oracle(options, n):
    verdict = options_oracle(options)
    if verdict in (BAD, RANDOM):
        return verdict
    key, values = verdict
    if isinstance(values, str) or not isinstance(values, list | tuple | np.ndarray):
        return BAD
    if len(values) != n:
        return BAD
    codes_ = [deal_oracle(key, v) for v in values]
    return BAD if any(c is BAD for c in codes_) else codes_


def _vector_reset(data, n, reset_first, valid):
    vec = PyramidVectorEnv(n, rules="two-card", max_steps=20)
    if reset_first:
        vec.reset(seed=2)
        vec.step(np.zeros(n, np.int64))
    before = vec_snapshot(vec)
    options = data.draw(vector_options(n, valid))
    seed = data.draw(
        st.one_of(
            st.none(),
            st.integers(0, 10**6),
            np_ints(0, 100),
            st.lists(
                st.one_of(st.none(), st.integers(0, 99), np_ints(0, 99), st.booleans()),
                min_size=n - 1,
                max_size=n + 1,
            ),
        )
    )
    expected = vector_options_oracle(options, n)
    seed_bad = isinstance(seed, list) and (len(seed) != n or any(isinstance(s, bool) for s in seed))
    kind, result = outcome(vec.reset, seed=seed, options=options)
    bad = expected is BAD or seed_bad
    event(f"vector reset: {'refused' if bad else 'random' if expected is RANDOM else 'chosen'}")
    if expected is BAD or seed_bad:
        assert kind == "error", (options, seed, result)
        assert vec_snapshot(vec) == before
        return
    assert kind == "ok", (options, seed, result)
    obs, infos = result
    if expected is not RANDOM:
        assert infos["code"].tolist() == expected
    check_vector_invariants(vec, obs, infos, np.zeros(n, bool))
    twin = PyramidVectorEnv(n, rules="two-card", max_steps=20)
    obs2, infos2 = twin.reset(seed=seed, options=options)
    if seed is not None and not (isinstance(seed, list) and None in seed):
        assert same(obs, obs2) and infos["code"].tolist() == infos2["code"].tolist()
    # each game is the game a single env deals from the same deal
    for i in range(n):
        single = PyramidEnv("two-card", max_steps=20)
        sobs, sinfo = single.reset(options={"code": infos["code"][i]})
        assert same({k: v[i] for k, v in obs.items()}, sobs)


test_vector_reset_options, test_vector_reset_options_slow = fuzz(
    data=st.data(), n=st.integers(1, 4), reset_first=st.booleans(), valid=st.just(False)
)(_vector_reset)
test_vector_reset_valid_options, test_vector_reset_valid_options_slow = fuzz(
    data=st.data(), n=st.integers(1, 4), reset_first=st.booleans(), valid=st.just(True)
)(_vector_reset)


@st.composite
def vector_actions(draw, masks):
    n = len(masks)
    kind = draw(st.sampled_from(["legal", "legal", "legal", "list", "array", "junk"]))
    if kind == "legal":  # legal ids, as an int array, a list or numpy ints
        ids = [draw(st.sampled_from(np.flatnonzero(m).tolist())) for m in masks]
        form = draw(st.sampled_from(["array", "list", "np-list", "uint"]))
        if form == "array":
            return np.array(ids, np.int64)
        if form == "uint":
            return np.array(ids, np.uint16)
        return [np.int32(a) for a in ids] if form == "np-list" else ids
    if kind == "list":
        size = draw(st.sampled_from([n, n, n, n - 1, n + 1]))
        return [draw(st.one_of(st.integers(0, N_ACTIONS - 1), ACTIONS)) for _ in range(size)]
    if kind == "array":
        dtype = draw(st.sampled_from([np.int64, np.int32, np.uint8, np.float64, np.bool_]))
        shape = draw(st.sampled_from([(n,), (n,), (n,), (n, 1), (n + 1,), ()]))
        return draw(
            hnp.arrays(
                dtype,
                shape,
                elements=st.integers(0, N_ACTIONS + 20)
                if dtype not in (np.bool_, np.uint8)
                else None,
            )
        )
    return draw(ACTIONS)


def vector_actions_oracle(actions, n):
    if isinstance(actions, list | tuple) or (
        isinstance(actions, np.ndarray) and actions.dtype == object and actions.ndim == 1
    ):
        if len(actions) != n:
            return None
        ids = [action_oracle(a) for a in actions]
        return None if None in ids else ids
    if not isinstance(actions, np.ndarray) or actions.dtype.kind not in "iu":
        return None
    if actions.shape != (n,) or not ((actions >= 0) & (actions < N_ACTIONS)).all():
        return None
    return actions.astype(np.int64).tolist()


def _vector_step(data, n, illegal_action, seed):
    vec = PyramidVectorEnv(n, illegal_action=illegal_action, max_steps=25)
    twin = PyramidVectorEnv(n, illegal_action=illegal_action, max_steps=25)
    obs, infos = vec.reset(seed=seed)
    twin.reset(seed=seed)
    over = np.zeros(n, bool)
    for _ in range(20):
        masks = vec.action_masks()
        actions = data.draw(vector_actions(masks))
        expected = vector_actions_oracle(actions, n)
        event(f"vector step: {'bad' if expected is None else 'ok'}")
        before = vec_snapshot(vec)
        if expected is None:
            refused(vec.step, actions)
            assert vec_snapshot(vec) == before
            continue
        playing = ~vec._ended
        illegal = [playing[i] and not masks[i][a] for i, a in enumerate(expected)]
        if any(illegal) and illegal_action == "raise":
            with pytest.raises(IllegalMove):
                vec.step(actions)
            assert vec_snapshot(vec) == before
            continue
        out = vec.step(actions)
        out2 = twin.step(np.array(expected))
        assert all(same(x, y) for x, y in zip(out[:4], out2[:4], strict=True))
        obs, rewards, terminated, truncated, infos = out
        for i in np.flatnonzero(illegal):
            assert rewards[i] == vec.proto.illegal_reward
        over = terminated
        check_vector_invariants(vec, obs, infos, over)


test_vector_step_actions, test_vector_step_actions_slow = fuzz(
    data=st.data(),
    n=st.integers(1, 4),
    illegal_action=st.sampled_from(["penalty", "raise"]),
    seed=st.integers(0, 10**6),
)(_vector_step)
