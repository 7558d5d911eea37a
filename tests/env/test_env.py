"""The Gymnasium contract, masks against the engine, seeding, and no hidden-card leaks."""

import copy
import pickle

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import pyramid_env
from pyramid_env.engine import MOVES, IllegalMove, deal, legal_ids
from pyramid_env.env import N_ACTIONS, PyramidEnv, action_name, decode, encode
from pyramid_env.env.observation import UNKNOWN
from pyramid_env.env.pyramid_env import OBS_MODES
from tests.conftest import refused

IDS = list(pyramid_env.ENV_IDS)


def test_onehot_form_is_the_dict_form_one_hot():
    env = PyramidEnv("msc", obs_mode="onehot")
    d = PyramidEnv("msc")
    obs, _ = env.reset(seed=3)
    dobs, _ = d.reset(seed=3)
    assert obs.shape == (905,) and obs.dtype == np.float32
    assert obs[:392].reshape(28, 14).argmax(axis=1).tolist() == dobs["pyramid"].tolist()
    assert obs[:392].sum() == 28 and obs.min() == 0 and obs.max() == 1
    assert np.array_equal(obs[392:420], dobs["exposed"])
    assert obs[420:780].reshape(24, 15).argmax(axis=1).tolist() == dobs["stock"].tolist()
    assert obs[780:900].reshape(24, 5).argmax(axis=1).tolist() == dobs["stock_where"].tolist()
    assert np.allclose(obs[900:] * [255, 255, 24, 24, 28], dobs["counters"])


@pytest.mark.parametrize("env_id", IDS)
def test_gymnasium_check_env_on_every_id(env_id):
    env = gym.make(env_id)
    check_env(env.unwrapped, skip_render_check=True)
    assert env.unwrapped.rules.name == pyramid_env.ENV_IDS[env_id]


@pytest.mark.filterwarnings("ignore:.*not having a spec")
@pytest.mark.parametrize("obs_mode", OBS_MODES)
def test_check_env_on_every_observation_form(obs_mode):
    env = PyramidEnv("msc", obs_mode=obs_mode, render_mode="ansi")
    check_env(env)
    obs, _ = env.reset(seed=1)
    assert env.observation_space.contains(obs)


def test_action_codec_round_trips_every_id():
    assert N_ACTIONS == len(MOVES) == 327
    for a in range(N_ACTIONS):
        assert encode(decode(a)) == a and action_name(a)
    assert action_name(0) == "draw" and action_name(1) == "recycle"
    assert action_name(2) == "king 0" and action_name(326) == "pair WASTE+STOCK"
    with pytest.raises(ValueError, match="action 327 is out of range 0..326"):
        decode(327)


def random_masked_rollout(env, seed, steps=300):
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    trace = [obs]
    for _ in range(steps):
        mask = info["action_mask"]
        assert mask.dtype == np.int8 and mask.any()
        assert np.array_equal(mask.astype(bool), env.action_masks())
        a = int(rng.choice(np.flatnonzero(mask)))
        obs, r, term, trunc, info = env.step(a)
        trace.append((obs, r, term, trunc))
        if term or trunc:
            break
    return trace


@pytest.mark.parametrize("preset", list(pyramid_env.PRESETS))
def test_mask_equals_engine_legal_moves(preset):
    env = PyramidEnv(preset, max_steps=200)
    for seed in range(15):
        rng = np.random.default_rng(seed)
        _, info = env.reset(seed=seed)
        while True:
            s = env.state
            ids = legal_ids(s)
            over = not ids or pyramid_env.is_dead(s)
            expected = np.zeros(N_ACTIONS, bool)
            expected[[0] if over else ids] = True
            assert np.array_equal(env.action_masks(), expected)
            if over:
                break
            a = int(rng.choice(ids))
            _, _, term, trunc, info = env.step(a)
            assert "illegal_action" not in info
            if term or trunc:
                break


def test_same_seed_same_episode_and_options_choose_the_deal():
    a, b = PyramidEnv("two-card"), PyramidEnv("two-card")
    ta, tb = random_masked_rollout(a, 7), random_masked_rollout(b, 7)
    assert len(ta) == len(tb)
    for x, y in zip(ta[1:], tb[1:], strict=True):
        assert all(np.array_equal(x[0][k], y[0][k]) for k in x[0]) and x[1:] == y[1:]
    env = PyramidEnv()
    assert env.reset(seed=9)[1]["seed"] == 9
    _, info = env.reset(options={"deal": 42})
    assert info["deal"] == 42 and info["code"] == deal(42).code
    _, info2 = env.reset(options={"code": deal(42).code})
    _, info3 = env.reset(options={"cards": deal(42).text})
    assert info2["code"] == info3["code"] == info["code"]


def test_pickle_and_deepcopy_continue_identically():
    env = PyramidEnv("msc")
    random_masked_rollout(env, 3, steps=10)
    for make_clone in (lambda e: pickle.loads(pickle.dumps(e)), copy.deepcopy):
        clone = make_clone(env)
        for a in (0, 0, 0):
            x, y = env.step(a), clone.step(a)
            assert all(np.array_equal(x[0][k], y[0][k]) for k in x[0]) and x[1:4] == y[1:4]


def test_unseen_stock_cards_never_leak():
    # Two deals that differ only in two stock cards deep in the stock.
    cards = list(deal(5).cards)
    cards[50], cards[51] = cards[51], cards[50]
    a, b = PyramidEnv("relaxed"), PyramidEnv("relaxed")
    oa, _ = a.reset(options={"deal": 5})
    ob_, _ = b.reset(options={"cards": " ".join(pyramid_env.format_card(c) for c in cards)})
    for _ in range(20):  # draw 20 of 24: cards 51 and 52 stay face down
        assert all(np.array_equal(oa[k], ob_[k]) for k in oa)
        oa, *_ = a.step(0)
        ob_, *_ = b.step(0)
    assert (oa["stock"] == UNKNOWN).sum() == 4
    full = PyramidEnv("relaxed", observe_stock="full")
    of, _ = full.reset(options={"deal": 5})
    assert not (of["stock"] == UNKNOWN).any()


def test_illegal_actions_penalty_or_raise():
    env = PyramidEnv(reward="cards")
    env.reset(options={"deal": 0})
    bad = next(a for a in range(N_ACTIONS) if not env.action_masks()[a])
    before = env.state.fields()
    obs, r, term, trunc, info = env.step(bad)
    assert r == -0.01 and not term and env.state.fields() == before
    assert info["illegal_action"]["action"] == bad and info["illegal_action"]["reason"]
    strict = PyramidEnv(illegal_action="raise")
    strict.reset(options={"deal": 0})
    refused(strict.step, bad, error=IllegalMove, match=f"action {bad}: ")
    with pytest.raises(ValueError, match="out of range"):
        env.step(N_ACTIONS)


def test_rewards_and_episode_end():
    env = PyramidEnv("relaxed", reward="cards")
    for seed in range(5):
        total, term, trunc = 0.0, False, False
        env.reset(seed=seed)
        while not (term or trunc):
            mask = env.action_masks()
            _, r, term, trunc, info = env.step(int(np.flatnonzero(mask)[-1]))
            total += r
        assert total == pytest.approx((28 - info["pyramid_left"]) / 28)
        assert term == (info["won"] or pyramid_env.is_dead(env.state) or not legal_ids(env.state))
        if term:  # over: the mask allows action 0 alone
            assert env.action_masks().tolist() == [True] + [False] * (N_ACTIONS - 1)


def test_config_dict_and_bad_arguments():
    env = PyramidEnv({"rules": "two-card", "passes": 1, "reward": "win", "obs_mode": "flat"})
    assert env.rules.passes == 1 and env.reward_kind == "win" and env.obs_mode == "flat"
    with pytest.raises(ValueError, match="reward='x' is not one of"):
        PyramidEnv(reward="x")
    with pytest.raises(ValueError, match="unknown preset 'nope'"):
        PyramidEnv("nope")


def test_vector_autoreset_never_hands_out_an_empty_mask():
    envs = gym.make_vec("PyramidSolitaire-OnePass-v0", num_envs=3, vectorization_mode="sync")
    obs, info = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(200):
        masks = info["action_mask"]
        assert masks.shape == (3, N_ACTIONS) and masks.any(axis=1).all()
        actions = [int(rng.choice(np.flatnonzero(m))) for m in masks]
        obs, r, term, trunc, info = envs.step(actions)
    envs.close()


def test_rgb_array_pictures():
    pytest.importorskip("PIL")
    env = gym.make("PyramidSolitaire-TwoCard-v0", render_mode="rgb_array")
    check_env(env.unwrapped)  # includes Gymnasium's render checks
    env.reset(seed=3)
    first = env.render()
    assert first.dtype == np.uint8 and first.ndim == 3 and first.shape[2] == 3
    env.step(0)
    assert not np.array_equal(first, env.render())  # the drawn card appears
    text = PyramidEnv(render_mode="ansi")
    text.reset(seed=3)
    assert "stock: 24 face down" in text.render()  # nothing seen yet: no card named
    msc = PyramidEnv("msc", render_mode="ansi")  # the face-up stock top is seen, so named
    msc.reset(seed=3)
    top = pyramid_env.engine.format_card(msc.state.stock_cards[0])
    assert f"stock: {top} ?? ??" in msc.render()


def test_human_window(monkeypatch):
    pygame = pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")  # no screen in CI
    env = PyramidEnv("msc", render_mode="human")
    env.reset(seed=2)  # human mode draws on reset and step
    assert pygame.display.get_init() and pygame.display.get_surface().get_size()[0] > 100
    env.step(0)
    assert env.render() is None
    env.close()
    assert not pygame.display.get_init()
