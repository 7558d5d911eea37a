"""Replays: the file, building one from games, saves and solver lines, the analysis, the page.

The browser tests open the page in a real headless Chromium through Selenium, with the Debian
``chromedriver`` given by path (Selenium Manager then downloads nothing); they skip, saying
why, when Chromium, its driver or the ``selenium`` package is missing. A screenshot of the
page at the losing move is saved in ``tmp_path`` and, if ``REPLAY_ARTIFACTS`` names a folder,
there too.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import time
from pathlib import Path

import pytest

from pyramid_env.engine import (
    MOVES,
    STOCK,
    WASTE,
    CardError,
    Game,
    IllegalMove,
    PyramidError,
    RulesError,
    State,
    apply_checked,
    format_move,
    is_won,
    legal_ids,
    parse_move,
)
from pyramid_env.engine.cards import CARD_NAMES
from pyramid_env.engine.state import face_up
from pyramid_env.replay import (
    Analysis,
    Replay,
    add_replay_arguments,
    analyse,
    main_replay,
    open_replay,
    page_data,
    render_html,
    write_html,
)
from pyramid_env.solver import solve

DEAL, RULES = 4, "relaxed"
# Deal 4 under relaxed is winnable; these are the first 17 moves of the solver's winning line,
# and 7h+6c then loses it (found by asking the solver about every move along the line; the
# tests below check both facts with the solver, so a changed engine cannot pass silently).
WINNING_START = (
    "7s+6h", "Ad+Qs", "Js+2c", "draw", "draw", "5h+8h", "draw", "draw", "draw", "draw",
    "draw", "draw", "draw", "draw", "draw", "draw", "draw",
)  # fmt: skip
LOSING = "7h+6c"
K = len(WINNING_START)  # the losing move's index
FIXTURES = Path(__file__).parent / "fixtures" / "replay"


def play_on(s: State, moves: list[str]) -> None:
    """Play the highest-numbered legal move (removals before draws) until the game ends."""
    while ids := legal_ids(s):
        move = MOVES[ids[-1]]
        moves.append(format_move(s, move))
        apply_checked(s, move)


@pytest.fixture(scope="module")
def lost() -> Replay:
    """Deal 4 played well for 17 moves, then 7h+6c, then on to the end."""
    s = State(DEAL, RULES)
    moves = [*WINNING_START, LOSING]
    for text in moves:
        apply_checked(s, parse_move(s, text))
    play_on(s, moves)
    return Replay(DEAL, RULES, tuple(moves), agent="test player")


@pytest.fixture(scope="module")
def lost_analysis(lost: Replay):
    return analyse(lost)


def pyramid_names(s: State) -> list[str]:
    return [CARD_NAMES[s.deal.cards[i]] for i in range(28) if s.pyr >> i & 1]


def card_name(s: State, place: int) -> str | None:
    c = s.card_at(place)
    return None if c is None else CARD_NAMES[c]


# -- the file ----------------------------------------------------------------------------------


def test_round_trip_through_dict_and_file(lost: Replay, tmp_path: Path) -> None:
    data = lost.to_dict()
    assert data["format"] == "pyramid-env-replay" and data["version"] == 1
    assert json.loads(json.dumps(data)) == data
    assert Replay.from_dict(data) == lost
    lost.save(tmp_path / "r.json")
    assert Replay.load(tmp_path / "r.json") == lost
    assert open_replay(tmp_path / "r.json") == lost
    masks = lost.seen_masks()
    with_seen = Replay(lost.deal, lost.rules, lost.moves, None, masks)
    assert Replay.from_dict(json.loads(json.dumps(with_seen.to_dict()))) == with_seen


def test_deal_and_moves_are_normalised() -> None:
    r = Replay(str(DEAL), RULES, ["6H+7s", "d"])
    assert r.deal == Game(DEAL).deal.code and r.deal.startswith("P2-")
    assert r.moves == ("7s+6h", "draw")
    assert r.rules.name == RULES


def test_positions_replay_the_moves(lost: Replay) -> None:
    states = list(lost.positions())
    assert len(states) == len(lost.moves) + 1
    assert states[0] == State(DEAL, RULES)
    s = State(DEAL, RULES)
    for text, after in zip(lost.moves, states[1:], strict=True):
        apply_checked(s, parse_move(s, text))
        assert after == s


def test_seen_defaults_to_the_cards_ever_face_up() -> None:
    r = Replay(DEAL, "msc", ("draw", "draw"))
    states = list(r.positions())
    want, seen = [], 0
    for s in states:
        seen |= face_up(s)
        want.append(seen)
    assert r.seen is None and r.seen_masks() == tuple(want)
    assert want[0] == 0b1 and want[2] == 0b111  # msc: the stock top lies face up


# -- building one ------------------------------------------------------------------------------


def test_from_game_without_undo(tmp_path: Path) -> None:
    g = Game(DEAL, RULES)
    for text in WINNING_START[:6]:
        g.play(text)
    r = Replay.from_game(g, agent="me")
    assert r.moves == tuple(g.log) and r.agent == "me" and r.seen is None
    assert list(r.positions())[-1].fields() == g.state.fields()
    g.save(tmp_path / "game.json")
    assert Replay.from_save(tmp_path / "game.json", agent="me") == r
    assert Replay.from_save(g.to_dict(), agent="me") == r
    assert open_replay(tmp_path / "game.json").moves == r.moves


def test_from_game_with_undo_keeps_the_standing_line_and_what_was_seen() -> None:
    g = Game(DEAL, RULES)
    g.play("draw")  # shows stock card 0...
    g.undo()  # ...and takes it back
    g.play(WINNING_START[0])
    g.play("draw")
    g.play("draw")  # shows stock card 1
    g.undo()
    assert "undo" in g.log
    r = Replay.from_game(g)
    assert r.moves == (WINNING_START[0], "draw")
    assert list(r.positions())[-1].fields() == g.state.fields()
    # Per position, what the player had seen when they played the move that stands: card 0
    # was peeked at before the first move; card 1 by the end.
    assert r.seen == (0b1, 0b1, 0b11)
    assert Replay(r.deal, r.rules, r.moves).seen_masks() == (0, 0, 0b1)  # without the peeks


def test_from_save_refuses_a_game_started_from_a_board() -> None:
    g = Game.from_board(str(State(DEAL, RULES).child(MOVES[0])), RULES)
    with pytest.raises(CardError, match="'board'"):
        Replay.from_game(g)


def test_from_solution_replays_to_a_win() -> None:
    sol = solve(DEAL, RULES)
    r = Replay.from_solution(DEAL, RULES, sol)
    assert r.moves == sol.line and r.agent == "solver"
    assert is_won(list(r.positions())[-1])
    assert set(r.seen_masks()) == {2**24 - 1}  # the solver reads the whole stock
    with pytest.raises(CardError, match="no winning line.*'loss'"):
        Replay.from_solution(3, RULES, solve(3, RULES))  # deal 3 cannot be won


# -- analysis ----------------------------------------------------------------------------------


def test_analyse_marks_the_move_that_lost_the_deal(lost: Replay, lost_analysis) -> None:
    a = lost_analysis
    assert a.losing_move == K and lost.moves[K] == LOSING
    states = list(lost.positions())
    assert solve(states[K]).status.value == "win"
    assert solve(states[K + 1]).status.value == "loss"
    assert a.verdicts == ("win",) * (K + 1) + ("loss",) * (len(states) - K - 1)
    # The better move keeps the deal winnable, and the line given from there wins.
    assert a.better_move is not None and a.better_move != LOSING
    assert a.better_line[0] == a.better_move
    s = states[K].copy()
    for text in a.better_line:
        apply_checked(s, parse_move(s, text))
    assert is_won(s)
    assert a.summary(lost).startswith(f"move {K + 1} ({LOSING}): after this move the deal")


def test_bisection_agrees_with_asking_every_position(lost: Replay, lost_analysis) -> None:
    every = analyse(lost, every=True)
    assert all(every.searched)
    assert every.verdicts == lost_analysis.verdicts
    assert every.losing_move == lost_analysis.losing_move
    assert every.better_move == lost_analysis.better_move
    assert sum(lost_analysis.searched) < len(lost.moves) // 4  # the point of bisecting


def test_analyse_without_a_losing_move() -> None:
    won = Replay.from_solution(DEAL, RULES, solve(DEAL, RULES))
    a = analyse(won)
    assert set(a.verdicts) == {"win"} and a.losing_move is None and a.better_move is None
    assert "winnable throughout" in a.summary(won)
    hopeless = Replay(3, RULES, ("draw", "draw"))
    b = analyse(hopeless)
    assert set(b.verdicts) == {"loss"} and b.losing_move is None
    assert "from the start" in b.summary(hopeless)


def test_analyse_out_of_budget_says_unknown_and_marks_nothing(lost: Replay) -> None:
    a = analyse(lost, budget=0)
    assert a.losing_move is None and a.better_move is None
    assert set(a.verdicts[: K + 1]) == {"unknown"}  # a win needs a search...
    assert set(a.verdicts[K + 1 :]) == {"loss"}  # ...these losses are proved without one
    assert "limits ran out" in a.summary(lost)


# -- bad input ---------------------------------------------------------------------------------

GOOD = {
    "format": "pyramid-env-replay",
    "version": 1,
    "deal": Game(DEAL).deal.code,
    "rules": {"name": RULES},
    "moves": ["7s+6h", "draw"],
}


@pytest.mark.parametrize(
    ("change", "error", "words"),
    [
        ({"format": "pyramid-env-save"}, CardError, "format='pyramid-env-save'"),
        ({"version": 2}, CardError, "version=2"),
        ({"colour": "red"}, CardError, "unknown field(s) 'colour'"),
        ({"moves": None}, CardError, "field 'moves' is None"),
        ({"deal": 4}, CardError, "field 'deal' is 4 (int)"),
        ({"deal": "P1-nonsense"}, CardError, "field 'deal': "),
        ({"rules": "relaxed"}, CardError, "field 'rules' is 'relaxed' (str)"),
        ({"rules": {"name": RULES, "passes": 0}}, RulesError, "field 'rules': rule passes=0"),
        ({"moves": "draw"}, CardError, "field 'moves' is 'draw' (str)"),
        ({"moves": ["draw", 5]}, CardError, "field 'moves[1]' is 5 (int)"),
        ({"moves": ["draw", "Kd"]}, IllegalMove, "field 'moves', move 1 ('Kd'): "),
        ({"moves": ["draw", "Zz"]}, CardError, "field 'moves', move 1 ('Zz'): "),
        ({"agent": 7}, CardError, "field 'agent' is 7 (int)"),
        ({"seen": [0, 1]}, CardError, "field 'seen' has 2 mask(s): it needs one per position, 3"),
        ({"seen": [0, -1, 0]}, CardError, "field 'seen[1]' is -1 (int)"),
        ({"seen": [0, 2**24, 0]}, CardError, "field 'seen[1]' is 16777216 (int)"),
        ({"seen": [0, True, 0]}, CardError, "field 'seen[1]' is True (bool)"),
        ({"seen": "all"}, CardError, "field 'seen' is 'all' (str)"),
    ],
)
def test_bad_input_names_the_field_and_value(change, error, words) -> None:
    assert issubclass(error, PyramidError)
    with pytest.raises(error, match=re.escape(words)):
        Replay.from_dict(GOOD | change)


def test_missing_fields_and_non_json_files(tmp_path: Path) -> None:
    with pytest.raises(CardError, match="missing field.*moves"):
        Replay.from_dict({k: v for k, v in GOOD.items() if k != "moves"})
    with pytest.raises(CardError, match="must be a dict"):
        Replay.from_dict(["not", "a", "dict"])
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(CardError, match="not JSON"):
        Replay.load(bad)
    bad.write_text('{"format": "something-else"}')
    with pytest.raises(CardError, match="format 'something-else'"):
        open_replay(bad)
    assert Replay.from_dict(GOOD | {"agent": None, "seen": None}).agent is None


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
    with pytest.raises(CardError, match="another game"):
        write_html(other, "unused.html", lost_analysis)


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


# -- in a browser ------------------------------------------------------------------------------

SUIT = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}


def shown_text(name: str) -> str:
    """How the page writes a card: ``'Th'`` -> ``'10♥'``."""
    return name[0].replace("T", "10") + SUIT[name[1]]


def _browser_paths() -> tuple[str, str]:
    try:
        import selenium  # noqa: F401
    except ImportError:
        pytest.skip("selenium is not installed: pip install selenium")
    browser = next(
        (p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p),
        None,
    )
    if browser is None:
        pytest.skip("no Chromium: apt-get install -y chromium chromium-driver")
    driver = shutil.which("chromedriver")
    if driver is None:
        pytest.skip("no chromedriver: apt-get install -y chromium-driver")
    return browser, driver


@pytest.fixture(scope="module")
def browser():
    browser_path, driver_path = _browser_paths()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = browser_path
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1280,1000",
    ):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # The driver by path: Selenium Manager is not run, so nothing is downloaded.
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def page(browser, lost: Replay, lost_analysis, tmp_path_factory):
    path = write_html(lost, tmp_path_factory.mktemp("page") / "lost.html", lost_analysis)
    browser.get(path.as_uri())
    return browser


def errors(driver) -> list[dict]:
    return [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def state(driver) -> dict:
    return driver.execute_script("return window.replayState()")


def dom(driver) -> dict:
    """What the page's DOM shows: cards by their data and by their visible text."""
    from selenium.webdriver.common.by import By

    def cards(selector: str) -> list:
        return driver.find_elements(By.CSS_SELECTOR, selector + " .card[data-card]")

    pyr = cards("#pyramid")
    waste = cards("#waste-top")
    return {
        "step": int(driver.find_element(By.ID, "step").text),
        "pyramid": [e.get_attribute("data-card") for e in pyr],
        "pyramid_text": ["".join(e.text.split()) for e in pyr],
        "waste": waste[0].get_attribute("data-card") if waste else None,
        "waste_text": "".join(waste[0].text.split()) if waste else None,
        "verdict": driver.find_element(By.ID, "verdict").text,
        "left": int(driver.find_element(By.ID, "left").text),
        "outlined": sorted(
            e.get_attribute("data-card")
            for e in cards("#pyramid")
            if "hl" in e.get_attribute("class").split()
        ),
    }


def check_step(driver, lost: Replay, analysis, k: int) -> None:
    """The page at step ``k`` shows what the engine's position ``k`` holds."""
    s = list(lost.positions())[k]
    seen = dom(driver)
    assert seen["step"] == k
    assert seen["pyramid"] == pyramid_names(s)
    assert seen["pyramid_text"] == [shown_text(c) for c in pyramid_names(s)]
    assert seen["left"] == s.pyramid_left
    assert seen["waste"] == card_name(s, WASTE)
    if seen["waste"]:
        assert seen["waste_text"] == shown_text(seen["waste"])
    assert seen["verdict"] == analysis.verdicts[k]
    if k < len(lost.moves):  # the next move's pyramid cards are outlined
        move = parse_move(s, lost.moves[k])
        want = sorted(card_name(s, p) for p in move.places if p < 28)
        assert seen["outlined"] == want
    hook = state(driver)
    assert hook["step"] == k and hook["total"] == len(lost.moves)
    assert hook["pyramidCards"] == seen["pyramid"]
    assert hook["wasteTop"] == seen["waste"] and hook["verdict"] == seen["verdict"]
    assert hook["losingStep"] == K


def test_browser_steps_show_the_engines_positions(page, lost: Replay, lost_analysis) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    assert errors(page) == []
    body = page.find_element(By.TAG_NAME, "body")
    check_step(page, lost, lost_analysis, 0)
    body.send_keys(Keys.ARROW_LEFT)  # nothing before the start
    check_step(page, lost, lost_analysis, 0)
    page.find_element(By.ID, "forward").click()
    check_step(page, lost, lost_analysis, 1)
    for _ in range(4):
        body.send_keys(Keys.ARROW_RIGHT)
    check_step(page, lost, lost_analysis, 5)
    page.find_element(By.ID, "back").click()
    check_step(page, lost, lost_analysis, 4)
    body.send_keys(Keys.END)
    check_step(page, lost, lost_analysis, len(lost.moves))
    assert page.find_element(By.ID, "status").text == "lost"
    body.send_keys(Keys.HOME)
    check_step(page, lost, lost_analysis, 0)
    jump = page.find_element(By.ID, "jump")
    jump.clear()
    jump.send_keys(str(K + 1), Keys.ENTER)
    check_step(page, lost, lost_analysis, K + 1)
    page.find_element(By.ID, "last").click()
    page.find_element(By.ID, "first").click()
    check_step(page, lost, lost_analysis, 0)
    assert errors(page) == []


def test_browser_play_and_pause(page, lost: Replay) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    page.execute_script("window.replayGo(0)")
    Select(page.find_element(By.ID, "speed")).select_by_value("250")
    body = page.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.SPACE)
    assert state(page)["playing"]
    deadline = time.monotonic() + 10
    while state(page)["step"] < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    body.send_keys(Keys.SPACE)
    stopped = state(page)
    assert not stopped["playing"] and stopped["step"] >= 2
    time.sleep(0.6)
    assert state(page)["step"] == stopped["step"]
    page.find_element(By.ID, "play").click()  # the button too
    assert state(page)["playing"]
    page.find_element(By.ID, "play").click()
    assert not state(page)["playing"]
    assert errors(page) == []


def test_browser_losing_marker_note_and_screenshot(
    page, lost: Replay, lost_analysis, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By

    page.execute_script("window.replayGo(0)")
    note = page.find_element(By.ID, "note")
    assert not note.is_displayed()
    marker = page.find_element(By.ID, "losing-marker")
    assert marker.is_displayed() and f"move {K + 1} ({LOSING})" in marker.get_attribute("title")
    marker.click()
    check_step(page, lost, lost_analysis, K)
    assert note.is_displayed()
    assert note.text == (
        f"Move {K + 1} ({LOSING}): after this move the deal could no longer be won; "
        f"{lost_analysis.better_move} would have kept it winnable."
    )
    assert page.find_element(By.CSS_SELECTOR, "#moves li.losing").text == f"{K + 1}. {LOSING}"
    assert page.find_element(By.ID, "verdict").get_attribute("class") == "badge win"
    shot = tmp_path / "replay-losing-move.png"
    assert page.save_screenshot(str(shot)) and shot.stat().st_size > 0
    if os.environ.get("REPLAY_ARTIFACTS"):
        folder = Path(os.environ["REPLAY_ARTIFACTS"])
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, folder / shot.name)
    page.find_element(By.ID, "forward").click()  # one step on: lost, and no note
    assert page.find_element(By.ID, "verdict").text == "loss" and not note.is_displayed()
    assert errors(page) == []


@pytest.mark.parametrize("rules", ["msc", "two-card"])
def test_browser_stock_as_the_player_saw_it(browser, rules: str, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    # Draw through the whole stock, turn it over and draw once: every stock card has been seen.
    s = State(DEAL, rules)
    moves = []
    while (s.stock_size or s.waste_size) and len(moves) < 80:
        text = "draw" if s.stock_size else "recycle"
        moves.append(text)
        apply_checked(s, parse_move(s, text))
        if text == "recycle":
            moves.append("draw")
            apply_checked(s, parse_move(s, "draw"))
            break
    replay = Replay(DEAL, rules, tuple(moves))
    browser.get(write_html(replay, tmp_path / f"{rules}.html").as_uri())
    states = list(replay.positions())
    for k in (0, 1, len(moves)):
        browser.execute_script(f"window.replayGo({k})")
        s = states[k]
        strip = browser.find_elements(By.CSS_SELECTOR, "#strip .card")
        faces = [e.get_attribute("data-card") for e in strip]
        assert len(faces) == s.stock_size
        known = replay.seen_masks()[k] | face_up(s)
        live = [i for i in range(s.ptr, 24) if s.left >> i & 1]
        assert faces == [CARD_NAMES[s.deal.cards[28 + i]] if known >> i & 1 else None for i in live]
        hook = state(browser)
        assert hook["second"] == card_name(s, STOCK) and hook["verdict"] is None
        spot = "#stock-top" if rules == "msc" else "#drawn"
        shown = browser.find_elements(By.CSS_SELECTOR, spot + " .card[data-card]")
        assert [e.get_attribute("data-card") for e in shown] == (
            [card_name(s, STOCK)] if card_name(s, STOCK) else []
        )
    assert faces and all(faces)  # after a whole pass, the player has seen every stock card
    assert errors(browser) == []
