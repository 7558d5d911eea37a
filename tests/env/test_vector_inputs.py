"""The vector env's inputs: per-game reset options and seeds, action arrays, its own constructor
arguments; bad input is refused leaving every game as it was, and each game is the game a single
env deals from the same deal. ``pytest -m slow`` runs the properties with many more examples.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import event
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from pyramid_env.engine import IllegalMove, deal, legal_ids
from pyramid_env.env import N_ACTIONS, PyramidEnv, PyramidVectorEnv
from pyramid_env.env.kernel import ENDED
from tests.conftest import refused
from tests.env.input_strategies import (
    ACTIONS,
    BAD,
    GOOD_OPTION_VALUES,
    ONLY_DRAW,
    OPTION_VALUES,
    RANDOM,
    action_oracle,
    deal_oracle,
    fuzz,
    is_int,
    np_ints,
    options_oracle,
    outcome,
    reset_options,
    same,
)


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
    vec, twin = PyramidVectorEnv(2), PyramidVectorEnv(2)
    vec.reset(seed=0)
    twin.reset(seed=0)
    for actions in (
        [0, 0],
        (0, 0),
        [np.int64(0), np.uint8(0)],
        np.zeros(2, np.uint16),
        np.zeros(2, np.int8),
        np.array([0, 0], dtype=object),
    ):
        out = vec.step(actions)  # as an int64 array of the same ids does
        assert all(same(x, y) for x, y in zip(out, twin.step(np.zeros(2, np.int64)), strict=True))


def test_vector_constructor_checks_its_own_arguments():
    for n in (0, -1, 1.5, "4", True, None):
        assert "num_envs" in refused(PyramidVectorEnv, n)
    assert PyramidVectorEnv(np.int64(2)).num_envs == 2
    assert "human" in refused(PyramidVectorEnv, 2, render_mode="human")
    assert "human" in refused(PyramidVectorEnv, 2, rules={"render_mode": "human"})
    assert "max_step" in refused(PyramidVectorEnv, 2, max_step=3)
    assert PyramidVectorEnv(2, max_episode_steps=7).settings.max_steps == 7
    assert PyramidVectorEnv(2, max_steps=5, max_episode_steps=7).settings.max_steps == 5
    refused(PyramidVectorEnv, 2, max_episode_steps=0)


def vec_snapshot(vec: PyramidVectorEnv):
    """The games' positions, counters and cards (the kernel's arrays), and the deal numbers."""
    return vec._s.tobytes(), vec._cards.tobytes(), tuple(vec._numbers)


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
        playing = vec._s[:, ENDED] == 0
        illegal = [playing[i] and not masks[i][a] for i, a in enumerate(expected)]
        if any(illegal) and illegal_action == "raise":
            refused(vec.step, actions, error=IllegalMove)
            assert vec_snapshot(vec) == before
            continue
        out = vec.step(actions)
        out2 = twin.step(np.array(expected))
        assert all(same(x, y) for x, y in zip(out[:4], out2[:4], strict=True))
        obs, rewards, terminated, truncated, infos = out
        for i in np.flatnonzero(illegal):
            assert rewards[i] == vec.settings.illegal_reward
        over = terminated
        check_vector_invariants(vec, obs, infos, over)


test_vector_step_actions, test_vector_step_actions_slow = fuzz(
    data=st.data(),
    n=st.integers(1, 4),
    illegal_action=st.sampled_from(["penalty", "raise"]),
    seed=st.integers(0, 10**6),
)(_vector_step)
