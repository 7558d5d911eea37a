"""The analysis: the solver's verdicts along a game, the move that lost it, and a better one."""

from __future__ import annotations

from pyramid_env.engine import apply_checked, is_won, parse_move
from pyramid_env.replay import Replay, analyse
from pyramid_env.solver import solve
from tests.replay.conftest import DEAL, LOSING, RULES, K

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
