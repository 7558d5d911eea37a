"""What the benchmark-store tests share: a small run, its folder compared without the times,
agents' files made to order.
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import numpy as np

from pyramid_env import evaluation
from pyramid_env.agents import MLPPolicy
from pyramid_env.benchmark import chart, runner

RUN = {"rules": "msc", "seeds": "val[:6]", "workers": 1, "progress": False}
AGENTS = ["first-removal", "greedy"]


class Killed(BaseException):
    """A kill at a chosen moment (BaseException: nothing of ours catches it, as SIGKILL)."""


def no_chart(monkeypatch):
    monkeypatch.setattr(chart, "plot", lambda summaries, path, title: False)


def folder(out: Path) -> dict[str, object]:
    """Every file of a benchmark folder, with what varies between two runs taken out.

    CPU and wall times vary: the ``cpu`` columns, the table's CPU and time cells and the note's
    wall time. Everything else (rows, order, episodes, pages, settings) must be equal.
    """
    files = {}
    for path in sorted(out.rglob("*")):
        if path.is_dir():
            continue
        name = str(path.relative_to(out))
        text = path.read_bytes()
        if name == "digests.json":  # digests of rows with CPU times: which agents it lists
            text = sorted(json.loads(text))
        elif name.endswith(".csv"):
            rows = list(csv.DictReader(io.StringIO(text.decode())))
            text = [
                {k: v for k, v in r.items() if k not in ("cpu", "cpu_per_deal", "seconds")}
                for r in rows
            ]
        elif name == "benchmark.md":
            text = re.sub(r"\| [0-9.n/a]+ ms \| \d+ s \|", "| T |", text.decode())
            text = re.sub(r"\d+ s\s+wall", "W", text)
        files[name] = text
    return files


def policy_file(path: Path, outputs: int = 327, inputs: int = 905, layers: int = 2) -> Path:
    rng = np.random.default_rng(0)
    sizes = [inputs] + [8] * (layers - 1) + [outputs]
    ws = [
        (rng.normal(size=(a, b)), rng.normal(size=b))
        for a, b in zip(sizes, sizes[1:], strict=False)
    ]
    MLPPolicy(ws, "tanh", {"obs_mode": "onehot"}).save(path)
    return path


def record(monkeypatch) -> list[str]:
    """The names of the agents the benchmark plays from now on, in order."""
    played: list[str] = []

    def evaluate(agent, *args, **kwargs):
        played.append(agent.name)
        return evaluation.evaluate(agent, *args, **kwargs)

    monkeypatch.setattr(runner, "evaluate", evaluate)
    return played


def rows(out: Path, name: str = "benchmark.csv") -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO((out / name).read_text())))
