"""Bad input at the outer boundaries (seed specs, evaluate, the benchmark, the CLI): a clear
error before any work, and no work lost."""

import json
import shutil

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pyramid_env.agents as agents_pkg
import pyramid_env.agents.catalogue as catalogue
import pyramid_env.benchmark.runner as bench
import pyramid_env.evaluation as evaluation
import pyramid_env.sweep as sweep
from pyramid_env import PyramidError, evaluate
from pyramid_env.agents import make_agent, shipped_file
from pyramid_env.cli import main
from pyramid_env.seeds import DEALS, seed_set
from tests.conftest import refused

# -- seed specs ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("test[5:2]", "selects no deal"),
        ("val[1000:]", "selects no deal: val has 1,000 deals"),
        ("", "bad seed spec ''"),
        ("tset", "unknown seed set 'tset'"),
        ("3,3", r"repeated: \[3\]"),
        ("-5", "out of range"),
        ([True], "not a deal number"),
        (3.5, r"seeds=3.5 \(float\)"),
        (range(5, 2), "selects no deal"),
        ("5-2", "ends before it starts"),
    ],
)
def test_bad_seed_specs_name_the_spec(spec, message):
    refused(seed_set, spec, match=message)


def test_numpy_deal_numbers_and_the_huge_train_set():
    assert seed_set([np.int64(3), np.uint8(4)]) == [3, 4]
    assert len(seed_set("train")) > 9e18  # a range: nothing is built
    refused(evaluate, "greedy", seeds="train", match="evaluate plays at most 10,000,000")


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=12), st.lists(st.integers(-3, 2**64 + 3), max_size=5)))
def test_any_seed_spec_gives_deals_or_a_pyramid_error(spec):
    try:
        deals = seed_set(spec)
    except PyramidError as err:
        assert str(err)
        return
    assert len(deals) > 0
    if isinstance(deals, list):
        assert all(0 <= d < DEALS for d in deals) and len(set(deals)) == len(deals)
    else:
        assert deals[0] >= 0 and deals[-1] < DEALS


# -- evaluate -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"agent": object()}, "an agent needs a name"),
        ({"agent": "gredy"}, "unknown agent 'gredy'"),
        ({"workers": 0}, "workers=0 must be an int >= 1"),
        ({"workers": 1.5}, r"workers=1.5 \(float\) must be an int"),
        ({"seed": "1"}, "seed='1'"),
        ({"observe_stock": "all"}, "observe_stock='all'"),
        ({"max_steps": 0}, "max_steps"),
        ({"solver_time_limit": -1}, "solver_time_limit"),
    ],
)
def test_evaluate_checks_its_arguments_before_any_work(kwargs, message, monkeypatch):
    monkeypatch.setattr(evaluation, "_play_chunk", lambda *a: pytest.fail("played"))
    refused(evaluate, **({"agent": "greedy", "seeds": [1, 2]} | kwargs), match=message)


def test_no_more_processes_than_chunks(monkeypatch):
    monkeypatch.setattr(sweep, "process_pool", lambda n: pytest.fail(f"{n} workers"))
    assert evaluate("greedy", seeds=[1], workers=8).episodes[0].deal == 1


# -- agent files --------------------------------------------------------------------------------


def test_a_broken_agent_file_is_named(tmp_path):
    bad = tmp_path / "broken.npz"
    bad.write_bytes(b"not a zip")
    refused(make_agent, str(bad), match="broken.npz.* is not a (policy|saved network)")
    refused(make_agent, str(tmp_path / "none.npz"), match="does not exist")


@pytest.fixture
def fake_install(tmp_path, monkeypatch):
    """A copy of the shipped agents that a test may damage."""
    real = agents_pkg.resources.files("pyramid_env.agents") / agents_pkg.TRAINED_DIR
    trained = tmp_path / "agents" / agents_pkg.TRAINED_DIR
    shutil.copytree(str(real), trained)

    class Files:
        @staticmethod
        def files(package):
            return tmp_path / "agents"

    monkeypatch.setattr(agents_pkg, "resources", Files)
    catalogue.shipped_meta.cache_clear()
    yield trained
    catalogue.shipped_meta.cache_clear()


def test_a_damaged_or_missing_shipped_file_is_named(fake_install):
    assert shipped_file("bc-msc").is_file()
    (fake_install / "bc-msc.npz").write_bytes(b"junk")
    refused(make_agent, "bc-msc", match="bc-msc.*does not match its checksum")
    (fake_install / "ppo-msc.npz").unlink()
    refused(make_agent, "ppo-msc", match="ppo-msc.*is missing")
    assert "bc-msc" in agents_pkg.shipped()  # still listed: the manifest says it should be


def test_benchmark_skips_a_damaged_agent_and_writes_the_rest(fake_install, tmp_path, capsys):
    (fake_install / "bc-msc.npz").write_bytes(b"junk")
    out = tmp_path / "out"
    args = ["benchmark", "--rules", "msc", "--seeds", "val[:3]", "--workers", "1"]
    assert main([*args, "--agents", "greedy", "bc-msc", "--out", str(out), "--no-progress"]) == 0
    captured = capsys.readouterr()
    assert "warning: skipping agent bc-msc" in captured.err and "checksum" in captured.err
    assert "| greedy | baseline |" in captured.out and "| bc-msc |" not in captured.out
    assert "skipped (unusable files): bc-msc" in " ".join(
        (out / "benchmark.md").read_text().split()
    )


# -- the benchmark and the CLI ------------------------------------------------------------------


def run_cli(capsys, *args):
    code = main(list(args))
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return code, captured


def test_bad_benchmark_input_fails_before_any_work(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(bench, "evaluate", lambda *a, **k: pytest.fail("played"))
    out = tmp_path / "out"
    for args, message in (
        (["--agents", "random", "nosuch"], "unknown agent 'nosuch'"),
        (["--seeds", "test[5:2]"], "selects no deal"),
        (["--seeds", "train"], "at most 10,000,000"),
        (["--rules", "msc", "--agents", "lookahead"], "free-stock rules only"),
        (["--workers", "0"], "--workers 0"),
        (["--resume"], "no benchmark to resume"),
    ):
        code, captured = run_cli(capsys, "benchmark", *args, "--out", str(out), "--no-progress")
        assert code == 2 and message in captured.err, (args, captured.err)
        assert "Benchmark plan" not in captured.out
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    code, captured = run_cli(capsys, "benchmark", "--out", str(blocker / "sub"), "--no-progress")
    assert code == 2 and "cannot be written" in captured.err


def test_rows_are_written_as_agents_finish_and_resume_goes_on(tmp_path, capsys, monkeypatch):
    out = tmp_path / "out"
    # --replays 0: each evaluate() call here is an agent's run (replays would play deals again)
    common = ["benchmark", "--rules", "msc", "--seeds", "val[:4]", "--workers", "1"]
    common += ["--replays", "0"]
    calls = []

    def fail_on_greedy(agent, *args, **kwargs):
        calls.append(agent.name)
        if agent.name == "greedy":
            raise KeyboardInterrupt  # stopped while greedy plays
        return evaluation.evaluate(agent, *args, **kwargs)

    monkeypatch.setattr(bench, "evaluate", fail_on_greedy)
    agents = ["--agents", "first-removal", "greedy", "hint", "--out", str(out), "--no-progress"]
    code, captured = run_cli(capsys, *common, *agents)
    assert code == 130 and "--resume" in captured.err
    rows = (out / "benchmark.csv").read_text().splitlines()
    assert len(rows) == 2 and rows[1].startswith("first-removal,baseline")
    assert (out / "episodes.csv").read_text().count("\nfirst-removal,") == 4

    monkeypatch.setattr(
        bench,
        "evaluate",
        lambda agent, *a, **k: calls.append(agent.name) or evaluation.evaluate(agent, *a, **k),
    )
    code, captured = run_cli(capsys, *common, *agents, "--resume")
    assert code == 0 and "resumed      first-removal" in captured.out
    assert calls == ["first-removal", "greedy", "greedy", "hint"]  # first-removal not replayed
    table = (out / "benchmark.md").read_text()
    assert all(f"| {a} | baseline |" in table for a in ("first-removal", "greedy", "hint"))
    assert (out / "episodes.csv").read_text().count("\ngreedy,") == 4

    code, captured = run_cli(capsys, *common[:4], "val[:5]", *common[5:], *agents, "--resume")
    assert code == 2 and "other settings" in captured.err
    assert json.loads((out / "run.json").read_text())["seeds"] == "val[:4]"


def test_show_refuses_an_empty_code(capsys):
    code, captured = run_cli(capsys, "show", "--code", "")
    assert code == 2 and "bad deal code ''" in captured.err


def test_a_changed_preset_is_reported_under_its_own_name():
    from pyramid_env import get_rules

    report = evaluate("greedy", rules=get_rules("msc", passes=1), seeds=[2000, 2001])
    assert report.rules == "msc passes=1"


def test_resume_replays_an_agent_whose_row_was_cut_short(tmp_path, capsys):
    out = tmp_path / "out"
    args = ["benchmark", "--rules", "msc", "--seeds", "val[:3]", "--workers", "1"]
    agents = ["--agents", "first-removal", "greedy", "--out", str(out), "--no-progress"]
    assert main([*args, *agents]) == 0
    rows = (out / "benchmark.csv").read_text().splitlines()
    cut = "\n".join([*rows[:-1], rows[-1][:20]]) + "\n"  # greedy's row, half written
    (out / "benchmark.csv").write_text(cut)
    capsys.readouterr()
    assert main([*args, *agents, "--resume"]) == 0
    assert "resumed      first-removal (from" in capsys.readouterr().out
    table = (out / "benchmark.md").read_text()
    assert "| first-removal |" in table and "| greedy |" in table
    episodes = (out / "episodes.csv").read_text()
    assert episodes.count("\ngreedy,") == 3 and episodes.count("\nfirst-removal,") == 3


def test_a_negative_agent_seed_is_refused():
    refused(evaluate, "greedy", seeds=[1], seed=-1, match="seed=-1 must be >= 0")


def test_a_benchmark_stopped_mid_agent_resumes_from_its_finished_chunks(
    tmp_path, capsys, monkeypatch
):
    out = tmp_path / "out"
    args = ["benchmark", "--rules", "msc", "--seeds", "val[:60]", "--workers", "1", "--replays",
            "0", "--agents", "greedy", "--out", str(out), "--no-progress"]  # fmt: skip
    assert main(args) == 0
    whole = (out / "episodes.csv").read_text()
    assert not (out / "chunks").exists()  # gone once the rows are written
    deals = seed_set("val[:60]")
    played = []
    play = evaluation._play

    def stop_at_55(agent, env, deal, *rest):
        if deal == deals[55]:
            raise KeyboardInterrupt  # stopped during the first agent: no benchmark.csv yet
        played.append(deal)
        return play(agent, env, deal, *rest)

    monkeypatch.setattr(evaluation, "_play", stop_at_55)
    assert main(args) == 130
    assert not (out / "benchmark.csv").exists() and list((out / "chunks" / "greedy").glob("c*"))
    monkeypatch.setattr(evaluation, "_play", lambda *a: played.append(a[2]) or play(*a))
    played.clear()
    assert main([*args, "--resume"]) == 0
    assert played == list(deals[50:])  # the first chunk of 50 was kept, not played again
    assert (out / "episodes.csv").read_text().split("\n", 1)[1].count("\n") == 60
    strip = [line.rsplit(",", 1)[0] for line in whole.splitlines()]  # the cpu column varies
    assert [
        line.rsplit(",", 1)[0] for line in (out / "episodes.csv").read_text().splitlines()
    ] == strip
