r"""Expert iteration's learning curves: val win rate per round against CPU hours, per rule set.

    python -m experiments.plot_expit runs/expit_msc__*/ runs/expit_two-pass__*/ \\
        --out experiments/figures/expit.png

Reads each run folder's ``eval.csv`` (a row per round: the network alone on the val deals) and
``metrics.json`` (the search agent, measured once at the end). One panel per rule set: the
network per round (x: the CPU hours spent so far, search and training) with the rounds'
``delta``, the chosen round with the chosen ``delta`` as a square, the search agent as a star,
and dashed lines for greedy, greedy-careful (the heuristic the shipped runs' search follows),
``pimc`` (32 samples) and the solver on the same val deals, evaluated here so the references
are this code's.
"""

from __future__ import annotations

import argparse
import csv
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from pyramid_env.lab.figures import reference_lines, save  # noqa: E402

ROOT = Path(__file__).parents[1]


def load(run: Path) -> tuple[dict, list[dict[str, float]], dict]:
    """(config, rows of eval.csv, metrics) of one expert-iteration run folder."""
    cfg = json.loads((run / "config.json").read_text())
    with open(run / "eval.csv") as f:
        rows = [{k: float(v) for k, v in r.items()} for r in csv.DictReader(f)]
    metrics = json.loads((run / "metrics.json").read_text())
    return cfg, rows, metrics


def main(argv: list[str] | None = None) -> Path:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("runs", nargs="+", type=Path, help="run folders of train_expit.py")
    p.add_argument("--out", type=Path, default=Path("results/expit.png"))
    p.add_argument("--references", nargs="*",
                   default=["greedy", "greedy-careful", "pimc", "solver"])  # fmt: skip
    args = p.parse_args(argv)
    runs = [load(run) for run in args.runs]
    presets = sorted({cfg["rules"] for cfg, _, _ in runs})
    fig, axes = plt.subplots(1, len(presets), figsize=(6 * len(presets), 4), squeeze=False)
    for ax, rules in zip(axes[0], presets, strict=True):
        seeds = next(cfg["eval"]["seeds"] for cfg, _, _ in runs if cfg["rules"] == rules)
        reference_lines(ax, rules, seeds, args.references)
        for cfg, rows, metrics in runs:
            if cfg["rules"] != rules:
                continue
            xs = [r["cpu_h"] for r in rows]
            delta = cfg["policy"]["delta"]
            line = ax.plot(xs, [100 * r["val_win_rate"] for r in rows], marker="o",
                           label=f"network alone, delta {delta}")  # fmt: skip
            chosen = max(metrics["policy_delta"], key=lambda d: (d["val_win_rate"], -d["delta"]))
            best = xs[int(metrics["best_round"])]
            ax.plot([best], [100 * chosen["val_win_rate"]], marker="s", color=line[0].get_color(),
                    ls="none", label=f"network alone, delta {chosen['delta']}")  # fmt: skip
            search = metrics["search_agent"]
            cost = f"{1000 * search['cpu_per_deal']:.0f} ms CPU/deal"
            ax.plot([best], [100 * search["val_win_rate"]], marker="*",
                    markersize=12, color=line[0].get_color(), ls="none",
                    label=f"network + search ({cost})")  # fmt: skip
        ax.set_title(f"{rules}: expert iteration, val win rate ({seeds})", fontsize=10)
        ax.set_xlabel("CPU hours (search and training, cumulative)")
        ax.set_ylabel("deals won (%)")
        ax.set_ylim(0, None)
        ax.legend(fontsize=8, loc="lower right")
    return save(fig, args.out)


if __name__ == "__main__":
    main()
