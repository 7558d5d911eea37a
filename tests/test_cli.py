from pyramid_env.cli import main
from pyramid_env.engine import deal


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
    assert "| greedy |" in printed and "| solver |" in printed
    assert {p.name for p in out.iterdir()} == {
        "benchmark.md",
        "benchmark.csv",
        "episodes.csv",
        "benchmark.png",
    }
    with open(out / "benchmark.csv") as f:
        rows = {r["agent"]: r for r in csv.DictReader(f)}
    greedy = evaluate("greedy", "msc", "val[:8]").summary()
    assert int(rows["greedy"]["wins"]) == greedy["wins"]
    assert float(rows["solver"]["solver_normalised"]) == 1.0
    with open(out / "episodes.csv") as f:
        assert len(list(csv.DictReader(f))) == 3 * 8


def test_benchmark_bad_input_is_named(capsys, tmp_path):
    assert main(["benchmark", "--rules", "nope", "--out", str(tmp_path)]) == 2
    assert "unknown preset 'nope'" in capsys.readouterr().err
    assert main(["benchmark", "--seeds", "tset", "--out", str(tmp_path)]) == 2
    assert "unknown seed set 'tset'" in capsys.readouterr().err
    assert main(["benchmark", "--agents", "gredy", "--out", str(tmp_path)]) == 2
    assert "unknown agent 'gredy'" in capsys.readouterr().err
