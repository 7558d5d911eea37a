"""Env speed: one PyramidEnv stepping random masked actions, observation and mask included.

    python experiments/bench_env.py --steps 100000 --repeats 3

Each step reads ``info["action_mask"]``, picks a legal action uniformly and calls ``step``
(resets included). CartPole-v1 (raw env, random actions) is timed in the same run for scale.
Issue 4's target is 50,000 steps/s for the single env.
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
    args = p.parse_args(argv)
    out = {}
    for rules in args.rules:
        runs = [env_steps(rules, args.obs_mode, args.steps, r) for r in range(args.repeats)]
        out[rules] = round(statistics.median(runs))
    out["CartPole-v1"] = round(
        statistics.median(cartpole_steps(args.steps, r) for r in range(args.repeats))
    )
    for name, sps in out.items():
        print(f"{name:>12}: {sps:>8,} steps/s (median of {args.repeats})")
    return out


if __name__ == "__main__":
    main()
