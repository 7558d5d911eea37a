"""The single env's compiled step against its step on the engine's State, value and type.

With numba the single env plays through the vector env's kernel (``kernel.play_one``); the
engine's Python path (``PyramidEnv._python_step``) is the independent statement it must match:
observations, rewards, ends, infos (keys, order, values and their Python types), masks, legal
actions, the State and the errors, under every rule variant, illegal actions and all.
"""

import numpy as np
import pytest

from pyramid_env import jit
from pyramid_env.engine import state as st
from pyramid_env.engine.invariants import rule_variants
from pyramid_env.env import PyramidEnv
from pyramid_env.solver import winning_line

pytestmark = pytest.mark.skipif(not jit.AVAILABLE, reason="the compiled step needs numba")


def same(a, b) -> bool:
    """Equal values, types and (for arrays) dtypes and shapes."""
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, np.ndarray):
        return type(b) is np.ndarray and a.dtype == b.dtype and np.array_equal(a, b)
    return type(a) is type(b) and a == b


def pair(rules, **kwargs) -> tuple[PyramidEnv, PyramidEnv]:
    """The same env twice: compiled, and on the engine's Python path."""
    fast, slow = PyramidEnv(rules, **kwargs), PyramidEnv(rules, **kwargs)
    slow._compiled = False
    return fast, slow


def agree(fast: PyramidEnv, slow: PyramidEnv, out_fast, out_slow) -> None:
    assert fast._fast is not None and slow._fast is None
    assert len(out_fast) == len(out_slow)
    for a, b in zip(out_fast, out_slow, strict=True):
        assert same(a, b), (a, b)
    assert fast.state == slow.state and fast.state.drawn is slow.state.drawn
    assert fast.legal_actions() == slow.legal_actions()
    assert np.array_equal(fast.action_masks(), slow.action_masks())
    assert fast.known_stock() == slow.known_stock()


def lockstep(rules, kwargs: dict, steps: int, seed: int) -> int:
    """Step both on random legal actions, some illegal ones, and on past an episode's end."""
    fast, slow = pair(rules, **kwargs)
    agree(fast, slow, fast.reset(seed=seed), slow.reset(seed=seed))
    rng = np.random.default_rng(seed)
    ends = 0
    for _ in range(steps):
        mask = fast.action_masks()
        if rng.random() < 0.05:  # now and then an illegal action
            action = int(rng.choice(np.flatnonzero(~mask)))
        else:
            action = int(rng.choice(np.flatnonzero(mask)))
        out = fast.step(action), slow.step(action)
        agree(fast, slow, *out)
        if out[0][2] or out[0][3]:
            ends += 1
            if rng.random() < 0.3:  # step on past the end, now and then
                agree(fast, slow, fast.step(0), slow.step(0))
            agree(fast, slow, fast.reset(), slow.reset())
    return ends


@pytest.mark.parametrize("rules", rule_variants(), ids=lambda r: r.name)
def test_compiled_step_equals_the_engines_under_every_rule_variant(rules):
    assert lockstep(rules, {"reward": "score"}, 300, 1) > 0
    lockstep(rules, {"obs_mode": "dict", "terminate_on_dead": False, "max_steps": 60}, 150, 2)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"obs_mode": "onehot", "reward": "win", "max_idle_passes": 1},
        {"obs_mode": "counts", "observe_stock": "full", "obs_dtype": "uint8"},
        {"obs_mode": "compact", "max_idle_passes": None, "max_steps": 70},
        {"obs_mode": "pettingzoo", "reward": "score", "goal": "all"},
        {"obs_mode": "rllib", "illegal_reward": -1.0},
        {"obs_mode": "flat", "obs_dtype": "uint8", "deals": range(3)},
    ],
)
def test_compiled_step_equals_the_engines_in_every_form(kwargs):
    for rules in ("relaxed", "msc", "two-pass"):
        assert lockstep(rules, kwargs, 200, 3) > 0


def test_a_win_bonus_scores_in_floats_on_both_paths():
    # game.score is an int, or a float where the scoring has a win bonus: the info keeps it
    scoring = {"pyramid_card": 5, "win_bonus": 100.0, "win_per_move": 0.5}
    lockstep("relaxed", {"reward": "score", "scoring": scoring}, 200, 4)
    fast, slow = pair("relaxed", reward="score", scoring=scoring)
    first = fast.reset(seed=0), slow.reset(seed=0)
    agree(fast, slow, *first)
    assert type(first[0][1]["score"]) is float
    # a won game, on the solver's winning line: the bonus counted alike on both paths
    lines = (winning_line(st.State(n, "relaxed"), budget=20_000) for n in range(50))
    deal, line = next((n, line) for n, line in enumerate(lines) if line)
    options = {"deal": deal}
    agree(fast, slow, fast.reset(options=options), slow.reset(options=options))
    for action in line:
        out = fast.step(action), slow.step(action)
        agree(fast, slow, *out)
    _, reward, terminated, _, info = out[0]
    moves = len(line)
    bonus = 100.0 - 0.5 * moves
    assert terminated and info["won"] and info["moves"] == moves
    assert info["score"] == 5 * 28 + bonus  # every pyramid card, then the bonus
    assert reward > bonus  # the last move's reward: its card(s) and the bonus


def test_an_illegal_action_raises_alike_and_changes_nothing():
    fast, slow = pair("relaxed", illegal_action="raise")
    for env in (fast, slow):
        env.reset(seed=5)
    action = int(np.flatnonzero(~fast.action_masks())[0])
    messages = []
    for env in (fast, slow):
        before = env.state.fields(), env._steps
        with pytest.raises(st.IllegalMove) as err:
            env.step(action)
        messages.append(str(err.value))
        assert (env.state.fields(), env._steps) == before
    assert messages[0] == messages[1]
    legal = fast.legal_actions()[0]
    agree(fast, slow, fast.step(legal), slow.step(legal))
