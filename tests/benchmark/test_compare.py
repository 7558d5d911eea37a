"""compare: agents paired deal by deal from benchmark runs, and McNemar's exact test."""

import csv
import json
import shutil

import pytest

from pyramid_env.benchmark import run
from pyramid_env.benchmark.compare import (
    Runs,
    across_seeds,
    compare,
    markdown,
    mcnemar,
    read_runs,
    seeds_against,
    seeds_markdown,
    seeds_paired_markdown,
)
from pyramid_env.cli import main
from pyramid_env.engine import PyramidError


@pytest.fixture(scope="module")
def msc_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("msc")
    run("msc", "test[:12]", ["greedy", "greedy-careful", "first-removal"], out=out, workers=1,
        progress=False, replays=0)  # fmt: skip
    return out


def _won(folder):
    with open(folder / "episodes.csv", newline="") as f:
        return {(r["agent"], int(r["deal"])) for r in csv.DictReader(f) if r["won"] == "True"}


def test_counts_are_the_episodes_of_a_real_run(msc_run):
    won = _won(msc_run)
    runs = read_runs([msc_run])
    assert sorted(runs.won) == ["first-removal", "greedy", "greedy-careful"]
    assert {d for d, w in runs.won["greedy"].items() if w} == {d for a, d in won if a == "greedy"}
    rows = {r.agent: r for r in compare(runs, "greedy-careful")}
    assert set(rows) == {"greedy", "first-removal"}
    for name, row in rows.items():
        mine = {d for a, d in won if a == name}
        ref = {d for a, d in won if a == "greedy-careful"}
        assert (row.deals, row.agent_wins, row.reference_wins) == (12, len(mine), len(ref))
        assert (row.both, row.only_agent, row.only_reference) == (
            len(mine & ref), len(mine - ref), len(ref - mine))  # fmt: skip
        assert row.p_value == mcnemar(row.only_agent, row.only_reference)
    only = compare(runs, "greedy-careful", ["greedy"])
    assert [r.agent for r in only] == ["greedy"]
    assert markdown(only).splitlines()[2].startswith(f"| greedy | 12 | {only[0].agent_wins} |")


def test_mcnemar_exact():
    assert mcnemar(0, 6) == pytest.approx(2 / 64)
    assert mcnemar(3, 3) == 1.0
    assert mcnemar(0, 0) == 1.0
    # 10 against 26: R's binom.test(10, 36) gives 0.01133
    assert mcnemar(10, 26) == pytest.approx(0.0113, abs=1e-4)
    assert mcnemar(26, 10) == mcnemar(10, 26)
    with pytest.raises(ValueError, match="at least 0"):
        mcnemar(-1, 3)


def test_runs_split_over_folders_join(msc_run, tmp_path):
    """Agents run apart on the same deals pair as if run together."""
    with open(msc_run / "episodes.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    for i, name in enumerate(["greedy", "greedy-careful"]):
        part = tmp_path / f"part{i}.csv"
        with open(part, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(r for r in rows if r["agent"] == name)
    apart = compare(read_runs([tmp_path / "part0.csv", tmp_path / "part1.csv"]))
    together = compare(read_runs([msc_run]), agents=["greedy"])
    assert apart == together


def test_bad_input_is_named(msc_run, tmp_path):
    runs = read_runs([msc_run])
    with pytest.raises(PyramidError, match="agent 'gc' is not in the runs; they hold first-rem"):
        compare(runs, "gc")
    with pytest.raises(PyramidError, match="agent 'nope' is not in the runs"):
        compare(runs, "greedy", ["nope"])
    cut = {d: w for d, w in runs.won["greedy"].items() if d != 0}
    short = Runs(runs.won | {"greedy": cut}, runs.solver_won)
    with pytest.raises(PyramidError, match="did not play the same deals \\(1 played by one only"):
        compare(short, "greedy-careful", ["greedy"])
    with pytest.raises(PyramidError, match="no runs given"):
        read_runs([])
    with pytest.raises(PyramidError, match="does not exist"):
        read_runs([tmp_path / "missing"])
    wrong = tmp_path / "wrong.csv"
    wrong.write_text("agent,deal,won\ngreedy,0,True\n")
    with pytest.raises(PyramidError, match="not a benchmark's episodes"):
        read_runs([wrong])


def test_runs_of_other_rules_or_deals_are_refused(msc_run, tmp_path):
    other = tmp_path / "other"
    shutil.copytree(msc_run, other)
    settings = json.loads((other / "run.json").read_text())
    (other / "run.json").write_text(json.dumps(settings | {"rules": "two-pass"}))
    with pytest.raises(PyramidError, match="a run of 'msc' and .* of 'two-pass'"):
        read_runs([msc_run, other])
    text = (msc_run / "episodes.csv").read_text().splitlines()
    first = text[1].split(",")
    flipped = first[:7] + ["False" if first[7] == "True" else "True"] + first[8:]
    (other / "episodes.csv").write_text("\n".join([text[0], ",".join(flipped)]) + "\n")
    (other / "run.json").write_text(json.dumps(settings))
    with pytest.raises(PyramidError, match="the solver's verdict differs"):
        read_runs([msc_run, other])
    won = first[:2] + ["False" if first[2] == "True" else "True"] + first[3:]
    (other / "episodes.csv").write_text("\n".join([text[0], ",".join(won)]) + "\n")
    with pytest.raises(PyramidError, match="played twice with other results"):
        read_runs([msc_run, other])


def test_command_line(msc_run, tmp_path, capsys):
    out = tmp_path / "paired.json"
    args = ["compare", str(msc_run), "--reference", "greedy", "--json", "--out", str(out)]
    assert main(args) == 0
    rows = json.loads(capsys.readouterr().out)
    names = [r.agent for r in compare(read_runs([msc_run]), "greedy")]
    assert [r["agent"] for r in rows["paired"]] == names
    assert json.loads(out.read_text()) == rows and rows["seeds"] == []
    assert main(["compare", str(msc_run)]) == 0
    assert "| greedy | 12 |" in capsys.readouterr().out  # greedy-careful is the default
    assert main(["compare", str(msc_run), "--agents", "greedy-careful"]) == 0  # only itself
    assert capsys.readouterr().out.startswith("| agent |")
    alone = tmp_path / "alone.csv"
    rows = (msc_run / "episodes.csv").read_text().splitlines()
    alone.write_text("\n".join([rows[0], *(r for r in rows if r.startswith("greedy-careful,"))]))
    assert main(["compare", str(alone)]) == 0
    assert capsys.readouterr().out == "(no agent besides the reference)\n"
    assert main(["compare", str(msc_run), "--reference", "nobody"]) == 2
    assert "agent 'nobody' is not in the runs" in capsys.readouterr().err


def test_seeds_pooled_are_each_seeds_share_of_the_solver_wins(msc_run):
    with open(msc_run / "episodes.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    winnable = {int(r["deal"]) for r in rows if r["solver_won"] == "True"}
    seeds = ["greedy", "greedy-careful", "first-removal"]
    pooled = across_seeds(read_runs([msc_run]), seeds)
    share = [len({d for a, d in _won(msc_run) if a == name} & winnable) / len(winnable)
             for name in seeds]  # fmt: skip
    assert pooled.deals == len(winnable) and pooled.per_seed == pytest.approx(share)
    assert pooled.mean == pytest.approx(sum(share) / 3)
    assert pooled.low <= min(share) and pooled.high >= max(share)  # the deals' luck widens it
    assert across_seeds(read_runs([msc_run]), seeds) == pooled  # seeded
    assert seeds_markdown([pooled]).splitlines()[2].startswith(f"| {', '.join(seeds)} | ")


def test_the_interval_spans_the_seeds_and_the_deals():
    deals = range(40)
    solver = dict.fromkeys(deals, True) | {40: False}
    won = {"all": dict.fromkeys([*deals, 40], True) | {40: False},
           "none": dict.fromkeys([*deals, 40], False),
           "half": {d: d % 2 == 0 for d in [*deals, 40]}}  # fmt: skip
    runs = Runs(won, solver)
    both = across_seeds(runs, ["all", "none"])
    assert both.deals == 40 and both.per_seed == (1.0, 0.0) and both.mean == 0.5
    assert (both.low, both.high) == (0.0, 1.0)  # a quarter of the draws take one seed twice
    alone = across_seeds(runs, ["all"])
    assert (alone.low, alone.mean, alone.high) == (1.0, 1.0, 1.0)  # no spread, no luck
    half = across_seeds(runs, ["half"])
    assert half.low < 0.5 < half.high and half.high - half.low == pytest.approx(0.31, abs=0.06)
    with pytest.raises(PyramidError, match="agent 'x' is not in the runs"):
        across_seeds(runs, ["x"])
    with pytest.raises(PyramidError, match="at least 1 each"):
        across_seeds(runs, ["all"], reps=0)
    with pytest.raises(PyramidError, match="'gap' did not play 1 of the deals the solver wins"):
        across_seeds(Runs(won | {"gap": {d: True for d in range(1, 41)}}, solver), ["gap"])
    with pytest.raises(PyramidError, match="the solver wins none"):
        across_seeds(Runs(won, dict.fromkeys(solver, False)), ["all"])


def test_command_line_pools_seeds(msc_run, capsys):
    args = ["compare", str(msc_run), "--across-seeds", "greedy", "greedy-careful"]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert text.startswith("| seeds |") and "McNemar" not in text  # seeds alone: no pairing
    assert main([*args, "--across-seeds", "first-removal", "--reference", "greedy"]) == 0
    text = capsys.readouterr().out
    assert "McNemar" in text and "| greedy, greedy-careful | " in text
    assert "| first-removal | " in text.split("| seeds |")[1]


def test_seeds_against_a_reference_count_each_deal_once():
    won = {"ref": {0: True, 1: False, 2: False, 3: True, 4: False},
           "a": {0: True, 1: True, 2: False, 3: False, 4: True},
           "b": {0: False, 1: True, 2: False, 3: True, 4: False}}  # fmt: skip
    runs = Runs(won, dict.fromkeys(range(5), True))
    row = seeds_against(runs, ["a", "b"], ["ref"])
    # deal 0: mean 1/2 < 1; 1: 1 > 0; 2: equal; 3: 1/2 < 1; 4: 1/2 > 0
    assert (row.deals, row.ahead, row.behind) == (5, 2, 2) and row.p_value == 1.0
    lopsided = Runs({"ref": dict.fromkeys(range(12), False), "a": dict.fromkeys(range(12), True)},
                    dict.fromkeys(range(12), True))  # fmt: skip
    assert seeds_against(lopsided, ["a"], ["ref"]).p_value == pytest.approx(2 / 2**12)
    assert "| a, b | ref | 5 | 2 | 2 | 1 |" in seeds_paired_markdown([row])
    # against another recipe's seeds, mean against mean: a wins 0, 1 and 4 (ref and b half of
    # 0 and 1, none of 4), loses 3 (which both win); deal 2 nobody wins
    other = seeds_against(runs, ["a"], ["ref", "b"])
    assert (other.ahead, other.behind) == (3, 1)
    with pytest.raises(PyramidError, match="agent 'x' is not in the runs"):
        seeds_against(runs, ["x"], ["ref"])


def test_command_line_pairs_seeds_with_the_reference(msc_run, capsys):
    args = ["compare", str(msc_run), "--across-seeds", "greedy", "first-removal"]
    assert main([*args, "--reference", "greedy-careful"]) == 0
    text = capsys.readouterr().out
    assert "| greedy, first-removal | greedy-careful | " in text
    assert main([*args, "--reference-seeds", "greedy-careful", "greedy"]) == 0
    assert "| greedy, first-removal | greedy-careful, greedy | " in capsys.readouterr().out
    assert main(args) == 0
    assert "sign test" not in capsys.readouterr().out  # seeds alone: no pairing
