"""Issue 29: the benchmark's folder is a store that loses nothing and mislabels nothing.

A kill at any write, then ``--resume``, gives the folder an uninterrupted run gives; what a
resumed run reads (its settings, CSV rows, chunks) is checked; agents read from files are
refused up front, naming the file; every agent's rows go under a name of its own.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import re
import shutil
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyramid_env import benchmark as bench
from pyramid_env import evaluation
from pyramid_env.agents import MLPPolicy
from pyramid_env.benchmark import chart, roster, runner
from pyramid_env.cli import main
from pyramid_env.engine import PyramidError
from pyramid_env.engine.rules import get_rules

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


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """An uninterrupted run (no chart), its folder, and how many files it wrote."""
    out = tmp_path_factory.mktemp("ref")
    mp = pytest.MonkeyPatch()
    no_chart(mp)
    writes = []
    real = os.replace
    mp.setattr(os, "replace", lambda a, b: writes.append(b) or real(a, b))
    try:
        bench.run(agents=AGENTS, out=out, replays=1, **RUN)
    finally:
        mp.undo()
    return folder(out), len(writes)


def test_a_kill_at_any_write_then_resume_gives_the_uninterrupted_folder(
    tmp_path, monkeypatch, reference, capsys
):
    want, writes = reference
    assert writes >= 10  # chunks, settings, pages, CSVs, table: every write is a kill point
    assert any(k.startswith("replays/greedy/") for k in want)
    no_chart(monkeypatch)
    real = os.replace
    for kill_at in range(writes):
        out = tmp_path / f"k{kill_at}"
        count = [0]

        def replace(a, b, count=count, kill_at=kill_at):
            if count[0] == kill_at:
                raise Killed
            count[0] += 1
            return real(a, b)

        monkeypatch.setattr(os, "replace", replace)
        with pytest.raises(Killed):
            bench.run(agents=AGENTS, out=out, replays=1, **RUN)
        monkeypatch.setattr(os, "replace", real)
        # What a SIGKILL mid-write leaves: temporary files beside their targets.
        for tmp in (out / ".episodes.csv.tmp", out / "replays" / "greedy" / ".deal-x.html.tmp"):
            if tmp.parent.is_dir():
                tmp.write_text("half a file")
        if not (out / "run.json").exists():  # killed before the run wrote its settings
            bench.run(agents=AGENTS, out=out, replays=1, **RUN)
        else:
            bench.run(agents=AGENTS, out=out, replays=1, resume=True, **RUN)
        assert folder(out) == want, f"killed at write {kill_at}"
    capsys.readouterr()


def test_replay_pages_come_before_the_row_and_a_resume_repairs_lost_ones(
    tmp_path, monkeypatch, reference
):
    no_chart(monkeypatch)
    out = tmp_path / "out"
    bench.run(agents=AGENTS, out=out, replays=1, **RUN)
    pages = sorted((out / "replays").rglob("*.html"))
    assert pages
    pages[0].unlink()
    pages[-1].with_suffix(".json").unlink()
    played = []
    monkeypatch.setattr(
        runner, "evaluate", lambda a, *r, **k: played.append(k) or evaluation.evaluate(a, *r, **k)
    )
    bench.run(agents=AGENTS, out=out, replays=1, resume=True, **RUN)
    assert folder(out) == reference[0]
    assert all(k.get("replays") for k in played)  # only the pages were played again


# -- names: each agent's rows under a name of its own ------------------------------------------
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


def test_a_users_greedy_npz_does_not_shadow_the_baseline(tmp_path, monkeypatch, capsys):
    no_chart(monkeypatch)
    net = str(policy_file(tmp_path / "greedy.npz"))
    out = tmp_path / "out"
    bench.run(agents=["greedy", net], out=out, replays=0, **RUN)
    labels = [r["agent"] for r in rows(out)]
    assert labels == ["greedy", net]
    table = (out / "benchmark.md").read_text()
    assert "| greedy | baseline |" in table and f"| {net} | learned |" in table
    assert {r["agent"] for r in rows(out, "episodes.csv")} == {"greedy", net}
    # The network's row is its own: a fresh run of it alone gives the same figures.
    alone = tmp_path / "alone"
    bench.run(agents=[net], out=alone, replays=0, **RUN)
    assert rows(alone)[0]["wins"] == rows(out)[1]["wins"]
    assert rows(alone)[0]["agent"] == net


def test_resume_plays_a_users_npz_named_like_a_finished_baseline(tmp_path, monkeypatch):
    no_chart(monkeypatch)
    net = str(policy_file(tmp_path / "greedy.npz"))
    out = tmp_path / "out"
    bench.run(agents=["greedy"], out=out, replays=0, **RUN)
    played = record(monkeypatch)
    bench.run(agents=["greedy", net], out=out, replays=0, resume=True, **RUN)
    assert played == [net]
    assert [r["agent"] for r in rows(out)] == ["greedy", net]


def test_an_agent_given_twice_is_refused(tmp_path):
    net = policy_file(tmp_path / "net.npz")
    for agents, message in (
        (["greedy", "greedy"], "given twice"),
        ([str(net), str(tmp_path / "." / "net.npz")], "given twice"),
    ):
        with pytest.raises(PyramidError, match=message):
            bench.run(agents=agents, out=tmp_path / "out", **RUN)


def test_two_files_of_one_stem_play_under_their_paths(tmp_path, monkeypatch):
    no_chart(monkeypatch)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    one = str(policy_file(tmp_path / "a" / "net.npz"))
    two = str(policy_file(tmp_path / "b" / "net.npz", layers=3))
    out = tmp_path / "out"
    bench.run(agents=[one, two], out=out, replays=1, **RUN)
    assert [r["agent"] for r in rows(out)] == [one, two]
    assert bench.folder_name(one) != bench.folder_name(two)
    # Each file's pages in a folder of its own (a stem or a path with "/" replaced would share).
    for label in (one, two):
        lost = [
            e for e in rows(out, "episodes.csv")
            if e["agent"] == label and e["solver_won"] == "True" and e["won"] == "False"
        ]  # fmt: skip
        where = out / "replays" / bench.folder_name(label)
        assert sorted(p.name for p in where.glob("*.json")) == [f"deal-{lost[0]['deal']}.json"]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=12), min_size=1, max_size=5, unique=True))
def test_labels_never_share_a_folder(labels):
    # Property: distinct labels (any text: paths, unicode, dots) get distinct folder names.
    names = [bench.folder_name(label) for label in labels]
    assert len(set(names)) == len(names)
    assert all(re.fullmatch(r"[A-Za-z0-9._-]+", n) and n not in (".", "..") for n in names)


# -- agents read from files: refused up front, naming the file -----------------------------------
def bad_files(tmp_path: Path) -> dict[str, Path]:
    good = policy_file(tmp_path / "good.npz")
    empty = tmp_path / "empty.npz"
    empty.write_bytes(b"")
    flipped = tmp_path / "flipped.npz"
    data = bytearray(good.read_bytes())
    data[len(data) // 2] ^= 0xFF
    flipped.write_bytes(bytes(data))
    return {
        "empty": empty,
        "flipped": flipped,
        "wide": policy_file(tmp_path / "wide.npz", inputs=10),
        "narrow": policy_file(tmp_path / "narrow.npz", outputs=5),
        "value": policy_file(tmp_path / "value.npz", outputs=1),
        "nolayers": _no_layers(tmp_path / "nolayers.npz"),
    }


def _no_layers(path: Path) -> Path:
    MLPPolicy([], "tanh", {"obs_mode": "onehot"}).save(path)
    return path


@pytest.mark.parametrize("kind", ["empty", "flipped", "wide", "narrow", "value", "nolayers"])
def test_a_bad_npz_is_refused_before_any_agent_plays(kind, tmp_path, monkeypatch, capsys):
    no_chart(monkeypatch)
    path = str(bad_files(tmp_path)[kind])
    played = record(monkeypatch)
    out = tmp_path / "out"
    code = main(["benchmark", "--rules", "msc", "--seeds", "val[:3]", "--workers", "1",
                 "--replays", "0", "--no-progress", "--out", str(out),
                 "--agents", "greedy", path])  # fmt: skip
    captured = capsys.readouterr()
    assert code == 0 and "Traceback" not in captured.err
    assert f"warning: skipping agent {path}" in captured.err and repr(path) in captured.err
    assert played == ["greedy"]
    note = " ".join((out / "benchmark.md").read_text().split())
    assert f"skipped (unusable files): {path}" in note


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.data())
def test_any_corruption_of_an_npz_is_refused_or_plays_never_crashes(tmp_path, data):
    # Property: a policy file with bytes changed is either refused (PyramidError naming it) or a
    # policy that makes legal moves; never an exception of numpy or zlib.
    good = tmp_path / "good.npz"
    if not good.exists():
        policy_file(good)
    raw = bytearray(good.read_bytes())
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(raw) - 1))
        raw[i] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(0, len(raw)))
    bad = tmp_path / "bad.npz"
    bad.write_bytes(bytes(raw[:cut]) if data.draw(st.booleans()) else bytes(raw))
    made, skipped = roster.make_agents([str(bad)])
    for name, agent in made.items():
        try:
            roster.probe(agent, name, get_rules("msc"), "seen", 2000)
        except PyramidError as err:
            skipped.append((name, str(err)))
    for _, why in skipped:
        assert str(bad) in why


# -- what --resume reads is checked -------------------------------------------------------------
@pytest.fixture
def finished(tmp_path, monkeypatch, capsys):
    """A finished run of two agents, and the folder of an uninterrupted run to compare with."""
    no_chart(monkeypatch)
    out = tmp_path / "out"
    bench.run(agents=AGENTS, out=out, replays=0, **RUN)
    capsys.readouterr()
    return out, folder(out)


def resume(out, agents=AGENTS):
    return bench.run(agents=agents, out=out, replays=0, resume=True, **RUN)


def edit_cell(path: Path, agent: str, column: str, value: str) -> None:
    table = list(csv.DictReader(io.StringIO(path.read_text())))
    fields = list(table[0])
    for r in table:
        if r["agent"] == agent:
            r[column] = value
            break
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n")
    w.writeheader()
    w.writerows(table)
    path.write_text(buf.getvalue())


@pytest.mark.parametrize(
    ("name", "column", "value"),
    [
        ("episodes.csv", "pyramid_left", "99"),
        ("episodes.csv", "won", "abc"),
        ("episodes.csv", "deal", "5"),
        ("benchmark.csv", "wins", "abc"),
        ("benchmark.csv", "cards_left", "99"),
        ("benchmark.csv", "kind", "learned"),
        ("benchmark.csv", "seconds", "nan"),
    ],
)
@pytest.mark.parametrize("digests", [True, False])
def test_a_bad_stored_cell_makes_the_agent_play_again(
    finished, monkeypatch, capsys, name, column, value, digests
):
    # Caught by the digest; and without one (a folder of an older version), by the checks.
    out, want = finished
    edit_cell(out / name, "greedy", column, value)
    if not digests:
        (out / "digests.json").unlink()
    played = record(monkeypatch)
    resume(out)
    assert "warning: rows of greedy" in capsys.readouterr().err
    assert played == ["greedy"] and folder(out) == want


def test_a_changed_cell_the_summary_does_not_show_is_caught_by_the_digest(
    finished, monkeypatch, capsys
):
    out, want = finished
    edit_cell(out / "episodes.csv", "greedy", "steps", "31")  # in no figure of the table
    played = record(monkeypatch)
    resume(out)
    assert played == ["greedy"] and folder(out) == want


def test_a_csv_cut_before_its_last_newline_is_not_glued_onto(finished, capsys):
    out, want = finished
    text = (out / "benchmark.csv").read_text()
    (out / "benchmark.csv").write_text(text[:-30])  # a full disk: greedy's row cut short
    resume(out)
    assert folder(out) == want
    assert (out / "benchmark.csv").read_text().count("\n") == 3


def test_a_deleted_episodes_file_makes_the_agents_play_again(finished, monkeypatch, capsys):
    out, want = finished
    (out / "episodes.csv").unlink()
    resume(out)
    assert folder(out) == want
    assert "warning: rows of first-removal" in capsys.readouterr().err


def test_resuming_with_fewer_agents_keeps_the_others_in_the_table(finished, capsys):
    out, want = finished
    summaries = resume(out, agents=["greedy"])
    assert [s["agent"] for s in summaries] == AGENTS
    table = (out / "benchmark.md").read_text()
    assert "| first-removal |" in table and "| greedy |" in table
    assert folder(out) == want


@pytest.mark.parametrize(
    ("file", "text", "message"),
    [
        ("run.json", "[1]", "not a benchmark's settings"),
        ("run.json", '{"rules": "msc"}', "not a benchmark's settings"),
        ("run.json", "{" * 100_000, "nested too deeply|not JSON"),
        ("benchmark.csv", "a,b\n1,2\n", "not those a benchmark writes"),
        ("benchmark.csv", "\udcff", ""),
    ],
)
def test_resume_refuses_files_that_are_not_a_benchmarks(finished, capsys, file, text, message):
    out, _ = finished
    if text == "\udcff":
        (out / file).write_bytes(b"\xff\xfe\x00garbage")
        message = "not JSON|not UTF-8"
    else:
        (out / file).write_text(text)
    code = main(["benchmark", "--rules", "msc", "--seeds", "val[:6]", "--workers", "1",
                 "--replays", "0", "--no-progress", "--out", str(out), "--resume",
                 "--agents", *AGENTS])  # fmt: skip
    captured = capsys.readouterr()
    assert code == 2 and "Traceback" not in captured.err
    assert re.search(message, captured.err) and file in captured.err


@pytest.mark.parametrize(
    "chunk",
    [
        {"deals": [2000], "results": [[True]]},
        {"deals": [2000], "results": [[True, 99, 1, 1, False, 0.0, None]]},
        {"deals": [2000, 2001], "results": [[True, 0, 1, 1, False, 0.0, None]]},
        {"deals": "x", "results": []},
        [1, 2],
    ],
)
def test_a_stored_chunk_of_the_wrong_shape_is_played_again(tmp_path, monkeypatch, capsys, chunk):
    no_chart(monkeypatch)
    out = tmp_path / "out"
    args = ["benchmark", "--rules", "msc", "--seeds", "val[:6]", "--workers", "1", "--replays",
            "0", "--no-progress", "--out", str(out), "--agents", "greedy"]  # fmt: skip
    assert main(args) == 0
    want = folder(out)

    def killed(self, labels):
        raise Killed  # stopped once greedy's chunks are kept, before its rows

    monkeypatch.setattr(bench.Store, "write", killed)
    with pytest.raises(Killed):
        main(args)
    monkeypatch.undo()
    no_chart(monkeypatch)
    (stored,) = (out / "chunks" / "greedy").glob("chunk-*.json")
    stored.write_text(json.dumps(chunk))
    capsys.readouterr()
    assert main([*args, "--resume"]) == 0
    captured = capsys.readouterr()
    assert "is unreadable" in captured.err and "Traceback" not in captured.err
    assert folder(out) == want


@pytest.mark.parametrize("text", ["[]", "[1]", "null", "{"])
def test_a_chunk_store_whose_settings_are_not_a_dict_is_refused(tmp_path, text):
    from pyramid_env.sweep import ChunkStore

    (tmp_path / "settings.json").write_text(text)
    with pytest.raises(PyramidError, match="settings"):
        ChunkStore(tmp_path, {"a": 1}, resume=True)


# -- numbers the benchmark takes ----------------------------------------------------------------
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


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.data())
def test_any_damage_to_the_csv_files_is_caught_or_harmless(tmp_path, monkeypatch, data):
    # Property: bytes of benchmark.csv or episodes.csv changed, cut or dropped, then --resume:
    # the run refuses the file by name (exit 2), or ends with the uninterrupted run's folder.
    no_chart(monkeypatch)
    ref = tmp_path / "ref"
    if not ref.exists():
        bench.run(agents=AGENTS, out=ref, replays=0, **RUN)
    want = folder(ref)
    out = tmp_path / "run"
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(ref, out)
    name = data.draw(st.sampled_from(["benchmark.csv", "episodes.csv"]))
    raw = bytearray((out / name).read_bytes())
    for _ in range(data.draw(st.integers(0, 3))):
        i = data.draw(st.integers(0, len(raw) - 1))
        raw[i] = data.draw(st.sampled_from(list(b"0123456789,.-\nTFae\xff")))
    raw = raw[: data.draw(st.integers(len(raw) // 2, len(raw)))]
    (out / name).write_bytes(bytes(raw))
    args = ["benchmark", "--rules", "msc", "--seeds", "val[:6]", "--workers", "1", "--replays",
            "0", "--no-progress", "--out", str(out), "--resume", "--agents", *AGENTS]  # fmt: skip
    with (
        contextlib.redirect_stdout(io.StringIO()),
        contextlib.redirect_stderr(io.StringIO()) as err,
    ):
        code = main(args)
    assert "Traceback" not in err.getvalue()
    if code == 2:
        assert name in err.getvalue()
    else:
        assert code == 0 and folder(out) == want


@settings(max_examples=50, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(["greedy", "random", "hint", "solver", "bc-msc"]),
            st.tuples(
                st.sampled_from(["a", "b", "c/d"]), st.sampled_from(["greedy", "net", "x"])
            ).map(lambda t: f"{t[0]}/{t[1]}.npz"),
        ),
        min_size=1,
        max_size=6,
        unique=True,
    )
)
def test_labels_are_unique_and_a_name_is_never_borrowed(names):
    # Property: every agent gets a label of its own; a file never takes another agent's name.
    labels = roster.agent_labels(names)
    assert len(set(labels.values())) == len(names)
    known = {n for group in bench.known_agents().values() for n in group}
    for name, label in labels.items():
        if name.endswith(".npz"):
            assert label not in known and label in (name, Path(name).stem)
        else:
            assert label == name
