"""RLlib training runs end to end at a tiny budget; its checkpoint is scored by evaluate().

Skipped where RLlib is not installed (the ``rllib`` extra). One tiny training run (one
iteration of 200 steps, one remote EnvRunner: the env is built in a process of Ray's) is shared
by the tests; ``train_rllib.main`` starts Ray on two CPUs without the dashboard and shuts it
down, so the evaluations here run with no Ray left.
"""

import json
import pickle

import numpy as np
import pytest

pytest.importorskip("ray.rllib")
pytest.importorskip("torch")

import ray  # noqa: E402

from experiments import train_rllib  # noqa: E402
from pyramid_env import evaluate  # noqa: E402
from pyramid_env.agents import PolicyAgent, Turn  # noqa: E402
from pyramid_env.agents.rllib import (  # noqa: E402
    RLModuleCheckpoint,
    load_rllib_agent,
    module_folder,
    restore_module,
)
from pyramid_env.env import PyramidEnv  # noqa: E402
from tests.conftest import refused

TINY = [
    "--total-timesteps", "200", "--set", "ppo.train_batch_size_per_learner=200",
    "--set", "ppo.minibatch_size=100", "--set", "ppo.num_epochs=1",
    "--set", "env_runners.num_envs_per_env_runner=2", "--set", "model.fcnet_hiddens=[32, 32]",
    "--set", "eval.seeds='val[:5]'",
]  # fmt: skip


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """``(run folder, metrics, what evaluate() was called with)`` of one tiny training run."""
    runs = tmp_path_factory.mktemp("runs")
    calls = []

    def spy(agent, *args, **kwargs):
        calls.append((agent, args, kwargs))
        return evaluate(agent, *args, **kwargs)

    try:
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(train_rllib, "evaluate", spy)
            metrics = train_rllib.main([*TINY, "--runs", str(runs)])
    finally:
        if ray.is_initialized():  # main shuts it down; this only if main failed to
            ray.shutdown()
    (run,) = runs.iterdir()
    return run, metrics, calls


def test_tiny_run_writes_its_run_folder_and_shuts_ray_down(trained):
    run, metrics, _ = trained
    assert not ray.is_initialized()
    names = {p.name for p in run.iterdir()}
    assert {"config.json", "eval.csv", "metrics.json", "tb", "checkpoint", "best"} <= names
    assert any((run / "tb").iterdir())
    cfg = json.loads((run / "config.json").read_text())
    assert cfg["ppo"]["train_batch_size_per_learner"] == 200 and cfg["rules"] == "msc"
    assert json.loads((run / "metrics.json").read_text()) == json.loads(json.dumps(metrics))
    # An Algorithm checkpoint, with the module where RLlib 2.x keeps it.
    ckpt = run / "checkpoint"
    assert (ckpt / "rllib_checkpoint.json").is_file()
    module = ckpt / "learner_group" / "learner" / "rl_module" / "default_policy"
    assert module_folder(ckpt) == module
    meta = json.loads((ckpt / "pyramid_env.json").read_text())
    assert meta["obs_mode"] == "rllib" and meta["observe_stock"] == "seen"
    assert metrics["timesteps"] >= 200 and metrics["iterations"] == 1
    assert metrics["train"][0]["episode_return_mean"] >= 0
    assert 0 <= metrics["train"][0]["win_rate"] <= 1


def test_the_trained_module_is_scored_by_evaluate(trained):
    run, metrics, calls = trained
    assert metrics["deals"] == 5 and metrics["seeds"] == "val[:5]"
    assert 0 <= metrics["win_rate"] <= 1 and 0 <= metrics["greedy"]["win_rate"] <= 1
    assert len(metrics["evals"]) == 1 and metrics["best_val_win_rate"] == metrics["win_rate"]
    assert (run / "eval.csv").read_text().count("\n") == 2  # header and the final evaluation
    agents = [agent for agent, _, _ in calls]
    assert agents[0] == "greedy"  # the reference, on the same deals
    (policy,) = agents[1:]
    assert isinstance(policy, PolicyAgent) and isinstance(policy.policy, RLModuleCheckpoint)
    assert policy.env_kwargs == {"obs_mode": "rllib", "observe_stock": "seen"}
    assert all(args[1] == "val[:5]" for _, args, _ in calls)


def test_load_rllib_agent_gives_the_same_report_on_one_and_two_workers(trained):
    run, metrics, _ = trained
    agent = load_rllib_agent(run / "checkpoint", name="tiny")
    assert load_rllib_agent(run).policy.checkpoint == agent.policy.checkpoint  # the run folder
    assert len(pickle.dumps(agent)) < 10_000  # the path goes to the workers, not the weights
    one = evaluate(agent, rules="msc", seeds="val[:5]", workers=1)
    two = evaluate(agent, rules="msc", seeds="val[:5]", workers=2)
    assert one == two and one.agent == "tiny"
    assert one.summary()["win_rate"] == metrics["win_rate"]
    assert one.summary()["cards_left"] == metrics["cards_left"]


def test_policy_agent_takes_an_rllib_module_as_it_is(trained):
    run, _, _ = trained
    module = restore_module(run / "checkpoint")
    direct = PolicyAgent(module, name="module")
    assert direct.env_kwargs == {"obs_mode": "rllib"}  # read off the module's observation space
    via_checkpoint = load_rllib_agent(run / "checkpoint")
    env = PyramidEnv("msc", obs_mode="rllib")
    rng = np.random.default_rng(0)
    obs, _ = env.reset(options={"deal": 3})
    for _ in range(20):
        legal = env.legal_actions()
        if not legal:
            break
        logits = direct.logits(obs)
        assert logits.shape == (327,)
        assert np.array_equal(logits, via_checkpoint.logits(obs))
        illegal = np.ones(327, bool)
        illegal[legal] = False
        assert logits[illegal].max() < -1e30 < logits[legal].min()  # the module's own mask
        action = direct.act(Turn(env.state, legal, env.known_stock(), obs), rng)
        assert action in legal
        obs, *_ = env.step(action)


def test_a_folder_without_a_module_is_refused_by_name(tmp_path):
    refused(load_rllib_agent, tmp_path, match="no RLlib RLModule checkpoint")


def test_the_docs_rllib_block_runs_as_written(tmp_path, monkeypatch):
    """The docs' RLlib example (docs/training.md; test_readme skips it where RLlib is missing)."""
    from tests.test_readme import blocks, check, with_checks

    (code,) = [c for _, c in blocks("python") if "ray.rllib" in c]
    monkeypatch.chdir(tmp_path)
    code, checks = with_checks(code)
    assert checks >= 1
    try:
        exec(compile(code, "docs/training.md (RLlib)", "exec"), {"__check__": check})
    finally:
        ray.shutdown()
    assert (tmp_path / "rllib-msc" / "rllib_checkpoint.json").is_file()
