"""Masked PPO stepping the compiled vector env directly (CleanRL-shaped): runs and a benchmark.

    python -m experiments.ppo_fast --config configs/ppo_fast_relaxed.toml
    python -m experiments.ppo_fast --config configs/ppo_fast_relaxed.toml --seed 2 \
        --total-timesteps 500000 --set ppo.learning_rate=1e-4 --set obs_mode=compact
    python -m experiments.ppo_fast --bench --bench-steps 50000   # steps/s beside SB3's

Stable-Baselines3's MaskablePPO steps one Python env at a time; this trainer
(:mod:`pyramid_env.lab.ppo_fast`) steps all ``num_envs`` games of the vector env in one call.
Every ``eval.every`` steps the policy plays ``eval.seeds`` through :func:`pyramid_env.evaluate`
(deterministic, masked: the benchmark's figures). The run folder ``<runs>/<exp_name>__<seed>__
<time>/`` holds the config, TensorBoard logs (``tb/``), ``eval.csv``, ``metrics.json``, the
torch weights (``last.pt``, ``best.pt``) and, for an MLP or the card network, ``best.npz``:
the numpy ``MLPPolicy`` or ``CardNet`` the benchmark plays as a ``learned`` agent.
"""

from __future__ import annotations

import argparse
import csv
import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch

from pyramid_env.benchmark import machine
from pyramid_env.evaluation import evaluate
from pyramid_env.lab.config import add_config_args, config_from_args
from pyramid_env.lab.ppo_fast import CardPolicy, FlatNet, Trainer, check_config, export

ROOT = Path(__file__).parents[1]


# -- a run ---------------------------------------------------------------------------------------
def train(cfg: dict[str, Any], runs: Path, *, init: Path | None = None) -> dict[str, Any]:
    """Train per ``cfg`` in a new run folder under ``runs``; return the run's metrics."""
    from torch.utils.tensorboard import SummaryWriter

    check_config(cfg)
    run_name = f"{cfg['exp_name']}__{cfg['seed']}__{int(time.time())}"
    run = runs / run_name
    run.mkdir(parents=True, exist_ok=True)
    (run / "config.json").write_text(json.dumps(cfg, indent=2))
    tr = Trainer(cfg, init)
    meta = {
        "algo": "ppo_fast" + (" from init" if init else ""),
        "rules": cfg["rules"],
        "obs_mode": cfg["obs_mode"],
        "observe_stock": cfg["observe_stock"],
        "seed": cfg["seed"],
        "run": run_name,
    }
    writer = SummaryWriter(str(run / "tb"))
    every, seeds = cfg["eval"]["every"], cfg["eval"]["seeds"]
    rows: list[dict[str, Any]] = []
    best, train_s, train_cpu_s, next_eval = -1.0, 0.0, 0.0, 0
    start = time.time()

    def evaluate_now() -> None:
        nonlocal best
        agent = tr.policy_agent(cfg["exp_name"], meta | {"timesteps": tr.steps})
        s = evaluate(agent, cfg["rules"], seeds, cfg["observe_stock"]).summary()
        row = {
            "timesteps": tr.steps,
            "train_s": round(train_s, 1),
            "wall_s": round(time.time() - start, 1),
            "win_rate": s["win_rate"],
            "solver_normalised": s["solver_normalised"],
            "cards_left": s["cards_left"],
        }
        rows.append(row)
        for k in ("win_rate", "solver_normalised", "cards_left"):
            writer.add_scalar(f"eval/{k}", s[k], tr.steps)
        if s["win_rate"] > best:
            best = s["win_rate"]
            torch.save(tr.net.state_dict(), run / "best.pt")
            if isinstance(tr.net, FlatNet):
                export(tr.net, **meta, timesteps=tr.steps, val_win_rate=best).save(run / "best.npz")
            elif isinstance(tr.net, CardPolicy):
                tr.net.export(**meta, timesteps=tr.steps, val_win_rate=best).save(run / "best.npz")
        with open(run / "eval.csv", "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(row))
            w.writeheader()
            w.writerows(rows)
        print(
            f"{tr.steps:>10,} steps {train_s:7.1f} s training  val win {s['win_rate']:.3f}  "
            f"solver-normalised {s['solver_normalised']:.3f}",
            flush=True,
        )

    total = cfg["total_timesteps"]
    while True:
        if tr.steps >= next_eval:
            evaluate_now()
            next_eval += every
        if tr.steps >= total:
            break
        t0, c0 = time.perf_counter(), time.process_time()
        tr.collect()
        stats = tr.update(1.0 - (tr.steps - cfg["num_envs"] * cfg["num_steps"]) / total)
        train_s += time.perf_counter() - t0
        train_cpu_s += time.process_time() - c0
        for k, v in stats.items():
            writer.add_scalar(f"losses/{k}", v, tr.steps)
        writer.add_scalar("charts/steps_per_s", tr.steps / train_s, tr.steps)
        if tr.episodes:
            won, ret = np.mean(tr.episodes, axis=0)
            writer.add_scalar("charts/train_win_rate", won, tr.steps)
            writer.add_scalar("charts/episode_return", ret, tr.steps)
            tr.episodes.clear()
    if rows[-1]["timesteps"] != tr.steps:
        evaluate_now()
    writer.close()
    torch.save(tr.net.state_dict(), run / "last.pt")
    metrics = {
        "run": run_name,
        "timesteps": tr.steps,
        "train_s": round(train_s, 1),
        "wall_s": round(time.time() - start, 1),
        "train_cpu_s": round(train_cpu_s, 1),
        "steps_per_s": round(tr.steps / train_s),
        "steps_per_cpu_s": round(tr.steps / train_cpu_s),
        "best_val_win_rate": best,
        "evals": rows,
        "machine": machine(),
    }
    (run / "metrics.json").write_text(json.dumps(metrics, indent=2))
    print(json.dumps({k: v for k, v in metrics.items() if k != "evals"}))
    return metrics


# -- the benchmark -------------------------------------------------------------------------------
def bench(cfg: dict[str, Any], steps: int) -> dict[str, Any]:
    """Steps per second of the whole loop (collect + update) here and in SB3's MaskablePPO.

    Both train on the same observation form (one-hot; SB3 as its users run it, ``gym.make``
    envs in a ``DummyVecEnv``), the same actor and critic widths, the same rollout size,
    minibatches and epochs; no evaluation. Also the collect-only rate here (policy forward,
    masked sampling, env step).
    """
    import gymnasium as gym
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    import pyramid_env  # noqa: F401  (registers the ids)

    cfg = check_config(dict(cfg) | {"obs_mode": "onehot"})
    p = cfg["ppo"]
    batch = cfg["num_envs"] * cfg["num_steps"]
    out: dict[str, Any] = {
        "steps": steps,
        "num_envs": cfg["num_envs"],
        "batch": batch,
        "hidden": p["hidden"],
        "update_epochs": p["update_epochs"],
        "num_minibatches": p["num_minibatches"],
        "machine": machine(),
    }

    def timed(key: str, work: Any) -> None:
        t0, c0 = time.perf_counter(), time.process_time()
        n = work()
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        out[key] = {
            "steps": n,
            "wall_s": round(wall, 2),
            "cpu_s": round(cpu, 2),
            "steps_per_s": round(n / wall),
            "steps_per_cpu_s": round(n / cpu),
        }

    def fast(update: bool) -> int:
        tr = Trainer(cfg | {"total_timesteps": steps})
        while tr.steps < steps:
            tr.collect()
            if update:
                tr.update(1.0)
        return tr.steps

    timed("collect", lambda: fast(False))
    timed("ppo_fast", lambda: fast(True))
    n_envs = 8
    kw = {"observe_stock": cfg["observe_stock"], "obs_mode": "onehot", "reward": cfg["reward"]}

    def make(i: int):
        def thunk() -> gym.Env:
            env = gym.make(
                "PyramidSolitaire-v0",
                rules=cfg["rules"],
                deals="train",
                max_steps=cfg["max_steps"],
                **kw,
            )
            env.reset(seed=cfg["seed"] * 1000 + i)
            return env

        return thunk

    hidden = list(p["hidden"])
    model = MaskablePPO(
        "MlpPolicy",
        DummyVecEnv([make(i) for i in range(n_envs)]),
        n_steps=batch // n_envs,
        batch_size=batch // p["num_minibatches"],
        n_epochs=p["update_epochs"],
        learning_rate=p["learning_rate"],
        policy_kwargs={"net_arch": {"pi": hidden, "vf": hidden}},
        seed=cfg["seed"],
        device="cpu",
        verbose=0,
    )
    timed("sb3", lambda: model.learn(steps).num_timesteps)
    out["sb3_n_envs"] = n_envs
    for k in ("steps_per_s", "steps_per_cpu_s"):
        out[f"ratio_{k}"] = round(out["ppo_fast"][k] / out["sb3"][k], 1)
    return out


def summarise(runs: list[Path]) -> dict[str, Any]:
    """Val win rates of several runs (seeds) at each evaluation: mean, min and max, as a table.

    Also each run's training steps per second (wall and CPU) and its best val win rate.
    """
    metrics = [json.loads((r / "metrics.json").read_text()) for r in runs]
    steps = sorted(set.intersection(*({e["timesteps"] for e in m["evals"]} for m in metrics)))
    curve = []
    for t in steps:
        wins = [next(e["win_rate"] for e in m["evals"] if e["timesteps"] == t) for m in metrics]
        curve.append({"timesteps": t, "mean": round(float(np.mean(wins)), 4),
                      "min": min(wins), "max": max(wins), "runs": wins})  # fmt: skip
    keys = ("run", "timesteps", "train_s", "train_cpu_s", "steps_per_s", "steps_per_cpu_s",
            "best_val_win_rate", "machine")  # fmt: skip
    out = {"runs": [{k: m.get(k) for k in keys} for m in metrics], "curve": curve}
    print("| env steps | val win, mean | min | max |\n|---|---|---|---|")
    for c in curve:
        print(f"| {c['timesteps']:,} | {c['mean']:.3f} | {c['min']:.3f} | {c['max']:.3f} |")
    for m in out["runs"]:
        print(f"{m['run']}: {m['steps_per_s']:,} steps/s ({m['steps_per_cpu_s']:,} of CPU time), "
              f"best {m['best_val_win_rate']:.3f}")  # fmt: skip
    return out


CURVES = ("charts/train_win_rate", "losses/value_loss", "losses/entropy", "losses/clip_frac",
          "charts/steps_per_s")  # fmt: skip


def curves(run: Path) -> dict[str, list[tuple[int, float]]]:
    """A run's training curves from its TensorBoard log: (env steps, value) per update.

    A curve with no point is left out (no training game ended in a short run).
    """
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    log = EventAccumulator(str(run / "tb"))
    log.Reload()
    have = set(log.Tags()["scalars"])
    return {t: [(e.step, round(e.value, 4)) for e in log.Scalars(t)] for t in CURVES if t in have}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """The command line: train per the config, or ``--bench``, ``--summary`` or ``--curves``."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_config_args(p, ROOT / "configs" / "ppo_fast_relaxed.toml", ROOT / "runs")
    p.add_argument("--init", type=Path, help="start from a .pt of this trainer or a policy .npz")
    p.add_argument("--bench", action="store_true", help="time ppo_fast against SB3, no training")
    p.add_argument("--bench-steps", type=int, default=50_000, help="env steps each, --bench")
    p.add_argument("--out", type=Path, help="--bench, --summary, --curves: write them to this JSON")
    p.add_argument("--summary", type=Path, nargs="+", metavar="RUN", help="summarise run folders")
    p.add_argument("--curves", type=Path, metavar="RUN", help="a run's training curves, as JSON")
    args = p.parse_args(argv)
    cfg = config_from_args(args)
    torch.set_num_threads(cfg.get("threads", 1))
    if args.bench or args.summary or args.curves:
        if args.curves:
            out = curves(args.curves)
        else:
            out = summarise(args.summary) if args.summary else bench(cfg, args.bench_steps)
        if args.bench:
            print(json.dumps(out, indent=1))
        if args.out:
            args.out.parent.mkdir(parents=True, exist_ok=True)
            args.out.write_text(json.dumps(out, indent=1) + "\n")
        return out
    return train(cfg, args.runs, init=args.init)


if __name__ == "__main__":
    main()
