import json
import subprocess
import sys

import pytest

from pyramid_env.cli import main
from pyramid_env.engine import PRESETS, deal


def test_show_prints_board_and_code(capsys):
    assert main(["show", "--deal", "1", "--rules", "unlimited"]) == 0
    out = capsys.readouterr().out
    assert f"deal #1 · code {deal(1).code}" in out
    assert "1 card on the waste at the start" in out
    assert out.count("\n") >= 10 and "waste: " + deal(1).text.split()[28] in out


def test_show_accepts_code_and_cards(capsys):
    d = deal(8)
    assert main(["show", "--code", d.code]) == 0
    by_code = capsys.readouterr().out
    assert main(["show", "--cards", d.text]) == 0
    by_cards = capsys.readouterr().out
    assert by_code.splitlines()[2:] == by_cards.splitlines()[2:]


def test_bad_input_exits_2_with_the_reason(capsys):
    assert main(["show", "--rules", "nope"]) == 2
    assert "unknown preset 'nope'; known presets: relaxed" in capsys.readouterr().err
    assert main(["show", "--code", "P1-abc"]) == 2
    assert "bad deal code" in capsys.readouterr().err
    assert main(["show", "--cards", "Ac Ac"]) == 2
    assert "Ac appears twice" in capsys.readouterr().err


def test_solve_json_and_text(capsys):
    import json

    assert main(["solve", "--deal", "0", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"status", "moves", "steps", "nodes", "seconds", "shortest"}
    assert out["status"] in ("win", "loss")
    assert main(["solve", "--deal", "5", "--rules", "msc", "--budget", "5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "unknown"
    assert main(["solve", "--deal", "5", "--rules", "msc", "--shortest", "--budget", "2000"]) == 0
    text = capsys.readouterr().out
    assert "deal #5 · msc" in text and "unknown" in text


def test_benchmark_writes_table_csvs_and_chart(tmp_path, capsys):
    import csv

    from pyramid_env import evaluate

    out = tmp_path / "bench"
    args = ["benchmark", "--rules", "msc", "--seeds", "val[:8]", "--agents", "random", "greedy"]
    assert main([*args, "solver", "--out", str(out), "--workers", "1", "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert printed.count("| greedy | baseline |") == 1 and printed.count("| solver |") == 1
    assert printed.index("Benchmark plan: 3 agents") < printed.index("| agent |")
    assert {p.name for p in out.iterdir()} == {
        "benchmark.md",
        "benchmark.csv",
        "episodes.csv",
        "benchmark.png",
        "run.json",  # the settings, for --resume
        "digests.json",  # the agents done, by the digest of their rows, for --resume
        "replays",  # pages of lost deals the solver wins (--replays, default 3 per agent)
    }
    assert sorted(p.name for p in (out / "replays").iterdir()) == ["greedy", "random"]
    with open(out / "benchmark.csv") as f:
        rows = {r["agent"]: r for r in csv.DictReader(f)}
    greedy = evaluate("greedy", "msc", "val[:8]").summary()
    assert int(rows["greedy"]["wins"]) == greedy["wins"]
    assert float(rows["solver"]["solver_normalised"]) == 1.0
    assert [(r["agent"], r["kind"]) for r in rows.values()] == [
        ("random", "baseline"),
        ("greedy", "baseline"),
        ("solver", "clairvoyant"),
    ]
    with open(out / "episodes.csv") as f:
        assert len(list(csv.DictReader(f))) == 3 * 8


def test_benchmark_bad_input_is_named(capsys, tmp_path):
    assert main(["benchmark", "--rules", "nope", "--out", str(tmp_path)]) == 2
    assert "unknown preset 'nope'" in capsys.readouterr().err
    assert main(["benchmark", "--seeds", "tset", "--out", str(tmp_path)]) == 2
    assert "unknown seed set 'tset'" in capsys.readouterr().err
    assert main(["benchmark", "--agents", "gredy", "--out", str(tmp_path)]) == 2
    assert "unknown agent 'gredy'" in capsys.readouterr().err


def _help(capsys, *args):
    with pytest.raises(SystemExit) as exit_:
        main([*args, "--help"])
    assert exit_.value.code == 0
    return capsys.readouterr().out


def test_help_is_plain_text_with_examples(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    top = _help(capsys)
    assert "``" not in top and ":func:" not in top
    assert "examples:\n  pyramid-env show --deal 5" in top
    assert "pyramid-env benchmark" in top
    for command in ("show", "solve", "benchmark"):
        text = _help(capsys, command)
        assert "``" not in text, command
        assert f"usage: pyramid-env {command}" in text
        assert max(map(len, text.splitlines())) <= 80, command


def test_benchmark_help_lists_agents_presets_and_defaults(capsys, monkeypatch):
    from pyramid_env.agents import BASELINES, ORACLES, SEARCH, shipped

    monkeypatch.setenv("COLUMNS", "80")
    text = _help(capsys, "benchmark")
    agents = text[text.index("  --agents AGENT") : text.index("  --observe-stock {")]
    words = set(agents.replace(",", " ").replace(";", " ").replace(".", " ").split())
    assert {"greedy", "solver", "lookahead"} <= words
    assert {*BASELINES, *SEARCH, *ORACLES, *shipped()} <= words  # hyphenated names kept whole
    assert "Default: every baseline" in " ".join(agents.split())  # wherever the lines break
    assert "baseline: random," in " ".join(agents.split())
    rules = " ".join(text[text.index("  --rules PRESET") : text.index("  --seeds SPEC")].split())
    assert all(f" {name}," in rules or f" {name} " in rules for name in PRESETS)
    assert "(default relaxed)" in rules


def test_show_does_not_load_the_agents():
    # Listing agents in the help imports them and reads the networks: only when help is shown.
    code = (
        "import sys; from pyramid_env.cli import main; main(['show', '--deal', '1']); "
        "sys.exit('pyramid_env.agents' in sys.modules)"
    )
    assert subprocess.run([sys.executable, "-c", code], capture_output=True).returncode == 0


def test_rule_knobs_beside_the_preset(capsys, tmp_path):
    assert main(["show", "--deal", "5", "--rules", "msc", "--passes", "2"]) == 0
    assert "msc passes=2: 2 passes" in capsys.readouterr().out
    assert main(["solve", "--deal", "5", "--rules", "msc", "--passes", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "loss"  # 3 passes: a win
    args = ["show", "--no-covering-pair", "--goal", "all", "--draw-count", "3"]
    assert main([*args, "--passes", "unlimited"]) == 0
    assert "relaxed covering_pair=False goal=all draw_count=3" in capsys.readouterr().out
    out = tmp_path / "b"
    bench = ["benchmark", "--rules", "msc", "--passes", "2", "--agents", "greedy"]
    assert main([*bench, "--seeds", "val[:3]", "--out", str(out), "--no-progress"]) == 0
    assert "`msc passes=2`" in (out / "benchmark.md").read_text()
    with pytest.raises(SystemExit):  # argparse: exit 2 with the reason
        main(["show", "--passes", "two"])
    assert "'two' is not a number or 'unlimited'" in capsys.readouterr().err
