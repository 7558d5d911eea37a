"""The replay page in a real headless Chromium through Selenium.

The Debian ``chromedriver`` is given by path (Selenium Manager then downloads nothing); the
tests skip, saying why, when Chromium, its driver or the ``selenium`` package is missing. A
screenshot of the page at the losing move is saved in ``tmp_path`` and, if ``REPLAY_ARTIFACTS``
names a folder, there too.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from pyramid_env.engine import STOCK, WASTE, State, apply_checked, parse_move
from pyramid_env.engine.cards import CARD_NAMES
from pyramid_env.engine.state import face_up
from pyramid_env.replay import Replay, write_html
from tests.replay.conftest import DEAL, LOSING, K, card_name, pyramid_names

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
