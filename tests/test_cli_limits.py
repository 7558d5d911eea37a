"""The command line at its edges: bad numbers, missing or odd files, damaged saves and huge
inputs each end in a clear, short error (exit status 2) or in correct behaviour.
"""

from __future__ import annotations

import io
import json
import shutil
import sys

import pytest

from pyramid_env.cli import main
from pyramid_env.engine import Game
from pyramid_env.engine.errors import CardError
from pyramid_env.play import main_play
from pyramid_env.replay import Replay
from tests.conftest import refused


def run(capsys, *args):
    """The exit status and output of ``pyramid-env ARGS`` (argparse's errors exit with 2)."""
    try:
        code = main(list(args))
    except SystemExit as done:
        code = done.code
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return code, captured


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["solve", "--deal", "0", "--passes", "99999999999999999999999"], "rule passes="),
        (["solve", "--deal", "0", "--passes", "256"], "1..255"),
        (["solve", "--deal", "\u0665"], "not a whole number"),
        (["solve", "--deal", "5_000"], "not a whole number"),
        (["show", "--deal", "\u0665"], "not a whole number"),
        (["solve", "--budget", "0"], "not a whole number >= 1"),
        (["solve", "--budget", "-1"], "not a whole number >= 1"),
        (["solve", "--budget", "10000000000000"], "budget=.* 0..10\\*\\*12"),
        (["solve", "--time-limit", "nan"], "not a number of seconds"),
        (["solve", "--time-limit", "inf"], "not a number of seconds|0, 10\\*\\*6"),
        (["solve", "--time-limit", "0"], "not a number of seconds"),
        (["show", "--code", "P2-" + "x" * 1_000_000], "1,000,0[0-9][0-9] characters"),
    ],
)
def test_bad_numbers_exit_2_naming_them(capsys, args, message):
    import re

    code, captured = run(capsys, *args)
    assert code == 2 and re.search(message, captured.err), captured.err
    assert len(captured.err) < 2000  # an error never echoes megabytes of input


def test_replay_of_a_missing_file_or_a_device_is_bad_input(capsys, tmp_path):
    code, captured = run(capsys, "replay", str(tmp_path / "nope.json"))
    assert code == 2 and "does not exist" in captured.err
    code, captured = run(capsys, "replay", "/dev/zero")  # read to its end: memory runs out
    assert code == 2 and "not a regular file" in captured.err
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(65 * 2**20)  # sparse: larger than any save
    code, captured = run(capsys, "replay", str(big))
    assert code == 2 and "larger than" in captured.err


def test_replay_never_overwrites_its_own_input(capsys, tmp_path):
    game = Game(5, "msc")
    game.play(game.legal_moves()[0])
    save = tmp_path / "x.json"
    game.save(save)
    before = save.read_text()
    for out in (str(save), str(tmp_path / "." / "x.json")):
        code, captured = run(capsys, "replay", str(save), "--out", out)
        assert code == 2 and "the input file itself" in captured.err
    assert save.read_text() == before
    code, captured = run(capsys, "replay", str(save), "--out", "")
    assert code == 2 and "--out ''" in captured.err


def test_a_deeply_nested_save_is_refused_not_a_recursion_error(tmp_path):
    for text in ("[" * 100_000 + "]" * 100_000, json.dumps({"format": [[[[[[1]]]]]]})):
        path = tmp_path / "deep.json"
        path.write_text(text)
        refused(Game.load, path, error=CardError)
        refused(Replay.load, path, error=CardError)
    nested: list = []
    for _ in range(5000):
        nested = [nested]
    refused(Game.from_dict, {"format": nested}, error=CardError)


def test_play_save_into_a_folder_fails_loudly(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(sys, "stdin", io.StringIO("draw\nquit\n"))
    code = main_play(["--plain", "--deal", "5", "--save", str(tmp_path)])
    captured = capsys.readouterr()
    assert code == 2 and "is a folder" in captured.err
    assert "game saved" not in captured.out


def test_play_reports_a_save_that_failed_while_playing(monkeypatch, capsys, tmp_path):
    # The folder of the save becomes a file after the start: every autosave fails.
    where = tmp_path / "sub"
    where.mkdir()

    def lines():
        yield "draw\n"
        shutil.rmtree(where)
        where.write_text("now a file")
        yield "draw\n"
        yield "quit\n"

    monkeypatch.setattr(sys, "stdin", lines())
    code = main_play(["--plain", "--deal", "5", "--save", str(where / "save.json")])
    captured = capsys.readouterr()
    assert code == 1 and "could not be saved" in captured.err
    assert "game saved" not in captured.out


def test_benchmark_help_prints_with_a_damaged_manifest(capsys, monkeypatch, tmp_path):
    import pyramid_env.agents as agents
    from pyramid_env.agents import catalogue

    (tmp_path / "trained").mkdir()
    (tmp_path / "trained" / "manifest.json").write_text("{ damaged")

    class Files:
        @staticmethod
        def files(package):
            return tmp_path

    monkeypatch.setattr(agents, "resources", Files)
    catalogue.shipped_meta.cache_clear()
    try:
        with pytest.raises(SystemExit) as done:
            main(["benchmark", "--help"])
        captured = capsys.readouterr()
        assert done.value.code == 0 and "Traceback" not in captured.err
        assert "manifest.json is damaged" in " ".join(captured.out.split())
        code, captured = run(capsys, "benchmark", "--agents", "greedy", "--out", str(tmp_path))
        assert code == 2 and "manifest.json is damaged" in captured.err
    finally:
        catalogue.shipped_meta.cache_clear()


def test_a_save_with_an_undo_limit_out_of_range_is_refused(capsys, tmp_path):
    # Written by an older version that took undo_limit=2**63: replay and play --resume used to
    # fail with OverflowError on the first move.
    game = Game(5, "relaxed")
    game.play(game.legal_moves()[0])
    data = game.to_dict()
    data["rules"] = data["rules"] | {"undo_limit": 2**63}
    save = tmp_path / "save.json"
    save.write_text(json.dumps(data))
    code, captured = run(capsys, "replay", str(save))
    assert code == 2 and "undo_limit" in captured.err
    code = main_play(["--plain", "--resume", "--save", str(save)])
    assert code == 2 and "undo_limit" in capsys.readouterr().err


@pytest.mark.parametrize(
    "args",
    [
        ["benchmark", "--agents", "x" * 1_000_000],
        ["benchmark", "--rules", "x" * 1_000_000],
        ["benchmark", "--seeds", "x" * 1_000_000],
        ["show", "--cards", "Ac " * 300_000],
        ["show", "--deal", "9" * 1_000_000],
    ],
)
def test_errors_never_echo_megabytes_of_input(capsys, tmp_path, args):
    code, captured = run(
        capsys, *args, *(["--out", str(tmp_path)] if args[0] == "benchmark" else [])
    )
    assert code == 2 and len(captured.err) < 3000, captured.err[:300]
