"""MaskablePPO on a Pyramid Solitaire id, evaluated on the val deals as it learns (``train`` extra).

:func:`train` is the loop behind ``python -m experiments.train_ppo`` and the fine-tuning stage
of ``experiments.train_bc`` (from the behaviour-cloned weights, ``init``). Training deals come
from the ``train`` seed set only; every ``eval.every`` steps the policy is exported to an
:class:`~pyramid_env.agents.MLPPolicy` and evaluated (deterministic, masked) on
``eval.seeds``: the figures the benchmark will report. The run folder holds the config,
TensorBoard logs, ``eval.csv``, ``best.npz``, ``model.zip`` and ``metrics.json``.
"""

from __future__ import annotations

import csv
import json
import time
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv
from tqdm import tqdm

import pyramid_env  # noqa: F401  (registers the ids)
from pyramid_env.agents import MLPPolicy, PolicyAgent
from pyramid_env.benchmark import machine
from pyramid_env.evaluation import evaluate
from pyramid_env.lab.ppo_nets import copy_layers
from pyramid_env.lab.shipping import ship as ship_policy


def env_kwargs(cfg: dict[str, Any]) -> dict[str, Any]:
    """Arguments of the training env: the config's observation, reward and rule knobs."""
    kw = {k: cfg[k] for k in ("observe_stock", "obs_mode", "reward") if k in cfg}
    return kw | dict(cfg.get("rules", {}))


def make_vec_env(cfg: dict[str, Any]) -> DummyVecEnv:
    """``n_envs`` training envs dealing from the ``train`` seed set only."""

    def make(i: int):
        def thunk() -> gym.Env:
            env = gym.make(
                cfg["env_id"], deals="train", max_steps=cfg["max_steps"], **env_kwargs(cfg)
            )
            env.reset(seed=cfg["seed"] * 1000 + i)
            return Monitor(env)

        return thunk

    return DummyVecEnv([make(i) for i in range(cfg["n_envs"])])


def rules_of(cfg: dict[str, Any]) -> Any:
    """The ``Rules`` the config trains on (the id's preset plus any knobs)."""
    return gym.make(cfg["env_id"], **env_kwargs(cfg)).unwrapped.rules


# -- evaluation during training --------------------------------------------------------------
class EvalCallback(BaseCallback):
    """Every ``every`` steps: export, evaluate on the val deals, log, keep the best; a bar."""

    def __init__(self, cfg: dict[str, Any], run: Path, meta: dict[str, Any]) -> None:
        """Evaluate per ``cfg["eval"]``; write into the folder ``run``; ``meta`` for exports."""
        super().__init__()
        self.cfg, self.run, self.meta = cfg, run, meta
        self.every = cfg["eval"]["every"]
        self.next_eval = 0
        self.best = -1.0
        self.rows: list[dict[str, Any]] = []
        self.start = time.time()
        self.bar: tqdm | None = None

    def _on_training_start(self) -> None:
        self.bar = tqdm(total=self.cfg["total_timesteps"], unit="step", desc="train")

    def _on_step(self) -> bool:
        self.bar.update(self.training_env.num_envs)
        if self.num_timesteps >= self.next_eval:
            self.evaluate()
            self.next_eval += self.every
        return True

    def _on_training_end(self) -> None:
        if not self.rows or self.rows[-1]["timesteps"] != self.num_timesteps:
            self.evaluate()
        self.bar.close()

    def evaluate(self) -> None:
        """Evaluate the current policy on the val deals and log it."""
        wall = time.time() - self.start
        meta = self.meta | {"timesteps": self.num_timesteps, "wall_s": round(wall)}
        policy = MLPPolicy.from_sb3(self.model, **meta)
        s = evaluate(
            PolicyAgent(policy, name=self.cfg["exp_name"]),
            rules_of(self.cfg),
            self.cfg["eval"]["seeds"],
            self.cfg["observe_stock"],
        ).summary()
        row = {
            "timesteps": self.num_timesteps,
            "wall_s": round(wall, 1),
            "win_rate": s["win_rate"],
            "solver_normalised": s["solver_normalised"],
            "cards_left": s["cards_left"],
        }
        self.rows.append(row)
        for k in ("win_rate", "solver_normalised", "cards_left"):
            self.logger.record(f"eval/{k}", s[k])
        self.logger.dump(self.num_timesteps)
        self.model.save(self.run / "model.zip")  # the latest checkpoint
        if s["win_rate"] > self.best:
            self.best = s["win_rate"]
            policy.meta["val_win_rate"] = s["win_rate"]
            policy.save(self.run / "best.npz")
        with open(self.run / "eval.csv", "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(row))
            w.writeheader()
            w.writerows(self.rows)
        self.bar.write(
            f"{self.num_timesteps:>9,} steps {wall:6.0f} s  val win {s['win_rate']:.3f}  "
            f"solver-normalised {s['solver_normalised']:.3f}  cards left {s['cards_left']:.2f}"
        )


def load_init(model: MaskablePPO, path: Path) -> None:
    """Copy an exported MLPPolicy's weights into the model's policy network (BC warm start)."""
    init = MLPPolicy.load(path)
    linears = [
        m
        for m in [*model.policy.mlp_extractor.policy_net, model.policy.action_net]
        if isinstance(m, torch.nn.Linear)
    ]
    if len(linears) != len(init.layers):
        raise ValueError(f"{path}: {len(init.layers)} layers, the model has {len(linears)}")
    copy_layers(linears, init)


def train(
    cfg: dict[str, Any], runs: Path, *, init: Path | None = None, ship: str | None = None
) -> dict[str, Any]:
    """Train per ``cfg`` in a new run folder under ``runs``; return the run's metrics.

    Args:
        cfg: the resolved config (:func:`pyramid_env.lab.config.read_config`).
        runs: the folder the run folder is made in.
        init: start from this policy ``.npz`` (behaviour cloning's weights).
        ship: copy the best policy to the shipped agents under this name.
    """
    torch.set_num_threads(cfg.get("threads", 1))
    torch.manual_seed(cfg["seed"])
    np.random.seed(cfg["seed"])
    run_name = f"{cfg['env_id']}__{cfg['exp_name']}__{cfg['seed']}__{int(time.time())}"
    run = runs / run_name
    run.mkdir(parents=True, exist_ok=True)
    (run / "config.json").write_text(json.dumps(cfg, indent=2))
    rules = rules_of(cfg)
    meta = {
        "algo": "MaskablePPO" + (" from BC" if init else ""),
        "rules": rules.name,
        "env_id": cfg["env_id"],
        "obs_mode": cfg["obs_mode"],
        "observe_stock": cfg["observe_stock"],
        "seed": cfg["seed"],
        "run": run_name,
    }
    ppo = dict(cfg["ppo"])
    net_arch = ppo.pop("net_arch")
    model = MaskablePPO(
        "MlpPolicy",
        make_vec_env(cfg),
        policy_kwargs={"net_arch": {"pi": net_arch, "vf": net_arch}},
        tensorboard_log=str(run / "tb"),
        seed=cfg["seed"],
        device="cpu",
        verbose=0,
        **ppo,
    )
    if init:
        load_init(model, init)
    callback = EvalCallback(cfg, run, meta)
    start = time.time()
    model.learn(cfg["total_timesteps"], callback=callback, tb_log_name="ppo")
    wall = time.time() - start
    model.save(run / "model.zip")
    metrics = {
        "run": run_name,
        "timesteps": model.num_timesteps,
        "wall_s": round(wall, 1),
        "steps_per_s": round(model.num_timesteps / wall),
        "best_val_win_rate": callback.best,
        "evals": callback.rows,
        "machine": machine(),
    }
    (run / "metrics.json").write_text(json.dumps(metrics, indent=2))
    if ship:
        ship_policy(run / "best.npz", ship)
    print(json.dumps({k: v for k, v in metrics.items() if k != "evals"}))
    return metrics
