"""Rendering a researcher can trust: the text and the picture show what the observation shows.

Also: videos record with the ``render`` extra, ``rgb_array`` never loads pygame, and the vector
env renders each game as the single env does.
"""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from pyramid_env.engine import CardError, Game, parse_board
from pyramid_env.engine.cards import CARD_NAMES, RANK
from pyramid_env.engine.layout import SLOTS
from pyramid_env.engine.notation import format_board
from pyramid_env.engine.rules import PRESETS
from pyramid_env.engine.state import STOCK_SIZE, face_up
from pyramid_env.env import observation as ob
from pyramid_env.env.pyramid_env import PyramidEnv
from pyramid_env.env.vector import PyramidVectorEnv
from tests.conftest import refused

ROOT = Path(__file__).parents[2]


def stock_tokens(text: str) -> list[str]:
    """The stock line's cards, ``??`` for hidden ones (``N face down`` -> N times ``??``)."""
    line = next(ln for ln in text.splitlines() if ln.startswith("stock:"))
    tokens = line.split()[1:]
    if tokens[1:] == ["face", "down"]:
        return ["??"] * int(tokens[0])
    return tokens


def expected_tokens(env: PyramidEnv, obs: dict) -> list[str]:
    """The stock in drawing order as the observation reveals it: a name where the rank is known."""
    s = env.state
    out = []
    for i in range(s.ptr, STOCK_SIZE):
        if s.left >> i & 1:
            card = s.deal.cards[SLOTS + i]
            seen = obs["stock"][i]
            assert seen in (RANK[card], ob.UNKNOWN)  # the observation never lies
            out.append(CARD_NAMES[card] if seen != ob.UNKNOWN else "??")
    return out


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_text_names_exactly_what_the_observation_reveals(preset):
    env = PyramidEnv(preset, render_mode="ansi")
    obs, info = env.reset(seed=11)
    env.action_space.seed(11)
    named_ever = set()
    for _ in range(250):
        text = env.render()
        tokens = stock_tokens(text)
        assert tokens == expected_tokens(env, obs), text
        assert len(tokens) == obs["counters"][2]  # every stock card is on the line
        named_ever |= {t for t in tokens if t != "??"}
        # the waste (and drawn card) are face up: named, and known to the observation
        for line in text.splitlines():
            if line.startswith(("waste:", "drawn:")):
                for name in line.split()[1:]:
                    if name != "..":
                        i = env.state.deal.cards.index(CARD_NAMES.index(name)) - SLOTS
                        assert obs["stock"][i] == RANK[CARD_NAMES.index(name)]
        obs, _, term, trunc, info = env.step(env.action_space.sample(info["action_mask"]))
        if term or trunc:
            break
    if preset == "msc":
        assert named_ever  # the face-up stock top is named


def test_text_shows_the_whole_stock_when_observed_in_full():
    env = PyramidEnv("relaxed", observe_stock="full", render_mode="ansi")
    env.reset(seed=4)
    assert env.render() == format_board(env.state)  # parseable, like the observation: all known
    assert parse_board(env.render(), "relaxed") == env.state


def test_msc_names_its_face_up_stock_top():
    env = PyramidEnv("msc", render_mode="ansi")
    env.reset(seed=2)
    top = CARD_NAMES[env.state.stock_cards[0]]
    assert f"stock: {top} ?? ??" in env.render()
    assert f"stock: {top} ?? ??" in format_board(env.state, hide_stock=True)
    game = Game(env.state.deal, "msc")
    assert f"stock: {top} ?? ??" in str(game)  # Game's board hides the stock the same way
    env.step(0)  # draw: the old top goes to the waste, the next one turns face up
    nxt = CARD_NAMES[env.state.stock_cards[0]]
    assert f"stock: {nxt} ??" in env.render() and f"waste: {top}" in env.render()


def test_seen_cards_are_named_after_a_pass():
    env = PyramidEnv("relaxed", render_mode="ansi", terminate_on_dead=False)
    env.reset(seed=5)
    assert "stock: 24 face down" in env.render()
    while env.state.stock_size:
        env.step(0)
    env.step(1)  # recycle: every card has been face up once, so the observation knows them
    assert env.render() == format_board(env.state)


def test_hidden_board_does_not_parse():
    s = Game(3, "msc").state
    for text in (format_board(s, hide_stock=True), format_board(s, known=0)):
        refused(parse_board, text, "msc", error=CardError, match="hidden")


# -- pictures -------------------------------------------------------------------------------------
def test_picture_size_and_stock_pile():
    pytest.importorskip("PIL")
    from pyramid_env.env import rendering as r

    env = PyramidEnv("relaxed", render_mode="rgb_array", terminate_on_dead=False)
    env.reset(seed=5)
    while env.state.stock_size:
        env.step(0)
    env.step(1)
    s = env.state
    assert env.known_stock() == s.left  # after a pass the observation knows the whole stock
    shown, hidden = env.render(), r.render_rgb(s, 0)
    assert shown.shape == (r.HEIGHT, r.WIDTH, 3) and r.WIDTH <= 800 and r.HEIGHT <= 500
    assert r.WIDTH % 2 == 0 and r.HEIGHT % 2 == 0  # encodable as video
    pile = np.s_[r.MARGIN : r.MARGIN + r.CARD_H, r.RIGHT : r.RIGHT + r.CARD_W]
    assert np.array_equal(shown[pile], hidden[pile])  # known or not, the pile lies face down
    line = np.s_[r.HEIGHT - r.MARGIN - r.TEXT - 4 :, :]
    assert not np.array_equal(shown[line], hidden[line])  # the stock line names what is known


def test_msc_picture_shows_the_face_up_top():
    pytest.importorskip("PIL")
    from pyramid_env.env import rendering as r

    s = Game(2, "msc").state
    up, down = r.render_rgb(s, face_up(s)), r.render_rgb(Game(2, "relaxed").state, 0)
    pile = np.s_[r.MARGIN : r.MARGIN + r.CARD_H, r.RIGHT : r.RIGHT + r.CARD_W]
    assert not np.array_equal(up[pile], down[pile])


def test_record_video(tmp_path):
    pytest.importorskip("PIL")
    pytest.importorskip("moviepy", reason="RecordVideo needs moviepy (the render extra)")
    from gymnasium.wrappers import RecordVideo

    env = RecordVideo(
        PyramidEnv("msc", render_mode="rgb_array"),
        video_folder=str(tmp_path / "videos"),
        episode_trigger=lambda episode: True,
        disable_logger=True,
    )
    obs, info = env.reset(seed=0)
    env.action_space.seed(0)
    for _ in range(8):
        obs, _, term, trunc, info = env.step(env.action_space.sample(info["action_mask"]))
        if term or trunc:
            break
    env.close()
    videos = list((tmp_path / "videos").glob("*.mp4"))
    assert videos and videos[0].stat().st_size > 1000


def _run(code: str) -> subprocess.CompletedProcess:
    """``code`` in a fresh interpreter with no screen, as on a server or in CI."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.pop("SDL_VIDEODRIVER", None)
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def test_rgb_array_never_imports_pygame():
    pytest.importorskip("PIL")
    done = _run(
        "import sys\n"
        "from pyramid_env.env.pyramid_env import PyramidEnv\n"
        "env = PyramidEnv('msc', render_mode='rgb_array')\n"
        "env.reset(seed=0); env.step(0); env.render(); env.close()\n"
        "assert 'pygame' not in sys.modules, 'pygame imported'\n"
    )
    assert done.returncode == 0, done.stderr


def test_headless_check_env_is_quiet():
    pytest.importorskip("PIL")
    pytest.importorskip("pygame")
    done = _run(
        "import gymnasium as gym, pygame, pyramid_env\n"
        "from gymnasium.utils.env_checker import check_env\n"
        "env = gym.make('PyramidSolitaire-MSC-v0', render_mode='rgb_array')\n"
        "check_env(env.unwrapped)  # renders every declared mode, human too\n"
        "assert pygame.mixer.get_init() is None, 'the audio mixer was started'\n"
    )
    assert done.returncode == 0, done.stderr
    for noise in ("ALSA", "XDG_RUNTIME_DIR", "Hello from the pygame community"):
        assert noise not in done.stderr + done.stdout


# -- the vector env -------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["ansi", "rgb_array"])
def test_vector_frames_match_single_envs(mode):
    if mode == "rgb_array":
        pytest.importorskip("PIL")
    n, seed = 3, 7
    vec = PyramidVectorEnv(n, rules="msc", render_mode=mode)
    assert vec.render() is None  # before reset
    singles = [PyramidEnv("msc", render_mode=mode) for _ in range(n)]
    obs, infos = vec.reset(seed=seed)
    for i, env in enumerate(singles):
        env.reset(seed=seed + i)
    rng = np.random.default_rng(0)
    for _ in range(12):
        frames = vec.render()
        assert isinstance(frames, tuple) and len(frames) == n
        for i, env in enumerate(singles):
            mine = env.render()
            assert np.array_equal(frames[i], mine) if mode == "rgb_array" else frames[i] == mine
            assert np.array_equal(vec.render(index=i), mine)
        actions = [int(rng.choice(np.flatnonzero(m))) for m in infos["action_mask"]]
        obs, _, term, trunc, infos = vec.step(actions)
        for env, a in zip(singles, actions, strict=True):
            env.step(a)
        if (term | trunc).any():
            break


def test_vector_render_modes():
    assert PyramidVectorEnv(2).render() is None
    with pytest.raises(ValueError, match="render_mode"):
        PyramidVectorEnv(2, render_mode="human")
    import gymnasium as gym

    vec = gym.make_vec("PyramidSolitaire-v0", num_envs=2, render_mode="ansi")
    vec.reset(seed=0)
    frames = vec.render()
    assert len(frames) == 2 and all("stock:" in f for f in frames)
