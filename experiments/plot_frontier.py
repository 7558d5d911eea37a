r"""Honest play's price: each agent's share of the solver's wins against its CPU per deal.

    python -m experiments.plot_frontier --rules msc two-pass \
        --out experiments/figures/frontier.png

One panel per rule set, on the same ``test`` deals: ``pimc``'s curve over its samples per
decision (``results/pimc_curve/curve.csv``, from ``pimc_curve.py``) with 95% intervals, and the
other honest agents of the benchmark's table (``results/<rules>/benchmark.csv`` under
``--benchmarks``, from ``pyramid-env benchmark --rules R``) as points. A search that spends its
samples better than ``pimc`` lies above the curve; one that only spends fewer lies on it.
``pimc`` with other verdict budgets on the same deals (``--grid``, ``pimc_curve.py --budget``'s
rows, if the file exists) are points too: whether harder verdicts buy more than more samples.
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from pyramid_env.agents import PimcAgent  # noqa: E402
from pyramid_env.lab.figures import save  # noqa: E402

ROOT = Path(__file__).parents[1]

PIMC_BUDGET = PimcAgent().budget  # positions a verdict: pimc_curve's default
POINTS = ["greedy", "scout", "expit-{rules}", "expit-search-{rules}"]


def curve(path: Path, rules: str) -> tuple[str, list[dict[str, float]]]:
    """(seeds, rows by samples) of plain ``pimc`` under ``rules``; the last row per samples."""
    if not path.is_file():
        raise SystemExit(f"{path} does not exist: run experiments/pimc_curve.py")
    with open(path) as f:
        rows = [r for r in csv.DictReader(f) if r["rules"] == rules and r["agent"] == "pimc"]
    seeds = {r["seeds"] for r in rows}
    if len(seeds) > 1:
        raise SystemExit(f"{path}: pimc under {rules} on several seed sets {sorted(seeds)}")
    fields = ("samples", "solver_normalised", "norm_ci_low", "norm_ci_high", "cpu_per_deal")
    by_samples = {int(r["samples"]): {k: float(r[k]) for k in fields} for r in rows}
    return (seeds.pop() if seeds else ""), [by_samples[n] for n in sorted(by_samples)]


def budget_points(path: Path, rules: str, seeds: str) -> list[dict[str, str]]:
    """Rows of ``pimc`` with another verdict budget under ``rules`` on ``seeds`` (if any)."""
    if not path.is_file():
        return []
    with open(path) as f:
        return [
            r
            for r in csv.DictReader(f)
            if r["rules"] == rules and r["seeds"] == seeds and r["agent"].startswith("pimc-budget")
        ]


def points(path: Path, rules: str) -> tuple[str, list[dict[str, str]]]:
    """(seeds, rows) of the benchmark's agents named in :data:`POINTS`, that exist."""
    if not path.is_file():
        raise SystemExit(f"{path} does not exist: run `pyramid-env benchmark --rules {rules}`")
    with open(path) as f:
        rows = list(csv.DictReader(f))
    names = [n.format(rules=rules) for n in POINTS]
    seeds = {r["seeds"] for r in rows}
    return seeds.pop() if len(seeds) == 1 else "", [r for r in rows if r["agent"] in names]


def main(argv: list[str] | None = None) -> Path:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", nargs="+", default=["msc", "two-pass"])
    p.add_argument("--curve", type=Path, default=Path("results/pimc_curve/curve.csv"))
    p.add_argument("--benchmarks", type=Path, default=Path("results/benchmark"))
    p.add_argument("--grid", type=Path, default=Path("results/pimc_grid/curve.csv"))
    p.add_argument("--out", type=Path, default=Path("results/frontier.png"))
    args = p.parse_args(argv)
    fig, axes = plt.subplots(1, len(args.rules), figsize=(6 * len(args.rules), 4.5), squeeze=False)
    for ax, rules in zip(axes[0], args.rules, strict=True):
        seeds, rows = curve(args.curve, rules)
        bench_seeds, others = points(args.benchmarks / rules / "benchmark.csv", rules)
        if rows and bench_seeds != seeds:
            raise SystemExit(
                f"{rules}: the curve is on {seeds!r}, the benchmark on {bench_seeds!r}"
            )
        x = [r["cpu_per_deal"] * 1000 for r in rows]
        y = [r["solver_normalised"] for r in rows]
        err = [[v - r["norm_ci_low"] for v, r in zip(y, rows, strict=True)],
               [r["norm_ci_high"] - v for v, r in zip(y, rows, strict=True)]]  # fmt: skip
        ax.errorbar(
            x, y, yerr=err, marker="o", capsize=3,
            label=f"pimc (samples per decision), {PIMC_BUDGET:,} positions a verdict",
        )  # fmt: skip
        for xi, yi, r in zip(x, y, rows, strict=True):
            ax.annotate(
                str(int(r["samples"])), (xi, yi), textcoords="offset points", xytext=(4, -12)
            )
        labelled = set()
        for r in budget_points(args.grid, rules, seeds):
            v, budget = float(r["solver_normalised"]), int(r["agent"].removeprefix("pimc-budget"))
            xi = float(r["cpu_per_deal"]) * 1000
            ax.errorbar(
                [xi], [v], marker="x", markersize=8, capsize=3, linestyle="none", color="grey",
                yerr=[[v - float(r["norm_ci_low"])], [float(r["norm_ci_high"]) - v]],
                label=None if budget in labelled else f"pimc, {budget:,} positions a verdict",
            )  # fmt: skip
            labelled.add(budget)
            ax.annotate(r["samples"], (xi, v), textcoords="offset points", xytext=(4, 6))
        for r in others:
            v = float(r["solver_normalised"])
            ax.errorbar(
                [float(r["cpu_per_deal"]) * 1000], [v], marker="*", markersize=11, capsize=3,
                yerr=[[v - float(r["norm_ci_low"])], [float(r["norm_ci_high"]) - v]],
                linestyle="none", label=r["agent"],
            )  # fmt: skip
        ax.set_xscale("log")
        ax.set_xlabel("CPU per deal (ms, log scale)")
        ax.set_ylabel("share of the solver's wins")
        ax.set_title(f"{rules}, {seeds or bench_seeds}: honest agents")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8, loc="lower right")
    return save(fig, args.out)


if __name__ == "__main__":
    main()
