"""The benchmark's console output, agent kinds, CSV and chart (tiny runs: 5 deals, workers=1)."""

import csv
import math
import shutil
from importlib import resources

import pytest

from pyramid_env.benchmark import agent_kind, by_kind, markdown, plan, plot, run, runner
from pyramid_env.engine.rules import get_rules
from pyramid_env.replay import Replay


def test_plan_comes_before_any_work_and_the_table_once(tmp_path, capsys, monkeypatch):
    # What was printed when each agent started: the plan before the first, nothing between.
    printed_before = []
    evaluate = runner.evaluate

    def spy(*args, **kwargs):
        printed_before.append(capsys.readouterr().out)
        return evaluate(*args, **kwargs)

    monkeypatch.setattr(runner, "evaluate", spy)
    run("relaxed", "test[:5]", ["first-removal", "greedy"], out=tmp_path, workers=1,
        progress=False, replays=0)  # fmt: skip
    assert len(printed_before) == 2
    header = printed_before[0]
    assert header.startswith("Benchmark plan: 2 agents, each on the same 5 deals")
    assert get_rules("relaxed").describe() in header
    assert "test[:5] (5 deals)" in header
    assert "stock order  seen" in header
    assert "workers      1 process per agent" in header
    assert "baseline: first-removal, greedy" in header
    assert f"output       {tmp_path}/" in header
    assert "| agent |" not in header and "| greedy |" not in header
    assert printed_before[1] == ""  # no row printed between one agent and the next
    rest = capsys.readouterr().out
    assert rest.count("| agent | kind |") == 1
    assert rest.count("| first-removal |") == 1 and rest.count("| greedy |") == 1
    assert rest.index("| agent |") < rest.index("`relaxed`, deals test[:5]")
    last = rest.rstrip().splitlines()[-1]
    assert last.startswith(f"written to {tmp_path}/: benchmark.md, benchmark.csv, episodes.csv")


def test_agent_kind_names_each_kind(tmp_path):
    assert agent_kind("greedy") == agent_kind("random") == "baseline"
    # The expert-iteration networks play greedy-careful's favourite among their near-best
    # moves: a network within a hand-written rule's ranking, not a network alone.
    assert agent_kind("expit-msc") == agent_kind("expit-two-pass") == "hybrid"
    assert agent_kind("expit-search-msc") == "search"
    assert agent_kind("lookahead") == "search"
    assert agent_kind("value-relaxed") == "search"  # a value network: search, learned leaf
    assert agent_kind("ppo-relaxed") == agent_kind("bc-msc") == "learned"
    assert agent_kind("solver") == agent_kind("solver-greedy") == "clairvoyant"
    trained = resources.files("pyramid_env.agents") / "trained"
    for shipped_name, copy, kind in [
        ("ppo-relaxed", "mine", "learned"),
        ("value-relaxed", "v", "search"),
    ]:
        with resources.as_file(trained / f"{shipped_name}.npz") as src:
            shutil.copy(src, tmp_path / f"{copy}.npz")
        assert agent_kind(str(tmp_path / f"{copy}.npz")) == kind
    with pytest.raises(ValueError, match="unknown agent 'gredy': one of random, "):
        agent_kind("gredy")
    with pytest.raises(ValueError, match="unknown agent"):
        agent_kind(str(tmp_path / "missing.npz"))


def test_by_kind_groups_in_table_order_keeping_the_given_order():
    given = ["solver", "ppo-relaxed", "greedy", "value-relaxed", "random", "lookahead"]
    assert by_kind(given) == [
        "greedy",
        "random",
        "value-relaxed",
        "lookahead",
        "ppo-relaxed",
        "solver",
    ]


def test_plan_lists_agents_by_kind_and_a_policy_s_own_stock_view(tmp_path):
    text = plan(
        "relaxed",
        "val[:3]",
        ["greedy", "lookahead", "bc-relaxed-full", "solver"],
        "seen",
        tmp_path,
        2,
    )
    lines = text.splitlines()
    assert "  agents       baseline: greedy" in lines
    assert "               search: lookahead" in lines
    assert "               learned: bc-relaxed-full (sees full)" in lines  # trained seeing it all
    assert "               clairvoyant: solver" in lines
    assert "  workers      2 processes per agent" in lines
    assert "val[:3] (3 deals)" in text


def test_run_checks_everything_before_printing_or_playing(tmp_path, capsys):
    out = tmp_path / "never"
    with pytest.raises(ValueError, match="unknown agent 'gredy'"):
        run("relaxed", "test[:2]", ["greedy", "gredy"], out=out, workers=1, progress=False)
    with pytest.raises(ValueError, match="lookahead searches free-stock rules only, not msc"):
        run("msc", "test[:2]", ["greedy", "lookahead"], out=out, workers=1, progress=False)
    with pytest.raises(ValueError, match="unknown seed set 'tset'"):
        run("relaxed", "tset", ["greedy"], out=out, workers=1, progress=False)
    assert capsys.readouterr().out == ""
    assert not out.exists()


def test_table_csv_and_chart_are_in_kind_order_with_a_kind_column(tmp_path, capsys):
    summaries = run(
        "relaxed", "test[:5]", ["solver", "greedy"], out=tmp_path, workers=1, progress=False
    )
    assert [(s["agent"], s["kind"]) for s in summaries] == [
        ("greedy", "baseline"),
        ("solver", "clairvoyant"),
    ]
    table = (tmp_path / "benchmark.md").read_text().splitlines()
    assert table[0].startswith("| agent | kind | stock order | win rate |")
    assert table[2].startswith("| greedy | baseline | seen |")
    assert table[3].startswith("| solver | clairvoyant | clairvoyant |")
    with open(tmp_path / "benchmark.csv") as f:
        reader = csv.DictReader(f)
        assert reader.fieldnames[:2] == ["agent", "kind"]
        assert [(r["agent"], r["kind"]) for r in reader] == [
            ("greedy", "baseline"),
            ("solver", "clairvoyant"),
        ]
    with open(tmp_path / "episodes.csv") as f:
        assert [r["agent"] for r in csv.DictReader(f)] == ["greedy"] * 5 + ["solver"] * 5
    if (tmp_path / "benchmark.png").exists():  # matplotlib installed; the chart test says more
        assert "benchmark.png" in capsys.readouterr().out


def _summary(agent, kind, rate, low, high, norm, norm_low, norm_high):
    return {
        "agent": agent,
        "kind": kind,
        "observe_stock": "seen",
        "win_rate": rate,
        "ci_low": low,
        "ci_high": high,
        "solver_normalised": norm,
        "norm_ci_low": norm_low,
        "norm_ci_high": norm_high,
        "cards_left": 1.0,
        "moves_won": 50.0,
        "seconds": 1.0,
    }


def test_chart_is_written_for_every_kind_and_edge_rates(tmp_path):
    pytest.importorskip("matplotlib")
    summaries = [
        _summary("greedy", "baseline", 0.6, 0.4, 0.8, 0.7, 0.5, 0.85),
        _summary("lookahead", "search", 0.7, 0.5, 0.85, 0.9, 0.7, 0.97),
        _summary("ppo-relaxed", "learned", 0.0, 0.0, 0.3, math.nan, 0.0, 1.0),  # none winnable
        # A Wilson top a rounding hair below a 100% rate must not make a negative error bar.
        _summary("solver", "clairvoyant", 0.8, 0.6, 0.9, 1.0, 0.8, 0.9999999999999999),
    ]
    path = tmp_path / "chart.png"
    assert plot(summaries, path, "relaxed: 5 deals of test[:5]")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_run_writes_the_chart(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    run("relaxed", "test[:3]", ["first-removal"], out=tmp_path, workers=1, progress=False)
    assert (tmp_path / "benchmark.png").read_bytes()[:4] == b"\x89PNG"
    assert "benchmark.png" in capsys.readouterr().out.splitlines()[-1]


def test_markdown_works_out_a_missing_kind():
    row = _summary("hint", "baseline", 0.5, 0.3, 0.7, 0.6, 0.4, 0.8)
    del row["kind"]
    assert markdown([row]).splitlines()[2].startswith("| hint | baseline | seen | 50.0% |")


def test_replays_of_lost_winnable_deals_are_written_with_the_losing_move(tmp_path):
    run("msc", "test[:12]", ["greedy"], out=tmp_path, workers=1, progress=False, replays=2)
    episodes = list(csv.DictReader(open(tmp_path / "episodes.csv")))
    lost = [int(e["deal"]) for e in episodes if e["solver_won"] == "True" and e["won"] == "False"]
    pages = sorted((tmp_path / "replays" / "greedy").glob("deal-*.html"))
    assert [p.name for p in pages] == [f"deal-{n}.html" for n in sorted(lost[:2])]
    replay = Replay.load(tmp_path / "replays" / "greedy" / f"deal-{lost[0]}.json")
    assert replay.agent == "greedy" and len(replay.seen) == len(replay.moves) + 1
    assert "could no longer be won" in pages[0].read_text()
