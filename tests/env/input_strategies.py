"""Shared by the env's input tests: Hypothesis strategies for every argument, reset option and
action (valid and invalid values of every kind), independent oracles saying which must be accepted,
and the invariants a working env keeps.

The rule they check: bad input raises a ``PyramidError`` naming the field, the value and what is
allowed, leaving the env as it was; nothing is silently replaced by a default.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyramid_env.engine import deal, get_rules, legal_ids
from pyramid_env.engine.deal import Deal, decode_code, encode_code, parse_cards
from pyramid_env.engine.errors import PyramidError
from pyramid_env.env import N_ACTIONS, PyramidEnv
from pyramid_env.env.pyramid_env import OBS_MODES, REWARDS, RULE_KNOBS

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


def outcome(call, *args, **kwargs):
    """``("ok", result)`` or ``("error", message)`` for a ``PyramidError``; others propagate."""
    try:
        return "ok", call(*args, **kwargs)
    except PyramidError as err:
        assert str(err).strip(), "an error without a message"
        return "error", str(err)


# -- oracles: what the input rules say about a value, written independently -------------------
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
GOOD_ARGS = {
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
BAD_ARGS = {
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
    if name == "max_steps":  # 1 to 10**9, as docs/environment.md says
        return is_int(value) and 1 <= value <= 10**9
    if name == "max_idle_passes":
        return value is None or (is_int(value) and 1 <= value <= 10**9)
    if name == "illegal_reward":  # a finite number within +-10**9
        return (
            isinstance(value, numbers.Real)
            and not isinstance(value, bool)
            and math.isfinite(value)
            and abs(value) <= 10**9
        )
    if name == "terminate_on_dead":
        return isinstance(value, bool | np.bool_)
    if name in GOOD_ARGS or name in RULE_KNOBS:
        return None  # rules, deals and rule knobs
    return False  # an unknown name


@st.composite
def env_kwargs(draw, bad: bool):
    """Keyword arguments; without ``bad``, only valid values of known names."""
    names = draw(st.lists(st.sampled_from(list(GOOD_ARGS)), max_size=6, unique=True))
    kwargs = {n: draw(st.one_of(GOOD_ARGS[n], BAD_ARGS[n]) if bad else GOOD_ARGS[n]) for n in names}
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
