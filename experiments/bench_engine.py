"""Engine speed: random playouts, legal moves + apply per second on one core.

    python -m experiments.bench_engine --rules relaxed --steps 300000

Each step is one ``legal_ids`` call and one ``apply`` of a uniformly chosen legal move; a game
ends when it is over or after ``--max-moves`` moves (unlimited recycling never ends by itself),
then the next deal starts. Prints steps/s per preset (median of ``--repeats`` runs), as JSON with
``--json``. With ``--cartpole`` it also times Gymnasium's CartPole-v1 (raw ``step`` with random
actions, resets included) in the same run, so the figures can be read as ratios on a noisy machine.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time

from pyramid_env.engine import MOVES, PRESETS, State, apply, legal_ids


def playout_steps(rules: str, steps: int, max_moves: int, seed: int = 0) -> float:
    """Steps per second of random playouts until ``steps`` steps are done."""
    rng = random.Random(seed)
    choice = rng.choice
    done = 0
    deal_no = 0
    # Deal once outside the timed loop: dealing (a shuffle) is not a hot path.
    deals = [State(d, rules) for d in range(64)]
    start = time.perf_counter()
    while done < steps:
        s = deals[deal_no % len(deals)].copy()
        deal_no += 1
        for _ in range(max_moves):
            ids = legal_ids(s)
            if not ids:
                break
            apply(s, MOVES[choice(ids)])
            done += 1
    return done / (time.perf_counter() - start)


def cartpole_steps(steps: int, seed: int = 0) -> float:
    """Steps per second of CartPole-v1's raw env (no wrappers), for scale."""
    import gymnasium as gym

    env = gym.make("CartPole-v1").unwrapped
    env.reset(seed=seed)
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(steps):
        _, _, terminated, truncated, _ = env.step(rng.randrange(2))
        if terminated or truncated:
            env.reset()
    return steps / (time.perf_counter() - start)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", nargs="*", default=list(PRESETS))
    p.add_argument("--steps", type=int, default=200_000)
    p.add_argument("--max-moves", type=int, default=300)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--json", action="store_true")
    p.add_argument("--cartpole", action="store_true", help="also time CartPole-v1 for scale")
    args = p.parse_args()
    results = {}
    for rules in args.rules:
        runs = [
            playout_steps(rules, args.steps, args.max_moves, seed=r) for r in range(args.repeats)
        ]
        results[rules] = round(statistics.median(runs))
        if not args.json:
            print(f"{rules:>11}: {results[rules]:>9,} steps/s (median of {args.repeats})")
    if args.cartpole:
        runs = [cartpole_steps(args.steps, seed=r) for r in range(args.repeats)]
        results["CartPole-v1"] = round(statistics.median(runs))
        if not args.json:
            print(f"{'CartPole-v1':>11}: {results['CartPole-v1']:>9,} steps/s (reference)")
    if args.json:
        print(json.dumps({"python": platform.python_version(), "steps_per_s": results}))


if __name__ == "__main__":
    main()
