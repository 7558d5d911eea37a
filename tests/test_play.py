"""``pyramid-env play``: the session through its text commands, and the terminal under tmux."""

from __future__ import annotations

import argparse
import io
import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pyramid_env.engine import Game, format_move, hint, why_illegal
from pyramid_env.engine.layout import slot
from pyramid_env.engine.moves import KING_AT, PAIR_AT, STOCK, WASTE
from pyramid_env.engine.state import face_up
from pyramid_env.play import (
    DECK,
    PlaySession,
    add_play_args,
    frame,
    main_play,
    run_lines,
    seeded_deals,
    session_from_args,
)
from pyramid_env.solver import solve

ROOT = Path(__file__).parents[1]
# Deal 5 under msc (face-up stock top, 3 passes) is won; deal 0 under msc is lost from the start.
# Bottom row of deal 5: 6s Kc 8c Th 2s 8d 8h; the face-up stock card is Td.
WON, LOST = 5, 0


def session(deal: int = WON, rules: str = "msc", **kw) -> PlaySession:
    kw.setdefault("autosave", None)
    return PlaySession(Game(deal, rules), solver_seconds=60, **kw)


def test_a_won_game_played_through_text_commands(tmp_path):
    line = solve(WON, "msc").line
    s = session(autosave=tmp_path / "auto.json")
    for i, move in enumerate(line):
        # Pairs both ways the player may type them: '8c+5s' and '8c 5s'.
        text = move.replace("+", " ") if i % 2 else move
        answer = s.handle(text)
        assert answer.startswith(f"played {move}"), (move, answer)
    assert s.game.status.value == "won" and s.game.moves == len(line)
    assert answer == "played 8s+5c: won! score 280"  # msc: 10 a pyramid card
    assert s.score() == 280 and dict(s.counters())["score"] == "280"
    assert s.status_line().startswith("won! score 280")
    assert Game.load(tmp_path / "auto.json").status.value == "won"  # autosaved to the end
    assert s.handle("draw") == "illegal: the game is over: won"


def test_an_illegal_move_is_answered_with_the_engines_reason():
    s = session()
    start = s.game.state.fields()
    pair = PAIR_AT[slot(6, 0), slot(6, 2)]  # 6s + 8c
    assert s.handle("6s 8c") == f"illegal: {why_illegal(s.game.state, pair)}"
    assert s.message == "illegal: 6s + 8c = 14, not 13"
    ks = KING_AT[slot(1, 0)]
    assert s.handle("Ks") == f"illegal: {why_illegal(s.game.state, ks)}"
    assert s.message == "illegal: Ks is covered by 9h and 6c"
    # By place: the waste is empty at the start.
    assert s.handle("w") == f"illegal: {why_illegal(s.game.state, KING_AT[WASTE])}"
    assert s.handle("As") == "illegal: As is not in play: it is in the stock"  # parse_move's
    assert s.game.state.fields() == start and s.game.moves == 0


def test_undo_returns_the_position():
    s = session()
    start = s.game.state.fields()
    s.handle("draw")
    after_draw = s.game.state.fields()
    assert s.handle("Kc") == "played Kc"
    assert s.handle("undo") == "took back Kc"
    assert s.game.state.fields() == after_draw and s.game.moves == 1
    assert s.handle("u") == "took back draw"
    assert s.game.state.fields() == start and s.game.moves == 0
    assert s.handle("undo") == "cannot undo: nothing to undo"
    # The drawn card stays seen, as it would for a player: Td and Qd named, the rest hidden.
    assert s.stock_text().startswith("stock: Td Qd ?? ")


def test_the_board_shows_the_stock_as_a_player_sees_it():
    s = session(rules="relaxed")
    assert "stock: 24 face down" in s.board_text()
    s.handle("draw")
    assert "stock: 23 face down" in s.board_text() and "waste: Td" in s.board_text()
    msc = session()
    assert msc.known() == face_up(msc.game.state)  # the face-up stock top, Td
    assert "stock: Td ??" in msc.screen()


def test_hint_solve_and_winnable():
    s = session()
    expected = format_move(s.game.state, hint(s.game.state))
    assert s.handle("hint") == f"hint (000's rule of thumb): {expected}"
    assert s.stop() == slot(6, 1)  # the hint (Kc) puts the cursor on its card
    answer = s.handle("best")
    label = "solver (it knows the stock order): "
    assert answer.startswith(label) and "shortest winning line" in answer
    move = answer.removeprefix(label).split(",")[0]
    s.handle(move)
    assert s.game.log == [move] and solve(s.game).status.value == "win"
    assert s.handle("winnable?").endswith(": yes, in " + str(solve(s.game).steps) + " steps")
    assert "knowing the stock order" in s.message
    lost = session(LOST)
    assert lost.handle("winnable?").endswith(": no: no line wins from here")
    assert lost.handle("solve") == label + "no line wins from here"


def test_save_load_and_resume(tmp_path):
    auto = tmp_path / "auto.json"
    s = session(autosave=auto)
    for text in ("draw", "draw", "Kc", "undo", "draw"):
        s.handle(text)
    assert Game.load(auto).log == s.game.log  # written after every change
    assert s.handle(f"save {tmp_path / 'mine.json'}") == f"saved to {tmp_path / 'mine.json'}"
    again = session(autosave=None)
    assert again.handle(f"load {tmp_path / 'mine.json'}").startswith("loaded ")
    assert again.game.state.fields() == s.game.state.fields() and again.game.moves == s.game.moves
    assert again.seen == s.seen and again.board_text() == s.board_text()
    assert again.handle("load /nonexistent/x.json").startswith("could not load")

    # A new game beside an unfinished autosave offers it, then --resume plays it.
    parser = argparse.ArgumentParser()
    add_play_args(parser)
    fresh = session_from_args(parser.parse_args(["--deal", "9", "--save", str(auto)]))
    assert fresh.game.deal.number == 9 and "'resume' goes on with it" in fresh.message
    assert fresh.handle("resume").startswith("loaded ") and fresh.game.log == s.game.log
    args = parser.parse_args(["--resume", "--save", str(auto)])
    resumed = session_from_args(args)
    assert resumed.game.state.fields() == s.game.state.fields()
    assert resumed.board_text() == s.board_text()


def test_restart_and_new():
    s = session()
    s.handle("draw")
    assert s.handle("restart") == "deal #5 again from the start" and s.game.moves == 0
    assert s.handle("new") == "new game: deal #6" and s.game.rules.name == "msc"
    seeded = session(deals=seeded_deals(7))
    seeded.handle("new")
    assert seeded.game.deal.number == next(seeded_deals(7))


def test_cursor_picks_a_king_then_a_pair():
    s = session()

    def go_to(place: int) -> None:
        for _ in range(len(s.stops())):
            if s.stop() == place:
                return
            s.handle("right")
        pytest.fail(f"the cursor never reached {place}: stops {s.stops()}")

    assert s.stop() == slot(6, 0)  # the bottom-left card first
    assert s.stops()[-2:] == [DECK, STOCK]  # no waste yet; the face-up stock card last
    go_to(slot(6, 1))
    assert s.handle("select") == "played Kc"  # a King goes at once
    go_to(DECK)
    s.handle("select")
    s.handle("select")  # two draws: 5s is the face-up stock card
    go_to(slot(6, 2))
    assert s.handle("select") == "picked 8c (row 7 col 3)" and s.selected == slot(6, 2)
    go_to(slot(6, 3))
    assert s.handle("select") == "illegal: 8c + Th = 18, not 13" and s.selected is None
    go_to(slot(6, 2))
    s.handle("select")
    assert s.handle("select") == "let go of 8c (row 7 col 3)" and s.selected is None
    s.handle("select")
    assert s.handle("cancel") == "let go of 8c (row 7 col 3)"
    s.handle("select")
    go_to(STOCK)
    assert s.handle("select") == "played 8c+5s"
    assert s.game.log == ["Kc", "draw", "draw", "8c+5s"]
    s.handle("up")  # from the piles up into the pyramid
    assert s.stop() < WASTE


def test_plain_front_end_reads_commands_line_by_line():
    out = io.StringIO()
    s = session()
    run_lines(s, iter(["draw\n", "6s 8c\n", "quit\n", "draw\n"]), out)
    text = out.getvalue()
    assert "played draw" in text and "illegal: 6s + 8c = 14, not 13" in text
    assert s.quit and s.game.moves == 1  # nothing after quit is read


def test_main_play_plain(monkeypatch, capsys, tmp_path):
    save = tmp_path / "auto.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO("draw\nquit\n"))
    assert main_play(["--plain", "--deal", "5", "--rules", "msc", "--save", str(save)]) == 0
    out = capsys.readouterr().out
    assert "deal #5 · msc" in out and "played draw" in out
    assert f"game saved in {save}" in out and Game.load(save).log == ["draw"]
    assert main_play(["--plain", "--rules", "nope"]) == 2
    assert "unknown preset 'nope'" in capsys.readouterr().err


def test_the_frame_fits_80_by_24():
    blessed = pytest.importorskip("blessed", reason="the terminal front end needs blessed")
    term = blessed.Terminal(kind="xterm-256color", force_styling=True)
    s = session(rules="two-card")
    s.handle("draw")
    for message in (None, s.handle("help")):
        rows = frame(term, s, "undo", message)
        assert len(rows) == 24 and max(term.length(r) for r in rows) <= 80
    plain = [term.strip_seqs(r) for r in frame(term, s, "")]
    assert plain[9].strip().startswith("[6s]") and "drawn Td" in plain[11]
    assert term.red in frame(term, s, "")[9]  # red suits in red (8d, Th, 8h)


def _tmux_screen(tmux: list[str], until: str, timeout: float = 20) -> str:
    """The pane's text once it shows ``until`` (fails with the screen if it never does)."""
    deadline = time.monotonic() + timeout
    while True:
        screen = subprocess.run(
            [*tmux, "capture-pane", "-p", "-t", "play"], capture_output=True, text=True
        ).stdout
        if until in screen:
            return screen
        if time.monotonic() > deadline:
            pytest.fail(f"the screen never showed {until!r}:\n{screen}")
        time.sleep(0.1)


def _type(tmux: list[str], text: str) -> None:
    subprocess.run([*tmux, "send-keys", "-t", "play", "-l", text], check=True)
    subprocess.run([*tmux, "send-keys", "-t", "play", "Enter"], check=True)


def test_the_terminal_board_under_tmux(tmp_path):
    tmux_bin = shutil.which("tmux")
    if tmux_bin is None:
        pytest.skip("tmux is not installed (apt-get install tmux): no terminal to play in")
    pytest.importorskip("blessed", reason="the terminal front end needs blessed (play extra)")
    # A server of our own (its own socket), so no tmux of the user's is touched.
    tmux = [tmux_bin, "-S", str(tmp_path / "tmux.sock")]
    save = tmp_path / "auto.json"
    play = f"{shlex.quote(sys.executable)} -m pyramid_env.play --deal 5 --rules msc --save {save}"
    env = {**os.environ, "HOME": str(tmp_path), "TERM": "xterm-256color"}
    subprocess.run(
        [*tmux, "new-session", "-d", "-s", "play", "-x", "80", "-y", "24",
         f"{play}; echo exit status $?; sleep 60"],
        check=True, cwd=ROOT, env=env,
    )  # fmt: skip
    try:
        screen = _tmux_screen(tmux, "deal #5 · msc")
        assert "[6s] Kc  8c  Th  2s  8d  8h" in screen  # the cursor on the bottom-left card
        assert "stock: Td ?? ??" in screen and "moves   0" in screen

        _type(tmux, "draw")
        screen = _tmux_screen(tmux, "played draw")
        assert "moves   1" in screen and "waste: Td" in screen and "face-up Qd" in screen

        _type(tmux, "6s 8c")
        screen = _tmux_screen(tmux, "illegal: 6s + 8c = 14, not 13")
        assert "moves   1" in screen

        _type(tmux, "undo")
        screen = _tmux_screen(tmux, "took back draw")
        assert "moves   0" in screen and "stock: Td Qd ??" in screen  # Qd was seen
        lines = screen.splitlines()
        assert len(lines) <= 24 and max(map(len, lines)) <= 80
        assert lines[-1].startswith(">") or lines[-2].startswith(">")  # the command line

        # The keyboard: right arrow onto Kc, Enter picks it, and a King goes alone.
        subprocess.run([*tmux, "send-keys", "-t", "play", "Right"], check=True)
        _tmux_screen(tmux, " 6s [Kc] 8c ")
        subprocess.run([*tmux, "send-keys", "-t", "play", "Enter"], check=True)
        screen = _tmux_screen(tmux, "played Kc")
        assert "[6s] ..  8c  Th" in screen and "pyramid 27 left" in screen  # cursor: nearest

        _type(tmux, "quit")
        screen = _tmux_screen(tmux, "exit status")
        assert "exit status 0" in screen and "Pyramid · deal" not in screen  # screen restored
        flags = subprocess.run(
            [*tmux, "display-message", "-p", "-t", "play", "#{alternate_on} #{cursor_flag}"],
            capture_output=True, text=True, check=True,
        ).stdout.split()  # fmt: skip
        assert flags == ["0", "1"]  # out of the alternate screen, the cursor shown again
        assert Game.load(save).log == ["draw", "undo", "Kc"]
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)
