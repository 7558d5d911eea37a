"""The scaling curve: the network alone's share of the solver's wins against training positions.

    python -m experiments.plot_cards results/cards/msc results/cards/relaxed \
        --out experiments/figures/cards_scaling.png

Reads each folder's ``curve.jsonl`` (``experiments/train_cards.py``: one line per trained
network, its val figures for each way of playing) and ``reference.json`` (the hand-written
rules on the same deals). Per architecture, the mean over seeds of the best way of playing,
each seed a dot; dashed lines: ``greedy`` and ``greedy-careful``. Also writes
``summary.md`` in each folder: per architecture and size, the seeds' figures, their mean and a
bootstrap 95% interval of the mean over seeds (10,000 resamples of the seeds). Without
``--out``, the summaries only.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

import matplotlib
import numpy as np

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def best(run: dict) -> float:
    """The run's best val figure over its ways of playing (the one it ships with)."""
    return max(v["solver_normalised"] for v in run["val"])


def seed_interval(values: list[float], rng_seed: int = 0) -> tuple[float, float]:
    """A bootstrap 95% interval of the mean over seeds (the seeds resampled)."""
    rng = np.random.default_rng(rng_seed)
    x = np.asarray(values, float)
    means = x[rng.integers(0, len(x), (10_000, len(x)))].mean(axis=1)
    return float(np.quantile(means, 0.025)), float(np.quantile(means, 0.975))


def summary(runs: list[dict], ref: dict) -> str:
    """A Markdown table of the runs: per architecture and size, seeds, mean, interval."""
    rows = ["| network | positions | seeds | val, share of the solver's wins (each seed) "
            "| mean | 95% interval over seeds |", "|---|---|---|---|---|---|"]  # fmt: skip
    groups: dict[tuple[str, int], list[dict]] = defaultdict(list)
    for r in runs:
        groups[r["arch"], r["positions"]].append(r)
    for (arch, n), rs in sorted(groups.items()):
        rs = sorted(rs, key=lambda r: r["seed"])
        vals = [best(r) for r in rs]
        lo, hi = seed_interval(vals)
        each = ", ".join(f"{v:.3f} (s{r['seed']})" for v, r in zip(vals, rs, strict=True))
        rows.append(f"| {arch} | {n:,} | {len(vals)} | {each} | {np.mean(vals):.3f} "
                    f"| {lo:.3f} – {hi:.3f} |")  # fmt: skip
    for name in ("greedy", "greedy-careful"):
        rows.append(f"| `{name}` (rule) | | | | {ref[name]['solver_normalised']:.3f} | |")
    return "\n".join(rows) + "\n"


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("folders", type=Path, nargs="+")
    p.add_argument("--out", type=Path, help="the chart's file; without it, the summaries only")
    args = p.parse_args(argv)
    fig, axes = plt.subplots(1, len(args.folders), figsize=(5.5 * len(args.folders), 4.2))
    axes = [axes] if len(args.folders) == 1 else list(axes)
    for ax, folder in zip(axes, args.folders, strict=True):
        runs = [json.loads(line) for line in open(folder / "curve.jsonl")]
        by_arch: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
        steps: dict[tuple[str, int], int] = {}
        for r in runs:
            by_arch[r["arch"]][r["positions"]].append(best(r))
            steps[r["arch"], r["positions"]] = r["steps"]
        for arch, points in sorted(by_arch.items()):
            xs = sorted(points)
            ax.plot(xs, [sum(points[x]) / len(points[x]) for x in xs], marker="o", label=arch)
            for x in xs:
                ax.scatter([x] * len(points[x]), points[x], s=10, color="grey", zorder=3)
                mean = sum(points[x]) / len(points[x])
                label = f"{steps[arch, x] / 1000:g}k steps"  # the training budget of the point
                ax.annotate(label, (x, mean), textcoords="offset points", xytext=(4, -10),
                            fontsize=6, color="grey")  # fmt: skip
        ref = json.loads((folder / "reference.json").read_text())
        (folder / "summary.md").write_text(summary(runs, ref))
        for name, style in (("greedy", ":"), ("greedy-careful", "--")):
            ax.axhline(ref[name]["solver_normalised"], ls=style, color="k", label=name)
        ax.set_xscale("log")
        ax.set_xlabel("training positions")
        ax.set_ylabel("network alone, share of the solver's wins (val)")
        ax.set_title(runs[0]["rules"])
        ax.legend(fontsize=8)
    fig.tight_layout()
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(args.out, dpi=110)
    plt.close(fig)


if __name__ == "__main__":
    main()
