"""Learning curves: val win rate against training steps, per rule set, with reference lines.

    python -m experiments.plot_curves runs/*/eval.csv runs/*/*/eval.csv --out curves.png

Reads the ``eval.csv`` of training runs (``experiments.train_ppo`` writes one; a BC run's
fine-tuning writes one in its nested run folder) and each run's ``config.json`` for its rules and
val deals. For each rule set, one panel: a line per run, and dashed lines for the greedy agent
and the solver on the same val deals (evaluated here, so the references are this code's).
"""

from __future__ import annotations

import argparse
import csv
import json
from pathlib import Path

import gymnasium as gym
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import pyramid_env  # noqa: E402, F401  (registers the ids)
from pyramid_env.lab.figures import reference_lines, save  # noqa: E402


def load(path: Path) -> tuple[str, str, str, list[tuple[int, float]]]:
    """(rules, val seeds, label, [(timesteps, win rate)]) of one run's eval.csv."""
    cfg = json.loads((path.parent / "config.json").read_text())
    rules = gym.make(cfg["env_id"]).unwrapped.rules.name
    label = cfg["exp_name"].replace("_", " ")
    with open(path) as f:
        points = [(int(r["timesteps"]), float(r["win_rate"])) for r in csv.DictReader(f)]
    return rules, cfg["eval"]["seeds"], label, points


def main(argv: list[str] | None = None) -> Path:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("evals", nargs="+", type=Path, help="eval.csv files of training runs")
    p.add_argument("--out", type=Path, default=Path("results/curves.png"))
    args = p.parse_args(argv)
    runs = [load(path) for path in args.evals]
    presets = sorted({r[0] for r in runs})
    fig, axes = plt.subplots(1, len(presets), figsize=(6 * len(presets), 4), squeeze=False)
    for ax, rules in zip(axes[0], presets, strict=True):
        seeds = next(r[1] for r in runs if r[0] == rules)
        reference_lines(ax, rules, seeds, ["greedy", "solver"])
        for r_rules, _, label, points in runs:
            if r_rules == rules:
                xs, ys = zip(*points, strict=True)
                ax.plot(xs, [100 * y for y in ys], marker=".", label=label)
        ax.set_title(f"{rules}: val win rate ({seeds})", fontsize=10)
        ax.set_xlabel("training steps (env steps)")
        ax.set_ylabel("deals won (%)")
        ax.legend(fontsize=8, loc="lower right")
    return save(fig, args.out)


if __name__ == "__main__":
    main()
