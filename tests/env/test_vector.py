"""PyramidVectorEnv against N single PyramidEnvs, step for step, autoreset included."""

import gymnasium as gym
import numpy as np
import pytest

from pyramid_env.engine.invariants import rule_variants
from pyramid_env.env import N_ACTIONS, PyramidEnv, PyramidVectorEnv
from tests.conftest import refused


def same(a, b) -> bool:
    """Equal values and dtypes (a vector row against a single env's observation)."""
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return np.array_equal(a, b) and np.asarray(a).dtype == np.asarray(b).dtype


def row(obs, i):
    return {k: v[i] for k, v in obs.items()} if isinstance(obs, dict) else obs[i]


def same_info(vinfo, i, info) -> bool:
    """Game ``i`` of the vector infos carries every key of the single env's info, equal."""
    for key, value in info.items():
        if key == "illegal_action":  # the single env's reason text; the vector env raises or not
            continue
        if key not in vinfo or not vinfo[f"_{key}"][i]:
            return False
        got = vinfo[key][i]
        if key == "score":
            if got != pytest.approx(value):
                return False
        elif not np.array_equal(got, value):
            return False
    return True


@pytest.mark.parametrize(
    ("preset", "kwargs"),
    [
        ("relaxed", {}),
        ("three-pass", {"obs_mode": "onehot"}),
        ("two-pass", {"obs_mode": "counts"}),
        ("msc", {"obs_mode": "counts", "observe_stock": "full", "max_steps": 50}),
        ("one-pass", {"obs_mode": "flat"}),
        ("msc", {"reward": "score", "obs_mode": "pettingzoo"}),
        ("two-card", {"observe_stock": "full", "obs_mode": "rllib", "max_steps": 40}),
        ("unlimited", {"reward": "win", "max_steps": 60}),
        ("two-pass", {"goal": "all", "reward": "score"}),
        ("relaxed", {"draw_count": 3, "terminate_on_dead": False, "max_steps": 80}),
        ("msc", {"obs_mode": "compact"}),
        ("two-card", {"obs_mode": "compact", "observe_stock": "full"}),
        ("unlimited", {"obs_mode": "onehot", "obs_dtype": "uint8"}),
        ("one-pass", {"obs_mode": "counts", "obs_dtype": "uint8", "reward": "score"}),
        ("msc", {"obs_mode": "flat", "obs_dtype": "uint8"}),
    ],
)
def test_vector_env_equals_single_envs_step_for_step(preset, kwargs):
    assert lockstep(preset, kwargs, 300) > 0  # the run went through autoresets


@pytest.mark.parametrize("rules", rule_variants(), ids=lambda r: r.name)
def test_vector_env_equals_single_envs_under_every_rule_variant(rules):
    # The "score" reward and info run the shared scoring function on arrays; the default
    # terminate_on_dead, the shared episode end.
    lockstep(rules, {"reward": "score"}, 150)


def lockstep(rules, kwargs, steps) -> int:
    """Step a vector env and single envs alike on random legal (and some illegal) actions.

    Every observation, reward, end flag and info must agree. Returns the number of autoresets.
    """
    n = 5
    vec = PyramidVectorEnv(n, rules=rules, **kwargs)
    singles = [PyramidEnv(rules, **kwargs) for _ in range(n)]
    vobs, vinfo = vec.reset(seed=10)
    for i, env in enumerate(singles):
        obs, info = env.reset(seed=10 + i)
        assert same(row(vobs, i), obs)
        assert same_info(vinfo, i, info)
    rng = np.random.default_rng(0)
    ended = [False] * n
    resets = 0
    for _ in range(steps):
        masks = vec.action_masks()
        actions = np.array([int(rng.choice(np.flatnonzero(m))) for m in masks])
        if rng.random() < 0.05:  # now and then an illegal action
            actions[0] = int(np.flatnonzero(~masks[0])[0])
        vobs, vr, vt, vtr, vinfo = vec.step(actions)
        for i, env in enumerate(singles):
            if ended[i]:  # NEXT_STEP autoreset: this step resets, reward 0
                obs, info = env.reset()
                r, t, tr = 0.0, False, False
                resets += 1
            else:
                obs, r, t, tr, info = env.step(int(actions[i]))
            assert same(row(vobs, i), obs), (i, rules)
            assert vr[i] == pytest.approx(r) and vt[i] == t and vtr[i] == tr
            assert same_info(vinfo, i, info), (i, rules, info)
            ended[i] = t or tr
    return resets


@pytest.mark.parametrize(
    ("preset", "idle_end"),
    # Two full passes, each ending with its recycle: 24 draws + 1 twice; under unlimited one
    # card starts on the waste, so the first pass has 23 draws. three-pass: the limit ends it.
    [("relaxed", 50), ("unlimited", 49), ("three-pass", None)],
)
def test_idle_passes_truncate_as_in_the_single_env(preset, idle_end):
    # A policy that only draws and recycles loops forever under unlimited passes.
    n = 3
    vec = PyramidVectorEnv(n, rules=preset, terminate_on_dead=False)
    singles = [PyramidEnv(preset, terminate_on_dead=False) for _ in range(n)]
    vec.reset(seed=4)
    for i, env in enumerate(singles):
        env.reset(seed=4 + i)
    ended = {}
    for step in range(1, 120):
        # draw or recycle when one is legal (else the first legal move: the last pass is over)
        actions = [int(np.flatnonzero(m[:2] if m[:2].any() else m)[0]) for m in vec.action_masks()]
        _, _, vt, vtr, vinfo = vec.step(actions)
        for i, env in enumerate(singles):
            if i in ended:
                continue
            _, _, t, tr, info = env.step(actions[i])
            assert (vt[i], vtr[i]) == (t, tr)
            assert same_info(vinfo, i, info)
            if tr:
                assert vinfo["truncated_by"][i] == info["truncated_by"] == "idle_passes"
                ended[i] = step
            elif t:
                ended[i] = None  # the rules ended it (dead deal, or no pass left)
        if len(ended) == n:
            break
    assert len(ended) == n
    if idle_end is None:
        assert set(ended.values()) == {None}
    else:
        truncated = [v for v in ended.values() if v is not None]
        assert truncated and set(truncated) == {idle_end}


def test_make_vec_builds_it_and_masks_are_never_empty():
    envs = gym.make_vec("PyramidSolitaire-OnePass-v0", num_envs=4)
    assert isinstance(envs, PyramidVectorEnv)
    _, info = envs.reset(seed=0)
    rng = np.random.default_rng(1)
    for _ in range(300):
        m = envs.action_masks()
        assert m.shape == (4, N_ACTIONS) and m.any(axis=1).all()
        assert np.array_equal(m.astype(np.int8), info["action_mask"])
        _, _, _, _, info = envs.step([int(rng.choice(np.flatnonzero(r))) for r in m])
    assert envs.observation_space.contains(envs.reset(seed=3)[0])


def test_deal_option_and_seeds_list():
    vec = PyramidVectorEnv(3)
    _, info = vec.reset(options={"deal": [5, 6, 7]})
    assert info["deal"].tolist() == [5, 6, 7]
    a, _ = vec.reset(seed=[1, 2, 3])
    b, _ = PyramidVectorEnv(3).reset(seed=1)  # seeds 1, 2, 3 as well
    assert same(a, b)


def test_illegal_actions_raise_with_the_reason_when_asked():
    vec = PyramidVectorEnv(2, illegal_action="raise")
    vec.reset(seed=0)
    mask = vec.action_masks()
    bad = int(np.flatnonzero(~mask[1])[-1])
    with pytest.raises(ValueError, match=r"env 1, action \d+: .+"):
        vec.step([int(np.flatnonzero(mask[0])[0]), bad])
    with pytest.raises(ValueError, match="out of range"):
        vec.step([N_ACTIONS, 0])
    quiet = PyramidVectorEnv(2)  # the default: a no-op with the illegal reward
    quiet.reset(seed=0)
    illegal = [int(np.flatnonzero(~m)[-1]) for m in quiet.action_masks()]
    _, r, t, _, _ = quiet.step(illegal)
    assert r.tolist() == [quiet.settings.illegal_reward] * 2 and not t.any()
    # Out of range is not an illegal move but a bad input, as in the single env: refused.
    refused(quiet.step, [N_ACTIONS, -1], match="env 0, action 327 is out of range 0..326")


@pytest.mark.parametrize("mode", ["onehot", "counts", "flat"])
def test_uint8_forms_are_the_float_forms_undivided(mode):
    # The same observation: one-hot entries alike, counts multiplied back (x255, x24, ...).
    a, _ = PyramidEnv("msc", obs_mode=mode).reset(seed=3)
    b, _ = PyramidEnv("msc", obs_mode=mode, obs_dtype="uint8").reset(seed=3)
    assert b.dtype == np.uint8 and a.shape == b.shape
    space = PyramidEnv("msc", obs_mode=mode, obs_dtype="uint8").observation_space
    assert space.contains(b)
    scale = space.high.astype(np.float32) if mode != "flat" else np.ones(len(a), np.float32)
    assert np.allclose(a * np.where(scale > 1, scale, 1), b)


def test_compact_rows_read_as_the_dict_form():
    env = PyramidEnv("msc", obs_mode="compact")
    obs, _ = env.reset(options={"deal": 5})
    assert obs.shape == (53, 5) and obs.dtype == np.uint8
    assert env.observation_space.contains(obs)
    d, _ = PyramidEnv("msc").reset(options={"deal": 5})
    assert obs[:28, 0].tolist() == d["pyramid"].tolist()
    assert obs[28:52, 0].tolist() == d["stock"].tolist()
    assert obs[:52, 1].tolist() == list(range(52))
    assert obs[52].tolist() == d["counters"].tolist()
    # under msc the stock's top card lies face up: seen, playable, "second stock card"
    assert obs[28].tolist() == [d["stock"][0], 28, 4, 1, 1]
    assert obs[21, 2:].tolist() == [6, 1, 1] and obs[0, 2:].tolist() == [5, 0, 1]


def test_obs_dtype_is_refused_where_a_form_has_its_own():
    refused(
        PyramidEnv, obs_mode="dict", obs_dtype="uint8", match="obs_dtype='uint8' is for the flat"
    )
    refused(
        PyramidVectorEnv,
        2,
        obs_mode="onehot",
        obs_dtype="int8",
        match="obs_dtype='int8' is not one of",
    )


def test_both_envs_read_one_settings_value():
    from pyramid_env.env.settings import ENV_DEFAULTS, EnvSettings

    env = PyramidEnv("msc", max_steps=9)
    vec = PyramidVectorEnv(2, rules="msc", max_steps=9)
    assert env.settings == vec.settings == EnvSettings.build("msc", max_steps=9)
    assert vec.settings.rules is vec.rules and env.max_steps == 9
    assert EnvSettings.build({"rules": "msc", "max_steps": 9}) == env.settings
    with pytest.raises(AttributeError):
        env.settings.max_steps = 3  # frozen
    assert set(ENV_DEFAULTS) <= set(PyramidEnv.__init__.__code__.co_varnames)


INFO_KEYS = ("deal", "code", "pyramid_left", "moves", "pass", "score", "won", "seed", "action_mask")


@pytest.mark.parametrize("mode", ["dict", "onehot", "compact", "counts"])
def test_step_infos_keep_gymnasiums_form_and_every_array_is_fresh(mode):
    # Games 0, 2, 4 only draw and recycle (the idle passes cut them), the others play at
    # random until max_steps cuts them: both kinds of truncated_by, and steps without one.
    n = 6
    vec = PyramidVectorEnv(n, obs_mode=mode, max_steps=60, terminate_on_dead=False)
    obs, info = vec.reset(seed=3)
    rng = np.random.default_rng(4)
    kinds, quiet = set(), 0
    for _ in range(250):
        masks = vec.action_masks()
        actions = [
            int(np.flatnonzero(m[:2] if i % 2 == 0 and m[:2].any() else m)[0])
            if i % 2 == 0
            else int(rng.choice(np.flatnonzero(m)))
            for i, m in enumerate(masks)
        ]
        last_obs, last = obs, info
        obs, _, _, trunc, info = vec.step(actions)
        extra = {"truncated_by", "_truncated_by"} if trunc.any() else set()
        assert set(info) == {*INFO_KEYS, *(f"_{k}" for k in INFO_KEYS), *extra}
        for key in INFO_KEYS:
            mask = info[f"_{key}"]
            assert mask.dtype == np.bool_ and mask.shape == (n,) and mask.all()
            assert len(info[key]) == n and info[key] is not last[key]
            assert not np.shares_memory(info[key], last[key])
        assert not np.shares_memory(info["_deal"], last["_deal"])
        for a, b in zip(
            obs.values() if mode == "dict" else [obs],
            last_obs.values() if mode == "dict" else [last_obs],
            strict=True,
        ):
            assert not np.shares_memory(a, b)
        if not extra:
            quiet += 1
            continue
        why = info["truncated_by"]
        assert why.dtype == object and info["_truncated_by"].tolist() == trunc.tolist()
        assert all((w is None) == (not t) for w, t in zip(why, trunc, strict=True))
        kinds |= {w for w in why if w is not None}
    assert kinds == {"max_steps", "idle_passes"} and quiet > 0
