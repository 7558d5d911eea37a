"""paired_wins: the benchmark's episodes paired deal by deal, and McNemar's exact test."""

import csv

import pytest

from experiments import paired_wins
from pyramid_env.benchmark import run


def test_counts_are_the_episodes_of_a_real_run(tmp_path):
    run("msc", "test[:12]", ["greedy", "greedy-careful"], out=tmp_path, workers=1,
        progress=False, replays=0)  # fmt: skip
    with open(tmp_path / "episodes.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    won = {(r["agent"], int(r["deal"])) for r in rows if r["won"] == "True"}
    winnable = {int(r["deal"]) for r in rows if r["solver_won"] == "True"}
    assert winnable and won  # the file's cells are the strings the script compares with
    agents = paired_wins.load([tmp_path])
    assert sorted(agents) == ["greedy", "greedy-careful"]
    greedy_won = {d for d, (w, _) in agents["greedy"].items() if w}
    assert greedy_won == {d for a, d in won if a == "greedy"}
    both = {d for d in winnable if ("greedy", d) in won and ("greedy-careful", d) in won}
    text = paired_wins.table(agents, "greedy-careful")
    cells = text.splitlines()[2].split(" | ")
    assert cells[1] == str(len(winnable)) and cells[3] == str(len(both))


def test_mcnemar_exact():
    assert paired_wins.mcnemar(0, 6) == pytest.approx(2 / 64)
    assert paired_wins.mcnemar(3, 3) == 1.0
    assert paired_wins.mcnemar(0, 0) == 1.0
    # 10 against 26: R's binom.test(10, 36) gives 0.01133
    assert paired_wins.mcnemar(10, 26) == pytest.approx(0.0113, abs=1e-4)


def test_a_missing_reference_is_named(tmp_path):
    run("relaxed", "test[:3]", ["greedy"], out=tmp_path, workers=1, progress=False, replays=0)
    with pytest.raises(ValueError, match="--reference 'gc': not among the agents"):
        paired_wins.table(paired_wins.load([tmp_path]), "gc")
