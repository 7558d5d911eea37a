"""The solver against the engine (lines replay), a plain exhaustive search, and msc-1500."""

import random
from pathlib import Path

import pytest

from pyramid_env.engine import PRESETS, Deal, Game, Status, parse_board
from pyramid_env.engine.deal import parse_cards
from pyramid_env.engine.invariants import rule_variants
from pyramid_env.solver import Verdict, best_move, is_winnable, solve
from tests.brute import brute_shortest, brute_winnable, random_small_board

try:
    import numba  # noqa: F401

    SEARCHES = (False, True)  # the pure-Python A* and the compiled kernel
except ImportError:
    SEARCHES = (False,)

MSC = Path(__file__).parents[1] / "fixtures" / "msc-1500"
DECKS = (MSC / "decks.txt").read_text().splitlines()
LENGTHS = [int(x) for x in (MSC / "lengths.txt").read_text().split()]


def replay_wins(start, moves) -> bool:
    g = Game.from_board(str(start), start.rules)  # str(state) is the board with its stock
    for m in moves:
        g.play(m)
    return g.status is Status.WON


@pytest.mark.parametrize("rules", rule_variants(), ids=lambda r: r.name)
def test_verdicts_and_shortest_lengths_match_exhaustive_search(rules):
    rng = random.Random(rules.name)
    wins = losses = 0
    for _ in range(1000):
        s = parse_board(random_small_board(rng, rules), rules)
        truth = brute_winnable(s)
        for compiled in SEARCHES:  # the verdict searches: pure Python, and compiled
            sol = solve(s, compiled=compiled)
            assert sol.status == (Verdict.WIN if truth else Verdict.LOSS), f"{compiled}\n{s}"
            assert not truth or replay_wins(s, sol.moves)
        if truth:
            wins += 1
            want = brute_shortest(s)
            for compiled in SEARCHES:
                short = solve(s, shortest=True, compiled=compiled)
                assert short.steps == want, f"compiled={compiled}\n{s}"
                assert short.shortest and replay_wins(s, short.moves)
        else:
            losses += 1
            for compiled in SEARCHES:
                assert solve(s, shortest=True, compiled=compiled).status is Verdict.LOSS
    assert wins > 10 and losses > 10


@pytest.mark.parametrize("preset", list(PRESETS))
def test_full_deals_win_lines_replay(preset):
    for n in range(12):
        sol = solve(n, preset, time_limit=20)
        assert sol.status is not Verdict.UNKNOWN
        if sol.status is Verdict.WIN:
            g = Game(n, preset)
            for text in sol.line:  # the text form replays too
                g.play(text)
            assert g.status is Status.WON and len(sol.line) == sol.steps


def test_msc_oracle_sample_verdicts():
    for i in range(0, 1500, 25):
        sol = solve(Deal(parse_cards(DECKS[i])), "msc")
        assert sol.status == (Verdict.WIN if LENGTHS[i] else Verdict.LOSS), i


def test_msc_oracle_sample_shortest_lengths():
    # The quickest decks for our A* (a test, not a benchmark; the script checks all 1,500).
    for i in (0, 1, 4):
        sol = solve(Deal(parse_cards(DECKS[i])), "msc", shortest=True)
        assert sol.steps == LENGTHS[i], i


def test_mid_game_positions_and_helpers():
    assert is_winnable(Game(3, "relaxed")) is False  # deal 3 is lost under relaxed
    g = Game(0, "relaxed")
    line = solve(g).moves
    assert line and is_winnable(g) is True
    for m in line[:-10]:  # play on to near the end, then let best_move finish it
        g.play(m)
    first = solve(g, shortest=True).steps
    played = 0
    while g.status is Status.PLAYING:
        before = solve(g, shortest=True)
        assert before.status is Verdict.WIN and is_winnable(g)
        g.play(best_move(g))
        played += 1
        after = solve(g, shortest=True)
        assert after.steps == before.steps - 1  # the best move is on a shortest line
    assert g.status is Status.WON and played == first


def test_budget_gives_unknown_never_a_guess():
    sol = solve(Deal(parse_cards(DECKS[1344])), "msc", budget=1000)
    assert sol.status is Verdict.UNKNOWN and sol.moves is None and sol.nodes > 1000
    assert sol.won is None  # a script's three-valued verdict: unknown is neither won nor lost
    assert solve(0, "relaxed").won is True
    assert solve(1, "one-pass").won is False


def test_solved_positions_and_json():
    sol = solve(0, "relaxed")
    d = sol.to_dict()
    assert set(d) == {"status", "moves", "steps", "nodes", "seconds", "shortest"}
    assert d["status"] == "win" and d["steps"] == len(d["moves"])  # deal 0 is won
    apex = "Kc\n" + "\n".join("  ".join([".."] * (r + 1)) for r in range(1, 7)) + "\nstock:\n"
    s = parse_board(apex, "relaxed")
    assert solve(s).line == ("Kc",)
    g = Game.from_board(apex, "relaxed")
    g.play("Kc")
    assert solve(g).status is Verdict.WIN and solve(g).steps == 0
