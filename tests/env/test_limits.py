"""Numbers at their limits: every numeric knob has a range the observation holds, a value
beyond it is refused by name (never an ``OverflowError`` or a silently wrapped counter), the top
of each range plays; and the vector env's extras (torch scalar actions, ``render(index)``,
Gymnasium's partial reset) behave as Gymnasium's own vector envs do.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyramid_env.engine import Game, PyramidError
from pyramid_env.engine.errors import RulesError
from pyramid_env.engine.rules import MAX_PASSES, MAX_UNDO_LIMIT, get_rules
from pyramid_env.env import PyramidEnv, PyramidVectorEnv
from pyramid_env.seeds import seed_set
from tests.conftest import refused


@pytest.mark.parametrize("passes", [256, 300, 40000, 2**63, 10**23])
def test_passes_beyond_what_the_observation_holds_are_refused(passes):
    refused(
        PyramidEnv,
        passes=passes,
        error=RulesError,
        match=rf"rule passes={passes} must be an int in 1\.\.255",
    )
    refused(PyramidVectorEnv, 2, passes=passes, error=RulesError, match="rule passes=")


def test_the_most_passes_fit_the_observation_space_in_both_envs():
    env = PyramidEnv(passes=MAX_PASSES, max_steps=60)
    obs, _ = env.reset(seed=1)
    vec = PyramidVectorEnv(3, passes=MAX_PASSES, max_steps=60)
    vobs, _ = vec.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(60):
        assert env.observation_space.contains(obs)
        assert vec.observation_space.contains(vobs)
        assert obs["counters"][1] <= MAX_PASSES - 1  # recycles left: a byte, 255 is unlimited
        assert (vobs["counters"][:, 1] <= MAX_PASSES - 1).all()
        a = int(rng.choice(np.flatnonzero(env.action_masks())))
        obs, *_ = env.step(a)
        acts = [int(rng.choice(np.flatnonzero(m))) for m in vec.action_masks()]
        vobs, *_ = vec.step(np.array(acts))


@pytest.mark.parametrize("limit", [MAX_UNDO_LIMIT + 1, 2**63])
def test_undo_limit_has_an_upper_bound(limit):
    refused(
        get_rules,
        "relaxed",
        undo_limit=limit,
        error=RulesError,
        match="rule undo_limit=.* must be an int in 0..1,000,000",
    )
    # The top of the range plays (2**63 used to fail on the first move, in the deque).
    g = Game(0, get_rules("relaxed", undo_limit=MAX_UNDO_LIMIT))
    g.play(g.legal_moves()[0])
    g.undo()


@pytest.mark.parametrize(
    "scoring", [{"pyramid_card": 10**19}, {"win_bonus": 1e300}, {"clear_bonus": -(10**10)}]
)
def test_score_parameters_have_a_range(scoring):
    refused(get_rules, "relaxed", scoring=scoring, error=RulesError, match="scoring")


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"max_steps": 10**10}, "max_steps"),
        ({"max_idle_passes": 2**64}, "max_idle_passes"),
        ({"illegal_reward": 1e300}, "illegal_reward"),
    ],
)
def test_env_numbers_have_an_upper_bound(kwargs, name):
    refused(PyramidEnv, **kwargs, match=name)
    refused(PyramidVectorEnv, 2, **kwargs, match=name)


def test_vector_env_size_and_time_limit_have_an_upper_bound():
    refused(PyramidVectorEnv, 10**7, match="num_envs=10000000 is out of range")
    refused(PyramidVectorEnv, 2, max_episode_steps=2**70, match="max_episode_steps")


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=-(2**70), max_value=2**70))
def test_huge_integers_are_refused_or_played_never_crash(n):
    # Property: any integer for any numeric knob is taken (in range) or refused with our error.
    for make in (
        lambda: get_rules("relaxed", passes=n),
        lambda: get_rules("relaxed", undo_limit=n),
        lambda: get_rules("relaxed", scoring={"stock_card": n}),
        lambda: PyramidEnv(max_steps=n).reset(seed=0),
        lambda: PyramidEnv().reset(seed=n),
        lambda: PyramidEnv().reset(options={"deal": n}),
    ):
        try:
            make()
        except PyramidError:
            pass


def test_seed_spans_too_long_to_count_are_refused():
    for spec in ("0-18446744073709551615", "1-9223372036854775808"):
        refused(seed_set, spec, match="at most 2\\*\\*63-1")
        refused(PyramidEnv, deals=spec, match="deals: seed span")
    assert len(seed_set("1-9223372036854775807")) == 2**63 - 1


@pytest.mark.parametrize("spec", ["5_000", "\u0665", "1,\u0662", " 5 _0"])
def test_seed_specs_take_ascii_digits_only(spec):
    refused(seed_set, spec, match="bad seed spec")


def test_reset_seed_errors_are_ours():
    for bad in (-1, 1.5, "7", 2**64 * -1):
        refused(PyramidEnv().reset, seed=bad, match="seed=")
        refused(PyramidVectorEnv(2).reset, seed=bad, match="seed=")


def test_single_env_takes_a_torch_scalar_as_the_vector_env_does():
    torch = pytest.importorskip("torch")
    env = PyramidEnv()
    env.reset(seed=0)
    a = int(np.flatnonzero(env.action_masks())[0])
    obs, reward, *_ = env.step(torch.tensor(a))
    refused(env.step, torch.tensor(1.0), match="not an action id")
    refused(env.step, torch.tensor([a, a]), match="not an action id")


def test_vector_render_index_is_checked():
    vec = PyramidVectorEnv(3, render_mode="ansi")
    vec.reset(seed=0)
    assert vec.render(index=2) == vec.render()[2]
    for bad in (5, 3, -1, True):
        refused(vec.render, index=bad, match="index=")


# -- Gymnasium's partial reset ------------------------------------------------------------------
def _play(vec, steps, rng):
    for _ in range(steps):
        acts = [int(rng.choice(np.flatnonzero(m))) for m in vec.action_masks()]
        vec.step(np.array(acts))


def test_partial_reset_resets_the_masked_games_only():
    vec = PyramidVectorEnv(3, obs_mode="flat")
    vec.reset(seed=5)
    _play(vec, 7, np.random.default_rng(1))
    before, _ = vec.reset(seed=5, options={"reset_mask": np.array([False, False, True])})
    mask = np.array([True, False, True])
    obs, info = vec.reset(seed=11, options={"reset_mask": mask, "deal": [7, 8, 9]})
    # The games reset are dealt afresh, as a reset of that game alone would deal them.
    for i in (0, 2):
        single, _ = PyramidEnv(obs_mode="flat").reset(options={"deal": [7, 8, 9][i]})
        assert np.array_equal(obs[i], single)
        assert info["deal"][i] == [7, 8, 9][i] and info["moves"][i] == 0
    # Game 1 kept its position: 7 moves in.
    assert np.array_equal(obs[1], before[1]) and info["moves"][1] == 7
    assert info["_deal"].tolist() == mask.tolist() and info["seed"][0] == 11
    assert info["seed"][2] == 13  # seed + i, as a full reset gives game i


def test_partial_reset_matches_sync_vector_env():
    def make():
        return PyramidEnv(obs_mode="flat")

    sync = gym.vector.SyncVectorEnv([make, make])
    ours = PyramidVectorEnv(2, obs_mode="flat")
    a, _ = sync.reset(seed=3)
    b, _ = ours.reset(seed=3)
    assert np.array_equal(a, b)
    for mask in ([True, False], [False, True]):
        m = np.array(mask)
        a, ia = sync.reset(seed=40, options={"reset_mask": m})
        b, ib = ours.reset(seed=40, options={"reset_mask": m})
        assert np.array_equal(a, b)
        assert ia["_deal"].tolist() == ib["_deal"].tolist() == mask


@pytest.mark.parametrize(
    "mask",
    [[True, False], np.array([1, 0]), np.array([True]), np.array([False, False]), "all"],
)
def test_a_bad_reset_mask_is_refused(mask):
    vec = PyramidVectorEnv(2)
    vec.reset(seed=0)
    refused(vec.reset, options={"reset_mask": mask}, match="reset_mask")


def test_a_partial_reset_keeps_the_other_games_autoresets_due():
    # Game 0 ends (max_steps=3), then a partial reset of game 1 only: game 0 must still be
    # autoreset at the next step, as SyncVectorEnv does it.
    def make():
        return PyramidEnv(obs_mode="flat", max_steps=3)

    sync = gym.vector.SyncVectorEnv([make, make])
    ours = PyramidVectorEnv(2, obs_mode="flat", max_steps=3)
    a, _ = sync.reset(seed=7)
    b, _ = ours.reset(seed=7)
    for _ in range(3):
        acts = np.array([int(np.flatnonzero(m)[0]) for m in ours.action_masks()])
        a, ra, ta, tra, _ = sync.step(acts)
        b, rb, tb, trb, _ = ours.step(acts)
        assert np.array_equal(a, b) and np.array_equal(tra, trb)
    assert trb[0]
    m = np.array([False, True])
    a, _ = sync.reset(seed=40, options={"reset_mask": m})
    b, _ = ours.reset(seed=40, options={"reset_mask": m})
    assert np.array_equal(a, b)
    acts = np.array([int(np.flatnonzero(m)[0]) for m in ours.action_masks()])
    a, ra, _, _, ia = sync.step(acts)
    b, rb, _, _, ib = ours.step(acts)
    assert np.array_equal(a, b) and np.array_equal(ra, rb)
    assert ib["moves"][0] == 0 and ib["deal"][0] == ia["deal"][0]
