"""The replay tests' shared game: deal 4 under relaxed, played well for 17 moves, then lost."""

from __future__ import annotations

from pathlib import Path

import pytest

from pyramid_env.engine import MOVES, State, apply_checked, format_move, legal_ids, parse_move
from pyramid_env.engine.cards import CARD_NAMES
from pyramid_env.replay import Replay, analyse

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
FIXTURES = Path(__file__).parents[1] / "fixtures" / "replay"


def play_on(s: State, moves: list[str]) -> None:
    """Play the highest-numbered legal move (removals before draws) until the game ends."""
    while ids := legal_ids(s):
        move = MOVES[ids[-1]]
        moves.append(format_move(s, move))
        apply_checked(s, move)


@pytest.fixture(scope="package")
def lost() -> Replay:
    """Deal 4 played well for 17 moves, then 7h+6c, then on to the end."""
    s = State(DEAL, RULES)
    moves = [*WINNING_START, LOSING]
    for text in moves:
        apply_checked(s, parse_move(s, text))
    play_on(s, moves)
    return Replay(DEAL, RULES, tuple(moves), agent="test player")


@pytest.fixture(scope="package")
def lost_analysis(lost: Replay):
    return analyse(lost)


def pyramid_names(s: State) -> list[str]:
    return [CARD_NAMES[s.deal.cards[i]] for i in range(28) if s.pyr >> i & 1]


def card_name(s: State, place: int) -> str | None:
    c = s.card_at(place)
    return None if c is None else CARD_NAMES[c]
