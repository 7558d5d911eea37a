import csv
from pathlib import Path

import pytest

from experiments import plot_frontier

CURVE = ["rules", "seeds", "agent", "samples", "wins", "solver_winnable", "solver_normalised",
         "norm_ci_low", "norm_ci_high", "cpu_per_deal"]  # fmt: skip


def _write(path: Path, header: list[str], rows: list[list]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="") as f:
        csv.writer(f).writerows([header, *rows])


def _files(tmp_path: Path, bench_seeds: str = "test[:10]") -> list[str]:
    curve = tmp_path / "curve.csv"
    _write(curve, CURVE, [
        ["msc", "test[:10]", "pimc", 4, 5, 6, 0.5, 0.3, 0.7, 0.02],
        ["msc", "test[:10]", "pimc", 1, 4, 6, 0.4, 0.2, 0.6, 0.01],
        ["msc", "test[:10]", "pimc", 4, 6, 6, 1.0, 0.6, 1.0, 0.02],  # a re-run: the last counts
        ["msc", "test[:10]", "pimc-consistent", 4, 6, 6, 1.0, 0.6, 1.0, 0.09],
        ["two-pass", "val[:5]", "pimc", 4, 1, 2, 0.5, 0.1, 0.9, 0.05],
    ])  # fmt: skip
    header = ["agent", "kind", "seeds", "solver_normalised", "norm_ci_low", "norm_ci_high",
              "cpu_per_deal"]  # fmt: skip
    _write(tmp_path / "bench" / "msc" / "benchmark.csv", header, [
        ["greedy", "baseline", bench_seeds, 0.5, 0.3, 0.7, 0.001],
        ["expit-search-msc", "search", bench_seeds, 0.8, 0.5, 0.9, 0.01],
        ["solver", "clairvoyant", bench_seeds, 1.0, 1.0, 1.0, 0.002],
    ])  # fmt: skip
    _write(tmp_path / "grid.csv", CURVE, [
        ["msc", "test[:10]", "pimc-budget100000", 4, 6, 6, 1.0, 0.6, 1.0, 0.05],
        ["msc", "val[:10]", "pimc-budget100000", 4, 6, 6, 1.0, 0.6, 1.0, 0.05],  # other deals
        ["msc", "test[:10]", "pimc", 4, 6, 6, 1.0, 0.6, 1.0, 0.02],  # the default budget
    ])  # fmt: skip
    return ["--curve", str(curve), "--benchmarks", str(tmp_path / "bench"), "--grid",
            str(tmp_path / "grid.csv"), "--rules", "msc"]  # fmt: skip


def test_frontier_reads_plain_pimc_last_run_and_the_named_agents(tmp_path):
    args = _files(tmp_path)
    seeds, rows = plot_frontier.curve(tmp_path / "curve.csv", "msc")
    assert seeds == "test[:10]"
    assert [(r["samples"], r["solver_normalised"]) for r in rows] == [(1, 0.4), (4, 1.0)]
    _, points = plot_frontier.points(tmp_path / "bench" / "msc" / "benchmark.csv", "msc")
    assert [r["agent"] for r in points] == ["greedy", "expit-search-msc"]  # not the solver
    out = plot_frontier.main([*args, "--out", str(tmp_path / "f.png")])
    assert out.is_file() and out.stat().st_size > 1000


def test_frontier_adds_other_budgets_on_the_same_deals_when_there_are_some(tmp_path):
    _files(tmp_path)
    grid = plot_frontier.budget_points(tmp_path / "grid.csv", "msc", "test[:10]")
    assert [(r["agent"], r["seeds"]) for r in grid] == [("pimc-budget100000", "test[:10]")]
    assert plot_frontier.budget_points(tmp_path / "none.csv", "msc", "test[:10]") == []


def test_frontier_refuses_a_curve_and_benchmark_on_different_deals(tmp_path):
    with pytest.raises(SystemExit, match="test\\[:10\\].*val\\[:10\\]"):
        plot_frontier.main([*_files(tmp_path, "val[:10]"), "--out", str(tmp_path / "f.png")])


def test_frontier_names_a_missing_input_and_the_command_that_makes_it(tmp_path):
    args = _files(tmp_path)
    with pytest.raises(SystemExit, match="two-pass.*pyramid-env benchmark --rules two-pass"):
        plot_frontier.main([*args[:-1], "two-pass", "--out", str(tmp_path / "f.png")])
    with pytest.raises(SystemExit, match="none.csv does not exist.*pimc_curve.py"):
        plot_frontier.main(["--curve", str(tmp_path / "none.csv"), *args[2:]])
