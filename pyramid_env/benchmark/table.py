"""The benchmark's table in markdown, and the machine it ran on, for the note under it."""

from __future__ import annotations

import math
import os
import platform
from typing import Any

from pyramid_env.agents.catalogue import agent_kind


def machine() -> str:
    """A one-line description of this machine (CPU model, cores, Python), for result notes."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"


def summary_kind(summary: dict[str, Any]) -> str:
    """A summary's kind: as the run records it, else from the agent's name."""
    return summary.get("kind") or agent_kind(summary["agent"])


def markdown(summaries: list[dict[str, Any]]) -> str:
    """The results table in markdown, one row per summary, in the order given."""
    lines = [
        "| agent | kind | stock order | win rate | 95% CI | solver-normalised | 95% CI "
        "| cards left | moves (won) | CPU / deal | time |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for s in summaries:
        cpu = s.get("cpu_per_deal", math.nan)
        norm = _figure(s["solver_normalised"], ".1%")  # n/a: no deal of the set is winnable
        span = "n/a" if norm == "n/a" else f"{s['norm_ci_low']:.1%} – {s['norm_ci_high']:.1%}"
        lines.append(
            f"| {s['agent']} | {summary_kind(s)} | {s['observe_stock']} | {s['win_rate']:.1%} | "
            f"{s['ci_low']:.1%} – {s['ci_high']:.1%} | {norm} | {span} | "
            f"{_figure(s['cards_left'], '.2f')} | {_figure(s['moves_won'], '.0f')} | "
            f"{_figure(1000 * cpu, '.1f')} ms | {s['seconds']:.0f} s |"
        )
    return "\n".join(lines)


def _figure(value: float, spec: str) -> str:
    """``value`` formatted, or ``n/a`` where there is none (a mean over no won deal: nan)."""
    return "n/a" if math.isnan(value) else format(value, spec)
