"""Env speed: one PyramidEnv stepping random masked actions, observation and mask included.

    python -m experiments.bench_env --steps 100000 --repeats 3

Each step reads ``info["action_mask"]``, picks a legal action uniformly and calls ``step``
(resets included). CartPole-v1 (raw env, random actions) is timed in the same run for scale.
``--vector N`` also times ``PyramidVectorEnv`` of N games against Gymnasium's ``SyncVectorEnv``
of N ``PyramidEnv`` (total steps/s). Issue 4's targets: 50,000 steps/s for the single env, and
5x ``SyncVectorEnv`` at 64 games.
"""

from __future__ import annotations

import argparse
import statistics
import time

import gymnasium as gym
import numpy as np

from pyramid_env.env import PyramidEnv


def env_steps(rules: str, obs_mode: str, steps: int, seed: int) -> float:
    env = PyramidEnv(rules, obs_mode=obs_mode, max_steps=500)
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    start = time.perf_counter()
    for _ in range(steps):
        legal = np.flatnonzero(info["action_mask"])
        _, _, term, trunc, info = env.step(int(legal[rng.integers(len(legal))]))
        if term or trunc:
            _, info = env.reset()
    return steps / (time.perf_counter() - start)


def vector_steps(vec: gym.vector.VectorEnv, steps: int, seed: int) -> float:
    """Total steps/s (games x steps) of a vector env under random masked actions."""
    rng = np.random.default_rng(seed)
    _, info = vec.reset(seed=seed)
    n = vec.num_envs
    start = time.perf_counter()
    for _ in range(max(1, steps // n)):
        masks = info["action_mask"]
        u = rng.random(masks.shape) * masks  # a uniform legal action per row, vectorised
        _, _, _, _, info = vec.step(u.argmax(axis=1))
    return n * max(1, steps // n) / (time.perf_counter() - start)


def cartpole_steps(steps: int, seed: int) -> float:
    env = gym.make("CartPole-v1").unwrapped
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    for _ in range(steps):
        _, _, term, trunc, _ = env.step(int(rng.integers(2)))
        if term or trunc:
            env.reset()
    return steps / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> dict[str, int]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", nargs="+", default=["relaxed", "msc"])
    p.add_argument("--obs-mode", default="dict")
    p.add_argument("--steps", type=int, default=100_000)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--vector", type=int, default=0, help="also time vector envs of N games")
    args = p.parse_args(argv)
    out = {}
    for rules in args.rules:
        runs = [env_steps(rules, args.obs_mode, args.steps, r) for r in range(args.repeats)]
        out[rules] = round(statistics.median(runs))
    out["CartPole-v1"] = round(
        statistics.median(cartpole_steps(args.steps, r) for r in range(args.repeats))
    )
    if args.vector:
        from pyramid_env.env import PyramidVectorEnv

        rules = args.rules[0]
        ours = PyramidVectorEnv(args.vector, rules=rules, obs_mode=args.obs_mode)
        sync = gym.vector.SyncVectorEnv(
            [
                lambda: gym.make(
                    "pyramid_env:PyramidSolitaire-v0", rules=rules, obs_mode=args.obs_mode
                )
            ]
            * args.vector
        )
        for name, vec in ((f"vector{args.vector}", ours), (f"sync{args.vector}", sync)):
            runs = [vector_steps(vec, args.steps, r) for r in range(args.repeats)]
            out[name] = round(statistics.median(runs))
    for name, sps in out.items():
        print(f"{name:>12}: {sps:>8,} steps/s (median of {args.repeats})")
    return out


if __name__ == "__main__":
    main()
