"""The benchmark's chart: the win rate and the solver-normalised win rate, coloured by kind.

Needs matplotlib (the ``bench`` extra); without it no chart is drawn and the run says so.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

from pyramid_env.agents.catalogue import KINDS
from pyramid_env.benchmark.table import summary_kind

# One colour per kind (Okabe-Ito, distinguishable with the common colour-vision deficiencies).
KIND_COLOURS = {
    "baseline": "#56B4E9",
    "search": "#009E73",
    "learned": "#E69F00",
    "hybrid": "#F0E442",
    "clairvoyant": "#CC79A7",
}


def plot(summaries: list[dict[str, Any]], path: Path, title: str) -> bool:
    """Draw the two rates side by side, coloured by kind; True if written, False without matplotlib.

    Left the win rate, right the solver-normalised win rate, each with its 95% Wilson interval,
    the agents in the order given so a row reads across; the colours tell the kinds apart, so a
    clairvoyant ceiling is not mistaken for a rival.

    Args:
        summaries: rows as :func:`~pyramid_env.benchmark.runner.run` returns them (a
            missing ``kind`` is worked out).
        path: the PNG to write.
        title: the figure's title.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.patches import Patch
    except ImportError:
        return False
    names = [s["agent"] for s in summaries]
    kinds = [summary_kind(s) for s in summaries]
    panels = (
        ("win_rate", "ci_low", "ci_high", "win rate", "% of the deals"),
        (
            "solver_normalised",
            "norm_ci_low",
            "norm_ci_high",
            "solver-normalised win rate",
            "% of the deals the solver wins",
        ),
    )
    fig, axes = plt.subplots(
        1, 2, sharey=True, figsize=(10, 0.38 * len(names) + 1.8), layout="constrained"
    )
    for ax, (key, low, high, name, unit) in zip(axes, panels, strict=True):
        for i, (s, kind) in enumerate(zip(summaries, kinds, strict=True)):
            rate = s[key]
            if math.isnan(rate):  # no deal of the set is winnable (or none was played)
                ax.text(1, i, "n/a", va="center", fontsize=8)
                continue
            # Clamped: at 100% the interval's top can round a hair below the rate.
            err = [[max(0.0, 100 * (rate - s[low]))], [max(0.0, 100 * (s[high] - rate))]]
            ax.barh(i, 100 * rate, xerr=err, color=KIND_COLOURS[kind], height=0.7, capsize=2.5)
            ax.text(100 * s[high] + 1.5, i, f"{rate:.1%}", va="center", fontsize=8)
        ax.set_xlim(0, 116)
        ax.set_xticks(range(0, 101, 20))
        ax.grid(axis="x", alpha=0.3)
        ax.set_axisbelow(True)
        ax.set_title(name, fontsize=10)
        ax.set_xlabel(f"{unit}, 95% Wilson interval", fontsize=9)
    axes[0].set_yticks(range(len(names)), names)
    axes[0].set_ylim(len(names) - 0.5, -0.5)  # first agent at the top
    present = [kind for kind in KINDS if kind in kinds]
    fig.legend(
        handles=[Patch(color=KIND_COLOURS[k], label=k) for k in present],
        loc="outside lower center",
        ncols=len(present),
        frameon=False,
        fontsize=9,
    )
    fig.suptitle(title, fontsize=11)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def plot_atomic(summaries: list[dict[str, Any]], path: Path, title: str) -> bool:
    """:func:`plot` to a temporary file, then renamed: never half a chart."""
    tmp = path.with_name(f".{path.stem}.tmp.png")
    try:
        drew = plot(summaries, tmp, title)
        if drew:
            os.replace(tmp, path)
        return drew
    finally:
        tmp.unlink(missing_ok=True)
