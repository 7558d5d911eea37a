"""The page: the engine's positions as its data, self-contained, byte for byte the kept one,
and the ``replay`` command that writes it.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from pyramid_env.engine import MOVES, CardError, Game, State, apply_checked, format_move, legal_ids
from pyramid_env.replay import (
    Analysis,
    Replay,
    add_replay_arguments,
    analyse,
    main_replay,
    page_data,
    render_html,
    write_html,
)
from pyramid_env.solver import solve
from tests.conftest import refused
from tests.replay.conftest import DEAL, FIXTURES, LOSING, RULES, WINNING_START, K

# -- the page ----------------------------------------------------------------------------------


def test_page_data_is_the_engines_positions(lost: Replay, lost_analysis) -> None:
    data = page_data(lost, lost_analysis)
    states = list(lost.positions())
    assert len(data["pos"]) == len(states) and len(data["moves"]) == len(lost.moves)
    for row, s in zip(data["pos"], states, strict=True):
        assert tuple(row[:5]) == (s.pyr, s.left, s.ptr, int(s.drawn), s.recycles)
        assert tuple(row[6:8]) == s.tops()
    assert data["moves"][K][:2] == [LOSING, 3]  # a pair, then its places
    assert data["analysis"]["losing"] == K
    other = Replay(DEAL, RULES, ("draw",))
    refused(write_html, other, "unused.html", lost_analysis, error=CardError, match="another game")


def test_a_100_move_page_is_small_and_self_contained(tmp_path: Path) -> None:
    line = solve(DEAL, RULES).line
    assert len(line) >= 100
    replay = Replay(DEAL, RULES, line[:100], agent="solver")
    path = write_html(replay, tmp_path / "page.html", analyse(replay))
    size = path.stat().st_size
    print(f"100-move page: {size:,} bytes")
    assert size < 200_000
    text = path.read_text(encoding="utf-8")
    assert "http://" not in text and "https://" not in text
    assert not re.search(r"\bsrc\s*=|@import|url\(", text)
    assert "default-src 'none'" in text  # the browser refuses any request the page makes


def test_a_game_of_no_moves(tmp_path: Path) -> None:
    r = Replay(DEAL, RULES, ())
    a = analyse(r)
    assert a.verdicts == ("win",) and a.losing_move is None
    data = page_data(r, a)
    assert len(data["pos"]) == 1 and data["moves"] == []
    assert write_html(r, tmp_path / "empty.html", a).stat().st_size > 0


def test_names_cannot_escape_the_data(lost: Replay) -> None:
    sneaky = Replay(lost.deal, lost.rules, lost.moves[:3], agent="</script><b>x</b>")
    text = render_html(sneaky)
    assert text.count("</script>") == 2  # the data's and the script's own
    assert "<b>x</b>" not in text


def first_moves(deal: int, rules: str, n: int) -> tuple[str, ...]:
    """The first ``n`` moves of :func:`play_on`'s line (fewer if the game ends first)."""
    s, moves = State(deal, rules), []
    while len(moves) < n and (ids := legal_ids(s)):
        move = MOVES[ids[-1]]
        moves.append(format_move(s, move))
        apply_checked(s, move)
    return tuple(moves)


def golden_pages() -> dict[str, tuple[Replay, Analysis | None]]:
    """Replays whose pages are kept in tests/fixtures/replay/ (a made-up analysis: no solver)."""
    analysis = Analysis(
        ("win",) * (K + 1) + ("loss",),
        tuple(i % 3 == 0 for i in range(K + 2)),
        K,
        "Qd+Ah",
        ("Qd+Ah", "draw"),
        5,
        0.1,
    )
    return {
        "analysed-relaxed": (Replay(DEAL, RULES, (*WINNING_START, LOSING), "greedy </script> & ·"),
                             analysis),
        "msc": (Replay(5, "msc", first_moves(5, "msc", 30)), None),
        "two-card": (Replay(7, "two-card", first_moves(7, "two-card", 25), "pimc"), None),
    }  # fmt: skip


def kept_page(name: str) -> bytes:
    """A kept page: ``analysed-relaxed.html`` whole; the others as its lines with their own
    title and data lines (``NAME.lines``: all that differs between the pages)."""
    shell = (FIXTURES / "analysed-relaxed.html").read_text("utf-8")
    if name == "analysed-relaxed":
        return shell.encode()
    title, data = (FIXTURES / f"{name}.lines").read_text("utf-8").splitlines()
    lines = shell.split("\n")
    at = {
        i
        for i, x in enumerate(lines)
        if x.startswith(("<title>", '<script type="application/json"'))
    }
    assert len(at) == 2
    first, second = sorted(at)
    lines[first], lines[second] = title, data
    return "\n".join(lines).encode()


@pytest.mark.parametrize("name", sorted(golden_pages()))
def test_the_page_is_byte_for_byte_the_kept_one(name: str, tmp_path: Path) -> None:
    # The pages the code wrote when the page's HTML, CSS and script moved from Python strings to
    # package data files: the same input must still give the same bytes (a change to the page
    # on purpose rewrites these fixtures, with render_html, and says so in its commit).
    replay, analysis = golden_pages()[name]
    kept = kept_page(name)
    assert render_html(replay, analysis).encode() == kept
    assert write_html(replay, tmp_path / "page.html", analysis).read_bytes() == kept


def test_main_replay_writes_the_page(tmp_path: Path, capsys, lost: Replay) -> None:
    g = Game(DEAL, RULES)
    for text in lost.moves:
        g.play(text)
    g.save(tmp_path / "game.json")
    parser = argparse.ArgumentParser()
    add_replay_arguments(parser)
    assert main_replay(parser.parse_args([str(tmp_path / "game.json"), "--analyse"])) == 0
    out = capsys.readouterr().out
    assert f"move {K + 1} ({LOSING})" in out
    assert (tmp_path / "game.html").stat().st_size > 0
    args = parser.parse_args([str(tmp_path / "game.json"), "--out", str(tmp_path / "p.html")])
    assert main_replay(args) == 0 and (tmp_path / "p.html").exists()
