"""Numbers in and out: the benchmark's numeric arguments have bounds, and a figure that does not
exist is written n/a.
"""

from __future__ import annotations

import re

import pytest

from pyramid_env import benchmark as bench
from pyramid_env.benchmark import runner
from pyramid_env.cli import main


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--workers", "100000"], "at most 256"),
        (["--workers", "257"], "at most 256"),
        (["--replays", "100000"], "--replays 100000"),
        (["--out", ""], "names no folder"),
        (["--seeds", "0-18446744073709551615"], "at most 2\\*\\*63-1"),
        (["--seeds", "5_000"], "bad seed spec"),
        (["--passes", "99999999999999999999999"], "rule passes="),
    ],
)
def test_benchmark_numbers_have_bounds(tmp_path, capsys, monkeypatch, args, message):
    monkeypatch.setattr(runner, "evaluate", lambda *a, **k: pytest.fail("played"))
    out = ["--out", str(tmp_path / "o")] if "--out" not in args else []
    code = main(["benchmark", "--agents", "greedy", "--no-progress", *out, *args])
    captured = capsys.readouterr()
    assert code == 2 and "Traceback" not in captured.err
    assert re.search(message, captured.err), captured.err


def test_moves_won_is_na_for_an_agent_that_never_wins():
    row = {"agent": "a", "kind": "baseline", "observe_stock": "seen", "win_rate": 0.0,
           "ci_low": 0.0, "ci_high": 0.5, "solver_normalised": float("nan"), "norm_ci_low": 0.0,
           "norm_ci_high": 1.0, "cards_left": 12.0, "moves_won": float("nan"),
           "cpu_per_deal": 0.001, "seconds": 1.0}  # fmt: skip
    line = bench.markdown([row]).splitlines()[-1]
    assert "nan" not in line and "| n/a |" in line
