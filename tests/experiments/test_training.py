"""The training scripts run end to end at tiny budgets; exported policies act as trained."""

import json

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
pytest.importorskip("torch")

from sb3_contrib import MaskablePPO  # noqa: E402

from experiments import plot_curves, ship_agent, train_bc, train_ppo, train_value  # noqa: E402
from pyramid_env.agents import MLPPolicy, PolicyAgent, Turn  # noqa: E402
from pyramid_env.env import PyramidEnv  # noqa: E402
from pyramid_env.lab.ppo import load_init, make_vec_env  # noqa: E402
from tests.conftest import play_turns  # noqa: E402

TINY_PPO = [
    "--total-timesteps", "256", "--set", "n_envs=2", "--set", "ppo.n_steps=64",
    "--set", "ppo.batch_size=64", "--set", "eval.every=128", "--set", "eval.seeds='val[:3]'",
]  # fmt: skip


def log_softmax(x):
    x = x - x.max()
    return x - np.log(np.exp(x).sum())


def test_train_ppo_tiny_run_writes_its_run_folder(tmp_path):
    metrics = train_ppo.main([*TINY_PPO, "--runs", str(tmp_path)])
    (run,) = tmp_path.iterdir()
    names = {p.name for p in run.iterdir()}
    assert {"config.json", "eval.csv", "best.npz", "model.zip", "metrics.json", "tb"} <= names
    assert metrics["timesteps"] >= 256 and len(metrics["evals"]) >= 2
    assert json.loads((run / "config.json").read_text())["ppo"]["n_steps"] == 64
    best = MLPPolicy.load(run / "best.npz")
    assert best.meta["rules"] == "relaxed" and best.meta["obs_mode"] == "onehot"
    assert plot_curves.main([str(run / "eval.csv"), "--out", str(tmp_path / "c.png")]).is_file()
    shipped = ship_agent.main([str(run / "best.npz"), "tiny", "--dest", str(tmp_path / "ship")])
    assert shipped.name == "tiny.npz" and MLPPolicy.load(shipped).meta == best.meta

    # The numpy export picks the same actions as the torch model it came from.
    model = MaskablePPO.load(run / "model.zip", device="cpu")
    exported = PolicyAgent(MLPPolicy.from_sb3(model))
    torch_agent = PolicyAgent(model, obs_mode="onehot")
    rng = np.random.default_rng(0)

    def choose(turn: Turn) -> int:
        logits = torch_agent.logits(turn.obs)
        assert np.allclose(log_softmax(exported.logits(turn.obs)), logits, atol=1e-4)
        action = exported.act(turn, rng)
        assert action == torch_agent.act(turn, rng)
        return action

    assert play_turns(PyramidEnv(obs_mode="onehot"), range(5), 30, choose) > 0


def test_train_bc_tiny_run_with_dagger_and_finetune(tmp_path):
    metrics = train_bc.main(
        [
            "--demo-deals", "12", "--epochs", "1", "--dagger-rounds", "1", "--dagger-deals", "3",
            "--finetune", "128", "--eval-seeds", "val[:3]", "--runs", str(tmp_path),
        ]
    )  # fmt: skip
    stages = [e["stage"] for e in metrics["evals"]]
    assert stages == ["BC", "BC+DAgger1"]
    assert metrics["evals"][1]["samples"] > metrics["evals"][0]["samples"] > 0
    (run,) = tmp_path.iterdir()
    assert (run / "bc.npz").is_file() and metrics["finetune"]["timesteps"] >= 128
    policy = MLPPolicy.load(run / "bc.npz")
    assert policy.meta["algo"] == "BC+DAgger1" and policy.layers[0][0].shape == (905, 256)


def test_bc_warm_start_copies_the_weights(tmp_path):
    metrics = train_bc.main(
        ["--demo-deals", "5", "--epochs", "1", "--dagger-rounds", "0", "--finetune", "0",
         "--eval-seeds", "val[:2]", "--runs", str(tmp_path)]
    )  # fmt: skip
    (run,) = tmp_path.iterdir()
    cfg, _ = train_ppo.load_config(TINY_PPO)
    model = MaskablePPO(
        "MlpPolicy", make_vec_env(cfg), n_steps=64, batch_size=64,
        policy_kwargs={"net_arch": {"pi": [256, 256], "vf": [256, 256]}}, device="cpu",
    )  # fmt: skip
    load_init(model, run / "bc.npz")
    obs = np.random.default_rng(0).random(905).astype(np.float32)
    assert np.allclose(
        MLPPolicy.from_sb3(model).logits(obs), MLPPolicy.load(run / "bc.npz").logits(obs), atol=1e-5
    )
    assert metrics["evals"][0]["stage"] == "BC"


def test_train_value_tiny_run_gives_a_working_value_agent(tmp_path):
    args = ["--deals", "40", "--epochs", "1", "--val-deals", "val[:4]", "--out", str(tmp_path)]
    metrics = train_value.main(args)
    assert metrics["examples"] > 500 and 0.3 < metrics["won_share"] < 1
    assert metrics["val"]["deals"] == 4
    net = MLPPolicy.load(tmp_path / "value.npz")
    assert net.meta["kind"] == "value" and net.meta["depth"] == 2
    assert net.layers[0][0].shape[0] == 485 and net.layers[-1][0].shape[1] == 1
    from pyramid_env.agents import LookaheadAgent, make_agent

    agent = make_agent(str(tmp_path / "value.npz"))
    assert isinstance(agent, LookaheadAgent) and agent.value is not None


def test_bc_endgame_learns_only_where_nothing_is_hidden():
    """demos.phase="known": greedy plays the first pass; every demonstration and DAgger label
    is at a position where every live stock card has been seen (nothing unknown in the
    observation), and the expert's moves there are the clairvoyant teacher's, now exact."""
    from pyramid_env.agents import make_agent, shipped_file
    from pyramid_env.env.observation import UNKNOWN

    env = train_bc.make_env({"env_id": "PyramidSolitaire-MSC-v0", "observe_stock": "seen",
                             "obs_mode": "onehot"})  # fmt: skip
    expert = make_agent("solver-greedy")
    known, everything = train_bc.Data(), train_bc.Data()
    train_bc.expert_demos(env, expert, range(12), known, phase="known")
    train_bc.expert_demos(env, expert, range(12), everything)
    stock = slice(56, 80)  # the packed observation's stock piece (pyramid 28, exposed 28)
    assert len(known) and not any((x[stock] == UNKNOWN).any() for x in known.obs)
    assert any((x[stock] == UNKNOWN).any() for x in everything.obs)
    policy = MLPPolicy.load(shipped_file("bc-msc"))
    before = len(known)
    train_bc.dagger_labels(env, policy, expert, range(12, 20), known, phase="known")
    assert len(known) > before and not any((x[stock] == UNKNOWN).any() for x in known.obs)
    with pytest.raises(ValueError, match="phase"):
        train_bc.hidden_by_greedy(env, None, "hidden")
