"""Train PPO with RLlib (new API stack, action masking); evaluate on the val deals.

    python -m experiments.train_rllib --config configs/rllib_msc.toml
    python -m experiments.train_rllib --config configs/rllib_msc.toml --total-timesteps 4000 \
        --set eval.seeds='"val[:20]"' --set ppo.lr=1e-4 --seed 2

The same training on RLlib, to show the env works there (the method:
docs/experiments.md).
"""

from __future__ import annotations

import argparse
import csv
import json
import shutil
import time
from pathlib import Path
from typing import Any

import numpy as np
import ray
import torch
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from tensorboardX import SummaryWriter  # a dependency of ray[rllib]: no tensorboard needed

from pyramid_env.agents.rllib import (
    META_FILE,
    MaskedPPOTorchRLModule,
    PyramidMetricsCallback,
    load_rllib_agent,
)
from pyramid_env.benchmark import machine
from pyramid_env.engine.rules import get_rules
from pyramid_env.env.pyramid_env import PyramidEnv
from pyramid_env.evaluation import evaluate
from pyramid_env.lab.config import add_config_args, config_from_args

ROOT = Path(__file__).parents[1]

TRAIN_KEYS = {  # RLlib's result keys (under "env_runners") -> TensorBoard tags
    "episode_return_mean": "train/episode_return_mean",
    "episode_len_mean": "train/episode_len_mean",
    "win_rate": "train/win_rate",
    "pyramid_left": "train/pyramid_left",
}
LEARNER_KEYS = ("policy_loss", "vf_loss", "entropy", "mean_kl_loss", "vf_explained_var")


# -- configuration ---------------------------------------------------------------------------
def load_config(argv: list[str] | None) -> tuple[dict[str, Any], argparse.Namespace]:
    """The TOML config with command-line overrides applied (as ``train_ppo.py`` reads them)."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_config_args(p, ROOT / "configs" / "rllib_msc.toml", ROOT / "runs")
    args = p.parse_args(argv)
    cfg = config_from_args(args)
    return cfg, args


def env_config(cfg: dict[str, Any]) -> dict[str, Any]:
    """The training env's ``env_config``: ``PyramidEnv`` reads such a dict as its arguments."""
    kw = {k: cfg[k] for k in ("observe_stock", "reward", "max_steps") if k in cfg}
    return {"rules": cfg["rules"], "obs_mode": "rllib", "deals": "train", **kw} | dict(
        cfg.get("rule_knobs", {})
    )


def algo_config(cfg: dict[str, Any]) -> PPOConfig:
    """PPO on the new API stack (RLlib's default for PPO) with the masked module."""
    PyramidEnv(env_config(cfg))  # every env argument checked here, before Ray starts anything
    return (
        PPOConfig()
        # RLlib's default for PPO, said outright: the masked module works on this stack only.
        .api_stack(enable_rl_module_and_learner=True, enable_env_runner_and_connector_v2=True)
        .environment(PyramidEnv, env_config=env_config(cfg))
        .env_runners(**cfg.get("env_runners", {}))
        .training(**cfg.get("ppo", {}))
        .rl_module(
            rl_module_spec=RLModuleSpec(
                module_class=MaskedPPOTorchRLModule, model_config=dict(cfg.get("model", {}))
            )
        )
        .callbacks(PyramidMetricsCallback)
        # No CPU/RAM sampling thread (and its "install gputil" warning) in the results.
        .debugging(seed=cfg["seed"], log_sys_usage=False)
    )


# -- evaluation during training --------------------------------------------------------------
class Evaluator:
    """Saves the algorithm, evaluates the saved module on the val deals, logs, keeps the best."""

    def __init__(self, cfg: dict[str, Any], run: Path, writer: SummaryWriter) -> None:
        """Evaluate per ``cfg["eval"]`` on ``cfg``'s rules; write into the folder ``run``."""
        self.cfg, self.run, self.writer = cfg, run, writer
        self.rules = get_rules(cfg["rules"], **cfg.get("rule_knobs", {}))
        self.seeds = cfg["eval"]["seeds"]
        self.workers = cfg["eval"].get("workers", 1)
        self.best = -1.0
        self.rows: list[dict[str, Any]] = []
        self.last: dict[str, Any] = {}
        self.greedy = self._evaluate("greedy")

    def _evaluate(self, agent: Any) -> dict[str, Any]:
        """``evaluate``'s summary of ``agent`` on the config's rules, deals and stock view."""
        return evaluate(
            agent, self.rules, self.seeds, self.cfg["observe_stock"], workers=self.workers
        ).summary()

    def __call__(self, algo: Any, timesteps: int, wall: float) -> dict[str, Any]:
        """Save ``algo`` to ``checkpoint/``, evaluate it, log the row; the summary."""
        ckpt = self.run / "checkpoint"
        algo.save_to_path(ckpt)
        meta = {
            "algo": "RLlib PPO (new API stack, masked)",
            "rules": self.rules.name,
            "obs_mode": "rllib",
            "observe_stock": self.cfg["observe_stock"],
            "seed": self.cfg["seed"],
            "timesteps": timesteps,
            "run": self.run.name,
        }
        (ckpt / META_FILE).write_text(json.dumps(meta, indent=2))
        start = time.perf_counter()
        s = self._evaluate(load_rllib_agent(ckpt, name=self.cfg["exp_name"]))
        row = {
            "timesteps": timesteps,
            "wall_s": round(wall, 1),
            "win_rate": s["win_rate"],
            "solver_normalised": s["solver_normalised"],
            "cards_left": s["cards_left"],
            "eval_s": round(time.perf_counter() - start, 1),
        }
        self.rows.append(row)
        for k in ("win_rate", "solver_normalised", "cards_left"):
            self.writer.add_scalar(f"eval/{k}", s[k], timesteps)
        if s["win_rate"] > self.best:
            self.best = s["win_rate"]
            shutil.rmtree(self.run / "best", ignore_errors=True)
            shutil.copytree(ckpt, self.run / "best")
        with open(self.run / "eval.csv", "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(row))
            w.writeheader()
            w.writerows(self.rows)
        g = self.greedy
        print(
            f"{timesteps:>9,} steps {wall:6.0f} s  {self.seeds}: win {s['win_rate']:.3f} "
            f"(greedy {g['win_rate']:.3f})  solver-normalised {s['solver_normalised']:.3f} "
            f"(greedy {g['solver_normalised']:.3f})  cards left {s['cards_left']:.2f}",
            flush=True,
        )
        self.last = s
        return s


def log_iteration(writer: SummaryWriter, result: dict[str, Any], timesteps: int) -> dict[str, Any]:
    """One training iteration's figures: to TensorBoard, and as a row for ``metrics.json``."""
    runners = result.get("env_runners", {})
    learner = result.get("learners", {}).get("default_policy", {})
    row: dict[str, Any] = {"timesteps": timesteps, "iter_s": result.get("time_this_iter_s")}
    for key, tag in TRAIN_KEYS.items():
        if key in runners:
            row[key] = float(runners[key])
            writer.add_scalar(tag, row[key], timesteps)
    for key in LEARNER_KEYS:
        if key in learner:
            writer.add_scalar(f"learner/{key}", float(learner[key]), timesteps)
    if row["iter_s"]:
        writer.add_scalar("time/iteration_s", row["iter_s"], timesteps)
    return row


# -- main ------------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> dict[str, Any]:
    cfg, args = load_config(argv)
    torch.set_num_threads(cfg.get("threads", 1))  # the learner runs in this process
    torch.manual_seed(cfg["seed"])
    np.random.seed(cfg["seed"])
    run_name = f"{cfg['exp_name']}__{cfg['seed']}__{int(time.time())}"
    run = args.runs / run_name
    run.mkdir(parents=True, exist_ok=True)
    (run / "config.json").write_text(json.dumps(cfg, indent=2))
    config = algo_config(cfg)
    started_ray = not ray.is_initialized()
    if started_ray:  # a small footprint: no dashboard, the cores this config asks for
        ray.init(include_dashboard=False, **cfg.get("ray", {}))
    writer = SummaryWriter(str(run / "tb"))
    try:
        start = time.time()
        algo = config.build_algo()
        build_s = time.time() - start
        evaluator = Evaluator(cfg, run, writer)
        every = cfg["eval"].get("every", 0)
        next_eval = every if every else None
        iterations: list[dict[str, Any]] = []
        timesteps, train_s = 0, 0.0
        while timesteps < cfg["total_timesteps"]:
            result = algo.train()
            timesteps = int(result["num_env_steps_sampled_lifetime"])
            train_s += result["time_this_iter_s"]
            row = log_iteration(writer, result, timesteps)
            iterations.append(row)
            print(
                f"iter {len(iterations):>3} {timesteps:>9,} steps {row['iter_s']:5.1f} s  "
                f"return {row.get('episode_return_mean', float('nan')):.3f}  "
                f"train win {row.get('win_rate', float('nan')):.3f}",
                flush=True,
            )
            if next_eval is not None and next_eval <= timesteps < cfg["total_timesteps"]:
                evaluator(algo, timesteps, time.time() - start)  # the last one follows the loop
                while next_eval <= timesteps:
                    next_eval += every
        final = evaluator(algo, timesteps, time.time() - start)
        algo.stop()
    finally:
        writer.close()
        if started_ray:
            ray.shutdown()
    wall = time.time() - start
    metrics = {
        "run": run_name,
        "timesteps": timesteps,
        "iterations": len(iterations),
        "wall_s": round(wall, 1),
        "build_s": round(build_s, 1),
        "train_s": round(train_s, 1),
        "s_per_1000_steps": round(1000 * train_s / max(timesteps, 1), 3),
        "seeds": final["seeds"],
        "deals": final["deals"],
        "win_rate": final["win_rate"],
        "solver_normalised": final["solver_normalised"],
        "cards_left": final["cards_left"],
        "greedy": {k: evaluator.greedy[k] for k in ("win_rate", "solver_normalised")},
        "best_val_win_rate": evaluator.best,
        "eval": final,
        "evals": evaluator.rows,
        "train": iterations,
        "ray": ray.__version__,
        "machine": machine(),
    }
    (run / "metrics.json").write_text(json.dumps(metrics, indent=2))
    brief = ("evals", "train", "eval")
    print(json.dumps({k: v for k, v in metrics.items() if k not in brief}))
    return metrics


if __name__ == "__main__":
    main()
