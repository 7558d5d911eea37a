"""train_cards --loops and --init: a network whose blocks run again, or go on at its own depth."""

import numpy as np
import pytest

from experiments import card_data
from pyramid_env.engine.rules import get_rules
from pyramid_env.env import PyramidEnv

torch = pytest.importorskip("torch")

from experiments import train_cards  # noqa: E402
from pyramid_env.agents import CardNet  # noqa: E402


def test_loops_are_trained_stored_and_kept_or_changed_when_going_on(tmp_path):
    rules = get_rules("msc")
    deals = [1_000_040, 1_000_041]
    games = [card_data.label_game(rules, 0.1, 0, n) for n in deals]
    np.savez_compressed(tmp_path / "a.npz", rules=np.array("msc"),
                        **card_data.replay(rules, deals, games))  # fmt: skip
    args = ["--data", str(tmp_path / "a.npz"), "--arch", "tally", "--size", "small",
            "--steps", "4", "--batch", "8", "--eval-seeds", "val[:1]", "--plays", "policy:0.0",
            "--workers", "1", "--threads", "1", "--no-bf16"]  # fmt: skip

    def run(name: str, *more: str) -> tuple[dict, CardNet]:
        (r,) = train_cards.main([*args, *more, "--out", str(tmp_path / name)])
        return r, CardNet.load(tmp_path / name / f"tally_{r['positions']}_s0" / "net.npz")

    r, looped = run("looped", "--loops", "3")
    assert r["loops"] == 3 and looped.meta["loops"] == 3 and looped.meta["layers"] == 2
    assert "blocks.2.qkv.weight" not in looped.w  # three passes through the same two blocks
    start = str(tmp_path / "looped" / f"tally_{r['positions']}_s0" / "net.npz")
    kept, same = run("kept", "--init", start, "--steps", "0")
    assert kept["loops"] == 3 and same.meta["loops"] == 3
    obs = PyramidEnv("msc", obs_mode="counts").reset(options={"deal": 7})[0][None]
    np.testing.assert_allclose(same.forward(obs), looped.forward(obs), atol=1e-6)
    more, longer = run("more", "--init", start, "--steps", "0", "--loops", "5")
    assert more["loops"] == 5 and longer.meta["loops"] == 5
    assert np.abs(longer.forward(obs) - looped.forward(obs)).max() > 0  # the same weights, 5 times
    with pytest.raises(SystemExit):
        run("none", "--loops", "0")


def test_init_goes_on_at_the_files_own_depth_and_refuses_another_width(tmp_path):
    rules = get_rules("msc")
    games = [card_data.label_game(rules, 0.1, 0, 1_000_040)]
    np.savez_compressed(tmp_path / "a.npz", rules=np.array("msc"),
                        **card_data.replay(rules, [1_000_040], games))  # fmt: skip
    deep = train_cards.export(train_cards.build("tally", "small", layers=4), {})
    deep.save(tmp_path / "deep.npz")
    args = ["--data", str(tmp_path / "a.npz"), "--arch", "tally", "--init",
            str(tmp_path / "deep.npz"), "--steps", "0", "--eval-seeds", "val[:1]",
            "--plays", "policy:0.0", "--workers", "1", "--threads", "1", "--no-bf16"]  # fmt: skip
    (r,) = train_cards.main([*args, "--size", "small", "--out", str(tmp_path / "on")])
    kept = CardNet.load(tmp_path / "on" / f"tally_{r['positions']}_s0" / "net.npz")
    assert r["layers"] == 4 and kept.meta["layers"] == 4  # not the small size's 2
    for k, v in deep.w.items():  # zero steps: its own weights, as stored (float16)
        assert np.array_equal(kept.w[k], v.astype(np.float16).astype(np.float32)), k
    with pytest.raises(SystemExit, match="has width 48; --size base builds width 64"):
        train_cards.main([*args, "--size", "base", "--out", str(tmp_path / "wide")])
