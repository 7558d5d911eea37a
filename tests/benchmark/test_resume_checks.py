"""What ``--resume`` reads is checked: a damaged row, CSV, chunk or settings file is played again
or refused by name, never trusted.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyramid_env import benchmark as bench
from pyramid_env.cli import main
from tests.benchmark.conftest import AGENTS, RUN, Killed, folder, no_chart, record
from tests.conftest import refused


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
    refused(ChunkStore, tmp_path, {"a": 1}, resume=True, match="settings")


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
