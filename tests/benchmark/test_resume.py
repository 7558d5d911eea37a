"""A kill at any write, then ``--resume``, gives the folder an uninterrupted run gives."""

from __future__ import annotations

import os

import pytest

from pyramid_env import benchmark as bench
from pyramid_env import evaluation
from pyramid_env.benchmark import runner
from tests.benchmark.conftest import AGENTS, RUN, Killed, folder, no_chart


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
