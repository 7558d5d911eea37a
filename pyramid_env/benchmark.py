"""The benchmark: every agent on the same fixed deals, as a table, CSVs and a chart.

    pyramid-env benchmark                                  # relaxed, test[:1000], all agents
    pyramid-env benchmark --rules msc --agents greedy solver --seeds "val[:200]"

Default agents: every baseline, every shipped learned agent trained for the rules, and the
solver (the clairvoyant ceiling). Each is run through :func:`pyramid_env.evaluate` on the same
deals. Output folder (``--out``, default ``results/benchmark/<rules>``): ``benchmark.md`` (the
table), ``benchmark.csv`` (one row per agent), ``episodes.csv`` (one row per agent and deal) and
``benchmark.png`` (win rates with their 95% intervals; needs matplotlib, the ``bench`` extra).
"""

from __future__ import annotations

import csv
import os
import platform
import time
from pathlib import Path
from typing import Any

from pyramid_env.agents import BASELINES, SEARCH, shipped
from pyramid_env.engine.rules import get_rules
from pyramid_env.evaluation import Report, evaluate


def machine() -> str:
    """A one-line description of this machine (CPU model, cores, Python), for result notes."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"


def default_agents(rules: str) -> list[str]:
    """The agents a benchmark of ``rules`` runs when none are named.

    Every baseline, the search baselines that support ``rules``, the shipped learned agents
    trained for ``rules``, and the solver.
    """
    search = [name for name, cls in SEARCH.items() if cls.supports(get_rules(rules))]
    learned = [name for name, meta in shipped().items() if meta.get("rules") == rules]
    return [*BASELINES, *search, *learned, "solver"]


def markdown(summaries: list[dict[str, Any]]) -> str:
    """The results table in markdown."""
    lines = [
        "| agent | stock order | win rate | 95% CI | solver-normalised | 95% CI | cards left "
        "| moves (won) | time |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for s in summaries:
        lines.append(
            f"| {s['agent']} | {s['observe_stock']} | {s['win_rate']:.1%} | "
            f"{s['ci_low']:.1%} – {s['ci_high']:.1%} | "
            f"{s['solver_normalised']:.1%} | {s['norm_ci_low']:.1%} – {s['norm_ci_high']:.1%} | "
            f"{s['cards_left']:.2f} | {s['moves_won']:.0f} | {s['seconds']:.0f} s |"
        )
    return "\n".join(lines)


def plot(summaries: list[dict[str, Any]], path: Path, title: str) -> bool:
    """Bar chart of win rates with 95% intervals; False if matplotlib is not installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    names = [s["agent"] for s in summaries]
    rates = [100 * s["win_rate"] for s in summaries]
    err = [
        [r - 100 * s["ci_low"] for r, s in zip(rates, summaries, strict=True)],
        [100 * s["ci_high"] - r for r, s in zip(rates, summaries, strict=True)],
    ]
    fig, ax = plt.subplots(figsize=(7, 0.45 * len(names) + 1.2))
    ax.barh(names, rates, xerr=err, color="#4878a8", capsize=3)
    for i, r in enumerate(rates):
        ax.text(1.5, i, f"{r:.1f}%", va="center", fontsize=8, color="white")
    ax.invert_yaxis()
    ax.set_xlim(0, 105)
    ax.set_xlabel("deals won (%), 95% Wilson interval")
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def run(
    rules: str = "relaxed",
    seeds: str = "test[:1000]",
    agents: list[str] | None = None,
    observe_stock: str = "seen",
    out: str | Path | None = None,
    workers: int = 2,
    progress: bool = True,
) -> list[dict[str, Any]]:
    """Evaluate each agent on the deals, write the outputs and return the summaries."""
    start = time.time()
    get_rules(rules)  # an unknown preset fails here, before any work
    agents = agents or default_agents(rules)
    out = Path(out or Path("results") / "benchmark" / rules)
    out.mkdir(parents=True, exist_ok=True)
    reports: list[Report] = []
    for name in agents:
        reports.append(
            evaluate(name, rules, seeds, observe_stock, workers=workers, progress=progress)
        )
        print(markdown([reports[-1].summary()]).splitlines()[-1], flush=True)
    summaries = [r.summary() for r in reports]
    with open(out / "benchmark.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(summaries[0]))
        w.writeheader()
        w.writerows(summaries)
    with open(out / "episodes.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["agent", *reports[0].rows()[0]])
        for r in reports:
            w.writerows([r.agent, *row.values()] for row in r.rows())
    n = summaries[0]["deals"]
    note = (
        f"`{rules}`, deals {seeds} ({n}); stock order: what each agent may see of it "
        f"(`seen`: cards turned so far; `full`: all; `clairvoyant`: the oracles); "
        f"{machine()}; {workers} worker(s); {time.time() - start:.0f} s wall"
    )
    table = markdown(summaries)
    (out / "benchmark.md").write_text(f"{table}\n\n{note}\n")
    drew = plot(summaries, out / "benchmark.png", f"{rules}: {n} deals of {seeds}")
    print(f"\n{table}\n\n{note}")
    print(f"written to {out}/" + ("" if drew else " (no chart: matplotlib is not installed)"))
    return summaries


__all__ = ["default_agents", "machine", "markdown", "run"]
